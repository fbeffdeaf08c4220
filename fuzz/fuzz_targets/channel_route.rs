//! Channel files -> parse -> route (the fast reserved-layer router in HV,
//! the same under the strict reserved-layer rule, MulCh in 3 layers) ->
//! verify. Invariants: no panic or abort; every routing a router returns
//! is strictly legal and keeps the direction rule it was asked for.
#![no_main]

use fabric::channel::layer_model::LayerModel;
use fabric::channel::registry::router_by_name;
use fabric::channel::router::{Directions, Effort, EffortLevel, RouteOptions};
use fabric::channel::verify::verify;
use libfuzzer_sys::fuzz_target;

/// Channels past this many columns or nets are parsed but not routed, so
/// that each execution stays short.
const MAX_COLUMNS: u32 = 40;
const MAX_NETS: usize = 32;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(problem) = fabric::io::parse_channel(text, "fuzz.txt") else {
        return;
    };
    if problem.columns() > MAX_COLUMNS || problem.nets().len() > MAX_NETS {
        return;
    }
    let fast = Effort {
        level: EffortLevel::Fast,
        ..Effort::default()
    };
    let jobs = [
        (
            "yacr",
            RouteOptions {
                layers: 2,
                model: Some(LayerModel::Hv),
                effort: fast,
                directions: Directions::Preferred,
            },
        ),
        (
            "yacr",
            RouteOptions {
                layers: 2,
                model: Some(LayerModel::Hv),
                effort: fast,
                directions: Directions::Reserved,
            },
        ),
        (
            "mulch",
            RouteOptions {
                layers: 3,
                model: None,
                effort: fast,
                directions: Directions::Preferred,
            },
        ),
        ("left-edge", RouteOptions::layers(2)),
    ];
    for (name, options) in jobs {
        let router = router_by_name(name).expect("registered router");
        if let Ok(solution) = router.route(&problem, &options) {
            let report = verify(&problem, &solution, None);
            assert!(
                report.is_legal_strict(),
                "{name} gave an illegal routing: {:?}",
                report.violations
            );
            assert!(
                solution.keeps(options.directions),
                "{name} broke the direction rule {:?}",
                options.directions
            );
        }
    }
});
