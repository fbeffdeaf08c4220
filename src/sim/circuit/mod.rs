//! Circuit-switched routing over a laid-out network, wire by wire, each
//! message timed by the wires of its own path (thesis §4.3).
//!
//! A *channel* is the set of parallel wires the layout draws between one
//! ordered pair of nodes; it carries as many messages at once as it has
//! wires, and its delay is `w` of its longest wire. Every round, each
//! undelivered message draws a path from its network's [`PathRule`] (random
//! choices included) and tries to seize it channel by channel: hop `j` of
//! every message is settled before hop `j + 1`, messages taking their turn in
//! an order drawn afresh each round (a random priority). A message that finds
//! a channel full is aborted there and tries again next round.
//!
//! Which messages meet in which round depends only on the network and the
//! seed, never on the wire lengths, so a layout with a longer wire changes
//! the times below and not the rounds. Times are in bit-times:
//! - an attempt that reaches the destination takes `2 sum (s + w_j) + L`:
//!   the head's way out through switches of delay `s` and wires of delay
//!   `w_j`, the `L` message bits, and the acknowledgement back;
//! - an attempt aborted at hop `j` takes `2 (sum_{i<j} (s + w_i) + s)`: out
//!   to the full channel and the abort back.
//!
//! A message's *delivery time* is the sum of its attempts: an approximation
//! of the asynchronous operating rule of thesis §4.3, where a message
//! retries as soon as its abort returns (here which messages collide is
//! still decided round by round, by a random priority rather than time
//! stamps). The *synchronous time* adds each round's longest attempt, as a
//! clocked network would.
//!
//! A round need not deliver anything (a message first in the order can
//! find a later hop's channel taken at an earlier hop by another), so
//! [`route`] gives up after `max_rounds`.

mod experiment;
mod rules;
#[cfg(test)]
mod tests;

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::layout::metrics::Delay;
use crate::layout::Embedding;

pub use experiment::{
    exchange, trial, DistanceRow, Exchange, ExchangeKind, Routable, TrialFigures, WireNetwork,
};
pub use rules::{FatTreeRule, MeshPoints, PyramidRule, TreeOfMeshesRule};

/// Why a layout cannot be routed by the circuit engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CircuitError {
    /// An edge names a node outside the layout.
    #[error("edge {edge} joins node {node}, which the layout does not have")]
    UnknownNode {
        /// The edge's id.
        edge: u32,
        /// The missing node.
        node: u32,
    },
    /// A path rule asked for a hop with no wire.
    #[error("no wire joins nodes {from} and {to}: the layout is not the network its rule routes")]
    NoWire {
        /// Node the hop leaves.
        from: u32,
        /// Node the hop enters.
        to: u32,
    },
    /// The network's processors do not form the square the traffic needs.
    #[error("{0}")]
    Shape(String),
}

/// Index of a directed channel.
pub type ChannelId = u32;

/// The channels of a layout: for each node its neighbours with the channel
/// towards them, each channel's wire count and delay.
#[derive(Clone, Debug)]
pub struct Channels {
    start: Vec<u32>,
    /// `(neighbour, channel)` sorted by neighbour, per node.
    next: Vec<(u32, ChannelId)>,
    /// Wires of each channel.
    pub capacity: Vec<u32>,
    /// Longest wire of each channel.
    pub length: Vec<u64>,
}

impl Channels {
    /// The channels of `e`, both directions of every wire, parallel wires
    /// merged.
    pub fn new(e: &Embedding) -> Result<Channels, CircuitError> {
        let nodes = e.nodes.len();
        let mut pairs: Vec<(u32, u32, u64)> = Vec::with_capacity(2 * e.edges.len());
        for x in &e.edges {
            for node in [x.from, x.to] {
                if node as usize >= nodes {
                    return Err(CircuitError::UnknownNode { edge: x.id, node });
                }
            }
            pairs.push((x.from, x.to, x.length()));
            pairs.push((x.to, x.from, x.length()));
        }
        pairs.sort_unstable();
        let mut start = vec![0u32; nodes + 1];
        let mut next = Vec::new();
        let (mut capacity, mut length) = (Vec::new(), Vec::new());
        for group in pairs.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
            let (a, b, _) = group[0];
            start[a as usize + 1] += 1;
            next.push((b, capacity.len() as ChannelId));
            capacity.push(group.len() as u32);
            length.push(group.iter().map(|g| g.2).max().unwrap_or(1));
        }
        for v in 0..nodes {
            start[v + 1] += start[v];
        }
        Ok(Channels {
            start,
            next,
            capacity,
            length,
        })
    }

    /// The channel from `a` to `b`.
    pub fn between(&self, a: u32, b: u32) -> Result<ChannelId, CircuitError> {
        let no_wire = CircuitError::NoWire { from: a, to: b };
        if a as usize + 1 >= self.start.len() {
            return Err(no_wire);
        }
        let list = &self.next[self.start[a as usize] as usize..self.start[a as usize + 1] as usize];
        list.binary_search_by_key(&b, |x| x.0)
            .map(|i| list[i].1)
            .map_err(|_| no_wire)
    }

    /// Number of channels.
    pub fn len(&self) -> usize {
        self.capacity.len()
    }

    /// Whether the layout has no wires.
    pub fn is_empty(&self) -> bool {
        self.capacity.is_empty()
    }
}

