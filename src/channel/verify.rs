//! The independent checker of routed channels (FORMATS.md section 3).
//!
//! It rasterises the solution into a dense grid of `(x, y, layer)` points and
//! checks the four legality rules: geometry inside the channel on real layers,
//! no point shared by two nets, pin rows and side columns used only by their
//! own nets, and every net connected. Apart from those it reports runs along
//! the boundary, which FORMATS.md allows but the thesis's model (chapter 6)
//! does not: the pin rows carry only the vertical stubs of pins and the side
//! columns only the horizontal exits of side nets. [`VerifyReport::is_legal`]
//! is the FORMATS.md contract; [`VerifyReport::is_legal_strict`] adds the
//! boundary rule, and every router of this crate meets it. It recomputes width, net length and
//! vias from the raster (not from [`ChannelSolution::metrics`], which merges
//! intervals) and compares them with the figures a solution claims.
//!
//! Memory is linear in `(C + 2) · (W + 2) · L`.

use std::fmt;

use super::analysis::density;
use super::problem::{ChannelProblem, Side};
use super::solution::{ChannelSolution, Metrics};
use crate::geom::Point;

/// Largest raster the verifier will allocate (points, about 10 bytes each).
pub const MAX_POINTS: u64 = 1 << 27;

/// The grid points the checker rasterises for a routing of `columns`
/// columns, `width` tracks and `layers` layers: `(C + 2) (W + 2) L`, the
/// side columns and pin rows included (saturating).
pub fn grid_points(columns: u64, width: u64, layers: u64) -> u64 {
    columns
        .saturating_add(2)
        .saturating_mul(width.saturating_add(2))
        .saturating_mul(layers)
}
/// Violations kept in a report (all are counted).
const MAX_KEPT: usize = 200;

/// One broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// Columns, layers or width that do not fit the problem.
    Header(String),
    /// More grid points than the checker rasterises: no verdict (FORMATS.md
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
    /// first few kept); legal under FORMATS.md, not under the thesis model.
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

    /// Legal under the four rules of FORMATS.md section 3 (and the claimed
    /// metrics, when given, are right).
    pub fn is_legal(&self) -> bool {
        self.total == 0
    }

    /// Legal, and no wire runs along the boundary (thesis chapter 6).
    pub fn is_legal_strict(&self) -> bool {
        self.is_legal() && self.boundary_total == 0
    }

    fn push(&mut self, v: Violation) {
        self.total += 1;
        if self.violations.len() < MAX_KEPT {
            self.violations.push(v);
        }
    }
}

struct Raster {
    columns: i64,
    rows: i64,
    layers: u32,
    owner: Vec<u32>,
    parent: Vec<u32>,
    h_edge: Vec<bool>,
    v_edge: Vec<bool>,
}

impl Raster {
    fn index(&self, p: Point, layer: u32) -> usize {
        (((layer - 1) as i64 * self.rows + p.y) * (self.columns + 2) + p.x + 1) as usize
    }

    fn inside(&self, p: Point) -> bool {
        (-1..=self.columns).contains(&p.x) && (0..self.rows).contains(&p.y)
    }

    fn find(&mut self, mut v: u32) -> u32 {
        while self.parent[v as usize] != v {
            let g = self.parent[self.parent[v as usize] as usize];
            self.parent[v as usize] = g;
            v = g;
        }
        v
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a as u32), self.find(b as u32));
        if ra != rb {
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            self.parent[hi as usize] = lo;
        }
    }
}

