//! Bay–Bilardi routing benchmarks: a random permutation of N = 2^16
//! terminals routed on the pruned butterfly (issue target: under 2 s),
//! at N = 1024 and 2^16, with the stages' λ_T sum and sidetracks printed
//! once beside the time.
//!
//! Run with `cargo bench --bench bay_bilardi`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fabric::sim::bb::pb::{route, Cost};
use fabric::sim::bb::{Levels, Message};
use fabric::sim::trial_rng;
use rand::seq::SliceRandom;

fn permutation(big: u32) -> Vec<Message> {
    let mut rng = trial_rng(1, 0);
    let mut dst: Vec<u32> = (0..big).collect();
    dst.shuffle(&mut rng);
    dst.into_iter()
        .enumerate()
        .map(|(src, dst)| Message {
            src: src as u32,
            dst,
        })
        .collect()
}

fn bb_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("bay-bilardi");
    group.sample_size(10);
    for lg in [10u32, 16] {
        let levels = Levels::new(1 << lg).expect("a power of 4");
        let messages = permutation(1 << lg);
        let cost = Cost { body_bits: lg };
        let once = route(levels, &messages, cost);
        eprintln!(
            "pruned butterfly N = 2^{lg}, random permutation: sum of lambda_T {}, sidetracks {}, {} bit steps",
            once.lambda_sum(),
            once.sidetracks,
            once.bit_steps
        );
        group.throughput(Throughput::Elements(messages.len() as u64));
        group.bench_function(format!("pb-permutation-n2^{lg}"), |b| {
            b.iter(|| route(levels, black_box(&messages), cost))
        });
    }
    group.finish();
}

criterion_group!(benches, bb_benches);
criterion_main!(benches);
