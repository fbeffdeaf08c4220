//! Physical output: routed channels and layouts as mask geometry
//! (docs/formats.md section 6).
//!
//! - [`Units`]: the database unit (1 nm), the grid pitch and the wire
//!   width, both in database units; grid point `(x, y)` is drawn at
//!   `(x · pitch, y · pitch)`.
//! - [`layer_map`]: which GDS layer and datatype each drawn layer goes to
//!   (`metalK`, `viaK`, `nodeK`, `label`, `boundary`), with defaults and
//!   a `--layer-map` file.
//! - [`Sink`]: what a stream format writes (cells, rectangles, paths,
//!   texts, placements); [`gds::GdsWriter`] and [`oasis::OasisWriter`]
//!   implement it, [`tally::Tally`] counts what would be written.
//! - [`draw`]: a routed channel or a layout drawn into a [`Sink`].
//! - [`def`] and [`lef`]: a routed channel as DEF (nets with their routed
//!   wiring, pins) with the LEF of its technology; [`def_read`], the DEF
//!   reader that rebuilds the routing from it.
//!
//! Writers write to any [`std::io::Write`] and never open files; the
//! command line does that.

#![warn(missing_docs)]

pub mod def;
pub mod def_read;
pub mod draw;
pub mod gds;
pub mod layer_map;
pub mod lef;
pub mod oasis;
pub mod tally;

use std::io;

pub use layer_map::{LayerMap, LayerName};

/// Database units per micron: the database unit is 1 nm.
pub const DBU_PER_MICRON: i64 = 1000;

/// The default grid pitch, in database units (0.2 µm).
pub const DEFAULT_PITCH: i64 = 200;

/// The default wire width, in database units (0.1 µm).
pub const DEFAULT_WIRE_WIDTH: i64 = 100;

/// A GDS layer and datatype.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GdsLayer {
    /// The layer number, `0 ..= 32767`.
    pub layer: u16,
    /// The datatype, `0 ..= 32767`.
    pub datatype: u16,
}

impl std::fmt::Display for GdsLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.layer, self.datatype)
    }
}

/// The grid pitch and wire width, in database units (1 nm).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Units {
    /// Distance between neighbouring grid points.
    pub pitch: i64,
    /// Width of every wire; even, less than the pitch.
    pub wire_width: i64,
}

impl Default for Units {
    fn default() -> Units {
        Units {
            pitch: DEFAULT_PITCH,
            wire_width: DEFAULT_WIRE_WIDTH,
        }
    }
}

impl Units {
    /// The units, checked: a pitch of at least 2 and at most 10^6 (1 mm),
    /// a positive even wire width less than the pitch.
    pub fn new(pitch: i64, wire_width: i64) -> Result<Units, String> {
        if !(2..=1_000_000).contains(&pitch) {
            return Err(format!(
                "--pitch {pitch}: give a pitch of 2 to 1000000 database units (1 nm each)"
            ));
        }
        if wire_width < 2 || wire_width % 2 != 0 || wire_width >= pitch {
            return Err(format!(
                "--wire-width {wire_width}: give an even width of at least 2, less than the pitch ({pitch})"
            ));
        }
        Ok(Units { pitch, wire_width })
    }

    /// Half the wire width: how far a wire reaches beyond its centre line
    /// and beyond its end points.
    pub fn half_width(&self) -> i64 {
        self.wire_width / 2
    }

    /// How far a node box reaches beyond its outermost grid points:
    /// `(pitch + wire width) / 4`, rounded down, so a box covers the ends
    /// of the wires that reach it and keeps clear of a neighbouring box.
    pub fn node_margin(&self) -> i64 {
        (self.pitch + self.wire_width) / 4
    }

    /// A grid coordinate in database units (saturating).
    pub fn at(&self, grid: i64) -> i64 {
        grid.saturating_mul(self.pitch)
    }
}

/// An axis-parallel rectangle in database units, corners included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Rect {
    /// Lower left corner `(x, y)`.
    pub lo: (i64, i64),
    /// Upper right corner `(x, y)`.
    pub hi: (i64, i64),
}

impl Rect {
    /// The square of side `2 h` around `(x, y)`.
    pub fn around(x: i64, y: i64, h: i64) -> Rect {
        Rect {
            lo: (x - h, y - h),
            hi: (x + h, y + h),
        }
    }

    /// The smallest rectangle covering both.
    pub fn union(self, other: Rect) -> Rect {
        Rect {
            lo: (self.lo.0.min(other.lo.0), self.lo.1.min(other.lo.1)),
            hi: (self.hi.0.max(other.hi.0), self.hi.1.max(other.hi.1)),
        }
    }

