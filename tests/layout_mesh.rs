//! `fabric layout mesh|torus`: files that `fabric verify-layout` accepts as
//! the intended mesh or torus, the figures beside their closed forms, the
//! sweep, and the refusals (exit 2, nothing written).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

fn fabric() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fabric"))
}

/// A fresh scratch directory per test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-mesh-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("the fabric binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A report read back, validated against its schema when it names one.
fn yaml(path: &Path) -> serde_norway::Value {
    let text = std::fs::read_to_string(path).unwrap();
    common::checked_report(&text);
    serde_norway::from_str(&text).unwrap()
}

#[test]
fn a_torus_file_is_legal_and_realises_the_torus() {
    let dir = scratch("torus");
    let out = dir.join("t.yaml");
    let o = run(fabric()
        .args(["layout", "torus", "--size", "16", "-o"])
        .arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let stdout = text(&o.stdout);
    for want in [
        "torus (dims 2, side 16): 80 x 80, area 6400",
        "torus 16^2: 256 nodes, 512 links",
        "crossings = 4 (n - 1) (n - 2) = 840",
        "width 80 = 5n = 80, height 80 = 5n = 80",
        "longest wire 10 = 10",
        "total wire length 4672 = d n^(d-1) (10n - 14) = 4672",
    ] {
        assert!(stdout.contains(want), "{want}: {stdout}");
    }
    let y = yaml(&out);
    assert_eq!(y["network"].as_str(), Some("torus"));
    assert_eq!(y["parameters"]["side"].as_str(), Some("16"));
    assert_eq!(y["parameters"]["dims"].as_str(), Some("2"));
    assert_eq!(y["geometry"]["nodes"].as_sequence().unwrap().len(), 256);
    assert_eq!(y["geometry"]["edges"].as_sequence().unwrap().len(), 512);
    assert_eq!(y["metrics"]["max_wire_length"].as_u64(), Some(10));
    let v = run(fabric().arg("verify-layout").arg(&out));
    assert!(v.status.success(), "{}", text(&v.stdout));
    let said = text(&v.stdout);
    assert!(said.contains("realises the intended torus"), "{said}");
    assert!(
        said.contains("legal: torus with 256 nodes and 512 edges"),
        "{said}"
    );
    // The same drawing claiming to be the mesh, or another side, is not.
    let good = std::fs::read_to_string(&out).unwrap();
    let bad = dir.join("bad.yaml");
    for (from, to, want) in [
        ("network: torus", "network: mesh", "network: nodes"),
        ("  side: '16'", "  side: '15'", "network: 256 nodes"),
        ("  dims: '2'", "  dims: '4'", "1, 2 or 3 dimensions, not 4"),
    ] {
        std::fs::write(&bad, good.replacen(from, to, 1)).unwrap();
        let v = run(fabric().arg("verify-layout").arg(&bad));
        assert_eq!(v.status.code(), Some(1), "{to}: {}", text(&v.stdout));
        assert!(text(&v.stdout).contains(want), "{to}: {}", text(&v.stdout));
    }
}

#[test]
fn meshes_and_tori_of_every_dimension_round_trip() {
    let dir = scratch("round-trip");
    for (kind, n, dims, extents) in [
        ("mesh", "5", "1", "5 x 1, area 5"),
        ("mesh", "6", "2", "6 x 6, area 36"),
        ("mesh", "4", "3", "4 x 4 x 4, volume 64"),
        ("torus", "5", "1", "23 x 3, area 69"),
        ("torus", "3", "2", "14 x 14, area 196"),
        ("torus", "5", "3", "25 x 25 x 25, volume 15625"),
    ] {
        let (out, svg) = (dir.join("l.yaml"), dir.join("l.svg"));
        let o = run(fabric()
            .args(["layout", kind, "--size", n, "--dims", dims, "-o"])
            .arg(&out)
            .arg("--svg")
            .arg(&svg));
        assert!(o.status.success(), "{kind} {n} {dims}: {}", text(&o.stderr));
        assert!(
            text(&o.stdout).contains(extents),
            "{kind} {n} {dims}: {}",
            text(&o.stdout)
        );
        assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
        let want_dimensions = if dims == "3" { 3 } else { 2 };
        assert_eq!(yaml(&out)["dimensions"].as_u64(), Some(want_dimensions));
        let v = run(fabric().arg("verify-layout").arg(&out));
        assert!(v.status.success(), "{kind}: {}", text(&v.stdout));
        assert!(text(&v.stdout).contains(&format!("realises the intended {kind}")));
    }
}

#[test]
fn bad_dims_sides_and_kinds_are_refused_with_exit_2() {
    let dir = scratch("refusals");
    let out = dir.join("none.yaml");
    let cases: [(&[&str], &str); 9] = [
        (
            &["torus", "--size", "8", "--dims", "4"],
            "invalid value '4'",
        ),
        (&["mesh", "--size", "8", "--dims", "0"], "invalid value '0'"),
        (
            &["htree", "--size", "16", "--dims", "2"],
            "--dims applies to mesh and torus",
        ),
        (
            &["fat-tree", "--sweep", "--dims", "1"],
            "--dims applies to mesh and torus",
        ),
        (
            &["torus", "--size", "2"],
            "the torus side must be at least 3, not 2",
        ),
        (
            &["mesh", "--size", "1", "--dims", "3"],
            "the mesh side must be at least 2, not 1",
        ),
        (
            &["mesh", "--size", "8", "--levels", "2"],
            "--levels applies to trees of meshes",
        ),
        (
            &["torus", "--size", "130", "--dims", "3", "--memory", "64"],
            "a cube of side 650 is more than the checker's 268435456 grid points",
        ),
        (
            &["mesh", "--size", "100000"],
            "more than the budget of 16.00 GiB",
        ),
    ];
    for (args, want) in cases {
        let start = std::time::Instant::now();
        let o = run(fabric().arg("layout").args(args).arg("-o").arg(&out));
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote output");
        assert!(start.elapsed().as_secs() < 5, "{args:?}");
    }
}

#[test]
fn the_sweep_keeps_the_longest_torus_wire_constant() {
    let dir = scratch("sweep");
    let out = dir.join("sweep.yaml");
    let o = run(fabric()
        .args(["layout", "torus", "--sweep", "--dims", "3", "-o"])
        .arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("torus (d = 3)"),
        "{}",
        text(&o.stdout)
    );
    let y = yaml(&out);
    assert_eq!(y["network"].as_str(), Some("torus"));
    assert_eq!(y["dims"].as_u64(), Some(3));
    let sizes = y["sizes"].as_sequence().unwrap();
    let sides: Vec<u64> = sizes.iter().map(|s| s["n"].as_u64().unwrap()).collect();
    assert_eq!(sides, [3, 4, 8, 16, 32]);
    for s in sizes {
        assert_eq!(s["max_wire_length"].as_u64(), Some(10));
        assert_eq!(s["formula_max_wire_length"].as_u64(), Some(10));
        assert_eq!(s["side"], s["recurrence_side"]);
    }
    let e = y["fitted_exponent"]["max_wire_length"].as_f64().unwrap();
    assert!(e.abs() < 1e-9, "{e}");
    let a = y["fitted_exponent"]["area"].as_f64().unwrap();
    // (5n - 1)^3 at n = 3, (5n)^3 after: a little over 3.
    assert!((3.0..3.1).contains(&a), "{a}");
}
