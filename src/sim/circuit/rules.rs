//! The routing algorithm of each network the circuit engine routes, and the
//! placement of a competing mesh's points on its processors.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::{CircuitError, PathRule};
use crate::layout::butterfly::parents;
use crate::layout::pyramid::{z_index, z_position, Children, Ids, PyramidSpec};
use crate::layout::Embedding;

/// A fat-tree or H-tree laid out by [`crate::layout::fattree`] (node ids as
/// its `heap_id`): up to the lowest common ancestor and down, the channel
/// between two nodes taking any of its wires.
pub struct FatTreeRule {
    /// Processors.
    pub n: u64,
}

impl FatTreeRule {
    fn node(&self, heap: u64) -> u32 {
        if heap >= self.n {
            (heap - self.n) as u32
        } else {
            (heap + self.n - 1) as u32
        }
    }
}

impl PathRule for FatTreeRule {
    fn name(&self) -> &'static str {
        "up to the lowest common ancestor and down"
    }

    fn path(&self, src: u32, dst: u32, _rng: &mut ChaCha8Rng, out: &mut Vec<u32>) {
        let (mut u, mut v) = (src as u64 + self.n, dst as u64 + self.n);
        let mut down = Vec::new();
        while u != v {
            out.push(self.node(u));
            down.push(self.node(v));
            u /= 2;
            v /= 2;
        }
        out.push(self.node(u));
        out.extend(down.into_iter().rev());
    }
}

/// The fat-pyramid of [`crate::layout::pyramid`] under Theorem 18's
/// shortcut rule: up the source's H-tree block, then up the butterfly, a
/// parent drawn at random at every level, until the switch's node is
/// horizontally, vertically or diagonally adjacent in its level's mesh to
/// (or is) the node above the destination; across by at most one mesh link
/// in x and one in y, keeping the switch index; then the unique way down.
pub struct PyramidRule {
    spec: PyramidSpec,
    ids: Ids,
    children: Children,
}

impl PyramidRule {
    /// The rule for the fat-pyramid of `spec`.
    pub fn new(spec: PyramidSpec) -> PyramidRule {
        PyramidRule {
            spec,
            ids: Ids::new(&spec),
            children: Children::new(spec),
        }
    }

    fn node_of(&self, h: u32, a: u64) -> u32 {
        if h == 0 {
            self.ids.block_root(a)
        } else {
            self.ids.switch(h, a)
        }
    }

    /// Processor node `p` as (block, leaf).
    fn locate(&self, p: u32) -> (u64, u64) {
        let b = self.spec.block();
        (p as u64 / b, p as u64 % b)
    }

    /// Down from switch `(h, a)` to block `q`'s root, the root included.
    fn down(&self, h: u32, a: u64, q: u64, out: &mut Vec<u32>) {
        let (mut h, mut a) = (h, a);
        while h > 0 {
            let c = self.children.toward(h, a, q);
            h -= 1;
            a = c;
            out.push(self.node_of(h, a));
        }
    }
}

