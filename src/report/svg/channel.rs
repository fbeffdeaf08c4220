//! Channel drawings: a routed channel (whole, or a window of its
//! columns) with its track and column axes, and an unrouted one with its
//! net spans and density profile.

use svg::node::element::{Circle, Group, Line, Rectangle, Text, Title};

use super::window::ColumnWindow;
use super::{document, layer_colour, Key, Mark, BLACK, DARK, MIN_WIDTH, WHITE};
use crate::channel::analysis::ChannelAnalysis;
use crate::channel::problem::ChannelProblem;
use crate::channel::solution::{ChannelSolution, Metrics};

/// Grid-to-picture mapping of the columns `from ..= to` (the whole
/// channel with its side exits is `-1 ..= C`) and rows `0 .. rows - 1`
/// (y up).
struct Frame {
    unit: f64,
    left: f64,
    top: f64,
    rows: i64,
    from: i64,
    to: i64,
}

impl Frame {
    fn x(&self, x: i64) -> f64 {
        self.left + (x - self.from) as f64 * self.unit
    }

    fn y(&self, y: i64) -> f64 {
        self.top + (self.rows - 1 - y) as f64 * self.unit
    }

    /// Whether column `x` is drawn.
    fn shows(&self, x: i64) -> bool {
        self.from <= x && x <= self.to
    }
}

fn grid(frame: &Frame) -> Group {
    let mut g = Group::new()
        .set("stroke", "#e4e4e4")
        .set("stroke-width", 0.5);
    for x in frame.from..=frame.to {
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
                .set("x1", frame.x(frame.from))
                .set("x2", frame.x(frame.to))
                .set("y1", frame.y(y))
                .set("y2", frame.y(y)),
        );
    }
    g
}

