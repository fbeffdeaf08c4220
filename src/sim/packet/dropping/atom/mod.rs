//! Model A: store and forward with drops, after the NEC ATOM switch
//! (section 5). Every switch of levels `1 .. n` has one FIFO
//! buffer of capacity `q`; level 0 holds the initial packets (one or `k`
//! per input, unbounded) and level `n` absorbs what reaches it. Each step
//! each switch with a packet forwards its head toward the head's
//! destination. The step is the butterfly engine's snapshot step (see
//! "Step semantics" in `docs/simulation.md`): the heads are chosen from the
//! start-of-step state, all moves are applied, and arrivals are appended
//! 0-edge first, then 1-edge. A buffer whose contents plus this step's
//! arrivals exceed `q` then drops the excess ([`DropPolicy`]); what its
//! contents are is [`Acceptance`].
//!
//! Ranks are drawn as in model C, and `S` counts the delivered packets.
//!
//! # Which rule Theorem 5.2 needs
//!
//! The proof needs "a top-rank packet is lost only if `q` other top-rank
//! packets pass a node of its path". With [`DropPolicy::PushOut`] and
//! [`Acceptance::DeparturesFirst`] that holds: a dropped packet is the
//! lowest of more than `q` packets in one buffer, and the `q` kept outrank
//! it. Under the default [`Acceptance::Snapshot`] (the snapshot rule: a
//! departure does not free space in its own step) the departing head still
//! takes a place, so push-out can drop a top-rank packet with only `q - 1`
//! outranking ones present, and the proof's count needs `(q - 1)`-tuples
//! (for `q = 1`, a lone top packet can be dropped). Tail drop ignores
//! ranks and the argument does not apply. The paper's ATOM has buffers at
//! the switches' outputs; one buffer per switch is this project's model of it.

pub(crate) mod engine;

use super::ranade::ranade_intermediates;
use super::walk::Walk;
use super::{
    check_permutation, check_size, draw_destinations, require_permutation, DropError, Priorities,
    Problem, RankRange, MAX_PACKETS,
};
use crate::sim::packet::traffic::{Packet, PacketTraffic, TrafficError};
use crate::sim::seeded_trials;
use engine::{run_walk, Fate, Rules};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Which packets an overflowing buffer drops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum DropPolicy {
    /// Drop the lowest-priority packets (buffered or arriving) until `q`
    /// remain: what Theorem 5.2's argument needs.
    #[default]
    PushOut,
    /// Reject arrivals only, the later in-edge first (the 1-edge's before
    /// the 0-edge's), whatever their rank.
    TailDrop,
}

/// What occupies a buffer when this step's arrivals are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Acceptance {
    /// The start-of-step contents: the head that leaves this step still
    /// takes its place (the snapshot rule).
    #[default]
    Snapshot,
    /// The contents after this step's departure.
    DeparturesFirst,
}

/// Model A's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AtomConfig {
    /// Buffer capacity, at least 1.
    pub q: u32,
    /// Where ranks are drawn from.
    pub ranks: RankRange,
    /// Which packets an overflowing buffer drops.
    pub policy: DropPolicy,
    /// What counts against the space.
    pub acceptance: Acceptance,
}

impl AtomConfig {
    /// Capacity `q`, push-out, snapshot acceptance, the automatic rank
    /// range.
    pub fn new(q: u32) -> AtomConfig {
        AtomConfig {
            q,
            ranks: RankRange::Auto,
            policy: DropPolicy::PushOut,
            acceptance: Acceptance::Snapshot,
        }
    }

    fn rules(self) -> Rules {
        Rules {
            q: self.q,
            policy: self.policy,
            acceptance: self.acceptance,
        }
    }
}

/// One model-A trial.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AtomOutcome {
    /// Packets routed.
    pub packets: u64,
    /// The rank range `r` used.
    pub r: u32,
    /// `S`: packets delivered.
    pub delivered: u64,
    /// Delivered packets of the top rank `r`.
    pub top_delivered: u64,
    /// Packets dropped (`packets - delivered`).
    pub dropped: u64,
    /// Steps until the network was empty (for back to back, stage 1's `n`
    /// steps included).
    pub steps: u64,
    /// The last step a packet was delivered in (the routing time
    /// `T`; 0 if none was).
    pub last_arrival: u64,
    /// The fullest buffer at the end of any step (at most `q`).
    pub max_occupancy: u32,
}

/// The outcome of a run whose steps start after `offset` earlier ones.
fn outcome(
    fate: &[Fate],
    steps: u64,
    max_occupancy: u32,
    offset: u64,
    prio: &Priorities,
) -> AtomOutcome {
    let delivered = || (0..fate.len()).filter(|&p| matches!(fate[p], Fate::Delivered { .. }));
    let count = delivered().count() as u64;
    let last_arrival = fate
        .iter()
        .filter_map(|f| match f {
            Fate::Delivered { step } => Some(step + offset),
            Fate::Dropped { .. } => None,
        })
        .max()
        .unwrap_or(0);
    AtomOutcome {
        packets: fate.len() as u64,
        r: prio.top,
        delivered: count,
        top_delivered: prio.count_top(delivered()),
        dropped: fate.len() as u64 - count,
        steps: steps + offset,
        last_arrival,
        max_occupancy,
    }
}

