//! Fold-and-squash layouts of trees of meshes (thesis chapter 5).
//!
//! The tree of meshes `T(D, n)` truncated to `l` levels, folded: level
//! `i = 0 ..= l` cuts the `n^D` grid into blocks, the cut at level `i` being
//! across dimension `i mod D`; every level has a node at every position;
//! mesh edges join neighbours inside a block; a tree edge joins `(i, p)` to
//! `(i + 1, p)` where `p` lies on one of the two faces of its level-`i`
//! block across the cut, and runs towards that face's side.
//!
//! *Fold*: all levels sit on the one `n^D` grid of positions. *Squash*:
//! each position becomes a cubie holding one point per level, at offsets
//! that are rookwise independent (any two levels differ in at least two
//! coordinates), so the wires of different levels never share a line.
//!
//! - 2-D (section 2.5): cubies of side `m = l + 1`, level `t` at offset
//!   `(t, t)`; lines at odd coordinates `2 (X m + t) + 1`, auxiliary lines at
//!   the even ones. Mesh edges are straight (length `2m`); a tree edge leaves
//!   its point one step towards its face, runs two steps in the other
//!   dimension to the next level's line, and three steps back (length 6).
//!   Side `2 n m`.
//! - 3-D (section 2.6; Lemma 22's cubies, routed legally under docs/formats.md):
//!   `q` is the least side with a walk of `l + 1` cells through `Z_q^2`;
//!   level `t` sits at `p(i, j) = (i, (i + j) mod q, j)` of the walk's
//!   `t`-th cell, consecutive cells keeping the coordinate `t mod 3` (the
//!   cut dimension). Pitch 4: a node is the `2 x 2 x 2` box at offsets
//!   `4p + 1 ..= 4p + 2` of its cubie, auxiliary planes at `4p` and
//!   `4p + 3`. Mesh edges along axis `k` run at sub-offsets 1 on axis
//!   `k + 1` and 2 on `k + 2` (length `4q - 1`), so lines of different axes
//!   never meet; a tree edge steps out of its box towards its face, runs
//!   along the other two axes in the auxiliary plane at sub-offsets no mesh
//!   line or other leg's turn uses, and steps into the next level's box
//!   (length at most `8q - 4`). Side at most `4 n q`: volume
//!   `O(n^3 l^(3/2))`, longest wire `O(sqrt l)`. A pitch-3 routing
//!   would have knock-knees and three-path points, which docs/formats.md forbids.

use std::collections::BTreeMap;

use super::construction::{
    Bound, ClosedForms, Construction, Laid, LayoutError, LayoutOptions, Measured,
};
use super::parameters::{FileParameters, ParameterError};
use super::{Edge, Embedding, NetworkName, Node, SpecError, P3};
use crate::network::{Network, NodeData, NodeId, Role};

/// Block size along dimension `k` at level `i` of `T(D, n)`.
pub fn block_size(n: u64, dims: u32, i: u32, k: u32) -> u64 {
    n >> ((i + dims - 1 - k) / dims)
}

/// Which face of its level-`i` block position `c` lies on, across the cut:
/// `Some(-1)` low side, `Some(1)` high side, `None` inside.
fn face(n: u64, dims: u32, i: u32, c: &[u64]) -> Option<i64> {
    let d = (i % dims) as usize;
    let s = block_size(n, dims, i, d as u32);
    if c[d] % s == 0 {
        Some(-1)
    } else if c[d] % s == s - 1 {
        Some(1)
    } else {
        None
    }
}

/// Node id of level `i` at position `c`: `i n^D + ... + c[1] n + c[0]`.
pub fn node_id(n: u64, dims: u32, i: u32, c: &[u64]) -> u32 {
    let mut id = i as u64;
    for k in (0..dims as usize).rev() {
        id = id * n + c[k];
    }
    id as u32
}

fn check_params(n: u64, dims: u32, l: u32) -> Result<(), SpecError> {
    if n < 2 || !n.is_power_of_two() {
        return Err(SpecError::FoldedRootSide(n));
    }
    let full = dims * n.trailing_zeros();
    if l > full {
        return Err(SpecError::TooManyLevels {
            dims,
            full,
            levels: l,
        });
    }
    let count = n.pow(dims) * (l as u64 + 1);
    if count > 1 << 24 {
        return Err(SpecError::TooManyNodes {
            count,
            limit_lg: 24,
        });
    }
    Ok(())
}

