//! The full-delay-tree bound of Maggs and Sitaraman's Theorem 2.1, as a
//! checker for any run of a greedy protocol on `B(n)` (queue model G: one
//! queue of capacity `q` per switch).
//!
//! Section 2.1 defines, for a set of packets with fixed paths:
//!
//! * `load(v)`: the number of packets whose path (levels `0 ..= n`) passes
//!   through node `v`; `v` is *full* when `load(v) >= q`.
//! * A *delay tree* of packet `p`: a subtree of the butterfly rooted at
//!   `p`'s input whose *spine* is `p`'s path, grown out of the spine so that
//!   every node is reached from the root along tree edges. Since the nodes
//!   reachable from one input form a complete binary tree (unique paths),
//!   any set of nodes reachable from the root that holds the spine and is
//!   closed under "parent" is such a tree.
//! * A *full* delay tree has every off-spine node full; the *maximal* one,
//!   `MFDT(p)`, holds every node reachable from the root whose root path
//!   has all its off-spine nodes full.
//! * `D(p)`: the sum of `load(v)` over `v` in `MFDT(p)` (a packet counts
//!   once per tree node it passes).
//!
//! Theorem 2.1's proof shows that in each step until `p` arrives some
//! packet queued on `MFDT(p)` moves, so `arrival(p) <= D(p)`; the check
//! asserts exactly that.
//!
//! The construction follows the paper's definition:
//!
//! * Spine nodes count towards `D(p)` whether or not they are full (the
//!   paper sums over *all* tree nodes).
//! * The spine node at level `l < n` has one off-spine child, at row
//!   `row_{l+1}(p) ^ 2^l`; an off-spine node at level `l < n` has both its
//!   children (neither can be on the spine again: paths are unique).
//! * The tree's only level-0 node is the root (the unbounded injection
//!   queue of `p`'s input). Off-spine nodes at level `n` are included when
//!   full, as the definition says, although outputs are sinks that never
//!   refuse a packet; the proof never needs them, so counting them only
//!   loosens the bound and never makes it wrong.
//!
//! The proof and the queue model used here (snapshot acceptance, 0-edge
//! first): a receiver with one free slot offered two
//! packets refuses one though its queue is not full. The proof's chain of
//! refusals still holds for `q >= 2`: that receiver holds `q - 1 >= 1`
//! packets (so its load is at least `q + 1` and it is in the tree), and
//! one of them moves or is refused by a full-load child in turn. With
//! `q = 1` the receiver may be empty and the step's only move may be a
//! packet entering the tree from outside, which the proof does not count;
//! the tests run `q = 1` too and have found no violation (the bound is
//! loosest there, every node on any path being full).
//!
//! Cost: [`loads`] is `O(packets * n)`, [`FullSubtrees::new`] is
//! `O((n + 1) N)` (one bottom-up pass, since the full off-spine subtree
//! below a node depends on the node alone), and then each `D(p)` is a sum
//! of `2n + 1` terms along the spine. The tests hold it against `MFDT(p)`
//! built node by node from the definition and against runs of a plain
//! greedy simulator.

use super::butterfly::{Butterfly, Node};
use super::traffic::Packet;

/// The largest `n` the checker accepts: its two tables take
/// `12 (n + 1) 2^n` bytes, 264 MB at `n = 20`.
pub const MAX_N: u32 = 20;

/// A packet's position in the slice the checker was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PacketIndex(pub usize);

/// Which end of a packet's path a row belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PathEnd {
    /// The input row (level 0).
    Source,
    /// The output row (level `n`).
    Destination,
}

impl std::fmt::Display for PathEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathEnd::Source => write!(f, "source"),
            PathEnd::Destination => write!(f, "destination"),
        }
    }
}

/// Why the bound cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DelayTreeError {
    /// The butterfly is too large for the checker's tables.
    #[error("B({n}) is beyond the checker's limit of n = {MAX_N}")]
    TooLarge {
        /// `lg N`.
        n: u32,
    },
    /// A packet names a row the butterfly does not have.
    #[error("packet {index} has {end} row {row}, but B({n}) has rows 0 .. 2^{n}")]
    RowOutOfRange {
        /// The packet's position.
        index: usize,
        /// Which end of the packet.
        end: PathEnd,
        /// The row it names.
        row: u64,
        /// `lg N`.
        n: u32,
    },
    /// The loads were counted on another butterfly.
    #[error("loads of B({loads}) used with B({butterfly})")]
    ButterflyMismatch {
        /// `lg N` of the loads.
        loads: u32,
        /// `lg N` of the butterfly given.
        butterfly: u32,
    },
    /// Arrival times and packets do not pair up.
    #[error("{arrivals} arrival times for {packets} packets")]
    ArrivalCount {
        /// The number of packets.
        packets: usize,
        /// The number of arrival times.
        arrivals: usize,
    },
}

