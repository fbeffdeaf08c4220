//! Graphviz DOT: an undirected graph, nodes placed at their box centres
//! (`pos`, in grid units, for `neato -n`), one edge per wire with its
//! wire length and latency.

use std::fmt::Write;

use super::LaidNetwork;

/// `s` as a DOT quoted string.
fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The DOT text of a laid network.
pub(super) fn write(n: &LaidNetwork) -> String {
    let terminals = n.terminals();
    let mut out = format!(
        "graph {} {{\n  node [shape=box];\n",
        quoted(n.embedding.network.as_str())
    );
    for (i, terminal) in terminals.iter().enumerate() {
        let node = n.node(i);
        let c = n.centre(i);
        let terminal = terminal.map_or(String::new(), |t| format!(", terminal={t}"));
        let _ = writeln!(
            out,
            "  {i} [kind={}, level={}{terminal}, pos=\"{},{}\", z={}];",
            quoted(&node.kind),
            node.level,
            c.x,
            c.y,
            c.z
        );
    }
    for (k, edge) in n.embedding.edges.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {} -- {} [wire={}, length={}, latency={}];",
            edge.from,
            edge.to,
            edge.id,
            n.lengths[k],
            n.latency(k)
        );
    }
    out.push_str("}\n");
    out
}
