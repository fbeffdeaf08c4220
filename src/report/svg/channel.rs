//! Channel drawings: a routed channel, and an unrouted one with its net
//! spans and density profile.

use svg::node::element::{Circle, Group, Line, Rectangle, Text, Title};

use svg::Document;

use super::{document, layer_colour, MIN_WIDTH};
use crate::channel::analysis::ChannelAnalysis;
use crate::channel::problem::ChannelProblem;
use crate::channel::solution::{ChannelSolution, Metrics};

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
        doc = doc.add(net_group(solution, &frame, net));
    }
    doc = doc.add(pins(problem, &frame));
    layer_legend(doc, solution, &frame).to_string()
}

/// Stroke width of a layer's wires: wider for lower layers.
fn stroke_width(solution: &ChannelSolution, unit: f64, layer: u32) -> f64 {
    unit * (0.5 - 0.3 * (layer - 1) as f64 / solution.layers.max(2) as f64)
}

/// One net of a routing: its wires by layer from the bottom up, then its
/// vias, in one group titled with the net.
fn net_group(solution: &ChannelSolution, frame: &Frame, net: u32) -> Group {
    let unit = frame.unit;
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
                    .set("stroke-width", stroke_width(solution, unit, layer))
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
    g
}

/// The group type of a layer and its direction in it (` — HV group,
/// horizontal`), or nothing when the routing has no groups.
fn layer_group_text(solution: &ChannelSolution, layer: u32) -> String {
    solution
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
        .unwrap_or_default()
}

/// The legend below a routing: one swatch per layer, with its group type
/// when known, and a line on the symbols.
fn layer_legend(mut doc: Document, solution: &ChannelSolution, frame: &Frame) -> Document {
    let mut y = frame.y(0) + 40.0;
    for layer in 1..=solution.layers {
        let group = layer_group_text(solution, layer);
        doc = doc
            .add(
                Line::new()
                    .set("x1", frame.left)
                    .set("x2", frame.left + 30.0)
                    .set("y1", y - 4.0)
                    .set("y2", y - 4.0)
                    .set("stroke", layer_colour(layer))
                    .set("stroke-width", stroke_width(solution, frame.unit, layer)),
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
