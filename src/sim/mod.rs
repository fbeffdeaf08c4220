//! Routing simulation over laid-out fabrics (thesis chapter 3).
//!
//! The core is shared by every network simulator:
//! - a message set ([`Message`], sorted by source) from a traffic generator
//!   ([`traffic`]), seeded;
//! - a [`Fabric`] that runs one synchronous, circuit-switched *delivery
//!   cycle*: the sent messages try their paths, the switches decide under a
//!   [`Policy`] which arrivals a congested channel keeps, and the messages
//!   that reach their destinations are delivered (acknowledged); the others
//!   are lost and retry later (no buffering);
//! - the routing algorithms ([`algorithms`]) that choose which undelivered
//!   messages to send in each cycle;
//! - the time model: bit-times per delivery cycle from switch depth and the
//!   wire delays `w(d)` of the layout's wires ([`TimeModel`]);
//! - independent trials run in parallel ([`run_trials`]), each with its own
//!   random stream, so results do not depend on the number of threads.
//!
//! Fabrics: [`fattree::FatTree`] (channels with ideal concentrators, the
//! fat-tree of chapter 3) and [`bft::LinkTree`] (every wire a channel of
//! capacity 1, the butterfly fat-tree of section 3.5).
//!
//! # Adding a simulator
//!
//! A network routed in delivery cycles (whole paths at once, losers lost
//! and retried, no buffering) is one file implementing [`Fabric`] (the
//! cycle, path latencies, address bits) and [`FabricFigures`] (channel
//! loads per level, capacities and wire figures for the report). The
//! routing algorithms ([`algorithms::route`]), the message sets
//! ([`traffic`]), the trial streams ([`trial_rng`]), the parallel trials
//! ([`run_trials`]) and the report ([`SimReport`], its YAML, table and
//! chart) then work on it unchanged; `fabric simulate` names the fabrics
//! in one enum (`Net` in `cli/simulate`), chosen from the
//! [`algorithms::AlgorithmKind`] and the network flag, and runs everything
//! after the build generically.
//!
//! Packet-level simulators (bounded-queue butterflies, wormhole routing,
//! mesh k-k routing, pruned butterflies) do not fit [`Fabric::cycle`]:
//! packets advance a hop per step and wait in bounded queues instead of
//! being lost, and a trial ends in steps to drain and queue and latency
//! figures rather than delivery cycles against the load factor. Neither
//! fabric here has queues, so no trait for them is stated yet; their step
//! loop (inject, route, arbitrate, advance and deliver, record) is theirs.
//! What they share with the fabrics: [`Message`] and
//! [`traffic::generate`] (message sets sorted by source), [`trial_rng`]
//! (one stream per seed and trial, so results do not depend on the number
//! of threads), [`Policy`] and [`concentrate`] (which contenders a switch
//! keeps), [`Spread`] (mean, extremes, deviation over trials), and the
//! shape of [`run_trials`] (trials in parallel, results in trial order).
//! Errors are [`SimError`] variants.
//!
//! # Example
//!
//! Route a random permutation on a fat-tree of 16 processors with GREEDY
//! and hold the delivery cycles to the load factor, the lower bound on any
//! schedule:
//!
//! ```
//! use fabric::sim::algorithms::{route, Algorithm};
//! use fabric::sim::fattree::FatTree;
//! use fabric::sim::traffic::{generate, Traffic};
//! use fabric::sim::{trial_rng, Policy};
//!
//! // Capacities 2^ceil(i/2) above a subtree of 2^i processors, root last.
//! let capacities: Vec<u32> = (0..=4).map(|i: u32| 1 << i.div_ceil(2)).collect();
//! let tree = FatTree::new(16, capacities)?;
//! let mut rng = trial_rng(7, 0);
//! let mut messages = generate(Traffic::Permutation, 16, 1, Policy::IdealRandom, &mut rng)?;
//! messages.sort_by_key(|m| m.src);
//! assert_eq!(messages.len(), 16);
//! let load = tree.load_factor(&messages);
//! let outcome = route(&tree, &messages, &Algorithm::Greedy, Policy::IdealRandom, 1_000, &mut rng);
//! assert!(outcome.complete, "GREEDY delivers every message");
//! assert!(outcome.cycles as f64 >= load.lambda.ceil());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod algorithms;
pub mod bb;
pub mod bft;
pub mod bounds;
pub mod circuit;
pub use bounds::{figure_3_3_region, SimWarning};
mod error;
pub mod fattree;
pub mod mesh;
pub mod openloop;
pub mod packet;
mod spread;
pub mod traffic;
pub mod universality;
pub mod wormhole;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

