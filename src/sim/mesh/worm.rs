//! The cut-through engine: every worm is `k` flits (flit 0 the head, flit
//! `k - 1` the tail) that all start at the worm's source; the head follows
//! the worm's [`Plan`] (one leg per worm and phase) and the other flits
//! follow it through the links it reserved: virtual cut-through with link
//! reservation (docs/simulation.md, k-k routing, "Step semantics").
//!
//! Step semantics, `t = 1, 2, ...`:
//! - A directed link that no worm holds at the start of the step is
//!   assigned to one of its candidates: the worms whose head is at the
//!   link's sender, in a started leg that next uses the link. The
//!   [`Strategy`] chooses as in the store-and-forward engine
//!   ([`super::engine`]), measured on the head: lower phase first, then
//!   the strategy's measure, then a seeded random rank per worm.
//! - Every held link carries, each step, the lowest-index flit of its worm
//!   at its sender, if there is one: precisely, at the hop of the head's
//!   path the link was assigned for (a path may pass a PU twice). In the
//!   step it is assigned, that is the head. All moves happen at once: a
//!   flit that arrives at the end of step `t` may move again in step
//!   `t + 1`.
//! - A link is released in the step in which the tail crosses it, and can
//!   be assigned again, to any worm (another hop of the same one included),
//!   from the next step on.
//!
//! A worm is never cut: every hop of the head's path from the tail's to the
//! head's holds a flit, so consecutive flits are at the same PU or adjacent
//! ones (asserted every step). Hence every held link carries a flit every
//! step, and a lone worm over distance `D` takes `D + k - 1` steps.
//!
//! Phases: the head leaves a leg when it reaches the leg's target and
//! starts its next leg as the store-and-forward engine starts a packet's:
//! a candidate from the next step if that phase's gate is open (passing
//! legs that do not move it), else once the gate opens. The flits behind
//! keep following through the held links meanwhile. A worm is through
//! phase `p` when its tail reaches the hop at which the head finished leg
//! `p`. Under [`Gates::Barrier`] phase `p + 1` opens at the start of the
//! step after the last worm's tail is through phase `p`, so phases do not
//! overlap and a lone worm spends `D_p + k - 1` steps in each. Under
//! [`Gates::Coalesced`] a head starts its next leg the step after it
//! reaches a leg's target; under [`Gates::Fixed`] phase `p` opens at step
//! `1 +` the budgets of the phases before it, and the worms whose tails
//! are not through phase `p - 1` then are its overruns.
//!
//! The [`Outcome`] counts flits: `hops` are flit-hops, `qmax` the most flits
//! at one PU (unsent, waiting and delivered ones too), `qmax_transit` those
//! that have moved and are not delivered (a flit is delivered once it is at
//! its worm's destination and the head is through its last phase), and a
//! phase's end is the last step in which a flit crossed a hop of that
//! phase's leg; `positions` are the heads'. With `k = 1` a worm is a
//! packet and the run is the store-and-forward engine's, figure for figure.
//!
//! Cost: each worm keeps the sizes of its groups of flits at the hops from
//! its tail's to its head's in a ring; only the two end groups change in a
//! step, so a worm costs O(1) a step however many flits it moves. Only
//! free links with candidates and worms holding links are visited.

mod heap;
mod step;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use rand::seq::SliceRandom;
use rand_chacha::rand_core::SeedableRng;

use super::engine::{check_legs, max_count, total_hops, BarrierHook, Config, Outcome, KEY_MAX};
use super::plan::{Gates, Plan, Strategy};
use super::shape::{Pu, Shape};

/// Routes one worm of `flits` flits from each of `start` along `plan` on
/// `shape`, cut-through.
///
/// # Panics
/// If `flits` is 0, the plan and the start positions disagree on the
/// number of worms, a leg names an axis or coordinate outside `shape`, or
/// there are more than 255 phases.
pub fn route(shape: &Shape, start: &[Pu], flits: u32, plan: &Plan, config: &Config) -> Outcome {
    let mut plan = plan.clone();
    route_with(shape, start, flits, &mut plan, config, &mut |_, _, _| {})
}

/// [`route`] with a hook that may set each phase's leg targets under
/// barriers, once the positions at the phase's start are known (every
/// worm is then whole at its head's PU).
pub fn route_with(
    shape: &Shape,
    start: &[Pu],
    flits: u32,
    plan: &mut Plan,
    config: &Config,
    hook: BarrierHook<'_>,
) -> Outcome {
    run(shape, start, flits, plan, config, hook, |_, _| {})
}