/// Every position of the `n^dims` grid, first coordinate fastest.
fn positions(n: u64, dims: u32) -> impl Iterator<Item = Vec<u64>> {
    (0..n.pow(dims)).map(move |mut k| {
        (0..dims)
            .map(|_| {
                let c = k % n;
                k /= n;
                c
            })
            .collect()
    })
}

/// The edges of `T(dims, n)` truncated to `l` levels: `(level, position,
/// kind)` where kind is `Mesh(k)` to the next position along dimension `k`
/// or `Tree(sign)` to the next level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Link {
    Mesh(usize),
    Tree(i64),
}

fn links(n: u64, dims: u32, l: u32) -> Vec<(u32, Vec<u64>, Link)> {
    let mut out = Vec::new();
    for i in 0..=l {
        for c in positions(n, dims) {
            for k in 0..dims as usize {
                let s = block_size(n, dims, i, k as u32);
                if (c[k] + 1) % s != 0 {
                    out.push((i, c.clone(), Link::Mesh(k)));
                }
            }
            if i < l {
                if let Some(sign) = face(n, dims, i, &c) {
                    out.push((i, c.clone(), Link::Tree(sign)));
                }
            }
        }
    }
    out
}

fn embedding(
    n: u64,
    dims: u32,
    l: u32,
    place: impl Fn(u32, &[u64]) -> P3,
    route: impl Fn(u32, &[u64], Link) -> Vec<P3>,
    layout: &str,
) -> Embedding {
    let mut nodes = Vec::new();
    for i in 0..=l {
        for c in positions(n, dims) {
            let p = place(i, &c);
            nodes.push(Node {
                id: node_id(n, dims, i, &c),
                kind: if i == l { "processor" } else { "switch" }.into(),
                level: l - i,
                min: p,
                max: p,
            });
        }
    }
    let mut edges = Vec::new();
    for (i, c, link) in links(n, dims, l) {
        let (to_level, to) = match link {
            Link::Mesh(k) => {
                let mut d = c.clone();
                d[k] += 1;
                (i, d)
            }
            Link::Tree(_) => (i + 1, c.clone()),
        };
        edges.push(Edge {
            id: edges.len() as u32,
            from: node_id(n, dims, i, &c),
            to: node_id(n, dims, to_level, &to),
            path: route(i, &c, link),
        });
    }
    let mut parameters = BTreeMap::new();
    parameters.insert("root_side".to_string(), n.to_string());
    parameters.insert("levels".to_string(), l.to_string());
    parameters.insert("layout".to_string(), layout.to_string());
    Embedding {
        network: if dims == 2 {
            NetworkName::TreeOfMeshes
        } else {
            NetworkName::TreeOfMeshes3d
        },
        parameters,
        dimensions: dims,
        nodes,
        edges,
    }
}

/// The 2-D fold-and-squash layout of `T(2, n)` truncated to `l` levels
/// (section 2.5): side `2 n (l + 1)`, every tree edge of length 6, mesh
/// edges `2 (l + 1)`.
pub fn fold_and_squash_2d(n: u64, l: u32) -> Result<Embedding, SpecError> {
    check_params(n, 2, l)?;
    let m = l as i64 + 1;
    let line = |c: u64, t: u32| 2 * (c as i64 * m + t as i64) + 1;
    let place = |t: u32, c: &[u64]| P3::xy(line(c[0], t), line(c[1], t));
    let route = |t: u32, c: &[u64], link: Link| -> Vec<P3> {
        let p = place(t, c);
        match link {
            Link::Mesh(k) => {
                let mut d = c.to_vec();
                d[k] += 1;
                vec![p, place(t, &d)]
            }
            Link::Tree(sign) => {
                let q = place(t + 1, c);
                // Auxiliary line one step beyond the point on the face's side:
                // 2(Xm + t) below, 2(Xm + t + 2) above.
                let step = if sign < 0 { -1 } else { 3 };
                if t % 2 == 0 {
                    let aux = p.x + step;
                    super::corners(vec![p, P3::xy(aux, p.y), P3::xy(aux, q.y), q])
                } else {
                    let aux = p.y + step;
                    super::corners(vec![p, P3::xy(p.x, aux), P3::xy(q.x, aux), q])
                }
            }
        }
    };
    Ok(embedding(n, 2, l, place, route, "fold-and-squash"))
}

