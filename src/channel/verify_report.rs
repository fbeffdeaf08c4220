//! What the channel verifier reports: the broken rules ([`Violation`]) and
//! the verdict with the figures measured from the geometry
//! ([`VerifyReport`]). The checking itself is [`super::verify`].

use std::fmt;

use super::solution::Metrics;
use crate::geom::Point;

/// Largest raster the verifier will allocate (points, about 10 bytes each).
pub const MAX_POINTS: u64 = 1 << 27;

/// Violations kept in a report (all are counted).
pub(super) const MAX_KEPT: usize = 200;

/// One broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// Columns, layers or width that do not fit the problem.
    Header(String),
    /// More grid points than the checker rasterises: no verdict (docs/formats.md
    /// sets no size limit; the tools report this as an error, not as an
    /// illegal solution).
    TooLarge {
        /// Columns `C` of the solution.
        columns: u32,
        /// Tracks `W` of the solution.
        width: u32,
        /// Layers `L` of the solution.
        layers: u32,
    },
    /// A wire or via names a net the problem does not have.
    UnknownNet {
        /// The label that names no net.
        net: u32,
    },
    /// A layer outside `1 ..= L`.
    BadLayer {
        /// The net's label.
        net: u32,
        /// The layer named, outside `1 ..= L`.
        layer: u32,
    },
    /// A wire that is neither horizontal nor vertical.
    Diagonal {
        /// The net's label.
        net: u32,
        /// One end of the wire.
        from: Point,
        /// The other end.
        to: Point,
    },
    /// A point outside `-1 <= x <= C`, `0 <= y <= W + 1`.
    OutOfChannel {
        /// The net's label.
        net: u32,
        /// The layer.
        layer: u32,
        /// A wire end or via point that lies outside.
        at: Point,
    },
    /// Two nets on one grid point of one layer.
    Short {
        /// The labels of the two nets.
        nets: (u32, u32),
        /// The layer.
        layer: u32,
        /// The shared point.
        at: Point,
    },
    /// A net on a pin-row point that is not its own pin.
    PinRow {
        /// The net's label.
        net: u32,
        /// The layer.
        layer: u32,
        /// The pin-row point.
        at: Point,
    },
    /// A net on a side column without a side terminal there.
    Side {
        /// The net's label.
        net: u32,
        /// The side-column point.
        at: Point,
    },
    /// A wire running along the boundary: a horizontal edge on a pin row or a
    /// vertical edge on a side column (`at` is its lower or left end).
    Boundary {
        /// The net's label.
        net: u32,
        /// The layer.
        layer: u32,
        /// The lower or left end of the boundary edge.
        at: Point,
    },
    /// A net whose terminals are not all in one connected component.
    Open {
        /// The net's label.
        net: u32,
        /// Which terminal or side is not reached, as a phrase after the net.
        detail: String,
    },
    /// A claimed figure that the geometry does not bear out.
    Metric {
        /// The figure: `width`, `net_length`, `vias` or `density`.
        field: &'static str,
        /// The value the solution file gives.
        claimed: u64,
        /// The value measured from the wires and vias.
        actual: u64,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::Header(m) => write!(f, "header: {m}"),
            Violation::TooLarge {
                columns,
                width,
                layers,
            } => write!(
                f,
                "too large to check: {columns} columns, width {width}, {layers} layers \
                 exceed the checker's {MAX_POINTS} grid points"
            ),
            Violation::UnknownNet { net } => write!(f, "net {net} is not in the problem"),
            Violation::BadLayer { net, layer } => {
                write!(f, "net {net} uses layer {layer}, which does not exist")
            }
            Violation::Diagonal { net, from, to } => {
                write!(
                    f,
                    "net {net} has a wire from {from} to {to} that is not axis-parallel"
                )
            }
            Violation::OutOfChannel { net, layer, at } => {
                write!(f, "net {net} leaves the channel at {at} on layer {layer}")
            }
            Violation::Short { nets, layer, at } => write!(
                f,
                "short: nets {} and {} both cover {at} on layer {layer}",
                nets.0, nets.1
            ),
            Violation::PinRow { net, layer, at } => write!(
                f,
                "net {net} covers pin-row point {at} on layer {layer}, which is not its pin"
            ),
            Violation::Side { net, at } => {
                write!(
                    f,
                    "net {net} uses side point {at} but has no side terminal there"
                )
            }
            Violation::Boundary { net, layer, at } => write!(
                f,
                "net {net} runs along the channel boundary from {at} on layer {layer}"
            ),
            Violation::Open { net, detail } => write!(f, "open: net {net} {detail}"),
            Violation::Metric {
                field,
                claimed,
                actual,
            } => write!(
                f,
                "metric {field}: claimed {claimed}, the geometry gives {actual}"
            ),
        }
    }
}

/// What the verifier found.
#[derive(Clone, Debug)]
pub struct VerifyReport {
    /// The first violations found (at most a few hundred).
    pub violations: Vec<Violation>,
    /// How many violations there were in all.
    pub total: usize,
    /// Figures recomputed from the geometry.
    pub metrics: Metrics,
    /// Wires running along the boundary (at most one record per wire, the
    /// first few kept); legal under docs/formats.md, not under the thesis model.
    pub boundary_runs: Vec<Violation>,
    /// How many wires run along the boundary.
    pub boundary_total: usize,
}

impl VerifyReport {
    /// Why no verdict could be reached (the solution is more than the
    /// checker rasterises), if so.
    pub fn too_large(&self) -> Option<&Violation> {
        self.violations
            .iter()
            .find(|v| matches!(v, Violation::TooLarge { .. }))
    }

    /// Legal under the four rules of docs/formats.md section 3 (and the claimed
    /// metrics, when given, are right).
    pub fn is_legal(&self) -> bool {
        self.total == 0
    }

    /// Legal, and no wire runs along the boundary (thesis chapter 6).
    pub fn is_legal_strict(&self) -> bool {
        self.is_legal() && self.boundary_total == 0
    }

    pub(super) fn push(&mut self, v: Violation) {
        self.total += 1;
        if self.violations.len() < MAX_KEPT {
            self.violations.push(v);
        }
    }
}
