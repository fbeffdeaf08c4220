//! The store-and-forward engine: every packet follows its [`Plan`] one
//! hop per step, each directed link carries at most one packet a step,
//! chosen among its candidates by the [`Strategy`], and phases start as
//! the [`Gates`] say (spec `004-kaufmann-sibeyn` section 1).
//!
//! Step semantics: in step `t = 1, 2, ...` the candidates of a directed
//! link are the packets present at its tail at the start of the step whose
//! current leg next uses it; the link takes one of them; all chosen packets
//! move at once and arrive at the end of the step. A packet that finishes
//! a leg starts its next leg in the next step, once that phase's gate is
//! open. `T` is the last step in which a packet moves.
//!
//! Each link's candidates are a max-heap of `(key, rank)` words: the key
//! packs the phase (lower first) over the strategy's measure, and the rank,
//! a seeded random permutation of the packets, breaks ties. The random
//! strategy instead draws among all candidates afresh each step from a
//! stateless hash of `(seed, step, rank)`, so the result does not depend on
//! the order in which links are served. Only links with candidates are
//! visited, so a step costs time in the packets that move.

pub(crate) mod bucket;
#[cfg(test)]
mod tests;

pub(crate) use bucket::draw;

use rand::seq::SliceRandom;
use rand_chacha::rand_core::SeedableRng;

use super::plan::{Gates, Leg, Plan, Strategy};
use super::shape::{Dir, Pu, Shape};

/// How a run is decided: the strategy, the phase gates and the seed of the
/// tie-breaking ranks and random draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Who wins a link.
    pub strategy: Strategy,
    /// When phases start.
    pub gates: Gates,
    /// Seeds the ranks that break ties and the random strategy's draws.
    pub seed: u64,
}

/// What a run measured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// `T`: the last step in which a packet moved (0 if none did).
    pub steps: u64,
    /// Per phase: the steps it adds to the end, so that they sum to
    /// `steps`. Under barriers, the phase's own duration.
    pub phase_steps: Vec<u64>,
    /// Per phase: the last step in which a packet moved in it (0: none).
    pub phase_end: Vec<u64>,
    /// Per phase: the step its gate opened.
    pub phase_open: Vec<u64>,
    /// Per phase (fixed budgets): packets not through it when the next
    /// phase's budget began.
    pub overruns: Vec<u64>,
    /// The most packets resident at one PU at the end of a step (or at
    /// the start): unsent, waiting and delivered packets all count.
    pub qmax: u32,
    /// The same counting only packets in transit: moved at least once and
    /// not yet through their last phase.
    pub qmax_transit: u32,
    /// Link traversals.
    pub hops: u64,
    /// Where each packet ended.
    pub positions: Vec<Pu>,
}

/// Called under barriers before each phase's gate opens, with the phase,
/// every packet's position and that phase's legs to adjust (queue
/// smearing decides its legs here).
pub type BarrierHook<'h> = &'h mut dyn FnMut(usize, &[Pu], &mut [Leg]);

/// Top of the strategy part of a key (24 bits).
pub(crate) const KEY_MAX: u32 = (1 << 24) - 1;

/// Routes the packets starting at `start` along `plan` on `shape`.
///
/// # Panics
/// If the plan and the start positions disagree on the number of packets,
/// a leg names an axis or coordinate outside `shape`, or there are more
/// than 255 phases: plans are built by this crate's algorithms, not read.
pub fn route(shape: &Shape, start: &[Pu], plan: &Plan, config: &Config) -> Outcome {
    let mut plan = plan.clone();
    route_with(shape, start, &mut plan, config, &mut |_, _, _| {})
}

/// [`route`] with a hook that may set each phase's leg targets under
/// barriers, once the positions at the phase's start are known.
pub fn route_with(
    shape: &Shape,
    start: &[Pu],
    plan: &mut Plan,
    config: &Config,
    hook: BarrierHook<'_>,
) -> Outcome {
    assert_eq!(start.len(), plan.packets, "one start per packet");
    assert!(plan.phases <= 255, "at most 255 phases");
    check_legs(shape, plan);
    if plan.phases == 0 {
        return Outcome {
            positions: start.to_vec(),
            qmax: max_count(shape, start),
            ..Outcome::default()
        };
    }
    let mut s = State::new(shape, start, plan, config);
    s.run(hook);
    s.finish()
}

/// Every leg inside the shape.
pub(crate) fn check_legs(shape: &Shape, plan: &Plan) {
    assert!(
        plan.legs.iter().all(|l| l.is_idle()
            || (usize::from(l.axis) < shape.dims && u32::from(l.target) < shape.side)),
        "a leg outside the {shape}"
    );
}

/// The most packets at one PU.
pub(crate) fn max_count(shape: &Shape, at: &[Pu]) -> u32 {
    let mut count = vec![0u32; shape.pus()];
    for &p in at {
        count[p as usize] += 1;
    }
    count.into_iter().max().unwrap_or(0)
}