/// The number of packets whose path passes through each node of `B(n)`,
/// stored flat by `level * N + row`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loads {
    bfly: Butterfly,
    counts: Vec<u32>,
}

impl Loads {
    /// The butterfly the loads were counted on.
    pub fn butterfly(&self) -> Butterfly {
        self.bfly
    }

    /// `load(v)`: the number of packets whose path holds `node` (a node of
    /// this butterfly).
    pub fn get(&self, node: Node) -> u32 {
        self.counts[flat(&self.bfly, node)]
    }

    /// Whether `node` is full for queues of capacity `q` (section 2.1: at
    /// least `q` paths pass through it).
    pub fn is_full(&self, node: Node, q: u32) -> bool {
        self.get(node) >= q
    }
}

/// The index of `node` in the flat per-node tables.
fn flat(bfly: &Butterfly, node: Node) -> usize {
    debug_assert!(node.level <= bfly.n && node.row < bfly.rows());
    (node.level as u64 * bfly.rows() + node.row) as usize
}

/// Refuses butterflies beyond [`MAX_N`] and packets with rows outside it.
fn validate(bfly: &Butterfly, packets: &[Packet]) -> Result<(), DelayTreeError> {
    if bfly.n > MAX_N {
        return Err(DelayTreeError::TooLarge { n: bfly.n });
    }
    for (index, p) in packets.iter().enumerate() {
        for (end, row) in [
            (PathEnd::Source, p.source),
            (PathEnd::Destination, p.destination),
        ] {
            if row >= bfly.rows() {
                return Err(DelayTreeError::RowOutOfRange {
                    index,
                    end,
                    row,
                    n: bfly.n,
                });
            }
        }
    }
    Ok(())
}

/// Counts `load(v)` for every node: each packet adds one to the `n + 1`
/// nodes of its path, `O(packets * n)` in all.
pub fn loads(bfly: &Butterfly, packets: &[Packet]) -> Result<Loads, DelayTreeError> {
    validate(bfly, packets)?;
    let mut counts = vec![0u32; bfly.node_count() as usize];
    for p in packets {
        for level in 0..=bfly.n {
            let row = Butterfly::row_at(p.source, p.destination, level);
            counts[flat(bfly, Node { level, row })] += 1;
        }
    }
    Ok(Loads {
        bfly: *bfly,
        counts,
    })
}

/// For every node `v`, the sum of loads over the largest subtree hanging
/// from `v` (`v` and its descendants towards the outputs) in which every
/// node is full: zero when `v` itself is not full. Entered off the spine,
/// this is exactly the part of a maximal full delay tree below `v`.
#[derive(Clone, Debug)]
pub struct FullSubtrees<'a> {
    loads: &'a Loads,
    q: u32,
    sums: Vec<u64>,
}

impl<'a> FullSubtrees<'a> {
    /// One bottom-up pass over the levels, `n` to 0: a full node's sum is
    /// its load plus its two children's sums (level `n` has none).
    pub fn new(loads: &'a Loads, q: u32) -> Self {
        let bfly = loads.bfly;
        let rows = bfly.rows() as usize;
        let mut sums = vec![0u64; loads.counts.len()];
        for level in (0..=bfly.n).rev() {
            let here = level as usize * rows;
            for row in 0..rows {
                let load = loads.counts[here + row];
                if load < q {
                    continue;
                }
                let below = if level < bfly.n {
                    let straight = here + rows + row;
                    let cross = here + rows + (row ^ (1 << level));
                    sums[straight] + sums[cross]
                } else {
                    0
                };
                sums[here + row] = u64::from(load) + below;
            }
        }
        FullSubtrees { loads, q, sums }
    }

    /// The queue capacity the sums were taken for.
    pub fn q(&self) -> u32 {
        self.q
    }

