//! SVG drawings of channel problems, routed channels and layouts.
//!
//! One palette serves every picture: the k-th layer of a channel (from 1)
//! and level k - 1 of a layout (from 0, the processors' level) take its
//! k-th colour, cycling after eight. Processors are dark grey, vias
//! black-edged white squares, pins dark dots labelled with their net.
//! Every picture carries a key (`<g class="key">`) with one swatch per
//! colour the drawing (`<g class="drawing">`) uses, saying what it stands
//! for. In a routed channel every net is one `<g>` with a `<title>`, so
//! hovering shows the net id and highlights the whole net.
//!
//! `channel` draws channel problems and routings (with track and column
//! axes, and optionally a window of columns), `layout` 2-D layouts and
//! `layout3d` 3-D layouts (one labelled panel per z-plane); the palette,
//! key, style sheet and page frame are shared here.

mod channel;
mod layout;
mod layout3d;
mod window;

use svg::node::element::{Circle, Group, Line, Rectangle, Style, Text};
use svg::Document;

pub use channel::{problem_svg, solution_svg};
pub use layout::{layout_svg, LAYOUT_SVG_LIMIT};
pub use layout3d::{layout_svg_3d, LAYOUT_SVG_PLANES};
pub use window::{ColumnWindow, ColumnWindowError};

const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

/// Fill of processor boxes and pins: dark grey, outside the palette.
pub(super) const DARK: &str = "#333333";

/// Outline of node boxes and fill of vias.
pub(super) const WHITE: &str = "#ffffff";

/// Outline of vias.
pub(super) const BLACK: &str = "#000000";

const CSS: &str = "text { font-family: sans-serif; } \
    .net:hover line { stroke: #000; stroke-opacity: 1; } \
    .net:hover rect { fill: #ff0; } \
    .pin { font-size: 8px; fill: #333; text-anchor: middle; } \
    .axis { font-size: 9px; fill: #555; } \
    .column { text-anchor: middle; } \
    .track { text-anchor: end; } \
    .legend { font-size: 12px; fill: #222; }";

/// Narrowest picture, so that the title and legend of a small channel fit.
pub(super) const MIN_WIDTH: f64 = 720.0;

/// Colour of a layer (1-based).
pub fn layer_colour(layer: u32) -> &'static str {
    PALETTE[(layer.saturating_sub(1) as usize) % PALETTE.len()]
}

/// Colour of a layout level (0-based: level 0 takes the first layer's).
pub fn level_colour(level: u32) -> &'static str {
    PALETTE[level as usize % PALETTE.len()]
}

pub(super) fn document(width: f64, height: f64) -> Document {
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

/// A shape of a key's swatch: the mark it explains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Mark {
    /// A filled box with a white outline (a node).
    Box,
    /// A line of the given stroke width in tenths of a pixel (a wire).
    Line(u32),
    /// A filled dot (a pin, or a wire running along z).
    Dot,
    /// A white square with a black outline (a via).
    Via,
}

/// One line of a key: its marks in one colour, and what they stand for.
struct KeyEntry {
    marks: Vec<Mark>,
    colour: &'static str,
    text: String,
}

/// The key of a picture: one line per colour (or mark) drawn.
#[derive(Default)]
pub(super) struct Key {
    entries: Vec<KeyEntry>,
}

/// Height of one line of a key.
pub(super) const KEY_LINE: f64 = 18.0;

impl Key {
    /// A line: `marks` drawn in `colour`, then `text`.
    pub fn add(&mut self, marks: Vec<Mark>, colour: &'static str, text: String) {
        self.entries.push(KeyEntry {
            marks,
            colour,
            text,
        });
    }

    /// Height of the key's lines.
    pub fn height(&self) -> f64 {
        KEY_LINE * self.entries()
    }

    /// How many lines the key has.
    pub fn entries(&self) -> f64 {
        self.entries.len() as f64
    }

    /// The key as a group, its first line's baseline at `(x, y)`.
    pub fn group(&self, x: f64, y: f64) -> Group {
        let mut g = Group::new().set("class", "key");
        for (k, entry) in self.entries.iter().enumerate() {
            let y = y + KEY_LINE * k as f64;
            let mut at = x;
            for &mark in &entry.marks {
                g = g.add(swatch(mark, entry.colour, at, y - 4.0));
                at += 26.0;
            }
            g = g.add(
                Text::new(entry.text.clone())
                    .set("class", "legend")
                    .set("x", x + 26.0 * entry.marks.len().max(1) as f64 + 6.0)
                    .set("y", y),
            );
        }
        g
    }
}

/// One mark of a key in `colour`, centred on height `cy`, from `x`.
fn swatch(mark: Mark, colour: &'static str, x: f64, cy: f64) -> Group {
    let g = Group::new();
    match mark {
        Mark::Box => g.add(
            Rectangle::new()
                .set("x", x + 4.0)
                .set("y", cy - 6.0)
                .set("width", 14.0)
                .set("height", 12.0)
                .set("fill", colour)
                .set("stroke", WHITE),
        ),
        Mark::Line(tenths) => g.add(
            Line::new()
                .set("x1", x)
                .set("x2", x + 22.0)
                .set("y1", cy)
                .set("y2", cy)
                .set("stroke", colour)
                .set("stroke-width", (f64::from(tenths) / 10.0).max(1.5)),
        ),
        Mark::Dot => g.add(
            Circle::new()
                .set("cx", x + 11.0)
                .set("cy", cy)
                .set("r", 4.0)
                .set("fill", colour),
        ),
        Mark::Via => g.add(
            Rectangle::new()
                .set("x", x + 6.0)
                .set("y", cy - 5.0)
                .set("width", 10.0)
                .set("height", 10.0)
                .set("fill", WHITE)
                .set("stroke", BLACK),
        ),
    }
}

/// The levels sharing one palette colour, as key text (`level 2`,
/// `levels 1, 9`).
pub(super) fn levels_text(levels: &[u32]) -> String {
    let list: Vec<String> = levels.iter().map(u32::to_string).collect();
    format!(
        "level{} {}",
        if levels.len() > 1 { "s" } else { "" },
        list.join(", ")
    )
}
