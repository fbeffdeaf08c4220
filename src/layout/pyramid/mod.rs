//! The fat-pyramid (thesis section 4.3):
//! a butterfly fat-tree over H-tree blocks, laid out regularly, with a mesh
//! superposed on the switches of every level.
//!
//! **Network.** `n = 4^(K + beta)` processors in `B = 4^K` blocks of
//! `b = 4^beta` (`beta = floor(lg lg n)`, so a block's side is about
//! `lg n`). Each block is an H-tree (the fat-tree of capacity 1). Above the
//! blocks a butterfly fat-tree: a level-`h` node covers `4^h` blocks and
//! holds `2^(h-1)` switches, each with 4 children and 2 parents
//! ([`crate::layout::butterfly::parents`]); a block's root is a leaf of it.
//! At every level `1 <= h < K` the nodes form a `2^(K-h)` square grid
//! (Z-order) and switch `i` of a node is joined to switch `i` of its east
//! and north neighbours.
//!
//! **Layout.** One tile per block on a `2^K x 2^K` grid (Z-order). A tile
//! is a core (the block's H-tree, and the tile's switch box if it has one)
//! with a band of vertical tracks on its right and a band of horizontal
//! tracks above. Switches sit by a "ruler": the `2^(h-1)` switches
//! of a level-`h` node whose region starts at tile `(x0, y0)` go in tile
//! row `y0 + 2^(h-1) - 1` (rows whose binary form ends in `0` then `h - 1`
//! ones), columns `x0 + 2i + [h > 1]`: at most one switch per tile, and a
//! level's switches spread evenly.
//!
//! A switch is a `1 x sigma` box at the core's right edge, `sigma` the most
//! links any switch has: `6 + 4 kappa` from `K = 3` (a level-1 node with
//! four mesh neighbours), `6 + 2 kappa` at `K = 2` and 4 at `K = 1` (the top
//! switch's children only). Each of its links leaves on its own row. A
//! block's root leaves upwards through the H-tree's free centre column,
//! above the switch box, then right. Every link runs: its stub right into
//! its tile column's vertical band, up or down a vertical track to the horizontal band of the target's tile row,
//! along a horizontal track to the target's tile column, down or up a
//! vertical track to the target's stub row, and left into the target. Tracks
//! are assigned per band by interval colouring (closed intervals, so no two
//! wires meet at a turn), on symbolic coordinates that do not depend on the
//! band widths; the band widths are then the colours used.

use super::fattree::heap_id;
use super::{Embedding, SpecError};

mod build;
mod figures;
mod network;
mod shortcut;

pub(crate) use network::intended;

pub use build::fat_pyramid;
pub use shortcut::{
    delta_delta, level_wires, survey, Children, DeltaDelta, PairPath, Router, Survey,
};

/// Parameters of a fat-pyramid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PyramidSpec {
    /// Processors, `4^(K + beta)`.
    pub processors: u64,
    /// Block levels: `b = 4^beta` processors per block.
    pub beta: u32,
    /// Parallel links between mesh neighbours (the thesis asks for a large
    /// enough constant; the construction's kappa is 6). Default 1.
    pub mesh_capacity: u32,
}

impl PyramidSpec {
    /// The default spec for `n` processors: `beta = floor(lg lg n)`, at most
    /// leaving one 4-ary level above the blocks.
    pub fn new(n: u64) -> Result<PyramidSpec, SpecError> {
        if n < 4 || !n.is_power_of_two() || n.trailing_zeros() % 2 != 0 {
            return Err(SpecError::NotPowerOfFour {
                processors: n,
                family: "the fat-pyramid",
            });
        }
        let m = n.trailing_zeros() / 2;
        let lg = 2 * m;
        let beta = (31 - lg.leading_zeros()).min(m - 1);
        Ok(PyramidSpec {
            processors: n,
            beta,
            mesh_capacity: 1,
        })
    }

    /// `K`: 4-ary levels above the blocks.
    pub fn k(&self) -> u32 {
        self.processors.trailing_zeros() / 2 - self.beta
    }

    /// `b = 4^beta`: processors per H-tree block.
    pub fn block(&self) -> u64 {
        1 << (2 * self.beta)
    }

    /// `B = 4^K`: number of blocks, one tile each.
    pub fn blocks(&self) -> u64 {
        1 << (2 * self.k())
    }
}

/// Node ids: processors `q b + j` (block `q`, leaf `j`); then each block's
/// H-tree switches; then the butterfly switches level by level.
#[derive(Clone, Copy, Debug)]
pub struct Ids {
    n: u64,
    b: u64,
    blocks: u64,
}

impl Ids {
    /// The numbering of the fat-pyramid of `spec`.
    pub fn new(spec: &PyramidSpec) -> Ids {
        Ids {
            n: spec.processors,
            b: spec.block(),
            blocks: spec.blocks(),
        }
    }

