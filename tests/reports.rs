//! The typed reports: the shipped JSON Schemas equal the ones generated from
//! the types, every job's report conforms to its schema, YAML and JSON of
//! the same run carry the same data with no ragged records, the examples in
//! docs/formats.md are real output, and `fabric verify` reads routing
//! reports back in either format. To rewrite `docs/schema/` and the
//! examples after a deliberate change:
//!
//! `FABRIC_SCHEMA=update cargo test --release --test reports`

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use fabric::report::model::schemas;

mod common;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn updating() -> bool {
    std::env::var("FABRIC_SCHEMA").as_deref() == Ok("update")
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-reports-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `fabric ARGS`, run from the repository's root.
fn fabric(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fabric"));
    cmd.current_dir(root()).args(args);
    cmd
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("the fabric binary runs")
}

#[test]
fn shipped_schemas_equal_the_generated_ones() {
    let dir = root().join("docs/schema");
    let generated = schemas();
    for (name, text) in &generated {
        let path = dir.join(name);
        if updating() {
            std::fs::write(&path, text).unwrap();
            continue;
        }
        let shipped = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            &shipped == text,
            "{} differs from the schema of the types; regenerate with \
             FABRIC_SCHEMA=update cargo test --release --test reports",
            path.display()
        );
    }
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected: Vec<String> = generated.into_iter().map(|(n, _)| n).collect();
    expected.sort();
    assert_eq!(
        names, expected,
        "docs/schema/ holds exactly the generated schemas"
    );
}

/// Every list of mappings in `v` has the same keys in every record.
fn assert_not_ragged(v: &serde_json::Value, at: &str) {
    match v {
        serde_json::Value::Array(items) => {
            let keys = |x: &serde_json::Value| {
                x.as_object().map(|o| o.keys().cloned().collect::<Vec<_>>())
            };
            if let Some(first) = items.first().and_then(keys) {
                for (k, item) in items.iter().enumerate() {
                    // Records tagged by `kind` may differ by variant.
                    if item.get("kind").is_none() {
                        assert_eq!(keys(item).as_ref(), Some(&first), "{at}[{k}] is ragged");
                    }
                }
            }
            for (k, item) in items.iter().enumerate() {
                assert_not_ragged(item, &format!("{at}[{k}]"));
            }
        }
        serde_json::Value::Object(map) => {
            for (key, item) in map {
                assert_not_ragged(item, &format!("{at}.{key}"));
            }
        }
        _ => {}
    }
}

