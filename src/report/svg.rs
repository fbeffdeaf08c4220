//! SVG drawings of channel problems and routed channels.
//!
//! Each layer has its own colour and stroke width (wider for lower layers so
//! that stacked wires stay visible); vias are black-edged squares, pins dark
//! dots labelled with their net. Every net is one `<g>` with a `<title>`, so
//! hovering shows the net id and highlights the whole net.

use svg::node::element::{Circle, Group, Line, Rectangle, Style, Text, Title};
use svg::Document;

use crate::channel::analysis::ChannelAnalysis;
use crate::channel::problem::ChannelProblem;
use crate::channel::solution::{ChannelSolution, Metrics};

const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

const CSS: &str = "text { font-family: sans-serif; } \
    .net:hover line { stroke: #000; stroke-opacity: 1; } \
    .net:hover rect { fill: #ff0; } \
    .pin { font-size: 8px; fill: #333; text-anchor: middle; } \
    .legend { font-size: 12px; fill: #222; }";

/// Narrowest picture, so that the title and legend of a small channel fit.
const MIN_WIDTH: f64 = 720.0;

/// Colour of a layer (1-based).
pub fn layer_colour(layer: u32) -> &'static str {
    PALETTE[(layer.saturating_sub(1) as usize) % PALETTE.len()]
}

/// Grid-to-picture mapping: `x = -1 .. C`, `y = 0 .. rows-1` (y up).
struct Frame {
    unit: f64,
    left: f64,
    top: f64,
    rows: i64,
}

impl Frame {
    fn x(&self, x: i64) -> f64 {
        self.left + (x + 1) as f64 * self.unit
    }

    fn y(&self, y: i64) -> f64 {
        self.top + (self.rows - 1 - y) as f64 * self.unit
    }
}

fn grid(frame: &Frame, columns: i64) -> Group {
    let mut g = Group::new()
        .set("stroke", "#e4e4e4")
        .set("stroke-width", 0.5);
    for x in -1..=columns {
        g = g.add(
            Line::new()
                .set("x1", frame.x(x))
                .set("x2", frame.x(x))
                .set("y1", frame.y(0))
                .set("y2", frame.y(frame.rows - 1)),
        );
    }
    for y in 0..frame.rows {
        g = g.add(
            Line::new()
                .set("x1", frame.x(-1))
                .set("x2", frame.x(columns))
                .set("y1", frame.y(y))
                .set("y2", frame.y(y)),
        );
    }
    g
}

/// Pins and their labels on both pin rows.
fn pins(problem: &ChannelProblem, frame: &Frame) -> Group {
    let mut g = Group::new();
    let top_y = frame.rows - 1;
    for x in 0..problem.columns() as usize {
        for (net, y, label_dy) in [
            (problem.bottom()[x], 0, frame.unit * 0.9),
            (problem.top()[x], top_y, -frame.unit * 0.6),
        ] {
            if let Some(id) = net {
                let label = problem.label(id);
                let (px, py) = (frame.x(x as i64), frame.y(y));
                g = g.add(
                    Circle::new()
                        .set("cx", px)
                        .set("cy", py)
                        .set("r", frame.unit * 0.2)
                        .set("fill", "#333")
                        .add(Title::new(format!("net {label} pin, column {x}"))),
                );
                g = g.add(
                    Text::new(label.to_string())
                        .set("class", "pin")
                        .set("x", px)
                        .set("y", py + label_dy),
                );
            }
        }
    }
    g
}

fn document(width: f64, height: f64) -> Document {
    Document::new()
        .set("viewBox", (0.0, 0.0, width, height))
        .set("width", width)
        .set("height", height)
        .add(Style::new(CSS))
        .add(
            Rectangle::new()
                .set("width", width)
                .set("height", height)
                .set("fill", "white"),
        )
}

