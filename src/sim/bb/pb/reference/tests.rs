use super::super::{route as fast, Cost};
use super::*;
use crate::sim::bb::traffic::{generate, Params, Workload};

/// The fast router's outcome in the reference's terms: bit steps 0 and
/// the largest batch load as a reduced fraction (both routers keep the
/// first pair attaining the largest ratio, in different orders).
fn comparable(mut o: Outcome) -> Outcome {
    o.bit_steps = 0;
    for s in &mut o.stages {
        s.bit_steps = 0;
    }
    let (l, c) = o.max_batch_load;
    let g = gcd(l, c);
    o.max_batch_load = (l / g, c / g);
    o
}

/// The greatest common divisor (`gcd(0, c) = c`).
fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Routes `m` both ways and checks the figures agree and the trails are
/// consistent; returns the reference's outcome.
fn agree(levels: Levels, m: &[Message], what: &str) -> Outcome {
    let r = route(levels, m);
    let want = comparable(fast(levels, m, Cost { body_bits: 8 }));
    let got = comparable(r.outcome);
    assert_eq!(got, want, "reference vs fast router: {what}");
    // Every trail ends at the destination, each leg lowers the peak, and
    // the legs before the last are the sidetracks.
    let mut legs = 0;
    for (t, msg) in r.trails.iter().zip(m) {
        assert_eq!((t[0], *t.last().unwrap()), (msg.src, msg.dst), "{what}");
        for w in t.windows(2) {
            assert!(
                levels.peak(w[1], msg.dst) > levels.peak(w[0], msg.dst),
                "{what}"
            );
        }
        legs += t.len().saturating_sub(2);
    }
    assert_eq!(legs, got.sidetracks, "{what}");
    replay(levels, &r.batches, &got, what);
    got
}

/// Replays the reference's batches, in its order, through the fast
/// router's expansion (one set of direction bits for the whole routing):
/// every message must arrive at the same leaf with the same status, and
/// the conflicts must add up. The figures alone hardly see where a
/// sidetracked message goes (its new peak is fixed where it was
/// sidetracked), so this checks rule (d) and the split of two
/// sidetracked messages message by message.
fn replay(levels: Levels, batches: &[Batch], got: &Outcome, what: &str) {
    use super::super::expand::{Expansion, Vertex as At};
    let mut x = Expansion::new(levels);
    let mut out = Outcome::default();
    for (b, batch) in batches.iter().enumerate() {
        let starts: Vec<(At, (u32, u32, u32))> = batch
            .keys
            .iter()
            .enumerate()
            .map(|(h, &key)| {
                let at = At {
                    level: batch.stage,
                    node: batch.parent,
                    k: h as u32,
                };
                (at, key)
            })
            .collect();
        let mut fast = x.run(batch.stage, batch.into, &starts, &mut out);
        fast.sort_unstable_by_key(|a| a.1);
        assert_eq!(fast, batch.arrivals, "{what}: batch {b}");
    }
    assert_eq!(
        (out.conflicts, out.lemma1_violations),
        (got.conflicts, got.lemma1_violations),
        "{what}"
    );
}

/// The workload of a seed: a kind, its parameters, and whether to keep
/// only part of the set.
fn workload(seed: u64) -> (Workload, Params, bool) {
    let kinds = [
        Workload::RandomPerm,
        Workload::RandomKn,
        Workload::MultiScale,
        Workload::Bitrev,
        Workload::Transpose,
        Workload::HotSpot,
        Workload::RandomPerm,
        Workload::RandomKn,
    ];
    let params = Params {
        k: 1 + (seed / 8 % 4) as u32,
        lambda0: 0.5 + (seed % 7) as f64 / 2.0,
        ..Params::default()
    };
    (kinds[(seed % 8) as usize], params, seed % 3 == 2)
}

/// The reference and the fast router agree on every figure on a few
/// hundred seeded sets of every kind, whole and partial, N = 16, 64, 256.
#[test]
fn reference_agrees_with_the_fast_router_on_seeded_sets() {
    use rand::seq::SliceRandom;
    let mut sets = 0;
    let mut sidetracks = 0;
    for (big, seeds) in [(16u64, 150u64), (64, 150), (256, 100)] {
        let l = Levels::new(big).unwrap();
        for seed in 0..seeds {
            let mut rng = crate::sim::trial_rng(seed, big);
            let (w, params, partial) = workload(seed);
            let mut m = generate(l, w, &params, &mut rng).unwrap();
            if partial {
                // A random part of the set: shuffled, then cut.
                m.shuffle(&mut rng);
                m.truncate(m.len() * (1 + seed as usize % 4) / 5);
            }
            let what = format!("N = {big}, seed {seed}, {w:?}, k {}", params.k);
            sidetracks += agree(l, &m, &what).sidetracks;
            sets += 1;
        }
    }
    println!("{sets} sets agree, {sidetracks} sidetracks");
    assert!(sidetracks > 0, "the sets exercise sidetracking");
}

/// The N = 1024 regression sets: the reference agrees with the fast router
/// and, by itself, with the N = 1024 regression table (`regression_n1024`).
#[test]
fn reference_agrees_on_the_regression_sets() {
    let l = Levels::new(1024).unwrap();
    let set = |f: &dyn Fn(u32) -> u32| -> Vec<Message> {
        (0..1024).map(|x| Message { src: x, dst: f(x) }).collect()
    };
    let table: [(&str, Vec<Message>, [u32; 10], usize); 5] = [
        ("nbr", set(&|x| x ^ 1), [0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 0),
        (
            "xorhalf",
            set(&|x| x ^ 512),
            [16, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            0,
        ),
        (
            "bitrev",
            set(&|x| x.reverse_bits() >> 22),
            [8, 2, 4, 1, 2, 0, 0, 0, 0, 0],
            524,
        ),
        (
            "transpose",
            set(&|x| (x >> 5) | ((x & 31) << 5)),
            [8, 2, 1, 1, 2, 0, 1, 0, 0, 0],
            512,
        ),
        (
            "all0",
            set(&|_| 0),
            [16, 8, 32, 4, 64, 2, 128, 1, 256, 1],
            1878,
        ),
    ];
    for (name, m, lambdas, sidetracks) in table {
        let out = agree(l, &m, name);
        let got: Vec<u32> = out.stages.iter().map(|s| s.max_lambda_t).collect();
        assert_eq!(
            (got, out.sidetracks),
            (lambdas.to_vec(), sidetracks),
            "{name}"
        );
        assert_eq!(
            (out.compression_conflicts, out.lemma1_violations),
            (0, 0),
            "{name}"
        );
    }
}
