//! The data block of a layout's viewer.

use std::collections::HashMap;

use super::pack::JsonObject;
use super::{check_count, coordinate, page, ViewError};
use crate::layout::metrics::LayoutMetrics;
use crate::layout::{Embedding, P3};

/// A point's three coordinates as `i32`, naming `what` on overflow.
fn point(p: P3, what: &dyn Fn() -> String) -> Result<[i32; 3], ViewError> {
    Ok([
        coordinate(p.x, what)?,
        coordinate(p.y, what)?,
        coordinate(p.z, what)?,
    ])
}

/// The viewer of a layout: nodes `[min x, y, z, max x, y, z, level, kind,
/// id]` (kind by index into `kinds`), path segments `[x0, y0, z0, x1, y1,
/// z1, edge]` with each coordinate pair ordered, edges `[id, from, to]`
/// (nodes by index, -1 for a node the layout lacks). `summary` is the
/// table beside the drawing.
pub fn layout_html(e: &Embedding, summary: &[(String, String)]) -> Result<String, ViewError> {
    let segments: usize = e.edges.iter().map(|x| x.path.len().saturating_sub(1)).sum();
    check_count(e.nodes.len() + segments)?;
    let mut kinds: Vec<String> = Vec::new();
    let mut nodes = Vec::with_capacity(9 * e.nodes.len());
    let mut index: HashMap<u32, i32> = HashMap::with_capacity(e.nodes.len());
    for (k, n) in e.nodes.iter().enumerate() {
        let what = || format!("node {}", n.id);
        nodes.extend(point(n.min, &what)?);
        nodes.extend(point(n.max, &what)?);
        let kind = match kinds.iter().position(|k| *k == n.kind) {
            Some(i) => i,
            None => {
                kinds.push(n.kind.clone());
                kinds.len() - 1
            }
        };
        nodes.extend([n.level as i32, kind as i32, n.id as i32]);
        index.entry(n.id).or_insert(k as i32);
    }
    let mut segs = Vec::with_capacity(7 * segments);
    let mut edges = Vec::with_capacity(3 * e.edges.len());
    for (k, x) in e.edges.iter().enumerate() {
        let what = || format!("edge {}", x.id);
        for w in x.path.windows(2) {
            let (a, b) = (point(w[0], &what)?, point(w[1], &what)?);
            for axis in 0..3 {
                segs.push(a[axis].min(b[axis]));
            }
            for axis in 0..3 {
                segs.push(a[axis].max(b[axis]));
            }
            segs.push(k as i32);
        }
        let node = |id: u32| index.get(&id).copied().unwrap_or(-1);
        edges.extend([x.id as i32, node(x.from), node(x.to)]);
    }
    let mut o = JsonObject::new();
    o.string("kind", "layout");
    let params: Vec<String> = e
        .parameters
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    o.string("title", &format!("{} ({})", e.network, params.join(", ")));
    o.int("dims", i64::from(e.dimensions));
    o.strings("kinds", &kinds);
    o.packed("nodes", &nodes);
    o.packed("segs", &segs);
    o.packed("edges", &edges);
    o.pairs("summary", summary);
    Ok(page(&o.finish()))
}

/// The summary table of a layout: its size, wires and wires per level.
pub fn layout_summary(e: &Embedding, m: &LayoutMetrics) -> Vec<(String, String)> {
    let mut rows = vec![("network".to_string(), e.network.to_string())];
    rows.extend(e.parameters.iter().map(|(k, v)| (k.clone(), v.clone())));
    let size = if e.dimensions == 3 {
        format!("{} x {} x {}", m.width, m.height, m.depth)
    } else {
        format!("{} x {}", m.width, m.height)
    };
    rows.extend([
        ("size".into(), size),
        (
            if e.dimensions == 3 { "volume" } else { "area" }.into(),
            m.area.to_string(),
        ),
        ("nodes".into(), e.nodes.len().to_string()),
        ("edges".into(), e.edges.len().to_string()),
        ("wire length".into(), m.total_wire_length.to_string()),
        ("longest wire".into(), m.max_wire_length.to_string()),
    ]);
    for (level, w) in &m.per_level {
        rows.push((
            format!("level {level} wires"),
            format!("{} of length {} at most", w.edges, w.max),
        ));
    }
    rows
}