pub use error::SimError;
pub use spread::Spread;

/// The destination of a message that leaves the tree through the root's
/// external channel (the virtual sink of Theorem 8).
pub const SINK: u32 = u32::MAX;

/// One message: from processor `src` to processor `dst` (or [`SINK`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Message {
    /// Sending processor, `0 .. n`.
    pub src: u32,
    /// Receiving processor, `0 .. n`, or [`SINK`] to leave through the root.
    pub dst: u32,
}

/// What a switch does with more arrivals than a channel has wires (see
/// "Delivery cycles" in `docs/simulation.md`). With no more arrivals than
/// wires, every policy passes all of them (ideal concentrators).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// Keep `cap` of the arrivals, chosen uniformly at random.
    IdealRandom,
    /// Keep the first `cap` in a fixed input order (left input before right,
    /// from above before the turning ones, then by wire): deterministic and
    /// admissible in the sense of Theorem 8.
    Priority,
    /// As `Priority`, but the first input alternates with the cycle number.
    Rotating,
    /// Lose every arrival of a congested channel (the model of the RANDOM
    /// proof).
    DropAll,
}

impl Policy {
    /// Every policy.
    pub const ALL: [Policy; 4] = [
        Policy::IdealRandom,
        Policy::Priority,
        Policy::Rotating,
        Policy::DropAll,
    ];

    /// The command-line and report name (`ideal-random`, `priority`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Policy::IdealRandom => "ideal-random",
            Policy::Priority => "priority",
            Policy::Rotating => "rotating",
            Policy::DropAll => "drop-all",
        }
    }

    /// Whether the policy's choices use no randomness.
    pub fn is_deterministic(self) -> bool {
        !matches!(self, Policy::IdealRandom)
    }
}

/// Concentrate the arrivals of one channel. `group` holds them in input
/// order: the first `split` from input port 0, the rest from port 1, each
/// port's in wire order. Reorders `group` so that the survivors come first,
/// in the order they leave on the channel's wires, and returns how many
/// survive (never more than `cap`; all of them when there are at most
/// `cap`).
pub fn concentrate(
    policy: Policy,
    group: &mut [u32],
    split: usize,
    cap: usize,
    cycle: u64,
    rng: &mut ChaCha8Rng,
) -> usize {
    let len = group.len();
    match policy {
        Policy::Priority => len.min(cap),
        Policy::Rotating => {
            if cycle % 2 == 1 {
                group.rotate_left(split);
            }
            len.min(cap)
        }
        Policy::DropAll => {
            if len > cap {
                0
            } else {
                len
            }
        }
        Policy::IdealRandom => {
            if len > cap {
                for i in 0..cap {
                    let j = rng.gen_range(i..len);
                    group.swap(i, j);
                }
                cap
            } else {
                len
            }
        }
    }
}

/// A network that runs delivery cycles.
pub trait Fabric: Sync {
    /// Scratch space reused between cycles.
    type Work: Default + Send;

    /// Number of processors.
    fn processors(&self) -> u32;

    /// Run one delivery cycle: the messages `sent` (indices into `msgs`,
    /// increasing; `msgs` sorted by source, as every generator returns
    /// them) try their paths. Appends the delivered ones to
    /// `delivered` and returns the message-channel steps taken (one per
    /// arrival of a message at a channel or wire).
    #[allow(clippy::too_many_arguments)]
    fn cycle(
        &self,
        msgs: &[Message],
        sent: &[u32],
        policy: Policy,
        cycle: u64,
        rng: &mut ChaCha8Rng,
        work: &mut Self::Work,
        delivered: &mut Vec<u32>,
    ) -> u64;