/// [`route_with`], calling `trace` after every step with the step and the
/// state.
fn run(
    shape: &Shape,
    start: &[Pu],
    flits: u32,
    plan: &mut Plan,
    config: &Config,
    hook: BarrierHook<'_>,
    trace: impl FnMut(u64, &State<'_>),
) -> Outcome {
    assert!(flits >= 1, "a worm has at least one flit");
    assert_eq!(start.len(), plan.packets, "one start per worm");
    assert!(plan.phases <= 255, "at most 255 phases");
    check_legs(shape, plan);
    if plan.phases == 0 {
        return Outcome {
            positions: start.to_vec(),
            qmax: max_count(shape, start) * flits,
            ..Outcome::default()
        };
    }
    let mut s = State::new(shape, start, flits, plan, config);
    s.run(hook, trace);
    s.finish()
}

/// `i` in a ring of `cap` slots, for `i < 2 cap`.
fn wrap(i: usize, cap: usize) -> usize {
    if i >= cap {
        i - cap
    } else {
        i
    }
}

/// One worm, kept together for the cache.
#[derive(Clone, Copy, Debug, Default)]
struct Worm {
    /// The head's position.
    pos: Pu,
    /// The head's coordinate along its current leg's axis.
    x: u32,
    /// Hops left in the head's current leg.
    left: u32,
    /// Hops the head made in its current leg.
    made: u32,
    /// Hops left to the destination (farthest-total-first).
    total_left: u32,
    /// The tie-breaking rank.
    rank: u32,
    /// The ring slot of the tail's group.
    first: u32,
    /// The number of groups: the head's hop - the tail's hop + 1.
    len: u32,
    /// The tail's hop.
    tail: u32,
    /// The phase the head is in (or waits for); `phases` once delivered.
    phase: u8,
    /// The first phase the tail is not through.
    tail_phase: u8,
    /// `2 axis + direction slot` of the head's current leg.
    slot: u8,
    /// Whether the head won a link this step.
    won: bool,
}

impl Worm {
    /// The head's hop.
    fn head(&self) -> u32 {
        self.tail + self.len - 1
    }
}

/// The flits of a worm at one hop of its path, and the link held for the
/// hop (but the head's).
#[derive(Clone, Copy, Debug, Default)]
struct Group {
    flits: u32,
    /// The link's sender.
    at: Pu,
    /// The link's slot at its sender.
    slot: u8,
}

/// The flits at one PU.
#[derive(Clone, Copy, Debug, Default)]
struct Load {
    /// All of them.
    all: u32,
    /// Those that moved and are not delivered.
    transit: u32,
}

/// The engine's working state.
struct State<'a> {
    shape: Shape,
    plan: &'a mut Plan,
    config: &'a Config,
    /// Flits per worm.
    flits: u32,
    /// Ring slots per worm: `flits + 1` groups.
    cap: usize,
    worms: Vec<Worm>,
    /// Per worm, `cap` ring slots: its groups from the tail's hop to the
    /// head's.
    groups: Vec<Group>,
    /// Per axis: [`Shape::stride`].
    stride: Vec<u32>,
    /// Worm of each rank.
    who: Vec<u32>,
    /// Per directed link: the heads waiting for it.
    buckets: Vec<Vec<u64>>,
    /// Per directed link: whether a worm holds it.
    busy: Vec<bool>,
    /// Free links with candidates, to be assigned next step.
    active: Vec<u32>,
    /// Worms that hold a link (or won one this step).
    moving: Vec<u32>,
    /// Per worm and phase (`phases` each): the hop at which the head
    /// finished the phase's leg, for the phases before the head's.
    ends: Vec<u32>,
    load: Vec<Load>,
    /// PUs that gained a flit this step.
    touched: Vec<Pu>,
    /// Per phase: worms whose tail is not yet through it.
    remaining: Vec<u64>,
    waiting: Vec<Vec<u32>>,
    opened: usize,
    out: Outcome,
}

