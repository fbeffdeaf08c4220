//! SVG drawings of channel problems, routed channels and layouts.
//!
//! Each layer has its own colour and stroke width (wider for lower layers so
//! that stacked wires stay visible); vias are black-edged squares, pins dark
//! dots labelled with their net. Every net is one `<g>` with a `<title>`, so
//! hovering shows the net id and highlights the whole net.
//!
//! `channel` draws channel problems and routings, `layout` 2-D layouts and
//! `layout3d` 3-D layouts (an isometric overview and one panel per plane);
//! the palette, style sheet and page frame are shared here.

mod channel;
mod layout;
mod layout3d;

use svg::node::element::{Rectangle, Style};
use svg::Document;

pub use channel::{problem_svg, solution_svg};
pub use layout::{layout_svg, LAYOUT_SVG_LIMIT};
pub use layout3d::{layout_svg_3d, LAYOUT_SVG_PLANES};

const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

const CSS: &str = "text { font-family: sans-serif; } \
    .net:hover line { stroke: #000; stroke-opacity: 1; } \
    .net:hover rect { fill: #ff0; } \
    .pin { font-size: 8px; fill: #333; text-anchor: middle; } \
    .legend { font-size: 12px; fill: #222; }";

/// Narrowest picture, so that the title and legend of a small channel fit.
pub(super) const MIN_WIDTH: f64 = 720.0;

/// Colour of a layer (1-based).
pub fn layer_colour(layer: u32) -> &'static str {
    PALETTE[(layer.saturating_sub(1) as usize) % PALETTE.len()]
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
