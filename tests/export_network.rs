//! `fabric export network` through the binary: a butterfly fat-tree of 64
//! leaves as BookSim's `anynet` (read back by the reader's rules), as
//! GraphML read by networkx, and as DOT; latencies from wire lengths;
//! bad inputs refused with exit 2 and no output.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-export-{}-{test}", std::process::id()));
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

fn ok(args: &[&str]) -> String {
    let o = fabric(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// The 64-leaf butterfly fat-tree's layout file in `dir`, and its layout.
fn bft64(dir: &Path) -> (PathBuf, fabric::layout::Embedding) {
    let file = dir.join("bft.yaml");
    ok(&[
        "layout",
        "butterfly-fat-tree",
        "--size",
        "64",
        "-o",
        file.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&file).unwrap();
    let e = fabric::io::parse_layout(&text, "bft.yaml")
        .unwrap()
        .embedding;
    (file, e)
}

/// BookSim's anynet rules: each line `router R` then `node T` or `router S
/// [L]` items; a terminal on one router; terminals numbered from 0; router
/// ids `0 .. R`. Links (both directions) with latency, terminal -> router.
fn read_anynet(text: &str) -> (BTreeMap<(u32, u32), u64>, BTreeMap<u32, u32>) {
    let mut links = BTreeMap::new();
    let mut terminals = BTreeMap::new();
    let mut routers = BTreeSet::new();
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(w[0], "router", "{line}");
        let r: u32 = w[1].parse().unwrap();
        routers.insert(r);
        let mut k = 2;
        while k < w.len() {
            let id: u32 = w[k + 1].parse().unwrap();
            if w[k] == "node" {
                assert!(
                    terminals.insert(id, r).is_none(),
                    "terminal {id} on two routers"
                );
                k += 2;
            } else {
                assert_eq!(w[k], "router", "{line}");
                let l: Option<u64> = w.get(k + 2).and_then(|x| x.parse().ok());
                links.insert((r, id), l.unwrap_or(1));
                k += if l.is_some() { 3 } else { 2 };
            }
        }
    }
    assert_eq!(routers, (0..routers.len() as u32).collect());
    assert_eq!(
        terminals.keys().copied().collect::<Vec<_>>(),
        (0..terminals.len() as u32).collect::<Vec<_>>()
    );
    (links, terminals)
}

#[test]
fn anynet_of_a_butterfly_fat_tree_has_its_links_and_latencies() {
    let dir = scratch("anynet");
    let (file, e) = bft64(&dir);
    let text = ok(&[
        "export",
        "network",
        file.to_str().unwrap(),
        "--format",
        "anynet",
        "--units-per-cycle",
        "4",
    ]);
    let (links, terminals) = read_anynet(&text);
    assert_eq!(terminals.len(), 64);
    let mut want = BTreeMap::new();
    for x in &e.edges {
        let latency = x.length().div_ceil(4).max(1);
        for key in [(x.from, x.to), (x.to, x.from)] {
            let v = want.entry(key).or_insert(latency);
            *v = (*v).max(latency);
        }
    }
    assert_eq!(links, want);
    // A terminal sits on its processor's router.
    for (t, r) in terminals {
        let node = e.nodes.iter().find(|n| n.id == r).unwrap();
        assert_eq!(node.kind, "processor", "terminal {t}");
    }
}

#[test]
fn graphml_reads_in_networkx_with_the_layout_figures() {
    let dir = scratch("graphml");
    let (file, e) = bft64(&dir);
    let out = dir.join("bft.graphml");
    ok(&[
        "export",
        "network",
        file.to_str().unwrap(),
        "--format",
        "graphml",
        "-o",
        out.to_str().unwrap(),
    ]);
    let script = "import sys, networkx as nx\n\
        g = nx.read_graphml(sys.argv[1], node_type=int)\n\
        t = [n for n, d in g.nodes(data=True) if 'terminal' in d]\n\
        print(g.number_of_nodes(), g.number_of_edges(), int(nx.is_connected(g)),\n\
              sum(d['length'] for _, _, d in g.edges(data=True)), len(t),\n\
              max(g.degree(n) for n in t), sorted(g.nodes[n]['terminal'] for n in t) == list(range(len(t))))\n";
    let o = Command::new("python3")
        .args(["-c", script, out.to_str().unwrap()])
        .output()
        .expect("python3 runs");
    assert!(
        o.status.success(),
        "networkx could not read the GraphML (CI installs networkx: pip install networkx): {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let seen = String::from_utf8(o.stdout).unwrap();
    let total: u64 = e.edges.iter().map(|x| x.length()).sum();
    assert_eq!(
        seen.trim(),
        format!("{} {} 1 {total} 64 1 True", e.nodes.len(), e.edges.len())
    );
}

#[test]
fn dot_has_one_edge_per_wire() {
    let dir = scratch("dot");
    let (file, e) = bft64(&dir);
    let text = ok(&[
        "export",
        "network",
        file.to_str().unwrap(),
        "--format",
        "dot",
    ]);
    assert!(text.starts_with("graph \"butterfly-fat-tree\" {"));
    assert_eq!(text.matches(" -- ").count(), e.edges.len());
    let x = &e.edges[0];
    assert!(text.contains(&format!(
        "  {} -- {} [wire={}, length={}, latency={}];",
        x.from,
        x.to,
        x.id,
        x.length(),
        x.length().max(1)
    )));
}

#[test]
fn bad_inputs_are_refused_with_nothing_written() {
    let dir = scratch("bad");
    let (file, _) = bft64(&dir);
    let out = dir.join("x.anynet");
    let export = |input: &Path, extra: &[&str]| {
        let mut args = vec!["export", "network", input.to_str().unwrap()];
        args.extend(extra);
        args.extend(["-o", out.to_str().unwrap()]);
        fabric(&args)
    };
    // A layout whose claimed figures are wrong is not exported.
    let text = std::fs::read_to_string(&file).unwrap();
    let bad = dir.join("bad.yaml");
    std::fs::write(
        &bad,
        text.replacen(
            "  total_wire_length: 1640\n",
            "  total_wire_length: 1641\n",
            1,
        ),
    )
    .unwrap();
    let o = export(&bad, &["--format", "anynet"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.yaml") && err.contains("total_wire_length"),
        "{err}"
    );
    // A channel file is not a layout.
    let o = export(
        Path::new("benchmarks/channels/dde.txt"),
        &["--format", "graphml"],
    );
    assert_eq!(o.status.code(), Some(2));
    // Zero units per cycle.
    let o = export(&file, &["--format", "dot", "--units-per-cycle", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists());
    // A folder that does not exist.
    let o = fabric(&[
        "export",
        "network",
        file.to_str().unwrap(),
        "--format",
        "dot",
        "-o",
        dir.join("no/such/dir/x.dot").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
}
