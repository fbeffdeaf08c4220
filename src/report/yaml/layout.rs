//! YAML writer of layouts (FORMATS.md section 4).

use std::fmt::Write;

use super::{quote, scalar};

/// A layout as FORMATS.md section 4 writes it, with `metrics` and, after
/// them, the wire lengths per level (`levels`) and, for constructions with
/// a recurrence, the side it predicts (`recurrence`).
pub fn layout_yaml(
    e: &crate::layout::Embedding,
    m: &crate::layout::metrics::LayoutMetrics,
    recurrence: Option<(u64, u64)>,
) -> String {
    let three = e.dimensions == 3;
    let point = |p: &crate::layout::P3| {
        if three {
            format!("[{}, {}, {}]", p.x, p.y, p.z)
        } else {
            format!("[{}, {}]", p.x, p.y)
        }
    };
    let mut o = String::new();
    let _ = writeln!(o, "network: {}", scalar(e.network.as_str()));
    let params: Vec<String> = e
        .parameters
        .iter()
        .map(|(k, v)| format!("{}: {}", scalar(k), quote_if_needed(v)))
        .collect();
    let _ = writeln!(o, "parameters: {{{}}}", params.join(", "));
    let _ = writeln!(o, "dimensions: {}", e.dimensions);
    if e.nodes.is_empty() {
        o.push_str("nodes: []\n");
    } else {
        o.push_str("nodes:\n");
    }
    for n in &e.nodes {
        let _ = writeln!(
            o,
            "  - {{id: {}, kind: {}, level: {}, min: {}, max: {}}}",
            n.id,
            scalar(&n.kind),
            n.level,
            point(&n.min),
            point(&n.max)
        );
    }
    if e.edges.is_empty() {
        o.push_str("edges: []\n");
    } else {
        o.push_str("edges:\n");
    }
    for x in &e.edges {
        let path: Vec<String> = x.path.iter().map(point).collect();
        let _ = writeln!(
            o,
            "  - {{id: {}, from: {}, to: {}, path: [{}]}}",
            x.id,
            x.from,
            x.to,
            path.join(", ")
        );
    }
    o.push_str("metrics:\n");
    let _ = writeln!(o, "  width: {}", m.width);
    let _ = writeln!(o, "  height: {}", m.height);
    if three {
        let _ = writeln!(o, "  depth: {}", m.depth);
    }
    let _ = writeln!(o, "  area: {}", m.area);
    let _ = writeln!(o, "  total_wire_length: {}", m.total_wire_length);
    let _ = writeln!(o, "  max_wire_length: {}", m.max_wire_length);
    o.push_str("levels:                          # wires by the higher level of their two nodes\n");
    for (level, w) in &m.per_level {
        let _ = writeln!(
            o,
            "  - {{level: {level}, edges: {}, total_wire_length: {}, max_wire_length: {}}}",
            w.edges, w.total, w.max
        );
    }
    if let Some((rec, closed)) = recurrence {
        let _ = writeln!(
            o,
            "recurrence: {{side: {rec}, closed_form: {closed}}}   # S(n) = 2 S(n/4) + t(n)"
        );
    }
    o
}

/// A plain scalar when it reads back as the same string, else quoted.
fn quote_if_needed(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
        && !s.is_empty()
    {
        s.to_string()
    } else {
        quote(s)
    }
}