/// The `schema_version` the shipped schema of `schema` pins.
fn shipped_version(schema: &str) -> serde_json::Value {
    let path = root().join(format!("docs/schema/{schema}.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap();
    let shipped: serde_json::Value = serde_json::from_str(&text).unwrap();
    let version = shipped["properties"]["schema_version"]["const"].clone();
    assert!(version.is_u64(), "{} pins no version", path.display());
    version
}

/// One job of every report kind, with its schema and exit code.
const JOBS: &[(&str, &[&str], i32)] = &[
    (
        "fabric.analysis",
        &["analyze", "benchmarks/channels/dde.txt"],
        0,
    ),
    (
        "fabric.analysis",
        &["analyze", "benchmarks/channels/yk_textbook12.txt"],
        0,
    ),
    (
        "fabric.route",
        &["route", "benchmarks/channels/dde.txt", "--layers", "4"],
        0,
    ),
    (
        "fabric.route",
        &[
            "route",
            "benchmarks/channels/burstein.txt",
            "--layers",
            "3",
            "--extra-b-layers",
            "1",
        ],
        0,
    ),
    (
        "fabric.route",
        &[
            "route",
            "benchmarks/channels/yk_textbook12.txt",
            "--layers",
            "3",
            "--exact",
            "--time-limit",
            "20",
        ],
        0,
    ),
    (
        "fabric.route",
        &["route", "docs/examples/small.txt", "--router", "yacr"],
        0,
    ),
    (
        "fabric.separation",
        &["separation", "docs/examples/stair.txt"],
        0,
    ),
    (
        "fabric.switchbox",
        &["switchbox", "benchmarks/switchboxes/small.txt"],
        0,
    ),
    (
        "fabric.switchbox",
        &["switchbox", "benchmarks/switchboxes/tight.txt"],
        1,
    ),
    (
        "fabric.simulate.fat_tree",
        &[
            "simulate", "fat-tree", "--size", "16", "--rate", "1,2", "--trials", "2",
        ],
        0,
    ),
    (
        "fabric.simulate.fat_tree",
        &[
            "simulate",
            "fat-tree",
            "--algorithm",
            "greedy",
            "--traffic",
            "greedy-adversary",
            "--size",
            "64",
            "--rate",
            "12",
            "--trials",
            "1",
        ],
        0,
    ),
    (
        "fabric.simulate.fat_tree",
        &[
            "simulate",
            "fat-tree",
            "--algorithm",
            "butterfly-fat-tree",
            "--traffic",
            "local",
            "--subtree",
            "4",
            "--size",
            "16",
            "--trials",
            "2",
        ],
        0,
    ),
    (
        "fabric.simulate.wire_delay",
        &[
            "simulate",
            "wire-delay",
            "--network",
            "fat-pyramid,htree",
            "--size",
            "16",
            "--delay",
            "linear",
            "--trials",
            "1",
        ],
        0,
    ),
    (
        "fabric.universality",
        &[
            "universality",
            "--area",
            "4096",
            "--measure-pyramid",
            "always",
        ],
        0,
    ),
    (
        "fabric.universality",
        &["universality", "--area", "4096", "--dims", "3"],
        0,
    ),
    ("fabric.fsm", &["fsm", "benchmarks/fsm/f16_k2.kiss2"], 0),
    ("fabric.fsm", &["fsm", "benchmarks/fsm/ends_01.kiss2"], 0),
    ("fabric.layout", &["layout", "htree", "--size", "16"], 0),
    (
        "fabric.layout",
        &["layout", "tree-of-meshes-3d", "--size", "2"],
        0,
    ),
    ("fabric.sweep", &["layout", "htree", "--sweep"], 0),
    (
        "fabric.simulate.mesh",
        &[
            "simulate",
            "mesh",
            "--algorithm",
            "nowrap,wrap",
            "--size",
            "16",
            "--k",
            "2",
            "--trials",
            "2",
        ],
        0,
    ),
    (
        "fabric.simulate.mesh",
        &[
            "simulate",
            "mesh",
            "--algorithm",
            "local-unknown",
            "--topology",
            "torus",
            "--traffic",
            "local",
            "--locality",
            "2",
            "--size",
            "16",
            "--k",
            "4",
            "--trials",
            "2",
        ],
        0,
    ),
    (
        "fabric.simulate.bay_bilardi",
        &[
            "simulate",
            "pruned-butterfly",
            "--traffic",
            "nbr,random-perm",
            "--size",
            "64",
            "--trials",
            "2",
        ],
        0,
    ),
    (
        "fabric.simulate.bay_bilardi",
        &[
            "simulate",
            "sorting-fat-tree",
            "--traffic",
            "random-perm",
            "--size",
            "256",
            "--trials",
            "1",
        ],
        0,
    ),
    (
        "fabric.simulate.open_loop",
        &[
            "simulate",
            "open-loop",
            "--topology",
            "mesh,fat-tree",
            "--size",
            "16",
            "--rates",
            "0.05,0.2",
            "--measure",
            "500",
            "--saturation",
            "skip",
        ],
        0,
    ),
    (
        "fabric.simulate.open_loop",
        &[
            "simulate",
            "open-loop",
            "--topology",
            "torus",
            "--size",
            "16",
            "--links",
            "layout",
            "--rates",
            "0.1",
            "--warmup",
            "200",
            "--measure",
            "500",
            "--drain",
            "2000",
        ],
        0,
    ),
    (
        "fabric.simulate.wormhole",
        &[
            "simulate",
            "wormhole",
            "--scheme",
            "store,worm",
            "--traffic",
            "random,many-to-one",
            "--size",
            "16,64",
            "--flits",
            "8",
            "--runs",
            "3",
        ],
        0,
    ),
    (
        "fabric.simulate.wormhole",
        &[
            "simulate",
            "wormhole",
            "--scheme",
            "univ,split",
            "--path",
            "fp",
            "--scan",
            "ff",
            "--priorities",
            "lg",
            "--size",
            "16",
            "--runs",
            "2",
        ],
        0,
    ),
    (
        "fabric.simulate.butterfly",
        &[
            "simulate",
            "butterfly",
            "--size",
            "16,64",
            "--queue",
            "1,2",
            "--trials",
            "2",
        ],
        0,
    ),
    (
        "fabric.simulate.butterfly",
        &[
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
        ],
        0,
    ),
    (
        "fabric.simulate.butterfly",
        &[
            "simulate",
            "butterfly",
            "--model",
            "c",
            "--scheme",
            "koch-random",
            "--size",
            "64",
            "--trials",
            "20",
        ],
        0,
    ),
    (
        "fabric.simulate.butterfly",
        &[
            "simulate",
            "butterfly",
            "--routing",
            "two-phase",
            "--size",
            "64",
            "--trials",
            "2",
        ],
        0,
    ),
    (
        "fabric.sweep",
        &["layout", "torus", "--sweep", "--dims", "2"],
        0,
    ),
];

/// A CSV field as the JSON value it stands for: empty is `null`.
fn csv_field(field: &str) -> serde_json::Value {
    if field.is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::from_str(field).unwrap_or_else(|_| field.into())
    }
}

#[test]
fn csv_of_a_sweep_is_its_sizes_table_and_other_reports_refuse_it() {
    let dir = scratch("csv");
    let (json, csv) = (dir.join("s.json"), dir.join("s.csv"));
    let sweep = ["layout", "fat-tree", "--sweep"];
    let o = run(fabric(&sweep)
        .arg("-o")
        .arg(&json)
        .args(["--format", "json"]));
    assert!(o.status.success(), "{o:?}");
    let o = run(fabric(&sweep).arg("-o").arg(&csv).args(["--format", "csv"]));
    assert!(o.status.success(), "{o:?}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let sizes = report["sizes"].as_array().unwrap();
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let keys: Vec<&str> = sizes[0]
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    let mut sorted = header.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, keys, "the header names the record's keys");
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), sizes.len());
    for (row, size) in rows.iter().zip(sizes) {
        for (field, key) in row.split(',').zip(&header) {
            assert_eq!(csv_field(field), size[key], "{key} in {row}");
        }
    }
    // Reports without a table: a usage error before any work, no file.
    let out = dir.join("r.csv");
    let o = run(
        fabric(&["route", "benchmarks/channels/dde.txt", "--format", "csv"])
            .arg("-o")
            .arg(&out),
    );
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("--format csv applies to"));
    assert!(!out.exists());
    let o = run(
        fabric(&["layout", "htree", "--size", "16", "--format", "csv"])
            .arg("-o")
            .arg(&out),
    );
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("a fabric.layout report has none"));
    assert!(!out.exists());
}

