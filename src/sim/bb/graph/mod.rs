//! The pruned butterfly (PB) as a graph (paper §3, Figs. 1
//! and 2): vertices `<i, j, k>` at levels `0 ..= n` (root 0, leaves `n`),
//! node `(i, j)` the `size(i)` vertices `<i, j, k>`, and the up-edges of
//! each node into its parent node:
//!
//! - even `i >= 2`: `<i,j,k>` to `<i-1, j/2, k>` and `<i-1, j/2, k + size(i)>`;
//! - odd `i`: `<i,j,k>` to `<i-1, j/2, k>`.
//!
//! Read downwards the same edges are the down-edges
//! `<i,j,k>` to `<i+1, 2j+c, k mod size(i+1)>`, `c = 0, 1`: every vertex
//! above the leaves has exactly one into each child node. Counts:
//! `4N - 3 sqrt(N)` vertices, `6N - 6 sqrt(N)` edges. Between a leaf `l`
//! and a root vertex `r` there is exactly one up-path, whose level-`i`
//! vertex is `<i, l >> (n-i), r mod 2^ceil((n-i)/2)>` ([`PrunedButterfly::path`]).
//! The map `<i,j,k>` to level `i`, row `j 2^(n-i) + spread(k)` embeds the
//! PB in the butterfly of `N` rows ([`PrunedButterfly::butterfly_row`]).

use super::{Levels, Terminal};

/// A vertex `<i, j, k>`: level `i` (0 the root), node `j < 2^i` of the
/// level, index `k < size(i)` in the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Vertex {
    /// The level, `0 ..= n`.
    pub i: u32,
    /// The node of the level, `0 .. 2^i`.
    pub j: u32,
    /// The vertex of the node, `0 .. size(i)`.
    pub k: u32,
}

/// An edge of the PB, from a vertex to one in its parent node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PbEdge {
    /// The lower end, at level `i >= 1`.
    pub child: Vertex,
    /// The upper end, at level `i - 1`.
    pub parent: Vertex,
}

/// The vertices of one degree at one level: `count` vertices with `up`
/// edges to the level above and `down` edges to the level below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DegreeClass {
    /// The level.
    pub level: u32,
    /// Edges to level `level - 1`.
    pub up: u32,
    /// Edges to level `level + 1`.
    pub down: u32,
    /// How many vertices of the level have these degrees.
    pub count: u64,
}

/// The pruned butterfly of `N` leaves, `N` a power of 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrunedButterfly {
    /// Its levels and node sizes.
    pub levels: Levels,
}

impl PrunedButterfly {
    /// The PB of `terminals` leaves; `None` unless it is a power of 4 of
    /// at least 4 (and at most 2^30).
    pub fn new(terminals: u64) -> Option<PrunedButterfly> {
        Levels::new(terminals).map(|levels| PrunedButterfly { levels })
    }

    /// `n = lg N`.
    pub fn n(&self) -> u32 {
        self.levels.n
    }

    /// Vertices at level `i`: `2^i size(i)`.
    pub fn level_vertices(&self, i: u32) -> u64 {
        (1u64 << i) * self.levels.size(i) as u64
    }

    /// `|V|` by the closed form `4N - 3 sqrt(N)`.
    pub fn vertex_count(&self) -> u64 {
        4 * self.levels.terminals() as u64 - 3 * self.levels.root_side() as u64
    }

    /// `|E|` by the closed form `6N - 6 sqrt(N)`.
    pub fn edge_count(&self) -> u64 {
        6 * self.levels.terminals() as u64 - 6 * self.levels.root_side() as u64
    }

    /// The dense index of `v`: levels in order from the root, nodes in
    /// order within a level, vertices in order within a node. Leaves come
    /// last; [`PrunedButterfly::vertex`] inverts it.
    pub fn index(&self, v: Vertex) -> u64 {
        self.level_start(v.i) + v.j as u64 * self.levels.size(v.i) as u64 + v.k as u64
    }

    /// The index of the first vertex of level `i`.
    pub fn level_start(&self, i: u32) -> u64 {
        (0..i).map(|h| self.level_vertices(h)).sum()
    }

    /// The vertex of dense index `x < |V|`.
    pub fn vertex(&self, mut x: u64) -> Option<Vertex> {
        for i in 0..=self.n() {
            let here = self.level_vertices(i);
            if x < here {
                let size = self.levels.size(i) as u64;
                return Some(Vertex {
                    i,
                    j: (x / size) as u32,
                    k: (x % size) as u32,
                });
            }
            x -= here;
        }
        None
    }

