use super::super::improve::{improve_passing, Stamps, Turns};
use super::super::tests::random_case;
use super::*;
use crate::channel::analysis::density;
use rand::{Rng, SeedableRng};

#[test]
fn stamps_agree_with_a_plain_array() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for n in [1usize, 2, 3, 7, 64, 100] {
        let mut stamps = Stamps::new(n);
        let mut plain = vec![0u32; n];
        for t in 1..300u32 {
            let a = rng.gen_range(0..n);
            let b = rng.gen_range(a..n);
            if rng.gen_bool(0.5) {
                stamps.raise(a, b, t);
                plain[a..=b].iter_mut().for_each(|v| *v = t);
            } else {
                let want = plain[a..=b].iter().copied().max().unwrap();
                assert_eq!(stamps.max(a, b), want, "n {n} range {a}..={b}");
            }
        }
    }
}

/// Passing over the pieces with nothing changed near them is a pure
/// speed-up: every piece given its turn in every pass ends in the same
/// slots, on random channels at and just above their lower bound of
/// rows (where the sweep leaves the most violations).
#[test]
fn passing_over_settled_pieces_changes_nothing() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
    let mut improved = 0;
    for case in 0..3000 {
        let (p, model) = random_case(&mut rng, 20..400, 0.5..1.0, 2..40, 0.0..0.2);
        let h = model.h_layers();
        let low = ((density(&p) as i64 + h.len() as i64 - 1) / h.len() as i64).max(1);
        for doglegs in [true, false] {
            let items = items_of(&p, Cut::doglegs_if(doglegs));
            for rows in low..low + 2 {
                let Some(start) = assign(&p, &items, rows, &h) else {
                    continue;
                };
                let (mut fast, mut slow) = (start.clone(), start.clone());
                let cons = PieceConstraints::new(&p, &items);
                improve_passing(
                    &p,
                    &items,
                    &cons,
                    &mut fast,
                    rows,
                    &h,
                    Turns::PassOverSettled,
                );
                improve_passing(&p, &items, &cons, &mut slow, rows, &h, Turns::Every);
                let differ = (0..fast.len()).find(|&k| fast[k] != slow[k]);
                assert_eq!(differ, None, "case {case} rows {rows} doglegs {doglegs}");
                improved += (slow != start) as usize;
            }
        }
    }
    // The check means something only if the search moved pieces.
    assert!(improved > 1000, "only {improved} assignments improved");
}

/// A jittered assignment is an assignment: every piece in a slot of the
/// channel, no two pieces of different nets sharing a slot's column
/// (pieces of one net may share the column where they meet). One seed
/// and stream always give the same one; other streams give others.
#[test]
fn jittered_assignments_are_assignments() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
    let (mut made, mut other) = (0, 0);
    for case in 0..400 {
        let (p, model) = random_case(&mut rng, 10..200, 0.5..1.0, 2..30, 0.0..0.2);
        let h = model.h_layers();
        let low = ((density(&p) as i64 + h.len() as i64 - 1) / h.len() as i64).max(1);
        for doglegs in [true, false] {
            let items = items_of(&p, Cut::doglegs_if(doglegs));
            let cons = PieceConstraints::new(&p, &items);
            let plain = assign_with(&p, &items, &cons, low + 1, &h, None);
            for stream in 0..3u64 {
                let jitter = Some((case as u64, stream));
                let Some(slots) = assign_with(&p, &items, &cons, low + 1, &h, jitter) else {
                    continue;
                };
                made += 1;
                let again = assign_with(&p, &items, &cons, low + 1, &h, jitter);
                assert_eq!(again.as_ref(), Some(&slots), "case {case} stream {stream}");
                other += (plain.as_ref() != Some(&slots)) as usize;
                for (k, (a, sa)) in items.iter().zip(&slots).enumerate() {
                    assert!((1..=low + 1).contains(&sa.y) && h.contains(&sa.layer));
                    for (b, sb) in items.iter().zip(&slots).skip(k + 1) {
                        let overlap = a.lo <= b.hi && b.lo <= a.hi;
                        let touch = a.net == b.net && (a.hi == b.lo || b.hi == a.lo);
                        assert!(
                            sa != sb || !overlap || touch,
                            "case {case} stream {stream}: nets {} and {} share a slot",
                            a.net,
                            b.net
                        );
                    }
                }
            }
        }
    }
    assert!(
        made > 1000 && other > made / 2,
        "{made} made, {other} differ"
    );
}

/// Constraint depths against the longest chains found by trying every
/// path, on random graphs with cycles: an edge counts unless its ends
/// reach each other.
#[test]
fn depths_are_the_longest_chains_between_components() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
    let mut deep = 0;
    for _ in 0..300 {
        let n = rng.gen_range(1..12usize);
        let mut g = Digraph::new(n);
        for _ in 0..rng.gen_range(0..2 * n) {
            g.add_edge(rng.gen_range(0..n) as u32, rng.gen_range(0..n) as u32);
        }
        g.dedup();
        let r = g.reachability();
        let counts = |a: usize, b: usize| !(r[a][b] && r[b][a]);
        // Longest chain of counted edges ending (starting) at each node,
        // by relaxing every edge n times.
        let (mut above, mut below) = (vec![0u32; n], vec![0u32; n]);
        for _ in 0..n {
            for (a, b) in g.edges() {
                let (a, b) = (a as usize, b as usize);
                if counts(a, b) {
                    above[b] = above[b].max(above[a] + 1);
                    below[a] = below[a].max(below[b] + 1);
                }
            }
        }
        let d = depths(&g);
        assert_eq!(d.above, above);
        assert_eq!(d.below, below);
        deep += above.iter().any(|&a| a >= 3) as usize;
    }
    assert!(deep > 20, "long chains seen: {deep}");
}
