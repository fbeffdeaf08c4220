//! The independent legality checker of grid embeddings (docs/formats.md
//! section 4).
//!
//! Rules:
//! 1. node and edge ids are unique, edges name existing nodes, boxes have
//!    `min <= max`, 2-D embeddings keep `z = 0`;
//! 2. node boxes are pairwise disjoint;
//! 3. a path has a point at least; consecutive corner points differ in
//!    exactly one coordinate; the first point lies in the `from` box, the
//!    last in the `to` box;
//! 4. no unit grid edge is used by two paths (or twice by one);
//! 5. a path enters no node box other than its own two;
//! 6. outside the boxes a grid point is used by two paths at most, and
//!    where two paths share one both pass straight through along different
//!    axes (a crossing; a point where a path turns is a knock-knee and is
//!    refused when shared).
//!
//! Everything is drawn on a dense raster of the bounding box, so the check
//! runs in time and memory linear in the area (volume) plus the total wire
//! length. Boxes of more than [`MAX_POINTS`] points in all are refused.

mod index;
mod rules;

pub use index::NodeIndex;

use super::{Embedding, P3};

/// Largest bounding box (in grid points) the checker rasterises: its
/// rasters take about 25 bytes a point, so 2^28 points is some 6.7 GB (the
/// largest layouts the project builds have under 2^25).
pub const MAX_POINTS: u64 = 1 << 28;

