//! The synchronous store-and-forward engine on `B(n)` (section 2 of Maggs
//! and Sitaraman): queue models G and T.
//!
//! Every packet starts in the unbounded injection queue of its input (level
//! 0); outputs (level `n`) are ideal sinks. Step `t = 1, 2, ...`:
//! 1. every switch chooses its transmissions from the state at the start
//!    of the step (its protocol, [`Protocol`]);
//! 2. a receiver accepts from its occupancy at the start of the step:
//!    departures in the same step do not free room;
//! 3. the moves are applied, arrivals appended 0-edge first.
//!
//! A packet sent in step `t` can leave its next queue in step `t + 1`, so
//! an undelayed packet reaches level `n` at step `n`. A step in which
//! nothing moves while packets remain is a deadlock and an error.
//!
//! The engine walks the levels from `n - 1` down to 0, so a switch has sent
//! before anything arrives at it in the same step (no packet moves twice);
//! a receiver's start-of-step occupancy is its length now plus what it
//! sent in the sweep just before. Within a level it walks occupied rows in
//! increasing order (a bitset per level), and a receiver's 0-edge sender
//! has the smaller row: arrivals land 0-edge first without sorting.
//!
//! Queue models ([`QueueModel`]; each section of the paper has its own,
//! so the model is a configuration, not one structure for all):
//! - **G** (section 2): one queue of capacity `q` per switch; with more
//!   requests than free slots the 0-edge request wins.
//! - **T** (section 3): one queue per switch with threshold `q`: both
//!   in-neighbours may push while the occupancy at the start of the step is
//!   at most `q`, so a queue holds at most `q + 2`.
//!
//! The destinations a switch consults are read when it sends, never
//! before: the adversary of section 3 ([`Oracle`]) fixes a destination bit
//! at the moment a nonpredictive switch first picks the packet.

mod bank;
pub mod protocol;

use bank::Bank;
use protocol::Kind;
pub use protocol::Protocol;

use super::traffic::Packet;
use rand_chacha::ChaCha8Rng;

/// How a switch's queue accepts arrivals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum QueueModel {
    /// One queue of capacity `q` (section 2).
    Greedy,
    /// One queue with threshold `q`, holding at most `q + 2` (section 3).
    Threshold,
}

/// What the engine runs: the queue model, the protocol and `q`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The queue model.
    pub model: QueueModel,
    /// The switches' protocol.
    pub protocol: Protocol,
    /// Capacity (model G, at least 1) or threshold (model T, at least 0).
    pub q: u32,
}

/// Why a run cannot start or could not finish.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// Model G with `q = 0` can never accept a packet.
    #[error("model G needs a queue capacity q >= 1")]
    ZeroCapacity,
    /// Queues are meant to be small constants.
    #[error("q = {q}: at most {MAX_Q}")]
    QueueTooLarge {
        /// The `q` asked for.
        q: u32,
    },
    /// The butterfly has more rows than the engine numbers (it numbers
    /// rows in 32 bits).
    #[error("B({n}) has 2^{n} rows: at most 2^{MAX_N}")]
    TooManyRows {
        /// The `n` asked for.
        n: u32,
    },
    /// A packet's input or output is not a row of the butterfly.
    #[error("packet {index} runs from row {input} to row {output}, outside the {rows} rows")]
    RowOutside {
        /// The packet's position in the list.
        index: usize,
        /// Its input row.
        input: u64,
        /// Its output row.
        output: u64,
        /// The rows of the butterfly.
        rows: u64,
    },
    /// More packets than ids.
    #[error("{packets} packets: at most 2^32 - 1")]
    TooManyPackets {
        /// Packets given.
        packets: usize,
    },
    /// A two-leg run needs one intermediate row per packet.
    #[error("{via} intermediate rows for {packets} packets")]
    ViaCount {
        /// Intermediates given.
        via: usize,
        /// Packets given.
        packets: usize,
    },
    /// An intermediate row is not a row of the butterfly.
    #[error("packet {index}'s intermediate row {row} is outside the {rows} rows")]
    ViaOutside {
        /// The packet's position in the list.
        index: usize,
        /// Its intermediate row.
        row: u64,
        /// The rows of the butterfly.
        rows: u64,
    },
    /// Nothing moved in a step while packets remained.
    #[error("deadlock at step {step}: {remaining} packets remain and none moved")]
    Deadlock {
        /// The step.
        step: u64,
        /// Packets not yet delivered.
        remaining: u64,
    },
}

