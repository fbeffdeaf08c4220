use super::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn sorted(keys: &[u64]) -> Vec<u64> {
    let mut v = keys.to_vec();
    v.sort_unstable();
    v
}

/// The plan is oblivious (column sorts, fixed permutations, tags set by
/// position), so by the 0/1 principle sorting every 0/1 input proves it
/// sorts every input of that size.
#[test]
fn plan_sorts_every_zero_one_input_of_small_sizes() {
    for s in [2usize, 4, 8] {
        for r in 1..=16usize {
            let p = plan(r, s).unwrap();
            for bits in 0u32..1 << r {
                let mut keys: Vec<u64> = (0..r).map(|i| u64::from(bits >> i & 1)).collect();
                let want = sorted(&keys);
                execute(&p, &mut keys).unwrap();
                assert_eq!(keys, want, "s = {s}, r = {r}, input {bits:#b}");
            }
        }
    }
}

/// Random inputs, 0/1 ones of several densities and many-duplicate ones,
/// for s = 4..128 and r up to 8192, padded sizes included.
#[test]
fn plan_sorts_seeded_random_inputs() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for s in [4usize, 8, 16, 32, 64, 128] {
        let mut sizes = vec![s, s + 1, 3 * s - 1, 5 * s + 3, 1000, 2048, 4095, 8192];
        sizes.retain(|&r| r <= 8192);
        for r in sizes {
            let p = plan(r, s).unwrap();
            let trials = if s == 4 && r > 2048 { 1 } else { 4 };
            for t in 0..trials {
                let mut keys: Vec<u64> = match t % 4 {
                    0 => (0..r).map(|_| rng.gen()).collect(),
                    1 => (0..r).map(|_| rng.gen_range(0..8)).collect(),
                    2 => (0..r).map(|_| u64::from(rng.gen_bool(0.1))).collect(),
                    _ => (0..r).map(|_| u64::from(rng.gen_bool(0.7))).collect(),
                };
                let want = sorted(&keys);
                execute(&p, &mut keys).unwrap();
                assert_eq!(keys, want, "s = {s}, r = {r}, trial {t}");
            }
        }
    }
}

#[test]
fn the_wrap_block_tag_is_needed() {
    // Without the tag the shift step merges the first and last H/2
    // elements in the wrap block; some 0/1 input then comes out unsorted.
    let p = plan(16, 4).unwrap().without_tags();
    let failures = (0u32..1 << 16)
        .filter(|bits| {
            let mut keys: Vec<u64> = (0..16).map(|i| u64::from(bits >> i & 1)).collect();
            let want = sorted(&keys);
            execute(&p, &mut keys).unwrap();
            keys != want
        })
        .count();
    assert!(failures > 0);
}

#[test]
fn phase_counts_follow_the_spec() {
    let cases: [(usize, &[(usize, u64)]); 2] = [
        (64, &[(2, 4), (4, 4), (8, 16), (16, 16), (32, 16), (64, 64)]),
        (128, &[(2, 4), (4, 4), (8, 4), (16, 16), (32, 16), (64, 16)]),
    ];
    for (s, rows) in cases {
        for &(cols, want) in rows {
            let r = s * cols;
            let p = plan(r, s).unwrap();
            assert_eq!(p.phases() as u64, want, "s = {s}, r/s = {cols}");
            assert_eq!(phase_count(r, s).unwrap(), want);
            assert_eq!(4u64.pow(p.depth()), want);
        }
    }
    assert_eq!(plan(64, 64).unwrap().phases(), 1);
}

#[test]
fn plan_phases_are_permutations_and_leave_no_tags() {
    for (r, s) in [(16, 2), (1000, 4), (4096, 64), (8192, 128)] {
        let p = plan(r, s).unwrap();
        let big = p.padded();
        assert_eq!(big, s * p.columns());
        assert!(p.distinct_permutations() <= 4 * p.depth() as usize + 1);
        let mut live = 0u64;
        for i in 0..p.phases() {
            let perm = p.permutation(i).unwrap();
            let mut seen = vec![false; big];
            for &x in perm {
                assert!(!std::mem::replace(&mut seen[x as usize], true));
            }
            live &= !p.cleared_tags(i).unwrap();
            for t in p.tag_rules(i).unwrap() {
                assert!(t.bit < p.depth() && live & 1 << t.bit == 0);
                live |= 1 << t.bit;
            }
        }
        assert_eq!(live, 0, "r = {r}, s = {s}: tags left set");
        assert!(p.permutation(p.phases()).is_none());
    }
}

