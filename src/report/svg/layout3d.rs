//! Drawings of 3-D layouts: an isometric overview and one panel per
//! z-plane.

use svg::node::element::{Group, Rectangle, Text};

use std::collections::BTreeMap;

use super::{document, LAYOUT_SVG_LIMIT};
use crate::layout::{Edge, Embedding, P3};

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
    if e.nodes.len() + e.edges.len() > LAYOUT_SVG_LIMIT {
        return None;
    }
    let (lo, hi) = crate::layout::check::bounding_box(e)?;
    let planes = (hi.z - lo.z + 1) as usize;
    if planes > LAYOUT_SVG_PLANES {
        return None;
    }
    let colours = EdgeColours::of(e);
    let iso = Iso::new(lo, hi);
    let (w, h) = ((hi.x - lo.x + 1) as f64, (hi.y - lo.y + 1) as f64);
    let panel_unit = (220.0 / w.max(h)).clamp(0.5, 12.0);
    let panel = (w.max(h) * panel_unit, h * panel_unit);
    let iso_width = iso.width * iso.scale;
    let columns = ((1100f64.max(iso_width + 2.0 * LEFT) - LEFT) / (panel.0 + 24.0))
        .floor()
        .max(1.0) as usize;
    let rows = planes.div_ceil(columns);
    let iso_height = iso.height * iso.scale;
    let width = (LEFT * 2.0 + columns as f64 * (panel.0 + 24.0)).max(iso_width + 2.0 * LEFT);
    let height = TOP + iso_height + 30.0 + rows as f64 * (panel.1 + 40.0) + 40.0;
    let mut doc = document(width, height)
        .add(title(e, m))
        .add(overview(e, &iso, &colours));
    // Panels, one per z-plane.
    let base = TOP + iso_height + 30.0;
    for (k, z) in (lo.z..=hi.z).enumerate() {
        let (col, row) = (k % columns, k / columns);
        let panel_frame = Panel {
            ox: LEFT + col as f64 * (panel.0 + 24.0),
            oy: base + row as f64 * (panel.1 + 40.0),
            unit: panel_unit,
            lo,
            hi,
        };
        doc = doc.add(plane_panel(e, z, &panel_frame, &colours));
    }
    let legend_y = base + rows as f64 * (panel.1 + 40.0) + 10.0;
    doc = doc.add(
        Text::new(
            "overview: isometric (x right-down, z right-up, y up); panels: one per z-plane, x right, y up; dots: wires along z; colour from red (low levels) to blue (high)"
                .to_string(),
        )
        .set("class", "legend")
        .set("x", LEFT)
        .set("y", legend_y),
    );
    Some(doc.to_string())
}

/// Left margin of the picture.
const LEFT: f64 = 20.0;
/// Top margin of the picture (below the title).
const TOP: f64 = 40.0;

/// The title line: the network, its parameters and its figures.
fn title(e: &Embedding, m: &crate::layout::metrics::LayoutMetrics) -> Text {
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
    .set("x", LEFT)
    .set("y", 18.0)
}

/// Wire colours by level, from red (low levels) to blue (high); an edge
/// takes the higher level of its two ends.
struct EdgeColours {
    levels: u32,
    level_of: BTreeMap<u32, u32>,
}

impl EdgeColours {
    fn of(e: &Embedding) -> EdgeColours {
        EdgeColours {
            levels: e.nodes.iter().map(|n| n.level).max().unwrap_or(0).max(1),
            level_of: e.nodes.iter().map(|n| (n.id, n.level)).collect(),
        }
    }

    fn colour(&self, level: u32) -> String {
        let t = level as f64 / self.levels as f64;
        let c = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
        format!(
            "#{:02x}{:02x}{:02x}",
            c(214.0, 31.0),
            c(39.0, 119.0),
            c(40.0, 180.0)
        )
    }

    fn edge(&self, x: &Edge) -> String {
        let level = |id: &u32| self.level_of.get(id).copied().unwrap_or(0);
        self.colour(level(&x.from).max(level(&x.to)))
    }
}

/// The isometric projection of the overview, about 640 px across: x runs
/// right and down, z right and up, y straight up.
struct Iso {
    lo: P3,
    min_u: f64,
    min_v: f64,
    /// Projected extent, before scaling.
    width: f64,
    height: f64,
    scale: f64,
}

impl Iso {
    fn raw(x: f64, y: f64, z: f64) -> (f64, f64) {
        let (c30, s30) = (3f64.sqrt() / 2.0, 0.5);
        ((x + z) * c30, (x - z) * s30 - y)
    }