/// The engine's working state.
struct State<'a> {
    shape: Shape,
    plan: &'a mut Plan,
    config: &'a Config,
    pos: Vec<Pu>,
    /// The phase each packet is in (or waits for); `phases` once delivered.
    phase: Vec<u8>,
    /// Hops left in the current leg.
    left: Vec<u32>,
    /// Hops made in the current leg.
    made: Vec<u32>,
    /// `2 axis + direction slot` of the current leg.
    slot: Vec<u8>,
    /// Hops left to the destination (farthest-total-first).
    total_left: Vec<u32>,
    in_transit: Vec<bool>,
    rank: Vec<u32>,
    /// Packet of each rank.
    who: Vec<u32>,
    buckets: Vec<Vec<u64>>,
    active: Vec<u32>,
    count: Vec<u32>,
    transit_count: Vec<u32>,
    /// Per phase: packets not yet through it.
    remaining: Vec<u64>,
    waiting: Vec<Vec<u32>>,
    opened: usize,
    out: Outcome,
}

impl<'a> State<'a> {
    fn new(shape: &Shape, start: &[Pu], plan: &'a mut Plan, config: &'a Config) -> State<'a> {
        let n = start.len();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(config.seed);
        let mut who: Vec<u32> = (0..n as u32).collect();
        who.shuffle(&mut rng);
        let mut rank = vec![0u32; n];
        for (r, &p) in who.iter().enumerate() {
            rank[p as usize] = r as u32;
        }
        let mut count = vec![0u32; shape.pus()];
        for &p in start {
            count[p as usize] += 1;
        }
        let phases = plan.phases;
        let total_left = if config.strategy == Strategy::FarthestTotal {
            total_hops(shape, start, plan)
        } else {
            vec![0; n]
        };
        State {
            shape: *shape,
            config,
            pos: start.to_vec(),
            phase: vec![0; n],
            left: vec![0; n],
            made: vec![0; n],
            slot: vec![0; n],
            total_left,
            in_transit: vec![false; n],
            rank,
            who,
            buckets: vec![Vec::new(); shape.pus() * shape.slots()],
            active: Vec::new(),
            transit_count: vec![0; shape.pus()],
            remaining: vec![n as u64; phases],
            waiting: vec![Vec::new(); phases],
            opened: 0,
            out: Outcome {
                phase_steps: vec![0; phases],
                phase_end: vec![0; phases],
                phase_open: vec![0; phases],
                overruns: vec![0; phases],
                qmax: count.iter().copied().max().unwrap_or(0),
                ..Outcome::default()
            },
            count,
            plan,
        }
    }

    fn run(&mut self, hook: BarrierHook<'_>) {
        let n = self.pos.len();
        let phases = self.plan.phases;
        let fixed = self.config.gates.fixed_starts(phases);
        for p in 0..n {
            self.waiting[0].push(p as u32);
        }
        let mut moved: Vec<u32> = Vec::new();
        let mut t = 1u64;
        loop {
            self.open_gates(t, fixed.as_deref(), hook);
            if self.active.is_empty() {
                if self.opened >= phases || self.remaining[phases - 1] == 0 {
                    break;
                }
                match &fixed {
                    Some(starts) => t = starts[self.opened],
                    None => unreachable!("packets wait but no gate can open"),
                }
                continue;
            }
            self.step(t, &mut moved);
            t += 1;
        }
    }

    /// Opens every gate due at the start of step `t`.
    fn open_gates(&mut self, t: u64, fixed: Option<&[u64]>, hook: BarrierHook<'_>) {
        let phases = self.plan.phases;
        while self.opened < phases {
            let j = self.opened;
            let due = match (&self.config.gates, fixed) {
                (Gates::Barrier, _) => j == 0 || self.remaining[j - 1] == 0,
                (Gates::Coalesced, _) => true,
                (Gates::Fixed(_), Some(starts)) => starts[j] <= t,
                (Gates::Fixed(_), None) => unreachable!("fixed gates have starts"),
            };
            if !due {
                break;
            }
            if self.config.gates == Gates::Barrier {
                hook(j, &self.pos, self.plan.phase_mut(j));
                check_legs(&self.shape, self.plan);
            }
            if j > 0 {
                self.out.overruns[j - 1] = self.remaining[j - 1];
            }
            self.out.phase_open[j] = t;
            self.opened += 1;
            for p in std::mem::take(&mut self.waiting[j]) {
                self.start_leg(p, j, t);
            }
        }
    }

    /// Packet `p`, through phase `j - 1`, starts phase `j` (and any that
    /// follow without moving it) if its gate is open; it becomes a
    /// candidate from step `since`.
    fn start_leg(&mut self, p: u32, mut j: usize, since: u64) {
        let pi = p as usize;
        loop {
            self.phase[pi] = j as u8;
            if j == self.plan.phases {
                if self.in_transit[pi] {
                    self.in_transit[pi] = false;
                    self.transit_count[self.pos[pi] as usize] -= 1;
                }
                return;
            }
            if j >= self.opened {
                self.waiting[j].push(p);
                return;
            }
            let leg = self.plan.leg(j, pi);
            if !leg.is_idle() {
                let axis = usize::from(leg.axis);
                let x = self.shape.coord(self.pos[pi], axis);
                let (dir, dist) = self.shape.way(x, u32::from(leg.target), leg.tie);
                if dist > 0 {
                    self.left[pi] = dist;
                    self.made[pi] = 0;
                    self.slot[pi] = (2 * axis + dir.slot()) as u8;
                    self.enqueue(p, since);
                    return;
                }
            }
            self.remaining[j] -= 1;
            j += 1;
        }
    }

    /// Puts `p` among the candidates of its next link, from step `since`.
    fn enqueue(&mut self, p: u32, since: u64) {
        let pi = p as usize;
        let measure = match self.config.strategy {
            Strategy::FarthestFirst => self.left[pi],
            Strategy::NearestFirst => KEY_MAX - self.left[pi],
            Strategy::FarthestOrigin => self.made[pi],
            Strategy::FarthestTotal => self.total_left[pi],
            Strategy::Fifo => KEY_MAX - since.min(u64::from(KEY_MAX)) as u32,
            Strategy::Random => 0,
        };
        let key = (255 - u32::from(self.phase[pi])) << 24 | measure.min(KEY_MAX);
        let word = u64::from(key) << 32 | u64::from(self.rank[pi]);
        let b = self.pos[pi] as usize * self.shape.slots() + usize::from(self.slot[pi]);
        let bucket = &mut self.buckets[b];
        if bucket.is_empty() {
            self.active.push(b as u32);
        }
        if self.config.strategy == Strategy::Random {
            bucket.push(word);
        } else {
            bucket::push(bucket, word);
        }
    }

    /// Step `t`: every link with candidates carries one; all move at once.
    fn step(&mut self, t: u64, moved: &mut Vec<u32>) {
        moved.clear();
        let random = self.config.strategy == Strategy::Random;
        let seed = self.config.seed;
        let mut still = Vec::with_capacity(self.active.len());
        for &b in &self.active {
            let bucket = &mut self.buckets[b as usize];
            let w = if random {
                bucket::pop_drawn(bucket, |r| draw(seed, t, r))
            } else {
                bucket::pop(bucket)
            };
            moved.push(self.who[w as u32 as usize]);
            if !bucket.is_empty() {
                still.push(b);
            }
        }
        self.active = still;
        for &p in moved.iter() {
            let pi = p as usize;
            self.count[self.pos[pi] as usize] -= 1;
            if self.in_transit[pi] {
                self.transit_count[self.pos[pi] as usize] -= 1;
            }
        }
        self.out.hops += moved.len() as u64;
        self.out.steps = t;
        for &p in moved.iter() {
            let pi = p as usize;
            let slot = usize::from(self.slot[pi]);
            let dir = if slot & 1 == 0 { Dir::Up } else { Dir::Down };
            let at = self.shape.neighbour(self.pos[pi], slot >> 1, dir);
            self.pos[pi] = at;
            self.count[at as usize] += 1;
            self.in_transit[pi] = true;
            self.transit_count[at as usize] += 1;
            self.left[pi] -= 1;
            self.made[pi] += 1;
            self.total_left[pi] = self.total_left[pi].saturating_sub(1);
            let j = usize::from(self.phase[pi]);
            self.out.phase_end[j] = t;
            if self.left[pi] == 0 {
                self.remaining[j] -= 1;
                self.start_leg(p, j + 1, t + 1);
            } else {
                self.enqueue(p, t + 1);
            }
        }
        for &p in moved.iter() {
            let at = self.pos[p as usize] as usize;
            self.out.qmax = self.out.qmax.max(self.count[at]);
            self.out.qmax_transit = self.out.qmax_transit.max(self.transit_count[at]);
        }
    }

    fn finish(mut self) -> Outcome {
        let mut reached = 0;
        for j in 0..self.plan.phases {
            let end = self.out.phase_end[j];
            self.out.phase_steps[j] = match self.config.gates {
                Gates::Barrier if end > 0 => end + 1 - self.out.phase_open[j],
                Gates::Barrier => 0,
                _ => end.saturating_sub(reached),
            };
            reached = reached.max(end);
        }
        self.out.positions = self.pos;
        self.out
    }
}

/// Each packet's hops over its whole plan, legs taken in turn from `start`.
pub fn total_hops(shape: &Shape, start: &[Pu], plan: &Plan) -> Vec<u32> {
    let mut out = vec![0u32; start.len()];
    for (p, (&s, total)) in start.iter().zip(&mut out).enumerate() {
        let mut at = s;
        for j in 0..plan.phases {
            let leg = plan.leg(j, p);
            if leg.is_idle() {
                continue;
            }
            let axis = usize::from(leg.axis);
            let (_, d) = shape.way(shape.coord(at, axis), u32::from(leg.target), leg.tie);
            *total += d;
            at = shape.with_coord(at, axis, u32::from(leg.target));
        }
    }
    out
}
