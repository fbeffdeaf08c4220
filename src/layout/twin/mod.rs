//! A layout's network twin: the network a layout realises (its nodes and
//! one link per edge), the network its `network` and `parameters` describe
//! (built by the family that wrote it), and the check that the two agree.

use super::parameters::FileParameters;
use super::Embedding;
use crate::network::{Network, NodeData, NodeId, Role};

impl Network {
    /// The network a layout realises: its nodes (ids as in the file, which
    /// must be `0 .. N`) and one link per edge.
    pub fn from_embedding(e: &Embedding) -> Result<Network, String> {
        let n = e.nodes.len();
        let mut seen = vec![false; n];
        let mut net = Network::with_nodes(&e.network, n);
        for node in &e.nodes {
            let k = node.id as usize;
            if k >= n || std::mem::replace(&mut seen[k], true) {
                return Err(format!(
                    "node ids must be 0 .. {} without repeats; found {}",
                    n.saturating_sub(1),
                    node.id
                ));
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
                return Err(format!("edge {} names a node that does not exist", x.id));
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
    pub fn intended(e: &Embedding) -> Option<Result<Network, String>> {
        use super::{butterfly, fattree, fattree3d, folded, pyramid, tree_of_meshes};
        let p = FileParameters::new(e);
        Some(match e.network.as_str() {
            "htree" | "fat-tree" => fattree::intended(&p),
            "butterfly-fat-tree" => butterfly::intended_butterfly(&p),
            "fat-tree-3d" => fattree3d::intended(&p),
            "scalable-fat-tree" => butterfly::intended_scalable(&p),
            "tree-of-meshes" => tree_of_meshes::intended(&p),
            "fat-pyramid" => pyramid::intended(&p),
            "tree-of-meshes-3d" => folded::intended_3d(&p),
            _ => return None,
        })
    }

    /// Whether a layout realises the network its `network` and `parameters`
    /// describe, the check `fabric layout` makes before it writes a layout
    /// and `fabric verify-layout` makes on a file: `Ok(Some(name))` when it
    /// does, `Ok(None)` for a network [`Network::intended`] does not know,
    /// and the problem otherwise (`parameters: ...` when they describe no
    /// network this layout can be, `network: ...` for the first difference).
    pub fn realised_by(e: &Embedding) -> Result<Option<String>, String> {
        match Network::intended(e) {
            None => Ok(None),
            Some(Err(err)) => Err(format!("parameters: {err}")),
            Some(Ok(want)) => Network::from_embedding(e)
                .and_then(|got| got.compare(&want))
                .map(|()| Some(want.name))
                .map_err(|err| format!("network: {err}")),
        }
    }
}

#[cfg(test)]
mod tests;
