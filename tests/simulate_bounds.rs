//! The bounds `fabric simulate fat-tree` holds its cycles against, through
//! the CLI: Theorem 8's forced cycles (held with fixed priority, below the
//! bound with rotating priority at n = 4^9), the shapes of Theorems 7 and
//! 9, and the `--r auto` warning.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-bounds-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `fabric simulate fat-tree ARGS -o out`: the output and the report,
/// checked against its schema.
fn simulate(args: &[&str], out: &Path) -> (Output, serde_json::Value) {
    let o = Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args(["simulate", "fat-tree"])
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .expect("the fabric binary runs");
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let y = common::checked_report(&std::fs::read_to_string(out).unwrap());
    (o, y)
}

fn greedy_adversary(policy: &str, size: &str) -> [String; 12] {
    [
        "--algorithm",
        "greedy",
        "--traffic",
        "greedy-adversary",
        "--policy",
        policy,
        "--size",
        size,
        "--rate",
        "12",
        "--trials",
        "1",
    ]
    .map(String::from)
}

fn words(a: &[String]) -> Vec<&str> {
    a.iter().map(String::as_str).collect()
}

#[test]
fn rotating_priority_below_theorem_8_is_flagged() {
    let dir = scratch("rotating");
    // n = 4^9: the bound is 12/6 + 12 * 18 / 12 = 20 cycles; rotating
    // priority delivers M_n in 19.
    let (o, y) = simulate(
        &words(&greedy_adversary("rotating", "262144")),
        &dir.join("r.yaml"),
    );
    assert_eq!(y["schema"].as_str(), Some("fabric.simulate.fat_tree"));
    assert_eq!(y["schema_version"].as_u64(), Some(2));
    let run = &y["runs"][0];
    let b = &run["bound"];
    assert_eq!(b["source"].as_str(), Some("theorem8"));
    assert_eq!(b["claim"].as_str(), Some("forced_at_least"));
    assert_eq!(b["value"]["min"].as_f64(), Some(20.0));
    let cycles = run["cycles"]["max"].as_f64().unwrap();
    assert!(cycles < 20.0, "{cycles}");
    assert_eq!(b["verdict"].as_str(), Some("below_the_bound"));
    assert_eq!(b["below_the_bound"].as_u64(), Some(1));
    assert_eq!(b["ratio"]["max"].as_f64(), Some(cycles / 20.0));
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(
        table.contains("at least 20 cycles; fewest measured 19: below the bound in 1 of 1 trials"),
        "{table}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fixed_priority_holds_theorem_8() {
    let dir = scratch("priority");
    // n = 4^6: bound 2 + 12 = 14; fixed priority takes lambda (1 + lg n / 6)
    // = 36.
    let (o, y) = simulate(
        &words(&greedy_adversary("priority", "4096")),
        &dir.join("p.yaml"),
    );
    let run = &y["runs"][0];
    let b = &run["bound"];
    assert_eq!(b["value"]["min"].as_f64(), Some(14.0));
    assert_eq!(run["cycles"]["min"].as_f64(), Some(36.0));
    assert_eq!(b["verdict"].as_str(), Some("held"));
    assert_eq!(b["below_the_bound"].as_u64(), Some(0));
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(
        table.contains("at least 14 cycles; fewest measured 36: held"),
        "{table}"
    );
    assert!(!table.contains("below the bound"), "{table}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shapes_report_a_ratio_and_no_verdict() {
    let dir = scratch("shapes");
    let (o, y) = simulate(
        &["--size", "256", "--rate", "2", "--trials", "2"],
        &dir.join("r.yaml"),
    );
    let b = &y["runs"][0]["bound"];
    assert_eq!(b["source"].as_str(), Some("theorem7"));
    assert_eq!(b["claim"].as_str(), Some("shape"));
    assert!(b["below_the_bound"].is_null());
    // cycles / (lambda + lg n lg lg n) with lg n = 8, lg lg n = 3.
    let cycles = y["runs"][0]["per_trial"][0]["cycles"].as_f64().unwrap();
    let lambda = y["runs"][0]["per_trial"][0]["lambda"].as_f64().unwrap();
    let want = cycles / (lambda + 24.0);
    let got = b["ratio"]["max"].as_f64().unwrap();
    assert!(got >= want - 1e-4, "{got} {want}");
    assert!(String::from_utf8_lossy(&o.stdout).contains("a shape, no constant"));
    // GREEDY on random traffic: the thesis states no bound.
    let (_, y) = simulate(
        &["--algorithm", "greedy", "--size", "64", "--rate", "2"],
        &dir.join("g.yaml"),
    );
    assert!(y["runs"][0]["bound"].is_null());
    assert!(y["runs"][0]["figure_3_3"].is_null());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn r_auto_with_default_k1_warns() {
    let dir = scratch("auto");
    let (o, y) = simulate(
        &[
            "--size", "16", "--rate", "1", "--trials", "1", "--r", "auto",
        ],
        &dir.join("a.yaml"),
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("warning: --r auto gives r = "), "{stderr}");
    let w = y["simulation"]["warnings"].as_array().unwrap();
    assert_eq!(w.len(), 1);
    assert!(w[0].as_str().unwrap().contains("k1/r"));
    // With k1 at r or above, no warning.
    let (o, y) = simulate(
        &["--size", "16", "--rate", "1", "--r", "auto", "--k1", "100"],
        &dir.join("b.yaml"),
    );
    assert!(!String::from_utf8_lossy(&o.stderr).contains("warning"));
    assert_eq!(
        y["simulation"]["warnings"].as_array().map(Vec::len),
        Some(0)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
