//! Physical output (`--gds`, `--oasis`, `--def`, `--lef`) read back by
//! KLayout's own readers (tests/klayout_dump.py, through the `klayout`
//! Python package) and held against fabric's own figures: shapes per
//! layer, bounding box, wire length and via count, and for DEF each net's
//! wiring and connectivity; the DEF also read back by fabric's reader and
//! verified. Without the klayout package these tests fail, saying so.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use fabric::channel::solution::ChannelSolution;
use fabric::layout::Embedding;
use serde_norway::Value;

const PITCH: i64 = 200;
const WIDTH: i64 = 100;
/// Node boxes reach (pitch + wire width) / 4 beyond their grid points.
const MARGIN: i64 = (PITCH + WIDTH) / 4;

fn fabric(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args(args)
        .output()
        .expect("run fabric");
    assert!(
        out.status.success(),
        "fabric {args:?} failed ({:?}):\n{}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn fabric_code(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args(args)
        .output()
        .expect("run fabric");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-physical-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn root() -> &'static str {
    env!("CARGO_MANIFEST_DIR")
}

/// Refuse to run without KLayout's Python package, saying what to install.
fn require_klayout() {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    let present = *PRESENT.get_or_init(|| {
        Command::new("python3")
            .args(["-c", "import klayout.db"])
            .output()
            .is_ok_and(|o| o.status.success())
    });
    assert!(
        present,
        "the klayout Python package is missing: `pip install klayout` (or \
         `pip install --break-system-packages klayout`; .ci/run installs it). \
         These tests read every physical output with KLayout's own readers."
    );
}

/// What KLayout reads in each file (with its LEF for a DEF), read in one
/// run of tests/klayout_dump.py.
fn klayout(files: &[(&Path, Option<&Path>)]) -> Vec<Value> {
    require_klayout();
    let script = format!("{}/tests/klayout_dump.py", root());
    let mut cmd = Command::new("python3");
    cmd.arg(script);
    for (file, lef) in files {
        cmd.arg(file);
        if let Some(lef) = lef {
            cmd.arg("--lef").arg(lef);
        }
    }
    let out = cmd.output().expect("run python3");
    assert!(
        out.status.success(),
        "klayout_dump.py {files:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_norway::from_slice(&out.stdout).expect("JSON from klayout_dump.py");
    let list = v.as_sequence().expect("a list").clone();
    assert_eq!(list.len(), files.len());
    list
}

fn int(v: &Value) -> i64 {
    v.as_i64()
        .unwrap_or_else(|| panic!("not an integer: {v:?}"))
}

fn bbox(v: &Value) -> [i64; 4] {
    let s = v.as_sequence().expect("a box");
    [int(&s[0]), int(&s[1]), int(&s[2]), int(&s[3])]
}

/// Shapes per layer `L/D` as KLayout counts them.
fn shapes(dump: &Value) -> BTreeMap<String, i64> {
    dump["layers"]
        .as_mapping()
        .expect("layers")
        .iter()
        .map(|(k, v)| (k.as_str().expect("name").to_string(), int(&v["shapes"])))
        .collect()
}

fn path_length(dump: &Value) -> i64 {
    dump["layers"]
        .as_mapping()
        .expect("layers")
        .values()
        .map(|v| int(&v["path_length"]))
        .sum()
}

// ---------------------------------------------------------------- channels

/// The bundled channel `benchmarks/channels/NAME.txt`.
fn bundled(name: &str) -> String {
    format!("{}/benchmarks/channels/{name}.txt", root())
}

/// Route the channel `problem` (named `name`) in `layers` layers with every
/// output; the solution as fabric wrote it, and the directory.
fn route(name: &str, problem: &str, layers: u32) -> (ChannelSolution, PathBuf) {
    let dir = scratch(&format!("{name}-{layers}"));
    let f = |ext: &str| dir.join(format!("{name}.{ext}"));
    let layers_text = layers.to_string();
    let out = fabric(&[
        "route",
        problem,
        "--layers",
        &layers_text,
        "-o",
        s(&f("yaml")),
        "--gds",
        s(&f("gds")),
        "--oasis",
        s(&f("oas")),
        "--def",
        s(&f("def")),
        "--lef",
        s(&f("lef")),
    ]);
    assert!(out.contains("physical: 1 cell(s)"), "{out}");
    let text = std::fs::read_to_string(f("yaml")).expect("solution");
    let file = fabric::io::parse_solution(&text, "solution").expect("solution YAML");
    (file.solution, dir)
}

/// What a channel's GDS or OASIS should hold, from the solution alone.
fn channel_expectation(s: &ChannelSolution, pins: i64) -> (BTreeMap<String, i64>, [i64; 4], i64) {
    let mut per: BTreeMap<String, i64> = BTreeMap::new();
    let mut add = |k: String| *per.entry(k).or_insert(0) += 1;
    add("0/0".into());
    let mut length = 0;
    for w in &s.wires {
        add(format!("{}/0", 10 * w.layer));
        length += w.segment().length();
    }
    for v in &s.vias {
        for k in v.from.min(v.to)..v.from.max(v.to) {
            add(format!("{}/0", 10 * k + 5));
        }
    }
    if pins > 0 {
        per.insert("1/0".into(), pins);
    }
    let h = WIDTH / 2;
    let die = [
        -PITCH - h,
        -h,
        s.columns as i64 * PITCH + h,
        (s.width as i64 + 1) * PITCH + h,
    ];
    (per, die, length * PITCH)
}

/// The pins: the problem's top and bottom pins and the side exits.
fn pin_count(problem: &str, s: &ChannelSolution) -> i64 {
    let text = std::fs::read_to_string(problem).expect("channel");
    let p = fabric::io::parse_channel(&text, problem).expect("valid");
    let top_bottom: usize = p.nets().iter().map(|n| n.pins.len()).sum();
    let mut sides: Vec<(u32, i64, i64)> = s
        .wires
        .iter()
        .flat_map(|w| [(w.net, w.from), (w.net, w.to)])
        .filter(|(_, p)| p.x == -1 || p.x == s.columns as i64)
        .map(|(n, p)| (n, p.x, p.y))
        .collect();
    sides.sort_unstable();
    sides.dedup();
    (top_bottom + sides.len()) as i64
}

/// Wires `(net, layer, from, to)`, sorted.
type Wires = Vec<(u32, u32, i64, i64, i64, i64)>;
/// Via contacts `(net, x, y, lower layer)`, sorted.
type Contacts = Vec<(u32, i64, i64, u32)>;

/// Wires as a sorted list and via contacts `(net, x, y, lower layer)`.
fn normalised(s: &ChannelSolution) -> (Wires, Contacts) {
    let mut wires: Vec<_> = s
        .wires
        .iter()
        .map(|w| (w.net, w.layer, w.from.x, w.from.y, w.to.x, w.to.y))
        .collect();
    wires.sort_unstable();
    let mut contacts: Vec<_> = s
        .vias
        .iter()
        .flat_map(|v| (v.from.min(v.to)..v.from.max(v.to)).map(move |k| (v.net, v.at.x, v.at.y, k)))
        .collect();
    contacts.sort_unstable();
    (wires, contacts)
}

fn check_channel(name: &str, problem: &str, layers: u32) {
    let (sol, dir) = route(name, problem, layers);
    let f = |ext: &str| dir.join(format!("{name}.{ext}"));
    let pins = pin_count(problem, &sol);
    let (per_layer, die, length) = channel_expectation(&sol, pins);
    let (def, lef) = (f("def"), f("lef"));
    let dumps = klayout(&[(&f("gds"), None), (&f("oas"), None), (&def, Some(&lef))]);
    for (ext, dump) in ["gds", "oas"].iter().zip(&dumps) {
        assert_eq!(dump["dbu"].as_f64(), Some(0.001), "{ext}");
        assert_eq!(dump["top"].as_str(), Some(name), "{ext}");
        assert_eq!(
            shapes(dump),
            per_layer,
            "{name} in {layers} layers, {ext}: shapes per layer"
        );
        assert_eq!(bbox(&dump["bbox"]), die, "{name} {ext}: bounding box");
        assert_eq!(path_length(dump), length, "{name} {ext}: wire length");
        let vias: i64 = (1..layers)
            .map(|k| {
                per_layer
                    .get(&format!("{}/0", 10 * k + 5))
                    .copied()
                    .unwrap_or(0)
            })
            .sum();
        assert_eq!(vias as u64, sol.via_count(), "{name} {ext}: vias");
    }
    check_def(name, problem, &sol, &dir, &dumps[2], pins, die);
}

/// The DEF as KLayout reads it (with the LEF), and as fabric reads it.
fn check_def(
    name: &str,
    problem: &str,
    sol: &ChannelSolution,
    dir: &Path,
    dump: &Value,
    pins: i64,
    die: [i64; 4],
) {
    let f = |ext: &str| dir.join(format!("{name}.{ext}"));
    assert_eq!(bbox(&dump["bbox"]), die, "{name} DEF: die area");
    assert_eq!(
        int(&dump["shorts"]),
        0,
        "{name} DEF: shapes of two nets touch"
    );
    assert_eq!(
        int(&dump["orphan_vias"]),
        0,
        "{name} DEF: vias on no one net"
    );
    assert_eq!(
        int(&dump["vias"]) as u64,
        sol.via_count(),
        "{name} DEF: vias"
    );
    let nets = dump["nets"].as_mapping().expect("nets");
    let mut expected: BTreeMap<String, (BTreeMap<String, i64>, i64)> = BTreeMap::new();
    for w in &sol.wires {
        let e = expected.entry(format!("net{}", w.net)).or_default();
        *e.0.entry(format!("metal{}", w.layer)).or_insert(0) += 1;
    }
    for v in &sol.vias {
        expected.entry(format!("net{}", v.net)).or_default().1 += v.count() as i64;
    }
    let mut seen_pins = 0;
    for (net, (wires, vias)) in &expected {
        let got = &nets[net.as_str()];
        let got_wires: BTreeMap<String, i64> = got["wires"]
            .as_mapping()
            .expect("wires")
            .iter()
            .map(|(k, v)| (k.as_str().expect("layer").to_string(), int(v)))
            .collect();
        assert_eq!(&got_wires, wires, "{name} DEF {net}: wires per layer");
        assert_eq!(int(&got["vias"]), *vias, "{name} DEF {net}: vias");
        assert_eq!(
            int(&got["components"]),
            1,
            "{name} DEF {net}: not connected"
        );
        assert_eq!(
            got["pins"], got["pins_on_wiring"],
            "{name} DEF {net}: a pin off its wiring"
        );
        seen_pins += int(&got["pins"]);
    }
    assert_eq!(seen_pins, pins, "{name} DEF: pins");
    assert_eq!(int(&dump["pins"]), pins, "{name} DEF: pins");
    // fabric's own reader: the same routing, and legal.
    let out = fabric(&["verify", "--strict", problem, s(&f("def"))]);
    assert!(out.starts_with("legal:"), "{out}");
    let text = std::fs::read_to_string(f("def")).expect("DEF");
    let back = fabric::physical::def_read::parse_def(&text, "def").expect("DEF reads back");
    assert_eq!(
        normalised(&back),
        normalised(sol),
        "{name}: the DEF's routing"
    );
    assert_eq!(
        (back.layers, back.width, back.columns),
        (sol.layers, sol.width, sol.columns)
    );
    assert_eq!(back.groups, sol.groups);
}

#[test]
fn dde_in_two_layers_reads_back_in_klayout() {
    check_channel("dde", &bundled("dde"), 2);
}

#[test]
fn dde_in_four_layers_reads_back_in_klayout() {
    check_channel("dde", &bundled("dde"), 4);
}

#[test]
fn side_exits_read_back_in_klayout() {
    let dir = scratch("sides-problem");
    let path = dir.join("sides.txt");
    std::fs::write(
        &path,
        "top: 1 4 3 2 5\nbottom: 6 5 2 3 4\nleft: 6 8 7\nright: 7 8 1\n",
    )
    .expect("channel");
    check_channel("sides", s(&path), 4);
}

// ----------------------------------------------------------------- layouts

/// Lay out `words` with GDS and OASIS; the embedding and its claimed
/// total wire length, and the two files.
fn layout(tag: &str, words: &[&str]) -> (Embedding, u64, PathBuf, PathBuf) {
    let dir = scratch(tag);
    let (yaml, gds, oas) = (dir.join("l.yaml"), dir.join("l.gds"), dir.join("l.oas"));
    let mut args = vec!["layout"];
    args.extend_from_slice(words);
    args.extend_from_slice(&["-o", s(&yaml), "--gds", s(&gds), "--oasis", s(&oas)]);
    let out = fabric(&args);
    assert!(out.contains("physical: "), "{out}");
    let text = std::fs::read_to_string(&yaml).expect("layout");
    let file = fabric::io::parse_layout(&text, "layout").expect("layout YAML");
    let total = file.claimed.expect("metrics").total_wire_length;
    (file.embedding, total, gds, oas)
}

/// Shapes per layer, bounding box, in-plane wire length and via cuts a
/// layout's drawing should have, derived from its embedding.
fn layout_expectation(e: &Embedding) -> (BTreeMap<String, i64>, [i64; 4], i64, i64) {
    let z0 = e
        .nodes
        .iter()
        .map(|n| n.min.z)
        .chain(e.edges.iter().flat_map(|d| d.path.iter().map(|p| p.z)))
        .min()
        .unwrap_or(0);
    let plane = |z: i64| z - z0 + 1;
    let mut per: BTreeMap<String, i64> = BTreeMap::new();
    let mut add = |k: String| *per.entry(k).or_insert(0) += 1;
    add("0/0".into());
    let mut bb = [i64::MAX, i64::MAX, i64::MIN, i64::MIN];
    let mut grow = |x: i64, y: i64| {
        bb = [
            bb[0].min(x * PITCH - MARGIN),
            bb[1].min(y * PITCH - MARGIN),
            bb[2].max(x * PITCH + MARGIN),
            bb[3].max(y * PITCH + MARGIN),
        ];
    };
    for n in &e.nodes {
        for z in n.min.z..=n.max.z {
            add(format!("{}/0", 10 * plane(z) + 1));
        }
        grow(n.min.x, n.min.y);
        grow(n.max.x, n.max.y);
    }
    let (mut length, mut cuts) = (0, 0);
    for d in &e.edges {
        // Runs within a plane with at least two distinct points: one path.
        let mut run_moves = 0;
        for pair in d.path.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if a.z != b.z {
                if run_moves > 0 {
                    add(format!("{}/0", 10 * plane(a.z)));
                }
                run_moves = 0;
                for z in a.z.min(b.z)..a.z.max(b.z) {
                    add(format!("{}/0", 10 * plane(z) + 5));
                    cuts += 1;
                }
            } else {
                let step = (a.x - b.x).abs() + (a.y - b.y).abs();
                run_moves += step;
                length += step;
            }
        }
        if run_moves > 0 {
            add(format!("{}/0", 10 * plane(d.path.last().expect("path").z)));
        }
        for p in &d.path {
            grow(p.x, p.y);
        }
    }
    (per, bb, length * PITCH, cuts)
}

fn check_layout(tag: &str, words: &[&str]) {
    let (e, total, gds, oas) = layout(tag, words);
    let (per_layer, bb, length, cuts) = layout_expectation(&e);
    // fabric's metric: every unit of wire is in a plane or a cut.
    assert_eq!(
        (length / PITCH + cuts) as u64,
        total,
        "{tag}: wire length against the metrics"
    );
    let dumps = klayout(&[(&gds, None), (&oas, None)]);
    for (file, dump) in [&gds, &oas].into_iter().zip(&dumps) {
        let what = format!("{tag} {}", file.display());
        assert_eq!(int(&dump["top_cells"]), 1, "{what}");
        assert_eq!(
            dump["top"].as_str(),
            Some(e.network.as_str().replace('-', "_").as_str())
        );
        assert_eq!(
            int(&dump["node_cells"]) as usize,
            e.nodes.len(),
            "{what}: a cell per node"
        );
        assert_eq!(
            int(&dump["cells"]) as usize,
            e.nodes.len() + 1,
            "{what}: cells"
        );
        assert_eq!(
            int(&dump["placements"]) as usize,
            e.nodes.len(),
            "{what}: placements"
        );
        assert_eq!(shapes(dump), per_layer, "{what}: shapes per layer");
        assert_eq!(bbox(&dump["bbox"]), bb, "{what}: bounding box");
        assert_eq!(path_length(dump), length, "{what}: wire length");
    }
}

#[test]
fn htree_of_256_leaves_reads_back_in_klayout() {
    check_layout("htree", &["htree", "--size", "256"]);
}

#[test]
fn fat_pyramid_reads_back_in_klayout() {
    check_layout("fat-pyramid", &["fat-pyramid", "--size", "64"]);
}

#[test]
fn tree_of_meshes_3d_reads_back_in_klayout() {
    check_layout("tom3d", &["tree-of-meshes-3d", "--size", "2"]);
}

#[test]
fn fat_tree_3d_reads_back_in_klayout() {
    check_layout("ft3d", &["fat-tree-3d", "--size", "64"]);
}

// ------------------------------------------------------- options and maps

#[test]
fn a_layer_map_moves_layers() {
    let dir = scratch("map");
    let map = dir.join("map.txt");
    std::fs::write(&map, "# test map\nmetal1 31/2\nnode1 200 7\nboundary 235\n").expect("map");
    let gds = dir.join("h.gds");
    fabric(&[
        "layout",
        "htree",
        "--size",
        "16",
        "--gds",
        s(&gds),
        "--layer-map",
        s(&map),
        "--pitch",
        "1000",
        "--wire-width",
        "300",
    ]);
    let dump = &klayout(&[(&gds, None)])[0];
    let got = shapes(dump);
    let want: BTreeMap<String, i64> = [("235/0", 1), ("31/2", 30), ("200/7", 31)]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    assert_eq!(got, want);
    // (1000 + 300) / 4 = 325 around the 7 x 7 grid of pitch 1000.
    assert_eq!(bbox(&dump["bbox"]), [-325, -325, 6325, 6325]);
}

#[test]
fn bad_physical_options_are_usage_errors() {
    let dir = scratch("bad");
    let map = dir.join("clash.txt");
    std::fs::write(&map, "metal1 20\n").expect("map");
    let dde = format!("{}/benchmarks/channels/dde.txt", root());
    let gds = dir.join("x.gds");
    let cases: Vec<Vec<&str>> = vec![
        vec!["route", &dde, "--gds", s(&gds), "--layer-map", s(&map)],
        vec!["layout", "htree", "--size", "16", "--layer-map", s(&map)],
        vec![
            "layout",
            "htree",
            "--size",
            "16",
            "--gds",
            s(&gds),
            "--wire-width",
            "201",
        ],
        vec![
            "layout",
            "htree",
            "--size",
            "16",
            "--gds",
            s(&gds),
            "--wire-width",
            "99",
        ],
        vec!["layout", "htree", "--sweep", "--gds", s(&gds)],
        vec!["layout", "htree", "--size", "16", "--pitch", "100"],
    ];
    for args in cases {
        let (code, err) = fabric_code(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!gds.exists(), "{args:?} wrote {}", gds.display());
    }
}