/// Hooks a nonpredictive switch's first pick of a packet: the adversary of
/// section 3 fixes destination bits here.
pub trait Oracle {
    /// Whether the oracle wants to hear of picks at all; without one a
    /// FIFO switch's pick is simply its head and needs no bookkeeping.
    const WATCHES: bool = true;

    /// Switch `<level, row>` has just picked `packet` for the first time;
    /// `dest` holds every packet's destination, and the switch reads bit
    /// `level` of `dest[packet]` right after this returns.
    fn on_select(&mut self, level: u32, row: u64, packet: u32, dest: &mut [u64]);
}

/// No oracle: destinations are fixed from the start.
pub struct Fixed;

impl Oracle for Fixed {
    const WATCHES: bool = false;

    #[inline]
    fn on_select(&mut self, _: u32, _: u64, _: u32, _: &mut [u64]) {}
}

/// The outcome of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The routing time `T`: the step the last packet reached level `n`
    /// (0 without packets).
    pub steps: u64,
    /// The step each packet reached level `n`, in input order.
    pub arrival: Vec<u32>,
    /// The packets in the order they reached level `n` (by step; within a
    /// step, 0-edge before 1-edge at each output).
    pub delivery_order: Vec<u32>,
    /// The destinations the packets were delivered to (those given, or
    /// those an oracle fixed).
    pub destination: Vec<u64>,
    /// The most packets a switch (levels `1 .. n`) held at once.
    pub max_switch_occupancy: u32,
    /// The most packets an injection queue (level 0) held.
    pub max_injection_occupancy: u32,
    /// Two-leg runs ([`run_through`]): the step each packet reached level
    /// `n` at the end of its first leg; empty otherwise.
    pub first_leg: Vec<u32>,
    /// Per edge level `l` (the edges from level `l` to `l + 1`): packets
    /// sent straight and across.
    pub link_use: Vec<[u64; 2]>,
    /// Packet-hops: edges crossed in all.
    pub hops: u64,
    /// A digest of every move in order (step, node, packet): equal digests
    /// mean (up to hash collisions) identical traces. Kept by
    /// [`run_traced`] and [`run_with`] only; hashing each hop costs time
    /// the plain [`run`] does not spend.
    pub trace: Option<u64>,
}

impl Run {
    /// `T / lg N` (0 on `B(0)`).
    pub fn per_log(&self, n: u32) -> f64 {
        if n == 0 {
            0.0
        } else {
            self.steps as f64 / n as f64
        }
    }
}

const NONE: u32 = u32::MAX;

/// The largest `n` a run accepts: rows are numbered in 32 bits.
pub const MAX_N: u32 = 31;

/// The largest `q` a run accepts.
pub const MAX_Q: u32 = 4096;

// A switch queue (at most `q + 2` packets) has a 16-bit length.
const _: () = assert!(MAX_Q + 2 <= u16::MAX as u32);

/// Routes `packets` over `B(n)` with `config`, destinations fixed; the
/// run's `trace` is `None`.
pub fn run(
    n: u32,
    packets: &[Packet],
    config: Config,
    rng: &mut ChaCha8Rng,
) -> Result<Run, EngineError> {
    let mut engine = Engine::start(n, packets, None, config)?;
    engine.route(rng, &mut Fixed, &mut step::Untraced)?;
    Ok(engine.finish(None))
}

/// Routes `packets` over the wraparound butterfly in two legs: packet `i`
/// goes from its input to row `via[i]` of level `n`, which is input
/// `via[i]` (`<n, x>` is `<0, x>`), where it joins the back of that input's
/// queue at the end of the step and goes on to its destination. The
/// run's `first_leg` holds when each packet wrapped; its `trace` is
/// `None`.
pub fn run_through(
    n: u32,
    packets: &[Packet],
    via: &[u64],
    config: Config,
    rng: &mut ChaCha8Rng,
) -> Result<Run, EngineError> {
    let mut engine = Engine::start(n, packets, Some(via), config)?;
    engine.route(rng, &mut Fixed, &mut step::Untraced)?;
    Ok(engine.finish(None))
}

