//! The YACR2-style reserved-layer router: every routing verified (strict
//! boundary rule included), on the bundled benchmarks and on random channels.

use fabric::channel::analysis::density;
use fabric::channel::generate::{random_channel, ChannelShape};
use fabric::channel::problem::ChannelProblem;
use fabric::channel::registry::router_by_name;
use fabric::channel::router::{Effort, RouteOptions};
use fabric::channel::solution::ChannelSolution;
use fabric::channel::verify::verify;
use rand::{Rng, SeedableRng};

mod common;
use common::{bundled, BUNDLED};

fn route(p: &ChannelProblem, layers: u32, model: Option<&str>) -> ChannelSolution {
    route_with(p, layers, model, Effort::default())
}

/// The yacr router's routing with an effort, verified (strict).
fn route_with(
    p: &ChannelProblem,
    layers: u32,
    model: Option<&str>,
    effort: Effort,
) -> ChannelSolution {
    let router = router_by_name("yacr").unwrap();
    let options = RouteOptions {
        layers,
        model: model.map(|m| m.parse().expect("a layer model")),
        effort,
        ..RouteOptions::default()
    };
    let s = router
        .route(p, &options)
        .unwrap_or_else(|e| panic!("{}: {e}", p.name()));
    let r = verify(p, &s, Some(&s.metrics(density(p))));
    assert!(
        r.is_legal_strict(),
        "{} ({layers} layers, {model:?}, {effort:?}): {:?} {:?}",
        p.name(),
        &r.violations[..r.violations.len().min(5)],
        r.boundary_runs
    );
    s
}

/// Lower bound of a model: ceil(d / horizontal layers).
fn bound(p: &ChannelProblem, h: u32) -> u32 {
    density(p).div_ceil(h)
}

#[test]
fn bundled_benchmarks_in_every_model() {
    for name in BUNDLED {
        let p = bundled(name);
        for (layers, model, h) in [(2, "HV", 1), (2, "VH", 1), (3, "HVH", 2), (3, "VHV", 1)] {
            let s = route(&p, layers, Some(model));
            assert!(s.width >= bound(&p, h), "{name} {model}");
            assert_eq!(s.groups[0].kind.name(), model);
        }
        // VHV never has a vertical conflict: it meets density exactly.
        assert_eq!(route(&p, 3, Some("VHV")).width, density(&p), "{name}");
    }
}

#[test]
fn quality_on_the_bundled_benchmarks() {
    // Ceilings this router holds today (issue 3's targets in parentheses
    // where they are still ahead of it); measured, not tuned per instance.
    for (name, hv_at_most) in [
        ("burstein", 4),         // density 4 (target at most 5)
        ("dde", 19),             // density 19 (target at most 20, aiming at 19)
        ("dde_zhou", 19),        // density 19 (target at most 20)
        ("yk_textbook12", 5),    // density 5
        ("joobbani_6_16", 7),    // density 7
        ("nycu_lab4_case1", 8),  // density 8
        ("nycu_lab4_case2", 10), // density 10
        ("ptrdist_input1", 25),  // density 25 (target at most 26)
        ("ptrdist_input2", 39),  // density 39 (target 39)
    ] {
        let p = bundled(name);
        let s = route(&p, 2, None);
        assert!(s.width <= hv_at_most, "{name}: {} > {hv_at_most}", s.width);
    }
    // Three layers HVH on DDE: the published optimum ceil(19 / 2) = 10.
    for name in ["dde", "dde_zhou"] {
        assert_eq!(route(&bundled(name), 3, None).width, 10, "{name}");
    }
    // `--effort fast` (the conflict-free path at 19 or 20 rows first): at
    // most 20 tracks on DDE with seeds 0-3, verified.
    for name in ["dde", "dde_zhou"] {
        let p = bundled(name);
        for seed in 0..4 {
            let effort = Effort {
                level: fabric::channel::router::EffortLevel::Fast,
                starts: None,
                seed,
            };
            let s = route_with(&p, 2, None, effort);
            assert!(s.width <= 20, "{name} seed {seed}: {}", s.width);
        }
    }
}

#[test]
fn random_channels_route_and_verify() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let runs = 1000;
    let mut excess = 0u64;
    let mut worst = 0;
    for k in 0..runs {
        let columns = match k % 4 {
            0 => rng.gen_range(2..12),
            1 => rng.gen_range(12..60),
            2 => rng.gen_range(60..200),
            _ => rng.gen_range(200..500),
        };
        let shape = ChannelShape {
            columns,
            fill: rng.gen_range(0.3..1.0),
            max_span: rng.gen_range(2..30),
            side_probability: rng.gen_range(0.0..0.3),
            acyclic: rng.gen_bool(0.3),
        };
        let p = random_channel(&mut rng, &shape);
        let s = route(&p, 2, None);
        let e = s.width - bound(&p, 1);
        excess += e as u64;
        worst = worst.max(e);
        if k % 5 == 0 {
            let s3 = route(&p, 3, None);
            assert!(s3.width >= bound(&p, 2));
        }
    }
    let mean = excess as f64 / runs as f64;
    eprintln!("random channels: mean excess over density {mean:.3}, worst {worst}");
    // Issue 3's target: mean (tracks - lower bound) under 0.5.
    assert!(mean < 0.5, "mean excess {mean}");
}