    /// Every vertex, level by level (the order of [`PrunedButterfly::index`]).
    pub fn vertices(&self) -> impl Iterator<Item = Vertex> + '_ {
        (0..=self.n()).flat_map(move |i| {
            let size = self.levels.size(i);
            (0..1u32 << i).flat_map(move |j| (0..size).map(move |k| Vertex { i, j, k }))
        })
    }

    /// The up-edges of `v`: two at even levels `i >= 2` (the leaves
    /// included), one at odd levels, none at the root level.
    pub fn up(&self, v: Vertex) -> Vec<Vertex> {
        if v.i == 0 {
            return Vec::new();
        }
        let p = |k| Vertex {
            i: v.i - 1,
            j: v.j / 2,
            k,
        };
        if v.i % 2 == 0 {
            vec![p(v.k), p(v.k + self.levels.size(v.i))]
        } else {
            vec![p(v.k)]
        }
    }

    /// The down-edges of `v`: `<i+1, 2j+c, k mod size(i+1)>` for `c = 0, 1`;
    /// none at the leaves.
    pub fn down(&self, v: Vertex) -> Vec<Vertex> {
        if v.i == self.n() {
            return Vec::new();
        }
        let size = self.levels.size(v.i + 1);
        (0..2)
            .map(|c| Vertex {
                i: v.i + 1,
                j: 2 * v.j + c,
                k: v.k % size,
            })
            .collect()
    }

    /// Every edge, by its lower end in the order of [`PrunedButterfly::vertices`].
    pub fn edges(&self) -> Vec<PbEdge> {
        self.vertices()
            .flat_map(|child| {
                self.up(child)
                    .into_iter()
                    .map(move |parent| PbEdge { child, parent })
            })
            .collect()
    }

    /// The unique up-path from leaf `l` to root vertex `r` by the closed
    /// form: its level-`i` vertex is `<i, l >> (n-i), r mod 2^ceil((n-i)/2)>`,
    /// listed from the leaf (level `n`) to the root.
    pub fn path(&self, l: Terminal, r: u32) -> Vec<Vertex> {
        let n = self.n();
        (0..=n)
            .rev()
            .map(|i| Vertex {
                i,
                j: self.levels.ancestor(l, i),
                k: r % (1 << (n - i).div_ceil(2)),
            })
            .collect()
    }

    /// Every up-path from leaf `l` to root vertex `r`, found by a
    /// breadth-first search up the levels that counts the paths into each
    /// vertex: `(paths, one path)`, the path listed leaf first, or `None`
    /// when `r` is unreachable.
    pub fn search_paths(&self, l: Terminal, r: u32) -> (u64, Option<Vec<Vertex>>) {
        use std::collections::HashMap;
        let leaf = Vertex {
            i: self.n(),
            j: l,
            k: 0,
        };
        // Per level: vertex -> (paths from the leaf, a predecessor).
        let mut layer: HashMap<Vertex, (u64, Option<Vertex>)> = HashMap::new();
        layer.insert(leaf, (1, None));
        let mut back: Vec<HashMap<Vertex, (u64, Option<Vertex>)>> = Vec::new();
        for _ in 0..self.n() {
            let mut next: HashMap<Vertex, (u64, Option<Vertex>)> = HashMap::new();
            for (&v, &(count, _)) in &layer {
                for p in self.up(v) {
                    let e = next.entry(p).or_insert((0, Some(v)));
                    e.0 += count;
                }
            }
            back.push(std::mem::replace(&mut layer, next));
        }
        let root = Vertex { i: 0, j: 0, k: r };
        let Some(&(count, mut pred)) = layer.get(&root) else {
            return (0, None);
        };
        let mut path = vec![root];
        while let Some(v) = pred {
            path.push(v);
            pred = back.pop().and_then(|m| m.get(&v).and_then(|e| e.1));
        }
        path.reverse();
        (count, Some(path))
    }

    /// The butterfly row of `v` (Fig. 2): `j 2^(n-i) + spread(k)`, where
    /// [`spread`] puts bit `p` of `k` at bit `2p`. The level is `i`.
    pub fn butterfly_row(&self, v: Vertex) -> u64 {
        ((v.j as u64) << (self.n() - v.i)) + spread(v.k)
    }

    /// The degree classes, level by level, counted from [`PrunedButterfly::edges`].
    pub fn degree_profile(&self) -> Vec<DegreeClass> {
        let mut up = vec![0u32; self.vertex_count() as usize];
        let mut down = vec![0u32; up.len()];
        for e in self.edges() {
            up[self.index(e.child) as usize] += 1;
            down[self.index(e.parent) as usize] += 1;
        }
        let mut out: Vec<DegreeClass> = Vec::new();
        for v in self.vertices() {
            let x = self.index(v) as usize;
            let (u, d) = (up[x], down[x]);
            match out
                .iter_mut()
                .find(|c| c.level == v.i && c.up == u && c.down == d)
            {
                Some(c) => c.count += 1,
                None => out.push(DegreeClass {
                    level: v.i,
                    up: u,
                    down: d,
                    count: 1,
                }),
            }
        }
        out
    }
}

/// Bit `p` of `k` moved to bit `2p`.
pub fn spread(k: u32) -> u64 {
    (0..32)
        .filter(|p| k >> p & 1 == 1)
        .map(|p| 1u64 << (2 * p))
        .sum()
}

#[cfg(test)]
mod tests;
