//! The tree of meshes `T(2, n)` and its truncation to `l` levels, laid out
//! in H-tree style (thesis chapter 5).
//!
//! Folded definition: level `i = 0 .. l` cuts the `n x n` grid into blocks
//! of `n / 2^ceil(i/2)` columns by `n / 2^floor(i/2)` rows (an x-cut after
//! even levels, a y-cut after odd ones). Every level has a node `(i, X, Y)`
//! at every position; mesh edges join 4-neighbours inside a level-`i`
//! block; a tree edge joins `(i, X, Y)` to `(i+1, X, Y)` where `(X, Y)` lies
//! on the face of its level-`i` block on either side of the cut (west and
//! east faces for an x-cut, south and north for a y-cut).
//!
//! Layout of a square level-`i` block of side `m` with `r` levels below it
//! (`r` even): a bare `m x m` mesh when `r = 0`; otherwise a square of side
//! `S(m, r) = 2 S(m/2, r-2) + m` with
//! - the level-`i` mesh in the centre `[s, s+m)^2` (`s = S(m/2, r-2)`);
//! - the two level-`i+1` meshes (`m/2` columns, `m` rows) in the central
//!   band, over the central strip `[s', s'+m/2)` of their quadrants
//!   (`s' = S(m/4, r-4)`, 0 when `r = 2`), mirrored left to right so that
//!   the faces joined by tree edges face each other;
//! - the four level-`i+2` subtrees in the corners, turned half a turn, so
//!   that their root meshes' faces meet the level-`i+1` meshes' faces.
//!
//! Tree edges are straight wires, mesh edges unit wires; every node is one
//! grid point. Node levels in the embedding count from the leaves (`l - i`).
//! For even `l` the side is `n (l/2 + 1)`, `n (lg n + 1)` for the full tree,
//! and for `l >= 4` the longest wire is `S(n/4, l-4) + 1`.

use std::collections::BTreeMap;

use super::construction::{ClosedForms, Construction, Laid, LayoutError, LayoutOptions, Measured};
use super::parameters::{FileParameters, ParameterError};
use super::{Edge, Embedding, NetworkName, Node, SpecError, P3};
use crate::network::{Network, NodeData, NodeId, Role};

/// `S(m, r)`: side of the layout of a block of side `m` with `r` levels below.
pub fn side(m: u64, r: u32) -> u64 {
    extent(m, r).0
}

/// `(W(m, r), H(m, r))`: width and height of the layout of a block of side
/// `m` with `r` levels below. `r = 0`: the `m x m` mesh; `r = 1`: the mesh
/// between its two halves, a band `2m` wide and `m` high; otherwise
/// `W = 2 W(m/2, r-2) + m` and `H = 2 H(m/2, r-2) + m`.
pub fn extent(m: u64, r: u32) -> (u64, u64) {
    match r {
        0 => (m, m),
        1 => (2 * m, m),
        _ => {
            let (w, h) = extent(m / 2, r - 2);
            (2 * w + m, 2 * h + m)
        }
    }
}

/// The longest wire of the layout of a root mesh of side `n` with `l`
/// levels: none (0) in the one node of `n = 1`; for odd `l`, the widest
/// quadrant band's, `n (l - 1) / 8 + 1` (a mesh edge, 1, when `l = 1`);
/// for even `l >= 4`, `S(n/4, l-4) + 1`; otherwise a mesh edge, 1.
pub fn longest_wire(n: u64, l: u32) -> u64 {
    if n < 2 {
        0
    } else if l % 2 == 1 {
        if l == 1 {
            1
        } else {
            n * (l as u64 - 1) / 8 + 1
        }
    } else if l >= 4 {
        side(n / 4, l - 4) + 1
    } else {
        1
    }
}

/// Column where the root mesh of a `(m, r)` layout starts, and its row.
fn root_offset(m: u64, r: u32) -> (i64, i64) {
    match r {
        0 => (0, 0),
        1 => ((m / 2) as i64, 0),
        _ => {
            let (w, h) = extent(m / 2, r - 2);
            (w as i64, h as i64)
        }
    }
}

/// Placement `(x, y) -> (ox + sx x, oy + sy y)` with `sx, sy = ±1`.
#[derive(Clone, Copy)]
struct Map {
    ox: i64,
    oy: i64,
    sx: i64,
    sy: i64,
}

impl Map {
    fn at(&self, x: i64, y: i64) -> P3 {
        P3::xy(self.ox + self.sx * x, self.oy + self.sy * y)
    }