/// Check a solution against its problem. `claimed` are the figures the
/// solution states (from its file); each one that differs from the geometry
/// is a violation.
///
/// # Example
///
/// ```
/// use fabric::channel::registry::RouterKind;
/// use fabric::channel::router::RouteOptions;
/// use fabric::channel::verify::verify;
///
/// let p = fabric::io::parse_channel("top: 1 0 2\nbottom: 2 1 0\n", "c.txt").unwrap();
/// let mut s = RouterKind::LeftEdge.router().route(&p, &RouteOptions::layers(2)).unwrap();
/// assert!(verify(&p, &s, None).is_legal());
/// // A wire of net 1 laid over net 2's pin column is caught.
/// let w = s.wires.iter().find(|w| w.net == 2).copied().unwrap();
/// s.wires.push(fabric::channel::solution::Wire { net: 1, ..w });
/// assert!(!verify(&p, &s, None).is_legal());
/// ```
pub fn verify(
    problem: &ChannelProblem,
    solution: &ChannelSolution,
    claimed: Option<&Metrics>,
) -> VerifyReport {
    let mut report = VerifyReport {
        violations: Vec::new(),
        total: 0,
        boundary_runs: Vec::new(),
        boundary_total: 0,
        metrics: Metrics {
            width: solution.width,
            net_length: 0,
            vias: solution.via_count(),
            density: density(problem),
        },
    };
    let c = problem.columns() as i64;
    if solution.columns != problem.columns() {
        report.push(Violation::Header(format!(
            "the solution has {} columns, the problem {}",
            solution.columns,
            problem.columns()
        )));
    }
    if solution.layers == 0 {
        report.push(Violation::Header("the solution has no layers".into()));
    }
    let rows = solution.width as i64 + 2;
    let points = grid_points(c as u64, solution.width as u64, solution.layers as u64);
    if points > MAX_POINTS {
        report.push(Violation::TooLarge {
            columns: solution.columns,
            width: solution.width,
            layers: solution.layers,
        });
        return report;
    }
    if report.total > 0 {
        return report;
    }
    let n = points as usize;
    let mut r = Raster {
        columns: c,
        rows,
        layers: solution.layers,
        owner: vec![0; n],
        parent: (0..n as u32).collect(),
        h_edge: vec![false; n],
        v_edge: vec![false; n],
    };
    let top_row = rows - 1;
    let pin_owner = |p: Point| -> Option<u32> {
        if !(0..c).contains(&p.x) {
            return None;
        }
        let row = if p.y == 0 {
            problem.bottom()
        } else if p.y == top_row {
            problem.top()
        } else {
            return None;
        };
        row[p.x as usize].map(|id| problem.label(id))
    };
    // Pins are contacts through all layers.
    for x in 0..c {
        for y in [0, top_row] {
            let at = Point::new(x, y);
            if let Some(label) = pin_owner(at) {
                for layer in 1..=r.layers {
                    let i = r.index(at, layer);
                    r.owner[i] = label;
                    if layer > 1 {
                        let j = r.index(at, layer - 1);
                        r.union(i, j);
                    }
                }
            }
        }
    }
    // Claim a point for a net: rules 2 and 3. Returns the raster index.
    let claim = |r: &mut Raster, report: &mut VerifyReport, net: u32, layer: u32, at: Point| {
        let i = r.index(at, layer);
        if at.y == 0 || at.y == top_row {
            if pin_owner(at) != Some(net) {
                report.push(Violation::PinRow { net, layer, at });
                return i;
            }
        } else if at.x == -1 || at.x == c {
            let id = problem.by_label(net).expect("net checked before claiming");
            let side_ok = if at.x == -1 {
                problem.net(id).left
            } else {
                problem.net(id).right
            };
            if !side_ok {
                report.push(Violation::Side { net, at });
                return i;
            }
        }
        match r.owner[i] {
            0 => r.owner[i] = net,
            o if o == net => {}
            o => report.push(Violation::Short {
                nets: (o.min(net), o.max(net)),
                layer,
                at,
            }),
        }
        i
    };
    for w in &solution.wires {
        if problem.by_label(w.net).is_none() {
            report.push(Violation::UnknownNet { net: w.net });
            continue;
        }
        if w.layer == 0 || w.layer > r.layers {
            report.push(Violation::BadLayer {
                net: w.net,
                layer: w.layer,
            });
            continue;
        }
        let seg = w.segment();
        if seg.dir().is_none() {
            report.push(Violation::Diagonal {
                net: w.net,
                from: w.from,
                to: w.to,
            });
            continue;
        }
        if let Some(&at) = [w.from, w.to].iter().find(|p| !r.inside(**p)) {
            report.push(Violation::OutOfChannel {
                net: w.net,
                layer: w.layer,
                at,
            });
            continue;
        }
        let mut prev: Option<(Point, usize)> = None;
        let mut along = None;
        for p in seg.points() {
            let i = claim(&mut r, &mut report, w.net, w.layer, p);
            if let Some((q, j)) = prev {
                r.union(i, j);
                // Mark the unit edge between q and p by its lower-left end.
                let (lo, horizontal) = if q.y == p.y {
                    (if q.x < p.x { j } else { i }, true)
                } else {
                    (if q.y < p.y { j } else { i }, false)
                };
                let low_end = if horizontal {
                    Point::new(q.x.min(p.x), p.y)
                } else {
                    Point::new(p.x, q.y.min(p.y))
                };
                let along_boundary = if horizontal {
                    p.y == 0 || p.y == top_row
                } else {
                    p.x == -1 || p.x == c
                };
                if along_boundary && along.is_none() {
                    along = Some(low_end);
                }
                if horizontal {
                    r.h_edge[lo] = true;
                } else {
                    r.v_edge[lo] = true;
                }
            }
            prev = Some((p, i));
        }
        if let Some(at) = along {
            report.boundary_total += 1;
            if report.boundary_runs.len() < MAX_KEPT {
                report.boundary_runs.push(Violation::Boundary {
                    net: w.net,
                    layer: w.layer,
                    at,
                });
            }
        }
    }
    for v in &solution.vias {
        if problem.by_label(v.net).is_none() {
            report.push(Violation::UnknownNet { net: v.net });
            continue;
        }
        if let Some(&layer) = [v.from, v.to].iter().find(|&&l| l == 0 || l > r.layers) {
            report.push(Violation::BadLayer { net: v.net, layer });
            continue;
        }
        if !r.inside(v.at) {
            report.push(Violation::OutOfChannel {
                net: v.net,
                layer: v.from,
                at: v.at,
            });
            continue;
        }
        let (lo, hi) = (v.from.min(v.to), v.from.max(v.to));
        let mut prev = None;
        for layer in lo..=hi {
            let i = claim(&mut r, &mut report, v.net, layer, v.at);
            if let Some(j) = prev {
                r.union(i, j);
            }
            prev = Some(i);
        }
    }
    // Rule 4: connectivity of every net.
    for net in problem.nets() {
        let label = net.label;
        let pin_point = |pin: &super::problem::Pin| {
            Point::new(
                pin.column as i64,
                if pin.side == Side::Bottom { 0 } else { top_row },
            )
        };
        let side_cells = |r: &Raster, x: i64| -> Vec<usize> {
            let mut cells = Vec::new();
            for layer in 1..=r.layers {
                for y in 1..top_row {
                    let i = r.index(Point::new(x, y), layer);
                    if r.owner[i] == label {
                        cells.push(i);
                    }
                }
            }
            cells
        };
        let left_cells = if net.left { side_cells(&r, -1) } else { vec![] };
        let right_cells = if net.right { side_cells(&r, c) } else { vec![] };
        let root = if let Some(pin) = net.pins.first() {
            let i = r.index(pin_point(pin), 1);
            r.find(i as u32)
        } else {
            // A feed-through (side terminals only): any left exit that
            // reaches a right exit will do.
            let right_roots: Vec<u32> = right_cells.iter().map(|&i| r.find(i as u32)).collect();
            let joined = left_cells
                .iter()
                .map(|&i| r.find(i as u32))
                .find(|root| right_roots.contains(root));
            match joined {
                Some(root) => root,
                None => {
                    report.push(Violation::Open {
                        net: label,
                        detail: "does not join its left and right exits".into(),
                    });
                    continue;
                }
            }
        };
        for pin in &net.pins {
            let at = pin_point(pin);
            let i = r.index(at, 1);
            if r.find(i as u32) != root {
                report.push(Violation::Open {
                    net: label,
                    detail: format!("is not connected to its pin at {at}"),
                });
            }
        }
        for (want, cells, side) in [
            (net.left, &left_cells, "left"),
            (net.right, &right_cells, "right"),
        ] {
            if want && !cells.iter().any(|&i| r.find(i as u32) == root) {
                report.push(Violation::Open {
                    net: label,
                    detail: format!("does not reach the {side} side"),
                });
            }
        }
    }
    report.metrics.net_length = r.h_edge.iter().chain(&r.v_edge).filter(|&&e| e).count() as u64;
    if let Some(claimed) = claimed {
        let pairs = [
            ("width", claimed.width as u64, report.metrics.width as u64),
            ("net_length", claimed.net_length, report.metrics.net_length),
            ("vias", claimed.vias, report.metrics.vias),
            (
                "density",
                claimed.density as u64,
                report.metrics.density as u64,
            ),
        ];
        for (field, claimed, actual) in pairs {
            if claimed != actual {
                report.push(Violation::Metric {
                    field,
                    claimed,
                    actual,
                });
            }
        }
    }
    report
}