    /// Path latency of one message in bit-times: switch delays plus wire
    /// delays along its path (the longest wires where it may choose).
    fn latency(&self, m: Message, time: &TimeModel) -> f64;

    /// Bits of a message's relative address.
    fn address_bits(&self) -> u64;

    /// Latency of the longest path any message between processors can take
    /// (through the root, over each level's slowest wire).
    fn worst_latency(&self, time: &TimeModel) -> f64;
}

/// What a report says of a fabric beyond its delivery cycles: the load of
/// a message set on its channels and the figures of its wires.
pub trait FabricFigures: Fabric {
    /// The network's name in reports (`fat-tree`, `butterfly-fat-tree`).
    fn network_name(&self) -> &str;

    /// The heaviest channel of each level for a message set (load over
    /// capacity; the first of equals), `None` for an idle level.
    fn level_loads(&self, msgs: &[Message]) -> Vec<Option<ChannelLoad>>;

    /// The load factor of a message set (Lemma 1) and the first channel
    /// attaining it, lowest level first.
    fn load_factor(&self, msgs: &[Message]) -> LoadFactor {
        LoadFactor::of_levels(&self.level_loads(msgs))
    }

    /// Wires per direction of each level's channels, from the processors
    /// up; empty for a fabric whose every wire is a channel.
    fn capacities(&self) -> &[u32];

    /// Layout length of each level's longest wire, from the processors up.
    fn wire_lengths(&self) -> &[u64];

    /// Delay in bit-times of each level's slowest wire.
    fn wire_delays(&self) -> &[f64];
}

/// How bit-times are counted.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeModel {
    /// Bit-times a switch takes to pass a message's head.
    pub switch_delay: f64,
    /// Payload bits after the address.
    pub payload_bits: u64,
}

/// The worst channel of a message set (Lemma 1).
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelLoad {
    /// Level of the channel (the channel above a subtree at this level).
    pub level: u32,
    /// Which subtree at that level (its first processor).
    pub first_processor: u32,
    /// Leaving the subtree or entering it.
    pub direction: Direction,
    /// Messages of the set that cross the channel in that direction.
    pub load: u64,
    /// Wires of the channel in that direction.
    pub capacity: u64,
}

impl ChannelLoad {
    /// The channel's load factor, `load / capacity`.
    pub fn factor(&self) -> f64 {
        self.load as f64 / self.capacity as f64
    }

    /// Whether this channel's load factor is larger than `other`'s
    /// (compared exactly: `a/b > c/d` iff `a d > c b`); any loaded channel
    /// beats none.
    pub fn heavier_than(&self, other: Option<&ChannelLoad>) -> bool {
        match other {
            None => self.load > 0,
            Some(b) => self.load * b.capacity > b.load * self.capacity,
        }
    }
}

/// Which way a channel carries messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Leaving the subtree, towards the root.
    Up,
    /// Entering the subtree, from above.
    Down,
}

/// The load factor of a message set and the channel attaining it.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadFactor {
    /// The load factor `lambda` (Lemma 1): the largest `load / capacity` of
    /// any channel; 0 for a set that loads no channel.
    pub lambda: f64,
    /// The first channel attaining `lambda`; `None` when no channel is loaded.
    pub channel: Option<ChannelLoad>,
}

/// The heaviest channel of one level: `up[j]` and `down[j]` are the loads
/// of the channel above subtree `j`, which starts at processor `first(j)`
/// and has `cap(j)` wires. The first of equals wins: up before down, then
/// the lowest `j`. `None` when the level carries nothing.
pub fn heaviest(
    level: u32,
    up: &[u64],
    down: &[u64],
    first: impl Fn(usize) -> u32,
    cap: impl Fn(usize) -> u64,
) -> Option<ChannelLoad> {
    let mut best: Option<ChannelLoad> = None;
    for (direction, table) in [(Direction::Up, up), (Direction::Down, down)] {
        for (j, &load) in table.iter().enumerate() {
            let c = ChannelLoad {
                level,
                first_processor: first(j),
                direction,
                load,
                capacity: cap(j),
            };
            if c.heavier_than(best.as_ref()) {
                best = Some(c);
            }
        }
    }
    best
}