/// Width and height of the 2-D layout: `2 n m` square for even `l >= 2`;
/// for odd `l` the last cut is across x, so the east auxiliary column of
/// the last level sticks out one step and the top row is not used
/// (`2nm + 1` by `2nm - 1`); `l = 0` is a bare mesh of side `2n - 1`.
pub fn extent_2d(n: u64, l: u32) -> (u64, u64) {
    let m = l as u64 + 1;
    match l {
        0 => (2 * n - 1, 2 * n - 1),
        _ if l % 2 == 1 => (2 * n * m + 1, 2 * n * m - 1),
        _ => (2 * n * m, 2 * n * m),
    }
}

/// Longest wire of the 2-D layout: mesh edges `2 (l + 1)`, tree edges 6.
pub fn max_wire_2d(l: u32) -> u64 {
    if l == 0 {
        2
    } else {
        (2 * (l as u64 + 1)).max(6)
    }
}

/// A walk of `len` cells through `Z_q^2` whose step `t -> t + 1` keeps the
/// coordinate `t mod 3` of `p(i, j) = (i, (i + j) mod q, j)` (x keeps `i`,
/// y keeps `i + j`, z keeps `j`); `None` if there is none. Depth-first from
/// `(0, 0)`, trying first the cells with the fewest onward moves.
pub fn walk(q: u32, len: usize) -> Option<Vec<(u32, u32)>> {
    if len == 0 || len > (q * q) as usize {
        return None;
    }
    let moves = |t: usize, (i, j): (u32, u32)| -> Vec<(u32, u32)> {
        (0..q)
            .flat_map(|a| (0..q).map(move |b| (a, b)))
            .filter(|&(a, b)| {
                (a, b) != (i, j)
                    && match t % 3 {
                        0 => a == i,
                        1 => (a + b) % q == (i + j) % q,
                        _ => b == j,
                    }
            })
            .collect()
    };
    let mut path = vec![(0u32, 0u32)];
    let mut used = vec![false; (q * q) as usize];
    used[0] = true;
    let mut budget: u64 = 2_000_000;
    fn dfs(
        path: &mut Vec<(u32, u32)>,
        used: &mut Vec<bool>,
        len: usize,
        q: u32,
        budget: &mut u64,
        moves: &dyn Fn(usize, (u32, u32)) -> Vec<(u32, u32)>,
    ) -> bool {
        if path.len() == len {
            return true;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let t = path.len() - 1;
        let here = *path.last().expect("non-empty");
        let mut next: Vec<(usize, (u32, u32))> = moves(t, here)
            .into_iter()
            .filter(|&(a, b)| !used[(a * q + b) as usize])
            .map(|c| {
                let onward = moves(t + 1, c)
                    .into_iter()
                    .filter(|&(a, b)| !used[(a * q + b) as usize])
                    .count();
                (onward, c)
            })
            .collect();
        next.sort_unstable();
        for (_, c) in next {
            used[(c.0 * q + c.1) as usize] = true;
            path.push(c);
            if dfs(path, used, len, q, budget, moves) {
                return true;
            }
            path.pop();
            used[(c.0 * q + c.1) as usize] = false;
        }
        false
    }
    if dfs(&mut path, &mut used, len, q, &mut budget, &moves) {
        Some(path)
    } else {
        None
    }
}

/// The cubie side `q(l)` of the 3-D layout and its walk of `l + 1` cells.
pub fn cubie(l: u32) -> (u32, Vec<(u32, u32)>) {
    let mut q = 2;
    loop {
        if let Some(w) = walk(q, l as usize + 1) {
            return (q, w);
        }
        q += 1;
    }
}

/// The 3-D fold-and-squash layout of `T(3, n)` truncated to `l` levels:
/// side `4 n q(l)` (module documentation; pitch 4, as a pitch-3
/// routing meets docs/formats.md's rules only with knock-knees and three
/// paths through one point).
pub fn fold_and_squash_3d(n: u64, l: u32) -> Result<Embedding, SpecError> {
    check_params(n, 3, l)?;
    let (q, cells) = cubie(l);
    let q = q as i64;
    let offset = |t: u32| -> [i64; 3] {
        let (i, j) = cells[t as usize];
        let (i, j) = (i as i64, j as i64);
        [i, (i + j) % q, j]
    };
    // First coordinate of the level-t box of position c along each axis.
    let base = |c: &[u64], t: u32| -> [i64; 3] {
        let p = offset(t);
        [0, 1, 2].map(|k| 4 * (c[k] as i64 * q + p[k]))
    };
    let at = |a: [i64; 3]| P3::new(a[0], a[1], a[2]);
    let place_box = |t: u32, c: &[u64]| -> (P3, P3) {
        let b = base(c, t);
        (at(b.map(|v| v + 1)), at(b.map(|v| v + 2)))
    };
    let route = |t: u32, c: &[u64], link: Link| -> Vec<P3> {
        match link {
            Link::Mesh(k) => {
                // Along axis k at sub-offsets 1 on axis k+1 and 2 on k+2:
                // lines of different axes never meet.
                let mut d = c.to_vec();
                d[k] += 1;
                let (from, to) = (base(c, t), base(&d, t));
                let mut a = from;
                a[k] += 2;
                a[(k + 1) % 3] += 1;
                a[(k + 2) % 3] += 2;
                let mut b = to;
                b[k] += 1;
                b[(k + 1) % 3] += 1;
                b[(k + 2) % 3] += 2;
                vec![at(a), at(b)]
            }
            Link::Tree(sign) => {
                let (pb, qb) = (base(c, t), base(c, t + 1));
                let d = (t % 3) as usize;
                debug_assert_eq!(pb[d], qb[d], "the walk keeps the cut coordinate");
                let (e1, e2) = ((d + 1) % 3, (d + 2) % 3);
                // Leave P's box towards the face at sub-offsets (1, 1),
                // cross the auxiliary plane along e1 at sub-offset 1 of e2,
                // then along e2 at sub-offset 2 of e1, enter Q's box at
                // (2, 2): no turn lies on a mesh line or on another tree
                // edge's leg (docs/layout.md).
                let mut p0 = pb;
                p0[d] += if sign < 0 { 1 } else { 2 };
                p0[e1] += 1;
                p0[e2] += 1;
                let mut a = p0;
                a[d] += sign;
                let mut m1 = a;
                m1[e1] = qb[e1] + 2;
                let mut m2 = m1;
                m2[e2] = qb[e2] + 2;
                let mut q0 = m2;
                q0[d] -= sign;
                super::corners(vec![at(p0), at(a), at(m1), at(m2), at(q0)])
            }
        }
    };
    let mut e = embedding(n, 3, l, |t, c| place_box(t, c).0, route, "fold-and-squash");
    for node in &mut e.nodes {
        node.max = P3::new(node.min.x + 1, node.min.y + 1, node.min.z + 1);
    }
    Ok(e)
}

/// Parameters of a tree of meshes folded and squashed in 2-D.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Folded2dSpec {
    /// The root mesh's side `n`, a power of 2.
    pub root_side: u64,
    /// Levels below the root.
    pub levels: u32,
}

