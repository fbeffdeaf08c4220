use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::sim::mesh::engine;
use crate::sim::mesh::plan::{Leg, Phasing};
use crate::sim::mesh::shape::{Dir, Topology};

fn random_case(rng: &mut ChaCha8Rng, worms: usize) -> (Shape, Vec<Pu>, Plan) {
    let topology = if rng.gen_bool(0.5) {
        Topology::Mesh
    } else {
        Topology::Torus
    };
    let dims = rng.gen_range(1..=3);
    let side = rng.gen_range(2..=7);
    let shape = Shape::new(side, dims, topology).unwrap();
    let worms = rng.gen_range(1..=worms);
    let phases = rng.gen_range(1..=4);
    let start: Vec<Pu> = (0..worms)
        .map(|_| rng.gen_range(0..shape.pus() as Pu))
        .collect();
    let mut plan = Plan::idle(worms, phases);
    for leg in &mut plan.legs {
        if rng.gen_bool(0.85) {
            let tie = if rng.gen_bool(0.5) {
                Dir::Up
            } else {
                Dir::Down
            };
            *leg = Leg::tied(rng.gen_range(0..dims), rng.gen_range(0..side), tie);
        }
    }
    (shape, start, plan)
}

fn gates(phasing: Phasing, phases: usize, rng: &mut ChaCha8Rng) -> Gates {
    match phasing {
        Phasing::Barrier => Gates::Barrier,
        Phasing::Coalesced => Gates::Coalesced,
        Phasing::Fixed => Gates::Fixed((0..phases).map(|_| rng.gen_range(0..9)).collect()),
    }
}

/// The engine's outcome and, for every step, where every flit is.
fn traced(
    shape: &Shape,
    start: &[Pu],
    flits: u32,
    plan: &Plan,
    config: &Config,
) -> (Outcome, reference::Trace) {
    let mut plan = plan.clone();
    let mut trace = reference::Trace::new();
    let out = run(
        shape,
        start,
        flits,
        &mut plan,
        config,
        &mut |_, _, _| {},
        |t, s| trace.push((t, s.flit_positions())),
    );
    (out, trace)
}

/// Consecutive flits of every worm in `at` (worm by worm, head first) are
/// at the same PU or adjacent PUs.
fn assert_whole(shape: &Shape, flits: u32, at: &[Pu], t: u64) {
    for worm in at.chunks(flits as usize) {
        for pair in worm.windows(2) {
            assert!(
                shape.distance(pair[0], pair[1]) <= 1,
                "a worm is cut in step {t}"
            );
        }
    }
}

/// The engine equals the plain reference, figure for figure and flit for
/// flit at every step, on random plans over random meshes and tori, for
/// every strategy and phasing; no worm is ever cut.
#[test]
fn the_engine_matches_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(43);
    let mut cases = 0;
    let mut moved = 0;
    for _ in 0..800 {
        let (shape, start, plan) = random_case(&mut rng, 15);
        let flits = rng.gen_range(1..=5);
        for strategy in Strategy::ALL {
            for phasing in [Phasing::Barrier, Phasing::Coalesced, Phasing::Fixed] {
                let config = Config {
                    strategy,
                    gates: gates(phasing, plan.phases, &mut rng),
                    seed: rng.gen(),
                };
                let (fast, fast_trace) = traced(&shape, &start, flits, &plan, &config);
                let (slow, slow_trace) = reference::route(&shape, &start, flits, &plan, &config);
                let what = format!("{shape} k={flits} {strategy} {phasing} {plan:?} {start:?}");
                assert_eq!(fast, slow, "{what}");
                assert_eq!(fast_trace, slow_trace, "{what}");
                for (t, at) in &fast_trace {
                    assert_whole(&shape, flits, at, *t);
                }
                assert_eq!(fast.phase_steps.iter().sum::<u64>(), fast.steps);
                cases += 1;
                moved += u64::from(fast.hops > 0);
            }
        }
    }
    assert_eq!(cases, 800 * 6 * 3);
    assert!(
        moved >= cases * 9 / 10,
        "only {moved} of {cases} cases move"
    );
}

/// One flit per worm is a packet: the store-and-forward engine's run,
/// exactly.
#[test]
fn one_flit_worms_are_packets() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..300 {
        let (shape, start, plan) = random_case(&mut rng, 30);
        for strategy in Strategy::ALL {
            for phasing in [Phasing::Barrier, Phasing::Coalesced, Phasing::Fixed] {
                let config = Config {
                    strategy,
                    gates: gates(phasing, plan.phases, &mut rng),
                    seed: rng.gen(),
                };
                assert_eq!(
                    route(&shape, &start, 1, &plan, &config),
                    engine::route(&shape, &start, &plan, &config),
                    "{shape} {strategy} {phasing} {plan:?} {start:?}"
                );
            }
        }
    }
}

