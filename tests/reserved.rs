//! Strict reserved-layer routing (`Directions::Reserved`, `fabric route
//! --reserved`): every routing the yacr, MulCh and greedy routers return
//! under it is strictly legal and has no unit edge against its layer's
//! direction, counted the slow obvious way, on random channels with side
//! terminals and cyclic constraints and on the bundled benchmarks; the
//! yacr router routes every channel in each of its models.

mod common;

use common::{against_slow, bundled, BUNDLED};
use fabric::channel::generate::random_side_channel;
use fabric::channel::problem::ChannelProblem;
use fabric::channel::registry::router_by_name;
use fabric::channel::router::{Directions, Effort, EffortLevel, RouteError, RouteOptions};
use fabric::channel::solution::ChannelSolution;
use fabric::channel::verify::verify;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// Route under the strict rule; a routing returned must be strictly legal
/// and keep every direction (by the slow count, not the router's own).
fn strict(
    p: &ChannelProblem,
    router: &str,
    options: RouteOptions,
    what: &str,
) -> Result<ChannelSolution, RouteError> {
    let options = RouteOptions {
        directions: Directions::Reserved,
        ..options
    };
    let s = router_by_name(router)
        .expect("registered router")
        .route(p, &options)?;
    let report = verify(p, &s, None);
    assert!(
        report.is_legal_strict(),
        "{what}: {router} {options:?}: illegal: {:?}",
        &report.violations[..report.violations.len().min(5)]
    );
    let against: u64 = against_slow(&s).values().sum();
    assert_eq!(
        against, 0,
        "{what}: {router} {options:?}: against direction"
    );
    assert!(s.keeps(Directions::Reserved), "{what}: keeps disagrees");
    Ok(s)
}

fn model(layers: u32, name: &str) -> RouteOptions {
    RouteOptions {
        model: Some(name.parse().expect("a layer model")),
        ..RouteOptions::layers(layers)
    }
}

const MODELS: [(u32, &str); 4] = [(2, "HV"), (2, "VH"), (3, "HVH"), (3, "VHV")];

/// Random channels with side terminals, at the fast and normal efforts:
/// what yacr returns in each model, MulCh in 2 to 4 layers and the greedy
/// sweep keeps the rule. Strict reserved-layer routing cannot route every
/// channel (a cyclic pair of columns with no column between to jog in has
/// no strict routing at any width), so yacr and MulCh may refuse one, but
/// nearly all route.
#[test]
fn strict_routings_of_random_channels_keep_every_direction() {
    let tried = 100u64;
    let (routed, refused): (usize, usize) = (0..tried)
        .into_par_iter()
        .map(|seed| {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let columns = rng.gen_range(1..=24);
            let p = random_side_channel(&mut rng, columns);
            let what = format!("seed {seed}");
            let (mut ok, mut no) = (0, 0);
            let mut count = |r: Result<ChannelSolution, RouteError>| match r {
                Ok(_) => ok += 1,
                Err(RouteError::Unroutable(_)) => no += 1,
                Err(e) => panic!("{what}: {e}"),
            };
            for level in [EffortLevel::Fast, EffortLevel::Normal] {
                let effort = Effort {
                    level,
                    ..Effort::default()
                };
                for (layers, name) in MODELS {
                    let o = RouteOptions {
                        effort,
                        ..model(layers, name)
                    };
                    count(strict(&p, "yacr", o.clone(), &what));
                    let _ = strict(&p, "greedy", o, &what);
                }
                for layers in 2..=4 {
                    let o = RouteOptions {
                        effort,
                        ..RouteOptions::layers(layers)
                    };
                    count(strict(&p, "mulch", o, &what));
                }
            }
            (ok, no)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    assert!(
        refused * 20 <= routed,
        "{routed} strict routings, {refused} refused"
    );
}

/// The smallest strictly unroutable channel, two nets swapping sides in
/// two columns: yacr refuses it in HV and VH after a bounded search
/// (default mode routes it with jogs against direction), and routes it in
/// VHV, which has a vertical layer for each pin row.
#[test]
fn a_swap_in_two_columns_has_no_strict_routing_in_two_layers() {
    let p = ChannelProblem::from_rows("swap", &[1, 2], &[2, 1], &[], &[]).expect("a channel");
    for name in ["HV", "VH"] {
        let r = strict(&p, "yacr", model(2, name), "swap");
        assert!(matches!(r, Err(RouteError::Unroutable(_))), "{name}: {r:?}");
        let default = router_by_name("yacr")
            .expect("registered")
            .route(&p, &model(2, name))
            .expect("default mode routes it");
        assert!(default.against_direction().total() > 0);
    }
    strict(&p, "yacr", model(3, "VHV"), "swap").expect("VHV routes it");
}

/// The bundled channels in HV and HVH: every one routes under the strict
/// rule, never below the lower bound; DDE in HV takes at most 20 tracks
/// (one above its density, as the greedy router's published reserved-layer
/// routing; a regression bound). The widths are printed for the quality
/// table of benchmarks/README.md.
#[test]
fn the_bundled_channels_route_in_strict_reserved_layers() {
    for name in BUNDLED {
        let p = bundled(name);
        let d = fabric::channel::analysis::density(&p);
        for (layers, m) in [(2, "HV"), (3, "HVH")] {
            let s = strict(&p, "yacr", model(layers, m), name)
                .unwrap_or_else(|e| panic!("{name} {m}: {e}"));
            let h = if layers == 2 { 1 } else { 2 };
            assert!(s.width >= d.div_ceil(h), "{name} {m}: below the bound");
            if (name, m) == ("dde", "HV") {
                assert!(s.width <= 20, "dde strict HV in {} tracks", s.width);
            }
            println!("{name} {m}: width {} vias {}", s.width, s.via_count());
        }
    }
}