/// The value a CSV column names in a record: the key itself, or a key
/// `A_B` naming `B` of the record's mapping `A` (a flattened field).
fn column<'a>(record: &'a serde_json::Value, key: &str) -> Option<&'a serde_json::Value> {
    if let Some(v) = record.get(key) {
        return Some(v);
    }
    key.match_indices('_').find_map(|(k, _)| {
        let inner = record.get(&key[..k])?;
        if inner.is_null() {
            return Some(inner);
        }
        column(inner, &key[k + 1..])
    })
}

/// A job's report as JSON and as CSV: the CSV has one row per record of
/// its table and each field is the record's value (nested fields
/// flattened to `parent_child` columns).
fn check_csv(
    args: &[&str],
    dir: &Path,
    records: impl Fn(&serde_json::Value) -> Vec<serde_json::Value>,
) {
    let (json, csv) = (dir.join("t.json"), dir.join("t.csv"));
    let o = run(fabric(args).arg("-o").arg(&json).args(["--format", "json"]));
    assert!(o.status.success(), "{args:?}: {o:?}");
    let o = run(fabric(args).arg("-o").arg(&csv).args(["--format", "csv"]));
    assert!(o.status.success(), "{args:?}: {o:?}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let records = records(&report);
    assert!(!records.is_empty(), "{args:?}");
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), records.len(), "{args:?}: one row per record");
    for (row, record) in rows.iter().zip(&records) {
        for (field, key) in row.iter().zip(&header) {
            let want = column(record, key).unwrap_or_else(|| panic!("{args:?}: column {key}"));
            let got = csv_field(field);
            match (got.as_f64(), want.as_f64()) {
                (Some(a), Some(b)) => assert!((a - b).abs() <= 1e-12 * b.abs(), "{key}: {a} {b}"),
                _ => assert_eq!(&got, want, "{args:?}: {key}"),
            }
        }
    }
}