#[test]
fn integer_depth_tracks_lemma8() {
    // Lemma 8 is asymptotic: 4^k* with a real k*. The integer plan rounds
    // each block up to a power of two, which costs at most one level here.
    println!("   s     r   depth  4^depth   k*     Lemma 8");
    for s in [8usize, 16, 64, 128, 1024] {
        let mut r = 2 * s;
        while r <= s * s && r <= 1 << 20 {
            let depth = plan_depth(r, s).unwrap();
            let k = lemma8_depth(r as f64, s as f64);
            let real = lemma8_phases(r as f64, s as f64);
            println!(
                "{s:5} {r:7} {depth:4} {:7} {k:7.3} {real:8.2}",
                4u32.pow(depth)
            );
            assert!(f64::from(depth) <= k.ceil() + 1.0, "s = {s}, r = {r}");
            assert!(f64::from(depth) >= k.floor(), "s = {s}, r = {r}");
            r *= 2;
        }
    }
}

#[test]
fn sorter_sorts_and_refuses_bad_requests() {
    let sorter = Sorter::new(12, 16, 1024).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for r in [0, 1, 15, 17, 100, 1024] {
        let mut keys: Vec<u64> = (0..r).map(|_| rng.gen_range(0..1 << 12)).collect();
        let want = sorted(&keys);
        sorter.sort(&mut keys).unwrap();
        assert_eq!(keys, want);
    }
    let mut wide = vec![1, 1 << 12];
    assert_eq!(
        sorter.sort(&mut wide),
        Err(SorterError::KeyTooWide {
            key: 1 << 12,
            b: 12
        })
    );
    let mut many = vec![0; 1025];
    assert_eq!(
        sorter.sort(&mut many),
        Err(SorterError::TooManyWords { r: 1025, l: 1024 })
    );
    let p = sorter.plan(100).unwrap();
    assert_eq!((p.padded(), p.columns()), (128, 8));
    assert_eq!(
        execute(&p, &mut [0; 99]),
        Err(SorterError::LengthMismatch {
            expected: 100,
            got: 99
        })
    );
    let full = Sorter::new(64, 2, 8).unwrap();
    let mut keys = vec![u64::MAX, 0, u64::MAX, 5, 3];
    full.sort(&mut keys).unwrap();
    assert_eq!(keys, [0, 3, 5, u64::MAX, u64::MAX]);
}

#[test]
fn constructor_rejects_bad_parameters() {
    use SorterError::*;
    assert_eq!(Sorter::new(0, 8, 64), Err(BadWordWidth { b: 0 }));
    assert_eq!(Sorter::new(4097, 8, 64), Err(BadWordWidth { b: 4097 }));
    assert!(Sorter::new(100, 8, 64).is_ok());
    assert_eq!(Sorter::new(8, 6, 64), Err(BadColumnHeight { s: 6 }));
    assert_eq!(Sorter::new(8, 1, 64), Err(BadColumnHeight { s: 1 }));
    assert_eq!(Sorter::new(8, 8, 48), Err(CapacityNotPowerOfTwo { l: 48 }));
    assert_eq!(
        Sorter::new(8, 8, 4),
        Err(CapacityBelowColumn { l: 4, s: 8 })
    );
    assert_eq!(
        Sorter::new(8, 8, 1 << 31),
        Err(CapacityTooLarge {
            l: 1 << 31,
            max: MAX_CAPACITY
        })
    );
    assert_eq!(plan(10, 3), Err(BadColumnHeight { s: 3 }));
    assert!(matches!(
        plan(MAX_POSITIONS + 1, 2),
        Err(PlanTooLarge { .. })
    ));
    let s = Sorter::new(8, 8, 64).unwrap();
    assert_eq!((s.b(), s.s(), s.l(), s.cells()), (8, 8, 64, 8));
}

