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
use fabric::channel::router::{Directions, RouteError, RouteOptions};
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

/// Random channels with side terminals: yacr routes each in every model,
/// MulCh in 2 to 4 layers; the greedy sweep may give up, and what it
/// returns keeps the rule too.
#[test]
fn strict_routings_of_random_channels_keep_every_direction() {
    let routed: usize = (0..100u64)
        .into_par_iter()
        .map(|seed| {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let columns = rng.gen_range(1..=24);
            let p = random_side_channel(&mut rng, columns);
            let what = format!("seed {seed}");
            let mut n = 0;
            for (layers, name) in MODELS {
                strict(&p, "yacr", model(layers, name), &what)
                    .unwrap_or_else(|e| panic!("{what}: yacr {name}: {e}"));
                n += 1;
                n += strict(&p, "greedy", model(layers, name), &what).is_ok() as usize;
            }
            for layers in 2..=4 {
                strict(&p, "mulch", RouteOptions::layers(layers), &what)
                    .unwrap_or_else(|e| panic!("{what}: mulch L={layers}: {e}"));
                n += 1;
            }
            n
        })
        .sum();
    assert!(routed >= 100 * 7, "{routed} strict routings");
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
