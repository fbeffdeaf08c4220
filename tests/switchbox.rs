//! Fixed-side switchbox routability: the fast test (two CHANNEL-SEPARATION
//! sweeps and the corner cuts) against the direct check of every critical
//! cut; against the channel separation when there are no side terminals;
//! and on switchboxes that a verified routing proves routable.

use fabric::channel::generate::random_planar_terminals as planar;
use fabric::channel::problem::ChannelProblem;
use fabric::channel::registry::router_by_name;
use fabric::channel::router::RouteOptions;
use fabric::channel::separation::{separation, Terminals};
use fabric::channel::switchbox::{routable, routable_brute_force, Switchbox, Unroutable};
use fabric::channel::verify::verify;
use rand::{Rng, SeedableRng};

/// A random switchbox whose nets do not cross (a stack walk around the
/// boundary), or any random one when `planar` is false.
fn random_switchbox(rng: &mut impl Rng, planar: bool) -> Option<Switchbox> {
    let width = rng.gen_range(1..9i64);
    let height = rng.gen_range(1..7i64);
    let slots = 2 * (width as usize + 1) + 2 * (height as usize - 1);
    let mut labels = vec![0u32; slots];
    let mut stack: Vec<u32> = Vec::new();
    let mut next = 1u32;
    for slot in labels.iter_mut() {
        let r: f64 = rng.gen();
        if !planar {
            if r < 0.6 {
                *slot = rng.gen_range(1..5);
            }
            continue;
        }
        if r < 0.3 {
            continue;
        } else if r < 0.55 || stack.is_empty() {
            *slot = next;
            stack.push(next);
            next += 1;
        } else if r < 0.75 {
            *slot = *stack.last().unwrap();
        } else {
            *slot = stack.pop().unwrap();
        }
    }
    // Nets with one terminal are dropped.
    let mut count = std::collections::HashMap::new();
    for &l in &labels {
        *count.entry(l).or_insert(0) += 1;
    }
    for l in labels.iter_mut() {
        if count[l] < 2 {
            *l = 0;
        }
    }
    if labels.iter().all(|&l| l == 0) {
        return None;
    }
    // Boundary order: bottom x up, right y up, top x down, left y down.
    let (w, h) = (width as usize, height as usize);
    let bottom = labels[..=w].to_vec();
    let right = labels[w + 1..w + h].to_vec();
    let mut top = labels[w + h..2 * w + h + 1].to_vec();
    top.reverse();
    let mut left = labels[2 * w + h + 1..].to_vec();
    left.reverse();
    let sb = Switchbox {
        name: "random".into(),
        width,
        height,
        top,
        bottom,
        left,
        right,
    };
    sb.validate().ok()?;
    Some(sb)
}

#[test]
fn fast_test_equals_every_cut_checked() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(71);
    let (mut yes, mut cut, mut crossing, mut corner) = (0, 0, 0, 0);
    for k in 0..20_000 {
        let Some(sb) = random_switchbox(&mut rng, k % 5 != 0) else {
            continue;
        };
        let fast = routable(&sb);
        let slow = routable_brute_force(&sb);
        assert_eq!(
            fast.is_ok(),
            slow.is_ok(),
            "{sb:?}: fast {fast:?}, every cut {slow:?}"
        );
        match fast {
            Ok(()) => yes += 1,
            Err(Unroutable::Cut(c)) => {
                // The named cut really is unsafe.
                assert_eq!(sb.flow(c.from, c.to), c.flow, "{sb:?} {c:?}");
                assert!(c.flow as i64 > c.capacity);
                let side = |p: (i64, i64)| p.1 > 0 && p.1 < sb.height;
                if side(c.from) != side(c.to) {
                    corner += 1;
                }
                cut += 1;
            }
            Err(Unroutable::Crossing(..)) => crossing += 1,
        }
    }
    eprintln!("routable {yes}, unsafe cut {cut} (corner {corner}), crossing {crossing}");
    assert!(
        yes > 2_000 && cut > 2_000 && crossing > 1_000,
        "{yes} {cut} {crossing}"
    );
    // The corner cuts decide some cases (the sweeps alone would pass them).
    assert!(corner > 100, "{corner}");
}

