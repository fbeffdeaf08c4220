//! Model C: circuit locking, one shot (section 5, the BBN Butterfly).
//! All packets advance one hop per round in lockstep; before
//! each hop the packets still alive are grouped by the edge they want
//! ([`Capacity::PerEdge`]) or the node they enter ([`Capacity::PerNode`]),
//! and in a group of more than `q` the `q` of highest priority (rank, then
//! tie-breaking key) go on while the rest are dropped for good. A dropped
//! packet never advances, so it never counts against a later group
//! (releasing its earlier edges is moot in a one-shot model).
//!
//! The engine walks the packets in priority order once per hop and counts
//! each group as it goes: a packet is kept iff fewer than `q` packets of
//! its group came before it, `O(N)` a hop after one sort.

use super::ranade::ranade_intermediates;
use super::walk::Walk;
use super::{
    check_destinations, check_permutation, check_size, draw_destinations, require_permutation,
    Capacity, DropError, Priorities, Problem, RankRange,
};
use crate::sim::seeded_trials;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The locking rule's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CircuitConfig {
    /// Paths an edge sustains (or packets a node admits), at least 1.
    pub q: u32,
    /// Where ranks are drawn from.
    pub ranks: RankRange,
    /// What `q` limits.
    pub capacity: Capacity,
}

impl CircuitConfig {
    /// Capacity `q` per edge, the automatic rank range.
    pub fn new(q: u32) -> CircuitConfig {
        CircuitConfig {
            q,
            ranks: RankRange::Auto,
            capacity: Capacity::PerEdge,
        }
    }
}

/// One locking trial.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LockOutcome {
    /// `N`, the packets routed (one per input).
    pub rows: u64,
    /// The rank range `r` used.
    pub r: u32,
    /// `S`: the packets that locked a full path.
    pub delivered: u64,
    /// The packets of rank `r` among them, the ones Theorem 5.2's proof
    /// counts.
    pub top_delivered: u64,
}

impl LockOutcome {
    /// `S / N`.
    pub fn fraction(&self) -> f64 {
        self.delivered as f64 / self.rows as f64
    }
}

/// Which packets lock their whole walk: packet `p` starts at row
/// `starts[p]` bound for `dests[p]`, and the packets compete hop by hop as
/// the module describes.
pub(crate) fn lock_walk(
    n: u32,
    walk: Walk,
    starts: &[u64],
    dests: &[u64],
    prio: &Priorities,
    q: u32,
    capacity: Capacity,
) -> Vec<bool> {
    debug_assert_eq!(starts.len(), dests.len());
    let groups = match capacity {
        Capacity::PerEdge => 2usize << n,
        Capacity::PerNode => 1usize << n,
    };
    let mut count = vec![0u32; groups];
    // The live packets in priority order, with their rows inline.
    let mut alive: Vec<(u32, u64, u64)> = prio
        .order()
        .into_iter()
        .map(|p| (p, starts[p as usize], dests[p as usize]))
        .collect();
    for j in 0..n {
        alive.retain(|&(_, s, d)| {
            let group = match capacity {
                Capacity::PerEdge => walk.edge(n, s, d, j),
                Capacity::PerNode => walk.row(n, s, d, j + 1) as usize,
            };
            count[group] += 1;
            count[group] <= q
        });
        count.fill(0);
    }
    let mut locked = vec![false; starts.len()];
    for &(p, _, _) in &alive {
        locked[p as usize] = true;
    }
    locked
}

/// The outcome from which packets locked.
fn outcome(locked: &[bool], prio: &Priorities) -> LockOutcome {
    let winners = || (0..locked.len()).filter(|&p| locked[p]);
    LockOutcome {
        rows: locked.len() as u64,
        r: prio.top,
        delivered: winners().count() as u64,
        top_delivered: prio.count_top(winners()),
    }
}