#[test]
fn csv_of_the_simulation_and_machine_reports_is_their_table() {
    let dir = scratch("csv-tables");
    check_csv(
        &[
            "simulate", "fat-tree", "--size", "16", "--rate", "1,2", "--trials", "3",
        ],
        &dir,
        |r| {
            let mut out = Vec::new();
            for run in r["runs"].as_array().unwrap() {
                for t in run["per_trial"].as_array().unwrap() {
                    let mut t = t.clone();
                    t["rate"] = run["rate"].clone();
                    out.push(t);
                }
            }
            out
        },
    );
    let cells = |r: &serde_json::Value| r["cells"].as_array().unwrap().clone();
    check_csv(
        &[
            "simulate",
            "wire-delay",
            "--network",
            "fat-pyramid,htree",
            "--size",
            "16",
            "--delay",
            "linear",
            "--trials",
            "2",
        ],
        &dir,
        cells,
    );
    check_csv(
        &[
            "universality",
            "--area",
            "4096",
            "--measure-pyramid",
            "never",
        ],
        &dir,
        |r| r["claims"].as_array().unwrap().clone(),
    );
    check_csv(&["fsm", "benchmarks/fsm/traffic.kiss2"], &dir, |r| {
        r["realisations"].as_array().unwrap().clone()
    });
}

/// Simulations with a table: the job and the key of its table (`a.b`:
/// the lists `b` of every record of `a`, in order).
const SIMULATION_TABLES: &[(&[&str], &str)] = &[
    (
        &[
            "simulate",
            "butterfly",
            "--size",
            "16,64",
            "--queue",
            "1,2",
            "--trials",
            "2",
        ],
        "cells",
    ),
    (
        &[
            "simulate",
            "wormhole",
            "--scheme",
            "store,worm",
            "--traffic",
            "random,many-to-one",
            "--size",
            "16,64",
            "--flits",
            "8",
            "--runs",
            "3",
        ],
        "cells",
    ),
    (
        &[
            "simulate",
            "mesh",
            "--algorithm",
            "nowrap,wrap",
            "--size",
            "16",
            "--k",
            "2",
            "--trials",
            "2",
        ],
        "cells",
    ),
    (
        &[
            "simulate",
            "pruned-butterfly",
            "--traffic",
            "nbr,random-perm",
            "--size",
            "64",
            "--trials",
            "2",
        ],
        "cells",
    ),
    (
        &[
            "simulate",
            "open-loop",
            "--topology",
            "mesh,fat-tree",
            "--size",
            "16",
            "--rates",
            "0.05,0.2",
            "--measure",
            "500",
            "--saturation",
            "skip",
        ],
        "configs.points",
    ),
];

#[test]
fn csv_of_a_simulation_is_its_table_flattened() {
    let dir = scratch("sim-csv");
    for (k, (args, table)) in SIMULATION_TABLES.iter().enumerate() {
        let (json, csv) = (dir.join(format!("{k}.json")), dir.join(format!("{k}.csv")));
        let o = run(fabric(args).arg("-o").arg(&json).args(["--format", "json"]));
        assert!(o.status.success(), "{args:?}: {o:?}");
        let o = run(fabric(args).arg("-o").arg(&csv).args(["--format", "csv"]));
        assert!(o.status.success(), "{args:?} csv: {o:?}");
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let records: Vec<&serde_json::Value> = match table.split_once('.') {
            Some((outer, inner)) => report[outer]
                .as_array()
                .expect("the outer list")
                .iter()
                .flat_map(|r| r[inner].as_array().expect("the table"))
                .collect(),
            None => report[*table]
                .as_array()
                .expect("the table")
                .iter()
                .collect(),
        };
        let mut reader = csv::Reader::from_path(&csv).unwrap();
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
        assert_eq!(rows.len(), records.len(), "{args:?}: one row per record");
        for (row, record) in rows.iter().zip(records) {
            assert_eq!(row.len(), header.len(), "{args:?}: a full row");
            let mut same = 0;
            for (field, key) in row.iter().zip(&header) {
                match record.get(key) {
                    Some(v) if !v.is_object() && !v.is_array() => {
                        assert_eq!(csv_field(field), *v, "{args:?}: {key}");
                        same += 1;
                    }
                    _ => {}
                }
            }
            assert!(same >= 3, "{args:?}: the columns name the record's keys");
        }
    }
}