impl<'a> State<'a> {
    fn new(
        shape: &Shape,
        start: &[Pu],
        flits: u32,
        plan: &'a mut Plan,
        config: &'a Config,
    ) -> State<'a> {
        let n = start.len();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(config.seed);
        let mut who: Vec<u32> = (0..n as u32).collect();
        who.shuffle(&mut rng);
        let mut worms: Vec<Worm> = start
            .iter()
            .map(|&pos| Worm {
                pos,
                len: 1,
                ..Worm::default()
            })
            .collect();
        for (r, &w) in who.iter().enumerate() {
            worms[w as usize].rank = r as u32;
        }
        if config.strategy == Strategy::FarthestTotal {
            for (w, total) in worms.iter_mut().zip(total_hops(shape, start, plan)) {
                w.total_left = total;
            }
        }
        let mut load = vec![Load::default(); shape.pus()];
        for &p in start {
            load[p as usize].all += flits;
        }
        let phases = plan.phases;
        let cap = flits as usize + 1;
        let mut groups = vec![Group::default(); n * cap];
        for w in 0..n {
            groups[w * cap].flits = flits;
        }
        let links = shape.pus() * shape.slots();
        State {
            shape: *shape,
            config,
            flits,
            cap,
            worms,
            groups,
            stride: (0..shape.dims).map(|a| shape.stride(a)).collect(),
            who,
            buckets: vec![Vec::new(); links],
            busy: vec![false; links],
            active: Vec::new(),
            moving: Vec::new(),
            ends: vec![0; n * phases],
            touched: Vec::new(),
            remaining: vec![n as u64; phases],
            waiting: vec![Vec::new(); phases],
            opened: 0,
            out: Outcome {
                phase_steps: vec![0; phases],
                phase_end: vec![0; phases],
                phase_open: vec![0; phases],
                overruns: vec![0; phases],
                qmax: load.iter().map(|l| l.all).max().unwrap_or(0),
                ..Outcome::default()
            },
            load,
            plan,
        }
    }

    fn run(&mut self, hook: BarrierHook<'_>, mut trace: impl FnMut(u64, &State<'_>)) {
        let n = self.worms.len();
        let phases = self.plan.phases;
        let fixed = self.config.gates.fixed_starts(phases);
        for w in 0..n {
            self.waiting[0].push(w as u32);
        }
        let mut t = 1u64;
        loop {
            self.open_gates(t, fixed.as_deref(), hook);
            if self.active.is_empty() && self.moving.is_empty() {
                if self.opened >= phases || self.remaining[phases - 1] == 0 {
                    break;
                }
                match &fixed {
                    Some(starts) => t = starts[self.opened],
                    None => unreachable!("worms wait but no gate can open"),
                }
                continue;
            }
            self.step(t);
            trace(t, self);
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
                let heads: Vec<Pu> = self.worms.iter().map(|w| w.pos).collect();
                hook(j, &heads, self.plan.phase_mut(j));
                check_legs(&self.shape, self.plan);
            }
            if j > 0 {
                self.out.overruns[j - 1] = self.remaining[j - 1];
            }
            self.out.phase_open[j] = t;
            self.opened += 1;
            for w in std::mem::take(&mut self.waiting[j]) {
                self.start_leg(w, j, t);
            }
        }
    }

    /// The head of worm `w`, through phase `j - 1`, starts phase `j` (and
    /// any that follow without moving it) if its gate is open; it becomes a
    /// candidate from step `since`.
    fn start_leg(&mut self, w: u32, mut j: usize, since: u64) {
        let wi = w as usize;
        let phases = self.plan.phases;
        let head = self.worms[wi].head();
        loop {
            self.worms[wi].phase = j as u8;
            if j == phases {
                self.deliver(w);
                break;
            }
            if j >= self.opened {
                self.waiting[j].push(w);
                break;
            }
            let leg = self.plan.leg(j, wi);
            if !leg.is_idle() {
                let axis = usize::from(leg.axis);
                let x = self.shape.coord(self.worms[wi].pos, axis);
                let (dir, dist) = self.shape.way(x, u32::from(leg.target), leg.tie);
                if dist > 0 {
                    let worm = &mut self.worms[wi];
                    worm.left = dist;
                    worm.made = 0;
                    worm.slot = (2 * axis + dir.slot()) as u8;
                    worm.x = x;
                    self.enqueue(w, since);
                    break;
                }
            }
            self.ends[wi * phases + j] = head;
            j += 1;
        }
        self.tail_through(w);
    }

    /// The head of `w` is through its last phase: the flits with it are
    /// delivered, and so are those that reach it later.
    fn deliver(&mut self, w: u32) {
        let worm = self.worms[w as usize];
        if worm.head() > 0 {
            let back = wrap((worm.first + worm.len - 1) as usize, self.cap);
            let with_head = self.groups[w as usize * self.cap + back].flits;
            self.load[worm.pos as usize].transit -= with_head;
        }
    }

    /// Counts the phases the tail of `w` has now gone through.
    fn tail_through(&mut self, w: u32) {
        let wi = w as usize;
        let phases = self.plan.phases;
        let worm = &mut self.worms[wi];
        while worm.tail_phase < worm.phase {
            let j = usize::from(worm.tail_phase);
            if self.ends[wi * phases + j] > worm.tail {
                break;
            }
            self.remaining[j] -= 1;
            worm.tail_phase += 1;
        }
    }

    /// Puts the head of `w` among the candidates of its next link, from
    /// step `since`.
    fn enqueue(&mut self, w: u32, since: u64) {
        let worm = &self.worms[w as usize];
        let measure = match self.config.strategy {
            Strategy::FarthestFirst => worm.left,
            Strategy::NearestFirst => KEY_MAX - worm.left,
            Strategy::FarthestOrigin => worm.made,
            Strategy::FarthestTotal => worm.total_left,
            Strategy::Fifo => KEY_MAX - since.min(u64::from(KEY_MAX)) as u32,
            Strategy::Random => 0,
        };
        let key = (255 - u32::from(worm.phase)) << 24 | measure.min(KEY_MAX);
        let word = u64::from(key) << 32 | u64::from(worm.rank);
        let b = worm.pos as usize * self.shape.slots() + usize::from(worm.slot);
        let bucket = &mut self.buckets[b];
        if bucket.is_empty() && !self.busy[b] {
            self.active.push(b as u32);
        }
        if self.config.strategy == Strategy::Random {
            bucket.push(word);
        } else {
            heap::push(bucket, word);
        }
    }

    fn finish(mut self) -> Outcome {
        assert!(
            self.worms.iter().all(|w| w.len == 1),
            "every flit ends with its head"
        );
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
        self.out.positions = self.worms.iter().map(|w| w.pos).collect();
        self.out
    }
}