/// Drawing of a routed channel.
pub fn solution_svg(
    problem: &ChannelProblem,
    solution: &ChannelSolution,
    metrics: &Metrics,
) -> String {
    let unit = 14.0;
    let rows = solution.width as i64 + 2;
    let columns = solution.columns as i64;
    let frame = Frame {
        unit,
        left: 30.0,
        top: 40.0,
        rows,
    };
    let legend_h = 40.0 + 18.0 * solution.layers as f64;
    let width = (frame.x(columns) + 30.0).max(MIN_WIDTH);
    let height = frame.y(0) + 30.0 + legend_h;
    let mut doc = document(width, height)
        .add(
            Text::new(format!(
                "{}: {} layers, width {}, density {}, net length {}, vias {}",
                solution.name,
                solution.layers,
                metrics.width,
                metrics.density,
                metrics.net_length,
                metrics.vias
            ))
            .set("class", "legend")
            .set("x", frame.left)
            .set("y", 18.0),
        )
        .add(grid(&frame, columns));
    let stroke =
        |layer: u32| unit * (0.5 - 0.3 * (layer - 1) as f64 / solution.layers.max(2) as f64);
    // One group per net, wires by layer from the bottom layer up.
    let mut nets: Vec<u32> = solution
        .wires
        .iter()
        .map(|w| w.net)
        .chain(solution.vias.iter().map(|v| v.net))
        .collect();
    nets.sort_unstable();
    nets.dedup();
    for net in nets {
        let mut g = Group::new()
            .set("class", "net")
            .add(Title::new(format!("net {net}")));
        for layer in 1..=solution.layers {
            for w in solution
                .wires
                .iter()
                .filter(|w| w.net == net && w.layer == layer)
            {
                g = g.add(
                    Line::new()
                        .set("x1", frame.x(w.from.x))
                        .set("y1", frame.y(w.from.y))
                        .set("x2", frame.x(w.to.x))
                        .set("y2", frame.y(w.to.y))
                        .set("stroke", layer_colour(layer))
                        .set("stroke-opacity", 0.85)
                        .set("stroke-width", stroke(layer))
                        .set("stroke-linecap", "round"),
                );
            }
        }
        for v in solution.vias.iter().filter(|v| v.net == net) {
            let s = unit * 0.42;
            g = g.add(
                Rectangle::new()
                    .set("x", frame.x(v.at.x) - s / 2.0)
                    .set("y", frame.y(v.at.y) - s / 2.0)
                    .set("width", s)
                    .set("height", s)
                    .set("fill", "white")
                    .set("fill-opacity", 0.6)
                    .set("stroke", "#000")
                    .set("stroke-width", 0.8)
                    .add(Title::new(format!(
                        "net {net}, via layers {}-{}",
                        v.from.min(v.to),
                        v.from.max(v.to)
                    ))),
            );
        }
        doc = doc.add(g);
    }
    doc = doc.add(pins(problem, &frame));
    // Legend: one swatch per layer, with its group type when known.
    let mut y = frame.y(0) + 40.0;
    for layer in 1..=solution.layers {
        let group = solution
            .groups
            .iter()
            .find(|g| g.layers.contains(&layer))
            .map(|g| {
                let k = g.layers.iter().position(|&l| l == layer).unwrap_or(0);
                let dir = g.kind.name().chars().nth(k).unwrap_or('?');
                format!(
                    " — {} group, {}",
                    g.kind,
                    if dir == 'H' {
                        "horizontal"
                    } else if dir == 'V' {
                        "vertical"
                    } else {
                        "both directions"
                    }
                )
            })
            .unwrap_or_default();
        doc = doc
            .add(
                Line::new()
                    .set("x1", frame.left)
                    .set("x2", frame.left + 30.0)
                    .set("y1", y - 4.0)
                    .set("y2", y - 4.0)
                    .set("stroke", layer_colour(layer))
                    .set("stroke-width", stroke(layer)),
            )
            .add(
                Text::new(format!("layer {layer}{group}"))
                    .set("class", "legend")
                    .set("x", frame.left + 40.0)
                    .set("y", y),
            );
        y += 18.0;
    }
    doc.add(
        Text::new("squares: vias; dots: pins (net id beside); hover a wire to see its net")
            .set("class", "legend")
            .set("x", frame.left)
            .set("y", y),
    )
    .to_string()
}