#[test]
fn without_side_terminals_the_test_is_the_channel_separation() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(72);
    let mut checked = 0;
    for _ in 0..3_000 {
        let columns = rng.gen_range(1..14);
        let t = planar(&mut rng, columns);
        let Some(&last) = t.x.last() else { continue };
        let width = last.max(1);
        let mut top = vec![0u32; width as usize + 1];
        let mut bottom = vec![0u32; width as usize + 1];
        for (i, &x) in t.x.iter().enumerate() {
            top[x as usize] = t.top[i].unwrap_or(0);
            bottom[x as usize] = t.bottom[i].unwrap_or(0);
        }
        let cs = separation(&Terminals {
            x: t.x.clone(),
            top: t.top.clone(),
            bottom: t.bottom.clone(),
        })
        .unwrap();
        for height in (cs - 1).max(1)..=cs + 1 {
            let sb = Switchbox {
                name: "channel".into(),
                width,
                height,
                top: top.clone(),
                bottom: bottom.clone(),
                left: vec![0; height as usize - 1],
                right: vec![0; height as usize - 1],
            };
            if sb.validate().is_err() {
                continue;
            }
            assert_eq!(
                routable(&sb).is_ok(),
                height >= cs,
                "{sb:?} separation {cs}"
            );
            assert_eq!(routable_brute_force(&sb).is_ok(), height >= cs, "{sb:?}");
            checked += 1;
        }
    }
    assert!(checked > 3_000, "{checked}");
}

/// A planar channel with floating side terminals, routed in one layer (and
/// verified), fixes its side exits: the chapter 7 switchbox
/// `[-1, C] x [0, W + 1]` with those exits is then routable.
#[test]
fn switchboxes_fixed_by_a_verified_routing_are_routable() {
    let router = router_by_name("plane").unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(73);
    let mut checked = 0;
    for _ in 0..2_000 {
        let columns = rng.gen_range(2..16);
        let t = planar(&mut rng, columns);
        let Some(&last) = t.x.last() else { continue };
        let c = last as usize + 1;
        let mut top = vec![0u32; c];
        let mut bottom = vec![0u32; c];
        for (i, &x) in t.x.iter().enumerate() {
            top[x as usize] = t.top[i].unwrap_or(0);
            bottom[x as usize] = t.bottom[i].unwrap_or(0);
        }
        // The first bottom pin leaves on the left instead, the last on the right.
        let (mut left, mut right) = (Vec::new(), Vec::new());
        if let Some(x) = bottom.iter().position(|&l| l != 0) {
            left.push(bottom[x]);
            bottom[x] = 0;
        }
        if let Some(x) = bottom.iter().rposition(|&l| l != 0) {
            if !left.contains(&bottom[x]) || rng.gen_bool(0.5) {
                right.push(bottom[x]);
                bottom[x] = 0;
            }
        }
        let Ok(p) = ChannelProblem::from_rows("fixed", &top, &bottom, &left, &right) else {
            continue;
        };
        let Ok(s) = router.route(&p, &RouteOptions::layers(1)) else {
            continue;
        };
        assert!(verify(&p, &s, None).is_legal_strict());
        let w = s.width as i64;
        let mut sb = Switchbox {
            name: "fixed".into(),
            width: c as i64 + 1,
            height: w + 1,
            top: std::iter::once(0)
                .chain(top.iter().copied())
                .chain([0])
                .collect(),
            bottom: std::iter::once(0)
                .chain(bottom.iter().copied())
                .chain([0])
                .collect(),
            left: vec![0; w as usize],
            right: vec![0; w as usize],
        };
        for wire in &s.wires {
            for end in [wire.from, wire.to] {
                if end.x == -1 {
                    sb.left[end.y as usize - 1] = wire.net;
                }
                if end.x == c as i64 {
                    sb.right[end.y as usize - 1] = wire.net;
                }
            }
        }
        if sb.validate().is_err() {
            continue;
        }
        assert!(routable(&sb).is_ok(), "{sb:?}: {:?}", routable(&sb));
        assert!(routable_brute_force(&sb).is_ok(), "{sb:?}");
        checked += 1;
    }
    assert!(checked > 1_000, "{checked}");
}
