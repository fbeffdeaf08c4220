//! The independent legality checker of grid embeddings (FORMATS.md
//! section 4; spec note 003 part 1, section 1).
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

use std::collections::HashSet;

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

/// Node id to index: a table when the ids are small (as every construction
/// here numbers them), a hash map otherwise.
pub struct NodeIndex {
    table: Vec<u32>,
    map: std::collections::HashMap<u32, u32>,
    dense: bool,
}

impl NodeIndex {
    const NONE: u32 = u32::MAX;

    /// The index of `e`'s nodes: node `id` maps to its position in
    /// `e.nodes`. Of a repeated id, the first node is kept.
    pub fn new(e: &Embedding) -> NodeIndex {
        let mut idx = NodeIndex::sized(e.nodes.len(), e.nodes.iter().map(|n| n.id).max());
        for (k, n) in e.nodes.iter().enumerate() {
            idx.insert(n.id, k);
        }
        idx
    }

    fn sized(count: usize, max_id: Option<u32>) -> NodeIndex {
        let dense = max_id.is_none_or(|m| (m as usize) < 2 * count + 1);
        NodeIndex {
            table: if dense {
                vec![Self::NONE; max_id.map_or(0, |m| m as usize + 1)]
            } else {
                Vec::new()
            },
            map: std::collections::HashMap::new(),
            dense,
        }
    }

    fn empty_like(other: &NodeIndex) -> NodeIndex {
        NodeIndex {
            table: vec![Self::NONE; other.table.len()],
            map: std::collections::HashMap::new(),
            dense: other.dense,
        }
    }