impl PathRule for PyramidRule {
    fn name(&self) -> &'static str {
        "Theorem 18's shortcuts: up the tree to a switch adjacent to the destination's, across the level mesh, down"
    }

    fn path(&self, src: u32, dst: u32, rng: &mut ChaCha8Rng, out: &mut Vec<u32>) {
        let b = self.spec.block();
        let ((qs, ls), (qt, lt)) = (self.locate(src), self.locate(dst));
        let (mut u, mut v) = (b + ls, b + lt);
        if qs == qt {
            let mut down = Vec::new();
            while u != v {
                if u > v {
                    out.push(self.ids.block_node(qs, u));
                    u /= 2;
                } else {
                    down.push(self.ids.block_node(qs, v));
                    v /= 2;
                }
            }
            out.push(self.ids.block_node(qs, u));
            out.extend(down.into_iter().rev());
            return;
        }
        while u > 1 {
            out.push(self.ids.block_node(qs, u));
            u /= 2;
        }
        out.push(self.ids.block_root(qs));
        let k = self.spec.k();
        let mut a = qs;
        for h in 1..=k {
            let up = parents(h - 1, a, k);
            a = up[rng.gen_range(0..up.len())];
            out.push(self.ids.switch(h, a));
            let per = 1u64 << (h - 1);
            let (ns, nt) = (qs >> (2 * h), qt >> (2 * h));
            let ((sx, sy), (tx, ty)) = (z_position(ns), z_position(nt));
            if sx.abs_diff(tx) > 1 || sy.abs_diff(ty) > 1 {
                continue;
            }
            let i = a % per;
            if sx != tx {
                out.push(self.ids.switch(h, z_index(tx, sy) * per + i));
            }
            if sy != ty {
                out.push(self.ids.switch(h, nt * per + i));
            }
            self.down(h, nt * per + i, qt, out);
            break;
        }
        let mut down = Vec::new();
        while v > 1 {
            down.push(self.ids.block_node(qt, v));
            v /= 2;
        }
        out.extend(down.into_iter().rev());
    }
}

/// The tree of meshes `T(d, n)`, `d` = 2 or 3, truncated to `l` levels
/// ([`crate::layout::tree_of_meshes`] and [`crate::layout::folded`]; node
/// `(i, c)` is `i n^d + sum_k c_k n^k`, level `i` cut across dimension
/// `i mod d`): from each end, straight across its block's mesh to the face
/// its parent shares and up, level by level, to the lowest block holding
/// both ends; there across that block's mesh, dimension by dimension,
/// between the two points of arrival.
pub struct TreeOfMeshesRule {
    /// Side of the root mesh.
    pub n: u64,
    /// Levels.
    pub levels: u32,
    /// Dimensions, 2 or 3.
    pub dims: u32,
}

/// A point of a tree of meshes' level (unused coordinates 0).
type Point = [u64; 3];

impl TreeOfMeshesRule {
    fn id(&self, i: u32, c: &Point) -> u32 {
        crate::layout::folded::node_id(self.n, self.dims, i, &c[..self.dims as usize])
    }

    /// Side of a level-`i` block along dimension `k`.
    fn side(&self, i: u32, k: u32) -> u64 {
        crate::layout::folded::block_size(self.n, self.dims, i, k)
    }

    /// The lowest level whose block holds both points.
    fn meet(&self, a: &Point, b: &Point) -> u32 {
        (0..=self.levels)
            .rev()
            .find(|&i| {
                (0..self.dims)
                    .all(|k| a[k as usize] / self.side(i, k) == b[k as usize] / self.side(i, k))
            })
            .unwrap_or(0)
    }

    /// From processor `c` up to level `top`: the nodes, in order; the point
    /// of arrival.
    fn climb(&self, mut c: Point, top: u32, out: &mut Vec<u32>) -> Point {
        let mut i = self.levels;
        out.push(self.id(i, &c));
        while i > top {
            // Level i - 1's block is cut across dimension (i - 1) mod d into
            // level i's: walk to the parent's face on this side.
            let k = ((i - 1) % self.dims) as usize;
            let s = self.side(i - 1, k as u32);
            let base = c[k] - c[k] % s;
            let mut target = c;
            target[k] = if c[k] % s < s / 2 { base } else { base + s - 1 };
            self.walk(i, &c, &target, out);
            c = target;
            i -= 1;
            out.push(self.id(i, &c));
        }
        c
    }

    /// Across level `i`'s mesh from `a` to `b`, dimension by dimension
    /// (`a` excluded).
    fn walk(&self, i: u32, a: &Point, b: &Point, out: &mut Vec<u32>) {
        let mut c = *a;
        for k in 0..self.dims as usize {
            while c[k] != b[k] {
                c[k] = if c[k] < b[k] { c[k] + 1 } else { c[k] - 1 };
                out.push(self.id(i, &c));
            }
        }
    }

