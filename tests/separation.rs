//! CHANNEL-SEPARATION (linear time) against the brute-force check of every
//! cut, on random planar channels with multi-terminal nets and empty columns.

use fabric::channel::analysis;
use fabric::channel::generate::random_planar_terminals as planar;
use fabric::channel::problem::ChannelProblem;
use fabric::channel::registry::router_by_name;
use fabric::channel::router::RouteOptions;
use fabric::channel::separation::Terminals;
use fabric::channel::separation::{
    flow, separation, separation_brute_force, separation_critical_cuts, separation_with_cut,
};
use fabric::channel::verify::verify;
use rand::{Rng, SeedableRng};

#[test]
fn linear_separation_equals_brute_force_on_random_planar_channels() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(27);
    let mut nontrivial = 0;
    for k in 0..10_000 {
        let columns = match k % 3 {
            0 => rng.gen_range(1..6),
            1 => rng.gen_range(6..14),
            _ => rng.gen_range(14..26),
        };
        let t = planar(&mut rng, columns);
        let fast = separation(&t);
        let slow = separation_brute_force(&t);
        assert_eq!(fast, slow, "{t:?}");
        assert_eq!(separation_critical_cuts(&t), slow, "{t:?}");
        // The reported cut is dense and decides the separation.
        if let Some((sep, cut)) = separation_with_cut(&t) {
            let i = t.x.iter().position(|&x| x == cut.bottom_x).unwrap();
            let j = t.x.iter().position(|&x| x == cut.top_x).unwrap();
            assert_eq!(flow(&t, i, j), cut.flow);
            let dx = (cut.top_x - cut.bottom_x).abs();
            assert!(dx == 0 || dx < cut.flow as i64 - 1);
            assert_eq!(cut.flow as i64 - 1, sep);
        }
        if slow.is_some_and(|s| s > 1) {
            nontrivial += 1;
        }
    }
    assert!(
        nontrivial > 1000,
        "only {nontrivial} instances with separation above 1"
    );
}

/// The channel problem of a set of terminals (columns up to the last used x).
fn problem_of(t: &Terminals) -> Option<ChannelProblem> {
    let columns = (*t.x.last()? + 1) as usize;
    let mut top = vec![0u32; columns];
    let mut bottom = vec![0u32; columns];
    for (k, &x) in t.x.iter().enumerate() {
        top[x as usize] = t.top[k].unwrap_or(0);
        bottom[x as usize] = t.bottom[k].unwrap_or(0);
    }
    ChannelProblem::from_rows("planar", &top, &bottom, &[], &[]).ok()
}

#[test]
fn plane_router_width_is_separation_plus_one_and_verified() {
    let router = router_by_name("plane").unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(61);
    let mut routed = 0;
    for k in 0..3_000 {
        let columns = if k % 2 == 0 {
            rng.gen_range(1..12)
        } else {
            rng.gen_range(12..40)
        };
        let t = planar(&mut rng, columns);
        let Some(p) = problem_of(&t) else { continue };
        let s = router
            .route(&p, &RouteOptions::layers(1))
            .unwrap_or_else(|e| panic!("{e}: {t:?}"));
        let r = verify(
            &p,
            &s,
            Some(&s.metrics(fabric::channel::analysis::density(&p))),
        );
        assert!(
            r.is_legal_strict(),
            "{:?} {:?}: {t:?}",
            r.violations,
            r.boundary_runs
        );
        let single = p.nets().iter().all(|n| n.pin_columns().len() == 1);
        let expected = if single {
            0
        } else {
            separation(&Terminals::of_problem(&p)).unwrap() + 1
        };
        assert_eq!(s.width as i64, expected, "{t:?}");
        routed += 1;
    }
    assert!(routed > 2_000, "only {routed} channels");
}

/// A planar channel with floating side terminals: the leftmost and
/// rightmost bottom pins of a random planar channel become left and right
/// side terminals (in order, so the cyclic order around the boundary and
/// hence planarity are kept).
fn with_sides(t: &Terminals, rng: &mut impl Rng) -> Option<ChannelProblem> {
    let p = problem_of(t)?;
    let mut top = p.top_labels();
    let mut bottom = p.bottom_labels();
    let (mut left, mut right) = (Vec::new(), Vec::new());
    let kl = rng.gen_range(0..4);
    let kr = rng.gen_range(0..4);
    let cols: Vec<usize> = (0..bottom.len()).filter(|&x| bottom[x] != 0).collect();
    for &x in cols.iter().take(kl) {
        if left.contains(&bottom[x]) {
            break;
        }
        left.push(bottom[x]);
        bottom[x] = 0;
    }
    for &x in cols.iter().rev().take(kr) {
        if bottom[x] == 0 || right.contains(&bottom[x]) {
            break;
        }
        right.push(bottom[x]);
        bottom[x] = 0;
    }
    // Drop emptied end columns only if a pin remains somewhere.
    if top.iter().chain(&bottom).all(|&v| v == 0) {
        top[0] = 0;
    }
    ChannelProblem::from_rows("sides", &top, &bottom, &left, &right).ok()
}