#[test]
fn yaml_and_json_of_a_run_carry_the_same_data_and_conform() {
    let dir = scratch("formats");
    for (k, (schema, args, code)) in JOBS.iter().enumerate() {
        let yaml_path = dir.join(format!("{k}.yaml"));
        let json_path = dir.join(format!("{k}.json"));
        let o = run(fabric(args).arg("-o").arg(&yaml_path));
        assert_eq!(o.status.code(), Some(*code), "{args:?}: {:?}", o);
        let o = run(fabric(args)
            .arg("-o")
            .arg(&json_path)
            .args(["--format", "json"]));
        assert_eq!(o.status.code(), Some(*code), "{args:?} json: {:?}", o);
        let yaml_text = std::fs::read_to_string(&yaml_path).unwrap();
        let json_text = std::fs::read_to_string(&json_path).unwrap();
        assert!(yaml_text.starts_with("schema: fabric."), "{args:?}");
        assert!(
            json_text.starts_with("{\n  \"schema\": \"fabric."),
            "{args:?}"
        );
        let from_yaml = common::checked_report(&yaml_text);
        serde_json::from_str::<serde_json::Value>(&json_text).expect("valid JSON");
        // Read by the YAML parser (JSON is YAML): it parses every float
        // exactly, where serde_json's default parser may miss by an ulp.
        let from_json = common::checked_report(&json_text);
        common::validate(&from_json, schema);
        // serde_json's default number parser may miss the last bit of a
        // 17-digit float; the YAML parser reads JSON too and rounds
        // correctly, so the data are compared through it.
        let exact: serde_json::Value = serde_norway::from_str(&json_text).unwrap();
        assert_eq!(from_yaml, exact, "{args:?}: YAML and JSON differ");
        assert_eq!(from_json["schema"], *schema, "{args:?}");
        assert_eq!(
            from_json["schema_version"],
            shipped_version(schema),
            "{args:?}"
        );
        assert_eq!(from_json["fabric_version"], env!("CARGO_PKG_VERSION"));
        assert_not_ragged(&from_json, schema);
    }
}

#[test]
fn verify_reads_routing_reports_in_both_formats_and_refuses_others() {
    let dir = scratch("verify");
    let dde = "benchmarks/channels/dde.txt";
    for (name, format) in [("r.json", "json"), ("r.yaml", "yaml")] {
        let out = dir.join(name);
        let o = run(fabric(&["route", dde, "--layers", "4", "--format", format])
            .arg("-o")
            .arg(&out));
        assert!(o.status.success(), "{o:?}");
        let v = run(fabric(&["verify", "--strict", dde]).arg(&out));
        assert!(v.status.success(), "{name}: {v:?}");
    }
    // A report of another kind, and one of a newer version: exit 2.
    let sep = dir.join("sep.yaml");
    let o = run(fabric(&["separation", "docs/examples/stair.txt"])
        .arg("-o")
        .arg(&sep));
    assert!(o.status.success());
    let v = run(fabric(&["verify", dde]).arg(&sep));
    assert_eq!(v.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&v.stderr).contains("`fabric.separation` report"));
    let text = std::fs::read_to_string(dir.join("r.yaml")).unwrap();
    let newer = dir.join("newer.yaml");
    std::fs::write(
        &newer,
        text.replacen("schema_version: 3", "schema_version: 9", 1),
    )
    .unwrap();
    let v = run(fabric(&["verify", dde]).arg(&newer));
    assert_eq!(v.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&v.stderr).contains("schema version 9 is newer"));
}

/// The output a doc example stands for: the report of `fabric ARGS`, or
/// with `| key K` only its key K.
fn example_output(directive: &str, dir: &Path, k: usize) -> String {
    let (command, key) = match directive.split_once(" | key ") {
        Some((c, key)) => (c, Some(key.trim())),
        None => (directive, None),
    };
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    let out = dir.join(format!("example{k}.yaml"));
    let o = run(fabric(&args).arg("-o").arg(&out));
    assert!(out.exists(), "{directive}: no report written: {o:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    if !args.contains(&"csv") {
        common::checked_report(&text);
    }
    match key {
        None => text,
        Some(key) => {
            let value: serde_norway::Mapping = serde_norway::from_str(&text).unwrap();
            let mut only = serde_norway::Mapping::new();
            let k = serde_norway::Value::from(key);
            only.insert(k.clone(), value.get(&k).expect("the key").clone());
            serde_norway::to_string(&only).unwrap()
        }
    }
}