/// [`run`], keeping the digest of the trace.
pub fn run_traced(
    n: u32,
    packets: &[Packet],
    config: Config,
    rng: &mut ChaCha8Rng,
) -> Result<Run, EngineError> {
    run_with(n, packets, config, rng, &mut Fixed)
}

/// Routes `packets` over `B(n)` with `config`, calling `oracle` whenever a
/// nonpredictive switch first picks a packet, and keeping the digest of
/// the trace. Each input's injection queue holds its packets in the order
/// given.
pub fn run_with<O: Oracle>(
    n: u32,
    packets: &[Packet],
    config: Config,
    rng: &mut ChaCha8Rng,
    oracle: &mut O,
) -> Result<Run, EngineError> {
    let mut engine = Engine::start(n, packets, None, config)?;
    let mut digest = step::Digest::new();
    engine.route(rng, oracle, &mut digest)?;
    Ok(engine.finish(Some(digest.value())))
}

impl Engine {
    /// Checks the run's parameters and builds its starting state.
    fn start(
        n: u32,
        packets: &[Packet],
        via: Option<&[u64]>,
        config: Config,
    ) -> Result<Self, EngineError> {
        if config.model == QueueModel::Greedy && config.q == 0 {
            return Err(EngineError::ZeroCapacity);
        }
        if config.q > MAX_Q {
            return Err(EngineError::QueueTooLarge { q: config.q });
        }
        if n > MAX_N {
            return Err(EngineError::TooManyRows { n });
        }
        if packets.len() >= NONE as usize {
            return Err(EngineError::TooManyPackets {
                packets: packets.len(),
            });
        }
        let rows = 1u64 << n;
        if let Some((index, p)) = packets
            .iter()
            .enumerate()
            .find(|(_, p)| p.source >= rows || p.destination >= rows)
        {
            return Err(EngineError::RowOutside {
                index,
                input: p.source,
                output: p.destination,
                rows,
            });
        }
        if let Some(via) = via {
            if via.len() != packets.len() {
                return Err(EngineError::ViaCount {
                    via: via.len(),
                    packets: packets.len(),
                });
            }
            if let Some((index, &row)) = via.iter().enumerate().find(|(_, &x)| x >= rows) {
                return Err(EngineError::ViaOutside { index, row, rows });
            }
        }
        Ok(Engine::new(n, packets, via, config))
    }
}

mod step;
mod sweep;
#[cfg(test)]
mod tests;

/// The state of one run.
struct Engine {
    n: u32,
    rows: usize,
    config: Config,
    /// Capacity of a switch queue.
    cap: u32,
    origin: Vec<u64>,
    dest: Vec<u64>,
    /// Two-leg runs: each packet's destination after the wraparound (else
    /// empty).
    finals: Vec<u64>,
    /// Two-leg runs: the step each packet ended its first leg (`NONE`
    /// before; else empty).
    wrapped: Vec<u32>,
    /// Two-leg runs: `pending[.. waiting]` are the packets (and rows) that
    /// wrapped this step.
    pending: Vec<(u32, u32)>,
    waiting: usize,
    /// The most packets an injection queue has held.
    max_inject: u32,
    arrival: Vec<u32>,
    /// The delivery order: `order[.. delivered]` so far.
    order: Vec<u32>,
    delivered: usize,
    /// Level 0: one injection queue per input.
    inject: Bank<u32>,
    /// Levels `1 .. n`: switch `(l, c)` is queue `(l - 1) N + c`.
    switch: Bank<u16>,
    /// The packet each node (levels `0 .. n`, index `l N + c`) has picked;
    /// empty where the pick needs no memory (FIFO without an oracle: the
    /// head).
    selected: Vec<u32>,
    /// Model T: per switch, the last step it accepted a packet (empty
    /// under model G).
    accepted: Vec<u32>,
    /// Per level `0 .. n`: a bit per row, set while the node holds packets.
    occupied: Vec<u64>,
    words: usize,
    /// Departures in this step from the level swept last (`upper`) and the
    /// level being swept (`current`).
    upper: step::Departed,
    current: step::Departed,
    /// No departures: stands for `upper` when level `l + 1` was not swept.
    clear: step::Departed,
    /// Per level `0 .. n`: packets held.
    level_count: Vec<u64>,
    remaining: u64,
    t: u32,
    max_switch: u32,
    link_use: Vec<[u64; 2]>,
}