#[test]
fn plane_router_takes_floating_side_terminals() {
    use fabric::channel::side_extension::extend_floating_sides;
    let router = router_by_name("plane").unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(64);
    let (mut routed, mut with_sides_count, mut feed_through) = (0, 0, 0);
    for _ in 0..3_000 {
        let columns = rng.gen_range(2..30);
        let t = planar(&mut rng, columns);
        let Some(p) = with_sides(&t, &mut rng) else {
            continue;
        };
        assert!(
            analysis::crossing_pairs(&p).is_empty(),
            "the side order broke planarity: {:?} {:?} L{:?} R{:?}",
            p.top_labels(),
            p.bottom_labels(),
            p.left(),
            p.right()
        );
        let s = router
            .route(&p, &RouteOptions::layers(1))
            .unwrap_or_else(|e| panic!("{e}: {:?} {:?}", p.top_labels(), p.bottom_labels()));
        let r = verify(&p, &s, None);
        assert!(
            r.is_legal_strict(),
            "{:?} {:?} left {:?} right {:?}: {:?} {:?}",
            p.top_labels(),
            p.bottom_labels(),
            p.left(),
            p.right(),
            r.violations,
            r.boundary_runs
        );
        let ext = extend_floating_sides(&p).unwrap();
        let w = fabric::channel::separation::single_layer_width(&ext.problem).unwrap();
        assert_eq!(s.width, w, "{:?} {:?}", p.top_labels(), p.bottom_labels());
        // A wider gap between the moved side terminals and the channel
        // changes nothing: the reduction does not constrain the routing.
        let wide =
            fabric::channel::side_extension::extend_floating_sides_with_gap(&p, Some(12)).unwrap();
        assert_eq!(
            fabric::channel::separation::single_layer_width(&wide.problem).unwrap(),
            w,
            "{:?} {:?} L{:?} R{:?}",
            p.top_labels(),
            p.bottom_labels(),
            p.left(),
            p.right()
        );
        routed += 1;
        if !p.left().is_empty() || !p.right().is_empty() {
            with_sides_count += 1;
        }
        if p.nets().iter().any(|n| n.left && n.right) {
            feed_through += 1;
        }
    }
    assert!(
        routed > 2_000 && with_sides_count > 1_500,
        "{routed} {with_sides_count}"
    );
    assert!(feed_through > 10, "{feed_through}");
}

/// The flowdiff-based critical-cut check equals brute force on
/// every instance, crossing ones included (where the linear sweep may
/// under-report, but never over-report).
#[test]
fn critical_cuts_equal_brute_force_on_crossing_channels_too() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(66);
    let mut crossing = 0;
    for _ in 0..5_000 {
        let c = rng.gen_range(2..14);
        let k = rng.gen_range(1..6);
        let mut row = || -> Vec<u32> {
            (0..c)
                .map(|_| {
                    if rng.gen_bool(0.3) {
                        0
                    } else {
                        rng.gen_range(1..=k)
                    }
                })
                .collect()
        };
        let (top, bottom) = (row(), row());
        let Ok(p) = ChannelProblem::from_rows("any", &top, &bottom, &[], &[]) else {
            continue;
        };
        let t = Terminals::of_problem(&p);
        let brute = separation_brute_force(&t);
        assert_eq!(separation_critical_cuts(&t), brute, "{top:?} {bottom:?}");
        assert!(separation(&t) <= brute, "{top:?} {bottom:?}");
        if !analysis::crossing_pairs(&p).is_empty() {
            crossing += 1;
        }
    }
    assert!(crossing > 1_000, "{crossing}");
}

/// The plane router routes a channel with a feed-through and floating
/// side terminals on both sides through the side extension.
#[test]
fn plane_routes_floating_side_terminals_through_the_extension() {
    let p =
        fabric::channel::ChannelProblem::from_rows("s", &[4, 0, 4], &[1, 0, 2], &[1, 3], &[2, 3])
            .unwrap();
    let routed = fabric::channel::routers::plane::route_plane(&p).unwrap();
    let r = fabric::channel::verify::verify(&p, &routed, None);
    assert!(r.is_legal_strict(), "{:?}", r.violations);
}