/// One broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// Rule 1: this node id is used by two nodes.
    DuplicateNode(u32),
    /// Rule 1: this edge id is used by two edges.
    DuplicateEdge(u32),
    /// Rule 1: an edge names a node id that no node has.
    UnknownNode {
        /// The edge's id.
        edge: u32,
        /// The missing node id (its `from` or `to`).
        node: u32,
    },
    /// Rule 1: this node's box has `min > max` on some axis.
    BadBox(u32),
    /// Rule 1: a node box or a path point of a 2-D embedding has `z != 0`.
    NotPlanarZ {
        /// What leaves the plane, as `node N` or `edge N`.
        what: String,
    },
    /// Rule 2: two node boxes share a grid point.
    Overlap {
        /// The node listed first in the embedding.
        a: u32,
        /// The node listed later.
        b: u32,
        /// A shared point (each one is a violation of its own).
        at: P3,
    },
    /// Rule 3: this edge's path has no point.
    EmptyPath(u32),
    /// Rule 3: two consecutive corner points differ in more than one
    /// coordinate.
    Diagonal {
        /// The edge's id.
        edge: u32,
        /// The first corner of the diagonal step.
        from: P3,
        /// The corner after it.
        to: P3,
    },
    /// Rule 3: two consecutive corner points are the same point.
    RepeatedCorner {
        /// The edge's id.
        edge: u32,
        /// The repeated point.
        at: P3,
    },
    /// Rule 3: a path's first point is outside its `from` node's box.
    StartOutside {
        /// The edge's id.
        edge: u32,
        /// The path's first point.
        at: P3,
    },
    /// Rule 3: a path's last point is outside its `to` node's box.
    EndOutside {
        /// The edge's id.
        edge: u32,
        /// The path's last point.
        at: P3,
    },
    /// Rule 4: a unit grid edge is used by two paths (`a == b` when one path
    /// uses it twice).
    SharedGridEdge {
        /// The edge listed first of the two.
        a: u32,
        /// The edge listed later (or `a` again).
        b: u32,
        /// The unit edge's lower end (smaller coordinate along its axis).
        at: P3,
    },
    /// Rule 5: a path enters the box of a node other than its own two.
    ThroughForeignNode {
        /// The edge's id.
        edge: u32,
        /// The node whose box it enters.
        node: u32,
        /// A point of the path inside that box (each one is reported).
        at: P3,
    },
    /// Rule 6: two paths share a point outside the boxes where one of them
    /// turns or ends (a knock-knee).
    SharedTurn {
        /// The edge listed first of the two.
        a: u32,
        /// The edge listed later.
        b: u32,
        /// The shared point.
        at: P3,
    },
    /// Rule 6: two paths pass straight through one point outside the boxes
    /// along the same axis.
    ParallelOverlap {
        /// The edge listed first of the two.
        a: u32,
        /// The edge listed later.
        b: u32,
        /// The shared point.
        at: P3,
    },
    /// Rule 6: three or more paths share a point outside the boxes.
    ThreePaths {
        /// The shared point.
        at: P3,
    },
    /// No verdict: the bounding box has more than [`MAX_POINTS`] points.
    TooLarge {
        /// Grid points in the bounding box (saturating at `u64::MAX`).
        points: u64,
    },
    /// Rule 6: a path passes through one of its points outside the boxes
    /// twice.
    SelfIntersect {
        /// The edge's id.
        edge: u32,
        /// The point visited twice.
        at: P3,
    },
    /// Rule 1: `dimensions` is neither 2 nor 3 (checked before anything
    /// else).
    BadDimensions(u32),
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = |p: &P3| format!("({}, {}, {})", p.x, p.y, p.z);
        match self {
            Violation::DuplicateNode(id) => write!(f, "node id {id} is used twice"),
            Violation::DuplicateEdge(id) => write!(f, "edge id {id} is used twice"),
            Violation::UnknownNode { edge, node } => {
                write!(f, "edge {edge} names node {node}, which does not exist")
            }
            Violation::BadBox(id) => write!(f, "node {id} has a box with min > max"),
            Violation::NotPlanarZ { what } => {
                write!(f, "{what} leaves the plane z = 0 of a 2-D embedding")
            }
            Violation::Overlap { a, b, at } => {
                write!(f, "the boxes of nodes {a} and {b} overlap at {}", p(at))
            }
            Violation::EmptyPath(id) => write!(f, "edge {id} has an empty path"),
            Violation::Diagonal { edge, from, to } => write!(
                f,
                "edge {edge} goes from {} to {}, not along one axis",
                p(from),
                p(to)
            ),
            Violation::RepeatedCorner { edge, at } => {
                write!(f, "edge {edge} repeats the corner point {}", p(at))
            }
            Violation::StartOutside { edge, at } => {
                write!(f, "edge {edge} starts at {}, outside its from-node", p(at))
            }
            Violation::EndOutside { edge, at } => {
                write!(f, "edge {edge} ends at {}, outside its to-node", p(at))
            }
            Violation::SharedGridEdge { a, b, at } => write!(
                f,
                "edges {a} and {b} use the same unit grid edge at {}",
                p(at)
            ),
            Violation::ThroughForeignNode { edge, node, at } => {
                write!(f, "edge {edge} passes through node {node} at {}", p(at))
            }
            Violation::SharedTurn { a, b, at } => write!(
                f,
                "edges {a} and {b} meet at {} where one of them turns (a knock-knee)",
                p(at)
            ),
            Violation::ParallelOverlap { a, b, at } => {
                write!(f, "edges {a} and {b} meet at {} along the same axis", p(at))
            }
            Violation::ThreePaths { at } => {
                write!(f, "three or more edges share the grid point {}", p(at))
            }
            Violation::SelfIntersect { edge, at } => {
                write!(f, "edge {edge} passes through {} twice", p(at))
            }
            Violation::BadDimensions(d) => {
                write!(f, "dimensions is {d}; an embedding is 2-D or 3-D")
            }
            Violation::TooLarge { points } => write!(
                f,
                "the bounding box has {points} grid points, more than the checker's {MAX_POINTS}"
            ),
        }
    }
}

/// The checker's findings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayoutCheck {
    /// The first violations found (at most [`LIMIT`]).
    pub violations: Vec<Violation>,
    /// How many there are in all.
    pub total: usize,
    /// Points where two paths cross (allowed: two layers).
    pub crossings: u64,
}

/// Violations listed in full; the rest are only counted.
pub const LIMIT: usize = 50;

impl LayoutCheck {
    /// True when no rule is broken (and a verdict was reached).
    pub fn is_legal(&self) -> bool {
        self.total == 0
    }

