//! GraphML: nodes with their kind, level, terminal number and box centre;
//! one undirected `edge` per wire (parallel wires kept, so a reader that
//! allows them, such as networkx, gets a multigraph) with its wire length
//! and latency.

use std::fmt::Write;

use super::LaidNetwork;

/// `s` with XML's five special characters escaped.
pub(super) fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The keys: (id, for, type).
const KEYS: [(&str, &str, &str); 9] = [
    ("kind", "node", "string"),
    ("level", "node", "long"),
    ("terminal", "node", "long"),
    ("x", "node", "long"),
    ("y", "node", "long"),
    ("z", "node", "long"),
    ("wire", "edge", "long"),
    ("length", "edge", "long"),
    ("latency", "edge", "long"),
];

/// The GraphML text of a laid network.
pub(super) fn write(n: &LaidNetwork) -> String {
    let terminals = n.terminals();
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n",
    );
    for (id, target, kind) in KEYS {
        let _ = writeln!(
            out,
            "  <key id=\"{id}\" for=\"{target}\" attr.name=\"{id}\" attr.type=\"{kind}\"/>"
        );
    }
    let _ = writeln!(
        out,
        "  <graph id=\"{}\" edgedefault=\"undirected\">",
        xml_escape(n.embedding.network.as_str())
    );
    for (i, terminal) in terminals.iter().enumerate() {
        let node = n.node(i);
        let c = n.centre(i);
        let _ = write!(
            out,
            "    <node id=\"{i}\"><data key=\"kind\">{}</data><data key=\"level\">{}</data>",
            xml_escape(&node.kind),
            node.level
        );
        if let Some(t) = terminal {
            let _ = write!(out, "<data key=\"terminal\">{t}</data>");
        }
        let _ = writeln!(
            out,
            "<data key=\"x\">{}</data><data key=\"y\">{}</data><data key=\"z\">{}</data></node>",
            c.x, c.y, c.z
        );
    }
    for (k, edge) in n.embedding.edges.iter().enumerate() {
        let _ = writeln!(
            out,
            "    <edge id=\"e{k}\" source=\"{}\" target=\"{}\"><data key=\"wire\">{}</data>\
             <data key=\"length\">{}</data><data key=\"latency\">{}</data></edge>",
            edge.from,
            edge.to,
            edge.id,
            n.lengths[k],
            n.latency(k)
        );
    }
    out.push_str("  </graph>\n</graphml>\n");
    out
}
