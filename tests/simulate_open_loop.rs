//! `fabric simulate open-loop` end to end: zero-load latency on every
//! topology, accepted = offered below saturation, the 8 x 8 mesh's
//! saturation beside its channel-load bound for 1, 2 and 4 VCs,
//! determinism across thread counts, refusals.

use std::process::Command;

use fabric::report::model::open_loop::{read_open_loop, OpenLoopReport};
use fabric::sim::openloop::{PacketLength, UpLinks, WarmupMode, WarmupOutcome};

mod common;

fn fabric() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fabric"))
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-open-loop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn run(args: &[&str], out: &std::path::Path, threads: &str) -> OpenLoopReport {
    let o = fabric()
        .env("RAYON_NUM_THREADS", threads)
        .args(["simulate", "open-loop"])
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(out).unwrap();
    common::checked_report(&text);
    read_open_loop(&text).unwrap()
}

/// At a low rate the average network latency is the analytic zero-load
/// latency within 1 % on every topology, unit and layout links; the
/// accepted rate equals the offered one.
#[test]
fn zero_load_latency_on_every_topology() {
    let out = tmp("zero.yaml");
    let r = run(
        &[
            "--topology",
            "mesh,torus,fat-tree,butterfly-fat-tree,butterfly,fat-pyramid,pruned-butterfly",
            "--size",
            "16",
            "--links",
            "unit,layout",
            "--delay",
            "sqrt",
            "--vc-depth",
            "16",
            "--rates",
            "0.005",
            "--measure",
            "20000",
            "--saturation",
            "skip",
        ],
        &out,
        "2",
    );
    assert_eq!(r.configs.len(), 14);
    for c in &r.configs {
        let p = &c.points[0];
        assert!(
            p.drained && p.delivered == p.measured && p.measured > 50,
            "{}",
            c.label
        );
        let err = (p.network_latency.avg - c.zero_load_latency).abs() / c.zero_load_latency;
        // The sample's own pairs differ from the pattern's mean a little;
        // contention at this rate adds a little more.
        assert!(
            err < 0.03,
            "{}: {} vs {}",
            c.label,
            p.network_latency.avg,
            c.zero_load_latency
        );
        assert!(!p.saturated);
    }
    let unit_mesh = &r.configs[0];
    assert_eq!(unit_mesh.link_latency.max, 1.0);
    assert!(
        r.configs.iter().any(|c| c.link_latency.max > 1.0),
        "layout links are longer"
    );
}

/// The 8 x 8 mesh under uniform traffic: saturation found below the
/// channel-load bound 0.5 for 1, 2 and 4 VCs, more VCs no worse; below
/// saturation accepted = offered.
#[test]
fn mesh_saturation_beside_the_bound() {
    let out = tmp("sat.yaml");
    let r = run(
        &[
            "--vcs",
            "1,2,4",
            "--rates",
            "0.1,0.2",
            "--warmup",
            "500",
            "--measure",
            "3000",
            "--drain",
            "6000",
        ],
        &out,
        "2",
    );
    let mut last = 0.0;
    for c in &r.configs {
        assert!((c.channel_load_bound - 0.5).abs() < 1e-9);
        let s = c.saturation.expect("searched");
        assert!(
            s.below < s.above && s.above <= 0.5 + 1e-9,
            "{}: {s:?}",
            c.label
        );
        assert!(
            s.fraction_of_bound > 0.3 && s.fraction_of_bound < 1.0,
            "{}",
            c.label
        );
        assert!(
            s.below >= last - 0.03,
            "{}: {} after {last}",
            c.label,
            s.below
        );
        last = s.below;
        for p in &c.points {
            let sigma = 4.0 * (p.offered * 64.0 * 3000.0 * 4.0).sqrt() / (64.0 * 3000.0);
            assert!(
                (p.accepted - p.offered).abs() < sigma + 0.002,
                "{}: {p:?}",
                c.label
            );
        }
    }
}

