//! A plain cut-through simulator kept for tests: every step scans every
//! worm and flit, finds the candidates of the links no worm holds, picks
//! each link's worm by comparing the strategy's measure computed from
//! scratch, moves the lowest-index flit at each held link's hop, releases
//! the links the tails crossed, and checks that no worm is cut. The engine
//! ([`super`]) must agree with it exactly, step by step.

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand_chacha::rand_core::SeedableRng;

use crate::sim::mesh::engine::{draw, Config, Outcome};
use crate::sim::mesh::plan::{Gates, Plan, Strategy};
use crate::sim::mesh::shape::{Dir, Pu, Shape};

/// For every step in which a flit moved: the step and where every flit is,
/// worm by worm and head first.
pub(super) type Trace = Vec<(u64, Vec<Pu>)>;

/// One worm as the reference sees it.
struct Worm {
    /// The PU at each hop of the head's path so far.
    path: Vec<Pu>,
    /// The phase of each hop the head crossed.
    hop_phase: Vec<usize>,
    /// Each flit's hop, head first.
    flit: Vec<usize>,
    phase: usize,
    started: bool,
    made: u32,
    axis: usize,
    dir: Dir,
    since: u64,
    /// Per phase: the hop at which the head finished it.
    ends: Vec<Option<usize>>,
}

impl Worm {
    fn head(&self) -> usize {
        self.flit[0]
    }

    fn tail(&self) -> usize {
        self.flit[self.flit.len() - 1]
    }

    /// Whether the tail is through phase `j`.
    fn through(&self, j: usize) -> bool {
        self.ends[j].is_some_and(|e| self.tail() >= e)
    }
}

/// Routes as [`super::route`] does, slowly, with the trace.
pub(super) fn route(
    shape: &Shape,
    start: &[Pu],
    flits: u32,
    plan: &Plan,
    config: &Config,
) -> (Outcome, Trace) {
    let n = start.len();
    let phases = plan.phases;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(config.seed);
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.shuffle(&mut rng);
    let mut rank = vec![0u32; n];
    for (r, &w) in order.iter().enumerate() {
        rank[w as usize] = r as u32;
    }
    let mut ws: Vec<Worm> = start
        .iter()
        .map(|&pos| Worm {
            path: vec![pos],
            hop_phase: Vec::new(),
            flit: vec![0; flits as usize],
            phase: 0,
            started: false,
            made: 0,
            axis: 0,
            dir: Dir::Up,
            since: 0,
            ends: vec![None; phases],
        })
        .collect();
    let mut out = Outcome {
        phase_steps: vec![0; phases],
        phase_end: vec![0; phases],
        phase_open: vec![0; phases],
        overruns: vec![0; phases],
        qmax: counts(shape, &ws, |_, _| true)
            .into_iter()
            .max()
            .unwrap_or(0),
        ..Outcome::default()
    };
    let mut trace = Trace::new();
    // Held links: the worm and the hop of its path each is held for.
    let mut held: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    let mut opened = 0usize;
    let mut t = 1u64;
    while ws.iter().any(|w| w.phase < phases || w.tail() < w.head()) {
        assert!(t < 1_000_000, "the reference does not finish");
        open_gates(shape, plan, config, &mut ws, &mut opened, &mut out, t);
        assign(shape, plan, config, &ws, &rank, &mut held, t);
        // Each held link carries the lowest-index flit at its hop.
        let moves: Vec<(usize, usize, usize)> = held
            .values()
            .filter_map(|&(i, h)| ws[i].flit.iter().position(|&x| x == h).map(|f| (i, f, h)))
            .collect();
        for &(i, f, h) in &moves {
            let w = &mut ws[i];
            if f == 0 {
                let at = shape.neighbour(w.path[h], w.axis, w.dir);
                w.path.push(at);
                w.hop_phase.push(w.phase);
                w.made += 1;
                w.since = t + 1;
            }
            w.flit[f] = h + 1;
            out.phase_end[w.hop_phase[h]] = t;
        }
        held.retain(|_, &mut (i, h)| ws[i].tail() <= h);
        // Heads at their legs' targets are through those phases, and start
        // their next legs at once (candidates from the next step).
        for &(i, f, _) in &moves {
            let w = &mut ws[i];
            if f == 0 && leg_left(shape, plan, i, w) == 0 {
                w.ends[w.phase] = Some(w.head());
                w.phase += 1;
                w.started = false;
            }
        }
        start_legs(shape, plan, &mut ws, opened, t + 1);
        check_whole(shape, &ws);
        if !moves.is_empty() {
            out.steps = t;
            out.hops += moves.len() as u64;
            let all = counts(shape, &ws, |_, _| true);
            let transit = counts(shape, &ws, |w, h| {
                h > 0 && !(w.phase == phases && h == w.head())
            });
            out.qmax = out.qmax.max(all.into_iter().max().unwrap_or(0));
            out.qmax_transit = out.qmax_transit.max(transit.into_iter().max().unwrap_or(0));
            let at = ws.iter().flat_map(|w| w.flit.iter().map(|&h| w.path[h]));
            trace.push((t, at.collect()));
        }
        t += 1;
    }
    phase_steps(&mut out, &config.gates);
    out.positions = ws.iter().map(|w| w.path[w.head()]).collect();
    (out, trace)
}