/// Latency of a path up `levels` levels and down again, over each level's
/// slowest wire `wire_delay[i]`, through `2 levels - 1` switches.
pub fn leaf_root_leaf_latency(wire_delay: &[f64], levels: u32, time: &TimeModel) -> f64 {
    let k = levels as usize;
    let wires: f64 = wire_delay[..k].iter().sum();
    2.0 * wires + (2 * k).saturating_sub(1) as f64 * time.switch_delay
}

impl LoadFactor {
    /// The heaviest of the levels' heaviest channels (the lowest level on
    /// ties).
    pub fn of_levels(levels: &[Option<ChannelLoad>]) -> LoadFactor {
        let mut best: Option<&ChannelLoad> = None;
        for c in levels.iter().flatten() {
            if c.heavier_than(best) {
                best = Some(c);
            }
        }
        LoadFactor {
            lambda: best.map_or(0.0, ChannelLoad::factor),
            channel: best.cloned(),
        }
    }
}

/// The outcome of routing one message set.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Delivery cycles run.
    pub cycles: u64,
    /// Messages delivered (all of them unless `complete` is false).
    pub delivered: usize,
    /// Whether every message was delivered within the cycle limit.
    pub complete: bool,
    /// Message-channel steps simulated.
    pub steps: u64,
    /// Messages sent, summed over the cycles.
    pub sent: u64,
}

/// One trial: its message set's figures and the routing outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    /// The trial's number, `0 .. trials`, which picks its random stream
    /// ([`trial_rng`]).
    pub index: u64,
    /// Size of the trial's message set.
    pub messages: usize,
    /// The message set's load factor, before any routing.
    pub load: LoadFactor,
    /// How routing the set went.
    pub outcome: Outcome,
    /// Bit-times of one delivery cycle for this message set: twice the
    /// longest path latency (head out, acknowledgement back) plus the
    /// message length.
    pub cycle_bit_time: f64,
}

impl Trial {
    /// Total bit-times of the routing: `cycle_bit_time` times the delivery
    /// cycles run.
    pub fn bit_time(&self) -> f64 {
        self.cycle_bit_time * self.outcome.cycles as f64
    }
}

/// The random stream of trial `index` under `seed`: independent of the
/// thread that runs it.
pub fn trial_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// Runs `trials` independent trials in parallel: trial `i` is `one(i,
/// rng)` on the stream [`trial_rng`]`(seed, i)`, so the results, returned
/// in trial order, do not depend on the number of threads. If trials fail,
/// the error of the first failing trial in trial order is returned.
pub fn seeded_trials<T, E, F>(trials: u64, seed: u64, one: F) -> Result<Vec<T>, E>
where
    T: Send,
    E: Send,
    F: Fn(u64, &mut ChaCha8Rng) -> Result<T, E> + Sync,
{
    let results: Vec<Result<T, E>> = (0..trials)
        .into_par_iter()
        .map(|index| one(index, &mut trial_rng(seed, index)))
        .collect();
    results.into_iter().collect()
}

/// Bit-times of a delivery cycle for a message set on a fabric.
pub fn cycle_bit_time<F: Fabric>(fabric: &F, msgs: &[Message], time: &TimeModel) -> f64 {
    let longest = msgs
        .iter()
        .map(|&m| fabric.latency(m, time))
        .fold(0.0, f64::max);
    2.0 * longest + (fabric.address_bits() + time.payload_bits) as f64
}

/// Run `trials` independent trials in parallel: trial `i` draws its message
/// set with `make(i, rng)` and routes it with `route(msgs, rng)` (which
/// returns the set's load factor and the outcome), both from the stream
/// [`trial_rng`]`(seed, i)`. Results come back in trial order.
pub fn run_trials<F, M, R>(
    fabric: &F,
    trials: u64,
    seed: u64,
    time: &TimeModel,
    make: M,
    route: R,
) -> Vec<Trial>
where
    F: Fabric,
    M: Fn(u64, &mut ChaCha8Rng) -> Vec<Message> + Sync,
    R: Fn(&[Message], &mut ChaCha8Rng) -> (LoadFactor, Outcome) + Sync,
{
    let Ok(trials) = seeded_trials(trials, seed, |index, rng| {
        let msgs = make(index, rng);
        let cycle_bit_time = cycle_bit_time(fabric, &msgs, time);
        let (load, outcome) = route(&msgs, rng);
        Ok::<_, std::convert::Infallible>(Trial {
            index,
            messages: msgs.len(),
            load,
            outcome,
            cycle_bit_time,
        })
    });
    trials
}

