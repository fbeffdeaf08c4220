use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::sim::mesh::plan::{Leg, Phasing};
use crate::sim::mesh::reference;
use crate::sim::mesh::shape::{Dir, Topology};

/// A random plan of up to `most` packets on a random mesh or torus; with
/// `one_axis`, every leg of a phase runs along the phase's one axis.
fn random_case(rng: &mut ChaCha8Rng, one_axis: bool, most: usize) -> (Shape, Vec<Pu>, Plan) {
    let topology = if rng.gen_bool(0.5) {
        Topology::Mesh
    } else {
        Topology::Torus
    };
    let dims = rng.gen_range(1..=3);
    let side = match dims {
        1 => rng.gen_range(2..=9),
        2 => rng.gen_range(2..=5),
        _ => rng.gen_range(2..=3),
    };
    let shape = Shape::new(side, dims, topology).unwrap();
    let packets = rng.gen_range(1..=most);
    let phases = rng.gen_range(1..=4);
    let start: Vec<Pu> = (0..packets)
        .map(|_| rng.gen_range(0..shape.pus() as Pu))
        .collect();
    let mut plan = Plan::idle(packets, phases);
    let axes: Vec<usize> = (0..phases).map(|_| rng.gen_range(0..dims)).collect();
    for (i, leg) in plan.legs.iter_mut().enumerate() {
        if rng.gen_bool(0.85) {
            let axis = if one_axis {
                axes[i / packets]
            } else {
                rng.gen_range(0..dims)
            };
            let tie = if rng.gen_bool(0.5) {
                Dir::Up
            } else {
                Dir::Down
            };
            *leg = Leg::tied(axis, rng.gen_range(0..side), tie);
        }
    }
    (shape, start, plan)
}

fn gates(phasing: Phasing, phases: usize, rng: &mut ChaCha8Rng) -> Gates {
    match phasing {
        Phasing::Barrier => Gates::Barrier,
        Phasing::Coalesced => Gates::Coalesced,
        Phasing::Fixed => Gates::Fixed((0..phases).map(|_| rng.gen_range(0..7)).collect()),
    }
}

/// The engine equals the plain reference, figure for figure, on random
/// plans over random meshes and tori, for every strategy and phasing.
#[test]
fn the_engine_matches_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut cases = 0;
    let mut moved = 0;
    for _ in 0..400 {
        let (shape, start, plan) = random_case(&mut rng, false, 30);
        for strategy in Strategy::ALL {
            for phasing in [Phasing::Barrier, Phasing::Coalesced, Phasing::Fixed] {
                let config = Config {
                    strategy,
                    gates: gates(phasing, plan.phases, &mut rng),
                    seed: rng.gen(),
                };
                let fast = route(&shape, &start, &plan, &config);
                let slow = reference::route(&shape, &start, &plan, &config);
                assert_eq!(
                    fast, slow,
                    "{shape} {strategy} {phasing} {plan:?} {start:?}"
                );
                assert_eq!(fast.phase_steps.iter().sum::<u64>(), fast.steps);
                cases += 1;
                moved += u64::from(fast.hops > 0);
            }
        }
    }
    assert_eq!(cases, 400 * 6 * 3);
    assert!(moved > cases * 9 / 10, "only {moved} of {cases} cases move");
}

/// The same under barriers on longer runs (up to 160 packets, heaps
/// longer than the link record's head): phases along one axis or several.
#[test]
fn long_barrier_runs_match_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(43);
    let mut cases = 0;
    let mut long = 0;
    for _ in 0..600 {
        let one_axis = rng.gen_bool(0.5);
        let (shape, start, plan) = random_case(&mut rng, one_axis, 160);
        for strategy in Strategy::ALL {
            let config = Config {
                strategy,
                gates: Gates::Barrier,
                seed: rng.gen(),
            };
            let fast = route(&shape, &start, &plan, &config);
            let slow = reference::route(&shape, &start, &plan, &config);
            assert_eq!(fast, slow, "{shape} {strategy} {plan:?} {start:?}");
            cases += u64::from(fast.hops > 0);
            long += u64::from(fast.phase_steps.iter().any(|&s| s > 40));
        }
    }
    assert!(cases > 600 * 6 * 9 / 10, "only {cases} cases move");
    assert!(
        long > 20,
        "only {long} cases have a phase of more than 40 steps"
    );
}

/// Every packet ends where its plan does, and makes exactly its plan's hops
/// in all.
#[test]
fn packets_end_at_their_plans_ends() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..200 {
        let one_axis = rng.gen_bool(0.5);
        let (shape, start, plan) = random_case(&mut rng, one_axis, 30);
        let config = Config {
            strategy: Strategy::FarthestFirst,
            gates: Gates::Coalesced,
            seed: 9,
        };
        let out = route(&shape, &start, &plan, &config);
        let total: u64 = total_hops(&shape, &start, &plan)
            .iter()
            .map(|&h| u64::from(h))
            .sum();
        assert_eq!(out.hops, total);
        for (p, &s) in start.iter().enumerate() {
            let mut at = s;
            for j in 0..plan.phases {
                let l = plan.leg(j, p);
                if !l.is_idle() {
                    at = shape.with_coord(at, usize::from(l.axis), u32::from(l.target));
                }
            }
            assert_eq!(out.positions[p], at);
        }
    }
}

/// A lone packet over distance D arrives at the end of step D, on both
/// topologies, and a second phase adds its own length.
#[test]
fn a_lone_packet_takes_its_distance() {
    for topology in [Topology::Mesh, Topology::Torus] {
        let shape = Shape::new(10, 2, topology).unwrap();
        let start = [shape.pu(&[1, 2])];
        let mut plan = Plan::idle(1, 2);
        plan.phase_mut(0)[0] = Leg::to(0, 7);
        plan.phase_mut(1)[0] = Leg::to(1, 9);
        let config = Config {
            strategy: Strategy::FarthestFirst,
            gates: Gates::Barrier,
            seed: 1,
        };
        let out = route(&shape, &start, &plan, &config);
        let (d0, d1) = match topology {
            Topology::Mesh => (6, 7),
            Topology::Torus => (4, 3),
        };
        assert_eq!(out.phase_steps, vec![d0, d1]);
        assert_eq!(out.steps, d0 + d1);
        assert_eq!(out.phase_open, vec![1, d0 + 1]);
        assert_eq!(out.positions, vec![shape.pu(&[7, 9])]);
        assert_eq!((out.qmax, out.qmax_transit), (1, 1));
    }
}

/// Fixed budgets too short leave packets behind, counted as overruns; the
/// late packets still finish, ahead of the next phase's.
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
    let out = route(&shape, &start, &plan, &config);
    // Phase 0 ends at step 7 (three packets through one link, 5 hops each).
    assert_eq!(out.phase_end[0], 7);
    assert_eq!(out.overruns[0], 2);
    assert_eq!(out.positions, vec![7, 7, 7]);
    assert_eq!(out, reference::route(&shape, &start, &plan, &config));
}