/// Pins and their labels on both pin rows, in the frame's columns.
fn pins(problem: &ChannelProblem, frame: &Frame) -> Group {
    let mut g = Group::new();
    let top_y = frame.rows - 1;
    for x in 0..problem.columns() as usize {
        if !frame.shows(x as i64) {
            continue;
        }
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
                        .set("fill", DARK)
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

/// Columns between two column labels: the least of 1, 2, 5, 10, 20, 50,
/// ... that leaves room for the widest label.
fn label_step(frame: &Frame) -> i64 {
    let digits = frame.to.max(1).to_string().len() as f64;
    let room = digits * 6.0 + 6.0;
    let mut step = 1;
    for k in 0.. {
        step = [1, 2, 5][k % 3] * 10i64.pow(k as u32 / 3);
        if step as f64 * frame.unit >= room {
            break;
        }
    }
    step
}

/// The axes of a routed channel: each row's number on the left (tracks
/// `1 .. W`, pin rows 0 and `W + 1`), and the channel's column numbers
/// above and below, every few columns and at both ends of the columns
/// drawn.
fn axes(frame: &Frame, columns: i64) -> Group {
    let mut g = Group::new();
    for y in 0..frame.rows {
        g = g.add(
            Text::new(y.to_string())
                .set("class", "axis track")
                .set("x", frame.x(frame.from) - 8.0)
                .set("y", frame.y(y) + 3.0),
        );
    }
    let (first, last) = (frame.from.max(0), frame.to.min(columns - 1));
    let step = label_step(frame);
    let mut labelled: Vec<i64> = (first..=last).filter(|x| x % step == 0).collect();
    for end in [first, last] {
        let near = labelled.iter().any(|&x| (x - end).abs() * 2 < step);
        if !near || step == 1 {
            labelled.push(end);
        }
    }
    labelled.sort_unstable();
    labelled.dedup();
    for x in labelled {
        for y in [
            frame.y(frame.rows - 1) - frame.unit * 1.4,
            frame.y(0) + frame.unit * 2.0,
        ] {
            g = g.add(
                Text::new(x.to_string())
                    .set("class", "axis column")
                    .set("x", frame.x(x))
                    .set("y", y),
            );
        }
    }
    g
}

/// Drawing of a routed channel, whole or the columns of `window` (checked
/// against the channel by the caller), with its axes: the title, the
/// routing (one group per net), the track numbers on the left and the
/// column numbers above and below, then the key.
pub fn solution_svg(
    problem: &ChannelProblem,
    solution: &ChannelSolution,
    metrics: &Metrics,
    window: Option<ColumnWindow>,
) -> String {
    let columns = solution.columns as i64;
    let (from, to) = match window {
        Some(w) => (i64::from(w.first), i64::from(w.last).min(columns - 1)),
        None => (-1, columns),
    };
    let frame = Frame {
        unit: 14.0,
        left: 44.0,
        top: 62.0,
        rows: solution.width as i64 + 2,
        from,
        to,
    };
    let shown = match window {
        Some(w) => format!(" (columns {w} of 0..{})", columns - 1),
        None => String::new(),
    };
    let mut nets: Vec<u32> = solution
        .wires
        .iter()
        .map(|w| w.net)
        .chain(solution.vias.iter().map(|v| v.net))
        .collect();
    nets.sort_unstable();
    nets.dedup();
    let mut drawing = Group::new().set("class", "drawing");
    for net in nets {
        if let Some(g) = net_group(solution, &frame, net) {
            drawing = drawing.add(g);
        }
    }
    let drawn = Drawn::of(problem, solution, &frame);
    let key = layer_key(solution, &frame, &drawn);
    let width = (frame.x(frame.to) + 30.0).max(MIN_WIDTH);
    let key_top = frame.y(0) + frame.unit * 2.0 + 30.0;
    let height = key_top + key.height() + 10.0;
    document(width, height)
        .add(
            Text::new(format!(
                "{}{shown}: {} layers, width {}, density {}, net length {}, vias {}",
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
        .add(grid(&frame))
        .add(axes(&frame, columns))
        .add(drawing.add(pins(problem, &frame)))
        .add(key.group(frame.left, key_top))
        .to_string()
}

/// Stroke width of a layer's wires: wider for lower layers.
fn stroke_width(solution: &ChannelSolution, unit: f64, layer: u32) -> f64 {
    unit * (0.5 - 0.3 * (layer - 1) as f64 / solution.layers.max(2) as f64)
}

/// The part of a wire from `a` to `b` in the frame's columns, if any.
fn clipped(frame: &Frame, a: i64, b: i64) -> Option<(i64, i64)> {
    let (lo, hi) = (a.min(b).max(frame.from), a.max(b).min(frame.to));
    (lo <= hi).then_some((lo, hi))
}

/// One net of a routing: its wires by layer from the bottom up (cut to
/// the frame's columns), then its vias, in one group titled with the
/// net; `None` when nothing of it is in the frame.
fn net_group(solution: &ChannelSolution, frame: &Frame, net: u32) -> Option<Group> {
    let unit = frame.unit;
    let mut g = Group::new()
        .set("class", "net")
        .add(Title::new(format!("net {net}")));
    let mut any = false;
    for layer in 1..=solution.layers {
        for w in solution
            .wires
            .iter()
            .filter(|w| w.net == net && w.layer == layer)
        {
            let Some((x1, x2)) = clipped(frame, w.from.x, w.to.x) else {
                continue;
            };
            any = true;
            g = g.add(
                Line::new()
                    .set("x1", frame.x(x1))
                    .set("y1", frame.y(w.from.y))
                    .set("x2", frame.x(x2))
                    .set("y2", frame.y(w.to.y))
                    .set("stroke", layer_colour(layer))
                    .set("stroke-opacity", 0.85)
                    .set("stroke-width", stroke_width(solution, unit, layer))
                    .set("stroke-linecap", "round"),
            );
        }
    }
    for v in solution
        .vias
        .iter()
        .filter(|v| v.net == net && frame.shows(v.at.x))
    {
        any = true;
        let s = unit * 0.42;
        g = g.add(
            Rectangle::new()
                .set("x", frame.x(v.at.x) - s / 2.0)
                .set("y", frame.y(v.at.y) - s / 2.0)
                .set("width", s)
                .set("height", s)
                .set("fill", WHITE)
                .set("fill-opacity", 0.6)
                .set("stroke", BLACK)
                .set("stroke-width", 0.8)
                .add(Title::new(format!(
                    "net {net}, via layers {}-{}",
                    v.from.min(v.to),
                    v.from.max(v.to)
                ))),
        );
    }
    any.then_some(g)
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

/// What a routing's drawing shows in its frame: the layers with a wire,
/// and whether a via and a pin.
struct Drawn {
    layers: Vec<bool>,
    vias: bool,
    pins: bool,
}

impl Drawn {
    fn of(problem: &ChannelProblem, solution: &ChannelSolution, frame: &Frame) -> Drawn {
        let mut layers = vec![false; solution.layers as usize + 1];
        for w in &solution.wires {
            if clipped(frame, w.from.x, w.to.x).is_some() {
                layers[w.layer as usize] = true;
            }
        }
        let pin = |x: usize| problem.top()[x].is_some() || problem.bottom()[x].is_some();
        Drawn {
            layers,
            vias: solution.vias.iter().any(|v| frame.shows(v.at.x)),
            pins: (0..problem.columns() as usize).any(|x| frame.shows(x as i64) && pin(x)),
        }
    }
}

/// The key below a routing: one swatch per layer drawn, with its group
/// type when known, then vias, pins and the axes.
fn layer_key(solution: &ChannelSolution, frame: &Frame, drawn: &Drawn) -> Key {
    let mut key = Key::default();
    for layer in 1..=solution.layers {
        let group = layer_group_text(solution, layer);
        if drawn.layers[layer as usize] {
            let width = stroke_width(solution, frame.unit, layer);
            key.add(
                vec![Mark::Line((width * 10.0) as u32)],
                layer_colour(layer),
                format!("layer {layer}{group}"),
            );
        } else {
            key.add(
                Vec::new(),
                "",
                format!("layer {layer}{group}: no wires in view"),
            );
        }
    }
    if drawn.vias {
        key.add(
            vec![Mark::Via],
            WHITE,
            "vias (hover a wire to see its net)".into(),
        );
    }
    if drawn.pins {
        key.add(vec![Mark::Dot], DARK, "pins, net label beside".into());
    }
    key.add(
        Vec::new(),
        "",
        format!(
            "numbers on the left: rows (tracks 1..{}, pin rows 0 and {}); above and below: columns",
            frame.rows - 2,
            frame.rows - 1
        ),
    );
    key
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
        from: -1,
        to: columns,
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
        .add(grid(&frame));
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
