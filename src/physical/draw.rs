//! Routed channels and layouts drawn into a [`Sink`].
//!
//! A channel is one cell named after it: its outline on `boundary`, each
//! wire a path on `metalK` of its layer `K`, each via contact a square cut
//! (the wire width on a side) on `viaK` between `metalK` and `metalK+1`,
//! and each pin's net name on `label`. A layout is one cell per node, named
//! `N` and the node's id, holding the node's box on `nodeK` of each plane
//! it covers, placed in a top cell named after the network, which holds
//! the outline and the wires: each edge's path cut where it changes plane,
//! every run within a plane a path on that plane's `metalK`, every plane
//! change a cut on each `viaK` it crosses. Plane `K` is `z = z_min + K - 1`.

use std::collections::HashMap;
use std::io;

use super::layer_map::Layers;
use super::{cell_name, net_name, Rect, Sink, Units};
use crate::channel::problem::{ChannelProblem, Side};
use crate::channel::solution::ChannelSolution;
use crate::geom::Point;
use crate::layout::{Embedding, P3};

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

/// A pin of a routed channel: a top or bottom pin of the problem, or a
/// point where a side net leaves the channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelPin {
    /// `B` or `T` and the column (`B3`, `T7`), or `L` or `R` and the net's
    /// label (`L5`; `L5_2` for a second exit on the same side).
    pub name: String,
    /// The net's label.
    pub net: u32,
    /// The grid point.
    pub at: Point,
    /// The layers it is on, `lo ..= hi`: every layer for a top or bottom
    /// pin (pins are contacts through all layers, docs/models.md); for a
    /// side exit, the lowest layer of the net's wiring at the point.
    pub layers: (u32, u32),
}

/// The pins of a routed channel: the problem's top and bottom pins, then
/// the side exits (end points of the net's wires at `x = -1` or `x = C`,
/// on the lowest layer a wire of the net ends there), in net order.
pub fn channel_pins(problem: &ChannelProblem, s: &ChannelSolution) -> Vec<ChannelPin> {
    // The lowest layer of each net at each wire end and via.
    let mut lowest: HashMap<(u32, Point), u32> = HashMap::new();
    let mut note = |net: u32, p: Point, layer: u32| {
        let e = lowest.entry((net, p)).or_insert(layer);
        *e = (*e).min(layer);
    };
    for w in &s.wires {
        note(w.net, w.from, w.layer);
        note(w.net, w.to, w.layer);
    }
    for v in &s.vias {
        note(v.net, v.at, v.from.min(v.to));
    }
    // Side exits are wire ends, so every one is in the map.
    let layer_at = |net: u32, p: Point| -> u32 { lowest.get(&(net, p)).copied().unwrap_or(1) };
    let top_row = s.width as i64 + 1;
    let mut pins = Vec::new();
    for net in problem.nets() {
        for pin in &net.pins {
            let (prefix, y) = match pin.side {
                Side::Bottom => ('B', 0),
                Side::Top => ('T', top_row),
            };
            let at = Point::new(pin.column as i64, y);
            pins.push(ChannelPin {
                name: format!("{prefix}{}", pin.column),
                net: net.label,
                at,
                layers: (1, s.layers.max(1)),
            });
        }
    }
    let columns = s.columns as i64;
    let mut sides: Vec<(u32, bool, Point)> = s
        .wires
        .iter()
        .flat_map(|w| [(w.net, w.from), (w.net, w.to)])
        .filter(|(_, p)| p.x == -1 || p.x == columns)
        .map(|(net, p)| (net, p.x == -1, p))
        .collect();
    sides.sort_by_key(|&(net, left, p)| (net, !left, p.y));
    sides.dedup();
    let mut count: HashMap<(u32, bool), u32> = HashMap::new();
    for (net, left, at) in sides {
        let k = count.entry((net, left)).or_insert(0);
        *k += 1;
        let side = if left { 'L' } else { 'R' };
        pins.push(ChannelPin {
            name: if *k == 1 {
                format!("{side}{net}")
            } else {
                format!("{side}{net}_{k}")
            },
            net,
            at,
            layers: (layer_at(net, at), layer_at(net, at)),
        });
    }
    pins
}

/// The outline of a routed channel: the grid from `(-1, 0)` to `(C, W+1)`
/// grown by half the wire width (so it holds every wire).
pub fn channel_outline(s: &ChannelSolution, u: &Units) -> Rect {
    let h = u.half_width();
    Rect {
        lo: (-u.pitch - h, -h),
        hi: (u.at(s.columns as i64) + h, u.at(s.width as i64 + 1) + h),
    }
}

/// Draw a routed channel (its layers resolved for `s.layers` planes).
pub fn draw_channel(
    problem: &ChannelProblem,
    s: &ChannelSolution,
    u: &Units,
    layers: &Layers,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    let at = |p: Point| (u.at(p.x), u.at(p.y));
    let metal = |k: u32| {
        layers
            .metal
            .get((k as usize).wrapping_sub(1))
            .copied()
            .ok_or_else(|| invalid(format!("a wire or via on layer {k} of {}", s.layers)))
    };
    sink.begin_cell(&cell_name(&s.name))?;
    sink.rect(layers.boundary, channel_outline(s, u))?;
    let h = u.half_width();
    for w in &s.wires {
        let layer = metal(w.layer)?;
        if w.from == w.to {
            let (x, y) = at(w.from);
            sink.rect(layer, Rect::around(x, y, h))?;
        } else {
            sink.path(layer, u.wire_width, &[at(w.from), at(w.to)])?;
        }
    }
    for v in &s.vias {
        let (x, y) = at(v.at);
        for k in v.from.min(v.to)..v.from.max(v.to) {
            metal(k + 1)?;
            sink.rect(layers.via[k as usize - 1], Rect::around(x, y, h))?;
        }
    }
    for pin in channel_pins(problem, s) {
        sink.text(layers.label, at(pin.at), &net_name(pin.net))?;
    }
    sink.end_cell()?;
    sink.finish()
}

