//! Channel-routing benchmarks: time next to quality (tracks, vias, length).
//!
//! Run with `cargo bench --bench channel`. Before timing, a quality table is
//! printed on stderr for every instance, so a speed-up that costs tracks shows.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use fabric::channel::analysis::{analyze, density};
use fabric::channel::generate::{random_channel, ChannelShape};
use fabric::channel::problem::ChannelProblem;
use fabric::channel::router::{router_by_name, RouteOptions};
use fabric::channel::verify::verify;
use rand::SeedableRng;

fn bundled(name: &str) -> ChannelProblem {
    let path = format!(
        "{}/benchmarks/channels/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("bundled benchmark");
    fabric::io::parse_channel(&text, &path).expect("valid benchmark")
}

fn random_acyclic(columns: u32, seed: u64) -> ChannelProblem {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let shape = ChannelShape {
        acyclic: true,
        max_span: 30,
        ..ChannelShape::new(columns)
    };
    random_channel(&mut rng, &shape)
}

fn instances() -> Vec<(String, ChannelProblem)> {
    let mut v: Vec<(String, ChannelProblem)> = ["dde", "dde_zhou", "yk_textbook12"]
        .iter()
        .map(|n| (n.to_string(), bundled(n)))
        .collect();
    for cols in [10_000, 100_000] {
        v.push((format!("random-acyclic-{cols}"), random_acyclic(cols, 1)));
    }
    v
}

fn quality_table(instances: &[(String, ChannelProblem)]) {
    let router = router_by_name("left-edge").expect("router");
    eprintln!(
        "\n{:<24} {:>8} {:>8} {:>7} {:>8} {:>10}",
        "instance", "columns", "density", "tracks", "vias", "net length"
    );
    for (name, p) in instances {
        let s = router.route(p, &RouteOptions::default()).expect("routable");
        let d = density(p);
        let m = s.metrics(d);
        assert!(
            verify(p, &s, Some(&m)).is_legal(),
            "{name}: illegal routing"
        );
        eprintln!(
            "{:<24} {:>8} {:>8} {:>7} {:>8} {:>10}",
            name,
            p.columns(),
            d,
            m.width,
            m.vias,
            m.net_length
        );
    }
}

fn channel_benches(c: &mut Criterion) {
    let instances = instances();
    quality_table(&instances);
    let router = router_by_name("left-edge").expect("router");
    let mut group = c.benchmark_group("left-edge");
    for (name, p) in &instances {
        group.bench_with_input(BenchmarkId::new("route", name), p, |b, p| {
            b.iter(|| router.route(black_box(p), &RouteOptions::default()))
        });
    }
    group.finish();
    let dde = &instances[0].1;
    c.bench_function("analyze/dde", |b| b.iter(|| analyze(black_box(dde), 8)));
    let s = router
        .route(dde, &RouteOptions::default())
        .expect("routable");
    c.bench_function("verify/dde", |b| {
        b.iter(|| verify(black_box(dde), &s, None))
    });
    let text = std::fs::read_to_string(format!(
        "{}/benchmarks/channels/dde.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("dde");
    c.bench_function("parse/dde", |b| {
        b.iter(|| fabric::io::parse_channel(black_box(&text), "dde.txt"))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(2));
    targets = channel_benches
}
criterion_main!(benches);
