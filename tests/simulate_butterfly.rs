//! End-to-end tests of `fabric simulate butterfly`: the report parsed back,
//! byte-identical reruns, and bad parameters refused with exit 2 before
//! any work and without output.

use std::path::PathBuf;
use std::process::{Command, Output};

mod common;

fn fabric(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args(args)
        .output()
        .expect("the fabric binary runs")
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-bfly-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// A report written by the command, validated against its schema.
fn report(bytes: &[u8]) -> serde_json::Value {
    common::checked_report(std::str::from_utf8(bytes).expect("a UTF-8 report"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A sweep writes one cell per size and queue size with its bound; the
/// same seed gives byte-identical YAML; the adversary's replay is
/// identical and T >= LB.
#[test]
fn sweeps_report_each_cell_beside_its_bound() {
    let dir = scratch("sweep");
    let (a, b, svg) = (dir.join("a.yaml"), dir.join("b.yaml"), dir.join("e1.svg"));
    for out in [&a, &b] {
        let o = fabric(&[
            "simulate",
            "butterfly",
            "--size",
            "64,256",
            "--queue",
            "1,2",
            "--trials",
            "4",
            "--seed",
            "5",
            "-o",
            out.to_str().unwrap(),
            "--plot",
            svg.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(text(&o.stdout).contains("Thm 2.1"));
    }
    let (ya, yb) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(ya, yb, "the same seed must give the same report");
    let y = report(&ya);
    let cells = y["cells"].as_array().expect("cells");
    assert_eq!(cells.len(), 4);
    for c in cells {
        assert_eq!(c["verdict"].as_str(), Some("holds"));
        let ratio = c["delay_tree_worst_ratio"].as_f64().expect("checked");
        assert!(ratio > 0.0 && ratio <= 1.0);
        assert!(c["steps"]["min"].as_f64().unwrap() >= c["lg_rows"].as_f64().unwrap());
    }
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));

    let o = fabric(&[
        "simulate",
        "butterfly",
        "--model",
        "t",
        "--traffic",
        "adversary",
        "--size",
        "4096",
        "--queue",
        "2",
        "--trials",
        "1",
        "-o",
        a.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let y = report(&std::fs::read(&a).unwrap());
    let c = &y["cells"][0];
    assert_eq!(c["replay"].as_str(), Some("identical"));
    assert_eq!(c["bound"]["adversary"]["bound"].as_u64(), Some(80));
    assert_eq!(c["steps"]["max"].as_f64(), Some(115.0));
}

/// Bad parameters: exit 2, a message naming the problem, no output file.
#[test]
fn bad_parameters_are_refused_before_work() {
    let dir = scratch("bad");
    let out = dir.join("r.yaml");
    let o_path = out.to_str().unwrap();
    let cases: [(&[&str], &str); 6] = [
        (&["--size", "100"], "power of 2"),
        (&["--size", "64", "--queue", "0"], "q >= 1"),
        (&["--size", "128", "--traffic", "transpose"], "even"),
        (&["--size", "64", "--traffic", "adversary"], "model T"),
        (
            &["--size", "16", "--model", "t", "--traffic", "adversary"],
            "too small",
        ),
        (&["--size", "1073741824", "--trials", "4"], "memory"),
    ];
    for (args, message) in cases {
        let mut all = vec!["simulate", "butterfly", "-o", o_path];
        all.extend_from_slice(args);
        let o = fabric(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains(message),
            "{args:?}: `{}` lacks `{message}`",
            text(&o.stderr)
        );
        assert!(!out.exists(), "{args:?} left an output");
    }
}

/// The step time comes from the layout's wires: with a layout file of
/// B(6) and linear delay, a step is 1 + 163 bit-times (its longest wire
/// is 5N/2 + 3), the same as the closed form without the file; a file
/// that disagrees with --size is refused.
#[test]
fn steps_take_their_time_from_the_layout() {
    let dir = scratch("layout");
    let (file, a, b) = (dir.join("b64.yaml"), dir.join("a.yaml"), dir.join("b.yaml"));
    let o = fabric(&[
        "layout",
        "butterfly",
        "--size",
        "64",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let common = [
        "simulate",
        "butterfly",
        "--queue",
        "2",
        "--delay",
        "linear",
        "--trials",
        "3",
    ];
    let mut with = common.to_vec();
    with.extend([
        "--layout",
        file.to_str().unwrap(),
        "-o",
        a.to_str().unwrap(),
    ]);
    let o = fabric(&with);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut without = common.to_vec();
    without.extend(["--size", "64", "-o", b.to_str().unwrap()]);
    let o = fabric(&without);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let ya = report(&std::fs::read(&a).unwrap());
    let yb = report(&std::fs::read(&b).unwrap());
    for y in [&ya, &yb] {
        let step = &y["cells"][0]["step"];
        assert_eq!(step["longest_wire"].as_u64(), Some(163));
        assert_eq!(step["bit_times_per_step"].as_f64(), Some(164.0));
    }
    let per_level = ya["cells"][0]["step"]["longest_wire_per_level"]
        .as_array()
        .expect("from the file");
    assert_eq!(per_level.len(), 6);
    assert_eq!(ya["cells"][0]["steps"], yb["cells"][0]["steps"]);
    let mut wrong = with.clone();
    wrong.extend(["--size", "128"]);
    let o = fabric(&wrong);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}

/// Models W, C and A through the CLI: the wave bound's floor holds, the
/// locking sweep matches the exact Koch value (the verdict judges it), and
/// a protocol is refused where the model has its own rule.
#[test]
fn waves_and_dropping_models_report_their_bounds() {
    let dir = scratch("wca");
    let out = dir.join("r.yaml");
    let o_path = out.to_str().unwrap();
    let o = fabric(&[
        "simulate",
        "butterfly",
        "--model",
        "w",
        "--packets",
        "6",
        "--size",
        "64",
        "--queue",
        "2,4",
        "--trials",
        "3",
        "-o",
        o_path,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let y = report(&std::fs::read(&out).unwrap());
    for c in y["cells"].as_array().unwrap() {
        assert_eq!(c["bound"]["k_plus_lg"].as_u64(), Some(12));
        assert!(c["steps"]["min"].as_f64().unwrap() >= (6 + 2 * 6 - 2) as f64);
        assert!(c["max_occupancy"].as_u64().unwrap() <= c["q"].as_u64().unwrap());
    }
    let o = fabric(&[
        "simulate",
        "butterfly",
        "--model",
        "c",
        "--scheme",
        "koch-random",
        "--size",
        "1024",
        "--queue",
        "1,2",
        "--trials",
        "60",
        "-o",
        o_path,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let y = report(&std::fs::read(&out).unwrap());
    for c in y["cells"].as_array().unwrap() {
        assert_eq!(c["verdict"].as_str(), Some("holds"));
        let exact = c["bound"]["exact"].as_f64().unwrap();
        let fraction = c["bound"]["summary"]["fraction"].as_f64().unwrap();
        assert!((exact - fraction).abs() < 0.02, "{exact} vs {fraction}");
    }
    let o = fabric(&[
        "simulate",
        "butterfly",
        "--model",
        "c",
        "--traffic",
        "identity",
        "--size",
        "256",
        "--queue",
        "1",
        "--trials",
        "2",
        "-o",
        o_path,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let y = report(&std::fs::read(&out).unwrap());
    assert_eq!(
        y["cells"][0]["bound"]["summary"]["fraction"].as_f64(),
        Some(1.0)
    );
    for (args, message) in [
        (&["--model", "w", "--protocol", "lifo"][..], "own rule"),
        (
            &[
                "--model",
                "c",
                "--scheme",
                "koch-random",
                "--traffic",
                "identity",
            ][..],
            "random destinations",
        ),
        (&["--model", "a", "--queue", "0"][..], "q >= 1"),
    ] {
        let _ = std::fs::remove_file(&out);
        let mut all = vec!["simulate", "butterfly", "--size", "64", "-o", o_path];
        all.extend_from_slice(args);
        let o = fabric(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains(message),
            "{args:?}: {}",
            text(&o.stderr)
        );
        assert!(!out.exists());
    }
}

/// Per-level link use: on the identity every packet goes straight on every
/// level, N per level, none across.
#[test]
fn link_use_is_reported_per_level() {
    let dir = scratch("links");
    let out = dir.join("r.yaml");
    let o = fabric(&[
        "simulate",
        "butterfly",
        "--traffic",
        "identity",
        "--size",
        "64",
        "--trials",
        "2",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let y = report(&std::fs::read(&out).unwrap());
    let levels = y["cells"][0]["link_use"].as_array().expect("recorded");
    assert_eq!(levels.len(), 6);
    for l in levels {
        assert_eq!(l[0].as_f64(), Some(64.0));
        assert_eq!(l[1].as_f64(), Some(0.0));
    }
}

/// Two-phase routing with and without the barrier on the same
/// intermediates: both report T_A and T_B, every trial takes at least
/// 2 lg N, and dropping the barrier saves time on bit-reversal.
#[test]
fn pipelined_two_phase_beats_the_barrier() {
    let dir = scratch("pipelined");
    let mut mean = Vec::new();
    for routing in ["two-phase", "two-phase-pipelined"] {
        let out = dir.join(format!("{routing}.yaml"));
        let o = fabric(&[
            "simulate",
            "butterfly",
            "--traffic",
            "bit-reversal",
            "--routing",
            routing,
            "--size",
            "1024",
            "--queue",
            "2",
            "--trials",
            "8",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let y = report(&std::fs::read(&out).unwrap());
        let c = &y["cells"][0];
        assert!(c["steps"]["min"].as_f64().unwrap() >= 20.0);
        let (a, b) = (&c["phases"][0], &c["phases"][1]);
        assert!(a["min"].as_f64().unwrap() >= 10.0 && b["mean"].as_f64().unwrap() > 0.0);
        mean.push(c["steps"]["mean"].as_f64().unwrap());
    }
    assert!(
        mean[1] < mean[0],
        "pipelined {} vs barrier {}",
        mean[1],
        mean[0]
    );
}
