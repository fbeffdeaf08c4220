//! The independent checker of routed channels (docs/formats.md section 3).
//!
//! It rasterises the solution into a dense grid of `(x, y, layer)` points and
//! checks the four legality rules: geometry inside the channel on real layers,
//! no point shared by two nets, pin rows and side columns used only by their
//! own nets, and every net connected. Apart from those it reports runs along
//! the boundary, which docs/formats.md allows but the thesis's model (chapter 6)
//! does not: the pin rows carry only the vertical stubs of pins and the side
//! columns only the horizontal exits of side nets. [`VerifyReport::is_legal`]
//! applies the rules of docs/formats.md section 3;
//! [`VerifyReport::is_legal_strict`] adds the boundary rule, and every router of this crate meets it. It recomputes width, net length and
//! vias from the raster (not from [`ChannelSolution::metrics`], which merges
//! intervals) and compares them with the figures a solution claims.
//!
//! Memory is linear in `(C + 2) · (W + 2) · L`.

use super::analysis::density;
use super::problem::{ChannelProblem, Net, Pin, Side};
use super::solution::{ChannelSolution, Metrics, Via, Wire};
use super::verify_report::MAX_KEPT;
pub use super::verify_report::{VerifyReport, Violation, MAX_POINTS};
use crate::geom::Point;

/// The grid points the checker rasterises for a routing of `columns`
/// columns, `width` tracks and `layers` layers: `(C + 2) (W + 2) L`, the
/// side columns and pin rows included (saturating).
pub fn grid_points(columns: u64, width: u64, layers: u64) -> u64 {
    columns
        .saturating_add(2)
        .saturating_mul(width.saturating_add(2))
        .saturating_mul(layers)
}

/// The solution drawn on the grid: the net owning each point, a union-find
/// over the points, and the unit edges wires cover.
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
    let Some(raster) = check_header(problem, solution, &mut report) else {
        return report;
    };
    let mut checker = Checker {
        problem,
        top_row: raster.rows - 1,
        r: raster,
        report,
    };
    checker.mark_pins();
    for w in &solution.wires {
        checker.check_wire(w);
    }
    for v in &solution.vias {
        checker.check_via(v);
    }
    for net in problem.nets() {
        checker.check_connected(net);
    }
    let Checker { r, mut report, .. } = checker;
    report.metrics.net_length = r.h_edge.iter().chain(&r.v_edge).filter(|&&e| e).count() as u64;
    if let Some(claimed) = claimed {
        check_metrics(&mut report, claimed);
    }
    report
}

/// Rule 1, the header: the solution's columns match the problem's, it has
/// layers, and its raster fits [`MAX_POINTS`]. Returns the empty raster when
/// the solution can be checked further.
fn check_header(
    problem: &ChannelProblem,
    solution: &ChannelSolution,
    report: &mut VerifyReport,
) -> Option<Raster> {
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
    let points = grid_points(c as u64, solution.width as u64, solution.layers as u64);
    if points > MAX_POINTS {
        report.push(Violation::TooLarge {
            columns: solution.columns,
            width: solution.width,
            layers: solution.layers,
        });
        return None;
    }
    if report.total > 0 {
        return None;
    }
    let n = points as usize;
    Some(Raster {
        columns: c,
        rows: solution.width as i64 + 2,
        layers: solution.layers,
        owner: vec![0; n],
        parent: (0..n as u32).collect(),
        h_edge: vec![false; n],
        v_edge: vec![false; n],
    })
}

