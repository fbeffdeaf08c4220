use super::*;

fn levels(big: u64) -> Levels {
    Levels::new(big).unwrap()
}

fn set(big: u32, f: impl Fn(u32) -> u32) -> Vec<Message> {
    (0..big).map(|l| Message { src: l, dst: f(l) }).collect()
}

const COST: Cost = Cost { body_bits: 10 };

/// The N = 1024 regression table (regression figures under the same
/// conventions, kept here): stages' largest λ_T,
/// their sum and the sidetracks.
#[test]
fn regression_n1024() {
    let l = levels(1024);
    let rev = |x: u32| x.reverse_bits() >> 22;
    let transpose = |x: u32| (x >> 5) | ((x & 31) << 5);
    /// A workload, its set, λ_T per stage, their sum and the sidetracks.
    type Row = (&'static str, Vec<Message>, [u32; 10], u64, usize);
    let table: [Row; 5] = [
        (
            "nbr",
            set(1024, |x| x ^ 1),
            [0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
            1,
            0,
        ),
        (
            "xorhalf",
            set(1024, |x| x ^ 512),
            [16, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            16,
            0,
        ),
        (
            "bitrev",
            set(1024, rev),
            [8, 2, 4, 1, 2, 0, 0, 0, 0, 0],
            17,
            524,
        ),
        (
            "transpose",
            set(1024, transpose),
            [8, 2, 1, 1, 2, 0, 1, 0, 0, 0],
            15,
            512,
        ),
        (
            "all0",
            set(1024, |_| 0),
            [16, 8, 32, 4, 64, 2, 128, 1, 256, 1],
            512,
            1878,
        ),
    ];
    for (name, m, lambdas, sum, sidetracks) in table {
        let out = route(l, &m, COST);
        let got: Vec<u32> = out.stages.iter().map(|s| s.max_lambda_t).collect();
        assert_eq!(got, lambdas, "{name}");
        assert_eq!(out.lambda_sum(), sum, "{name}");
        assert_eq!(out.sidetracks, sidetracks, "{name}");
        assert_eq!(out.delivered, m.len(), "{name}");
        assert_eq!(
            (out.compression_conflicts, out.lemma1_violations),
            (0, 0),
            "{name}"
        );
        assert!(out.max_batch_load.0 <= out.max_batch_load.1, "{name}");
    }
}

/// A random permutation of 2^16 terminals: delivered, with no compression
/// conflict, no batch above its channels and no Lemma 1 violation.
#[test]
fn big_random_permutation_is_delivered_cleanly() {
    use rand::seq::SliceRandom;
    let l = levels(1 << 16);
    let mut rng = crate::sim::trial_rng(1, 0);
    let mut dst: Vec<u32> = (0..1 << 16).collect();
    dst.shuffle(&mut rng);
    let m = set(1 << 16, |x| dst[x as usize]);
    let out = route(l, &m, COST);
    assert_eq!(out.delivered, m.len());
    assert_eq!((out.compression_conflicts, out.lemma1_violations), (0, 0));
    assert!(out.max_batch_load.0 <= out.max_batch_load.1);
    // Lemma 7 with d = 1: at most 2 lg N + 1 held.
    assert!(out.max_held <= 2 * 16 + 1, "{}", out.max_held);
    assert_eq!(out.stages.len(), 16);
}

/// The λ of the regression table's sets, by the load module.
#[test]
fn regression_sets_have_the_tables_lambda() {
    use crate::sim::bb::load::{load_factors, Capacities};
    use crate::sim::bb::traffic::{generate, Params, Workload};
    let l = levels(1024);
    let mut rng = crate::sim::trial_rng(1, 0);
    for (w, lambda) in [
        (Workload::Nbr, 1.0),
        (Workload::Xorhalf, 32.0),
        (Workload::Bitrev, 16.0),
        (Workload::Transpose, 16.0),
        (Workload::HotSpot, 511.5),
    ] {
        let m = generate(l, w, &Params::default(), &mut rng).unwrap();
        let f = load_factors(l, &m, Capacities::PrunedButterfly).unwrap();
        assert_eq!(f.total.value.to_f64(), lambda, "{w:?}");
    }
}

/// Lemma 1, Corollary 1, Lemmas 4, 6 and 7 and Theorem 1 on thousands of
/// seeded message sets of every random kind, N = 16, 64 and 256.
#[test]
fn the_papers_claims_hold_on_random_sets() {
    use crate::sim::bb::bounds::degree;
    use crate::sim::bb::load::{load_factors, Capacities};
    use crate::sim::bb::traffic::{generate, Params, Workload};
    let mut worst = [0.0f64; 3];
    let mut trials = 0;
    for big in [16u64, 64, 256] {
        let l = levels(big);
        let lg = u64::from(l.n);
        for seed in 0..1000u64 {
            let mut rng = crate::sim::trial_rng(seed, big);
            let (w, k) = match seed % 4 {
                0 | 1 => (Workload::RandomPerm, 1),
                2 => (Workload::RandomKn, 1 + (seed / 4 % 4) as u32),
                _ => (Workload::MultiScale, 1),
            };
            let params = Params {
                k,
                lambda0: 0.5 + (seed % 7) as f64 / 2.0,
                ..Params::default()
            };
            let mut m = generate(l, w, &params, &mut rng).unwrap();
            if seed % 8 == 7 {
                // A partial set: half the messages.
                m.truncate(m.len() / 2);
            }
            let lambda = load_factors(l, &m, Capacities::PrunedButterfly)
                .unwrap()
                .total
                .value;
            let d = u64::from(degree(&m));
            let out = route(l, &m, COST);
            let ceil = lambda.ceil().max(1);
            assert_eq!(out.delivered, m.len());
            assert_eq!(out.compression_conflicts, 0, "Corollary 1");
            assert_eq!(out.lemma1_violations, 0, "Lemma 1");
            assert!(out.max_batch_load.0 <= out.max_batch_load.1, "Lemma 4");
            let most = out
                .stages
                .iter()
                .map(|s| u64::from(s.max_lambda_t))
                .max()
                .unwrap();
            assert!(most <= 2 * ceil, "Lemma 6: {most} > 2 ceil({lambda:?})");
            assert!(u64::from(out.max_held) <= (d + 1) * lg + d, "Lemma 7");
            assert!(out.lambda_sum() <= 2 * ceil * lg, "Theorem 1");
            worst[0] = worst[0].max(most as f64 / ceil as f64);
            worst[1] = worst[1].max(f64::from(out.max_held) / ((d + 1) * lg + d) as f64);
            worst[2] = worst[2].max(out.lambda_sum() as f64 / (ceil * lg) as f64);
            trials += 1;
        }
    }
    println!(
        "{trials} sets: max λ_T/ceil(λ) {:.2} (bound 2), held/Lemma 7 bound {:.2}, Σλ_T/(ceil(λ) lg N) {:.2} (bound 2)",
        worst[0], worst[1], worst[2]
    );
}