impl Folded2dSpec {
    /// The spec `fabric layout folded-tree-of-meshes --size n` asks for
    /// (`--levels` defaults to the full tree, `2 lg n`).
    pub fn from_options(n: u64, o: &LayoutOptions) -> Folded2dSpec {
        Folded2dSpec {
            root_side: n,
            levels: o.levels.unwrap_or(2 * n.trailing_zeros()),
        }
    }
}

impl Construction for Folded2dSpec {
    fn build(&self) -> Result<Laid, LayoutError> {
        let (n, l) = (self.root_side, self.levels);
        let embedding = fold_and_squash_2d(n, l)?;
        let (w, h) = extent_2d(n, l);
        let mut forms = ClosedForms::square(h, h, Some(max_wire_2d(l)));
        forms.width = w;
        Ok(Laid { embedding, forms })
    }

    fn network(&self) -> Result<Network, LayoutError> {
        check_params(self.root_side, 2, self.levels)?;
        Ok(Network::tree_of_meshes(self.root_side, self.levels))
    }

    fn figures(&self, m: &Measured) -> Vec<String> {
        let l = self.levels;
        let n = self.root_side as f64;
        let metrics = m.metrics;
        vec![
            m.recurrence_line("2 n (l + 1) (height; odd l: (2nm + 1) x (2nm - 1)); closed form"),
            format!(
                "  area / (n^2 (l+1)^2) = {:.3} (4 for even l); longest wire {} = max(2 (l + 1), 6), independent of n",
                metrics.area as f64 / (n * n * ((l + 1) as f64).powi(2)),
                metrics.max_wire_length
            ),
        ]
    }
}

