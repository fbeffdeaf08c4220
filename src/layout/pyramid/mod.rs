//! The fat-pyramid (thesis section 4.3; spec note 003 part 1, section 2.7):
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
//! tracks above. Switches sit by the note's "ruler": the `2^(h-1)` switches
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

use std::collections::BTreeMap;

use super::fattree::{heap_id, htree};
use super::{Edge, Embedding, Node, P3};

mod figures;
mod network;
mod shortcut;

pub(crate) use network::intended;

pub use shortcut::{delta_delta, level_wires, survey, DeltaDelta, PairPath, Router, Survey};

/// Terminal rows of a switch box: one for each link of the switch with the
/// most links. A switch below the top level has 4 children, 2 parents and
/// `kappa` links to each of its (up to 4) mesh neighbours, so at most
/// `6 + 4 kappa`; a top-level switch has its 4 children only, so a pyramid
/// with one butterfly level (`K = 1`: no parents, no mesh) has boxes of 4.
fn terminal_rows(links: &[(u32, u32, u32, bool, u64)], is_root: impl Fn(u32) -> bool) -> i64 {
    let mut count: BTreeMap<u32, i64> = BTreeMap::new();
    for &(a, c, _, _, _) in links {
        for id in [a, c] {
            if !is_root(id) {
                *count.entry(id).or_insert(0) += 1;
            }
        }
    }
    count.into_values().max().unwrap_or(1)
}

/// Parameters of a fat-pyramid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PyramidSpec {
    /// Processors, `4^(K + beta)`.
    pub processors: u64,
    /// Block levels: `b = 4^beta` processors per block.
    pub beta: u32,
    /// Parallel links between mesh neighbours (the thesis asks for a large
    /// enough constant; the spec note's kappa = 6). Default 1.
    pub mesh_capacity: u32,
}

