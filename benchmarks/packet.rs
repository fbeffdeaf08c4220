//! Packet-level benchmarks on the butterfly B(n): packet-hops per second
//! for model G under FIFO (n = 16, random destinations, q = 4; issue
//! target 10^8 per CPU-second), the wave algorithm, and independent trials
//! on one and two threads.
//!
//! Run with `cargo bench --bench packet`. Each case prints its routing
//! time once, so throughput sits next to the figure it produced.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fabric::sim::packet::adversary::SplitRule;
use fabric::sim::packet::butterfly::Butterfly;
use fabric::sim::packet::dropping::{Capacity, DropPolicy, RankRange, Variant};
use fabric::sim::packet::engine::{run, Config, Protocol, QueueModel};
use fabric::sim::packet::experiment::{Dropping, Experiment, Model, Routing, Workload};
use fabric::sim::packet::traffic::PacketTraffic;
use fabric::sim::packet::wave::{run_waves, WaveConfig};
use fabric::sim::trial_rng;

fn packet_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("packet");
    group.sample_size(10);
    let n = 16;
    let packets = PacketTraffic::RandomDestinations
        .packets(n, 1, &mut trial_rng(1, 0))
        .expect("k >= 1");
    let config = Config {
        model: QueueModel::Greedy,
        protocol: Protocol::Fifo,
        q: 4,
    };
    let once = run(n, &packets, config, &mut trial_rng(2, 0)).expect("runs");
    println!(
        "model G FIFO q=4, B(16) random destinations: T = {} ({:.3} lg N), {} hops",
        once.steps,
        once.steps as f64 / n as f64,
        once.hops
    );
    group.throughput(Throughput::Elements(once.hops));
    group.bench_function("g-fifo-q4-n16", |b| {
        b.iter(|| run(n, black_box(&packets), config, &mut trial_rng(2, 0)).expect("runs"))
    });

    let k = 10;
    let wave_packets = PacketTraffic::RandomDestinations
        .packets(10, k, &mut trial_rng(1, 0))
        .expect("k >= 1");
    let bfly = Butterfly::new(10);
    let wave = run_waves(&bfly, &wave_packets, k, &WaveConfig::new(4)).expect("runs");
    println!(
        "waves q=4, B(10), k = 10: T = {} ({:.3} (k + lg N)), {} item-hops",
        wave.routing_time,
        wave.time_ratio(),
        wave.item_hops()
    );
    group.throughput(Throughput::Elements(wave.item_hops()));
    group.bench_function("waves-q4-n10-k10", |b| {
        b.iter(|| run_waves(&bfly, black_box(&wave_packets), k, &WaveConfig::new(4)).expect("runs"))
    });

    let e = Experiment {
        model: Model::G,
        protocol: Protocol::Fifo,
        workload: Workload::RandomDestinations,
        routing: Routing::Direct,
        split: SplitRule::Paper,
        k: 1,
        dropping: Dropping {
            scheme: Variant::BackToBack,
            capacity: Capacity::PerEdge,
            policy: DropPolicy::PushOut,
            ranks: RankRange::Auto,
        },
        trials: 8,
        seed: 1,
    };
    group.throughput(Throughput::Elements(8 * 12 * (1 << 12)));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        group.bench_function(format!("8-trials-n12-{threads}-threads"), |b| {
            b.iter(|| pool.install(|| e.cell(12, 4).expect("runs")))
        });
    }
    group.finish();
}

criterion_group!(benches, packet_benches);
criterion_main!(benches);
