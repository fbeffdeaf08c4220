//! Drawings of 2-D layouts, and the colours and key shared with the 3-D
//! ones.

use std::collections::{BTreeMap, BTreeSet};

use svg::node::element::{Group, Rectangle, Text, Title};

use super::{document, level_colour, levels_text, Key, Mark, DARK, KEY_LINE, MIN_WIDTH, WHITE};
use crate::layout::{Edge, Embedding, Node};

/// Most nodes plus edges drawn in one picture.
pub const LAYOUT_SVG_LIMIT: usize = 250_000;

/// Whether a drawing marks wires running along z with dots (3-D panels).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AlongZ {
    /// Dots where a wire passes through a plane along z.
    Dots,
    /// A 2-D drawing: no such wires.
    Flat,
}

/// Colours of a layout's nodes and wires: processors dark grey, other
/// nodes and wires by level ([`level_colour`]); a wire takes the higher
/// level of its two ends.
pub(super) struct LevelColours {
    level_of: BTreeMap<u32, u32>,
}

impl LevelColours {
    pub fn of(e: &Embedding) -> LevelColours {
        LevelColours {
            level_of: e.nodes.iter().map(|n| (n.id, n.level)).collect(),
        }
    }

    /// The level of a wire: the higher of its ends'.
    pub fn edge_level(&self, x: &Edge) -> u32 {
        let level = |id: &u32| self.level_of.get(id).copied().unwrap_or(0);
        level(&x.from).max(level(&x.to))
    }

    pub fn edge(&self, x: &Edge) -> &'static str {
        level_colour(self.edge_level(x))
    }

    pub fn node(n: &Node) -> &'static str {
        if n.kind == "processor" {
            DARK
        } else {
            level_colour(n.level)
        }
    }

    /// The key of a drawing of `e`: processors, then one line per colour
    /// used, naming the levels that share it and what is drawn in it.
    /// `wire` is the mark of a wire (its stroke width).
    pub fn key(&self, e: &Embedding, wire: Mark, along_z: AlongZ) -> Key {
        let mut key = Key::default();
        if e.nodes.iter().any(|n| n.kind == "processor") {
            key.add(vec![Mark::Box], DARK, "processors".to_string());
        }
        // Per colour: its levels, and whether nodes and wires use it.
        let mut used: BTreeMap<&'static str, (BTreeSet<u32>, bool, bool)> = BTreeMap::new();
        for n in e.nodes.iter().filter(|n| n.kind != "processor") {
            let entry = used.entry(level_colour(n.level)).or_default();
            entry.0.insert(n.level);
            entry.1 = true;
        }
        for x in &e.edges {
            let level = self.edge_level(x);
            let entry = used.entry(level_colour(level)).or_default();
            entry.0.insert(level);
            entry.2 = true;
        }
        let mut by_level: Vec<_> = used.into_iter().collect();
        by_level.sort_by_key(|(_, (levels, _, _))| levels.first().copied());
        for (colour, (levels, nodes, wires)) in by_level {
            let mut marks = Vec::new();
            let mut what = Vec::new();
            if nodes {
                marks.push(Mark::Box);
                what.push("switches");
            }
            if wires {
                marks.push(wire);
                what.push("wires");
                if along_z == AlongZ::Dots {
                    marks.push(Mark::Dot);
                    what.push("dots: wires along z");
                }
            }
            let levels: Vec<u32> = levels.into_iter().collect();
            key.add(
                marks,
                colour,
                format!("{}: {}", levels_text(&levels), what.join(", ")),
            );
        }
        key
    }
}

/// The title line of a layout drawing: the network, its parameters and
/// its figures.
pub(super) fn title(e: &Embedding, m: &crate::layout::metrics::LayoutMetrics) -> String {
    let params = e
        .parameters
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ");
    let size = if e.dimensions == 3 {
        format!(
            "{} x {} x {}, volume {}",
            m.width, m.height, m.depth, m.area
        )
    } else {
        format!("{} x {}, area {}", m.width, m.height, m.area)
    };
    format!(
        "{} ({params}): {size}, wire length {} in all, {} at most",
        e.network, m.total_wire_length, m.max_wire_length
    )
}

/// Drawing of a 2-D layout: the title and the key at the top, then node
/// boxes (processors dark grey, switches in their level's colour) and
/// wires in the colour of their higher end's level, each with its edge or
/// node on hover. `None` when the layout has more than
/// [`LAYOUT_SVG_LIMIT`] nodes and edges.
pub fn layout_svg(e: &Embedding, m: &crate::layout::metrics::LayoutMetrics) -> Option<String> {
    if e.nodes.len() + e.edges.len() > LAYOUT_SVG_LIMIT {
        return None;
    }
    let (lo, hi) = crate::layout::check::bounding_box(e)?;
    let side = (hi.x - lo.x + 1).max(hi.y - lo.y + 1) as f64;
    // One grid unit: large for small layouts, at least 1 px, about 800 px across.
    let unit = (800.0 / side).clamp(1.0, 24.0);
    let wire_width = (unit * 0.2).max(0.3);
    let colours = LevelColours::of(e);
    let mut key = colours.key(e, Mark::Line((wire_width * 10.0) as u32), AlongZ::Flat);
    key.add(
        Vec::new(),
        "",
        format!(
            "wire length per level (wires x longest): {}",
            m.per_level
                .iter()
                .map(|(l, w)| format!("{l}: {}x{}", w.edges, w.max))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
    let left = 20.0;
    let top = 40.0 + key.height();
    let px = |x: i64| left + (x - lo.x) as f64 * unit + unit / 2.0;
    let py = |y: i64| top + (hi.y - y) as f64 * unit + unit / 2.0;
    let width = (left * 2.0 + (hi.x - lo.x + 1) as f64 * unit).max(MIN_WIDTH);
    let height = top + (hi.y - lo.y + 1) as f64 * unit + 20.0;
    let doc = document(width, height)
        .add(
            Text::new(title(e, m))
                .set("class", "legend")
                .set("x", left)
                .set("y", 18.0),
        )
        .add(key.group(left, 18.0 + KEY_LINE));
    let mut boxes = Group::new();
    for n in &e.nodes {
        boxes = boxes.add(
            Rectangle::new()
                .set("x", px(n.min.x) - unit / 2.0)
                .set("y", py(n.max.y) - unit / 2.0)
                .set("width", (n.max.x - n.min.x + 1) as f64 * unit)
                .set("height", (n.max.y - n.min.y + 1) as f64 * unit)
                .set("fill", LevelColours::node(n))
                .set("stroke", WHITE)
                .set("stroke-width", (unit * 0.12).max(0.2))
                .add(Title::new(format!(
                    "node {} ({}, level {})",
                    n.id, n.kind, n.level
                ))),
        );
    }
    let mut wires = Group::new()
        .set("stroke-width", wire_width)
        .set("fill", "none");
    for x in &e.edges {
        let points: Vec<String> = x
            .path
            .iter()
            .map(|p| format!("{:.2},{:.2}", px(p.x), py(p.y)))
            .collect();
        let mut line = svg::node::element::Polyline::new()
            .set("points", points.join(" "))
            .set("stroke", colours.edge(x));
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
    let drawing = Group::new().set("class", "drawing").add(boxes).add(wires);
    Some(doc.add(drawing).to_string())
}
