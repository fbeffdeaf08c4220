use super::*;

fn levels(big: u64) -> Levels {
    Levels::new(big).unwrap()
}

fn set(big: u32, f: impl Fn(u32) -> u32) -> Vec<Message> {
    (0..big).map(|l| Message { src: l, dst: f(l) }).collect()
}

const COST: Cost = Cost { body_bits: 10 };

/// The N = 1024 regression table of the implementation notes (a
/// prototype's figures under the same conventions): stages' largest λ_T,
/// their sum and the sidetracks.
#[test]
fn regression_n1024() {
    let l = levels(1024);
    let rev = |x: u32| x.reverse_bits() >> 22;
    let transpose = |x: u32| (x >> 5) | ((x & 31) << 5);
    let table: [(&str, Vec<Message>, [u32; 10], u64, usize); 5] = [
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
    assert_eq!(
        out.bit_steps,
        out.stages.iter().map(|s| s.bit_steps).sum::<u64>()
    );
}