/// The claimed figures against the measured ones, one violation per
/// figure that differs.
fn check_metrics(report: &mut VerifyReport, claimed: &Metrics) {
    let actual = report.metrics;
    let pairs = [
        ("width", claimed.width as u64, actual.width as u64),
        ("net_length", claimed.net_length, actual.net_length),
        ("vias", claimed.vias, actual.vias),
        ("density", claimed.density as u64, actual.density as u64),
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

/// The raster of one solution being checked, with the report it fills.
struct Checker<'a> {
    problem: &'a ChannelProblem,
    r: Raster,
    report: VerifyReport,
    /// The top pin row, `y = W + 1`.
    top_row: i64,
}

impl Checker<'_> {
    /// The label of the net whose pin is at `p`, if `p` is a pin point.
    fn pin_owner(&self, p: Point) -> Option<u32> {
        if !(0..self.r.columns).contains(&p.x) {
            return None;
        }
        let row = if p.y == 0 {
            self.problem.bottom()
        } else if p.y == self.top_row {
            self.problem.top()
        } else {
            return None;
        };
        row[p.x as usize].map(|id| self.problem.label(id))
    }

    /// Pins are contacts through all layers.
    fn mark_pins(&mut self) {
        for x in 0..self.r.columns {
            for y in [0, self.top_row] {
                let at = Point::new(x, y);
                let Some(label) = self.pin_owner(at) else {
                    continue;
                };
                for layer in 1..=self.r.layers {
                    let i = self.r.index(at, layer);
                    self.r.owner[i] = label;
                    if layer > 1 {
                        let j = self.r.index(at, layer - 1);
                        self.r.union(i, j);
                    }
                }
            }
        }
    }

    /// Claim a point for a net: rules 2 (no shorts) and 3 (pin rows and
    /// side columns). Returns the raster index.
    fn claim(&mut self, net: u32, layer: u32, at: Point) -> usize {
        let i = self.r.index(at, layer);
        let c = self.r.columns;
        if at.y == 0 || at.y == self.top_row {
            if self.pin_owner(at) != Some(net) {
                self.report.push(Violation::PinRow { net, layer, at });
                return i;
            }
        } else if at.x == -1 || at.x == c {
            let id = self
                .problem
                .by_label(net)
                .expect("net checked before claiming");
            let side_ok = if at.x == -1 {
                self.problem.net(id).left
            } else {
                self.problem.net(id).right
            };
            if !side_ok {
                self.report.push(Violation::Side { net, at });
                return i;
            }
        }
        match self.r.owner[i] {
            0 => self.r.owner[i] = net,
            o if o == net => {}
            o => self.report.push(Violation::Short {
                nets: (o.min(net), o.max(net)),
                layer,
                at,
            }),
        }
        i
    }

    /// Rule 1 for a wire: a known net on a real layer, axis-parallel and
    /// inside the channel. The first broken rule, if any.
    fn wire_violation(&self, w: &Wire) -> Option<Violation> {
        if self.problem.by_label(w.net).is_none() {
            return Some(Violation::UnknownNet { net: w.net });
        }
        if w.layer == 0 || w.layer > self.r.layers {
            return Some(Violation::BadLayer {
                net: w.net,
                layer: w.layer,
            });
        }
        if w.segment().dir().is_none() {
            return Some(Violation::Diagonal {
                net: w.net,
                from: w.from,
                to: w.to,
            });
        }
        let &at = [w.from, w.to].iter().find(|p| !self.r.inside(**p))?;
        Some(Violation::OutOfChannel {
            net: w.net,
            layer: w.layer,
            at,
        })
    }

    /// Lay one wire into the raster: claim its points, join them, mark its
    /// unit edges, and note a run along the boundary.
    fn check_wire(&mut self, w: &Wire) {
        if let Some(v) = self.wire_violation(w) {
            self.report.push(v);
            return;
        }
        let c = self.r.columns;
        let mut prev: Option<(Point, usize)> = None;
        let mut along = None;
        for p in w.segment().points() {
            let i = self.claim(w.net, w.layer, p);
            if let Some((q, j)) = prev {
                self.r.union(i, j);
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
                    p.y == 0 || p.y == self.top_row
                } else {
                    p.x == -1 || p.x == c
                };
                if along_boundary && along.is_none() {
                    along = Some(low_end);
                }
                if horizontal {
                    self.r.h_edge[lo] = true;
                } else {
                    self.r.v_edge[lo] = true;
                }
            }
            prev = Some((p, i));
        }
        if let Some(at) = along {
            self.report.boundary_total += 1;
            if self.report.boundary_runs.len() < MAX_KEPT {
                self.report.boundary_runs.push(Violation::Boundary {
                    net: w.net,
                    layer: w.layer,
                    at,
                });
            }
        }
    }

    /// Lay one via stack into the raster (rule 1 first: a known net, real
    /// layers, inside the channel).
    fn check_via(&mut self, v: &Via) {
        if self.problem.by_label(v.net).is_none() {
            self.report.push(Violation::UnknownNet { net: v.net });
            return;
        }
        let layers = self.r.layers;
        if let Some(&layer) = [v.from, v.to].iter().find(|&&l| l == 0 || l > layers) {
            self.report.push(Violation::BadLayer { net: v.net, layer });
            return;
        }
        if !self.r.inside(v.at) {
            self.report.push(Violation::OutOfChannel {
                net: v.net,
                layer: v.from,
                at: v.at,
            });
            return;
        }
        let (lo, hi) = (v.from.min(v.to), v.from.max(v.to));
        let mut prev = None;
        for layer in lo..=hi {
            let i = self.claim(v.net, layer, v.at);
            if let Some(j) = prev {
                self.r.union(i, j);
            }
            prev = Some(i);
        }
    }

    /// The raster points of a side column `x` that `label` covers.
    fn side_cells(&self, label: u32, x: i64) -> Vec<usize> {
        let mut cells = Vec::new();
        for layer in 1..=self.r.layers {
            for y in 1..self.top_row {
                let i = self.r.index(Point::new(x, y), layer);
                if self.r.owner[i] == label {
                    cells.push(i);
                }
            }
        }
        cells
    }

    /// The point of a pin on its row.
    fn pin_point(&self, pin: &Pin) -> Point {
        let y = if pin.side == Side::Bottom {
            0
        } else {
            self.top_row
        };
        Point::new(pin.column as i64, y)
    }

    /// Rule 4: every terminal of `net` (pins and sides) in one component.
    fn check_connected(&mut self, net: &Net) {
        let label = net.label;
        let c = self.r.columns;
        let left_cells = if net.left {
            self.side_cells(label, -1)
        } else {
            vec![]
        };
        let right_cells = if net.right {
            self.side_cells(label, c)
        } else {
            vec![]
        };
        let root = if let Some(pin) = net.pins.first() {
            let i = self.r.index(self.pin_point(pin), 1);
            self.r.find(i as u32)
        } else {
            // A feed-through (side terminals only): any left exit that
            // reaches a right exit will do.
            let right_roots: Vec<u32> =
                right_cells.iter().map(|&i| self.r.find(i as u32)).collect();
            let joined = left_cells
                .iter()
                .map(|&i| self.r.find(i as u32))
                .find(|root| right_roots.contains(root));
            let Some(root) = joined else {
                self.report.push(Violation::Open {
                    net: label,
                    detail: "does not join its left and right exits".into(),
                });
                return;
            };
            root
        };
        for pin in &net.pins {
            let at = self.pin_point(pin);
            let i = self.r.index(at, 1);
            if self.r.find(i as u32) != root {
                self.report.push(Violation::Open {
                    net: label,
                    detail: format!("is not connected to its pin at {at}"),
                });
            }
        }
        for (want, cells, side) in [
            (net.left, &left_cells, "left"),
            (net.right, &right_cells, "right"),
        ] {
            if want && !cells.iter().any(|&i| self.r.find(i as u32) == root) {
                self.report.push(Violation::Open {
                    net: label,
                    detail: format!("does not reach the {side} side"),
                });
            }
        }
    }
}