    /// Node of block `q` with heap index `heap` in its H-tree.
    pub fn block_node(&self, q: u64, heap: u64) -> u32 {
        let local = heap_id(heap, self.b) as u64;
        if local < self.b {
            (q * self.b + local) as u32
        } else {
            (self.n + q * (self.b - 1) + (local - self.b)) as u32
        }
    }

    /// The root of block `q` (the processor itself when `b = 1`).
    pub fn block_root(&self, q: u64) -> u32 {
        self.block_node(q, 1)
    }

    /// Butterfly switch `a` of level `h >= 1`.
    pub fn switch(&self, h: u32, a: u64) -> u32 {
        let below: u64 = (1..h).map(|i| self.blocks >> (i + 1)).sum();
        (self.n + self.blocks * (self.b - 1) + below + a) as u32
    }

    /// Number of nodes with butterfly levels `1 ..= k` (all of them for
    /// `k = K`): ids run `0 .. total(k)`.
    pub fn total(&self, k: u32) -> u64 {
        self.n + self.blocks * (self.b - 1) + (1..=k).map(|i| self.blocks >> (i + 1)).sum::<u64>()
    }
}

/// Z-order: the grid position of index `v` (x from the even bits).
pub fn z_position(v: u64) -> (u64, u64) {
    let (mut x, mut y) = (0, 0);
    for bit in 0..32 {
        x |= ((v >> (2 * bit)) & 1) << bit;
        y |= ((v >> (2 * bit + 1)) & 1) << bit;
    }
    (x, y)
}

/// Index of grid position `(x, y)` in Z-order.
pub fn z_index(x: u64, y: u64) -> u64 {
    let mut v = 0;
    for bit in 0..32 {
        v |= ((x >> bit) & 1) << (2 * bit);
        v |= ((y >> bit) & 1) << (2 * bit + 1);
    }
    v
}

/// The links above the blocks: `(from, to, level, mesh, band)`, with the
/// level of the upper end, whether it is a mesh link, and the tile row
/// whose horizontal band carries it (spread so that each row of a node's
/// region carries O(1) links per level: private rows).
pub fn upper_links(spec: &PyramidSpec) -> Vec<(u32, u32, u32, bool, u64)> {
    use super::butterfly::parents;
    let ids = Ids::new(spec);
    let k = spec.k();
    let mut out = Vec::new();
    for l in 0..k {
        let count = if l == 0 {
            spec.blocks()
        } else {
            spec.blocks() >> (l + 1)
        };
        for a in 0..count {
            let me = if l == 0 {
                ids.block_root(a)
            } else {
                ids.switch(l, a)
            };
            // The child's region: a block's tile, or the level-l node's
            // 2^l rows, shared by its 2^(l-1) switches x 2 parents.
            let band = |e: u64| -> u64 {
                if l == 0 {
                    z_position(a).1
                } else {
                    let per = 1u64 << (l - 1);
                    let (_, gy) = z_position(a / per);
                    (gy << l) + 2 * (a % per) + e
                }
            };
            for (e, p) in parents(l, a, k).into_iter().enumerate() {
                out.push((me, ids.switch(l + 1, p), l + 1, false, band(e as u64)));
            }
        }
    }
    for h in 1..k {
        let per = 1u64 << (h - 1);
        let side = 1u64 << (k - h);
        for node in 0..(spec.blocks() >> (2 * h)) {
            let (gx, gy) = z_position(node);
            for (nx, ny) in [(gx + 1, gy), (gx, gy + 1)] {
                if nx < side && ny < side {
                    let other = z_index(nx, ny);
                    for i in 0..per {
                        for _ in 0..spec.mesh_capacity {
                            out.push((
                                ids.switch(h, node * per + i),
                                ids.switch(h, other * per + i),
                                h,
                                true,
                                (gy << h) + i,
                            ));
                        }
                    }
                }
            }
        }
    }
    out
}

/// Tile of switch `a` of level `h` (the ruler placement).
pub fn switch_tile(h: u32, a: u64) -> (u64, u64) {
    let per = 1u64 << (h - 1);
    let (node, i) = (a / per, a % per);
    let (gx, gy) = z_position(node);
    let (x0, y0) = (gx << h, gy << h);
    (x0 + 2 * i + u64::from(h > 1), y0 + per - 1)
}

/// The fat-pyramid layout and its figures.
pub struct Pyramid {
    /// The layout, network `fat-pyramid`, node ids as [`Ids`].
    pub embedding: Embedding,
    /// The parameters it was built from.
    pub spec: PyramidSpec,
    /// Tile pitch `(x, y)`.
    pub pitch: (i64, i64),
    /// Vertical and horizontal tracks per band.
    pub tracks: (i64, i64),
}

#[cfg(test)]
mod tests;
