//! The wave/token algorithm of Maggs and Sitaraman, section 4: `k`
//! packets per input of the butterfly `B(n)`, routed in waves separated by
//! waves of tokens, with two FIFO queues of capacity `q` at every switch
//! ("model W"). A cycle-accurate, seeded-input simulation on
//! flat arrays: ring buffers indexed by queue, no allocation per step.
//!
//! # The algorithm
//!
//! Input `a` holds the stream `P_0, T, P_1, T, ..., P_{k-1}, T`: packet `i`
//! is in wave `2i`, the token after it in wave `2i + 1`. A switch of levels
//! `1 .. n` has a 0-queue and a 1-queue at the ends of its 0- and 1-edges
//! and a mode, initially 0. In mode 0 it forwards the 0-queue's packets in
//! FIFO order until a token heads the 0-queue, then turns to mode 1; in
//! mode 1 it forwards the 1-queue's packets until a token heads it too,
//! then waits until both out-edges' queues have room and sends one token
//! on each, and turns back to mode 0. Inputs send their stream in order
//! (tokens in pairs, one on each out-edge, when both targets have room);
//! outputs absorb packets and discard tokens. The switches never compare
//! ranks or destinations, and the algorithm cannot deadlock.
//!
//! The step is the butterfly engine's snapshot step, with the timing
//! `docs/simulation.md` gives for waves: a switch decides
//! from the state at the start of the step, "room" means fewer than `q`
//! items at the start of the step (a departure in the same step frees no
//! space), a switch makes at most one transmission event per step (a token
//! pair is one event), mode changes take no time, and an item sent in step
//! `t` can leave its next switch in step `t + 1` at the earliest. Each
//! queue has one feeder, so no arrivals compete.
//!
//! # What the paper bounds
//!
//! Lemma 4.1 turns a packet that arrives at step `lg N + d` or later into a
//! delay sequence of `d + (q - 2) f` distinct packets and tokens, of
//! strictly decreasing rank, on a path of length `lg N + 2f`; Theorem 4.3
//! counts such sequences and shows that with random destinations, for a
//! large enough constant `q`, every packet arrives within `c_1 (k + lg N)`
//! steps with probability at least `1 - N^{-c_2}`. The bound is
//! `O(k + lg N)`, which is optimal (an input sends `2k - 1` items before its
//! last packet, which then needs `lg N` hops). The constants are not
//! numeric, so the figure to compare across sizes is the routing time over
//! `k + lg N` ([`WaveRun::time_ratio`]): bounded in `N` for a constant
//! `q`. With `q = 1` the snapshot rule lets a full queue take an item only
//! every other step, and the ratio grows (E4 in `docs/simulation.md`).
//!
//! # Checking
//!
//! With [`Checks::Invariants`] (and always in debug builds) an observer
//! independent of the engine follows the stream of transmissions with its
//! own model of the queues and fails the run on a breach of the rules or
//! of invariants I1–I6 (listed under "Checks" in `docs/simulation.md`):
//! FIFO service, the unique path (which
//! makes I3 geometry), room at the start of the step (I5), one event per
//! switch per step, strictly increasing rank at every switch (I4, which
//! implies I1), all `k` tokens on every edge (I2, once drained: see
//! [`Until::Drained`]), a move in every step until done (I6), and the
//! engine's arrival times against its own. The first breach is returned as
//! a [`Violation`].

mod check;
mod engine;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use super::butterfly::{Butterfly, InEdge, Node};
use super::traffic::{Packet, PacketTraffic, TrafficError};
use crate::sim::seeded_trials;

pub use check::{Rank, Violation};

/// Whether a run is watched by the invariant checker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Checks {
    /// No checking in release builds (debug builds check anyway).
    Off,
    /// Check invariants I1–I6 (`docs/simulation.md`) on every transmission; a breach
    /// ends the run with [`WaveError::Invariant`].
    Invariants,
}

/// When a run stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Until {
    /// When the last packet reaches level `n` (the routing time `T`).
    Delivered,
    /// When the last token has been discarded at level `n` too, so that
    /// every edge has carried all of its `k` tokens (the checker then
    /// verifies I2 in full).
    Drained,
}

/// The parameters of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaveConfig {
    /// The capacity of each queue, in packets and tokens; at least 1.
    pub q: u32,
    /// Whether to check the invariants.
    pub checks: Checks,
    /// When to stop.
    pub until: Until,
}

