//! `fabric simulate mesh` end to end: reports, refusals, determinism.

use std::process::Command;

mod common;

fn fabric() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fabric"))
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-mesh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A sweep writes its YAML and chart, prints T beside the bounds and the
/// leading term, and the same seed gives the same YAML byte for byte
/// whatever the thread count.
#[test]
fn a_sweep_reports_and_repeats() {
    let yaml = tmp("a.yaml");
    let svg = tmp("a.svg");
    let run = |threads: &str, out: &std::path::Path| {
        let o = fabric()
            .env("RAYON_NUM_THREADS", threads)
            .args([
                "simulate",
                "mesh",
                "--algorithm",
                "nowrap,wrap",
                "--topology",
                "mesh,torus",
            ])
            .args([
                "--size",
                "16,32",
                "--k",
                "1,4",
                "--traffic",
                "ls,random",
                "--trials",
                "2",
            ])
            .arg("-o")
            .arg(out)
            .arg("--plot")
            .arg(&svg)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let text = run("1", &yaml);
    assert!(text.contains("Thm 2") && text.contains("Thm 7"), "{text}");
    let first = std::fs::read_to_string(&yaml).unwrap();
    let report = common::checked_report(&first);
    assert_eq!(report["schema"], "fabric.simulate.mesh");
    let cells = report["cells"].as_array().expect("cells");
    assert_eq!(cells.len(), 2 * 2 * 2 * 2 * 2);
    for c in cells {
        let t = &c["t"];
        assert!(
            t["min"].as_f64().unwrap() <= t["max"].as_f64().unwrap(),
            "{c}"
        );
        let bound = c["bounds"]["distance"].as_u64().expect("a bound");
        assert!(t["min"].as_u64().unwrap() >= bound, "{c}");
    }
    let other = tmp("b.yaml");
    run("2", &other);
    assert_eq!(first, std::fs::read_to_string(&other).unwrap());
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
}

/// Impossible settings are refused with exit code 2 before any run, and
/// no output file appears.
#[test]
fn bad_settings_are_refused() {
    let out = tmp("refused.yaml");
    for args in [
        vec!["--traffic", "ls", "--size", "15"],
        vec!["--algorithm", "level", "--k", "3"],
        vec!["--algorithm", "level", "--dims", "3", "--k", "4"],
        vec!["--traffic", "local", "--locality", "40", "--size", "64"],
        vec!["--phases", "coalesced", "--smear", "auto"],
        vec!["--size", "1"],
        vec!["--experiment", "e2", "--size", "16"],
        vec!["--k", "4,4"],
    ] {
        let o = fabric()
            .args(["simulate", "mesh"])
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
        assert!(!out.exists(), "{args:?} wrote a file");
        assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
    }
}
