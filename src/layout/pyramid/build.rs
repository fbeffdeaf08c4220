//! Laying out the fat-pyramid (module comment of [`super`]): the tile
//! geometry, the link terminals, the track colouring of the bands, the
//! nodes, and the links' paths.

use std::collections::BTreeMap;

use super::{switch_tile, upper_links, z_position, Ids, Pyramid, PyramidSpec};
use crate::layout::fattree::htree;
use crate::layout::{corners, Edge, Embedding, NetworkName, Node, SpecError, P3};

/// An upper link: its two ends, level, whether it is a mesh link, and the
/// tile row of its horizontal band.
type Link = (u32, u32, u32, bool, u64);
/// A link's two terminals: (tile, core row) each.
type Ends = [((u64, u64), i64); 2];

/// Terminal rows of a switch box: one for each link of the switch with the
/// most links. A switch below the top level has 4 children, 2 parents and
/// `kappa` links to each of its (up to 4) mesh neighbours, so at most
/// `6 + 4 kappa`; a top-level switch has its 4 children only, so a pyramid
/// with one butterfly level (`K = 1`: no parents, no mesh) has boxes of 4.
fn terminal_rows(links: &[Link], is_root: impl Fn(u32) -> bool) -> i64 {
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

/// The geometry every tile shares: the block's H-tree and the core's
/// rows and columns.
struct Tiles<'a> {
    spec: &'a PyramidSpec,
    ids: Ids,
    /// The block's H-tree (`None`: one processor per block).
    block: Option<Embedding>,
    /// The block root's row and column in the core.
    centre: i64,
    /// The core's width: block, a free column, the switch column.
    core_w: i64,
    /// The core's height, the root's escape row on top.
    core_h: i64,
    /// The row block roots leave by.
    escape_row: i64,
    /// The switch column.
    switch_col: i64,
    /// A switch box's height: its terminal rows.
    sigma: i64,
}

impl Tiles<'_> {
    /// Whether node `id` is a block root (or below one).
    fn is_root(&self, id: u32) -> bool {
        let b = self.spec.block();
        (id as u64) < self.spec.processors + self.spec.blocks() * (b - 1)
    }

    /// The tile of a block root or a switch.
    fn tile_of(&self, id: u32) -> (u64, u64) {
        let spec = self.spec;
        let b = spec.block();
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
    }

    /// Each link's two terminals: a switch's next free row, or a block
    /// root's escape row.
    fn ends(&self, links: &[Link]) -> Vec<Ends> {
        let mut terminal_count: BTreeMap<u32, i64> = BTreeMap::new();
        let mut ends: Vec<Ends> = Vec::with_capacity(links.len());
        for &(a, c, _, _, _) in links {
            let mut pair = [((0, 0), 0i64); 2];
            for (slot, id) in [a, c].into_iter().enumerate() {
                let row = if self.is_root(id) {
                    self.escape_row
                } else {
                    let t = terminal_count.entry(id).or_insert(0);
                    *t += 1;
                    *t - 1
                };
                pair[slot] = (self.tile_of(id), row);
            }
            ends.push(pair);
        }
        ends
    }

    /// The track of every link segment (`3 * link + {0: first vertical,
    /// 1: horizontal, 2: second vertical}`) and the vertical and
    /// horizontal tracks per band, by colouring symbolic intervals:
    /// vertical segments per tile column, horizontal per tile row.
    fn tracks(&self, links: &[Link], ends: &[Ends]) -> (BTreeMap<usize, i64>, i64, i64) {
        let (core_w, core_h) = (self.core_w, self.core_h);
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
        (track, tv, th)
    }

    /// Every block's nodes and edges at its tile (`origin` of a tile), and
    /// each block root's point.
    fn blocks(
        &self,
        origin: impl Fn((u64, u64)) -> (i64, i64),
        nodes: &mut Vec<Node>,
        edges: &mut Vec<Edge>,
    ) -> BTreeMap<u32, P3> {
        let (spec, ids, centre) = (self.spec, &self.ids, self.centre);
        let b = spec.block();
        let mut root_point: BTreeMap<u32, P3> = BTreeMap::new();
        for q in 0..spec.blocks() {
            let (ox, oy) = origin(z_position(q));
            match &self.block {
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
        root_point
    }

    /// The switch boxes, at the switch column of their tiles.
    fn switches(&self, origin: impl Fn((u64, u64)) -> (i64, i64), nodes: &mut Vec<Node>) {
        let spec = self.spec;
        let top_level = 2 * spec.beta;
        for h in 1..=spec.k() {
            for a in 0..(spec.blocks() >> (h + 1)) {
                let (ox, oy) = origin(switch_tile(h, a));
                nodes.push(Node {
                    id: self.ids.switch(h, a),
                    kind: "switch".into(),
                    level: top_level + h,
                    min: P3::xy(ox + self.switch_col, oy),
                    max: P3::xy(ox + self.switch_col, oy + self.sigma - 1),
                });
            }
        }
    }
}

/// The path of upper link `li` from its lower terminal to its upper one,
/// on its tracks.
struct Route<'a> {
    tiles: &'a Tiles<'a>,
    track: &'a BTreeMap<usize, i64>,
    root_point: &'a BTreeMap<u32, P3>,
    /// Tile height (rows of a band's horizontal tracks start at
    /// `row * pitch_y + core_h`).
    pitch_y: i64,
}

