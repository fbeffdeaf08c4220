//! Drawings of 2-D layouts.

use svg::node::element::{Group, Rectangle, Text, Title};

use super::{document, MIN_WIDTH};

/// Most nodes plus edges drawn in one picture.
pub const LAYOUT_SVG_LIMIT: usize = 250_000;

/// Drawing of a 2-D layout (3-D layouts are drawn as their projection on
/// z = 0): processors dark, switches shaded by level, each wire a line with
/// its edge and nodes on hover, and a legend with the figures. `None` when
/// the layout has more than [`LAYOUT_SVG_LIMIT`] nodes and edges.
pub fn layout_svg(
    e: &crate::layout::Embedding,
    m: &crate::layout::metrics::LayoutMetrics,
) -> Option<String> {
    if e.nodes.len() + e.edges.len() > LAYOUT_SVG_LIMIT {
        return None;
    }
    let (lo, hi) = crate::layout::check::bounding_box(e)?;
    let side = (hi.x - lo.x + 1).max(hi.y - lo.y + 1) as f64;
    // One grid unit: large for small layouts, at least 1 px, about 800 px across.
    let unit = (800.0 / side).clamp(1.0, 24.0);
    let (left, top) = (20.0, 40.0);
    let px = |x: i64| left + (x - lo.x) as f64 * unit + unit / 2.0;
    let py = |y: i64| top + (hi.y - y) as f64 * unit + unit / 2.0;
    let levels = e.nodes.iter().map(|n| n.level).max().unwrap_or(0).max(1);
    let legend_lines = 3.0;
    let width = (left * 2.0 + (hi.x - lo.x + 1) as f64 * unit).max(MIN_WIDTH);
    let height = top + (hi.y - lo.y + 1) as f64 * unit + 20.0 + 18.0 * legend_lines;
    let mut doc = document(width, height).add(
        Text::new(format!(
            "{} ({}): {} x {}, area {}, wire length {} in all, {} at most",
            e.network,
            e.parameters
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", "),
            m.width,
            m.height,
            m.area,
            m.total_wire_length,
            m.max_wire_length
        ))
        .set("class", "legend")
        .set("x", left)
        .set("y", 18.0),
    );
    let mut boxes = Group::new();
    for n in &e.nodes {
        let fill = if n.kind == "processor" {
            "#333333".to_string()
        } else {
            // Lighter blue for higher levels.
            let t = n.level as f64 / levels as f64;
            let c = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
            format!(
                "#{:02x}{:02x}{:02x}",
                c(31.0, 174.0),
                c(119.0, 199.0),
                c(180.0, 232.0)
            )
        };
        boxes = boxes.add(
            Rectangle::new()
                .set("x", px(n.min.x) - unit / 2.0)
                .set("y", py(n.max.y) - unit / 2.0)
                .set("width", (n.max.x - n.min.x + 1) as f64 * unit)
                .set("height", (n.max.y - n.min.y + 1) as f64 * unit)
                .set("fill", fill)
                .set("stroke", "white")
                .set("stroke-width", (unit * 0.12).max(0.2))
                .add(Title::new(format!(
                    "node {} ({}, level {})",
                    n.id, n.kind, n.level
                ))),
        );
    }
    let mut wires = Group::new()
        .set("stroke", "#d62728")
        .set("stroke-width", (unit * 0.2).max(0.3))
        .set("fill", "none");
    for x in &e.edges {
        let points: Vec<String> = x
            .path
            .iter()
            .map(|p| format!("{:.2},{:.2}", px(p.x), py(p.y)))
            .collect();
        let mut line = svg::node::element::Polyline::new().set("points", points.join(" "));
        if unit >= 4.0 {
            line = line.add(Title::new(format!(
                "edge {}: node {} to node {}, length {}",
                x.id,
                x.from,
                x.to,
                x.length()
            )));
        }
        wires = wires.add(line);
    }
    doc = doc.add(boxes).add(wires);
    let base = top + (hi.y - lo.y + 1) as f64 * unit + 20.0;
    let legend = [
        "dark boxes: processors; blue boxes: switches, lighter at higher levels".to_string(),
        "red lines: wires, one per unit of channel capacity (hover for the edge)".to_string(),
        format!(
            "wire length per level: {}",
            m.per_level
                .iter()
                .map(|(l, w)| format!("{l}: {}x{}", w.edges, w.max))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ];
    for (k, line) in legend.iter().enumerate() {
        doc = doc.add(
            Text::new(line.clone())
                .set("class", "legend")
                .set("x", left)
                .set("y", base + 18.0 * k as f64),
        );
    }
    Some(doc.to_string())
}