/// The paths a network's routing algorithm takes.
pub trait PathRule: Sync {
    /// The algorithm's name in reports.
    fn name(&self) -> &'static str;
    /// Append the nodes of a path from processor node `src` to processor
    /// node `dst` to `out` (both ends included), drawing any choice from
    /// `rng`.
    fn path(&self, src: u32, dst: u32, rng: &mut ChaCha8Rng, out: &mut Vec<u32>);
}

/// The time model: switch delay, message length and wire delay.
#[derive(Clone, Debug)]
pub struct Timing {
    /// Bit-times through a switch.
    pub switch_delay: f64,
    /// Bits per message.
    pub message_bits: f64,
    /// Delay of a wire from its length.
    pub delay: Delay,
}

/// One message's outcome.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Delivery {
    /// Round it got through.
    pub round: u32,
    /// Sum of its attempts' times (bit-times).
    pub time: f64,
    /// Its successful attempt's time alone: the path without contention.
    pub path_time: f64,
    /// The wire delays of its successful path summed, one way.
    pub path_wires: f64,
    /// Channels on its successful path.
    pub hops: u32,
}

/// A run's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Each message's delivery, in input order.
    pub deliveries: Vec<Delivery>,
    /// Rounds until every message got through.
    pub rounds: u32,
    /// Sum over rounds of the round's longest attempt (bit-times).
    pub synchronous_time: f64,
}

/// Route `messages` (pairs of processor nodes) by `rule` until all are
/// delivered, or fail after `max_rounds` rounds.
pub fn route(
    channels: &Channels,
    rule: &dyn PathRule,
    messages: &[(u32, u32)],
    timing: &Timing,
    rng: &mut ChaCha8Rng,
    max_rounds: u32,
) -> Result<Outcome, RouteFailure> {
    let delay: Vec<f64> = channels
        .length
        .iter()
        .map(|&l| timing.delay.of(l))
        .collect();
    let s = timing.switch_delay;
    let mut out = vec![
        Delivery {
            round: 0,
            time: 0.0,
            path_time: 0.0,
            path_wires: 0.0,
            hops: 0,
        };
        messages.len()
    ];
    let mut pending: Vec<u32> = (0..messages.len() as u32).collect();
    let mut used = vec![0u32; channels.len()];
    let mut touched: Vec<ChannelId> = Vec::new();
    let (mut nodes, mut start, mut hops) = (Vec::new(), Vec::new(), Vec::new());
    let mut blocked: Vec<Option<usize>> = Vec::new();
    let (mut rounds, mut synchronous_time) = (0u32, 0.0f64);
    while !pending.is_empty() {
        if rounds == max_rounds {
            return Err(RouteFailure::Rounds {
                rounds,
                undelivered: pending.len(),
            });
        }
        rounds += 1;
        pending.shuffle(rng);
        hops.clear();
        start.clear();
        for &m in &pending {
            let (src, dst) = messages[m as usize];
            nodes.clear();
            rule.path(src, dst, rng, &mut nodes);
            start.push(hops.len());
            for w in nodes.windows(2) {
                hops.push(channels.between(w[0], w[1])?);
            }
        }
        start.push(hops.len());
        blocked.clear();
        blocked.resize(pending.len(), None);
        let longest = start.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        for j in 0..longest {
            for (i, b) in blocked.iter_mut().enumerate() {
                if b.is_some() || start[i] + j >= start[i + 1] {
                    continue;
                }
                let c = hops[start[i] + j] as usize;
                if used[c] == channels.capacity[c] {
                    *b = Some(j);
                } else {
                    if used[c] == 0 {
                        touched.push(c as ChannelId);
                    }
                    used[c] += 1;
                }
            }
        }
        for c in touched.drain(..) {
            used[c as usize] = 0;
        }
        let mut longest_attempt = 0.0f64;
        let mut still = Vec::with_capacity(pending.len());
        for (i, &m) in pending.iter().enumerate() {
            let path = &hops[start[i]..start[i + 1]];
            let reached = blocked[i].unwrap_or(path.len());
            let way: f64 = path[..reached].iter().map(|&c| s + delay[c as usize]).sum();
            let d = &mut out[m as usize];
            let attempt = match blocked[i] {
                Some(_) => {
                    still.push(m);
                    2.0 * (way + s)
                }
                None => {
                    let t = 2.0 * way + timing.message_bits;
                    d.round = rounds;
                    d.path_time = t;
                    d.path_wires = path.iter().map(|&c| delay[c as usize]).sum();
                    d.hops = path.len() as u32;
                    t
                }
            };
            d.time += attempt;
            longest_attempt = longest_attempt.max(attempt);
        }
        synchronous_time += longest_attempt;
        pending = still;
    }
    Ok(Outcome {
        deliveries: out,
        rounds,
        synchronous_time,
    })
}

/// A run given up.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RouteFailure {
    /// Messages still undelivered after the last round allowed.
    #[error("{undelivered} messages undelivered after {rounds} rounds")]
    Rounds {
        /// Rounds run.
        rounds: u32,
        /// Messages still undelivered.
        undelivered: usize,
    },
    /// A path over a missing wire.
    #[error(transparent)]
    Path(#[from] CircuitError),
}
