//! The butterfly layout family against the simulators' butterfly: the
//! layout engine's network twin of `B(n)` has exactly the nodes and edges
//! that `sim::packet::butterfly::Butterfly::follow` gives, and the wire
//! lengths a simulator reads from a layout file written by `fabric layout
//! butterfly` are its links', level by level.

use std::collections::BTreeMap;

use clap::Parser;
use fabric::cli::{layout_file_text, Cli, Command};
use fabric::layout::butterfly_net::{link_lengths_by_level, node_id, LinkKind};
use fabric::network::{Network, NodeId, Role};
use fabric::sim::packet::butterfly::{Butterfly, Node, OutEdge};

/// The node `<l, c>` of a twin's id.
fn node_of(n: u32, id: NodeId) -> Node {
    Node {
        level: id.0 >> n,
        row: (id.0 & ((1 << n) - 1)) as u64,
    }
}

/// Links as (lower node, upper node) with their multiplicities.
type LinkCounts = BTreeMap<(Node, Node), u32>;

#[test]
fn the_twin_is_the_simulators_butterfly() {
    for n in 1..=8u32 {
        let b = Butterfly::new(n);
        let twin = Network::butterfly(b.rows()).unwrap();
        assert_eq!(twin.node_count() as u64, b.node_count(), "n {n}");
        assert_eq!(twin.link_count() as u64, b.edge_count(), "n {n}");
        for k in 0..twin.node_count() as u32 {
            let data = twin.node(NodeId(k));
            assert_eq!(data.level, node_of(n, NodeId(k)).level);
            assert_eq!(data.role, Role::Switch);
        }
        let mut want = LinkCounts::new();
        for l in 0..n {
            for row in 0..b.rows() {
                let v = Node { level: l, row };
                for e in [OutEdge::Straight, OutEdge::Cross] {
                    *want.entry((v, b.follow(v, e))).or_default() += 1;
                }
            }
        }
        let mut got = LinkCounts::new();
        for k in 0..twin.link_count() as u32 {
            let (a, z) = twin.link(fabric::network::LinkId(k));
            let (a, z) = (node_of(n, a), node_of(n, z));
            let pair = if a.level < z.level { (a, z) } else { (z, a) };
            *got.entry(pair).or_default() += 1;
        }
        assert_eq!(got, want, "n {n}");
        // node_id numbers <l, c> as the twin does.
        for l in 0..=n {
            for row in [0, b.rows() - 1] {
                let id = NodeId(node_id(n, l, row));
                assert_eq!(node_of(n, id), Node { level: l, row });
            }
        }
    }
}

/// `fabric layout butterfly --size N -o FILE` read back and checked gives
/// the wire length of every link of B(n): the straight link spans its
/// channel of 2^(l+1) tracks, and the links of each level sum to the
/// file's own per-level figures.
#[test]
fn link_lengths_from_a_layout_file() {
    for n in [1u32, 3, 6] {
        let rows = 1u64 << n;
        let line = ["fabric", "layout", "butterfly", &format!("--size={rows}")];
        let Ok(Cli {
            command: Command::Layout(args),
            ..
        }) = Cli::try_parse_from(line)
        else {
            panic!("{line:?} does not parse");
        };
        let text = layout_file_text(&args).unwrap();
        let file = fabric::io::parse_layout(&text, "b.yaml").unwrap();
        let e = file.embedding;
        assert!(fabric::layout::check::check(&e).is_legal());
        let lengths = link_lengths_by_level(&e, n).unwrap();
        let m = fabric::layout::metrics::measure(&e);
        assert_eq!(lengths.len(), n as usize);
        for (l, level) in lengths.iter().enumerate() {
            let w = m.per_level[&(l as u32 + 1)];
            assert_eq!(level.len() as u64, w.edges);
            assert_eq!(level.iter().sum::<u64>(), w.total, "n {n} level {l}");
            assert_eq!(level.iter().max(), Some(&w.max));
            for c in 0..rows {
                assert_eq!(level[LinkKind::Straight.index(c)], (2 << l) + 1);
                assert!(level[LinkKind::Cross.index(c)] > (2 << l) + 1);
            }
        }
        // The file says what it lays out.
        assert!(
            text.starts_with("schema: fabric.layout\n"),
            "{}",
            &text[..40]
        );
        assert!(text.contains("\nnetwork: butterfly\n"), "{}", &text[..120]);
        assert!(text.contains(&format!("  rows: '{rows}'\n")));
    }
}