/// Parameters of a tree of meshes folded and squashed in 3-D.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Folded3dSpec {
    /// The root mesh's side `n`, a power of 2.
    pub root_side: u64,
    /// Levels below the root.
    pub levels: u32,
}

impl Folded3dSpec {
    /// The spec `fabric layout tree-of-meshes-3d --size n` asks for
    /// (`--levels` defaults to the full tree, `3 lg n`).
    pub fn from_options(n: u64, o: &LayoutOptions) -> Folded3dSpec {
        Folded3dSpec {
            root_side: n,
            levels: o.levels.unwrap_or(3 * n.trailing_zeros()),
        }
    }
}

impl Construction for Folded3dSpec {
    fn build(&self) -> Result<Laid, LayoutError> {
        let (n, l) = (self.root_side, self.levels);
        let embedding = fold_and_squash_3d(n, l)?;
        let q = cubie(l).0 as u64;
        // Bounds, not exact: the extreme auxiliary planes may go unused.
        let side = 4 * n * q;
        let mut forms = ClosedForms::square(side, side, None);
        forms.bound = Bound::Cube { wire: 8 * q - 4 };
        Ok(Laid { embedding, forms })
    }

    fn network(&self) -> Result<Network, LayoutError> {
        check_params(self.root_side, 3, self.levels)?;
        Ok(Network::tree_of_meshes_3d(self.root_side, self.levels))
    }

    fn figures(&self, m: &Measured) -> Vec<String> {
        let l = self.levels;
        let q = cubie(l).0;
        let n = self.root_side as f64;
        let metrics = m.metrics;
        vec![
            format!(
                "  side at most 4 n q = {} (cubie side q = {q}); verified legal ({} crossings), realises its network; {:.3} ms",
                m.laid.forms.side,
                m.crossings,
                m.seconds * 1e3
            ),
            format!(
                "  volume / (n^3 l^(3/2)) = {:.3}; longest wire / l^(1/2) = {:.3} (at most 8q - 4 = {})",
                metrics.area as f64 / (n * n * n * (l.max(1) as f64).powf(1.5)),
                metrics.max_wire_length as f64 / (l.max(1) as f64).sqrt(),
                8 * q - 4
            ),
        ]
    }
}

impl Network {
    /// The tree of meshes `T(3, n)` truncated to `l` levels, by the folded
    /// definition of [`crate::layout::folded`]: node `(i, X, Y, Z)` is
    /// `i n^3 + Z n^2 + Y n + X`, at level `l - i`; the level-`l` nodes are
    /// the processors.
    pub fn tree_of_meshes_3d(n: u64, l: u32) -> Network {
        let mut net =
            Network::with_nodes("tree-of-meshes-3d", (n * n * n) as usize * (l as usize + 1));
        for i in 0..=l {
            for z in 0..n {
                for y in 0..n {
                    for x in 0..n {
                        let c = [x, y, z];
                        let me = NodeId(node_id(n, 3, i, &c));
                        net.set_node(
                            me,
                            NodeData {
                                role: if i == l {
                                    Role::Processor
                                } else {
                                    Role::Switch
                                },
                                level: l - i,
                            },
                        );
                        for k in 0..3 {
                            let s = block_size(n, 3, i, k as u32);
                            if (c[k] + 1) % s != 0 {
                                let mut d = c;
                                d[k] += 1;
                                net.add_link(me, NodeId(node_id(n, 3, i, &d)));
                            }
                        }
                        if i < l {
                            let d = (i % 3) as usize;
                            let s = block_size(n, 3, i, d as u32);
                            if c[d] % s == 0 || c[d] % s == s - 1 {
                                net.add_link(me, NodeId(node_id(n, 3, i + 1, &c)));
                            }
                        }
                    }
                }
            }
        }
        net
    }
}

/// The intended network of a `tree-of-meshes-3d` layout file.
pub(crate) fn intended_3d(p: &FileParameters) -> Result<Network, ParameterError> {
    let n = p.num("root_side")?;
    let l = p.small("levels")?;
    if n < 2 || !n.is_power_of_two() || l > 3 * n.trailing_zeros() {
        return Err(ParameterError::Bad("tree-of-meshes-3d"));
    }
    p.fits_nodes(n.checked_pow(3).and_then(|m| m.checked_mul(l as u64 + 1)))?;
    Ok(Network::tree_of_meshes_3d(n, l))
}

#[cfg(test)]
mod tests;
