//! The butterfly's network twin, the network a `butterfly` layout file
//! intends, and the wire length of every link of a laid-out `B(n)` for the
//! packet simulators.

use super::{node_id, SpecError};
use crate::layout::parameters::{FileParameters, ParameterError};
use crate::layout::twin::RealiseError;
use crate::layout::Embedding;
use crate::network::{Network, NodeData, NodeId, Role};

/// Which of the two links leaving `<l, c>` towards level `l + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LinkKind {
    /// To `<l + 1, c>`.
    Straight = 0,
    /// To `<l + 1, c ^ 2^l>`.
    Cross = 1,
}

impl LinkKind {
    /// The link's place among the `2N` links of its level: `2c` for the
    /// straight link leaving row `c`, `2c + 1` for the cross link.
    pub fn index(self, c: u64) -> usize {
        (2 * c + self as u64) as usize
    }
}

/// Nodes and links of `B(n)`, `(n + 1) 2^n` and `2n 2^n`; `None` past
/// `u64`.
fn counts(n: u32) -> Option<(u64, u64)> {
    let rows = 1u64.checked_shl(n)?;
    let nodes = (n as u64 + 1).checked_mul(rows)?;
    let links = (2 * n as u64).checked_mul(rows)?;
    Some((nodes, links))
}

impl Network {
    /// The butterfly `B(n)` of `rows = 2^n` rows (Maggs–Sitaraman section
    /// 1.1), ids as [`node_id`]: every node a switch at its level `l`, the
    /// straight then the cross link of each `<l, c>` in order of `(l, c)`.
    /// Refused unless `rows` is a power of 2 of at least 2 with node ids
    /// that fit in 32 bits.
    pub fn butterfly(rows: u64) -> Result<Network, SpecError> {
        if rows < 2 || !rows.is_power_of_two() {
            return Err(SpecError::ButterflyRows(rows));
        }
        let n = rows.trailing_zeros();
        let nodes = counts(n)
            .map(|c| c.0)
            .filter(|&c| c <= u32::MAX as u64)
            .ok_or(SpecError::TooManyNodes {
                count: (n as u64 + 1).saturating_mul(rows),
                limit_lg: 32,
            })?;
        let mut net = Network::with_nodes("butterfly", nodes as usize);
        for l in 0..=n {
            for c in 0..rows {
                let data = NodeData {
                    role: Role::Switch,
                    level: l,
                };
                net.set_node(NodeId(node_id(n, l, c)), data);
            }
        }
        for l in 0..n {
            for c in 0..rows {
                let from = NodeId(node_id(n, l, c));
                net.add_link(from, NodeId(node_id(n, l + 1, c)));
                net.add_link(from, NodeId(node_id(n, l + 1, c ^ (1 << l))));
            }
        }
        Ok(net)
    }
}

/// The intended network of a `butterfly` layout file: parameter `rows`,
/// refused without building when `B(lg rows)` has more nodes or links than
/// the file.
pub(crate) fn intended(p: &FileParameters) -> Result<Network, ParameterError> {
    let rows = p.num("rows")?;
    if rows < 2 || !rows.is_power_of_two() {
        return Err(SpecError::ButterflyRows(rows).into());
    }
    let sizes = counts(rows.trailing_zeros());
    p.fits_nodes(sizes.map(|s| s.0))?;
    p.fits_links(sizes.map(|s| s.1))?;
    Ok(Network::butterfly(rows)?)
}

/// The wire length of every link of a layout of `B(n)`, by level: entry
/// `[l][LinkKind::index(c)]` is the length (unit grid edges) of the link
/// from `<l, c>` to level `l + 1`, for `l` in `0 .. n`.
///
/// `emb` must have passed the legality checker (`crate::layout::check`);
/// this function checks only that it is `B(n)`: node ids `l N + c`, every
/// node at its level, and exactly the straight and cross links, compared
/// with [`Network::butterfly`] as a labelled multigraph. The layout's name
/// and parameters are not read, so any legal drawing of `B(n)` with these
/// ids serves. Errors: `n = 0` or a `B(n)` larger than the embedding
/// ([`RealiseError::Parameters`]), and the first difference from `B(n)`
/// ([`RealiseError::Network`]).
pub fn link_lengths_by_level(emb: &Embedding, n: u32) -> Result<Vec<Vec<u64>>, RealiseError> {
    let have = emb.nodes.len() as u64;
    let too_large = || {
        RealiseError::Parameters(ParameterError::MoreThanLayout {
            what: "nodes",
            have,
        })
    };
    if n == 0 {
        return Err(RealiseError::Parameters(SpecError::ButterflyRows(1).into()));
    }
    let (nodes, _) = counts(n).ok_or_else(too_large)?;
    if nodes > have {
        return Err(too_large());
    }
    let rows = 1u64 << n;
    let want =
        Network::butterfly(rows).map_err(|e| RealiseError::Parameters(ParameterError::Spec(e)))?;
    Network::from_embedding(emb)
        .and_then(|got| got.compare(&want))
        .map_err(RealiseError::Network)?;
    // The comparison holds every edge to a link of B(n) between levels l
    // and l + 1, and every link to exactly one edge.
    let mut lengths = vec![vec![0u64; 2 * rows as usize]; n as usize];
    for edge in &emb.edges {
        let (low, high) = (edge.from.min(edge.to) as u64, edge.from.max(edge.to) as u64);
        let (l, c) = ((low >> n) as usize, low & (rows - 1));
        debug_assert_eq!(high >> n, l as u64 + 1, "edge {} spans one level", edge.id);
        let kind = if high & (rows - 1) == c {
            LinkKind::Straight
        } else {
            LinkKind::Cross
        };
        lengths[l][kind.index(c)] = edge.length();
    }
    Ok(lengths)
}
