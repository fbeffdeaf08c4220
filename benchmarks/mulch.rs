//! MulCh benchmarks: the incremental density tree, the partitioner, and
//! whole MulCh routings, with a quality table printed first.
//!
//! Run with `cargo bench --bench mulch`. Before timing, a quality table
//! (summed up in benchmarks/README.md, "MulCh") is printed on stderr as
//! Markdown: for every
//! bundled instance and L = 2..8 the width, lower bound, vias and net length
//! with B layers and without (`--no-b-layers`), every routing verified, and
//! the geometric-mean change that B layers bring at each L.

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use fabric::channel::analysis::density;
use fabric::channel::density_tree::DensityTree;
use fabric::channel::routers::mulch::{route_mulch, selection, Context, SelectOptions};
use fabric::channel::verify::verify;
use rand::{Rng, SeedableRng};

#[path = "../tests/common/mod.rs"]
mod common;
use common::{bundled, BUNDLED};

fn no_b() -> SelectOptions {
    SelectOptions {
        no_b_layers: true,
        ..Default::default()
    }
}

fn quality_table() {
    eprintln!(
        "\n| instance | L | d | groups | bound | width | vias | length | no-B groups | no-B width | no-B vias | no-B length | time |"
    );
    eprintln!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    // Per L: log ratios (with B / without B) of width and vias.
    let mut logs: Vec<(u32, f64, f64, usize)> = (0..=8).map(|l| (l, 0.0, 0.0, 0)).collect();
    for name in BUNDLED {
        let p = bundled(name);
        let d = density(&p);
        for layers in 2..=8u32 {
            let start = Instant::now();
            let with =
                route_mulch(&p, layers, SelectOptions::default(), &mut |_| {}).expect("routable");
            let ms = start.elapsed().as_secs_f64() * 1e3;
            let without = route_mulch(&p, layers, no_b(), &mut |_| {}).expect("routable");
            for r in [&with, &without] {
                assert!(
                    verify(&p, &r.solution, Some(&r.solution.metrics(d))).is_legal_strict(),
                    "{name} L={layers}: illegal"
                );
            }
            let a = with.answer();
            let b = without.answer();
            assert!(a.metrics.width <= b.metrics.width);
            let bound = a.partition.config.width_lower_bound(d);
            eprintln!(
                "| {name} | {layers} | {d} | {} | {bound} | {} | {} | {} | {} | {} | {} | {} | {ms:.1} ms |",
                a.partition.config.describe(),
                a.metrics.width,
                a.metrics.vias,
                a.metrics.net_length,
                b.partition.config.describe(),
                b.metrics.width,
                b.metrics.vias,
                b.metrics.net_length
            );
            let e = &mut logs[layers as usize];
            e.1 += (a.metrics.width.max(1) as f64 / b.metrics.width.max(1) as f64).ln();
            e.2 += (a.metrics.vias.max(1) as f64 / b.metrics.vias.max(1) as f64).ln();
            e.3 += 1;
        }
    }
    eprintln!("\n| L | geometric-mean change of width | of vias |");
    eprintln!("|---|---|---|");
    for (l, w, v, k) in logs.into_iter().filter(|e| e.3 > 0) {
        eprintln!(
            "| {l} | {:+.1} % | {:+.1} % |",
            ((w / k as f64).exp() - 1.0) * 100.0,
            ((v / k as f64).exp() - 1.0) * 100.0
        );
    }
}

fn density_tree_benches(c: &mut Criterion) {
    // 10^6 mixed operations on 10^5 columns: insert a random span, and
    // remove a live one 40% of the time, reading the density after each.
    let columns = 100_000usize;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut ops: Vec<(bool, usize, usize)> = Vec::with_capacity(1_000_000);
    let mut live: Vec<(usize, usize)> = Vec::new();
    for _ in 0..1_000_000 {
        if !live.is_empty() && rng.gen_bool(0.4) {
            let k = rng.gen_range(0..live.len());
            let (a, b) = live.swap_remove(k);
            ops.push((false, a, b));
        } else {
            let a = rng.gen_range(0..columns);
            let b = (a + rng.gen_range(0..200)).min(columns - 1);
            live.push((a, b));
            ops.push((true, a, b));
        }
    }
    let mut group = c.benchmark_group("density-tree");
    group.sample_size(10);
    group.throughput(criterion::Throughput::Elements(ops.len() as u64));
    group.bench_function("1e6-mixed-ops/1e5-columns", |b| {
        b.iter(|| {
            let mut t = DensityTree::new(columns);
            let mut acc = 0u64;
            for &(insert, a, b) in &ops {
                if insert {
                    t.insert(a, b);
                } else {
                    t.remove(a, b);
                }
                acc += t.density() as u64;
            }
            black_box(acc)
        })
    });
    group.finish();
}

fn mulch_benches(c: &mut Criterion) {
    quality_table();
    let dde = bundled("dde");
    let mut group = c.benchmark_group("mulch");
    group.sample_size(10);
    for layers in [4u32, 7] {
        group.bench_with_input(BenchmarkId::new("route/dde", layers), &dde, |b, p| {
            b.iter(|| route_mulch(black_box(p), layers, SelectOptions::default(), &mut |_| {}))
        });
    }
    group.bench_function("partition/dde-L4", |b| {
        b.iter(|| {
            let ctx = Context::new(black_box(&dde));
            selection::select(&ctx, 4, SelectOptions::default())
        })
    });
    // The speed target is for the whole process: start, read,
    // partition, route both configurations, verify, write the report.
    let out = std::env::temp_dir().join(format!("fabric-bench-{}.yaml", std::process::id()));
    group.sample_size(60);
    group.bench_function("process/dde-L4", |b| {
        b.iter(|| {
            let status = std::process::Command::new(env!("CARGO_BIN_EXE_fabric"))
                .args([
                    "route",
                    "benchmarks/channels/dde.txt",
                    "--layers",
                    "4",
                    "--output",
                ])
                .arg(&out)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .expect("the fabric binary runs");
            assert!(status.success(), "fabric route failed: {status}");
        })
    });
    let _ = std::fs::remove_file(&out);
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(std::time::Duration::from_secs(3));
    targets = density_tree_benches, mulch_benches
}
criterion_main!(benches);