#[test]
fn time_is_linear_in_columns_while_phases_are_fixed() {
    let sorter = Sorter::new(16, 64, 1 << 16).unwrap();
    let cost = CostModel::default();
    let t = |q: u64| sorter.time(q * 64, &cost).unwrap();
    // Within one cycle length w, each extra column costs b to shift in.
    for q in 17..32 {
        assert_eq!(t(q + 1) - t(q), 16);
        assert_eq!(sorter.phases(q * 64).unwrap(), 16);
    }
    // At powers of two with P = 16 (w = 16, 32), T = A·w + B exactly, with
    // A = b + P(2b + c·lg s) + 1 and B = P·lg s.
    let (b, p, lg_s) = (16, 16, 6);
    for w in [16, 32] {
        assert_eq!(t(w), (b + p * (2 * b + lg_s) + 1) * w + p * lg_s);
    }
    // Where P jumps from 4 to 16 (w = 4 → 8) the per-column cost roughly
    // quadruples, and again from 16 to 64 (w = 32 → 64).
    let per_col = |w: u64| t(w) as f64 / w as f64;
    assert!(per_col(8) / per_col(4) > 3.0);
    assert!(per_col(64) / per_col(32) > 3.0);
    assert!(per_col(32) / per_col(16) < 1.1);
    // Partial columns round up: r = 1 costs like one column.
    assert_eq!(sorter.time(1, &cost).unwrap(), t(1));
    assert_eq!(sorter.time(0, &cost).unwrap(), 0);
    assert!(sorter.time(1 << 17, &cost).is_err());
}

#[test]
fn registers_reproduce_fig4() {
    // Fig. 4: s = 8, l = 64; 8 cycles of 8 cells, Omega 3 stages of 4.
    let s = Sorter::new(8, 8, 64).unwrap();
    assert_eq!(s.omega_switches(), (3, 4));
    assert_eq!(s.omega_register_per_beta(), 30);
    let cells: Vec<u64> = (1..=8)
        .map(|c| s.cell_register_per_beta(c).unwrap())
        .collect();
    assert_eq!(cells, [0, 12, 0, 10, 0, 6, 0, 6]);
    assert!(s.cell_register_per_beta(0).is_err());
    assert!(s.cell_register_per_beta(9).is_err());
    // The paper's bounds: Omega O(l/s), cells O(lg²(l/s) − m²).
    let big = Sorter::new(8, 8, 1 << 14).unwrap();
    assert_eq!(big.omega_register_per_beta(), 2 * (2 * 2048 - 1));
    assert_eq!(big.cell_register_per_beta(2).unwrap(), 11 * 12);
    assert_eq!(big.cell_register_per_beta(2048).unwrap(), 22);
}

/// Corollary 2: `b = 2 lg s`, `l` the largest power of two `≤ s²/lg s`.
/// The control registers dominate the length and scale with `β`, which
/// the integer plan makes 4 or 16 (not monotone in `s`: `l/s` is rounded
/// to a power of two). `area/s²` stays below a constant, and
/// `area/(β·s²)` is flat within a factor 2.
#[test]
fn area_is_order_s_squared_under_corollary_2() {
    let model = AreaModel::default();
    let mut per_beta = Vec::new();
    println!("    s    b       l  beta  length  height  area/s^2  /beta");
    for lg_s in 3..=10u32 {
        let s = 1u32 << lg_s;
        let b = 2 * lg_s;
        let l = 1u32 << (u64::from(s) * u64::from(s) / u64::from(lg_s)).ilog2();
        let sorter = Sorter::new(b, s, l).unwrap();
        let e = sorter.extent(&model);
        let beta = sorter.beta();
        let ratio = e.area() as f64 / (f64::from(s) * f64::from(s));
        println!(
            "{s:5} {b:4} {l:7} {beta:5} {:7} {:7} {ratio:9.2} {:6.2}",
            e.length,
            e.height,
            ratio / beta as f64
        );
        assert_eq!(e.height, 2 * u64::from(s));
        assert!(beta <= 16, "s = {s}: beta {beta}");
        assert!(ratio < 200.0, "s = {s}: area/s² = {ratio}");
        per_beta.push(ratio / beta as f64);
    }
    let max = per_beta.iter().cloned().fold(0.0, f64::max);
    let min = per_beta.iter().cloned().fold(f64::INFINITY, f64::min);
    assert!(max / min < 2.0, "area/(β s²) ranges {min}..{max}");
}
