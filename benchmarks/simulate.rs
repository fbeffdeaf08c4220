//! Simulation benchmarks: message-channel steps per second per core (target:
//! at least 10^7) for the fat-tree and butterfly fat-tree fabrics, and
//! independent trials spread over one and two threads.
//!
//! Run with `cargo bench --bench simulate`. Each case prints its load
//! factor, cycles and steps once, so throughput sits next to the routing
//! figures.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fabric::network::Network;
use fabric::sim::algorithms::{route, Algorithm, RandomConstants};
use fabric::sim::bft::LinkTree;
use fabric::sim::fattree::FatTree;
use fabric::sim::traffic::{generate, Traffic};
use fabric::sim::{trial_rng, Fabric, Message, Outcome, Policy};

fn doubling(n: u32) -> FatTree {
    let levels = n.trailing_zeros();
    FatTree::new(n, (0..=levels).map(|i| 1 << (i / 2)).collect()).expect("valid")
}

fn once<F: Fabric>(f: &F, msgs: &[Message], alg: &Algorithm, policy: Policy) -> Outcome {
    let out = route(f, msgs, alg, policy, 10_000_000, &mut trial_rng(5, 0));
    assert!(out.complete);
    out
}

fn sim_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulate");
    group.sample_size(10);
    let n = 1 << 12;
    let tree = doubling(n);
    let msgs = generate(
        Traffic::Random,
        n,
        8,
        Policy::IdealRandom,
        &mut trial_rng(1, 0),
    )
    .unwrap();
    let lambda = tree.load_factor(&msgs).lambda;
    let random = Algorithm::Random(RandomConstants {
        k1: 1.0,
        k2: 1.0,
        r: 1.0,
        interleave: false,
    });
    for (name, alg, policy) in [
        ("fat-tree-greedy", Algorithm::Greedy, Policy::Priority),
        ("fat-tree-random", random, Policy::IdealRandom),
        (
            "fat-tree-random-prime",
            Algorithm::RandomPrime,
            Policy::IdealRandom,
        ),
    ] {
        let out = once(&tree, &msgs, &alg, policy);
        eprintln!(
            "{name}: n {n}, {} messages, lambda {lambda:.2}, {} cycles ({:.2} lambda), {} steps",
            msgs.len(),
            out.cycles,
            out.cycles as f64 / lambda,
            out.steps
        );
        group.throughput(Throughput::Elements(out.steps));
        group.bench_function(name, |b| {
            b.iter(|| black_box(once(&tree, &msgs, &alg, policy).cycles))
        });
    }
    let bft_n = 1u32 << 12;
    let net = Network::butterfly_fat_tree(bft_n as u64).unwrap();
    let bft = LinkTree::new(&net, None, &fabric::layout::metrics::Delay::Unit).unwrap();
    let perm = generate(
        Traffic::Permutation,
        bft_n,
        4,
        Policy::IdealRandom,
        &mut trial_rng(2, 0),
    )
    .unwrap();
    let out = once(
        &bft,
        &perm,
        &Algorithm::ButterflyFatTree,
        Policy::IdealRandom,
    );
    eprintln!(
        "butterfly-fat-tree: n {bft_n}, {} messages, lambda {:.2}, {} cycles, {} steps",
        perm.len(),
        bft.load_factor(&perm).lambda,
        out.cycles,
        out.steps
    );
    group.throughput(Throughput::Elements(out.steps));
    group.bench_function("butterfly-fat-tree", |b| {
        b.iter(|| {
            black_box(
                once(
                    &bft,
                    &perm,
                    &Algorithm::ButterflyFatTree,
                    Policy::IdealRandom,
                )
                .cycles,
            )
        })
    });
    // Trials over threads: 8 independent RANDOM trials on 1 and 2 threads.
    let time = fabric::sim::TimeModel {
        switch_delay: 1.0,
        payload_bits: 0,
    };
    let total: u64 = (0..8)
        .map(|i| {
            let m = generate(
                Traffic::Random,
                n,
                8,
                Policy::IdealRandom,
                &mut trial_rng(3, i),
            )
            .unwrap();
            once(&tree, &m, &random, Policy::IdealRandom).steps
        })
        .sum();
    group.throughput(Throughput::Elements(total));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_function(format!("8-trials-{threads}-threads"), |b| {
            b.iter(|| {
                pool.install(|| {
                    fabric::sim::run_trials(
                        &tree,
                        8,
                        3,
                        &time,
                        |_, rng| generate(Traffic::Random, n, 8, Policy::IdealRandom, rng).unwrap(),
                        |m, rng| {
                            let out =
                                route(&tree, m, &random, Policy::IdealRandom, 10_000_000, rng);
                            (tree.load_factor(m), out)
                        },
                    )
                    .len()
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, sim_benches);
criterion_main!(benches);