impl WaveConfig {
    /// Queues of capacity `q`, no checks in release builds, stop when
    /// every packet is delivered.
    pub fn new(q: u32) -> Self {
        WaveConfig {
            q,
            checks: Checks::Off,
            until: Until::Delivered,
        }
    }
}

/// The result of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaveRun {
    /// `lg N`.
    pub n: u32,
    /// Packets per input.
    pub k: u32,
    /// Queue capacity.
    pub q: u32,
    /// The routing time `T`: the step at which the last packet reached
    /// level `n` (0 when `n = 0`, where inputs are outputs).
    pub routing_time: u64,
    /// The step at which each packet reached level `n`, in the order of
    /// the packets given.
    pub arrivals: Vec<u64>,
    /// Packets delivered (all of them: a run that cannot deliver them all
    /// is an error).
    pub delivered: u64,
    /// Hops made by packets, including the last into level `n`.
    pub packet_hops: u64,
    /// Hops made by tokens (a token pair is two hops).
    pub token_hops: u64,
    /// Steps simulated: `routing_time` with [`Until::Delivered`], at least
    /// that with [`Until::Drained`].
    pub steps: u64,
    /// The largest number of items each queue held at the end of a step,
    /// indexed by [`WaveRun::queue_index`].
    pub queue_peaks: Vec<u32>,
}

impl WaveRun {
    /// The index in [`WaveRun::queue_peaks`] of the queue at the end of
    /// in-edge `edge` of `node` (levels `1 .. n`; level `n` has no queues,
    /// its switches absorb on arrival).
    pub fn queue_index(&self, node: Node, edge: InEdge) -> Option<usize> {
        let rows = 1u64 << self.n;
        if node.level == 0 || node.level >= self.n || node.row >= rows {
            return None;
        }
        let switch = (node.level as u64 - 1) * rows + node.row;
        Some(2 * switch as usize + (edge == InEdge::One) as usize)
    }

    /// Packet and token hops together: the work done, for speed figures.
    pub fn item_hops(&self) -> u64 {
        self.packet_hops + self.token_hops
    }

    /// The largest occupancy of any queue (never above `q`).
    pub fn max_occupancy(&self) -> u32 {
        self.queue_peaks.iter().copied().max().unwrap_or(0)
    }

    /// Packet `index`'s delay: its arrival step less the `n` hops it needs.
    pub fn delay(&self, index: usize) -> Option<u64> {
        self.arrivals.get(index).map(|&a| a - self.n as u64)
    }

    /// `T / (k + lg N)`, the figure Theorem 4.3 bounds by a constant.
    pub fn time_ratio(&self) -> f64 {
        self.routing_time as f64 / (self.k + self.n) as f64
    }
}