#[test]
fn formats_md_examples_are_real_output() {
    let path = root().join("docs/formats.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let dir = scratch("docs");
    let lines: Vec<&str> = doc.lines().collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    let mut checked = 0;
    while i < lines.len() {
        out.push(lines[i].to_string());
        let directive = lines[i]
            .strip_prefix("<!-- output of: ")
            .and_then(|l| l.strip_suffix(" -->"));
        let Some(directive) = directive else {
            i += 1;
            continue;
        };
        let fence = lines.get(i + 1).copied().unwrap_or_default();
        assert!(fence.starts_with("```"), "{directive}");
        let end = (i + 2..lines.len())
            .find(|&j| lines[j] == "```")
            .expect("a closed block");
        let shown = lines[i + 2..end].join("\n") + "\n";
        let real = example_output(directive, &dir, checked);
        checked += 1;
        if !updating() {
            assert!(
                shown == real,
                "docs/formats.md: the example of `{directive}` differs from the output:\n{real}\n\
                 (FABRIC_SCHEMA=update cargo test --release --test reports rewrites it)"
            );
        }
        out.push(fence.into());
        out.extend(real.lines().map(str::to_string));
        out.push("```".into());
        i = end + 1;
    }
    assert!(checked >= 5, "only {checked} examples checked");
    if updating() {
        std::fs::write(&path, out.join("\n") + "\n").unwrap();
    }
}

/// The routing report's `conventions` agree with `fabric verify
/// --reserved` on the same file: the against-direction count is the one it
/// refuses, per layer and in total, and the classic via count is at least
/// the stack count by the pins the horizontal layers enter.
#[test]
fn conventions_agree_with_the_reserved_verifier() {
    let dir = scratch("conventions");
    let path = dir.join("dde.json");
    let dde = "benchmarks/channels/dde.txt";
    let o = run(fabric(&["route", dde, "--format", "json", "-o"]).arg(&path));
    assert!(o.status.success(), "{o:?}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let c = &report["conventions"];
    let total = c["against_direction"].as_u64().unwrap();
    let per_layer: Vec<(u64, u64)> = c["against_direction_per_layer"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["layer"].as_u64().unwrap(),
                r["unit_edges"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(per_layer.iter().map(|r| r.1).sum::<u64>(), total);
    assert!(
        total > 0,
        "DDE's default routing has wires against direction"
    );
    let v = run(fabric(&["verify", dde, "--reserved"]).arg(&path));
    assert_eq!(v.status.code(), Some(1), "{v:?}");
    let said = String::from_utf8_lossy(&v.stdout);
    let layers: Vec<String> = per_layer
        .iter()
        .map(|(l, n)| format!("layer {l}: {n}"))
        .collect();
    let expected = format!(
        "{total} unit edge(s) against their layer's direction ({})",
        layers.join(", ")
    );
    assert!(said.contains(&expected), "{said}\nwanted: {expected}");
    let vias = report["metrics"]["vias"].as_u64().unwrap();
    let classic = c["classic_vias"].as_u64().unwrap();
    assert!(classic > vias, "pin stubs on layer 1 cost classic vias");
    assert!(
        classic - vias <= per_layer[0].1,
        "at most one per stub edge"
    );
}

/// `fabric verify-layout FILE`: its exit code, stdout and stderr.
fn verify_layout(file: &Path) -> (Option<i32>, String, String) {
    let o = run(fabric(&["verify-layout"]).arg(file));
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A layout written with CSV geometry (YAML or JSON) reads back with the
/// verdict and figures of the inline one; its files' bad rows, a missing
/// file and a cut-short file are named; a report without geometry and a
/// report of another kind are refused.
#[test]
fn csv_geometry_reads_back_as_the_inline_layout() {
    let dir = scratch("geometry");
    let args = ["layout", "fat-tree-3d", "--size", "64"];
    let inline = dir.join("inline.yaml");
    let o = run(fabric(&args).arg("-o").arg(&inline));
    assert!(o.status.success(), "{o:?}");
    let (code, said, _) = verify_layout(&inline);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("legal: fat-tree-3d with"), "{said}");
    let inline_report = common::checked_report(&std::fs::read_to_string(&inline).unwrap());
    for (name, format) in [("c.yaml", "yaml"), ("j.json", "json")] {
        let out = dir.join(name);
        let o =
            run(fabric(&args)
                .arg("-o")
                .arg(&out)
                .args(["--geometry", "csv", "--format", format]));
        assert!(o.status.success(), "{o:?}");
        let stem = name.split('.').next().unwrap();
        let (nodes, edges) = (
            format!("{stem}.nodes.csv.gz"),
            format!("{stem}.edges.csv.gz"),
        );
        assert!(dir.join(&nodes).exists() && dir.join(&edges).exists());
        let report = common::checked_report(&std::fs::read_to_string(&out).unwrap());
        assert_eq!(
            report["geometry"],
            serde_json::json!({"kind": "csv", "files": {"nodes": nodes, "edges": edges}, "nodes": null, "edges": null})
        );
        for key in [
            "network",
            "parameters",
            "dimensions",
            "metrics",
            "levels",
            "recurrence",
        ] {
            assert_eq!(report[key], inline_report[key], "{key}");
        }
        assert_eq!(
            verify_layout(&out),
            (Some(0), said.clone(), String::new()),
            "{name}"
        );
    }
    // The edges written plain, with a bad third row: that file and line.
    let edges_file = dir.join("c.edges.csv.gz");
    let mut rows = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(std::fs::File::open(&edges_file).unwrap()),
        &mut rows,
    )
    .unwrap();
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(lines[0], "id,from,to,path");
    let mut bad = lines.clone();
    bad[2] = "1,0,x,0 0 0;0 0 1";
    std::fs::write(&edges_file, bad.join("\n") + "\n").unwrap();
    let (code, _, err) = verify_layout(&dir.join("c.yaml"));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("c.edges.csv.gz:3:") && err.contains("to `x`"),
        "{err}"
    );
    // Cut short: the counts the report claims catch it.
    std::fs::write(&edges_file, lines[..lines.len() - 1].join("\n") + "\n").unwrap();
    let (code, out, _) = verify_layout(&dir.join("c.yaml"));
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("edges is"), "{out}");
    // Missing.
    std::fs::remove_file(&edges_file).unwrap();
    let (code, _, err) = verify_layout(&dir.join("c.yaml"));
    assert_eq!(code, Some(2));
    assert!(
        err.contains("c.edges.csv.gz") && err.contains("cannot read"),
        "{err}"
    );
    // No geometry; another report.
    let none = dir.join("none.yaml");
    let o = run(fabric(&args)
        .arg("-o")
        .arg(&none)
        .args(["--geometry", "none"]));
    assert!(o.status.success(), "{o:?}");
    let (code, _, err) = verify_layout(&none);
    assert_eq!(code, Some(2));
    assert!(err.contains("no geometry"), "{err}");
    let sweep = dir.join("sweep.json");
    let o = run(fabric(&["layout", "htree", "--sweep", "--format", "json", "-o"]).arg(&sweep));
    assert!(o.status.success(), "{o:?}");
    let (code, _, err) = verify_layout(&sweep);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("not a layout file") && err.contains("it is a `fabric.sweep` report"),
        "{err}"
    );
}