    /// A sub-layout of side `size` at local `(bx, by)`, turned half a turn.
    fn turned(&self, bx: i64, by: i64, (w, h): (i64, i64)) -> Map {
        let p = self.at(bx + w - 1, by + h - 1);
        Map {
            ox: p.x,
            oy: p.y,
            sx: -self.sx,
            sy: -self.sy,
        }
    }
}

struct Builder {
    n: i64,
    levels: u32,
    /// Where each node `(i, X, Y)` was drawn (index `i n^2 + Y n + X`).
    place: Vec<Option<P3>>,
}

impl Builder {
    fn id(&self, i: u32, x: i64, y: i64) -> usize {
        (i as i64 * self.n * self.n + y * self.n + x) as usize
    }

    /// Draw the level-`i` block with corner `(x0, y0)` and side `m` (square,
    /// `i` even) and everything under it.
    fn block(&mut self, i: u32, x0: i64, y0: i64, m: i64, map: Map) {
        let r = self.levels - i;
        if r == 0 {
            for y in 0..m {
                for x in 0..m {
                    let id = self.id(i, x0 + x, y0 + y);
                    self.place[id] = Some(map.at(x, y));
                }
            }
            return;
        }
        let h = m / 2;
        if r == 1 {
            // The band: the west half, the mesh, the east half, each half
            // mirrored so that its joined face touches the mesh.
            for y in 0..m {
                for x in 0..m {
                    let id = self.id(i, x0 + x, y0 + y);
                    self.place[id] = Some(map.at(h + x, y));
                }
                for x in 0..h {
                    let west = self.id(i + 1, x0 + x, y0 + y);
                    self.place[west] = Some(map.at(h - 1 - x, y));
                    let east = self.id(i + 1, x0 + h + x, y0 + y);
                    self.place[east] = Some(map.at(h + m + (h - 1 - x), y));
                }
            }
            return;
        }
        let (qw, qh) = extent(m as u64 / 2, r - 2);
        let (sx, sy) = (qw as i64, qh as i64);
        // The quadrants' root meshes start at column s2 of each quadrant.
        let (s2, _) = root_offset(m as u64 / 2, r - 2);
        // Level i in the centre.
        for y in 0..m {
            for x in 0..m {
                let id = self.id(i, x0 + x, y0 + y);
                self.place[id] = Some(map.at(sx + x, sy + y));
            }
        }
        // Level i+1: the west half mirrored over the west strip, the east
        // half mirrored over the east strip.
        for y in 0..m {
            for x in 0..h {
                let west = self.id(i + 1, x0 + x, y0 + y);
                self.place[west] = Some(map.at(s2 + (h - 1 - x), sy + y));
                let east = self.id(i + 1, x0 + h + x, y0 + y);
                self.place[east] = Some(map.at(sx + m + s2 + (h - 1 - x), sy + y));
            }
        }
        // Level i+2 subtrees, turned half a turn.
        for (bx, by) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let sub = map.turned(bx * (sx + m), by * (sy + m), (sx, sy));
            self.block(i + 2, x0 + bx * h, y0 + by * h, h, sub);
        }
    }
}