/// Why a run cannot be made or did not finish.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WaveError {
    /// Queues that hold nothing cannot pass anything.
    #[error("queue capacity 0 cannot hold a packet or a token")]
    ZeroCapacity,
    /// A capacity beyond the engine's queue headers (and any memory).
    #[error("queue capacity {q} is beyond the engine's {max}")]
    CapacityTooLarge {
        /// The capacity asked for.
        q: u32,
        /// The largest the engine takes.
        max: u32,
    },
    /// Each input needs at least one packet (`k >= 1`).
    #[error("each input needs at least one packet (k >= 1)")]
    NoPackets,
    /// The packet list is not `k` per input.
    #[error("{got} packets; {expected} expected ({k} per input)")]
    PacketCount {
        /// `k N`.
        expected: u64,
        /// The packets given.
        got: usize,
        /// Packets per input.
        k: u32,
    },
    /// The packets are not grouped by input in increasing row order.
    #[error("packet {index} starts at row {row}, not {expected} (k per input, in row order)")]
    Misplaced {
        /// Its position in the list.
        index: usize,
        /// Its source row.
        row: u64,
        /// The row expected at that position.
        expected: u64,
    },
    /// A destination that is not an output row.
    #[error("packet {index} is bound for row {destination}, beyond the {rows} outputs")]
    DestinationOutOfRange {
        /// Its position in the list.
        index: usize,
        /// Its destination.
        destination: u64,
        /// `N`.
        rows: u64,
    },
    /// Packet ids are 31 bits and rows 31 bits in the engine's items.
    #[error("k N = {packets} packets on 2^{n} rows is beyond the engine's 2^31")]
    TooLarge {
        /// `lg N`.
        n: u32,
        /// `k N`.
        packets: u64,
    },
    /// A step in which nothing moved although items remain (I6); the state
    /// would repeat forever.
    #[error("deadlock at step {step} with {undelivered} packets undelivered")]
    Deadlock {
        /// The step.
        step: u64,
        /// Packets not yet at level `n`.
        undelivered: u64,
    },
    /// The routing problem cannot be made.
    #[error(transparent)]
    Traffic(#[from] TrafficError),
    /// The checker saw a breach of an invariant.
    #[error("invariant broken: {0}")]
    Invariant(#[from] Violation),
}

/// The largest packet count and row count the engine's item encoding holds.
const LIMIT: u64 = 1 << 31;

/// Checks the packets are `k` per input in row order with destinations in
/// range, as [`super::traffic::PacketTraffic::packets`] makes them.
fn validate(bfly: &Butterfly, packets: &[Packet], k: u32) -> Result<(), WaveError> {
    if k == 0 {
        return Err(WaveError::NoPackets);
    }
    let rows = bfly.rows();
    let expected = rows * k as u64;
    if expected > LIMIT || rows > LIMIT {
        return Err(WaveError::TooLarge {
            n: bfly.n,
            packets: expected,
        });
    }
    if packets.len() as u64 != expected {
        return Err(WaveError::PacketCount {
            expected,
            got: packets.len(),
            k,
        });
    }
    for (index, p) in packets.iter().enumerate() {
        let want = index as u64 / k as u64;
        if p.source != want {
            return Err(WaveError::Misplaced {
                index,
                row: p.source,
                expected: want,
            });
        }
        if p.destination >= rows {
            return Err(WaveError::DestinationOutOfRange {
                index,
                destination: p.destination,
                rows,
            });
        }
    }
    Ok(())
}

/// Route `packets` (`k` per input, grouped by input in increasing row
/// order, each input's in wave order, as
/// [`super::traffic::PacketTraffic::packets`] makes them) through `bfly`
/// by the wave/token algorithm with queues of capacity `config.q`.
///
/// Deterministic: the same packets and configuration give the same run.
/// Errors: bad parameters, a deadlock (which Lemma 4.1's argument rules
/// out), or, when checking, a broken invariant.
pub fn run_waves(
    bfly: &Butterfly,
    packets: &[Packet],
    k: u32,
    config: &WaveConfig,
) -> Result<WaveRun, WaveError> {
    if config.q == 0 {
        return Err(WaveError::ZeroCapacity);
    }
    if config.q > engine::MAX_Q {
        return Err(WaveError::CapacityTooLarge {
            q: config.q,
            max: engine::MAX_Q,
        });
    }
    validate(bfly, packets, k)?;
    let checking = cfg!(debug_assertions) || config.checks == Checks::Invariants;
    if checking {
        let mut checker = check::Checker::new(*bfly, packets, k, config.q);
        let run = engine::run(bfly, packets, k, config, &mut checker)?;
        checker.finish(&run, config.until)?;
        Ok(run)
    } else {
        engine::run(bfly, packets, k, config, &mut engine::Unwatched)
    }
}

/// Runs `trials` independent trials on `B(n)`: trial `i` draws its `k`
/// packets per input of kind `traffic` from [`crate::sim::trial_rng`]`(seed, i)` and
/// routes them with [`run_waves`]. Trials run in parallel; the results come
/// in trial order and do not depend on the number of threads.
pub fn run_wave_trials(
    n: u32,
    k: u32,
    traffic: PacketTraffic,
    config: &WaveConfig,
    seed: u64,
    trials: u64,
) -> Result<Vec<WaveRun>, WaveError> {
    let packets = 1u64
        .checked_shl(n)
        .and_then(|rows| rows.checked_mul(k as u64))
        .unwrap_or(u64::MAX);
    if packets > LIMIT || n >= 32 {
        return Err(WaveError::TooLarge { n, packets });
    }
    let bfly = Butterfly::new(n);
    seeded_trials(trials, seed, |_, rng| {
        let packets = traffic.packets(n, k, rng)?;
        run_waves(&bfly, &packets, k, config)
    })
}
