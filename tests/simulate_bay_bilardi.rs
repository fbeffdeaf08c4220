//! `fabric simulate pruned-butterfly` and `sorting-fat-tree` end to end:
//! the regression table, reports, refusals, determinism.

use std::process::Command;

mod common;

fn fabric() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fabric"))
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-bb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The N = 1024 regression sets through the command line: each cell's
/// λ and its stages' λ_T in the YAML as the regression table of
/// docs/simulation.md has them.
#[test]
fn the_regression_table_through_the_command_line() {
    let yaml = tmp("reg.yaml");
    let o = fabric()
        .args([
            "simulate",
            "pruned-butterfly",
            "--traffic",
            "nbr,xorhalf,bitrev,transpose,hot-spot",
        ])
        .args(["--size", "1024", "--trials", "1", "-o"])
        .arg(&yaml)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let doc = common::checked_report(&std::fs::read_to_string(&yaml).unwrap());
    assert_eq!(doc["schema"], "fabric.simulate.bay_bilardi");
    assert_eq!(doc["network"], "pruned_butterfly");
    let table: [(f64, [u64; 10], u64); 5] = [
        (1.0, [0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 0),
        (32.0, [16, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0),
        (16.0, [8, 2, 4, 1, 2, 0, 0, 0, 0, 0], 524),
        (16.0, [8, 2, 1, 1, 2, 0, 1, 0, 0, 0], 512),
        (511.5, [16, 8, 32, 4, 64, 2, 128, 1, 256, 1], 1878),
    ];
    let cells = doc["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 5);
    for (cell, (lambda, stages, sidetracks)) in cells.iter().zip(table) {
        assert_eq!(cell["lambda"]["mean"].as_f64(), Some(lambda));
        let routed = &cell["trials"][0]["routed"];
        assert_eq!(routed["kind"], "pruned_butterfly");
        let got: Vec<u64> = routed["stages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["max_lambda_t"].as_u64().unwrap())
            .collect();
        assert_eq!(got, stages);
        assert_eq!(routed["sidetracks"].as_u64(), Some(sidetracks));
    }
}

/// A sweep on the sorting fat-tree writes its YAML and chart, and the same
/// seed gives the same YAML byte for byte whatever the thread count.
#[test]
fn a_sweep_reports_and_repeats() {
    let svg = tmp("sft.svg");
    let run = |threads: &str, out: &std::path::Path| {
        let o = fabric()
            .env("RAYON_NUM_THREADS", threads)
            .args([
                "simulate",
                "sorting-fat-tree",
                "--traffic",
                "random-perm,random-kn,multi-scale",
            ])
            .args(["--size", "256,1024", "--trials", "3", "-o"])
            .arg(out)
            .arg("--plot")
            .arg(&svg)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let a = tmp("a.yaml");
    let text = run("1", &a);
    assert!(
        text.contains("AT²/gen") && text.contains("peak sorts"),
        "{text}"
    );
    let first = std::fs::read_to_string(&a).unwrap();
    let doc = common::checked_report(&first);
    assert_eq!(doc["network"], "sorting_fat_tree");
    let cells = doc["cells"].as_array().expect("cells");
    assert_eq!(cells.len(), 6);
    for c in cells {
        assert_eq!(c["setting"]["network"], "sorting_fat_tree");
        for t in c["trials"].as_array().expect("trials") {
            assert_eq!(t["routed"]["kind"], "sorting_fat_tree");
            assert!(
                t["time"].as_f64().unwrap() >= t["floor"].as_f64().unwrap(),
                "{t}"
            );
        }
    }
    let b = tmp("b.yaml");
    run("2", &b);
    assert_eq!(first, std::fs::read_to_string(&b).unwrap());
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
}

/// The CSV of a sorting fat-tree run names its cost model and gives the
/// fullest sorter as a fraction of its capacity, the padded count never
/// below the unpadded one; the pruned butterfly leaves those columns empty.
#[test]
fn csv_rows_carry_the_sorter_figures() {
    let rows = |network: &str, size: &str| {
        let csv = tmp(&format!("{network}.csv"));
        let o = fabric()
            .args(["simulate", network, "--traffic", "random-perm,bitrev"])
            .args(["--size", size, "--trials", "2", "--format", "csv", "-o"])
            .arg(&csv)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let mut reader = csv::Reader::from_path(&csv).unwrap();
        let header = reader.headers().unwrap().clone();
        let column = |name: &str| header.iter().position(|h| h == name).expect(name);
        let (model, full, padded) = (
            column("sft_model"),
            column("max_occupancy_over_capacity"),
            column("max_padded_occupancy_over_capacity"),
        );
        let rows: Vec<(String, String, String)> = reader
            .records()
            .map(|r| {
                let r = r.unwrap();
                (r[model].into(), r[full].into(), r[padded].into())
            })
            .collect();
        assert_eq!(rows.len(), 2, "{network}: one row per cell");
        rows
    };
    for (model, full, padded) in rows("sorting-fat-tree", "256") {
        assert_eq!(model, "lean");
        let (full, padded): (f64, f64) = (full.parse().unwrap(), padded.parse().unwrap());
        assert!(
            full > 0.0 && full <= 1.0,
            "held within the capacity: {full}"
        );
        assert!(padded >= full, "padding adds cells: {padded} < {full}");
    }
    for row in rows("pruned-butterfly", "64") {
        assert_eq!(row, (String::new(), String::new(), String::new()));
    }
}

/// Sizes and sets a network cannot take are refused with exit 2 before
/// anything runs, and no output is written.
#[test]
fn refusals_exit_2_without_output() {
    let out = tmp("never.yaml");
    for args in [
        vec!["pruned-butterfly", "--size", "32"],
        vec!["sorting-fat-tree", "--size", "64"],
        vec!["sorting-fat-tree", "--size", "256", "--traffic", "hot-spot"],
        vec![
            "pruned-butterfly",
            "--size",
            "16",
            "--traffic",
            "mot-exp",
            "--eta",
            "8",
        ],
    ] {
        let o = fabric()
            .arg("simulate")
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
        assert!(!String::from_utf8_lossy(&o.stderr).is_empty());
        assert!(!out.exists(), "{args:?} wrote output");
    }
}

/// Wide bodies make words wider than a machine word; the sorters' time
/// model takes them.
#[test]
fn wide_bodies_route() {
    let o = fabric()
        .args([
            "simulate",
            "sorting-fat-tree",
            "--size",
            "256",
            "--body-bits",
            "1024",
            "--trials",
            "1",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = fabric()
        .args([
            "simulate",
            "pruned-butterfly",
            "--size",
            "65536",
            "--traffic",
            "multi-scale",
            "--lambda0",
            "100000",
        ])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "a set beyond the memory budget is refused"
    );
}
