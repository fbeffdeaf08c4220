//! Drawings of 3-D layouts: one labelled panel per z-plane, the key at
//! the top.

use svg::node::element::{Circle, Group, Line, Rectangle, Text, Title};

use super::layout::{title, AlongZ, LevelColours};
use super::{document, Mark, KEY_LINE, LAYOUT_SVG_LIMIT, WHITE};
use crate::layout::{Embedding, P3};

/// Most z-planes drawn as panels by [`layout_svg_3d`].
pub const LAYOUT_SVG_PLANES: usize = 64;

/// Left margin of the picture.
const LEFT: f64 = 20.0;
/// Gap between panels, across and down.
const GAP: f64 = 24.0;
/// Height of a panel's label above its frame.
const LABEL: f64 = 16.0;

/// A 3-D layout as a per-plane view: the title and the key at the top,
/// then one panel per z-plane from the bottom plane up, in rows (x to the
/// right, y up), each a group labelled `z = k` holding the node boxes the
/// plane cuts, the wire runs in it and a dot where a wire passes through
/// it along z. Colours as in the 2-D drawings: processors dark grey,
/// switches and wires by level. `None` if the layout has more than
/// [`LAYOUT_SVG_LIMIT`] nodes and edges or more than
/// [`LAYOUT_SVG_PLANES`] planes.
pub fn layout_svg_3d(e: &Embedding, m: &crate::layout::metrics::LayoutMetrics) -> Option<String> {
    if e.nodes.len() + e.edges.len() > LAYOUT_SVG_LIMIT {
        return None;
    }
    let (lo, hi) = crate::layout::check::bounding_box(e)?;
    let planes = (hi.z - lo.z + 1) as usize;
    if planes > LAYOUT_SVG_PLANES {
        return None;
    }
    let colours = LevelColours::of(e);
    let (w, h) = ((hi.x - lo.x + 1) as f64, (hi.y - lo.y + 1) as f64);
    let unit = (220.0 / w.max(h)).clamp(0.5, 12.0);
    let wire_width = (unit * 0.3).max(0.3);
    let mut key = colours.key(e, Mark::Line((wire_width * 10.0) as u32), AlongZ::Dots);
    key.add(
        Vec::new(),
        "",
        format!(
            "one panel per z-plane, z = {} (bottom) to {} (top); x to the right, y up",
            lo.z, hi.z
        ),
    );
    let panel = (w * unit, h * unit);
    let columns = ((1100.0 - LEFT) / (panel.0 + GAP)).floor().max(1.0) as usize;
    let columns = columns.min(planes);
    let rows = planes.div_ceil(columns);
    let top = 18.0 + KEY_LINE * (1.0 + key.entries()) + 10.0;
    let width = (LEFT * 2.0 + columns as f64 * (panel.0 + GAP)).max(super::MIN_WIDTH);
    let height = top + rows as f64 * (panel.1 + LABEL + GAP) + 10.0;
    let mut doc = document(width, height)
        .add(
            Text::new(title(e, m))
                .set("class", "legend")
                .set("x", LEFT)
                .set("y", 18.0),
        )
        .add(key.group(LEFT, 18.0 + KEY_LINE));
    for (k, z) in (lo.z..=hi.z).enumerate() {
        let (col, row) = (k % columns, k / columns);
        let frame = Panel {
            ox: LEFT + col as f64 * (panel.0 + GAP),
            oy: top + row as f64 * (panel.1 + LABEL + GAP),
            unit,
            lo,
            hi,
        };
        doc = doc.add(plane_panel(e, z, &frame, &colours, wire_width));
    }
    Some(doc.to_string())
}

/// Where one z-plane's panel sits and its grid unit.
struct Panel {
    ox: f64,
    oy: f64,
    unit: f64,
    lo: P3,
    hi: P3,
}

impl Panel {
    fn x(&self, x: i64) -> f64 {
        self.ox + (x - self.lo.x) as f64 * self.unit + self.unit / 2.0
    }

    fn y(&self, y: i64) -> f64 {
        self.oy + LABEL + (self.hi.y - y) as f64 * self.unit + self.unit / 2.0
    }
}

/// One z-plane: its label and frame, then (in its drawing) the node boxes
/// the plane cuts, the wire runs in it, and a dot where a wire passes
/// through it along z.
fn plane_panel(e: &Embedding, z: i64, p: &Panel, colours: &LevelColours, wire: f64) -> Group {
    let (lo, hi, unit) = (p.lo, p.hi, p.unit);
    let (w, h) = ((hi.x - lo.x + 1) as f64, (hi.y - lo.y + 1) as f64);
    let g = Group::new()
        .set("class", "plane")
        .set("id", format!("z{z}"))
        .add(Title::new(format!("plane z = {z}")))
        .add(
            Text::new(format!("z = {z}"))
                .set("class", "legend")
                .set("x", p.ox)
                .set("y", p.oy + 12.0),
        )
        .add(
            Rectangle::new()
                .set("x", p.ox)
                .set("y", p.oy + LABEL)
                .set("width", w * unit)
                .set("height", h * unit)
                .set("fill", "none")
                .set("stroke", "#cccccc"),
        );
    let mut drawing = Group::new().set("class", "drawing");
    for n in e.nodes.iter().filter(|n| n.min.z <= z && z <= n.max.z) {
        drawing = drawing.add(
            Rectangle::new()
                .set("x", p.x(n.min.x) - unit / 2.0)
                .set("y", p.y(n.max.y) - unit / 2.0)
                .set("width", (n.max.x - n.min.x + 1) as f64 * unit)
                .set("height", (n.max.y - n.min.y + 1) as f64 * unit)
                .set("fill", LevelColours::node(n))
                .set("stroke", WHITE)
                .set("stroke-width", (unit * 0.08).max(0.1)),
        );
    }
    for x in &e.edges {
        let stroke = colours.edge(x);
        for s in x.path.windows(2) {
            let (a, b) = (s[0], s[1]);
            if a.z == z && b.z == z {
                drawing = drawing.add(
                    Line::new()
                        .set("x1", p.x(a.x))
                        .set("y1", p.y(a.y))
                        .set("x2", p.x(b.x))
                        .set("y2", p.y(b.y))
                        .set("stroke", stroke)
                        .set("stroke-width", wire),
                );
            } else if a.x == b.x && a.y == b.y && a.z.min(b.z) <= z && z <= a.z.max(b.z) {
                drawing = drawing.add(
                    Circle::new()
                        .set("cx", p.x(a.x))
                        .set("cy", p.y(a.y))
                        .set("r", (unit * 0.3).max(0.4))
                        .set("fill", stroke),
                );
            }
        }
    }
    g.add(drawing)
}