    /// Record `id -> k`; false when `id` was already there (kept as it was).
    fn insert(&mut self, id: u32, k: usize) -> bool {
        if self.dense {
            let slot = &mut self.table[id as usize];
            if *slot != Self::NONE {
                return false;
            }
            *slot = k as u32;
            true
        } else {
            match self.map.entry(id) {
                std::collections::hash_map::Entry::Occupied(_) => false,
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(k as u32);
                    true
                }
            }
        }
    }

    /// The index of node `id`.
    pub fn get(&self, id: u32) -> Option<usize> {
        if self.dense {
            self.table
                .get(id as usize)
                .copied()
                .filter(|&k| k != Self::NONE)
                .map(|k| k as usize)
        } else {
            self.map.get(&id).map(|&k| k as usize)
        }
    }
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
    let mut seen_node = NodeIndex::empty_like(&index);
    for (k, n) in e.nodes.iter().enumerate() {
        if !seen_node.insert(n.id, k) {
            out.push(Violation::DuplicateNode(n.id));
        }
        if n.min.x > n.max.x || n.min.y > n.max.y || n.min.z > n.max.z {
            out.push(Violation::BadBox(n.id));
        }
        if e.dimensions == 2 && (n.min.z != 0 || n.max.z != 0) {
            out.push(Violation::NotPlanarZ {
                what: format!("node {}", n.id),
            });
        }
    }
    let dense_edges = e
        .edges
        .iter()
        .all(|x| (x.id as usize) < 2 * e.edges.len() + 1);
    let mut edge_seen = vec![
        false;
        if dense_edges {
            2 * e.edges.len() + 1
        } else {
            0
        }
    ];
    let mut edge_ids = HashSet::new();
    for x in &e.edges {
        let fresh = if dense_edges {
            !std::mem::replace(&mut edge_seen[x.id as usize], true)
        } else {
            edge_ids.insert(x.id)
        };
        if !fresh {
            out.push(Violation::DuplicateEdge(x.id));
        }
        for node in [x.from, x.to] {
            if index.get(node).is_none() {
                out.push(Violation::UnknownNode { edge: x.id, node });
            }
        }
        if e.dimensions == 2 && x.path.iter().any(|p| p.z != 0) {
            out.push(Violation::NotPlanarZ {
                what: format!("edge {}", x.id),
            });
        }
    }
    if !out.is_legal() {
        return out;
    }
    let Some((lo, hi)) = bounding_box(e) else {
        return out;
    };
    // Extents in i128: coordinates may span the whole i64 range.
    let extent = |a: i64, b: i64| (b as i128 - a as i128 + 1).min(u64::MAX as i128) as u64;
    let (w, h, d) = (extent(lo.x, hi.x), extent(lo.y, hi.y), extent(lo.z, hi.z));
    let points = w.saturating_mul(h).saturating_mul(d);
    if points > MAX_POINTS {
        out.push(Violation::TooLarge { points });
        return out;
    }
    let at = |p: P3| -> usize {
        (((p.z - lo.z) as u64 * h + (p.y - lo.y) as u64) * w + (p.x - lo.x) as u64) as usize
    };
    // Rule 2: owner of every box point (node index + 1).
    const FREE: u32 = 0;
    let mut owner = vec![FREE; points as usize];
    for (k, n) in e.nodes.iter().enumerate() {
        for z in n.min.z..=n.max.z {
            for y in n.min.y..=n.max.y {
                for x in n.min.x..=n.max.x {
                    let i = at(P3::new(x, y, z));
                    if owner[i] != FREE {
                        let other = e.nodes[owner[i] as usize - 1].id;
                        out.push(Violation::Overlap {
                            a: other,
                            b: n.id,
                            at: P3::new(x, y, z),
                        });
                    } else {
                        owner[i] = k as u32 + 1;
                    }
                }
            }
        }
    }
    // Rules 3 to 6. Per raster point outside the boxes: the first and
    // second path through it and how each passes (axis 0/1/2 straight, 3
    // for a turn or an end); per unit edge (point, axis) the path using it.
    const NONE: u32 = u32::MAX;
    let mut first = vec![NONE; points as usize];
    let mut first_how = vec![0u8; points as usize];
    let mut second = vec![NONE; points as usize];
    let mut grid_edge = vec![[NONE; 3]; points as usize];
    let mut pts: Vec<P3> = Vec::new();
    for x in &e.edges {
        let Some(&start) = x.path.first() else {
            out.push(Violation::EmptyPath(x.id));
            continue;
        };
        let from = &e.nodes[index.get(x.from).expect("checked above")];
        let to = &e.nodes[index.get(x.to).expect("checked above")];
        if !from.contains(start) {
            out.push(Violation::StartOutside {
                edge: x.id,
                at: start,
            });
        }
        let end = *x.path.last().expect("non-empty");
        if !to.contains(end) {
            out.push(Violation::EndOutside {
                edge: x.id,
                at: end,
            });
        }
        let mut ok = true;
        for c in x.path.windows(2) {
            let moved =
                (c[0].x != c[1].x) as u8 + (c[0].y != c[1].y) as u8 + (c[0].z != c[1].z) as u8;
            if moved == 0 {
                out.push(Violation::RepeatedCorner {
                    edge: x.id,
                    at: c[0],
                });
                ok = false;
            } else if moved > 1 {
                out.push(Violation::Diagonal {
                    edge: x.id,
                    from: c[0],
                    to: c[1],
                });
                ok = false;
            }
        }
        if !ok {
            continue;
        }
        // Walk the unit steps.
        pts.clear();
        pts.push(start);
        for c in x.path.windows(2) {
            let (a, b) = (c[0], c[1]);
            let step = P3::new(
                (b.x - a.x).signum(),
                (b.y - a.y).signum(),
                (b.z - a.z).signum(),
            );
            let mut p = a;
            while p != b {
                p = P3::new(p.x + step.x, p.y + step.y, p.z + step.z);
                pts.push(p);
            }
        }
        let axis = |a: P3, b: P3| -> usize {
            if a.x != b.x {
                0
            } else if a.y != b.y {
                1
            } else {
                2
            }
        };
        for (k, &p) in pts.iter().enumerate() {
            // Unit edge from p to the next point.
            if k + 1 < pts.len() {
                let q = pts[k + 1];
                let ax = axis(p, q);
                let base =
                    if (ax == 0 && q.x < p.x) || (ax == 1 && q.y < p.y) || (ax == 2 && q.z < p.z) {
                        q
                    } else {
                        p
                    };
                let slot = &mut grid_edge[at(base)][ax];
                if *slot != NONE {
                    out.push(Violation::SharedGridEdge {
                        a: *slot,
                        b: x.id,
                        at: base,
                    });
                } else {
                    *slot = x.id;
                }
            }
            let o = owner[at(p)];
            if o != FREE {
                let node = e.nodes[o as usize - 1].id;
                if node != x.from && node != x.to {
                    out.push(Violation::ThroughForeignNode {
                        edge: x.id,
                        node,
                        at: p,
                    });
                }
                continue;
            }
            // How the path passes p.
            let how = if k == 0 || k + 1 == pts.len() {
                3
            } else {
                let (a, b) = (axis(pts[k - 1], p), axis(p, pts[k + 1]));
                if a == b {
                    a as u8
                } else {
                    3
                }
            };
            let i = at(p);
            if first[i] == NONE {
                first[i] = x.id;
                first_how[i] = how;
            } else if first[i] == x.id {
                out.push(Violation::SelfIntersect { edge: x.id, at: p });
            } else if second[i] == NONE {
                second[i] = x.id;
                let other = first_how[i];
                if how == 3 || other == 3 {
                    out.push(Violation::SharedTurn {
                        a: first[i],
                        b: x.id,
                        at: p,
                    });
                } else if how == other {
                    out.push(Violation::ParallelOverlap {
                        a: first[i],
                        b: x.id,
                        at: p,
                    });
                } else {
                    out.crossings += 1;
                }
            } else {
                out.push(Violation::ThreePaths { at: p });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Edge, Node};
    use super::*;

    fn node(id: u32, min: (i64, i64), max: (i64, i64)) -> Node {
        Node {
            id,
            kind: "switch".into(),
            level: 0,
            min: P3::xy(min.0, min.1),
            max: P3::xy(max.0, max.1),
        }
    }

    fn edge(id: u32, from: u32, to: u32, path: &[(i64, i64)]) -> Edge {
        Edge {
            id,
            from,
            to,
            path: path.iter().map(|&(x, y)| P3::xy(x, y)).collect(),
        }
    }

    /// Four point nodes around a cross: 0 left, 1 right, 2 bottom, 3 top.
    fn cross() -> Embedding {
        Embedding {
            network: "test".into(),
            dimensions: 2,
            nodes: vec![
                node(0, (0, 2), (0, 2)),
                node(1, (4, 2), (4, 2)),
                node(2, (2, 0), (2, 0)),
                node(3, (2, 4), (2, 4)),
            ],
            edges: vec![
                edge(0, 0, 1, &[(0, 2), (4, 2)]),
                edge(1, 2, 3, &[(2, 0), (2, 4)]),
            ],
            ..Default::default()
        }
    }

    #[test]
    fn a_crossing_is_legal() {
        let c = check(&cross());
        assert!(c.is_legal(), "{:?}", c.violations);
        assert_eq!(c.crossings, 1);
    }

    fn fails(e: &Embedding, want: impl Fn(&Violation) -> bool) {
        let c = check(e);
        assert!(!c.is_legal());
        assert!(c.violations.iter().any(want), "{:?}", c.violations);
    }

    #[test]
    fn each_fault_is_caught() {
        // Overlapping boxes.
        let mut e = cross();
        e.nodes[1] = node(1, (-1, 2), (0, 3));
        fails(&e, |v| matches!(v, Violation::Overlap { .. }));
        // A diagonal step.
        let mut e = cross();
        e.edges[0].path = vec![P3::xy(0, 2), P3::xy(4, 3)];
        fails(&e, |v| matches!(v, Violation::Diagonal { .. }));
        // Ends outside their nodes.
        let mut e = cross();
        e.edges[0].path = vec![P3::xy(0, 1), P3::xy(4, 1)];
        fails(&e, |v| matches!(v, Violation::StartOutside { .. }));
        fails(&e, |v| matches!(v, Violation::EndOutside { .. }));
        // Two edges on one unit grid edge.
        let mut e = cross();
        e.edges
            .push(edge(2, 0, 1, &[(0, 2), (1, 2), (1, 3), (4, 3), (4, 2)]));
        fails(&e, |v| matches!(v, Violation::SharedGridEdge { .. }));
        // Through a foreign node.
        let mut e = cross();
        e.nodes.push(node(9, (3, 2), (3, 2)));
        fails(&e, |v| {
            matches!(v, Violation::ThroughForeignNode { node: 9, .. })
        });
        // A knock-knee: both paths turn at (2, 2).
        let mut e = cross();
        e.edges[0].path = vec![P3::xy(0, 2), P3::xy(2, 2), P3::xy(2, 0)];
        e.edges[0].to = 2;
        e.edges[1].path = vec![P3::xy(4, 2), P3::xy(2, 2), P3::xy(2, 4)];
        e.edges[1].from = 1;
        fails(&e, |v| matches!(v, Violation::SharedTurn { .. }));
        // Three paths through one point.
        let mut e = cross();
        e.dimensions = 3;
        e.nodes.push(Node {
            id: 4,
            kind: "switch".into(),
            level: 0,
            min: P3::new(2, 2, -2),
            max: P3::new(2, 2, -2),
        });
        e.nodes.push(Node {
            id: 5,
            kind: "switch".into(),
            level: 0,
            min: P3::new(2, 2, 2),
            max: P3::new(2, 2, 2),
        });
        e.edges.push(Edge {
            id: 2,
            from: 4,
            to: 5,
            path: vec![P3::new(2, 2, -2), P3::new(2, 2, 2)],
        });
        fails(&e, |v| matches!(v, Violation::ThreePaths { .. }));
        // Ids and references.
        let mut e = cross();
        e.edges[1].id = 0;
        fails(&e, |v| matches!(v, Violation::DuplicateEdge(0)));
        let mut e = cross();
        e.edges[1].to = 7;
        fails(&e, |v| matches!(v, Violation::UnknownNode { node: 7, .. }));
        let mut e = cross();
        e.nodes[3].id = 0;
        fails(&e, |v| matches!(v, Violation::DuplicateNode(0)));
        // A 2-D embedding off the plane.
        let mut e = cross();
        e.edges[0].path[1].z = 1;
        fails(&e, |v| matches!(v, Violation::NotPlanarZ { .. }));
        // A path through one of its own points twice, and a bad dimension.
        let mut e = cross();
        e.edges[0].path = vec![
            P3::xy(0, 2),
            P3::xy(3, 2),
            P3::xy(3, 3),
            P3::xy(1, 3),
            P3::xy(1, 1),
            P3::xy(4, 1),
            P3::xy(4, 2),
        ];
        e.edges.pop();
        fails(&e, |v| matches!(v, Violation::SelfIntersect { .. }));
        let mut e = cross();
        e.dimensions = 7;
        fails(&e, |v| matches!(v, Violation::BadDimensions(7)));
        // Coordinates spanning all of i64 are refused, not a crash.
        let mut e = cross();
        e.nodes[0].min.x = i64::MIN;
        e.nodes[1].max.x = i64::MAX;
        fails(&e, |v| {
            matches!(v, Violation::TooLarge { .. } | Violation::BadBox(_))
        });
        // Empty path and a repeated corner.
        let mut e = cross();
        e.edges[0].path.clear();
        fails(&e, |v| matches!(v, Violation::EmptyPath(0)));
        let mut e = cross();
        e.edges[0].path.insert(1, P3::xy(0, 2));
        fails(&e, |v| matches!(v, Violation::RepeatedCorner { .. }));
    }

    #[test]
    fn parallel_paths_touching_at_a_point_are_refused() {
        // Two paths along the same line meeting end to end at (2, 2) would
        // share the point; here edge 1 runs along edge 0's line.
        let mut e = cross();
        e.nodes.push(node(4, (2, 3), (2, 3)));
        e.edges[1] = edge(1, 2, 4, &[(2, 0), (2, 3)]);
        e.edges.push(edge(2, 4, 3, &[(2, 3), (2, 4)]));
        let c = check(&e);
        assert!(c.is_legal(), "{:?}", c.violations);
        // Now a path running alongside through the same point on the same axis.
        let mut e = cross();
        e.nodes.push(node(5, (1, 0), (1, 0)));
        e.nodes.push(node(6, (3, 4), (3, 4)));
        e.edges
            .push(edge(2, 5, 6, &[(1, 0), (1, 2), (3, 2), (3, 4)]));
        fails(&e, |v| {
            matches!(
                v,
                Violation::SharedGridEdge { .. }
                    | Violation::SharedTurn { .. }
                    | Violation::ParallelOverlap { .. }
            )
        });
    }
}