/// The trials of one rate.
#[derive(Clone, Debug, PartialEq)]
pub struct SimRun {
    /// The traffic rate: messages each processor sends (for
    /// `greedy-adversary`, the load factor of `M_n`).
    pub rate: u32,
    /// The trials in trial order.
    pub trials: Vec<Trial>,
    /// The heaviest channel of each level for trial 0's message set.
    pub levels: Vec<Option<ChannelLoad>>,
}

/// Everything `fabric simulate` reports.
#[derive(Clone, Debug, PartialEq)]
pub struct SimReport {
    /// The fabric simulated: `fat-tree` or `butterfly-fat-tree`.
    pub network: String,
    /// Number of processors `n`.
    pub processors: u32,
    /// The capacity function, as a formula.
    pub capacity: String,
    /// Wires per direction per level (fat-tree; empty for wire-level
    /// fabrics).
    pub capacities: Vec<u32>,
    /// The fat-tree's congestion parameter `r` (section 3.2); `None` for
    /// wire-level fabrics.
    pub congestion_parameter: Option<f64>,
    /// The routing algorithm, with RANDOM's constants.
    pub algorithm: algorithms::Algorithm,
    /// What congested switches keep.
    pub policy: Policy,
    /// The message sets' pattern.
    pub traffic: traffic::Traffic,
    /// The seed every trial's random stream derives from.
    pub seed: u64,
    /// Where the wire lengths came from.
    pub layout: String,
    /// The wire delay function `w(d)` as given (`unit`, `linear`, `log`,
    /// `sqrt`, or points `d:w,...`).
    pub delay: String,
    /// Layout length of each level's longest wire, from the processors up.
    pub wire_length: Vec<u64>,
    /// Delay in bit-times of each level's slowest wire, `w` of its length.
    pub wire_delay: Vec<f64>,
    /// Switch delay and payload bits.
    pub time: TimeModel,
    /// Bit-times of a delivery cycle sized for the network's longest path,
    /// whatever the message set.
    pub network_cycle_bit_time: f64,
    /// Delivery cycles after which a trial is given up as incomplete.
    pub max_cycles: u64,
    /// What the run's setup warns of (printed on stderr and recorded).
    pub warnings: Vec<SimWarning>,
    /// One run per rate, in the order the rates were given.
    pub runs: Vec<SimRun>,
}

/// `lg` of a processor count, at least 1.
pub fn lg(n: u32) -> f64 {
    (n.max(2) as f64).log2()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concentrators_are_ideal_and_respect_capacity() {
        let mut rng = trial_rng(7, 0);
        for policy in Policy::ALL {
            for len in 0..9usize {
                for cap in 1..6usize {
                    for split in 0..=len {
                        let mut g: Vec<u32> = (0..len as u32).collect();
                        let kept = concentrate(policy, &mut g, split, cap, 3, &mut rng);
                        let mut sorted = g.clone();
                        sorted.sort_unstable();
                        assert_eq!(sorted, (0..len as u32).collect::<Vec<_>>());
                        if len <= cap {
                            assert_eq!(kept, len, "{policy:?} lost a message below capacity");
                        } else if policy == Policy::DropAll {
                            assert_eq!(kept, 0);
                        } else {
                            assert_eq!(kept, cap);
                        }
                        if policy == Policy::Priority {
                            assert_eq!(&g[..kept], &(0..kept as u32).collect::<Vec<_>>()[..]);
                        }
                        if policy == Policy::Rotating && len > cap {
                            // Odd cycle: port 1 first.
                            let first = if split < len { split as u32 } else { 0 };
                            assert_eq!(g[0], first);
                        }
                    }
                }
            }
        }
    }
}