/// Every flit ends at its worm's destination, and the flit-hops are `k`
/// times the heads' planned hops.
#[test]
fn flits_end_at_their_plans_ends() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..200 {
        let (shape, start, plan) = random_case(&mut rng, 15);
        let flits = rng.gen_range(1..=6);
        let config = Config {
            strategy: Strategy::FarthestFirst,
            gates: Gates::Coalesced,
            seed: 9,
        };
        let (out, trace) = traced(&shape, &start, flits, &plan, &config);
        let total: u64 = engine::total_hops(&shape, &start, &plan)
            .iter()
            .map(|&h| u64::from(h))
            .sum();
        assert_eq!(out.hops, u64::from(flits) * total);
        let mut ends = Vec::new();
        for (p, &s) in start.iter().enumerate() {
            let mut at = s;
            for j in 0..plan.phases {
                let l = plan.leg(j, p);
                if !l.is_idle() {
                    at = shape.with_coord(at, usize::from(l.axis), u32::from(l.target));
                }
            }
            ends.extend(std::iter::repeat_n(at, flits as usize));
        }
        let unmoved = start
            .iter()
            .flat_map(|&s| std::iter::repeat_n(s, flits as usize));
        let at = trace.last().map_or(unmoved.collect(), |(_, at)| at.clone());
        assert_eq!(at, ends);
        assert_eq!(
            out.positions,
            ends.iter()
                .step_by(flits as usize)
                .copied()
                .collect::<Vec<_>>()
        );
    }
}

/// A lone worm over distance D takes D + k - 1 steps, on both topologies,
/// and under barriers a second phase adds its own D + k - 1.
#[test]
fn a_lone_worm_takes_its_distance_and_length() {
    for topology in [Topology::Mesh, Topology::Torus] {
        let shape = Shape::new(10, 2, topology).unwrap();
        let (d0, d1) = match topology {
            Topology::Mesh => (6, 7),
            Topology::Torus => (4, 3),
        };
        for flits in [1u32, 2, 3, 5, 8, 13] {
            let k = u64::from(flits);
            let start = [shape.pu(&[1, 2])];
            let mut plan = Plan::idle(1, 1);
            plan.phase_mut(0)[0] = Leg::to(0, 7);
            let config = Config {
                strategy: Strategy::FarthestFirst,
                gates: Gates::Barrier,
                seed: 1,
            };
            let out = route(&shape, &start, flits, &plan, &config);
            assert_eq!(out.steps, d0 + k - 1, "{shape} k={flits}");
            assert_eq!(out.hops, k * d0);
            let mut plan = Plan::idle(1, 2);
            plan.phase_mut(0)[0] = Leg::to(0, 7);
            plan.phase_mut(1)[0] = Leg::to(1, 9);
            let out = route(&shape, &start, flits, &plan, &config);
            assert_eq!(out.phase_steps, vec![d0 + k - 1, d1 + k - 1]);
            assert_eq!(out.steps, d0 + d1 + 2 * (k - 1));
            assert_eq!(out.phase_open, vec![1, d0 + k]);
            assert_eq!(out.positions, vec![shape.pu(&[7, 9])]);
            assert_eq!((out.qmax, out.qmax_transit), (flits, flits));
            // Coalesced, the head turns without waiting for the tail.
            let coalesced = Config {
                gates: Gates::Coalesced,
                ..config
            };
            let out = route(&shape, &start, flits, &plan, &coalesced);
            assert_eq!(out.steps, d0 + d1 + k - 1);
            assert_eq!(out.phase_end, vec![d0 + k - 1, d0 + d1 + k - 1]);
        }
    }
}

/// Two worms for one link: the loser's head crosses it the step after the
/// winner's tail, so the pair takes 2k + D - 1 steps.
#[test]
fn a_link_waits_for_the_tail() {
    let shape = Shape::new(8, 1, Topology::Mesh).unwrap();
    let mut plan = Plan::idle(2, 1);
    plan.phase_mut(0)[0] = Leg::to(0, 5);
    plan.phase_mut(0)[1] = Leg::to(0, 5);
    for flits in [1u32, 3, 4] {
        for phasing in [Phasing::Barrier, Phasing::Coalesced] {
            let config = Config {
                strategy: Strategy::FarthestFirst,
                gates: gates(phasing, 1, &mut ChaCha8Rng::seed_from_u64(0)),
                seed: 3,
            };
            let out = route(&shape, &[0, 0], flits, &plan, &config);
            assert_eq!(out.steps, u64::from(2 * flits) + 5 - 1);
            assert_eq!(out.qmax, 2 * flits);
            assert_eq!(
                out,
                reference::route(&shape, &[0, 0], flits, &plan, &config).0
            );
        }
    }
}

