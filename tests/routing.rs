//! Every route the tests make is checked by the independent verifier.

use fabric::channel::analysis::{density, vertical_constraint_graph};
use fabric::channel::generate::{random_channel, ChannelShape};
use fabric::channel::problem::ChannelProblem;
use fabric::channel::registry::RouterKind;
use fabric::channel::router::{RouteError, RouteOptions};
use fabric::channel::solution::ChannelSolution;
use fabric::channel::verify::verify;
use rand::{Rng, SeedableRng};

mod common;
use common::{bundled, BUNDLED};

/// Verify with the solution's own claimed metrics; panic with the violations.
fn assert_legal(p: &ChannelProblem, s: &ChannelSolution) {
    let d = density(p);
    let claimed = s.metrics(d);
    let r = verify(p, s, Some(&claimed));
    assert!(
        r.is_legal(),
        "{}: {} violations, first: {:?}",
        p.name(),
        r.total,
        &r.violations[..r.violations.len().min(5)]
    );
    assert!(r.is_legal_strict(), "{}: {:?}", p.name(), r.boundary_runs);
    assert!(s.width >= d, "width {} below density {d}", s.width);
}

/// The cycle a router names must be a cycle of the VCG.
fn assert_real_cycle(p: &ChannelProblem, cycle: &[u32]) {
    let g = vertical_constraint_graph(p);
    assert!(cycle.len() >= 2, "{cycle:?}");
    for k in 0..cycle.len() {
        let a = p.by_label(cycle[k]).unwrap();
        let b = p.by_label(cycle[(k + 1) % cycle.len()]).unwrap();
        assert!(
            g.successors(a.0).contains(&b.0),
            "{}: {} -> {} is not a VCG edge",
            p.name(),
            cycle[k],
            cycle[(k + 1) % cycle.len()]
        );
    }
}

#[test]
fn every_router_on_every_bundled_benchmark_is_legal_or_names_a_cycle() {
    for kind in RouterKind::ALL {
        let router = kind.router();
        for bench in BUNDLED {
            let p = bundled(bench);
            let acyclic = vertical_constraint_graph(&p).topological_order().is_some();
            match router.route(&p, &RouteOptions::layers(2)) {
                Ok(s) => assert_legal(&p, &s),
                Err(RouteError::Cyclic { cycle, .. }) => {
                    assert!(!acyclic, "{bench}: acyclic channel refused");
                    assert_real_cycle(&p, &cycle);
                }
                // A router for another number of layers (the plane router).
                Err(RouteError::Layers { .. }) => break,
                // The plane router refuses channels whose nets cross.
                Err(RouteError::Unroutable(m)) if kind == RouterKind::Plane => {
                    assert!(m.contains("cross"), "{m}")
                }
                // The greedy sweep has no columns past the right end; on
                // the bundled set only cyclic channels leave it split there.
                Err(RouteError::Unroutable(m)) if kind == RouterKind::Greedy => {
                    assert!(m.contains("split at the right end"), "{m}");
                    assert!(!acyclic, "{bench}: greedy failed on an acyclic channel");
                }
                Err(e) => panic!("{bench}: {e}"),
            }
        }
    }
}

#[test]
fn left_edge_routes_the_acyclic_benchmarks_near_density() {
    let router = RouterKind::LeftEdge.router();
    for (bench, d) in [("dde", 19), ("dde_zhou", 19), ("yk_textbook12", 5)] {
        let p = bundled(bench);
        assert_eq!(density(&p), d);
        let s = router.route(&p, &RouteOptions::default()).unwrap();
        assert_legal(&p, &s);
        // A dogleg left-edge router is within a few tracks of density here
        // (the dogleg-free bound on DDE is 23).
        assert!(s.width <= d + 4, "{bench}: width {}", s.width);
    }
}

