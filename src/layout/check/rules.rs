//! The checker's rules, one function each, called in order by
//! [`super::check`]; each pushes its violations in the order it finds them.

use std::collections::HashSet;

use super::{LayoutCheck, NodeIndex, Raster, Violation};
use crate::layout::{Edge, Embedding, P3};

/// A raster cell no node box covers.
const FREE: u32 = 0;
/// A raster slot no path uses.
const NONE: u32 = u32::MAX;

/// Rule 1 for nodes: unique ids, boxes with `min <= max`, `z = 0` in 2-D.
pub(super) fn node_ids_and_boxes(e: &Embedding, index: &NodeIndex, out: &mut LayoutCheck) {
    let mut seen_node = NodeIndex::empty_like(index);
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
}

/// Rule 1 for edges: unique ids, existing end nodes, `z = 0` in 2-D.
pub(super) fn edge_ids_and_ends(e: &Embedding, index: &NodeIndex, out: &mut LayoutCheck) {
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
}

/// Rule 2: node boxes are disjoint. The owner of every raster cell (node
/// index + 1, or [`FREE`]).
pub(super) fn box_owners(e: &Embedding, raster: &Raster, out: &mut LayoutCheck) -> Vec<u32> {
    let mut owner = vec![FREE; raster.points as usize];
    for (k, n) in e.nodes.iter().enumerate() {
        for z in n.min.z..=n.max.z {
            for y in n.min.y..=n.max.y {
                for x in n.min.x..=n.max.x {
                    let i = raster.at(P3::new(x, y, z));
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
    owner
}

/// Rule 3: a path has a point, starts in its `from` box and ends in its
/// `to` box, and its consecutive corners differ in exactly one coordinate.
/// When its corners are sound, true with its unit-step points in `pts`.
pub(super) fn path_points(
    e: &Embedding,
    index: &NodeIndex,
    x: &Edge,
    pts: &mut Vec<P3>,
    out: &mut LayoutCheck,
) -> bool {
    let Some(&start) = x.path.first() else {
        out.push(Violation::EmptyPath(x.id));
        return false;
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
        let moved = (c[0].x != c[1].x) as u8 + (c[0].y != c[1].y) as u8 + (c[0].z != c[1].z) as u8;
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
        return false;
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
    true
}

/// The axis (0, 1, 2) along which neighbouring points `a` and `b` differ.
fn axis(a: P3, b: P3) -> usize {
    if a.x != b.x {
        0
    } else if a.y != b.y {
        1
    } else {
        2
    }
}

/// What the paths walked so far use: per raster point outside the boxes,
/// the first and second path through it and how the first passes (axis
/// 0/1/2 straight, 3 for a turn or an end); per unit edge (point, axis)
/// the path using it.
pub(super) struct PointUse {
    first: Vec<u32>,
    first_how: Vec<u8>,
    second: Vec<u32>,
    grid_edge: Vec<[u32; 3]>,
}

impl PointUse {
    /// Nothing used yet on a raster of `points` cells.
    pub(super) fn new(points: u64) -> PointUse {
        let points = points as usize;
        PointUse {
            first: vec![NONE; points],
            first_how: vec![0u8; points],
            second: vec![NONE; points],
            grid_edge: vec![[NONE; 3]; points],
        }
    }

    /// Rules 4 to 6 along the unit-step points `pts` of edge `x`, point by
    /// point: the unit edge to the next point, then the point itself.
    pub(super) fn walk(
        &mut self,
        e: &Embedding,
        raster: &Raster,
        owner: &[u32],
        x: &Edge,
        pts: &[P3],
        out: &mut LayoutCheck,
    ) {
        for (k, &p) in pts.iter().enumerate() {
            if k + 1 < pts.len() {
                self.unit_edge(raster, x.id, p, pts[k + 1], out);
            }
            let o = owner[raster.at(p)];
            if o != FREE {
                // Rule 5.
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
            self.point(raster.at(p), x.id, how, p, out);
        }
    }

    /// Rule 4: the unit edge from `p` to `q` is used by one path only.
    fn unit_edge(&mut self, raster: &Raster, id: u32, p: P3, q: P3, out: &mut LayoutCheck) {
        let ax = axis(p, q);
        let base = if (ax == 0 && q.x < p.x) || (ax == 1 && q.y < p.y) || (ax == 2 && q.z < p.z) {
            q
        } else {
            p
        };
        let slot = &mut self.grid_edge[raster.at(base)][ax];
        if *slot != NONE {
            out.push(Violation::SharedGridEdge {
                a: *slot,
                b: id,
                at: base,
            });
        } else {
            *slot = id;
        }
    }

    /// Rule 6: path `id` passes point `p` (cell `i`) as `how` says; two
    /// paths at most, both straight along different axes (a crossing).
    fn point(&mut self, i: usize, id: u32, how: u8, p: P3, out: &mut LayoutCheck) {
        if self.first[i] == NONE {
            self.first[i] = id;
            self.first_how[i] = how;
        } else if self.first[i] == id {
            out.push(Violation::SelfIntersect { edge: id, at: p });
        } else if self.second[i] == NONE {
            self.second[i] = id;
            let other = self.first_how[i];
            if how == 3 || other == 3 {
                out.push(Violation::SharedTurn {
                    a: self.first[i],
                    b: id,
                    at: p,
                });
            } else if how == other {
                out.push(Violation::ParallelOverlap {
                    a: self.first[i],
                    b: id,
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
