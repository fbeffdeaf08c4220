//! A layout's network twin: the network a layout realises (its nodes and
//! one link per edge), the network its `network` and `parameters` describe
//! (built by the family that wrote it), and the check that the two agree.

use super::parameters::{FileParameters, ParameterError};
use super::{Embedding, NetworkName};
use crate::network::{Network, NetworkError, NodeData, NodeId, Role};

/// Why a layout does not realise the network its parameters describe.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RealiseError {
    /// The parameters describe no network this layout can be.
    #[error("parameters: {0}")]
    Parameters(ParameterError),
    /// The layout's network differs from the one described (the first
    /// difference), or its nodes and edges make no network.
    #[error("network: {0}")]
    Network(NetworkError),
}

impl Network {
    /// The network a layout realises: its nodes (ids as in the file, which
    /// must be `0 .. N`) and one link per edge.
    pub fn from_embedding(e: &Embedding) -> Result<Network, NetworkError> {
        let n = e.nodes.len();
        let mut seen = vec![false; n];
        let mut net = Network::with_nodes(e.network.as_str(), n);
        for node in &e.nodes {
            let k = node.id as usize;
            if k >= n || std::mem::replace(&mut seen[k], true) {
                return Err(NetworkError::NodeIds {
                    last: n.saturating_sub(1),
                    found: node.id,
                });
            }
            net.set_node(
                NodeId(node.id),
                NodeData {
                    role: if node.kind == "processor" {
                        Role::Processor
                    } else {
                        Role::Switch
                    },
                    level: node.level,
                },
            );
        }
        for x in &e.edges {
            if x.from as usize >= n || x.to as usize >= n {
                return Err(NetworkError::UnknownNode(x.id));
            }
            net.add_link(NodeId(x.from), NodeId(x.to));
        }
        Ok(net)
    }

    /// The intended network of a layout file, from its `network` and
    /// `parameters` (as `fabric layout` writes them); `None` for networks
    /// no family knows.
    ///
    /// The parameters may describe a network of any size: one with more
    /// processors, nodes or links than the file has cannot be the one it
    /// realises, and is refused before it is built.
    pub fn intended(e: &Embedding) -> Option<Result<Network, ParameterError>> {
        use super::mesh::{self, Topology};
        use super::{
            butterfly, butterfly_net, fattree, fattree3d, folded, pruned_butterfly, pyramid,
            sorting_fat_tree, tree_of_meshes,
        };
        let p = FileParameters::new(e);
        Some(match e.network {
            NetworkName::Htree | NetworkName::FatTree => fattree::intended(&p),
            NetworkName::ButterflyFatTree => butterfly::intended_butterfly(&p),
            NetworkName::FatTree3d => fattree3d::intended(&p),
            NetworkName::ScalableFatTree => butterfly::intended_scalable(&p),
            NetworkName::TreeOfMeshes => tree_of_meshes::intended(&p),
            NetworkName::FatPyramid => pyramid::intended(&p),
            NetworkName::TreeOfMeshes3d => folded::intended_3d(&p),
            NetworkName::Butterfly => butterfly_net::intended(&p),
            NetworkName::Mesh => mesh::intended(&p, Topology::Mesh),
            NetworkName::Torus => mesh::intended(&p, Topology::Torus),
            NetworkName::PrunedButterfly => pruned_butterfly::intended(&p),
            NetworkName::SortingFatTree => sorting_fat_tree::intended(&p),
            NetworkName::Other(_) => return None,
        })
    }

    /// Whether a layout realises the network its `network` and `parameters`
    /// describe, the check `fabric layout` makes before it writes a layout
    /// and `fabric verify-layout` makes on a file: `Ok(Some(name))` when it
    /// does, `Ok(None)` for a network [`Network::intended`] does not know,
    /// and the problem otherwise (`parameters: ...` when they describe no
    /// network this layout can be, `network: ...` for the first difference).
    pub fn realised_by(e: &Embedding) -> Result<Option<String>, RealiseError> {
        match Network::intended(e) {
            None => Ok(None),
            Some(Err(err)) => Err(RealiseError::Parameters(err)),
            Some(Ok(want)) => Network::from_embedding(e)
                .and_then(|got| got.compare(&want))
                .map(|()| Some(want.name))
                .map_err(RealiseError::Network),
        }
    }
}

#[cfg(test)]
mod tests;