/// The planes of a layout: the least and greatest `z` of its nodes and
/// wires (`(0, 0)` for an empty one).
pub fn layout_planes(e: &Embedding) -> (i64, i64) {
    let zs = e
        .nodes
        .iter()
        .flat_map(|n| [n.min.z, n.max.z])
        .chain(e.edges.iter().flat_map(|d| d.path.iter().map(|p| p.z)));
    zs.fold(None, |acc: Option<(i64, i64)>, z| {
        Some(acc.map_or((z, z), |(lo, hi)| (lo.min(z), hi.max(z))))
    })
    .unwrap_or((0, 0))
}

/// The outline of a layout: its grid bounding box grown by the node
/// margin (which holds every node box and wire).
pub fn layout_outline(e: &Embedding, u: &Units) -> Rect {
    let m = u.node_margin();
    let points = e
        .nodes
        .iter()
        .flat_map(|n| [n.min, n.max])
        .chain(e.edges.iter().flat_map(|d| d.path.iter().copied()));
    points
        .map(|p| Rect::around(u.at(p.x), u.at(p.y), m))
        .reduce(Rect::union)
        .unwrap_or_default()
}

/// The name of a node's cell: `N` and its id.
pub fn node_cell_name(id: u32) -> String {
    format!("N{id}")
}

/// Draw a layout (its layers resolved for its planes, with nodes).
pub fn draw_layout(
    e: &Embedding,
    u: &Units,
    layers: &Layers,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    let (z0, _) = layout_planes(e);
    let plane = |z: i64| (z - z0) as usize;
    let m = u.node_margin();
    let mut cells = Vec::with_capacity(e.nodes.len());
    for n in &e.nodes {
        let id = sink.begin_cell(&node_cell_name(n.id))?;
        let r = Rect {
            lo: (0, 0),
            hi: (
                u.at(n.max.x - n.min.x) + 2 * m,
                u.at(n.max.y - n.min.y) + 2 * m,
            ),
        };
        for z in n.min.z..=n.max.z {
            sink.rect(layers.node[plane(z)], r)?;
        }
        sink.end_cell()?;
        cells.push(id);
    }
    sink.begin_cell(&cell_name(e.network.as_str()))?;
    sink.rect(layers.boundary, layout_outline(e, u))?;
    for (n, &id) in e.nodes.iter().zip(&cells) {
        sink.place(id, (u.at(n.min.x) - m, u.at(n.min.y) - m))?;
    }
    let h = u.half_width();
    let mut run: Vec<(i64, i64)> = Vec::new();
    for edge in &e.edges {
        let Some(first) = edge.path.first() else {
            continue;
        };
        let mut run_z = first.z;
        run.clear();
        let mut last: Option<P3> = None;
        for &p in &edge.path {
            if let Some(q) = last {
                if q.z != p.z {
                    if (q.x, q.y) != (p.x, p.y) {
                        return Err(invalid(format!(
                            "edge {}: step {q:?} -> {p:?} changes plane and position at once",
                            edge.id
                        )));
                    }
                    flush_run(sink, layers, u, &mut run, plane(run_z))?;
                    for z in q.z.min(p.z)..q.z.max(p.z) {
                        sink.rect(layers.via[plane(z)], Rect::around(u.at(p.x), u.at(p.y), h))?;
                    }
                    run_z = p.z;
                }
            }
            let xy = (u.at(p.x), u.at(p.y));
            if run.last() != Some(&xy) {
                run.push(xy);
            }
            last = Some(p);
        }
        flush_run(sink, layers, u, &mut run, plane(run_z))?;
    }
    sink.end_cell()?;
    sink.finish()
}

/// One edge's run within a plane as a path (nothing for a lone point,
/// which only a plane change touches), its straight-through points dropped.
fn flush_run(
    sink: &mut dyn Sink,
    layers: &Layers,
    u: &Units,
    run: &mut Vec<(i64, i64)>,
    plane: usize,
) -> io::Result<()> {
    if run.len() >= 2 {
        // Compact in place: drop each point the path runs straight through.
        let mut n = 0;
        for i in 0..run.len() {
            let p = run[i];
            if n >= 2 {
                let (a, b) = (run[n - 2], run[n - 1]);
                let between = |a: i64, b: i64, c: i64| a.min(c) <= b && b <= a.max(c);
                let straight = (a.0 == b.0 && b.0 == p.0 && between(a.1, b.1, p.1))
                    || (a.1 == b.1 && b.1 == p.1 && between(a.0, b.0, p.0));
                if straight {
                    n -= 1;
                }
            }
            run[n] = p;
            n += 1;
        }
        run.truncate(n);
        sink.path(layers.metal[plane], u.wire_width, run)?;
    }
    run.clear();
    Ok(())
}