/// Opens the gates due at the start of step `t`, starting the legs they
/// let start.
fn open_gates(
    shape: &Shape,
    plan: &Plan,
    config: &Config,
    ws: &mut [Worm],
    opened: &mut usize,
    out: &mut Outcome,
    t: u64,
) {
    loop {
        start_legs(shape, plan, ws, *opened, t);
        let j = *opened;
        let due = j < plan.phases
            && match &config.gates {
                Gates::Barrier => j == 0 || ws.iter().all(|w| w.through(j - 1)),
                Gates::Coalesced => true,
                Gates::Fixed(b) => b[..j].iter().sum::<u64>() < t,
            };
        if !due {
            return;
        }
        if j > 0 {
            out.overruns[j - 1] = ws.iter().filter(|w| !w.through(j - 1)).count() as u64;
        }
        out.phase_open[j] = t;
        *opened += 1;
    }
}

/// Assigns every free link with candidates to one of them in step `t`:
/// `held` maps a link to the worm and the hop of its path it is held for.
fn assign(
    shape: &Shape,
    plan: &Plan,
    config: &Config,
    ws: &[Worm],
    rank: &[u32],
    held: &mut BTreeMap<usize, (usize, usize)>,
    t: u64,
) {
    let mut links: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, w) in ws.iter().enumerate() {
        if w.phase < plan.phases && w.started {
            let link = shape.link(w.path[w.head()], w.axis, w.dir);
            if !held.contains_key(&link) {
                links.entry(link).or_default().push(i);
            }
        }
    }
    let better = |a: usize, b: usize| -> bool {
        let (wa, wb) = (&ws[a], &ws[b]);
        if wa.phase != wb.phase {
            return wa.phase < wb.phase;
        }
        let ord = match config.strategy {
            Strategy::FarthestFirst => {
                leg_left(shape, plan, a, wa).cmp(&leg_left(shape, plan, b, wb))
            }
            Strategy::NearestFirst => {
                leg_left(shape, plan, b, wb).cmp(&leg_left(shape, plan, a, wa))
            }
            Strategy::FarthestOrigin => wa.made.cmp(&wb.made),
            Strategy::FarthestTotal => {
                hops_left(shape, plan, a, wa).cmp(&hops_left(shape, plan, b, wb))
            }
            Strategy::Fifo => wb.since.cmp(&wa.since),
            Strategy::Random => draw(config.seed, t, rank[a]).cmp(&draw(config.seed, t, rank[b])),
        };
        ord.then(rank[a].cmp(&rank[b])).is_gt()
    };
    for (link, c) in links {
        let w = c
            .iter()
            .copied()
            .fold(c[0], |w, x| if better(x, w) { x } else { w });
        held.insert(link, (w, ws[w].head()));
    }
}

/// Each phase's steps from its end (and, under barriers, its opening).
fn phase_steps(out: &mut Outcome, gates: &Gates) {
    let mut reached = 0;
    for j in 0..out.phase_end.len() {
        let end = out.phase_end[j];
        out.phase_steps[j] = match gates {
            Gates::Barrier if end > 0 => end + 1 - out.phase_open[j],
            Gates::Barrier => 0,
            _ => end.saturating_sub(reached),
        };
        reached = reached.max(end);
    }
}

/// Every head not in a leg starts the legs of open phases, passing through
/// those that do not move it; a started leg's head is a candidate from
/// step `since`.
fn start_legs(shape: &Shape, plan: &Plan, ws: &mut [Worm], opened: usize, since: u64) {
    for (i, w) in ws.iter_mut().enumerate() {
        while w.phase < plan.phases && w.phase < opened && !w.started {
            let leg = plan.leg(w.phase, i);
            let (dir, dist) = if leg.is_idle() {
                (Dir::Up, 0)
            } else {
                let x = shape.coord(w.path[w.head()], usize::from(leg.axis));
                shape.way(x, u32::from(leg.target), leg.tie)
            };
            if dist == 0 {
                w.ends[w.phase] = Some(w.head());
                w.phase += 1;
            } else {
                w.started = true;
                w.made = 0;
                w.axis = usize::from(leg.axis);
                w.dir = dir;
                w.since = since;
            }
        }
    }
}

/// Consecutive flits of every worm are at the same hop or adjacent hops of
/// its path, and so at the same PU or adjacent PUs.
fn check_whole(shape: &Shape, ws: &[Worm]) {
    for (i, w) in ws.iter().enumerate() {
        for f in 1..w.flit.len() {
            let (a, b) = (w.flit[f - 1], w.flit[f]);
            assert!(a == b || a == b + 1, "worm {i} is cut at flit {f}");
            assert!(shape.distance(w.path[a], w.path[b]) <= 1, "worm {i} is cut");
        }
    }
}

/// Flits per PU whose worm and hop satisfy `keep`.
fn counts(shape: &Shape, ws: &[Worm], keep: impl Fn(&Worm, usize) -> bool) -> Vec<u32> {
    let mut c = vec![0u32; shape.pus()];
    for w in ws {
        for &h in w.flit.iter().filter(|&&h| keep(w, h)) {
            c[w.path[h] as usize] += 1;
        }
    }
    c
}

/// Hops left to the end of worm `i`'s current leg, from its head.
fn leg_left(shape: &Shape, plan: &Plan, i: usize, w: &Worm) -> u32 {
    let leg = plan.leg(w.phase, i);
    let x = shape.coord(w.path[w.head()], w.axis);
    shape.way(x, u32::from(leg.target), leg.tie).1
}

/// Hops left to worm `i`'s destination: the rest of this leg, then the
/// later legs walked from the leg's end.
fn hops_left(shape: &Shape, plan: &Plan, i: usize, w: &Worm) -> u32 {
    let leg = plan.leg(w.phase, i);
    let mut at = shape.with_coord(w.path[w.head()], w.axis, u32::from(leg.target));
    let mut total = leg_left(shape, plan, i, w);
    for j in w.phase + 1..plan.phases {
        let l = plan.leg(j, i);
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