/// Drawing of an unrouted channel: pins, each net's span packed into rows
/// (interval packing, so the number of rows is the density), and the
/// density profile below.
pub fn problem_svg(problem: &ChannelProblem, analysis: &ChannelAnalysis) -> String {
    let unit = 14.0;
    let columns = problem.columns() as i64;
    // Pack spans of nets needing a track into rows, left edge first.
    let mut spans: Vec<(i64, i64, u32)> = problem
        .nets()
        .iter()
        .filter(|n| n.needs_track(problem.columns()))
        .map(|n| {
            let (a, b) = n.span(problem.columns());
            (a, b, n.label)
        })
        .collect();
    spans.sort_unstable();
    let mut row_end: Vec<i64> = Vec::new();
    let mut placed = Vec::new();
    for (a, b, label) in spans {
        let r = match row_end.iter().position(|&end| end < a) {
            Some(r) => r,
            None => {
                row_end.push(i64::MIN);
                row_end.len() - 1
            }
        };
        row_end[r] = b;
        placed.push((a, b, label, r as i64));
    }
    let rows = row_end.len() as i64 + 2;
    let frame = Frame {
        unit,
        left: 30.0,
        top: 40.0,
        rows,
    };
    let profile_h = 4.0 * analysis.density.max(1) as f64 + 20.0;
    let width = (frame.x(columns) + 30.0).max(MIN_WIDTH);
    let height = frame.y(0) + 40.0 + profile_h + 20.0;
    let mut doc = document(width, height)
        .add(
            Text::new(format!(
                "{}: {} columns, {} nets, density {}; net spans packed into {} rows",
                problem.name(),
                columns,
                problem.nets().len(),
                analysis.density,
                row_end.len()
            ))
            .set("class", "legend")
            .set("x", frame.left)
            .set("y", 18.0),
        )
        .add(grid(&frame, columns));
    for (a, b, label, r) in placed {
        let y = frame.y(rows - 2 - r);
        doc = doc.add(
            Group::new()
                .set("class", "net")
                .add(Title::new(format!("net {label}: columns {a} to {b}")))
                .add(
                    Line::new()
                        .set("x1", frame.x(a))
                        .set("x2", frame.x(b))
                        .set("y1", y)
                        .set("y2", y)
                        .set("stroke", layer_colour(1 + label % 8))
                        .set("stroke-width", unit * 0.45)
                        .set("stroke-linecap", "round"),
                ),
        );
    }
    doc = doc.add(pins(problem, &frame));
    // Density profile as bars.
    let base = frame.y(0) + 40.0 + profile_h;
    let scale = (profile_h - 10.0) / analysis.density.max(1) as f64;
    let mut bars = Group::new().set("fill", "#888");
    for (x, &d) in analysis.density_profile.iter().enumerate() {
        let h = d as f64 * scale;
        bars = bars.add(
            Rectangle::new()
                .set("x", frame.x(x as i64) - unit * 0.4)
                .set("y", base - h)
                .set("width", unit * 0.8)
                .set("height", h)
                .set(
                    "fill",
                    if d == analysis.density {
                        "#d62728"
                    } else {
                        "#888"
                    },
                )
                .add(Title::new(format!("column {x}: density {d}"))),
        );
    }
    doc.add(bars)
        .add(
            Text::new("density per column (red: maximum)")
                .set("class", "legend")
                .set("x", frame.left)
                .set("y", base + 16.0),
        )
        .to_string()
}

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

/// Most z-planes drawn as panels by [`layout_svg_3d`].
pub const LAYOUT_SVG_PLANES: usize = 64;