    /// The sum of loads over the full subtree hanging from `node` (zero if
    /// `node` is not full).
    pub fn sum(&self, node: Node) -> u64 {
        self.sums[flat(&self.loads.bfly, node)]
    }

    /// `D(p)`: the loads of `p`'s `n + 1` spine nodes plus, for each spine
    /// node below level `n`, the full subtree hanging from its off-spine
    /// child. `p`'s rows must lie in the butterfly ([`check`] validates).
    pub fn bound(&self, p: Packet) -> u64 {
        let bfly = self.loads.bfly;
        let mut total = 0u64;
        for level in 0..=bfly.n {
            let row = Butterfly::row_at(p.source, p.destination, level);
            total += u64::from(self.loads.get(Node { level, row }));
            if level < bfly.n {
                let next = Butterfly::row_at(p.source, p.destination, level + 1);
                total += self.sum(Node {
                    level: level + 1,
                    row: next ^ (1 << level),
                });
            }
        }
        total
    }
}

/// `D(p)` for one packet. This makes the per-node sums afresh, `O(nodes)`;
/// for many packets build [`FullSubtrees`] once (as [`check`] does).
pub fn full_delay_bound(
    bfly: &Butterfly,
    loads: &Loads,
    q: u32,
    packet: Packet,
) -> Result<u64, DelayTreeError> {
    if loads.bfly != *bfly {
        return Err(DelayTreeError::ButterflyMismatch {
            loads: loads.bfly.n,
            butterfly: bfly.n,
        });
    }
    validate(bfly, std::slice::from_ref(&packet))?;
    Ok(FullSubtrees::new(loads, q).bound(packet))
}

/// A packet that arrived later than Theorem 2.1 allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The packet.
    pub packet: PacketIndex,
    /// The step at which it reached level `n`.
    pub arrival: u64,
    /// `D(p)`, which the arrival exceeds.
    pub bound: u64,
}

/// The outcome of checking a run against Theorem 2.1.
#[derive(Clone, Debug, PartialEq)]
pub struct DelayTreeCheck {
    /// `D(p)` for each packet, in input order.
    pub bounds: Vec<u64>,
    /// The packets with `arrival(p) > D(p)`, in input order; empty when
    /// the theorem holds for the run.
    pub violations: Vec<Violation>,
    /// The largest `arrival(p) / D(p)` (0 when there are no packets).
    pub worst_ratio: f64,
    /// The first packet attaining `worst_ratio`.
    pub worst_packet: Option<PacketIndex>,
}

impl DelayTreeCheck {
    /// Whether every packet arrived within its bound.
    pub fn holds(&self) -> bool {
        self.violations.is_empty()
    }
}

/// Checks a greedy run on `B(n)` with queues of capacity `q`: packet `i`
/// went from `packets[i].source` to `packets[i].destination` and reached
/// level `n` at step `arrivals[i]` (steps count from 1; an undelayed
/// packet arrives at step `n`). Every `D(p)` is at least `n + 1` (the
/// spine holds `p` itself), so the ratios are finite.
pub fn check(
    bfly: &Butterfly,
    packets: &[Packet],
    arrivals: &[u64],
    q: u32,
) -> Result<DelayTreeCheck, DelayTreeError> {
    if packets.len() != arrivals.len() {
        return Err(DelayTreeError::ArrivalCount {
            packets: packets.len(),
            arrivals: arrivals.len(),
        });
    }
    let loads = loads(bfly, packets)?;
    let subtrees = FullSubtrees::new(&loads, q);
    let bounds: Vec<u64> = packets.iter().map(|&p| subtrees.bound(p)).collect();
    let mut violations = Vec::new();
    let mut worst_ratio = 0.0f64;
    let mut worst_packet = None;
    for (i, (&arrival, &bound)) in arrivals.iter().zip(&bounds).enumerate() {
        if arrival > bound {
            violations.push(Violation {
                packet: PacketIndex(i),
                arrival,
                bound,
            });
        }
        let ratio = arrival as f64 / bound as f64;
        if worst_packet.is_none() || ratio > worst_ratio {
            worst_ratio = ratio;
            worst_packet = Some(PacketIndex(i));
        }
    }
    Ok(DelayTreeCheck {
        bounds,
        violations,
        worst_ratio,
        worst_packet,
    })
}

#[cfg(test)]
mod tests;