/// The back-to-back scheme for the permutation `pi` (input `a` to output
/// `pi[a]`) on `B(n)`: stage 1 draws Ranade's intermediates (it drops
/// nothing), then every packet draws its priority and stage 2 locks from
/// `<n, x>` down copy 2 to `<0, pi[a]>`. Draws stage 1's coins, then the
/// priorities in input order.
pub fn lock_back_to_back(
    n: u32,
    pi: &[u64],
    cfg: CircuitConfig,
    rng: &mut impl Rng,
) -> Result<LockOutcome, DropError> {
    check_size(n, cfg.q)?;
    check_permutation(n, pi)?;
    let r = cfg.ranks.resolve(n, cfg.q)?;
    let inter = ranade_intermediates(n, rng);
    let prio = Priorities::draw(pi.len(), r, rng);
    let locked = lock_walk(n, Walk::Return, &inter, pi, &prio, cfg.q, cfg.capacity);
    Ok(outcome(&locked, &prio))
}

/// Direct routing on one butterfly `B(n)`, level 0 to `n`: input `a`'s
/// packet to `destinations[a]` (any outputs, repeats allowed). Draws the
/// priorities in input order.
pub fn lock_direct(
    n: u32,
    destinations: &[u64],
    cfg: CircuitConfig,
    rng: &mut impl Rng,
) -> Result<LockOutcome, DropError> {
    check_size(n, cfg.q)?;
    check_destinations(n, destinations)?;
    let r = cfg.ranks.resolve(n, cfg.q)?;
    let sources: Vec<u64> = (0..destinations.len() as u64).collect();
    let prio = Priorities::draw(destinations.len(), r, rng);
    let locked = lock_walk(
        n,
        Walk::Forward,
        &sources,
        destinations,
        &prio,
        cfg.q,
        cfg.capacity,
    );
    Ok(outcome(&locked, &prio))
}

/// Koch's random problem: each input's packet to an independent uniform
/// output of `B(n)`, locked level 0 to `n`. Draws the destinations in
/// input order, then as [`lock_direct`].
pub fn lock_koch_random(
    n: u32,
    cfg: CircuitConfig,
    rng: &mut impl Rng,
) -> Result<LockOutcome, DropError> {
    check_size(n, cfg.q)?;
    let rows = 1u64 << n;
    let destinations: Vec<u64> = (0..rows).map(|_| rng.gen_range(0..rows)).collect();
    lock_direct(n, &destinations, cfg, rng)
}

/// One trial of `problem` on `B(n)`: its destinations from the trial's
/// stream, then the algorithm.
fn lock_one(
    problem: Problem,
    n: u32,
    cfg: CircuitConfig,
    rng: &mut ChaCha8Rng,
) -> Result<LockOutcome, DropError> {
    match problem {
        Problem::BackToBack(traffic) => {
            let pi = draw_destinations(traffic, n, rng)?;
            lock_back_to_back(n, &pi, cfg, rng)
        }
        Problem::KochRandom => lock_koch_random(n, cfg, rng),
        Problem::Direct(traffic) => {
            let destinations = draw_destinations(traffic, n, rng)?;
            lock_direct(n, &destinations, cfg, rng)
        }
    }
}

/// `trials` seeded locking trials of `problem` on `B(n)`, in parallel,
/// outcomes in trial order (trial `i` on [`crate::sim::trial_rng`]`(seed,
/// i)`). Back to back needs a permutation traffic.
pub fn lock_trials(
    problem: Problem,
    n: u32,
    cfg: CircuitConfig,
    trials: u64,
    seed: u64,
) -> Result<Vec<LockOutcome>, DropError> {
    check_size(n, cfg.q)?;
    cfg.ranks.resolve(n, cfg.q)?;
    if let Problem::BackToBack(traffic) = problem {
        require_permutation(traffic)?;
    }
    seeded_trials(trials, seed, |_, rng| lock_one(problem, n, cfg, rng))
}
