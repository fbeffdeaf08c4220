//! The store-and-forward engine: every packet follows its [`Plan`] one
//! hop per step, each directed link carries at most one packet a step,
//! chosen among its candidates by the [`Strategy`], and phases start as
//! the [`Gates`] say (docs/simulation.md, k-k routing, "Step semantics").
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

mod bucket;
mod links;
mod sweep;
#[cfg(test)]
mod tests;

use bucket::Entry;
use links::Links;
use sweep::{Falling, Fifo, Random, Rising, Rule, Sweep, ARRIVAL, PACKET};

use rand::seq::SliceRandom;
use rand_chacha::rand_core::SeedableRng;

use super::plan::{Gates, Leg, Plan, Strategy};
use super::shape::{Pu, Shape, Topology};

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

/// What the engine keeps of a packet between legs.
#[derive(Clone, Copy, Debug, Default)]
struct Home {
    /// Where it is while no leg moves it (updated at each leg's end).
    pos: Pu,
    /// 1 if it waits for a gate in transit.
    transit: u16,
}

/// The engine's working state. Packets are kept under their ranks (the
/// seeded permutation that breaks ties), so a link's heap words name
/// them directly.
struct State<'a> {
    shape: Shape,
    plan: &'a mut Plan,
    config: &'a Config,
    /// By rank.
    home: Vec<Home>,
    /// Packet of each rank.
    who: Vec<u32>,
    /// n^axis per axis.
    strides: Vec<u32>,
    links: Links,
    /// Candidates on links, in heaps and pending slots.
    busy: usize,
    /// Per PU: packets there `<< 32 |` packets there in transit.
    cnt: Vec<u64>,
    /// Hops the sweep leaves to [`State::finish_hops`].
    later: Vec<(u32, Entry)>,
    /// Per phase: packets not yet through it.
    remaining: Vec<u64>,
    /// Per phase: ranks waiting for its gate.
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
        let mut cnt = vec![0u64; shape.pus()];
        for &p in start {
            cnt[p as usize] += PACKET;
        }
        let phases = plan.phases;
        let home = who
            .iter()
            .map(|&p| Home {
                pos: start[p as usize],
                transit: 0,
            })
            .collect();
        State {
            shape: *shape,
            config,
            home,
            who,
            strides: (0..shape.dims).map(|a| shape.stride(a)).collect(),
            links: Links::new(shape.pus(), 2 * shape.dims),
            busy: 0,
            later: Vec::new(),
            remaining: vec![n as u64; phases],
            waiting: vec![Vec::new(); phases],
            opened: 0,
            out: Outcome {
                phase_steps: vec![0; phases],
                phase_end: vec![0; phases],
                phase_open: vec![0; phases],
                overruns: vec![0; phases],
                qmax: cnt.iter().map(|&c| (c >> 32) as u32).max().unwrap_or(0),
                ..Outcome::default()
            },
            cnt,
            plan,
        }
    }

    /// Runs the sweep specialised to the strategy.
    fn run(&mut self, hook: BarrierHook<'_>) {
        match self.config.strategy {
            Strategy::FarthestFirst | Strategy::FarthestTotal => self.run_as::<Falling>(hook),
            Strategy::NearestFirst | Strategy::FarthestOrigin => self.run_as::<Rising>(hook),
            Strategy::Fifo => self.run_as::<Fifo>(hook),
            Strategy::Random => self.run_as::<Random>(hook),
        }
    }

    fn run_as<R: Rule>(&mut self, hook: BarrierHook<'_>) {
        let n = self.home.len();
        let phases = self.plan.phases;
        let fixed = self.config.gates.fixed_starts(phases);
        self.waiting[0] = (0..n as u32).collect();
        let mut t = 1u64;
        loop {
            self.open_gates(t, fixed.as_deref(), hook);
            if self.busy == 0 {
                if self.opened >= phases || self.remaining[phases - 1] == 0 {
                    break;
                }
                match &fixed {
                    Some(starts) => t = starts[self.opened],
                    None => unreachable!("packets wait but no gate can open"),
                }
                continue;
            }
            self.step::<R>(t);
            self.links.collect();
            t += 1;
        }
    }

    /// Every packet's position, by packet (packets not in a leg).
    fn positions(&self) -> Vec<Pu> {
        let mut at = vec![0; self.home.len()];
        for (r, h) in self.home.iter().enumerate() {
            at[self.who[r] as usize] = h.pos;
        }
        at
    }

    /// Opens every gate due at the start of step `t`, putting its packets
    /// on links.
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
                let at = self.positions();
                hook(j, &at, self.plan.phase_mut(j));
                check_legs(&self.shape, self.plan);
            }
            if j > 0 {
                self.out.overruns[j - 1] = self.remaining[j - 1];
            }
            self.out.phase_open[j] = t;
            self.opened += 1;
            let ranks = std::mem::take(&mut self.waiting[j]);
            self.release(ranks, j, t);
        }
        self.links.collect();
    }

    /// Starts phase `j` for the packets of `ranks`, which wait for its
    /// gate, in rank order (the order packets join links does not change
    /// the run: heap words and random draws never tie), asking the memory
    /// system ahead for each one's leg and links.
    fn release(&mut self, mut ranks: Vec<u32>, j: usize, t: u64) {
        sort_ranks(&mut ranks, self.home.len());
        let base = j * self.plan.packets;
        for i in 0..ranks.len() {
            if let Some(&r) = ranks.get(i + LEG_AHEAD) {
                let p = self.who[r as usize] as usize;
                links::prefetch(self.plan.legs.as_ptr().wrapping_add(base + p));
            }
            if let Some(&r) = ranks.get(i + LINK_AHEAD) {
                let leg = self.plan.leg(j, self.who[r as usize] as usize);
                if !leg.is_idle() {
                    let pos = self.home[r as usize].pos;
                    let b = self.links.index(pos, 2 * usize::from(leg.axis));
                    links::prefetch(self.links.rec.as_ptr().wrapping_add(b));
                    let b = b.wrapping_add(self.links.span);
                    links::prefetch(self.links.rec.as_ptr().wrapping_add(b));
                }
            }
            let r = ranks[i];
            let h = self.home[r as usize];
            self.start_leg(r, j, h.pos, h.transit, t);
        }
    }

    /// The packet of rank `r` at `pos`, through phase `j - 1`, starts phase
    /// `j` (and any that follow without moving it) if its gate is open; it
    /// becomes a candidate from step `since`.
    fn start_leg(&mut self, r: u32, mut j: usize, pos: Pu, transit: u16, since: u64) {
        self.home[r as usize].pos = pos;
        loop {
            if j == self.plan.phases {
                self.cnt[pos as usize] -= u64::from(transit);
                return;
            }
            if j >= self.opened {
                // Waiting for a gate, it stays in transit.
                self.home[r as usize].transit = transit;
                self.waiting[j].push(r);
                return;
            }
            // Read only here: a packet waiting for a gate needs no leg.
            let p = self.who[r as usize] as usize;
            let leg = self.plan.leg(j, p);
            if !leg.is_idle() {
                let axis = usize::from(leg.axis);
                let x = self.shape.coord(pos, axis);
                let (dir, dist) = self.shape.way(x, u32::from(leg.target), leg.tie);
                if dist > 0 {
                    let measure = match self.config.strategy {
                        Strategy::FarthestFirst => dist,
                        Strategy::NearestFirst => KEY_MAX - dist,
                        Strategy::FarthestOrigin | Strategy::Random => 0,
                        Strategy::FarthestTotal => {
                            rest_of(&self.shape, self.plan, p, j, pos) + dist
                        }
                        Strategy::Fifo => KEY_MAX - since.min(u64::from(KEY_MAX)) as u32,
                    };
                    debug_assert!(measure <= KEY_MAX, "measures fit in 24 bits");
                    let word =
                        u64::from(r) | u64::from(255 - j as u32) << 56 | u64::from(measure) << 32;
                    let e = Entry::new(word, dist, x, transit == 1);
                    let link = self.links.index(pos, 2 * axis + dir.slot());
                    if self.config.strategy == Strategy::Random {
                        self.links.push(link, e, true);
                    } else {
                        self.links.push(link, e, false);
                    }
                    self.busy += 1;
                    return;
                }
            }
            self.remaining[j] -= 1;
            j += 1;
        }
    }

    /// Step `t`: every link with candidates carries one, all at once.
    fn step<R: Rule>(&mut self, t: u64) {
        let mut sweep = Sweep {
            links: &mut self.links,
            cnt: &mut self.cnt,
            later: &mut self.later,
            strides: &self.strides,
            side: self.shape.side,
            t,
            seed: self.config.seed,
        };
        let hops = match self.shape.topology {
            Topology::Torus => sweep.run::<R, true>(),
            Topology::Mesh => sweep.run::<R, false>(),
        };
        self.out.hops += hops;
        self.out.steps = t;
        // Every packet that moved is on its next link but those left for
        // later.
        self.busy -= self.later.len();
        self.finish_hops::<R>(t);
        let out = &mut self.out;
        sweep::check(
            &self.links,
            &self.cnt,
            2 * self.shape.dims,
            &mut out.qmax,
            &mut out.qmax_transit,
        );
    }

    /// The hops the sweep left: packets through their legs start the next
    /// ones (candidates from step `t + 1`); packets wrapping around a
    /// torus join their next link's candidates.
    fn finish_hops<R: Rule>(&mut self, t: u64) {
        let mut later = std::mem::take(&mut self.later);
        for &(to, e) in &later {
            let q = (to as usize % self.links.span) as Pu;
            self.cnt[q as usize] += ARRIVAL;
            if e.left() == 0 {
                // A packet's last hop in a phase ends its leg there.
                let j = e.phase();
                self.out.phase_end[j] = t;
                self.remaining[j] -= 1;
                self.start_leg(e.rank(), j + 1, q, 1, t + 1);
            } else {
                self.links.push(to as usize, e, R::RANDOM);
                self.busy += 1;
            }
            let c = self.cnt[q as usize];
            self.out.qmax = self.out.qmax.max((c >> 32) as u32);
            self.out.qmax_transit = self.out.qmax_transit.max(c as u32);
        }
        later.clear();
        self.later = later;
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
        self.out.positions = self.positions();
        self.out
    }
}