#[test]
fn left_edge_refuses_an_unbreakable_cycle_and_other_layer_counts() {
    // Two nets that swap sides in two columns with no other pins: a cycle
    // that doglegs at pin columns cannot break.
    let p = ChannelProblem::from_rows("swap", &[1, 2], &[2, 1], &[], &[]).unwrap();
    let router = RouterKind::LeftEdge.router();
    match router.route(&p, &RouteOptions::default()) {
        Err(RouteError::Cyclic { cycle, .. }) => {
            assert_real_cycle(&p, &cycle);
            let msg = router
                .route(&p, &RouteOptions::default())
                .unwrap_err()
                .to_string();
            assert!(msg.contains("net 1") && msg.contains("net 2"), "{msg}");
        }
        other => panic!("expected a cycle, got {other:?}"),
    }
    assert!(matches!(
        router.route(&p, &RouteOptions::layers(3)),
        Err(RouteError::Layers { layers: 3, .. })
    ));
}

#[test]
fn left_edge_routes_random_acyclic_channels_legally() {
    let router = RouterKind::LeftEdge.router();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2024);
    let mut excess = 0u64;
    let runs = 400;
    for _ in 0..runs {
        let shape = ChannelShape {
            columns: rng.gen_range(2..300),
            fill: rng.gen_range(0.2..1.0),
            max_span: rng.gen_range(2..40),
            side_probability: rng.gen_range(0.0..0.5),
            acyclic: true,
        };
        let p = random_channel(&mut rng, &shape);
        let s = router
            .route(&p, &RouteOptions::default())
            .unwrap_or_else(|e| panic!("{shape:?}: {e}"));
        assert_legal(&p, &s);
        excess += (s.width - density(&p)) as u64;
    }
    // Not a quality gate, a sanity bound: doglegs keep the mean excess small.
    assert!(
        excess < runs * 3,
        "mean excess {}",
        excess as f64 / runs as f64
    );
}

#[test]
fn left_edge_on_random_cyclic_channels_routes_or_names_a_real_cycle() {
    let router = RouterKind::LeftEdge.router();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(99);
    let (mut routed, mut refused) = (0, 0);
    for _ in 0..300 {
        let shape = ChannelShape {
            columns: rng.gen_range(2..120),
            fill: rng.gen_range(0.2..1.0),
            max_span: rng.gen_range(2..20),
            side_probability: 0.2,
            acyclic: false,
        };
        let p = random_channel(&mut rng, &shape);
        match router.route(&p, &RouteOptions::default()) {
            Ok(s) => {
                assert_legal(&p, &s);
                routed += 1;
            }
            Err(RouteError::Cyclic { cycle, .. }) => {
                assert_real_cycle(&p, &cycle);
                refused += 1;
            }
            Err(e) => panic!("{e}"),
        }
    }
    assert!(
        routed > 0 && refused > 0,
        "routed {routed}, refused {refused}"
    );
}

#[test]
fn routing_is_deterministic() {
    let router = RouterKind::LeftEdge.router();
    let p = bundled("dde");
    let a = router.route(&p, &RouteOptions::default()).unwrap();
    let b = router.route(&p, &RouteOptions::default()).unwrap();
    assert_eq!(a, b);
}

#[test]
fn interval_metrics_equal_raster_metrics_on_random_routes() {
    // Two independent computations of net length: interval merging in the
    // solution and the verifier's raster of unit edges.
    let router = RouterKind::LeftEdge.router();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for _ in 0..100 {
        let shape = ChannelShape {
            acyclic: true,
            side_probability: 0.3,
            ..ChannelShape::new(rng.gen_range(2..80))
        };
        let p = random_channel(&mut rng, &shape);
        let s = router.route(&p, &RouteOptions::default()).unwrap();
        let r = verify(&p, &s, None);
        assert!(r.is_legal_strict());
        assert_eq!(r.metrics.net_length, s.net_length());
        assert_eq!(r.metrics.vias, s.via_count());
    }
}