/// A 3-D layout: an isometric overview, then one panel per z-plane (x to
/// the right, y up) with the node boxes cut by the plane, the wire runs in
/// it, and a dot where a wire passes through it along z. `None` if the
/// layout is too large to draw or has more than [`LAYOUT_SVG_PLANES`]
/// planes.
pub fn layout_svg_3d(
    e: &crate::layout::Embedding,
    m: &crate::layout::metrics::LayoutMetrics,
) -> Option<String> {
    use crate::layout::P3;
    use std::collections::BTreeMap;
    if e.nodes.len() + e.edges.len() > LAYOUT_SVG_LIMIT {
        return None;
    }
    let (lo, hi) = crate::layout::check::bounding_box(e)?;
    let planes = (hi.z - lo.z + 1) as usize;
    if planes > LAYOUT_SVG_PLANES {
        return None;
    }
    let levels = e.nodes.iter().map(|n| n.level).max().unwrap_or(0).max(1);
    let colour = |level: u32| {
        let t = level as f64 / levels as f64;
        let c = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
        format!(
            "#{:02x}{:02x}{:02x}",
            c(214.0, 31.0),
            c(39.0, 119.0),
            c(40.0, 180.0)
        )
    };
    // Each edge's colour: the higher level of its two ends.
    let level_of: BTreeMap<u32, u32> = e.nodes.iter().map(|n| (n.id, n.level)).collect();
    let edge_level = |x: &crate::layout::Edge| {
        level_of
            .get(&x.from)
            .copied()
            .unwrap_or(0)
            .max(level_of.get(&x.to).copied().unwrap_or(0))
    };
    let (w, h, d) = (
        (hi.x - lo.x + 1) as f64,
        (hi.y - lo.y + 1) as f64,
        (hi.z - lo.z + 1) as f64,
    );
    // Isometric overview, about 640 px across: x runs right and down, z
    // right and up, y straight up.
    let (c30, s30) = (3f64.sqrt() / 2.0, 0.5);
    let raw = |x: f64, y: f64, z: f64| ((x + z) * c30, (x - z) * s30 - y);
    let corners: Vec<(f64, f64)> = [0.0, w]
        .iter()
        .flat_map(|&x| [0.0, h].map(move |y| (x, y)))
        .flat_map(|(x, y)| [0.0, d].map(move |z| raw(x, y, z)))
        .collect();
    let (min_u, max_u) = corners
        .iter()
        .fold((f64::MAX, f64::MIN), |a, c| (a.0.min(c.0), a.1.max(c.0)));
    let (min_v, max_v) = corners
        .iter()
        .fold((f64::MAX, f64::MIN), |a, c| (a.0.min(c.1), a.1.max(c.1)));
    let (iso_w, iso_h) = (max_u - min_u, max_v - min_v);
    let scale = (640.0 / iso_w.max(iso_h)).min(24.0);
    let (left, top) = (20.0, 40.0);
    let iso = |p: P3| {
        let (u, v) = raw(
            (p.x - lo.x) as f64,
            (p.y - lo.y) as f64,
            (p.z - lo.z) as f64,
        );
        (left + (u - min_u) * scale, top + (v - min_v) * scale)
    };
    let panel_unit = (220.0 / w.max(h)).clamp(0.5, 12.0);
    let panel = (w.max(h) * panel_unit, h * panel_unit);
    let columns = ((1100f64.max(iso_w * scale + 2.0 * left) - left) / (panel.0 + 24.0))
        .floor()
        .max(1.0) as usize;
    let rows = planes.div_ceil(columns);
    let iso_height = iso_h * scale;
    let width = (left * 2.0 + columns as f64 * (panel.0 + 24.0)).max(iso_w * scale + 2.0 * left);
    let height = top + iso_height + 30.0 + rows as f64 * (panel.1 + 40.0) + 40.0;
    let mut doc = document(width, height).add(
        Text::new(format!(
            "{} ({}): {} x {} x {}, volume {}, wire length {} in all, {} at most",
            e.network,
            e.parameters
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", "),
            m.width,
            m.height,
            m.depth,
            m.area,
            m.total_wire_length,
            m.max_wire_length
        ))
        .set("class", "legend")
        .set("x", left)
        .set("y", 18.0),
    );
    // Overview: wires as polylines, nodes as dots, far planes first.
    let mut order: Vec<&crate::layout::Edge> = e.edges.iter().collect();
    order.sort_by_key(|x| std::cmp::Reverse(x.path.iter().map(|p| p.z).min().unwrap_or(0)));
    let mut overview = Group::new()
        .set("fill", "none")
        .set("stroke-width", (scale * 0.25).max(0.3));
    for x in order {
        let points: Vec<String> = x
            .path
            .iter()
            .map(|&p| {
                let (a, b) = iso(p);
                format!("{a:.2},{b:.2}")
            })
            .collect();
        overview = overview.add(
            svg::node::element::Polyline::new()
                .set("points", points.join(" "))
                .set("stroke", colour(edge_level(x))),
        );
    }
    for n in &e.nodes {
        let (a, b) = iso(n.min);
        overview = overview.add(
            Rectangle::new()
                .set("x", a - scale * 0.4)
                .set("y", b - scale * 0.4)
                .set("width", scale * 0.8)
                .set("height", scale * 0.8)
                .set(
                    "fill",
                    if n.kind == "processor" {
                        "#333333"
                    } else {
                        "#1f77b4"
                    },
                )
                .set("stroke", "none"),
        );
    }
    doc = doc.add(overview);
    // Panels, one per z-plane.
    let base = top + iso_height + 30.0;
    for (k, z) in (lo.z..=hi.z).enumerate() {
        let (col, row) = (k % columns, k / columns);
        let ox = left + col as f64 * (panel.0 + 24.0);
        let oy = base + row as f64 * (panel.1 + 40.0);
        let px = |x: i64| ox + (x - lo.x) as f64 * panel_unit + panel_unit / 2.0;
        let py = |y: i64| oy + 16.0 + (hi.y - y) as f64 * panel_unit + panel_unit / 2.0;
        let mut g = Group::new().add(
            Text::new(format!("z = {z}"))
                .set("class", "legend")
                .set("x", ox)
                .set("y", oy + 10.0),
        );
        g = g.add(
            Rectangle::new()
                .set("x", ox)
                .set("y", oy + 16.0)
                .set("width", w * panel_unit)
                .set("height", h * panel_unit)
                .set("fill", "none")
                .set("stroke", "#cccccc"),
        );
        for n in e.nodes.iter().filter(|n| n.min.z <= z && z <= n.max.z) {
            g = g.add(
                Rectangle::new()
                    .set("x", px(n.min.x) - panel_unit / 2.0)
                    .set("y", py(n.max.y) - panel_unit / 2.0)
                    .set("width", (n.max.x - n.min.x + 1) as f64 * panel_unit)
                    .set("height", (n.max.y - n.min.y + 1) as f64 * panel_unit)
                    .set(
                        "fill",
                        if n.kind == "processor" {
                            "#333333"
                        } else {
                            "#1f77b4"
                        },
                    ),
            );
        }
        for x in &e.edges {
            let stroke = colour(edge_level(x));
            for s in x.path.windows(2) {
                let (a, b) = (s[0], s[1]);
                if a.z == z && b.z == z {
                    g = g.add(
                        svg::node::element::Line::new()
                            .set("x1", px(a.x))
                            .set("y1", py(a.y))
                            .set("x2", px(b.x))
                            .set("y2", py(b.y))
                            .set("stroke", stroke.clone())
                            .set("stroke-width", (panel_unit * 0.3).max(0.3)),
                    );
                } else if a.x == b.x && a.y == b.y && a.z.min(b.z) <= z && z <= a.z.max(b.z) {
                    g = g.add(
                        svg::node::element::Circle::new()
                            .set("cx", px(a.x))
                            .set("cy", py(a.y))
                            .set("r", (panel_unit * 0.3).max(0.4))
                            .set("fill", stroke.clone()),
                    );
                }
            }
        }
        doc = doc.add(g);
    }
    let legend_y = base + rows as f64 * (panel.1 + 40.0) + 10.0;
    doc = doc.add(
        Text::new(
            "overview: isometric (x right-down, z right-up, y up); panels: one per z-plane, x right, y up; dots: wires along z; colour from red (low levels) to blue (high)"
                .to_string(),
        )
        .set("class", "legend")
        .set("x", left)
        .set("y", legend_y),
    );
    Some(doc.to_string())
}