    /// The rectangle moved by `(dx, dy)`.
    pub fn shifted(self, dx: i64, dy: i64) -> Rect {
        Rect {
            lo: (self.lo.0 + dx, self.lo.1 + dy),
            hi: (self.hi.0 + dx, self.hi.1 + dy),
        }
    }
}

/// A cell a [`Sink`] has begun, by the order cells were begun in (0, 1, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CellId(pub u32);

/// What a stream format writes. Cells are begun and ended one at a time
/// (no nesting); shapes and placements go to the cell begun last; a cell
/// is placed only after it has ended. Paths are Manhattan, their ends
/// extended by half their width (GDS path type 2).
pub trait Sink {
    /// Begin a cell of this name (names are unique).
    fn begin_cell(&mut self, name: &str) -> io::Result<CellId>;
    /// End the cell begun last.
    fn end_cell(&mut self) -> io::Result<()>;
    /// A rectangle.
    fn rect(&mut self, layer: GdsLayer, r: Rect) -> io::Result<()>;
    /// A path of `width` through `points` (at least two; consecutive
    /// points share `x` or `y` and differ).
    fn path(&mut self, layer: GdsLayer, width: i64, points: &[(i64, i64)]) -> io::Result<()>;
    /// A text label at a point (printable ASCII, no spaces).
    fn text(&mut self, layer: GdsLayer, at: (i64, i64), text: &str) -> io::Result<()>;
    /// An instance of an ended cell, its origin at `at`, unrotated.
    fn place(&mut self, cell: CellId, at: (i64, i64)) -> io::Result<()>;
    /// End the library: nothing may follow.
    fn finish(&mut self) -> io::Result<()>;
}

/// A name as GDS, OASIS and DEF take it: letters, digits, `_`, `$` and
/// `?` kept, anything else as `_`; at most 64 characters; `TOP` for an
/// empty name.
pub fn cell_name(name: &str) -> String {
    let s: String = name
        .chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '?') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        "TOP".to_string()
    } else {
        s
    }
}

/// The name of a channel net in labels, DEF and LEF: `net` and its label.
pub fn net_name(label: u32) -> String {
    format!("net{label}")
}

/// Largest coordinate GDSII holds (a 4-byte signed integer).
pub const GDS_MAX_COORD: i64 = i32::MAX as i64;

/// Refuse a drawing whose extent does not fit GDSII's 32-bit coordinates.
pub fn check_gds_extent(extent: Rect) -> Result<(), String> {
    let worst = [extent.lo.0, extent.lo.1, extent.hi.0, extent.hi.1]
        .into_iter()
        .map(i64::unsigned_abs)
        .max()
        .unwrap_or(0);
    if worst > GDS_MAX_COORD as u64 {
        Err(format!(
            "the drawing reaches {worst} database units from the origin, more than GDSII's 32-bit coordinates hold ({GDS_MAX_COORD}): use a smaller --pitch or --oasis"
        ))
    } else {
        Ok(())
    }
}

/// A two-cell library for the writers' tests: cell `A` holding a square of
/// `side` on layer 1, then `TOP` placing `A` at `at`, a path of width 4
/// through `turn` on layer 2 and the label `net1` on layer 3; finished.
#[cfg(test)]
pub(crate) fn write_sample_library(
    w: &mut impl Sink,
    side: i64,
    at: (i64, i64),
    turn: &[(i64, i64)],
) -> io::Result<()> {
    let layer = |layer| GdsLayer { layer, datatype: 0 };
    let a = w.begin_cell("A")?;
    w.rect(
        layer(1),
        Rect {
            lo: (0, 0),
            hi: (side, side),
        },
    )?;
    w.end_cell()?;
    w.begin_cell("TOP")?;
    w.place(a, at)?;
    w.path(layer(2), 4, turn)?;
    w.text(layer(3), (1, 1), "net1")?;
    w.end_cell()?;
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_are_checked() {
        assert!(Units::new(200, 100).is_ok());
        assert!(Units::new(200, 99).is_err());
        assert!(Units::new(200, 200).is_err());
        assert!(Units::new(1, 0).is_err());
        assert_eq!(Units::default().node_margin(), 75);
    }

    #[test]
    fn names_are_sanitised() {
        assert_eq!(cell_name("fat-tree 3d"), "fat_tree_3d");
        assert_eq!(cell_name(""), "TOP");
        assert_eq!(net_name(5), "net5");
    }
}