impl Route<'_> {
    /// The corner points of link `li`, its terminals' tiles at `(ax, ay)`
    /// and `(bx, by)`.
    fn path(
        &self,
        li: usize,
        link: &Link,
        ends: &Ends,
        a_at: (i64, i64),
        b_at: (i64, i64),
    ) -> Vec<P3> {
        let t = self.tiles;
        let &(a, _, _, _, row) = link;
        let [(ta, ra), (tb, rb)] = *ends;
        let ((ax, ay), (bx, by)) = (a_at, b_at);
        let mut path = Vec::new();
        // Start: a switch terminal or a block root's escape.
        if t.is_root(a) {
            let r = self.root_point[&a];
            path.push(r);
            path.push(P3::xy(r.x, ay + t.escape_row));
        } else {
            path.push(P3::xy(ax + t.switch_col, ay + ra));
        }
        let va = ax + t.core_w + self.track[&(3 * li)];
        if ta.0 == tb.0 {
            path.push(P3::xy(va, ay + ra));
            path.push(P3::xy(va, by + rb));
        } else {
            let hr = row as i64 * self.pitch_y + t.core_h + self.track[&(3 * li + 1)];
            let vb = bx + t.core_w + self.track[&(3 * li + 2)];
            path.push(P3::xy(va, ay + ra));
            path.push(P3::xy(va, hr));
            path.push(P3::xy(vb, hr));
            path.push(P3::xy(vb, by + rb));
        }
        // End: a switch terminal (a block root is never the upper end).
        path.push(P3::xy(bx + t.switch_col, by + rb));
        corners(path)
    }
}

/// The tile geometry of `spec`: the block's H-tree and the core's size.
fn tiles<'a>(spec: &'a PyramidSpec, links: &[Link]) -> Result<Tiles<'a>, SpecError> {
    let b = spec.block();
    // The block's H-tree (one processor when b = 1).
    let block = if b == 1 { None } else { Some(htree(b)?) };
    let s_b = match &block {
        Some(e) => {
            let (lo, hi) = crate::layout::check::bounding_box(e).ok_or(SpecError::EmptyHtree)?;
            debug_assert_eq!((lo.x, lo.y), (0, 0));
            hi.x + 1
        }
        None => 1,
    };
    let mut tiles = Tiles {
        spec,
        ids: Ids::new(spec),
        block,
        centre: (s_b - 1) / 2,
        core_w: s_b + 2,
        core_h: 0,
        escape_row: 0,
        switch_col: s_b + 1,
        sigma: 0,
    };
    tiles.sigma = terminal_rows(links, |id| tiles.is_root(id));
    tiles.core_h = s_b.max(tiles.sigma) + 1;
    tiles.escape_row = s_b.max(tiles.sigma);
    Ok(tiles)
}

/// Lay out the fat-pyramid of `spec`.
pub fn fat_pyramid(spec: &PyramidSpec) -> Result<Pyramid, SpecError> {
    if spec.processors > 1 << 20 {
        return Err(SpecError::PyramidTooLarge(spec.processors));
    }
    // Every upper link with its two terminals: (tile, core row) each.
    let links = upper_links(spec);
    let tiles = tiles(spec, &links)?;
    let ends = tiles.ends(&links);
    let (track, tv, th) = tiles.tracks(&links, &ends);
    let (px, py) = (tiles.core_w + tv.max(1), tiles.core_h + th.max(1));
    let origin = |t: (u64, u64)| (t.0 as i64 * px, t.1 as i64 * py);
    let mut nodes: Vec<Node> = Vec::new();
    let mut edges: Vec<Edge> = Vec::new();
    let root_point = tiles.blocks(origin, &mut nodes, &mut edges);
    tiles.switches(origin, &mut nodes);
    let route = Route {
        tiles: &tiles,
        track: &track,
        root_point: &root_point,
        pitch_y: py,
    };
    for (li, (link, e)) in links.iter().zip(&ends).enumerate() {
        edges.push(Edge {
            id: 0,
            from: link.0,
            to: link.1,
            path: route.path(li, link, e, origin(e[0].0), origin(e[1].0)),
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
            network: NetworkName::FatPyramid,
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