/// How many packets ahead of the one starting its leg at a gate
/// [`State::release`] asks for a packet's leg, and for its links.
const LEG_AHEAD: usize = 16;

/// See [`LEG_AHEAD`].
const LINK_AHEAD: usize = 8;

/// Sorts `ranks`, distinct ranks below `n`: by a bitset when they are
/// many, so that a gate's packets start in rank order, reading the
/// per-rank arrays in order.
fn sort_ranks(ranks: &mut [u32], n: usize) {
    if ranks.len() < 64 || ranks.len() < n / 64 {
        ranks.sort_unstable();
        return;
    }
    let mut set = vec![0u64; n.div_ceil(64)];
    for &r in ranks.iter() {
        set[r as usize >> 6] |= 1 << (r & 63);
    }
    let mut out = ranks.iter_mut();
    for (w, &bits) in set.iter().enumerate() {
        let mut bits = bits;
        while bits != 0 {
            if let Some(slot) = out.next() {
                *slot = (w * 64) as u32 + bits.trailing_zeros();
            }
            bits &= bits - 1;
        }
    }
}

/// Hops of packet `p`'s legs after leg `j`, which starts at `pos`.
fn rest_of(shape: &Shape, plan: &Plan, p: usize, j: usize, pos: Pu) -> u32 {
    let leg = plan.leg(j, p);
    let mut at = shape.with_coord(pos, usize::from(leg.axis), u32::from(leg.target));
    let mut total = 0;
    for l in (j + 1..plan.phases).map(|i| plan.leg(i, p)) {
        if l.is_idle() {
            continue;
        }
        let axis = usize::from(l.axis);
        total += shape
            .way(shape.coord(at, axis), u32::from(l.target), l.tie)
            .1;
        at = shape.with_coord(at, axis, u32::from(l.target));
    }
    total
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

/// A stateless 64-bit mix (splitmix64's finaliser): the random strategy's
/// draw for `(seed, step, rank)`, the same whatever order links are served.
pub(crate) fn draw(seed: u64, step: u64, rank: u32) -> u64 {
    let mut x = seed ^ step.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(rank) << 17;
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
