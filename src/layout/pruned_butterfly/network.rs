//! The pruned butterfly's network twin: its vertices and edges as a
//! network, from the leaf count or from a layout file's parameters.

use crate::layout::parameters::{FileParameters, ParameterError};
use crate::layout::SpecError;
use crate::network::{Network, NodeData, NodeId, Role};
use crate::sim::bb::graph::PrunedButterfly;

impl Network {
    /// The pruned butterfly of `n` leaves (a power of 4, at least 4):
    /// node ids are [`PrunedButterfly::index`], leaves processors and the
    /// other vertices switches, each at level `lg n - i`; one link per
    /// edge, child to parent.
    pub fn pruned_butterfly(n: u64) -> Result<Network, SpecError> {
        let pb = PrunedButterfly::new(n).ok_or(SpecError::NotPowerOfFour {
            processors: n,
            family: "the pruned butterfly",
        })?;
        let mut net = Network::with_nodes("pruned-butterfly", pb.vertex_count() as usize);
        for v in pb.vertices() {
            let role = if v.i == pb.n() {
                Role::Processor
            } else {
                Role::Switch
            };
            let data = NodeData {
                role,
                level: pb.n() - v.i,
            };
            net.set_node(NodeId(pb.index(v) as u32), data);
        }
        for e in pb.edges() {
            net.add_link(
                NodeId(pb.index(e.child) as u32),
                NodeId(pb.index(e.parent) as u32),
            );
        }
        Ok(net)
    }
}

/// The intended network of a `pruned-butterfly` layout file: parameter
/// `processors`, refused without building when the network has more
/// nodes or links than the file.
pub(crate) fn intended(p: &FileParameters) -> Result<Network, ParameterError> {
    let n = p.num("processors")?;
    let pb = PrunedButterfly::new(n).ok_or(SpecError::NotPowerOfFour {
        processors: n,
        family: "the pruned butterfly",
    })?;
    p.fits_nodes(Some(pb.vertex_count()))?;
    p.fits_links(Some(pb.edge_count()))?;
    Ok(Network::pruned_butterfly(n)?)
}
