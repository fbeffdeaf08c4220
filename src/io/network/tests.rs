use std::collections::{BTreeMap, BTreeSet};

use super::*;
use crate::layout::{Edge, Node};

/// Three nodes: processors 0 and 2 on switch 1, two parallel wires of
/// lengths 3 and 5 from 0 to 1, one of length 4 from 1 to 2.
fn small() -> Embedding {
    let node = |id, kind: &str, level, x| Node {
        id,
        kind: kind.into(),
        level,
        min: P3::xy(x, 0),
        max: P3::xy(x + 2, 1),
    };
    let edge = |id, from, to, path: Vec<P3>| Edge { id, from, to, path };
    Embedding {
        network: crate::layout::NetworkName::FatTree,
        dimensions: 2,
        nodes: vec![
            node(0, "processor", 0, 0),
            node(2, "processor", 0, 10),
            node(1, "switch", 1, 5),
        ],
        edges: vec![
            edge(7, 0, 1, vec![P3::xy(2, 0), P3::xy(5, 0)]),
            edge(
                8,
                0,
                1,
                vec![P3::xy(2, 1), P3::xy(3, 1), P3::xy(3, 3), P3::xy(5, 3)],
            ),
            edge(9, 1, 2, vec![P3::xy(7, 0), P3::xy(11, 0)]),
        ],
        ..Embedding::default()
    }
}

/// A reader of `anynet` text that applies BookSim's rules: lines of
/// `router R` followed by `node T` or `router S [L]`; a terminal on one
/// router only; terminals numbered `0 .. T`. Returns the router links
/// (both directions) with their latencies and the terminal of each router.
type Anynet = (BTreeMap<(u32, u32), u64>, BTreeMap<u32, u32>);
fn read_anynet(text: &str) -> Anynet {
    let mut links = BTreeMap::new();
    let mut terminal_of = BTreeMap::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], "router", "{line}");
        let r: u32 = words[1].parse().unwrap();
        let mut k = 2;
        while k < words.len() {
            let id: u32 = words[k + 1].parse().unwrap();
            match words[k] {
                "node" => {
                    assert!(terminal_of.insert(id, r).is_none(), "terminal {id} twice");
                    k += 2;
                }
                "router" => {
                    let latency = words.get(k + 2).and_then(|w| w.parse().ok());
                    links.insert((r, id), latency.unwrap_or(1));
                    k += if latency.is_some() { 3 } else { 2 };
                }
                w => panic!("unknown word {w}"),
            }
        }
    }
    let ids: Vec<u32> = terminal_of.keys().copied().collect();
    assert_eq!(ids, (0..ids.len() as u32).collect::<Vec<_>>());
    (links, terminal_of)
}

#[test]
fn latency_is_length_over_speed_rounded_up() {
    let s = UnitsPerCycle::new(4).unwrap();
    assert_eq!([0, 1, 4, 5, 8, 9].map(|l| s.latency(l)), [1, 1, 1, 2, 2, 3]);
    assert!(UnitsPerCycle::new(0).is_none());
}

#[test]
fn anynet_merges_parallel_wires_at_the_longest() {
    let e = small();
    let n = LaidNetwork::new(&e, UnitsPerCycle::new(1).unwrap()).unwrap();
    let (links, terminals) = read_anynet(&n.write(NetworkFormat::Anynet));
    let want: BTreeMap<(u32, u32), u64> =
        [((0, 1), 5), ((1, 0), 5), ((1, 2), 4), ((2, 1), 4)].into();
    assert_eq!(links, want);
    assert_eq!(terminals, [(0, 0), (1, 2)].into());
}

#[test]
fn graphml_and_dot_keep_every_wire() {
    let e = small();
    let n = LaidNetwork::new(&e, UnitsPerCycle::new(2).unwrap()).unwrap();
    let g = n.write(NetworkFormat::Graphml);
    assert_eq!(g.matches("<edge ").count(), 3);
    assert_eq!(g.matches("<node ").count(), 3);
    assert!(g.contains("<data key=\"length\">5</data><data key=\"latency\">3</data>"));
    assert!(g.contains("<node id=\"1\"><data key=\"kind\">switch</data>"));
    let d = n.write(NetworkFormat::Dot);
    assert!(d.contains("  0 -- 1 [wire=8, length=5, latency=3];"));
    assert!(d.contains("  2 [kind=\"processor\", level=0, terminal=1, pos=\"11,0\", z=0];"));
}

#[test]
fn every_family_exports_a_connected_anynet() {
    use crate::layout::{LayoutKind, LayoutOptions};
    for (kind, size) in [
        (LayoutKind::ButterflyFatTree, 64),
        (LayoutKind::Mesh, 5),
        (LayoutKind::Torus, 5),
        (LayoutKind::Butterfly, 8),
        (LayoutKind::FatPyramid, 16),
        (LayoutKind::FatTree3d, 64),
    ] {
        let laid = kind
            .construction(
                size,
                &LayoutOptions {
                    capacity: None,
                    omega: 1,
                    alpha: 1,
                    levels: None,
                    mesh_capacity: 1,
                    dims: None,
                },
            )
            .unwrap()
            .build()
            .unwrap();
        let e = &laid.embedding;
        let n = LaidNetwork::new(e, UnitsPerCycle::new(3).unwrap()).unwrap();
        let (links, terminals) = read_anynet(&n.write(NetworkFormat::Anynet));
        let processors = e.nodes.iter().filter(|x| x.kind == "processor").count();
        assert_eq!(terminals.len(), processors, "{kind}");
        // Every wire's pair is a link, in both directions, at the
        // latency of the longest wire of that pair.
        let mut longest: BTreeMap<(u32, u32), u64> = BTreeMap::new();
        for x in &e.edges {
            let l = n.speed.latency(x.length());
            for key in [(x.from, x.to), (x.to, x.from)] {
                let v = longest.entry(key).or_insert(l);
                *v = (*v).max(l);
            }
        }
        assert_eq!(links, longest, "{kind}");
        // Connected: a search from router 0 reaches every router.
        let mut seen = BTreeSet::from([0u32]);
        let mut stack = vec![0u32];
        while let Some(r) = stack.pop() {
            for (&(a, b), _) in links.range((r, 0)..=(r, u32::MAX)) {
                debug_assert_eq!(a, r);
                if seen.insert(b) {
                    stack.push(b);
                }
            }
        }
        assert_eq!(seen.len(), e.nodes.len(), "{kind}");
    }
}
