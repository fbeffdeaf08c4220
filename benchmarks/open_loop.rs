//! Open-loop benchmarks: flit-hops (flits through a switch) per second on
//! the 8 x 8 mesh, uniform traffic at 0.3 flits/terminal/cycle, 4 VCs of 8
//! flits, 4-flit packets (issue target 20 million per CPU-second; one
//! point runs on one thread, so wall and CPU seconds agree); and a
//! 64-point sweep of the same mesh run on all cores.
//!
//! Run with `cargo bench --bench open_loop`. Each case prints its figures
//! once, so speed sits next to what it produced.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fabric::layout::metrics::Delay;
use fabric::sim::openloop::engine::Phases;
use fabric::sim::openloop::sweep::run_rates;
use fabric::sim::openloop::{simulate, Config, LinkMode, OpenNet, Topology};

fn config(rate: f64, measure: u64) -> Config {
    Config {
        vcs: 4,
        rate,
        phases: Phases {
            measure,
            ..Config::default().phases
        },
        ..Config::default()
    }
}

fn open_loop_benches(c: &mut Criterion) {
    let net =
        OpenNet::build(Topology::Mesh, 8, LinkMode::Unit, &Delay::Unit).expect("the 8 x 8 mesh");
    let mut group = c.benchmark_group("open_loop");
    group.sample_size(10);
    let cfg = config(0.3, 10000);
    let once = simulate(&net, &cfg).expect("runs");
    println!(
        "8x8 mesh at 0.3, 4 VCs x 8: accepted {:.4}, avg latency {:.2}, {} flit-hops in {} cycles",
        once.accepted, once.total.avg, once.flit_hops, once.cycles
    );
    group.throughput(Throughput::Elements(once.flit_hops));
    group.bench_function("mesh8x8_rate0.3_4vc_flit_hops", |b| {
        b.iter(|| black_box(simulate(&net, &cfg).expect("runs")))
    });
    let rates: Vec<f64> = (1..=64).map(|i| i as f64 * 0.5 / 64.0).collect();
    let short = config(0.3, 2000);
    let sweep = run_rates(&net, &short, &rates).expect("runs");
    let hops: u64 = sweep.iter().map(|p| p.flit_hops).sum();
    println!(
        "64-point sweep: {hops} flit-hops on {} threads",
        rayon::current_num_threads()
    );
    group.throughput(Throughput::Elements(hops));
    group.bench_function("mesh8x8_sweep64_flit_hops", |b| {
        b.iter(|| black_box(run_rates(&net, &short, &rates).expect("runs")))
    });
    group.finish();
}

criterion_group!(benches, open_loop_benches);
criterion_main!(benches);
