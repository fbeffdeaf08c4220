//! A plain store-and-forward simulator kept for tests: every step scans
//! every packet, groups the candidates by link, and picks each link's
//! winner by comparing the strategy's measure computed from scratch. The
//! engine ([`super::engine`]) must agree with it exactly.

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand_chacha::rand_core::SeedableRng;

use super::engine::{draw, Config, Outcome};
use super::plan::{Gates, Plan, Strategy};
use super::shape::{Dir, Pu, Shape};

/// One packet as the reference sees it.
#[derive(Clone, Copy)]
struct Packet {
    pos: Pu,
    phase: usize,
    started: bool,
    left: u32,
    made: u32,
    axis: usize,
    dir: Dir,
    since: u64,
    moved: bool,
}

/// Routes as [`super::engine::route`] does, slowly.
pub(crate) fn route(shape: &Shape, start: &[Pu], plan: &Plan, config: &Config) -> Outcome {
    let n = start.len();
    let phases = plan.phases;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(config.seed);
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.shuffle(&mut rng);
    let mut rank = vec![0u32; n];
    for (r, &p) in order.iter().enumerate() {
        rank[p as usize] = r as u32;
    }
    let mut ps: Vec<Packet> = start
        .iter()
        .map(|&pos| Packet {
            pos,
            phase: 0,
            started: false,
            left: 0,
            made: 0,
            axis: 0,
            dir: Dir::Up,
            since: 0,
            moved: false,
        })
        .collect();
    let mut out = Outcome {
        phase_steps: vec![0; phases],
        phase_end: vec![0; phases],
        phase_open: vec![0; phases],
        overruns: vec![0; phases],
        qmax: counts(shape, &ps, |_| true).into_iter().max().unwrap_or(0),
        ..Outcome::default()
    };
    let mut opened = 0usize;
    let mut t = 1u64;
    while ps.iter().any(|p| p.phase < phases) {
        assert!(t < 1_000_000, "the reference does not finish");
        // Gates due at the start of step t, and the legs they start.
        loop {
            start_legs(shape, plan, &mut ps, opened, t);
            let due = opened < phases
                && match &config.gates {
                    Gates::Barrier => ps.iter().all(|p| p.phase >= opened),
                    Gates::Coalesced => true,
                    Gates::Fixed(b) => b[..opened].iter().sum::<u64>() < t,
                };
            if !due {
                break;
            }
            if opened > 0 {
                out.overruns[opened - 1] = ps.iter().filter(|p| p.phase < opened).count() as u64;
            }
            out.phase_open[opened] = t;
            opened += 1;
        }
        let winners = winners(shape, plan, config, &ps, &rank, t);
        for &i in &winners {
            let p = &mut ps[i];
            p.pos = shape.neighbour(p.pos, p.axis, p.dir);
            p.left -= 1;
            p.made += 1;
            p.since = t + 1;
            p.moved = true;
            out.phase_end[p.phase] = t;
            if p.left == 0 {
                p.phase += 1;
                p.started = false;
            }
        }
        // Packets through a leg start their next ones at once (candidates
        // from the next step), so those through their last are delivered.
        start_legs(shape, plan, &mut ps, opened, t + 1);
        if !winners.is_empty() {
            out.steps = t;
            out.hops += winners.len() as u64;
            let all = counts(shape, &ps, |_| true);
            let transit = counts(shape, &ps, |p| p.moved && p.phase < phases);
            out.qmax = out.qmax.max(all.into_iter().max().unwrap_or(0));
            out.qmax_transit = out.qmax_transit.max(transit.into_iter().max().unwrap_or(0));
        }
        t += 1;
    }
    let mut reached = 0;
    for j in 0..phases {
        let end = out.phase_end[j];
        out.phase_steps[j] = match config.gates {
            Gates::Barrier if end > 0 => end + 1 - out.phase_open[j],
            Gates::Barrier => 0,
            _ => end.saturating_sub(reached),
        };
        reached = reached.max(end);
    }
    out.positions = ps.iter().map(|p| p.pos).collect();
    out
}

/// Every packet not in a leg starts the legs of open phases, passing
/// through those that do not move it; a started leg's packet is a
/// candidate from step `since`.
fn start_legs(shape: &Shape, plan: &Plan, ps: &mut [Packet], opened: usize, since: u64) {
    for (i, p) in ps.iter_mut().enumerate() {
        while p.phase < plan.phases && p.phase < opened && !p.started {
            let leg = plan.leg(p.phase, i);
            let (dir, dist) = if leg.is_idle() {
                (Dir::Up, 0)
            } else {
                let x = shape.coord(p.pos, usize::from(leg.axis));
                shape.way(x, u32::from(leg.target), leg.tie)
            };
            if dist == 0 {
                p.phase += 1;
            } else {
                *p = Packet {
                    started: true,
                    left: dist,
                    made: 0,
                    axis: usize::from(leg.axis),
                    dir,
                    since,
                    ..*p
                };
            }
        }
    }
}

/// Each link's winner at step `t`: candidates grouped by link, the best
/// by phase, the strategy's measure computed from scratch, then rank.
fn winners(
    shape: &Shape,
    plan: &Plan,
    config: &Config,
    ps: &[Packet],
    rank: &[u32],
    t: u64,
) -> Vec<usize> {
    let phases = plan.phases;
    // Candidates by link.
    let mut links: BTreeMap<(Pu, usize, u8), Vec<usize>> = BTreeMap::new();
    for (i, p) in ps.iter().enumerate() {
        if p.phase < phases && p.started {
            links
                .entry((p.pos, p.axis, p.dir.slot() as u8))
                .or_default()
                .push(i);
        }
    }
    let better = |a: usize, b: usize| -> bool {
        let (pa, pb) = (&ps[a], &ps[b]);
        if pa.phase != pb.phase {
            return pa.phase < pb.phase;
        }
        let ord = match config.strategy {
            Strategy::FarthestFirst => pa.left.cmp(&pb.left),
            Strategy::NearestFirst => pb.left.cmp(&pa.left),
            Strategy::FarthestOrigin => pa.made.cmp(&pb.made),
            Strategy::FarthestTotal => {
                hops_left(shape, plan, a, pa).cmp(&hops_left(shape, plan, b, pb))
            }
            Strategy::Fifo => pb.since.cmp(&pa.since),
            Strategy::Random => draw(config.seed, t, rank[a]).cmp(&draw(config.seed, t, rank[b])),
        };
        ord.then(rank[a].cmp(&rank[b])).is_gt()
    };
    links
        .values()
        .map(|c| {
            c.iter()
                .copied()
                .fold(c[0], |w, x| if better(x, w) { x } else { w })
        })
        .collect()
}

/// Packets per PU that satisfy `keep`.
fn counts(shape: &Shape, ps: &[Packet], keep: impl Fn(&Packet) -> bool) -> Vec<u32> {
    let mut c = vec![0u32; shape.pus()];
    for p in ps.iter().filter(|p| keep(p)) {
        c[p.pos as usize] += 1;
    }
    c
}

/// Hops left to packet `i`'s destination: the rest of this leg, then the
/// later legs walked from the leg's end.
fn hops_left(shape: &Shape, plan: &Plan, i: usize, p: &Packet) -> u32 {
    let leg = plan.leg(p.phase, i);
    let mut at = shape.with_coord(p.pos, p.axis, u32::from(leg.target));
    let mut total = p.left;
    for j in p.phase + 1..plan.phases {
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
