//! Self-contained HTML viewers of routed channels and layouts.
//!
//! One HTML file holds the page, its script and its style sheet inline and
//! the geometry as a JSON block whose arrays are base64 of little-endian
//! `Int32` values ([`pack`]); it needs no network access. The page draws on
//! a canvas with pan and zoom, a uniform grid of buckets so that a zoomed-in
//! window visits only the shapes near it, and shapes smaller than a pixel
//! merged into single pixels. docs/viewer.md describes the controls; a
//! `#selftest` fragment makes the page check itself (shapes drawn, a
//! search, the load time) and write the results as JSON into the page,
//! which the tests read through headless Chromium.
//!
//! - [`channel_html`]: a routed channel, nets highlighted, axes in columns
//!   and tracks, one checkbox per layer.
//! - [`layout_html`]: a grid layout, nodes highlighted with their wires,
//!   axes in grid units, 3-D layouts one plane at a time.

#![warn(missing_docs)]

mod channel;
mod layout;
pub mod pack;

pub use channel::{channel_html, channel_summary};
pub use layout::{layout_html, layout_summary};

use thiserror::Error;

/// The page; its data block is the one `DATA_MARK` stands for.
const TEMPLATE: &str = include_str!("viewer.html");
const DATA_MARK: &str = "/*FABRIC-DATA*/";

/// Most shapes (wires, vias, pins, nodes, path segments) one page holds.
pub const MAX_SHAPES: usize = 4_000_000;

/// Most layers of a routing the viewer draws (as many as `fabric route`
/// routes).
pub const MAX_LAYERS: u32 = 64;

/// Why a viewer cannot be written.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ViewError {
    /// A coordinate the page's 32-bit arrays cannot hold.
    #[error("{what} has coordinate {value}, outside the viewer's 32-bit range")]
    Coordinate {
        /// The shape, named for the message.
        what: String,
        /// The coordinate.
        value: i64,
    },
    /// A wire or via on a layer the routing does not have.
    #[error("{what} is on layer {layer}, but the routing has layers 1 to {layers}")]
    Layer {
        /// The shape, named for the message.
        what: String,
        /// Its layer.
        layer: u32,
        /// The routing's layer count.
        layers: u32,
    },
    /// More layers than the page offers checkboxes for.
    #[error("{layers} layers are too many for the viewer (at most {MAX_LAYERS})")]
    Layers {
        /// The routing's layer count.
        layers: u32,
    },
    /// More shapes than one page holds.
    #[error("{count} shapes are too many for one viewer page (at most {limit})")]
    TooManyShapes {
        /// Shapes asked for.
        count: usize,
        /// [`MAX_SHAPES`].
        limit: usize,
    },
}

/// A coordinate as `i32`, or the error naming `what` it belongs to.
fn coordinate(value: i64, what: impl Fn() -> String) -> Result<i32, ViewError> {
    i32::try_from(value).map_err(|_| ViewError::Coordinate {
        what: what(),
        value,
    })
}

/// Refuse more than [`MAX_SHAPES`].
fn check_count(count: usize) -> Result<(), ViewError> {
    if count > MAX_SHAPES {
        return Err(ViewError::TooManyShapes {
            count,
            limit: MAX_SHAPES,
        });
    }
    Ok(())
}

/// The page with its data block.
fn page(data: &str) -> String {
    TEMPLATE.replacen(DATA_MARK, data, 1)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_template_has_one_data_mark() {
        assert_eq!(super::TEMPLATE.matches(super::DATA_MARK).count(), 1);
    }
}