/// The worm form of the store-and-forward fixed-budget case: the late
/// worms are overruns and still finish.
#[test]
fn short_budgets_count_overruns() {
    let shape = Shape::new(8, 1, Topology::Mesh).unwrap();
    let start = [0, 0, 0];
    let mut plan = Plan::idle(3, 2);
    for p in 0..3 {
        plan.phase_mut(0)[p] = Leg::to(0, 5);
        plan.phase_mut(1)[p] = Leg::to(0, 7);
    }
    let config = Config {
        strategy: Strategy::FarthestFirst,
        gates: Gates::Fixed(vec![5, 10]),
        seed: 2,
    };
    let out = route(&shape, &start, 2, &plan, &config);
    // Phase 0: heads cross the first link in steps 1, 3 and 5, so the last
    // tail reaches 5 at the end of step 5 + 4 + 1 = 10.
    assert_eq!(out.phase_end[0], 10);
    assert_eq!(out.overruns[0], 3);
    assert_eq!(out.positions, vec![7, 7, 7]);
    assert_eq!(out, reference::route(&shape, &start, 2, &plan, &config).0);
}

/// Under barriers the hook sees every worm whole at its head's PU, and the
/// legs it sets are the ones routed.
#[test]
fn the_barrier_hook_sets_the_legs() {
    let shape = Shape::new(6, 2, Topology::Torus).unwrap();
    let start = [0, 7, 14];
    let mut plan = Plan::idle(3, 2);
    for p in 0..3 {
        plan.phase_mut(0)[p] = Leg::to(0, 4);
    }
    let config = Config {
        strategy: Strategy::FarthestFirst,
        gates: Gates::Barrier,
        seed: 4,
    };
    let mut seen = Vec::new();
    let out = route_with(&shape, &start, 3, &mut plan, &config, &mut |j, at, legs| {
        seen.push((j, at.to_vec()));
        if j == 1 {
            legs.fill(Leg::to(1, 5));
        }
    });
    assert_eq!(seen, vec![(0, vec![0, 7, 14]), (1, vec![4, 10, 16])]);
    assert_eq!(out.positions, vec![34, 34, 34]);
}

/// The hops of one run and the fastest of `runs` timings of it, in
/// seconds: the machine may be shared.
fn fastest(runs: usize, mut run: impl FnMut() -> Outcome) -> (Outcome, f64) {
    let mut best = f64::INFINITY;
    let mut out = Outcome::default();
    for _ in 0..runs {
        let clock = std::time::Instant::now();
        out = run();
        best = best.min(clock.elapsed().as_secs_f64());
    }
    (out, best)
}

/// A rough speed figure: a 64 x 64 mesh, one worm of k flits per PU to a
/// random destination (a permutation), row then column under barriers,
/// against the store-and-forward engine on the same plan; the fastest of
/// 20 runs counts. Run with
/// `cargo test --release --lib sim::mesh::worm -- --ignored --nocapture`.
#[test]
#[ignore]
fn speed() {
    use rand::seq::SliceRandom;
    let n = 64;
    let shape = Shape::new(n, 2, Topology::Mesh).unwrap();
    let pus = shape.pus();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let start: Vec<Pu> = (0..pus as Pu).collect();
    let mut dest = start.clone();
    dest.shuffle(&mut rng);
    let mut plan = Plan::idle(pus, 2);
    for (p, &d) in dest.iter().enumerate() {
        plan.phase_mut(0)[p] = Leg::to(0, shape.coord(d, 0));
        plan.phase_mut(1)[p] = Leg::to(1, shape.coord(d, 1));
    }
    let config = Config {
        strategy: Strategy::FarthestFirst,
        gates: Gates::Barrier,
        seed: 2,
    };
    let (out, secs) = fastest(20, || engine::route(&shape, &start, &plan, &config));
    println!(
        "packets: T={}, {:.1} M hops/s, {:.2} ms a run",
        out.steps,
        out.hops as f64 / secs / 1e6,
        secs * 1e3
    );
    for flits in [1u32, 8, 32] {
        let (out, secs) = fastest(20, || route(&shape, &start, flits, &plan, &config));
        println!(
            "k={flits}: T={}, {:.1} M flit-hops/s, {:.2} ms a run",
            out.steps,
            out.hops as f64 / secs / 1e6,
            secs * 1e3
        );
    }
}