    fn new(lo: P3, hi: P3) -> Iso {
        let (w, h, d) = (
            (hi.x - lo.x + 1) as f64,
            (hi.y - lo.y + 1) as f64,
            (hi.z - lo.z + 1) as f64,
        );
        let corners: Vec<(f64, f64)> = [0.0, w]
            .iter()
            .flat_map(|&x| [0.0, h].map(move |y| (x, y)))
            .flat_map(|(x, y)| [0.0, d].map(move |z| Iso::raw(x, y, z)))
            .collect();
        let (min_u, max_u) = corners
            .iter()
            .fold((f64::MAX, f64::MIN), |a, c| (a.0.min(c.0), a.1.max(c.0)));
        let (min_v, max_v) = corners
            .iter()
            .fold((f64::MAX, f64::MIN), |a, c| (a.0.min(c.1), a.1.max(c.1)));
        let (width, height) = (max_u - min_u, max_v - min_v);
        Iso {
            lo,
            min_u,
            min_v,
            width,
            height,
            scale: (640.0 / width.max(height)).min(24.0),
        }
    }

    fn at(&self, p: P3) -> (f64, f64) {
        let (u, v) = Iso::raw(
            (p.x - self.lo.x) as f64,
            (p.y - self.lo.y) as f64,
            (p.z - self.lo.z) as f64,
        );
        (
            LEFT + (u - self.min_u) * self.scale,
            TOP + (v - self.min_v) * self.scale,
        )
    }
}

/// Fill of a node box: processors dark, switches blue.
fn node_fill(n: &crate::layout::Node) -> &'static str {
    if n.kind == "processor" {
        "#333333"
    } else {
        "#1f77b4"
    }
}

/// The overview: wires as polylines, nodes as dots, far planes first.
fn overview(e: &Embedding, iso: &Iso, colours: &EdgeColours) -> Group {
    let scale = iso.scale;
    let mut order: Vec<&Edge> = e.edges.iter().collect();
    order.sort_by_key(|x| std::cmp::Reverse(x.path.iter().map(|p| p.z).min().unwrap_or(0)));
    let mut overview = Group::new()
        .set("fill", "none")
        .set("stroke-width", (scale * 0.25).max(0.3));
    for x in order {
        let points: Vec<String> = x
            .path
            .iter()
            .map(|&p| {
                let (a, b) = iso.at(p);
                format!("{a:.2},{b:.2}")
            })
            .collect();
        overview = overview.add(
            svg::node::element::Polyline::new()
                .set("points", points.join(" "))
                .set("stroke", colours.edge(x)),
        );
    }
    for n in &e.nodes {
        let (a, b) = iso.at(n.min);
        overview = overview.add(
            Rectangle::new()
                .set("x", a - scale * 0.4)
                .set("y", b - scale * 0.4)
                .set("width", scale * 0.8)
                .set("height", scale * 0.8)
                .set("fill", node_fill(n))
                .set("stroke", "none"),
        );
    }
    overview
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
        self.oy + 16.0 + (self.hi.y - y) as f64 * self.unit + self.unit / 2.0
    }
}

/// One z-plane: the node boxes the plane cuts, the wire runs in it, and a
/// dot where a wire passes through it along z.
fn plane_panel(e: &Embedding, z: i64, p: &Panel, colours: &EdgeColours) -> Group {
    let (lo, hi, unit) = (p.lo, p.hi, p.unit);
    let (w, h) = ((hi.x - lo.x + 1) as f64, (hi.y - lo.y + 1) as f64);
    let mut g = Group::new().add(
        Text::new(format!("z = {z}"))
            .set("class", "legend")
            .set("x", p.ox)
            .set("y", p.oy + 10.0),
    );
    g = g.add(
        Rectangle::new()
            .set("x", p.ox)
            .set("y", p.oy + 16.0)
            .set("width", w * unit)
            .set("height", h * unit)
            .set("fill", "none")
            .set("stroke", "#cccccc"),
    );
    for n in e.nodes.iter().filter(|n| n.min.z <= z && z <= n.max.z) {
        g = g.add(
            Rectangle::new()
                .set("x", p.x(n.min.x) - unit / 2.0)
                .set("y", p.y(n.max.y) - unit / 2.0)
                .set("width", (n.max.x - n.min.x + 1) as f64 * unit)
                .set("height", (n.max.y - n.min.y + 1) as f64 * unit)
                .set("fill", node_fill(n)),
        );
    }
    for x in &e.edges {
        let stroke = colours.edge(x);
        for s in x.path.windows(2) {
            let (a, b) = (s[0], s[1]);
            if a.z == z && b.z == z {
                g = g.add(
                    svg::node::element::Line::new()
                        .set("x1", p.x(a.x))
                        .set("y1", p.y(a.y))
                        .set("x2", p.x(b.x))
                        .set("y2", p.y(b.y))
                        .set("stroke", stroke.clone())
                        .set("stroke-width", (unit * 0.3).max(0.3)),
                );
            } else if a.x == b.x && a.y == b.y && a.z.min(b.z) <= z && z <= a.z.max(b.z) {
                g = g.add(
                    svg::node::element::Circle::new()
                        .set("cx", p.x(a.x))
                        .set("cy", p.y(a.y))
                        .set("r", (unit * 0.3).max(0.4))
                        .set("fill", stroke.clone()),
                );
            }
        }
    }
    g
}
