//! Helpers shared by the integration tests (and the benches, by path).

#![allow(dead_code)]

use fabric::channel::problem::ChannelProblem;

/// The bundled channel benchmarks (benchmarks/channels/), by file stem.
pub const BUNDLED: [&str; 9] = [
    "burstein",
    "dde",
    "dde_zhou",
    "joobbani_6_16",
    "nycu_lab4_case1",
    "nycu_lab4_case2",
    "ptrdist_input1",
    "ptrdist_input2",
    "yk_textbook12",
];

/// A bundled channel benchmark, parsed and validated.
pub fn bundled(name: &str) -> ChannelProblem {
    let path = format!(
        "{}/benchmarks/channels/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("bundled benchmark");
    fabric::io::parse_channel(&text, &path).expect("valid benchmark")
}

/// Parse a report `fabric` wrote (YAML or JSON) and, when it names its
/// schema, validate it against the schema shipped in `docs/schema/`
/// (python3's `jsonschema`); the report as JSON.
pub fn checked_report(text: &str) -> serde_json::Value {
    let value: serde_json::Value = serde_norway::from_str(text).expect("a report parses");
    if let Some(schema) = value.get("schema").and_then(|s| s.as_str()) {
        validate(&value, schema);
    }
    value
}

/// Validate `value` against `docs/schema/SCHEMA.schema.json`; panics with
/// the validator's message when it does not conform.
pub fn validate(value: &serde_json::Value, schema: &str) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let path = format!(
        "{}/docs/schema/{schema}.schema.json",
        env!("CARGO_MANIFEST_DIR")
    );
    assert!(
        std::path::Path::new(&path).exists(),
        "no shipped schema {path}"
    );
    let script = "import json, sys, jsonschema\n\
        schema = json.load(open(sys.argv[1]))\n\
        jsonschema.validators.validator_for(schema).check_schema(schema)\n\
        jsonschema.validate(json.load(sys.stdin), schema)\n";
    let mut child = Command::new("python3")
        .args(["-c", script, &path])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs (with jsonschema: pip install jsonschema)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(value.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "a {schema} report fails its schema:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Unit edges against their layer's direction, the slow obvious way: every
/// unit step of every wire into a set, kept when its direction is not the
/// one its group's letter gives the layer.
pub fn against_slow(
    s: &fabric::channel::solution::ChannelSolution,
) -> std::collections::BTreeMap<u32, u64> {
    use std::collections::{BTreeMap, BTreeSet};
    let mut letter: BTreeMap<u32, char> = BTreeMap::new();
    for g in &s.groups {
        let name = g.kind.name();
        if ["HV", "VH", "HVH", "VHV"].contains(&name) {
            for (c, &l) in name.chars().zip(&g.layers) {
                letter.insert(l, c);
            }
        }
    }
    let mut edges: BTreeSet<(u32, fabric::geom::Point, fabric::geom::Point)> = BTreeSet::new();
    for wire in &s.wires {
        let Some(&c) = letter.get(&wire.layer) else {
            continue;
        };
        let pts: Vec<fabric::geom::Point> = wire.segment().points().collect();
        for p in pts.windows(2) {
            let (a, b) = if (p[0].x, p[0].y) < (p[1].x, p[1].y) {
                (p[0], p[1])
            } else {
                (p[1], p[0])
            };
            let horizontal = a.y == b.y;
            if (c == 'H') != horizontal {
                edges.insert((wire.layer, a, b));
            }
        }
    }
    let mut out: BTreeMap<u32, u64> = letter.keys().map(|&l| (l, 0)).collect();
    for (l, _, _) in edges {
        *out.get_mut(&l).unwrap() += 1;
    }
    out
}