/// Lay out `T(2, n)` truncated to `levels` levels below the root (at most
/// `2 lg n`; odd truncations are `2m`-wide bands at the bottom of the
/// recursion, so their layouts are not square).
pub fn tree_of_meshes(n: u64, levels: Option<u32>) -> Result<Embedding, SpecError> {
    if n == 0 || !n.is_power_of_two() {
        return Err(SpecError::RootSide(n));
    }
    let full = 2 * n.trailing_zeros();
    let l = levels.unwrap_or(full);
    if l > full {
        return Err(SpecError::TooManyLevels {
            dims: 2,
            full,
            levels: l,
        });
    }
    let nn = (n * n) as usize;
    let count = nn * (l as usize + 1);
    if count > 1 << 26 {
        return Err(SpecError::TooManyNodes {
            count: count as u64,
            limit_lg: 26,
        });
    }
    let mut b = Builder {
        n: n as i64,
        levels: l,
        place: vec![None; count],
    };
    b.block(
        0,
        0,
        0,
        n as i64,
        Map {
            ox: 0,
            oy: 0,
            sx: 1,
            sy: 1,
        },
    );
    let n = n as i64;
    let mut nodes = Vec::with_capacity(count);
    for i in 0..=l {
        for y in 0..n {
            for x in 0..n {
                let id = b.id(i, x, y);
                let p = b.place[id].expect("every node is placed");
                nodes.push(Node {
                    id: id as u32,
                    kind: if i == l { "processor" } else { "switch" }.into(),
                    level: l - i,
                    min: p,
                    max: p,
                });
            }
        }
    }
    let mut edges = Vec::new();
    let mut wire = |a: usize, c: usize, place: &[Option<P3>]| {
        let (p, q) = (place[a].expect("placed"), place[c].expect("placed"));
        let id = edges.len() as u32;
        edges.push(Edge {
            id,
            from: a as u32,
            to: c as u32,
            path: vec![p, q],
        });
    };
    for i in 0..=l {
        // Block size at level i.
        let w = n >> i.div_ceil(2);
        let hgt = n >> (i / 2);
        for y in 0..n {
            for x in 0..n {
                let a = b.id(i, x, y);
                // Mesh edges to the east and north neighbours in the block.
                if (x + 1) % w != 0 {
                    wire(a, b.id(i, x + 1, y), &b.place);
                }
                if (y + 1) % hgt != 0 {
                    wire(a, b.id(i, x, y + 1), &b.place);
                }
                // Tree edges from the faces on either side of the next cut.
                if i < l {
                    let on_face = if i % 2 == 0 {
                        x % w == 0 || x % w == w - 1
                    } else {
                        y % hgt == 0 || y % hgt == hgt - 1
                    };
                    if on_face {
                        wire(a, b.id(i + 1, x, y), &b.place);
                    }
                }
            }
        }
    }
    let mut parameters = BTreeMap::new();
    parameters.insert("root_side".to_string(), n.to_string());
    parameters.insert("levels".to_string(), l.to_string());
    Ok(Embedding {
        network: NetworkName::TreeOfMeshes,
        parameters,
        dimensions: 2,
        nodes,
        edges,
    })
}

/// Parameters of a tree of meshes in H-tree style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeOfMeshesSpec {
    /// The root mesh's side `n`, a power of 2.
    pub root_side: u64,
    /// Levels below the root (`None`: the full tree, `2 lg n`).
    pub levels: Option<u32>,
}

impl TreeOfMeshesSpec {
    /// The spec `fabric layout tree-of-meshes --size n` asks for.
    pub fn from_options(n: u64, o: &LayoutOptions) -> TreeOfMeshesSpec {
        TreeOfMeshesSpec {
            root_side: n,
            levels: o.levels,
        }
    }
}

impl Construction for TreeOfMeshesSpec {
    fn build(&self) -> Result<Laid, LayoutError> {
        let size = self.root_side;
        let embedding = tree_of_meshes(size, self.levels)?;
        let l: u32 = embedding.parameters["levels"]
            .parse()
            .expect("written by the builder");
        let (w, h) = extent(size, l);
        let closed = if l % 2 == 1 {
            size * (l as u64 + 1) / 2
        } else {
            size * (l as u64 / 2 + 1)
        };
        let mut forms = ClosedForms::square(h, closed, Some(longest_wire(size, l)));
        forms.width = w;
        Ok(Laid { embedding, forms })
    }

    fn network(&self) -> Result<Network, LayoutError> {
        let n = self.root_side;
        let l = self.levels.unwrap_or(2 * n.trailing_zeros());
        if !n.is_power_of_two() || l > 2 * n.trailing_zeros() {
            return Err(SpecError::Bad("tree-of-meshes").into());
        }
        Ok(Network::tree_of_meshes(n, l))
    }

    fn figures(&self, m: &Measured) -> Vec<String> {
        vec![m.recurrence_line(
            "S(m, r) = 2 S(m/2, r-2) + m (height); closed form n (l/2 + 1), n (l+1)/2 for odd l",
        )]
    }
}

