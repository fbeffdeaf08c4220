//! Mesh k-k routing benchmarks: packet-hops per second of NoWrapRoute on
//! the 128 x 128 mesh with k = 8 (issue target 10^8 per CPU-second), the
//! engine alone and the whole trial (problem, plan, route, bounds); and
//! one trial of the 256 x 256 mesh with k = 32, 2 million packets (target
//! under 10 s).
//!
//! Run with `cargo bench --bench mesh`. Each case prints T and Qmax once,
//! so speed sits next to the figures it produced.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fabric::sim::mesh::algorithm::{self, Algorithm, Params};
use fabric::sim::mesh::bounds::Switching;
use fabric::sim::mesh::run::{run_trial, Setup};
use fabric::sim::mesh::traffic::{Problem, Workload};
use fabric::sim::mesh::{route, Config, Gates, Phasing, Shape, Strategy, Topology};
use fabric::sim::trial_rng;

fn setup(n: u32, k: u32) -> Setup {
    Setup {
        shape: Shape::new(n, 2, Topology::Mesh).expect("a mesh"),
        k,
        workload: Workload::Random,
        algorithm: Algorithm::NoWrap,
        params: Params {
            locality: 1,
            strip: 1,
            smear: None,
        },
        strategy: Strategy::FarthestFirst,
        phasing: Phasing::Barrier,
        switching: Switching::StoreAndForward,
    }
}

fn mesh_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("mesh");
    group.sample_size(10);
    let s = setup(128, 8);
    let mut rng = trial_rng(1, 0);
    let problem = Problem::generate(&s.shape, s.k, s.workload, 1, &mut rng).expect("a problem");
    let routing =
        algorithm::plan(&s.shape, &problem, s.algorithm, &s.params, &mut rng).expect("a plan");
    let config = Config {
        strategy: s.strategy,
        gates: Gates::Barrier,
        seed: 3,
    };
    let once = route(&s.shape, &problem.source, &routing.plan, &config);
    println!(
        "NoWrapRoute, 128 x 128 mesh, k = 8, random: T = {} ({:?}), Qmax = {}, {} packet-hops",
        once.steps, once.phase_steps, once.qmax, once.hops
    );
    group.throughput(Throughput::Elements(once.hops));
    group.bench_function("nowrap-engine-n128-k8", |b| {
        b.iter(|| route(&s.shape, black_box(&problem.source), &routing.plan, &config))
    });
    group.bench_function("nowrap-trial-n128-k8", |b| {
        b.iter(|| run_trial(black_box(&s), &mut trial_rng(1, 0)).expect("runs"))
    });
    let big = setup(256, 32);
    let t = run_trial(&big, &mut trial_rng(1, 0)).expect("runs");
    println!(
        "NoWrapRoute, 256 x 256 mesh, k = 32, random: T = {} ({:?}), Qmax = {}, {} packet-hops",
        t.outcome.steps, t.outcome.phase_steps, t.outcome.qmax, t.outcome.hops
    );
    group.throughput(Throughput::Elements(t.outcome.hops));
    group.bench_function("nowrap-trial-n256-k32", |b| {
        b.iter(|| run_trial(black_box(&big), &mut trial_rng(1, 0)).expect("runs"))
    });
    group.finish();
}

criterion_group!(benches, mesh_benches);
criterion_main!(benches);