    fn point(&self, p: u32) -> Point {
        let mut local = p as u64 - self.levels as u64 * self.n.pow(self.dims);
        let mut c = [0; 3];
        for x in c.iter_mut().take(self.dims as usize) {
            *x = local % self.n;
            local /= self.n;
        }
        c
    }
}

impl PathRule for TreeOfMeshesRule {
    fn name(&self) -> &'static str {
        "up each end's blocks to the lowest common block, across its mesh dimension by dimension"
    }

    fn path(&self, src: u32, dst: u32, _rng: &mut ChaCha8Rng, out: &mut Vec<u32>) {
        let (a, b) = (self.point(src), self.point(dst));
        let top = self.meet(&a, &b);
        let from = self.climb(a, top, out);
        let mut back = Vec::new();
        let to = self.climb(b, top, &mut back);
        back.pop();
        self.walk(top, &from, &to, out);
        // `walk` ended on `to`, the last node of the climb from `b`.
        out.extend(back.into_iter().rev());
    }
}

/// A competing mesh of `side^dims` points placed on a network's
/// processors: the processor node of each point `c`, at index `sum_k c_k
/// side^k`.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshPoints {
    /// Side of the mesh.
    pub side: u64,
    /// Dimensions, 2 or 3.
    pub dims: u32,
    /// Processor node of each point.
    pub node: Vec<u32>,
}

impl MeshPoints {
    /// Points by the processors' places in the layout: the point `(x, y)`
    /// is the processor in the `x`-th column and `y`-th row the processors
    /// occupy, which must form a square grid.
    pub fn by_position(e: &Embedding) -> Result<MeshPoints, CircuitError> {
        let procs: Vec<(i64, i64, u32)> = e
            .nodes
            .iter()
            .filter(|v| v.kind == "processor")
            .map(|v| (v.min.x, v.min.y, v.id))
            .collect();
        let distinct = |f: fn(&(i64, i64, u32)) -> i64| {
            let mut v: Vec<i64> = procs.iter().map(f).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let (xs, ys) = (distinct(|p| p.0), distinct(|p| p.1));
        let side = xs.len() as u64;
        if ys.len() as u64 != side || side * side != procs.len() as u64 {
            return Err(CircuitError::Shape(format!(
                "the {} processors occupy {} columns and {} rows, not a square grid",
                procs.len(),
                xs.len(),
                ys.len()
            )));
        }
        let mut node = vec![u32::MAX; procs.len()];
        for &(x, y, id) in &procs {
            let i = xs.binary_search(&x).unwrap_or(0) as u64;
            let j = ys.binary_search(&y).unwrap_or(0) as u64;
            node[(j * side + i) as usize] = id;
        }
        if node.contains(&u32::MAX) {
            return Err(CircuitError::Shape(
                "two processors share a grid point".into(),
            ));
        }
        Ok(MeshPoints {
            side,
            dims: 2,
            node,
        })
    }

    /// The tree of meshes' processors by definition: node `(l, c)` is
    /// point `c`.
    pub fn tree_of_meshes(rule: &TreeOfMeshesRule) -> MeshPoints {
        let base = rule.levels as u64 * rule.n.pow(rule.dims);
        MeshPoints {
            side: rule.n,
            dims: rule.dims,
            node: (0..rule.n.pow(rule.dims))
                .map(|p| (base + p) as u32)
                .collect(),
        }
    }

    /// Number of points.
    pub fn len(&self) -> u64 {
        self.side.pow(self.dims)
    }

    /// Whether the mesh has no points.
    pub fn is_empty(&self) -> bool {
        self.side == 0
    }

    /// Coordinates of point `p`.
    pub fn coords(&self, p: u64) -> [u64; 3] {
        let mut c = [0; 3];
        let mut rest = p;
        for x in c.iter_mut().take(self.dims as usize) {
            *x = rest % self.side;
            rest /= self.side;
        }
        c
    }

    /// Index of the point at `c`.
    pub fn index(&self, c: &[u64; 3]) -> u64 {
        c[..self.dims as usize]
            .iter()
            .rev()
            .fold(0, |acc, &x| acc * self.side + x)
    }
}