/// Model A on one butterfly `B(n)`, level 0 to `n`: each input's buffer
/// holds its packets in list order. Draws the priorities in list order.
pub fn atom_direct(
    n: u32,
    packets: &[Packet],
    cfg: AtomConfig,
    rng: &mut impl Rng,
) -> Result<AtomOutcome, DropError> {
    check_size(n, cfg.q)?;
    check_count(packets.len() as u64)?;
    let rows = 1u64 << n;
    if let Some(p) = packets
        .iter()
        .find(|p| p.source >= rows || p.destination >= rows)
    {
        let row = p.source.max(p.destination);
        return Err(DropError::RowOutOfRange { row, rows });
    }
    let r = cfg.ranks.resolve(n, cfg.q)?;
    let starts: Vec<u64> = packets.iter().map(|p| p.source).collect();
    let dests: Vec<u64> = packets.iter().map(|p| p.destination).collect();
    let prio = Priorities::draw(packets.len(), r, rng);
    let run = run_walk(n, Walk::Forward, &starts, &dests, &prio, cfg.rules());
    Ok(outcome(&run.fate, run.steps, run.max_occupancy, 0, &prio))
}

/// Model A on Koch's random problem: `k` packets per input, each to an
/// independent uniform output. Draws the destinations (as
/// [`PacketTraffic::RandomDestinations`]), then as [`atom_direct`].
pub fn atom_koch_random(
    n: u32,
    k: u32,
    cfg: AtomConfig,
    rng: &mut impl Rng,
) -> Result<AtomOutcome, DropError> {
    check_size(n, cfg.q)?;
    check_count((1u64 << n) * k as u64)?;
    let packets = PacketTraffic::RandomDestinations.packets(n, k, rng)?;
    atom_direct(n, &packets, cfg, rng)
}

/// Model A through back-to-back butterflies for the permutation `pi`:
/// stage 1 (Ranade's, lockstep, one packet per node, so it drops nothing
/// and takes `n` steps), then stage 2 store-and-forward from `<n, x>` down
/// copy 2 to `<0, pi[a]>` with the buffers of levels `n - 1 .. 1`. Draws
/// stage 1's coins, then the priorities in input order.
pub fn atom_back_to_back(
    n: u32,
    pi: &[u64],
    cfg: AtomConfig,
    rng: &mut impl Rng,
) -> Result<AtomOutcome, DropError> {
    check_size(n, cfg.q)?;
    check_permutation(n, pi)?;
    let r = cfg.ranks.resolve(n, cfg.q)?;
    let inter = ranade_intermediates(n, rng);
    let prio = Priorities::draw(pi.len(), r, rng);
    let run = run_walk(n, Walk::Return, &inter, pi, &prio, cfg.rules());
    Ok(outcome(
        &run.fate,
        run.steps,
        run.max_occupancy,
        n as u64,
        &prio,
    ))
}

/// Refuses more packets than [`MAX_PACKETS`].
fn check_count(packets: u64) -> Result<(), DropError> {
    if packets > MAX_PACKETS {
        Err(DropError::TooManyPackets {
            packets,
            max: MAX_PACKETS,
        })
    } else {
        Ok(())
    }
}

/// One trial of `problem` with `k` packets per input.
fn atom_one(
    problem: Problem,
    n: u32,
    k: u32,
    cfg: AtomConfig,
    rng: &mut ChaCha8Rng,
) -> Result<AtomOutcome, DropError> {
    match problem {
        Problem::BackToBack(traffic) => {
            let pi = draw_destinations(traffic, n, rng)?;
            atom_back_to_back(n, &pi, cfg, rng)
        }
        Problem::KochRandom => atom_koch_random(n, k, cfg, rng),
        Problem::Direct(traffic) => {
            let packets = traffic.packets(n, k, rng)?;
            atom_direct(n, &packets, cfg, rng)
        }
    }
}

/// `trials` seeded model-A trials of `problem` with `k` packets per input
/// on `B(n)`, in parallel, outcomes in trial order (trial `i` on
/// [`crate::sim::trial_rng`]`(seed, i)`). Back to back needs `k = 1` and a
/// permutation traffic.
pub fn atom_trials(
    problem: Problem,
    n: u32,
    k: u32,
    cfg: AtomConfig,
    trials: u64,
    seed: u64,
) -> Result<Vec<AtomOutcome>, DropError> {
    check_size(n, cfg.q)?;
    cfg.ranks.resolve(n, cfg.q)?;
    if k == 0 {
        return Err(TrafficError::NoPackets.into());
    }
    check_count((1u64 << n) * k as u64)?;
    if let Problem::BackToBack(traffic) = problem {
        require_permutation(traffic)?;
        if k != 1 {
            return Err(DropError::OnePerInput { k });
        }
    }
    seeded_trials(trials, seed, |_, rng| atom_one(problem, n, k, cfg, rng))
}