/// Without `--geometry`, a layout past the inline limit goes to CSV and
/// says so on stderr; one within it stays inline.
#[test]
fn large_layouts_switch_to_csv_geometry_and_say_so() {
    let dir = scratch("switch");
    let big = dir.join("big.yaml");
    let o = run(fabric(&["layout", "htree", "--size", "65536", "-o"]).arg(&big));
    assert!(o.status.success(), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("131070 edges are more than 100000"), "{err}");
    assert_eq!(fabric::cli::INLINE_EDGE_LIMIT, 100_000);
    let report = common::checked_report(&std::fs::read_to_string(&big).unwrap());
    assert_eq!(report["geometry"]["kind"], "csv");
    assert_eq!(report["metrics"]["edges"], 131070);
    let (code, said, _) = verify_layout(&big);
    assert_eq!(code, Some(0), "{said}");
    let small = dir.join("small.yaml");
    let o = run(fabric(&["layout", "htree", "--size", "16", "-o"]).arg(&small));
    assert!(o.status.success() && o.stderr.is_empty(), "{o:?}");
    assert!(!dir.join("small.nodes.csv.gz").exists());
    // --geometry without --output, or with --sweep: refused before work.
    for extra in [&["--size", "16"][..], &["--sweep", "-o", "x.yaml"][..]] {
        let o = run(fabric(&["layout", "htree", "--geometry", "csv"]).args(extra));
        assert_eq!(o.status.code(), Some(2), "{o:?}");
    }
}
