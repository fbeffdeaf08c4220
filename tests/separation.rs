//! CHANNEL-SEPARATION (linear time) against the brute-force check of every
//! cut, on random planar channels with multi-terminal nets and empty columns.

use fabric::channel::separation::{separation, separation_brute_force, Terminals};
use rand::{Rng, SeedableRng};

/// A random planar channel: terminals placed in boundary-marching order
/// (bottom left to right, then top right to left) with a stack of open nets,
/// pins going only to the innermost open net, so no two nets interleave.
fn planar(rng: &mut impl Rng, columns: usize) -> Terminals {
    let slots = 2 * columns;
    let mut net_at: Vec<Option<u32>> = vec![None; slots];
    let mut stack: Vec<u32> = Vec::new();
    let mut next = 1u32;
    for slot in net_at.iter_mut() {
        let r: f64 = rng.gen();
        if r < 0.25 {
            continue;
        }
        if r < 0.6 && !stack.is_empty() {
            *slot = stack.last().copied();
            if rng.gen_bool(0.5) {
                stack.pop();
            }
        } else {
            stack.push(next);
            *slot = Some(next);
            next += 1;
        }
    }
    // Drop nets with a single terminal (removing terminals keeps planarity).
    let mut count = std::collections::HashMap::new();
    for n in net_at.iter().flatten() {
        *count.entry(*n).or_insert(0) += 1;
    }
    for slot in net_at.iter_mut() {
        if slot.is_some_and(|n| count[&n] < 2) {
            *slot = None;
        }
    }
    let mut x = Vec::new();
    let mut top = Vec::new();
    let mut bottom = Vec::new();
    for c in 0..columns {
        let b = net_at[c];
        let t = net_at[slots - 1 - c];
        if b.is_some() || t.is_some() {
            x.push(c as i64);
            top.push(t);
            bottom.push(b);
        }
    }
    Terminals { x, top, bottom }
}

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
        if slow.is_some_and(|s| s > 1) {
            nontrivial += 1;
        }
    }
    assert!(
        nontrivial > 1000,
        "only {nontrivial} instances with separation above 1"
    );
}