/// Channels longer than the 600 columns within which failed repairs are
/// undone (so repairs far apart are kept across a restart): routed,
/// verified, and near density.
#[test]
fn long_random_channels_route_and_verify() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
    let mut excess = 0;
    for k in 0..4 {
        let shape = ChannelShape {
            columns: rng.gen_range(1_500..3_000),
            fill: rng.gen_range(0.6..1.0),
            max_span: rng.gen_range(10..30),
            side_probability: 0.1,
            acyclic: false,
        };
        let p = random_channel(&mut rng, &shape);
        let (layers, h) = if k % 2 == 0 { (2, 1) } else { (3, 2) };
        let s = route(&p, layers, None);
        assert!(s.width >= bound(&p, h));
        excess += s.width - bound(&p, h);
    }
    eprintln!("long random channels: {excess} tracks over the bounds in all");
    assert!(excess <= 4, "{excess} tracks over the bounds");
}

/// The jittered starts are candidates after the standard ones at a width,
/// so they never cost a track: on dense random channels the default effort
/// needs at most the tracks of none (`fast`), and fewer on some; a
/// thorough effort (more starts with the same first ones, and the fewer-via
/// piece variant) at most the default's tracks, and at equal width no more
/// vias (then wire). A seed gives the same routing every time.
#[test]
fn jittered_starts_never_widen_and_repeat_with_their_seed() {
    use fabric::channel::router::EffortLevel::{Fast, Normal, Thorough};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(43);
    let (mut fewer, mut better) = (0, 0);
    for k in 0..150 {
        let shape = ChannelShape {
            columns: rng.gen_range(20..200),
            fill: rng.gen_range(0.8..1.0),
            max_span: rng.gen_range(5..30),
            side_probability: rng.gen_range(0.0..0.2),
            acyclic: false,
        };
        let p = random_channel(&mut rng, &shape);
        let layers = 2 + (k % 3 == 0) as u32;
        let with = |level, starts: Option<u32>, seed: u64| {
            let effort = Effort {
                level,
                starts,
                seed,
            };
            route_with(&p, layers, None, effort)
        };
        let (fast, normal) = (with(Fast, None, 0), with(Normal, None, 0));
        assert!(normal.width <= fast.width, "{}", p.name());
        fewer += (normal.width < fast.width) as usize;
        let thorough = with(Thorough, None, 0);
        let quality = |s: &ChannelSolution| (s.width, s.via_count(), s.net_length());
        assert!(quality(&thorough) <= quality(&normal), "{}", p.name());
        better += (quality(&thorough) < quality(&normal)) as usize;
        if k % 10 == 0 {
            assert_eq!(
                with(Normal, Some(4), 7),
                with(Normal, Some(4), 7),
                "{}",
                p.name()
            );
        }
    }
    assert!(fewer > 0, "no channel narrower with jittered starts");
    assert!(better > 0, "no channel better with a thorough effort");
    eprintln!("jittered starts: {fewer} of 150 channels narrower; thorough better on {better}");
}

#[test]
fn two_nets_swapping_sides_route_with_both_layers() {
    let p = ChannelProblem::from_rows("swap", &[1, 2], &[2, 1], &[], &[]).unwrap();
    let s = route(&p, 2, None);
    assert!(s.width >= 2);
}

#[test]
fn routing_is_deterministic_and_reports_progress() {
    let p = bundled("nycu_lab4_case2");
    let router = router_by_name("yacr").unwrap();
    let mut events = Vec::new();
    let a = router
        .route_observed(&p, &RouteOptions::layers(2), &mut |e| events.push(e))
        .unwrap();
    let b = router.route(&p, &RouteOptions::layers(2)).unwrap();
    assert_eq!(a, b);
    // The first width tried is the lower bound, then one more per failure.
    let widths: Vec<u32> = events
        .iter()
        .map(|e| match e {
            fabric::channel::RouteEvent::Trying { width, .. } => *width,
        })
        .collect();
    assert_eq!(widths.first(), Some(&density(&p)));
    assert!(widths.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(*widths.last().unwrap(), a.width);
}

/// `--effort fast` takes the conflict-free path only where vertical
/// constraints bind (HV, VH): in VHV it meets density as the other efforts
/// do, and a channel no net of which needs a track routes in width 0.
#[test]
fn fast_effort_meets_density_in_vhv_and_width_zero() {
    use fabric::channel::router::EffortLevel::Fast;
    let fast = |p: &ChannelProblem, layers: u32, model: &str| {
        let effort = Effort {
            level: Fast,
            ..Effort::default()
        };
        route_with(p, layers, Some(model), effort)
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    for _ in 0..200 {
        let shape = ChannelShape {
            columns: rng.gen_range(10..150),
            fill: rng.gen_range(0.5..1.0),
            max_span: rng.gen_range(2..30),
            side_probability: rng.gen_range(0.0..0.2),
            acyclic: true,
        };
        let p = random_channel(&mut rng, &shape);
        assert_eq!(fast(&p, 3, "VHV").width, density(&p), "{}", p.name());
    }
    let straight = ChannelProblem::from_rows("straight", &[1, 2], &[1, 2], &[], &[]).unwrap();
    for (layers, model) in [(2, "HV"), (2, "VH"), (3, "VHV")] {
        assert_eq!(fast(&straight, layers, model).width, 0, "{model}");
    }
}
