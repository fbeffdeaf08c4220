//! Wormhole benchmarks on the butterfly fat-tree: flit-hops per second for
//! WORM with RP-RR on random traffic, L = 32, N = 1024 (issue target
//! 5 x 10^7 per CPU-second), the same for STORE, and one Table I point
//! (30 runs) on one and two threads.
//!
//! Run with `cargo bench --bench wormhole`. Each case prints the latency
//! it measured once, so speed sits next to the figure it produced.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fabric::sim::trial_rng;
use fabric::sim::wormhole::{run_scheme, PathRule, Pattern, Scan, Scheme, Setup, WormNet};

fn setup(scheme: Scheme) -> Setup {
    Setup {
        scheme,
        pattern: Pattern::Random,
        flits: 32,
        queue: None,
        path: PathRule::Random,
        scan: Scan::RoundRobin,
        r: 1,
    }
}

fn wormhole_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("wormhole");
    group.sample_size(10);
    let net = WormNet::butterfly_fat_tree(1024).expect("a power of 4");
    for scheme in [Scheme::Worm, Scheme::Store] {
        let s = setup(scheme);
        let once = run_scheme(&net, &s, &mut trial_rng(1, 0)).expect("runs");
        println!(
            "{} RP-RR random, N = 1024, L = 32: latency {} flit-steps, c = {}, {} unit-hops",
            scheme.name(),
            once.latency,
            once.congestion,
            once.unit_hops
        );
        group.throughput(Throughput::Elements(once.unit_hops));
        group.bench_function(
            format!("{}-rp-rr-random-n1024", scheme.name().to_lowercase()),
            |b| b.iter(|| run_scheme(&net, black_box(&s), &mut trial_rng(1, 0)).expect("runs")),
        );
    }
    let s = setup(Scheme::Worm);
    let hops: u64 = (0..30)
        .map(|i| {
            run_scheme(&net, &s, &mut trial_rng(2, i))
                .expect("runs")
                .unit_hops
        })
        .sum();
    group.throughput(Throughput::Elements(hops));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        group.bench_function(format!("30-runs-worm-n1024-{threads}-threads"), |b| {
            b.iter(|| {
                pool.install(|| {
                    fabric::sim::seeded_trials(30, 2, |_, rng| run_scheme(&net, &s, rng))
                        .expect("runs")
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, wormhole_benches);
criterion_main!(benches);
