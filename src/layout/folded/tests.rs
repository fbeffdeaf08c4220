use super::super::check::check;
use super::super::metrics::measure;
use super::*;

#[test]
fn walks_of_the_spec_note() {
    // Maxima 3 for q = 2 and 7 for q = 3; q^2 for q >= 4.
    assert!(walk(2, 3).is_some() && walk(2, 4).is_none());
    assert!(walk(3, 7).is_some() && walk(3, 8).is_none());
    for q in 4..=7 {
        let w = walk(q, (q * q) as usize).unwrap();
        let mut seen = w.clone();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), (q * q) as usize);
        for (t, s) in w.windows(2).enumerate() {
            let p = |(i, j): (u32, u32)| [i, (i + j) % q, j];
            assert_eq!(p(s[0])[t % 3], p(s[1])[t % 3], "q {q} step {t}");
        }
    }
    assert_eq!(cubie(2).0, 2);
    assert_eq!(cubie(6).0, 3);
    // The formula "ceil(sqrt(l + 1)) for l >= 7" is 3 at l = 7, 8, but a
    // walk through Z_3^2 has at most 7 cells: q = 4 there.
    assert_eq!(cubie(7).0, 4);
    assert_eq!(cubie(8).0, 4);
    assert_eq!(cubie(15).0, 4);
    assert_eq!(cubie(16).0, 5);
    assert_eq!(cubie(24).0, 5);
}

#[test]
fn two_d_spec_examples() {
    for (n, l, side, wire) in [(4u64, 4u32, 40u64, 10u64), (8, 6, 112, 14), (2, 2, 12, 6)] {
        let e = fold_and_squash_2d(n, l).unwrap();
        let c = check(&e);
        assert!(c.is_legal(), "n {n} l {l}: {:?}", c.violations);
        let m = measure(&e);
        assert!(
            m.width.max(m.height) <= side + 1,
            "n {n} l {l}: {} x {}",
            m.width,
            m.height
        );
        assert_eq!(m.max_wire_length, wire.max(6), "n {n} l {l}");
    }
}

#[test]
fn three_d_spec_examples() {
    // Side 4 n q (3 n q at pitch 3, here pitch 4): n = 4, l = 6 -> 48.
    for (n, l, side) in [
        (2u64, 2u32, 16u64),
        (2, 3, 24),
        (4, 6, 48),
        (8, 9, 128),
        (16, 12, 256),
    ] {
        let e = fold_and_squash_3d(n, l).unwrap();
        let c = check(&e);
        assert!(
            c.is_legal(),
            "n {n} l {l}: {:?}",
            &c.violations[..c.violations.len().min(5)]
        );
        let m = measure(&e);
        let q = cubie(l).0 as u64;
        assert!(
            m.width <= side && m.height <= side && m.depth <= side,
            "n {n} l {l}"
        );
        assert!(
            m.max_wire_length <= 8 * q - 4,
            "n {n} l {l}: {}",
            m.max_wire_length
        );
    }
}