impl PyramidSpec {
    /// The default spec for `n` processors: `beta = floor(lg lg n)`, at most
    /// leaving one 4-ary level above the blocks.
    pub fn new(n: u64) -> Result<PyramidSpec, String> {
        if n < 4 || !n.is_power_of_two() || n.trailing_zeros() % 2 != 0 {
            return Err(format!(
                "{n} processors: the fat-pyramid needs a power of 4, at least 4"
            ));
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
/// region carries O(1) links per level: the note's private rows).
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

/// A symbolic coordinate along one axis: `(tile, offset)`, with the core
/// at offsets `0 .. core` and the band above or right of it from `core`.
type Sym = (u64, i64);
const BAND_END: i64 = i64::MAX / 4;

/// Assign tracks to closed intervals so that overlapping ones differ;
/// returns each interval's track and the number of tracks.
fn colour(mut items: Vec<(Sym, Sym, usize)>) -> (BTreeMap<usize, i64>, i64) {
    items.sort();
    let mut ends: Vec<Sym> = Vec::new();
    let mut out = BTreeMap::new();
    for (lo, hi, id) in items {
        let t = match ends.iter().position(|&e| e < lo) {
            Some(t) => t,
            None => {
                ends.push(hi);
                ends.len() - 1
            }
        };
        ends[t] = hi;
        out.insert(id, t as i64);
    }
    let n = ends.len() as i64;
    (out, n)
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

/// Lay out the fat-pyramid of `spec`.
pub fn fat_pyramid(spec: &PyramidSpec) -> Result<Pyramid, String> {
    let k = spec.k();
    let b = spec.block();
    let ids = Ids::new(spec);
    if spec.processors > 1 << 20 {
        return Err(format!(
            "{} processors: the fat-pyramid builds at most 4^10",
            spec.processors
        ));
    }
    // The block's H-tree (one processor when b = 1).
    let block = if b == 1 { None } else { Some(htree(b)?) };
    let s_b = match &block {
        Some(e) => {
            let (lo, hi) = super::check::bounding_box(e).ok_or("empty H-tree")?;
            debug_assert_eq!((lo.x, lo.y), (0, 0));
            hi.x + 1
        }
        None => 1,
    };
    let centre = (s_b - 1) / 2;
    let core_w = s_b + 2; // block, a free column, the switch column

    // Every upper link with its two terminals: (tile, core row) each.
    let links = upper_links(spec);
    let is_root = |id: u32| (id as u64) < spec.processors + spec.blocks() * (b - 1);
    let sigma = terminal_rows(&links, is_root);
    let core_h = s_b.max(sigma) + 1; // the root's escape row on top
    let escape_row = s_b.max(sigma);
    let switch_col = s_b + 1;
    let mut terminal_count: BTreeMap<u32, i64> = BTreeMap::new();
    let mut ends: Vec<[((u64, u64), i64); 2]> = Vec::with_capacity(links.len());
    let tile_of = |id: u32| -> (u64, u64) {
        let id = id as u64;
        let base = spec.processors + spec.blocks() * (b - 1);
        if id < base {
            // A block root: its block's tile.
            let q = if id < spec.processors {
                id / b
            } else {
                (id - spec.processors) / (b - 1)
            };
            z_position(q)
        } else {
            let mut rest = id - base;
            let mut h = 1;
            while rest >= spec.blocks() >> (h + 1) {
                rest -= spec.blocks() >> (h + 1);
                h += 1;
            }
            switch_tile(h, rest)
        }
    };
    for &(a, c, _, _, _) in &links {
        let mut pair = [((0, 0), 0i64); 2];
        for (slot, id) in [a, c].into_iter().enumerate() {
            let row = if is_root(id) {
                escape_row
            } else {
                let t = terminal_count.entry(id).or_insert(0);
                *t += 1;
                *t - 1
            };
            pair[slot] = (tile_of(id), row);
        }
        ends.push(pair);
    }
    // Symbolic intervals: vertical segments per tile column, horizontal per
    // tile row. Segment ids: 3 * link + {0: first vertical, 1: horizontal,
    // 2: second vertical}.
    let mut vertical: BTreeMap<u64, Vec<(Sym, Sym, usize)>> = BTreeMap::new();
    let mut horizontal: BTreeMap<u64, Vec<(Sym, Sym, usize)>> = BTreeMap::new();
    let span = |a: Sym, c: Sym| if a <= c { (a, c) } else { (c, a) };
    for (li, [(ta, ra), (tb, rb)]) in ends.iter().enumerate() {
        let (ta, tb) = (*ta, *tb);
        if ta.0 == tb.0 {
            let (lo, hi) = span((ta.1, *ra), (tb.1, *rb));
            vertical.entry(ta.0).or_default().push((lo, hi, 3 * li));
            continue;
        }
        // Up or down to the band of the link's row, across, then up or
        // down to the target.
        let row = links[li].4;
        let band_lo: Sym = (row, core_h);
        let band_hi: Sym = (row, BAND_END);
        let to_band = |at: Sym| {
            if at <= band_lo {
                (at, band_hi)
            } else {
                (band_lo, at)
            }
        };
        let first = to_band((ta.1, *ra));
        let second = to_band((tb.1, *rb));
        vertical
            .entry(ta.0)
            .or_default()
            .push((first.0, first.1, 3 * li));
        vertical
            .entry(tb.0)
            .or_default()
            .push((second.0, second.1, 3 * li + 2));
        let (x_lo, x_hi) = if ta.0 < tb.0 {
            ((ta.0, core_w), (tb.0, BAND_END))
        } else {
            ((tb.0, core_w), (ta.0, BAND_END))
        };
        horizontal
            .entry(row)
            .or_default()
            .push((x_lo, x_hi, 3 * li + 1));
    }
    let mut track: BTreeMap<usize, i64> = BTreeMap::new();
    let (mut tv, mut th) = (0i64, 0i64);
    for (_, items) in vertical {
        let (t, n) = colour(items);
        tv = tv.max(n);
        track.extend(t);
    }
    for (_, items) in horizontal {
        let (t, n) = colour(items);
        th = th.max(n);
        track.extend(t);
    }
    let (px, py) = (core_w + tv.max(1), core_h + th.max(1));
    let origin = |t: (u64, u64)| (t.0 as i64 * px, t.1 as i64 * py);

    // Nodes.
    let mut nodes: Vec<Node> = Vec::new();
    let mut edges: Vec<Edge> = Vec::new();
    let mut root_point: BTreeMap<u32, P3> = BTreeMap::new();
    for q in 0..spec.blocks() {
        let (ox, oy) = origin(z_position(q));
        match &block {
            None => {
                let p = P3::xy(ox + centre, oy + centre);
                nodes.push(Node {
                    id: ids.block_root(q),
                    kind: "processor".into(),
                    level: 0,
                    min: p,
                    max: p,
                });
                root_point.insert(ids.block_root(q), p);
            }
            Some(e) => {
                // Block ids: the H-tree's node id -> heap -> pyramid id.
                let heap_of = |id: u32| -> u64 {
                    let id = id as u64;
                    if id < b {
                        id + b
                    } else {
                        id - b + 1
                    }
                };
                let shift = |p: P3| P3::xy(p.x + ox, p.y + oy);
                for nd in &e.nodes {
                    let id = ids.block_node(q, heap_of(nd.id));
                    nodes.push(Node {
                        id,
                        kind: nd.kind.clone(),
                        level: nd.level,
                        min: shift(nd.min),
                        max: shift(nd.max),
                    });
                }
                for x in &e.edges {
                    edges.push(Edge {
                        id: 0,
                        from: ids.block_node(q, heap_of(x.from)),
                        to: ids.block_node(q, heap_of(x.to)),
                        path: x.path.iter().map(|&p| shift(p)).collect(),
                    });
                }
                root_point.insert(ids.block_root(q), P3::xy(ox + centre, oy + centre));
            }
        }
    }
    let top_level = 2 * spec.beta;
    for h in 1..=k {
        for a in 0..(spec.blocks() >> (h + 1)) {
            let (ox, oy) = origin(switch_tile(h, a));
            nodes.push(Node {
                id: ids.switch(h, a),
                kind: "switch".into(),
                level: top_level + h,
                min: P3::xy(ox + switch_col, oy),
                max: P3::xy(ox + switch_col, oy + sigma - 1),
            });
        }
    }
    // Upper links.
    for (li, (&(a, c, _, _, row), [(ta, ra), (tb, rb)])) in links.iter().zip(&ends).enumerate() {
        let (ax, ay) = origin(*ta);
        let (bx, by) = origin(*tb);
        let mut path = Vec::new();
        // Start: a switch terminal or a block root's escape.
        if is_root(a) {
            let r = root_point[&a];
            path.push(r);
            path.push(P3::xy(r.x, ay + escape_row));
        } else {
            path.push(P3::xy(ax + switch_col, ay + ra));
        }
        let va = ax + core_w + track[&(3 * li)];
        if ta.0 == tb.0 {
            path.push(P3::xy(va, ay + ra));
            path.push(P3::xy(va, by + rb));
        } else {
            let hr = row as i64 * py + core_h + track[&(3 * li + 1)];
            let vb = bx + core_w + track[&(3 * li + 2)];
            path.push(P3::xy(va, ay + ra));
            path.push(P3::xy(va, hr));
            path.push(P3::xy(vb, hr));
            path.push(P3::xy(vb, by + rb));
        }
        // End: a switch terminal (a block root is never the upper end).
        path.push(P3::xy(bx + switch_col, by + rb));
        edges.push(Edge {
            id: 0,
            from: a,
            to: c,
            path: super::corners(path),
        });
    }
    for (i, e) in edges.iter_mut().enumerate() {
        e.id = i as u32;
    }
    nodes.sort_unstable_by_key(|x| x.id);
    let mut parameters = BTreeMap::new();
    parameters.insert("processors".to_string(), spec.processors.to_string());
    parameters.insert("block_levels".to_string(), spec.beta.to_string());
    if spec.mesh_capacity != 1 {
        parameters.insert("mesh_capacity".to_string(), spec.mesh_capacity.to_string());
    }
    Ok(Pyramid {
        embedding: Embedding {
            network: "fat-pyramid".into(),
            parameters,
            dimensions: 2,
            nodes,
            edges,
        },
        spec: *spec,
        pitch: (px, py),
        tracks: (tv, th),
    })
}

#[cfg(test)]
mod tests;