/// The same seed gives the same YAML byte for byte on 1 and 2 threads;
/// the chart overlays a compared report.
#[test]
fn the_same_seed_repeats_and_compare_overlays() {
    let (a, b) = (tmp("a.yaml"), tmp("b.yaml"));
    let args = [
        "--topology",
        "torus,butterfly-fat-tree",
        "--size",
        "16",
        "--rates",
        "0.1:0.3:0.1",
        "--measure",
        "1500",
        "--up-links",
        "adaptive",
        "--packet-length",
        "uniform",
        "--warmup-mode",
        "converge",
    ];
    let r = run(&args, &a, "1");
    run(&args, &b, "2");
    for c in &r.configs {
        assert_eq!(c.up_links, UpLinks::Adaptive);
        assert_eq!(c.packet_length, PacketLength::Uniform);
        assert_eq!(c.phases.warmup_mode, WarmupMode::Converge);
        for p in &c.points {
            let cycles = p.warmup_cycles.expect("recorded");
            assert!(cycles <= 1000, "{}: {cycles}", c.label);
            assert_ne!(p.warmup, WarmupOutcome::Fixed);
        }
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let svg = tmp("c.svg");
    let o = fabric()
        .args([
            "simulate",
            "open-loop",
            "--topology",
            "mesh,torus",
            "--size",
            "16",
            "--rates",
            "0.1",
            "--saturation",
            "skip",
            "--compare",
        ])
        .arg(&a)
        .arg("--plot")
        .arg(&svg)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let chart = std::fs::read_to_string(&svg).unwrap();
    // The two tori differ only by up-links, packet lengths and rates: the
    // legend names the first two (the settings that define a curve).
    let legend: Vec<&str> = chart
        .split("</text>")
        .filter_map(|t| t.rsplit('>').next())
        .filter(|t| t.contains("links, "))
        .collect();
    assert_eq!(legend.len(), 4, "{legend:?}");
    for (i, l) in legend.iter().enumerate() {
        assert!(!legend[..i].contains(l), "{l} twice in {legend:?}");
    }
    for label in [
        "torus, unit links, 2 VCs, fixed lengths, random up-links",
        "torus, unit links, 2 VCs, uniform lengths, adaptive up-links",
        "mesh, unit links",
        "butterfly-fat-tree, unit links",
    ] {
        assert!(chart.contains(label), "{label} in {legend:?}");
    }
}

/// Bad input: exit 2, a clear message, no output written.
#[test]
fn refusals_exit_2_without_output() {
    for args in [
        vec!["--topology", "mesh", "--size", "60"],
        vec!["--topology", "torus", "--vcs", "1"],
        vec!["--rates", "0.5:0.1:0.1"],
        vec!["--rates", "1.5"],
        vec!["--traffic", "bit-reversal", "--size", "36"],
        vec!["--flow-control", "virtual-cut-through", "--vc-depth", "2"],
        vec![
            "--flow-control",
            "virtual-cut-through",
            "--packet-length",
            "bimodal",
            "--vc-depth",
            "4",
        ],
        vec!["--topology", "butterfly", "--size", "24"],
        vec!["--topology", "pruned-butterfly", "--size", "32"],
        vec!["--warmup-mode", "converge", "--warmup-window", "0"],
    ] {
        let out = tmp("bad.yaml");
        let _ = std::fs::remove_file(&out);
        let o = fabric()
            .args(["simulate", "open-loop"])
            .args(&args)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!String::from_utf8_lossy(&o.stderr).trim().is_empty());
        assert!(!out.exists(), "{args:?}");
    }
    // --compare reads open-loop reports only, by their header.
    let other = tmp("other.yaml");
    let o = fabric()
        .args([
            "simulate",
            "butterfly",
            "--size",
            "16",
            "--trials",
            "1",
            "-o",
        ])
        .arg(&other)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = fabric()
        .args(["simulate", "open-loop", "--size", "16", "--compare"])
        .arg(&other)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("not a `fabric.simulate.open_loop` report"),
        "{err}"
    );
}
