//! The mesh's and torus's network twin, the network a `mesh` or `torus`
//! layout file intends, and the wire length of every link of a laid-out
//! mesh or torus for the mesh simulators.

use super::{successor, Topology};
use crate::layout::construction::Dims;
use crate::layout::parameters::{FileParameters, ParameterError};
use crate::layout::twin::RealiseError;
use crate::layout::{Embedding, SpecError};
use crate::network::{Network, NodeId};

impl Network {
    /// The mesh or torus of side `n` in `dims` dimensions (module comment
    /// of [`crate::layout::mesh`]): node `(i_1, ..., i_d)` has id
    /// `i_1 + i_2 n + i_3 n^2`, every node a processor at level 0; the
    /// links by axis, then by node, each from a node to its [`successor`].
    /// Refused for a side below 2 (mesh) or 3 (torus), and for more nodes
    /// than 32-bit ids number.
    pub fn mesh_or_torus(topology: Topology, n: u64, dims: Dims) -> Result<Network, SpecError> {
        topology.check_side(n)?;
        let nodes = topology
            .counts(n, dims)
            .map(|c| c.0)
            .filter(|&c| c <= u32::MAX as u64)
            .ok_or(SpecError::TooManyNodes {
                count: n.saturating_pow(dims.count()),
                limit_lg: 32,
            })?;
        let mut net = Network::with_nodes(topology.name(), nodes as usize);
        for a in 0..dims.count() {
            for v in 0..nodes {
                if let Some(w) = successor(topology, n, v, a) {
                    net.add_link(NodeId(v as u32), NodeId(w as u32));
                }
            }
        }
        Ok(net)
    }
}

/// The intended network of a `mesh` or `torus` layout file: parameters
/// `side` and `dims`, refused without building when the network has more
/// nodes or links than the file.
pub(crate) fn intended(p: &FileParameters, topology: Topology) -> Result<Network, ParameterError> {
    let n = p.num("side")?;
    let d = p.num("dims")?;
    let dims = Dims::from_count(d).ok_or(SpecError::MeshDims(d))?;
    topology.check_side(n)?;
    let counts = topology.counts(n, dims);
    p.fits_nodes(counts.map(|c| c.0))?;
    p.fits_links(counts.map(|c| c.1))?;
    Ok(Network::mesh_or_torus(topology, n, dims)?)
}

/// The wire length of every link of a layout of the mesh or torus of side
/// `n` in `dims` dimensions: entry `[a][v]` is the length (unit grid
/// edges) of the link from node `v` to its [`successor`] along axis `a`
/// (`i_a + 1`, modulo `n` for the torus), `None` for a mesh node with
/// `i_a = n - 1`, which has none.
///
/// `emb` must have passed the legality checker (`crate::layout::check`);
/// this function checks only that it is the network: the nodes and links
/// of [`Network::mesh_or_torus`], compared as a labelled multigraph. The
/// layout's name and parameters are not read, so any legal drawing with
/// these ids serves. Errors: a side the topology refuses or a network
/// larger than the embedding ([`RealiseError::Parameters`]), and the first
/// difference from the network ([`RealiseError::Network`]).
pub fn link_lengths(
    emb: &Embedding,
    topology: Topology,
    n: u64,
    dims: Dims,
) -> Result<Vec<Vec<Option<u64>>>, RealiseError> {
    let parameters = |e: ParameterError| RealiseError::Parameters(e);
    topology.check_side(n).map_err(|e| parameters(e.into()))?;
    let have = emb.nodes.len() as u64;
    let nodes = match topology.counts(n, dims) {
        Some((c, _)) if c <= have => c,
        _ => {
            return Err(parameters(ParameterError::MoreThanLayout {
                what: "nodes",
                have,
            }))
        }
    };
    let want = Network::mesh_or_torus(topology, n, dims).map_err(|e| parameters(e.into()))?;
    Network::from_embedding(emb)
        .and_then(|got| got.compare(&want))
        .map_err(RealiseError::Network)?;
    // The comparison holds every edge to one link of the network, and
    // every link to exactly one edge; its axis and direction are those of
    // the end whose successor the other end is (unique for n >= 3 in the
    // torus, and in the mesh).
    let mut lengths = vec![vec![None; nodes as usize]; dims.count() as usize];
    for edge in &emb.edges {
        let (u, w) = (edge.from as u64, edge.to as u64);
        for (a, axis) in lengths.iter_mut().enumerate() {
            let a32 = a as u32;
            if successor(topology, n, u, a32) == Some(w) {
                axis[u as usize] = Some(edge.length());
                break;
            }
            if successor(topology, n, w, a32) == Some(u) {
                axis[w as usize] = Some(edge.length());
                break;
            }
        }
    }
    Ok(lengths)
}