impl Network {
    /// The tree of meshes `T(2, n)` truncated to `l` levels, by its folded
    /// definition (docs/layout.md): node `(i, X, Y)` is `i n^2 + Y n + X`,
    /// at level `l - i`; the level-`l` nodes are the processors.
    pub fn tree_of_meshes(n: u64, l: u32) -> Network {
        let n = n as i64;
        let id = |i: u32, x: i64, y: i64| NodeId((i as i64 * n * n + y * n + x) as u32);
        let mut net = Network::with_nodes("tree-of-meshes", (n * n) as usize * (l as usize + 1));
        for i in 0..=l {
            let w = n >> i.div_ceil(2);
            let h = n >> (i / 2);
            for y in 0..n {
                for x in 0..n {
                    net.set_node(
                        id(i, x, y),
                        NodeData {
                            role: if i == l {
                                Role::Processor
                            } else {
                                Role::Switch
                            },
                            level: l - i,
                        },
                    );
                    if x % w + 1 < w {
                        net.add_link(id(i, x, y), id(i, x + 1, y));
                    }
                    if y % h + 1 < h {
                        net.add_link(id(i, x, y), id(i, x, y + 1));
                    }
                    if i < l {
                        let face = if i % 2 == 0 {
                            x % w == 0 || x % w == w - 1
                        } else {
                            y % h == 0 || y % h == h - 1
                        };
                        if face {
                            net.add_link(id(i, x, y), id(i + 1, x, y));
                        }
                    }
                }
            }
        }
        net
    }
}

/// The intended network of a `tree-of-meshes` layout file.
pub(crate) fn intended(p: &FileParameters) -> Result<Network, ParameterError> {
    let n = p.num("root_side")?;
    let l = p.small("levels")?;
    if !n.is_power_of_two() || l > 2 * n.trailing_zeros() {
        return Err(ParameterError::Bad("tree-of-meshes"));
    }
    p.fits_nodes(n.checked_pow(2).and_then(|m| m.checked_mul(l as u64 + 1)))?;
    Ok(Network::tree_of_meshes(n, l))
}

#[cfg(test)]
mod tests {
    use super::super::check::check;
    use super::super::metrics::measure;
    use super::*;

    #[test]
    fn spec_examples_of_side_and_longest_wire() {
        for (n, l, s, w) in [
            (2, 2, 4, 1),
            (4, 2, 8, 1),
            (4, 4, 12, 2),
            (8, 2, 16, 1),
            (8, 4, 24, 3),
            (8, 6, 32, 5),
        ] {
            let e = tree_of_meshes(n, Some(l)).unwrap();
            let c = check(&e);
            assert!(c.is_legal(), "n {n} l {l}: {:?}", c.violations);
            let m = measure(&e);
            assert_eq!((m.width, m.height), (s, s), "n {n} l {l}");
            assert_eq!(m.max_wire_length, w, "n {n} l {l}");
            assert_eq!(side(n, l), s);
            assert_eq!(s, n * (l as u64 / 2 + 1));
        }
    }

    #[test]
    fn node_and_edge_counts() {
        // Level i has n^2 nodes; a block of w x h nodes has w(h-1) + h(w-1)
        // mesh edges, and its two faces send 2h (x-cut) or 2w (y-cut) tree
        // edges down (faces are at least two apart above the leaves).
        let (n, l) = (8u64, 6u32);
        let e = tree_of_meshes(n, Some(l)).unwrap();
        assert_eq!(e.nodes.len() as u64, (l as u64 + 1) * n * n);
        let mut want = 0u64;
        for i in 0..=l {
            let w = n >> i.div_ceil(2);
            let h = n >> (i / 2);
            let blocks = (n / w) * (n / h);
            want += blocks * (w * (h - 1) + h * (w - 1));
            if i < l {
                want += blocks * if i % 2 == 0 { 2 * h } else { 2 * w };
            }
        }
        assert_eq!(e.edges.len() as u64, want);
    }

    #[test]
    fn odd_truncations_are_bands_at_the_bottom() {
        for (n, l) in [
            (2u64, 1u32),
            (4, 1),
            (4, 3),
            (8, 3),
            (8, 5),
            (16, 5),
            (16, 7),
            (32, 9),
        ] {
            let e = tree_of_meshes(n, Some(l)).unwrap();
            let c = check(&e);
            assert!(c.is_legal(), "n {n} l {l}: {:?}", c.violations);
            let m = measure(&e);
            // W = n (l + 3) / 2, H = n (l + 1) / 2.
            assert_eq!((m.width, m.height), extent(n, l));
            assert_eq!(
                extent(n, l),
                (n * (l as u64 + 3) / 2, n * (l as u64 + 1) / 2)
            );
            let longest = if l == 1 {
                1
            } else {
                n * (l as u64 - 1) / 8 + 1
            };
            assert_eq!(m.max_wire_length, longest, "n {n} l {l}");
        }
    }

    #[test]
    fn refuses_bad_sizes() {
        assert!(tree_of_meshes(6, None).is_err());
        assert!(tree_of_meshes(8, Some(8)).is_err());
    }
}
