//! Every router against the verifier on random channels with side
//! terminals, cyclic vertical constraints and multi-pin nets, at every layer
//! count from 1 to 8. Each routing a router returns must be legal under the
//! strict boundary rule; MulCh must route every channel in 2 or more layers,
//! and in one layer exactly the planar ones; the reserved-layer router must
//! route every channel in each of its models.
//!
//! `FABRIC_DIFFERENTIAL=N` routes N channels instead of the default
//! (`FABRIC_DIFFERENTIAL=20000 cargo test --release --test differential`).

use fabric::channel::analysis::{analyze, crossing_pairs};
use fabric::channel::generate::random_side_channel;
use fabric::channel::problem::ChannelProblem;
use fabric::channel::registry::router_by_name;
use fabric::channel::router::{RouteError, RouteOptions};
use fabric::channel::verify::verify;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// Channels routed per run unless `FABRIC_DIFFERENTIAL` says otherwise.
const DEFAULT_CHANNELS: u64 = 1500;

fn channels() -> u64 {
    std::env::var("FABRIC_DIFFERENTIAL")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_CHANNELS)
}

fn channel(seed: u64) -> ChannelProblem {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let columns = rng.gen_range(1..=24);
    random_side_channel(&mut rng, columns)
}

/// Route with one router; a routing returned must be strictly legal.
fn routed(
    p: &ChannelProblem,
    router: &str,
    options: &RouteOptions,
    what: &str,
) -> Result<(), RouteError> {
    let r = router_by_name(router).expect("registered router");
    let s = r.route(p, options)?;
    let report = verify(p, &s, None);
    assert!(
        report.is_legal_strict(),
        "{what}: {router} {options:?} gave an illegal routing: {:?} {:?}\n{}",
        &report.violations[..report.violations.len().min(5)],
        &report.boundary_runs[..report.boundary_runs.len().min(5)],
        classic(p)
    );
    Ok(())
}

/// The channel in the classic text form, for a failure's message.
fn classic(p: &ChannelProblem) -> String {
    let row = |r: Vec<u32>| r.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
    let side = |ids: &[fabric::channel::NetId]| row(ids.iter().map(|&n| p.label(n)).collect());
    format!(
        "top: {}\nbottom: {}\nleft: {}\nright: {}",
        row(p.top_labels()),
        row(p.bottom_labels()),
        side(p.left()),
        side(p.right())
    )
}

fn check(seed: u64) -> usize {
    let p = channel(seed);
    let what = format!("seed {seed}");
    let planar = crossing_pairs(&p).is_empty();
    let cyclic = !analyze(&p, 2).is_acyclic();
    let mut routings = 0;
    for layers in 1..=8 {
        let options = RouteOptions::layers(layers);
        let r = routed(&p, "mulch", &options, &what);
        assert_eq!(
            r.is_ok(),
            layers > 1 || planar,
            "{what}: mulch L={layers}: {r:?}"
        );
        routings += r.is_ok() as usize;
    }
    let r = routed(&p, "plane", &RouteOptions::layers(1), &what);
    assert_eq!(r.is_ok(), planar, "{what}: plane: {r:?}");
    for (layers, model) in [(2, "HV"), (2, "VH"), (3, "HVH"), (3, "VHV")] {
        let options = RouteOptions {
            model: Some(model.parse().expect("a layer model")),
            ..RouteOptions::layers(layers)
        };
        routed(&p, "yacr", &options, &what).unwrap_or_else(|e| panic!("{what}: yacr {model}: {e}"));
        // The greedy sweep may give up on a channel; what it returns is legal.
        routings += 1 + routed(&p, "greedy", &options, &what).is_ok() as usize;
    }
    let r = routed(&p, "left-edge", &RouteOptions::layers(2), &what);
    if let Err(e) = &r {
        assert!(
            cyclic && matches!(e, RouteError::Cyclic { .. }),
            "{what}: left-edge: {e}"
        );
    }
    routings + r.is_ok() as usize + planar as usize
}

#[test]
fn every_router_routes_random_side_channels_legally() {
    let n = channels();
    let routings: usize = (0..n).into_par_iter().map(check).sum();
    println!("{n} channels, {routings} routings, all strictly legal");
    assert!(
        routings as u64 >= 7 * n,
        "{routings} routings of {n} channels"
    );
}

/// The plane router at a width of at least `w` gives exactly
/// `max(w, its own width)` rows, side terminals or not, and stays legal:
/// MulCh stacks B groups on that promise.
#[test]
fn the_plane_router_keeps_the_width_it_is_asked_for() {
    let mut checked = 0;
    for seed in 0..3000u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let columns = rng.gen_range(1..=6);
        let p = random_side_channel(&mut rng, columns);
        if !crossing_pairs(&p).is_empty() {
            continue;
        }
        let own = fabric::channel::routers::plane::route_plane(&p).unwrap();
        for w in [0, own.width, own.width + 1, own.width + 3] {
            let s = fabric::channel::routers::plane::route_plane_at(&p, w).unwrap();
            assert_eq!(s.width, w.max(own.width), "seed {seed} at {w}");
            let report = verify(&p, &s, None);
            assert!(
                report.is_legal_strict(),
                "seed {seed} at {w}: {:?}",
                report.violations
            );
        }
        checked += (!p.left().is_empty() || !p.right().is_empty()) as usize;
    }
    assert!(
        checked > 100,
        "only {checked} planar channels with side terminals"
    );
}

/// A channel as proptest draws it, shrinkable: pin rows of small labels and
/// side lists; `None` when the rows do not make a valid channel.
fn drawn(top: &[u32], bottom: &[u32], left: &[u32], right: &[u32]) -> Option<ChannelProblem> {
    let dedup = |v: &[u32]| -> Vec<u32> {
        let mut seen = std::collections::BTreeSet::new();
        v.iter()
            .copied()
            .filter(|&l| l != 0 && seen.insert(l))
            .collect()
    };
    let n = top.len().min(bottom.len());
    ChannelProblem::from_rows(
        "drawn",
        &top[..n],
        &bottom[..n],
        &dedup(left),
        &dedup(right),
    )
    .ok()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

    /// The channel model under shrinking: every router's routing of a drawn
    /// channel is strictly legal, and MulCh routes it in 2 to 5 layers. A
    /// failure shrinks to a small channel.
    #[test]
    fn drawn_channels_route_legally(
        top in proptest::collection::vec(0u32..9, 1..14),
        bottom in proptest::collection::vec(0u32..9, 1..14),
        left in proptest::collection::vec(0u32..9, 0..4),
        right in proptest::collection::vec(0u32..9, 0..4),
        layers in 2u32..=5,
    ) {
        if let Some(p) = drawn(&top, &bottom, &left, &right) {
            routed(&p, "mulch", &RouteOptions::layers(layers), "drawn")
                .unwrap_or_else(|e| panic!("mulch L={layers}: {e}"));
            for (l, model) in [(2, "HV"), (3, "VHV")] {
                let options = RouteOptions { model: Some(model.parse().expect("a layer model")), ..RouteOptions::layers(l) };
                routed(&p, "yacr", &options, "drawn").unwrap_or_else(|e| panic!("yacr {model}: {e}"));
                let _ = routed(&p, "greedy", &options, "drawn");
            }
        }
    }
}
