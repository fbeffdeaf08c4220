//! Every layout family with a routing algorithm, simulated from its file
//! through the CLI: fat-tree, H-tree, 3-D fat-tree and scalable fat-tree by
//! `fabric simulate fat-tree --layout`, fat-pyramid, fat-tree, H-tree and
//! tree of meshes by `fabric simulate wire-delay --layout`; a layout with
//! longer wires changes the bit-times and not the cycles; the fat-pyramid's
//! local traffic keeps `c path` bounded where the fat-tree's grows.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-wire-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fabric(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args(args)
        .output()
        .expect("the fabric binary runs")
}

fn ok(args: &[&str]) -> Output {
    let o = fabric(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// `fabric layout KIND --size SIZE -o DIR/KIND.yaml`.
fn layout(dir: &Path, kind: &str, size: &str) -> PathBuf {
    let path = dir.join(format!("{kind}.yaml"));
    ok(&["layout", kind, "--size", size, "-o", path.to_str().unwrap()]);
    path
}

fn report(path: &Path) -> serde_norway::Value {
    serde_norway::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A simulation report read back and checked against its schema.
fn checked(path: &Path) -> serde_json::Value {
    common::checked_report(&std::fs::read_to_string(path).unwrap())
}

/// The layout with every coordinate doubled: the same network, every wire
/// twice as long, still legal.
fn stretched(from: &Path, to: &Path) {
    let mut y = report(from);
    fn double(v: &mut serde_norway::Value) {
        match v {
            serde_norway::Value::Number(n) => {
                *v = serde_norway::Value::from(n.as_i64().unwrap() * 2);
            }
            serde_norway::Value::Sequence(s) => s.iter_mut().for_each(double),
            _ => {}
        }
    }
    let g = &mut y["geometry"];
    for node in g["nodes"].as_sequence_mut().unwrap() {
        double(&mut node["min"]);
        double(&mut node["max"]);
    }
    for edge in g["edges"].as_sequence_mut().unwrap() {
        double(&mut edge["path"]);
    }
    // Written header-less, without the figures that no longer hold.
    let (nodes, edges) = (g["nodes"].clone(), g["edges"].clone());
    let m = y.as_mapping_mut().unwrap();
    for key in [
        "schema",
        "schema_version",
        "fabric_version",
        "metrics",
        "levels",
        "recurrence",
        "geometry",
    ] {
        m.remove(key);
    }
    m.insert("nodes".into(), nodes);
    m.insert("edges".into(), edges);
    std::fs::write(to, serde_norway::to_string(&y).unwrap()).unwrap();
    ok(&["verify-layout", to.to_str().unwrap()]);
}

#[test]
fn every_tree_layout_simulates_as_a_fat_tree() {
    let dir = scratch("trees");
    for (kind, size, network) in [
        ("fat-tree", "64", "fat-tree"),
        ("htree", "64", "fat-tree"),
        ("fat-tree-3d", "64", "fat-tree"),
        ("scalable-fat-tree", "64", "scalable-fat-tree"),
        ("butterfly-fat-tree", "64", "butterfly-fat-tree"),
    ] {
        let file = layout(&dir, kind, size);
        let out = dir.join(format!("{kind}-sim.yaml"));
        ok(&[
            "simulate",
            "fat-tree",
            "--layout",
            file.to_str().unwrap(),
            "--trials",
            "2",
            "--delay",
            "linear",
            "-o",
            out.to_str().unwrap(),
        ]);
        let y = checked(&out);
        assert_eq!(y["simulation"]["network"].as_str(), Some(network), "{kind}");
        let run = &y["runs"][0];
        assert!(run["cycles"]["mean"].as_f64().unwrap() >= 1.0, "{kind}");
        // Every wire twice as long: the same cycles, more bit-times.
        let long = dir.join(format!("{kind}-long.yaml"));
        stretched(&file, &long);
        let out = dir.join(format!("{kind}-long-sim.yaml"));
        ok(&[
            "simulate",
            "fat-tree",
            "--layout",
            long.to_str().unwrap(),
            "--trials",
            "2",
            "--delay",
            "linear",
            "-o",
            out.to_str().unwrap(),
        ]);
        let z = checked(&out);
        assert_eq!(run["cycles"], z["runs"][0]["cycles"], "{kind}");
        let bits = |r: &serde_json::Value| r["bit_time"]["mean"].as_f64().unwrap();
        assert!(bits(&z["runs"][0]) > bits(run), "{kind}");
    }
    // The fat-pyramid and the trees of meshes are routed by wire-delay.
    for (kind, size) in [
        ("fat-pyramid", "16"),
        ("tree-of-meshes", "4"),
        ("folded-tree-of-meshes", "4"),
        ("tree-of-meshes-3d", "2"),
    ] {
        let file = layout(&dir, kind, size);
        let o = fabric(&["simulate", "fat-tree", "--layout", file.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{kind}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("wire-delay"),
            "{kind}"
        );
    }
}

/// `fabric simulate wire-delay --layout FILE`: the report's first cell.
fn wire_delay(file: &Path, out: &Path, delay: &str) -> serde_json::Value {
    ok(&[
        "simulate",
        "wire-delay",
        "--layout",
        file.to_str().unwrap(),
        "--trials",
        "2",
        "--traffic",
        "global",
        "--delay",
        delay,
        "-o",
        out.to_str().unwrap(),
    ]);
    checked(out)["cells"][0].clone()
}

#[test]
fn every_wire_delay_layout_simulates_and_stretching_changes_only_times() {
    let dir = scratch("wire");
    for (kind, size, network) in [
        ("fat-pyramid", "256", "fat_pyramid"),
        ("fat-tree", "256", "fat_tree"),
        ("htree", "256", "htree"),
        ("tree-of-meshes", "8", "tree_of_meshes"),
        ("folded-tree-of-meshes", "8", "tree_of_meshes"),
        ("tree-of-meshes-3d", "4", "tree_of_meshes_3d"),
    ] {
        let file = layout(&dir, kind, size);
        let a = wire_delay(&file, &dir.join(format!("{kind}-a.yaml")), "linear");
        assert_eq!(a["network"].as_str(), Some(network));
        let long = dir.join(format!("{kind}-long.yaml"));
        stretched(&file, &long);
        let b = wire_delay(&long, &dir.join(format!("{kind}-b.yaml")), "linear");
        assert_eq!(a["rounds"], b["rounds"], "{kind}: rounds changed");
        assert_eq!(a["messages"], b["messages"], "{kind}");
        let t = |c: &serde_json::Value| c["mean_time"]["mean"].as_f64().unwrap();
        assert!(t(&b) > t(&a), "{kind}: {} vs {}", t(&b), t(&a));
        // Unit delay does not see the stretch at all.
        let (ua, ub) = (
            wire_delay(&file, &dir.join("ua.yaml"), "unit"),
            wire_delay(&long, &dir.join("ub.yaml"), "unit"),
        );
        assert_eq!(ua["mean_time"], ub["mean_time"], "{kind}");
    }
}

#[test]
fn fat_pyramid_local_paths_stay_bounded_where_the_fat_trees_grow() {
    let dir = scratch("theorem18");
    let out = dir.join("c.yaml");
    ok(&[
        "simulate",
        "wire-delay",
        "--network",
        "fat-pyramid,fat-tree",
        "--size",
        "256,4096,65536",
        "--traffic",
        "local",
        "--delay",
        "linear",
        "--trials",
        "1",
        "-o",
        out.to_str().unwrap(),
    ]);
    let y = checked(&out);
    let c = |network: &str, n: u64| {
        y["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["network"].as_str() == Some(network) && c["processors"].as_u64() == Some(n))
            .map(|c| c["c_path"]["max"].as_f64().unwrap())
            .unwrap()
    };
    // The fat-tree's local paths cross seams of wire ~sqrt n: c grows.
    assert!(c("fat_tree", 65536) > 4.0 * c("fat_tree", 256));
    // The fat-pyramid's stay within twice their small-n value.
    assert!(c("fat_pyramid", 65536) < 2.0 * c("fat_pyramid", 256));
    assert!(c("fat_pyramid", 65536) < c("fat_tree", 65536));
}

#[test]
fn bad_wire_delay_input_is_refused_before_work() {
    let dir = scratch("bad");
    let out = dir.join("r.yaml");
    for args in [
        vec!["--size", "100"],
        vec!["--network", "tree-of-meshes", "--size", "65536"],
        vec!["--network", "tree-of-meshes-3d", "--size", "256"],
        vec!["--network", "fat-pyramid", "--size", "512"],
        vec!["--switch-delay", "-1"],
        vec!["--radius", "0"],
        vec!["--delay", "bogus"],
    ] {
        let mut all = vec!["simulate", "wire-delay", "-o", out.to_str().unwrap()];
        all.extend(args.iter());
        let o = fabric(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!out.exists(), "{args:?} wrote a report");
    }
    // A power of 8 is a size for the 3-D tree of meshes only.
    ok(&[
        "simulate",
        "wire-delay",
        "--network",
        "tree-of-meshes-3d",
        "--size",
        "512",
        "--trials",
        "1",
        "--traffic",
        "local",
    ]);
    let mesh = layout(&dir, "mesh", "8");
    let o = fabric(&["simulate", "wire-delay", "--layout", mesh.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("mesh"));
}

/// The remaining families simulate from their files with their own
/// subcommands: the mesh and torus (k-k routing, a step of 1 + w(the
/// file's longest wire)), the butterfly (Maggs-Sitaraman), the pruned
/// butterfly and the sorting fat-tree (Bay-Bilardi, `A` from the file); a
/// file of another family is refused with exit 2.
#[test]
fn every_other_layout_simulates_from_its_file() {
    let dir = scratch("others");
    let torus = layout(&dir, "torus", "16");
    let out = dir.join("torus-sim.yaml");
    ok(&[
        "simulate",
        "mesh",
        "--layout",
        torus.to_str().unwrap(),
        "--algorithm",
        "wrap",
        "--k",
        "2",
        "--delay",
        "linear",
        "--trials",
        "1",
        "-o",
        out.to_str().unwrap(),
    ]);
    let cell = &report(&out)["cells"][0];
    // The folded torus's longest wire spans two node pitches and more.
    assert!(
        cell["step"]["longest_wire"].as_u64().unwrap() > 1,
        "{cell:?}"
    );
    assert_eq!(cell["step"]["source"].as_str(), torus.to_str());
    let mesh = layout(&dir, "mesh", "8");
    ok(&[
        "simulate",
        "mesh",
        "--layout",
        mesh.to_str().unwrap(),
        "--trials",
        "1",
    ]);
    let bf = layout(&dir, "butterfly", "16");
    ok(&[
        "simulate",
        "butterfly",
        "--layout",
        bf.to_str().unwrap(),
        "--trials",
        "1",
    ]);
    for (kind, size) in [("pruned-butterfly", "64"), ("sorting-fat-tree", "256")] {
        let file = layout(&dir, kind, size);
        let out = dir.join(format!("{kind}-sim.yaml"));
        ok(&[
            "simulate",
            kind,
            "--layout",
            file.to_str().unwrap(),
            "--trials",
            "1",
            "-o",
            out.to_str().unwrap(),
        ]);
        let cell = &report(&out)["cells"][0];
        assert_eq!(
            cell["setting"]["terminals"].as_u64(),
            Some(size.parse().unwrap())
        );
        let area = report(&file)["metrics"]["area"].as_u64().unwrap();
        assert_eq!(cell["setting"]["area"].as_u64(), Some(area), "{kind}");
    }
    for (command, wrong) in [
        ("mesh", &bf),
        ("pruned-butterfly", &torus),
        ("sorting-fat-tree", &mesh),
    ] {
        let o = fabric(&["simulate", command, "--layout", wrong.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{command}");
    }
}