    /// Why no verdict could be reached (the bounding box is more than the
    /// checker rasterises), if so.
    pub fn too_large(&self) -> Option<&Violation> {
        self.violations
            .iter()
            .find(|v| matches!(v, Violation::TooLarge { .. }))
    }

    fn push(&mut self, v: Violation) {
        if self.violations.len() < LIMIT {
            self.violations.push(v);
        }
        self.total += 1;
    }
}

/// The bounding box of all node boxes and path points.
pub fn bounding_box(e: &Embedding) -> Option<(P3, P3)> {
    let mut pts = e
        .nodes
        .iter()
        .flat_map(|n| [n.min, n.max])
        .chain(e.edges.iter().flat_map(|x| x.path.iter().copied()));
    let first = pts.next()?;
    let (mut lo, mut hi) = (first, first);
    for p in pts {
        lo = P3::new(lo.x.min(p.x), lo.y.min(p.y), lo.z.min(p.z));
        hi = P3::new(hi.x.max(p.x), hi.y.max(p.y), hi.z.max(p.z));
    }
    Some((lo, hi))
}

/// Check an embedding against the rules of the module comment.
///
/// # Example
///
/// ```
/// let e = fabric::layout::fattree::htree(16).unwrap();
/// let verdict = fabric::layout::check::check(&e);
/// assert!(verdict.is_legal(), "{:?}", verdict.violations);
/// let m = fabric::layout::metrics::measure(&e);
/// assert_eq!(m.width, 7); // side 2 sqrt(n) - 1
/// ```
pub fn check(e: &Embedding) -> LayoutCheck {
    let mut out = LayoutCheck::default();
    // Rule 1.
    if !(2..=3).contains(&e.dimensions) {
        out.push(Violation::BadDimensions(e.dimensions));
        return out;
    }
    let index = NodeIndex::new(e);
    rules::node_ids_and_boxes(e, &index, &mut out);
    rules::edge_ids_and_ends(e, &index, &mut out);
    if !out.is_legal() {
        return out;
    }
    let Some(raster) = Raster::of(e, &mut out) else {
        return out;
    };
    // Rule 2.
    let owner = rules::box_owners(e, &raster, &mut out);
    // Rules 3 to 6.
    let mut used = rules::PointUse::new(raster.points);
    let mut pts: Vec<P3> = Vec::new();
    for x in &e.edges {
        if rules::path_points(e, &index, x, &mut pts, &mut out) {
            used.walk(e, &raster, &owner, x, &pts, &mut out);
        }
    }
    out
}

/// The dense raster of an embedding's bounding box: point `p` is cell
/// `at(p)`.
pub(super) struct Raster {
    lo: P3,
    w: u64,
    h: u64,
    /// Cells in all.
    pub(super) points: u64,
}

impl Raster {
    /// The raster of `e`'s bounding box; `None` for an embedding with no
    /// points, or (with the violation pushed) a box of more than
    /// [`MAX_POINTS`] points.
    fn of(e: &Embedding, out: &mut LayoutCheck) -> Option<Raster> {
        let (lo, hi) = bounding_box(e)?;
        // Extents in i128: coordinates may span the whole i64 range.
        let extent = |a: i64, b: i64| (b as i128 - a as i128 + 1).min(u64::MAX as i128) as u64;
        let (w, h, d) = (extent(lo.x, hi.x), extent(lo.y, hi.y), extent(lo.z, hi.z));
        let points = w.saturating_mul(h).saturating_mul(d);
        if points > MAX_POINTS {
            out.push(Violation::TooLarge { points });
            return None;
        }
        Some(Raster { lo, w, h, points })
    }

    /// The cell of point `p` of the box.
    pub(super) fn at(&self, p: P3) -> usize {
        let lo = self.lo;
        (((p.z - lo.z) as u64 * self.h + (p.y - lo.y) as u64) * self.w + (p.x - lo.x) as u64)
            as usize
    }
}

#[cfg(test)]
mod tests;
