//! Theorem 18's shortcut paths in a laid-out fat-pyramid: the router that
//! follows them, the survey over pairs of a competing mesh, the longest
//! wires per level and the wire-delay ratio Delta delta.

use std::collections::BTreeMap;

use super::{upper_links, z_index, z_position, Ids, Pyramid, PyramidSpec};
use crate::layout::Embedding;

/// Theorem 18's measure for one pair of processors of a competing mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairPath {
    /// Mesh point `(x, y)` of the first processor.
    pub from: (u64, u64),
    /// Mesh point `(x, y)` of the second processor.
    pub to: (u64, u64),
    /// Their distance in the competing mesh.
    pub d: u64,
    /// Wire length of the shortcut path in the fat-pyramid, with the best
    /// choices of parents on the way up.
    pub best: u64,
    /// Wire length of the shortcut path with the worst choices of parents.
    pub worst: u64,
    /// The level where the path turns (0: inside one block).
    pub level: u32,
}

/// Paths in a laid-out fat-pyramid under the shortcut rule, for processors
/// of a competing `sqrt n x sqrt n` mesh mapped geometrically: mesh point
/// `(x, y)` goes to the block of tile `(x, y) >> beta`, and within it to
/// the H-tree leaf at the same relative position.
pub struct Router {
    spec: PyramidSpec,
    ids: Ids,
    length: std::collections::HashMap<(u32, u32), u64>,
    /// Leaf index of each relative position in a block.
    leaf_at: Vec<u64>,
    children: Children,
}

/// The children of each butterfly switch of a fat-pyramid, for the unique
/// way down.
pub struct Children(Vec<Vec<Vec<u64>>>);

impl Children {
    /// The children of every switch `(h, a)` of the fat-pyramid of `spec`.
    pub fn new(spec: PyramidSpec) -> Children {
        use crate::layout::butterfly::parents;
        let k = spec.k();
        let mut children: Vec<Vec<Vec<u64>>> = vec![Vec::new(); k as usize + 1];
        for h in 1..=k {
            children[h as usize] = vec![Vec::new(); (spec.blocks() >> (h + 1)) as usize];
            let below = if h == 1 {
                spec.blocks()
            } else {
                spec.blocks() >> h
            };
            for c in 0..below {
                for par in parents(h - 1, c, k) {
                    children[h as usize][par as usize].push(c);
                }
            }
        }
        Children(children)
    }

    /// The child of switch `(h, a)`, `h >= 1`, on the way down to block
    /// `q`: a block at `h = 1`, else a switch of level `h - 1`.
    pub fn toward(&self, h: u32, a: u64, q: u64) -> u64 {
        let want = q >> (2 * (h - 1));
        *self.0[h as usize][a as usize]
            .iter()
            .find(|&&c| {
                let node = if h == 1 { c } else { c >> (h - 2) };
                node == want
            })
            .expect("a child towards the block")
    }
}

impl Router {
    /// A router over `e`, the layout [`super::fat_pyramid`] built for `spec`: it
    /// reads every edge's wire length and the leaves' positions in block 0.
    pub fn new(e: &Embedding, spec: PyramidSpec) -> Router {
        let ids = Ids::new(&spec);
        let mut length = std::collections::HashMap::new();
        for x in &e.edges {
            length.insert((x.from, x.to), x.length());
            length.insert((x.to, x.from), x.length());
        }
        // Leaves of block 0 by position.
        let side = 1u64 << spec.beta;
        let mut leaves: Vec<(i64, i64, u64)> = e
            .nodes
            .iter()
            .filter(|nd| (nd.id as u64) < spec.block())
            .map(|nd| (nd.min.x, nd.min.y, nd.id as u64))
            .collect();
        let mut xs: Vec<i64> = leaves.iter().map(|l| l.0).collect();
        let mut ys: Vec<i64> = leaves.iter().map(|l| l.1).collect();
        xs.sort_unstable();
        xs.dedup();
        ys.sort_unstable();
        ys.dedup();
        let mut leaf_at = vec![0u64; (side * side) as usize];
        for (x, y, id) in leaves.drain(..) {
            let u = xs.binary_search(&x).expect("a leaf column") as u64;
            let v = ys.binary_search(&y).expect("a leaf row") as u64;
            leaf_at[(v * side + u) as usize] = id;
        }
        let children = Children::new(spec);
        Router {
            spec,
            ids,
            length,
            leaf_at,
            children,
        }
    }

    fn len(&self, a: u32, b: u32) -> u64 {
        self.length[&(a, b)]
    }

    fn node_of(&self, h: u32, a: u64) -> u32 {
        if h == 0 {
            self.ids.block_root(a)
        } else {
            self.ids.switch(h, a)
        }
    }

    /// Wire length from a leaf up to its block's root.
    fn in_block(&self, q: u64, leaf: u64) -> u64 {
        let b = self.spec.block();
        let mut heap = b + leaf;
        let mut total = 0;
        while heap > 1 {
            total += self.len(
                self.ids.block_node(q, heap),
                self.ids.block_node(q, heap / 2),
            );
            heap /= 2;
        }
        total
    }

    /// Down from switch `(h, a)` to block `q`'s root: the unique path.
    fn down(&self, h: u32, a: u64, q: u64) -> u64 {
        let (mut h, mut a) = (h, a);
        let mut total = 0;
        while h > 0 {
            let c = self.children.toward(h, a, q);
            total += self.len(self.node_of(h - 1, c), self.node_of(h, a));
            h -= 1;
            a = c;
        }
        total
    }

    /// The path between mesh points `from` and `to`.
    pub fn path(&self, from: (u64, u64), to: (u64, u64)) -> PairPath {
        use crate::layout::butterfly::parents;
        let spec = self.spec;
        let side = 1u64 << spec.beta;
        let d = from.0.abs_diff(to.0) + from.1.abs_diff(to.1);
        let locate = |(x, y): (u64, u64)| {
            let q = z_index(x >> spec.beta, y >> spec.beta);
            let leaf = self.leaf_at[((y % side) * side + x % side) as usize];
            (q, leaf)
        };
        let ((qs, ls), (qt, lt)) = (locate(from), locate(to));
        if qs == qt {
            // Inside one block: up to the common ancestor and down.
            let b = spec.block();
            let (mut u, mut v) = (b + ls, b + lt);
            let mut total = 0;
            while u != v {
                if u > v {
                    total += self.len(self.ids.block_node(qs, u), self.ids.block_node(qs, u / 2));
                    u /= 2;
                } else {
                    total += self.len(self.ids.block_node(qs, v), self.ids.block_node(qs, v / 2));
                    v /= 2;
                }
            }
            return PairPath {
                from,
                to,
                d,
                best: total,
                worst: total,
                level: 0,
            };
        }
        let ends = self.in_block(qs, ls) + self.in_block(qt, lt);
        // Reachable switches of each level with the least and most wire
        // used to reach them.
        let k = spec.k();
        let mut reach: BTreeMap<u64, (u64, u64)> = BTreeMap::new();
        reach.insert(qs, (0, 0));
        for h in 1..=k {
            let mut next: BTreeMap<u64, (u64, u64)> = BTreeMap::new();
            for (&c, &(lo, hi)) in &reach {
                for par in parents(h - 1, c, k) {
                    let w = self.len(self.node_of(h - 1, c), self.node_of(h, par));
                    let e = next.entry(par).or_insert((u64::MAX, 0));
                    e.0 = e.0.min(lo + w);
                    e.1 = e.1.max(hi + w);
                }
            }
            reach = next;
            let per = 1u64 << (h - 1);
            let (ns, nt) = (qs >> (2 * h), qt >> (2 * h));
            let ((sx, sy), (tx, ty)) = (z_position(ns), z_position(nt));
            let (dx, dy) = (sx.abs_diff(tx), sy.abs_diff(ty));
            if dx > 1 || dy > 1 {
                continue;
            }
            let (mut best, mut worst) = (u64::MAX, 0);
            for (&a, &(lo, hi)) in &reach {
                let i = a % per;
                // Mesh hops: along x first, then y.
                let mut hop = 0;
                let mut here = ns;
                if dx == 1 {
                    let there = z_index(tx, sy);
                    hop += self.len(
                        self.ids.switch(h, here * per + i),
                        self.ids.switch(h, there * per + i),
                    );
                    here = there;
                }
                if dy == 1 {
                    let there = z_index(tx, ty);
                    hop += self.len(
                        self.ids.switch(h, here * per + i),
                        self.ids.switch(h, there * per + i),
                    );
                    here = there;
                }
                debug_assert_eq!(here, nt);
                let rest = hop + self.down(h, nt * per + i, qt);
                best = best.min(lo + rest);
                worst = worst.max(hi + rest);
            }
            return PairPath {
                from,
                to,
                d,
                best: best + ends,
                worst: worst + ends,
                level: h,
            };
        }
        unreachable!("the top level has one node")
    }
}

/// Theorem 18 over a set of pairs: the largest `L / (d + lg A)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Survey {
    /// Pairs of distinct processors measured.
    pub pairs: u64,
    /// Largest ratio `L / (d + lg A)` with the best choices of parents.
    pub max_best: f64,
    /// Largest ratio with the worst choices of parents.
    pub max_worst: f64,
    /// The pair attaining `max_worst`.
    pub worst: Option<PairPath>,
}

impl Survey {
    /// The survey with seed 0.
    pub fn default_for(p: &Pyramid) -> Survey {
        survey(&p.embedding, p.spec, 0)
    }
}

/// Survey pairs of a competing mesh of area `A = n`: every pair when
/// `n <= 256`; otherwise every mesh edge (distance 1, the pairs that
/// straddle the block and seam boundaries), pairs at distance `2^j` along
/// each axis from random points, and random pairs, all drawn from `seed`.
pub fn survey(e: &Embedding, spec: PyramidSpec, seed: u64) -> Survey {
    use rand::{Rng, SeedableRng};
    let router = Router::new(e, spec);
    let n = spec.processors;
    let side = (n as f64).sqrt().round() as u64;
    let lg_a = (n as f64).log2();
    let mut out = Survey {
        pairs: 0,
        max_best: 0.0,
        max_worst: 0.0,
        worst: None,
    };
    let mut take = |from: (u64, u64), to: (u64, u64)| {
        if from == to {
            return;
        }
        let path = router.path(from, to);
        let denominator = path.d as f64 + lg_a;
        out.pairs += 1;
        out.max_best = out.max_best.max(path.best as f64 / denominator);
        let w = path.worst as f64 / denominator;
        if w > out.max_worst {
            out.max_worst = w;
            out.worst = Some(path);
        }
    };
    if n <= 256 {
        for a in 0..n {
            for b in 0..n {
                take((a % side, a / side), (b % side, b / side));
            }
        }
        return out;
    }
    for y in 0..side {
        for x in 0..side {
            if x + 1 < side {
                take((x, y), (x + 1, y));
            }
            if y + 1 < side {
                take((x, y), (x, y + 1));
            }
        }
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..2000 {
        let (x, y) = (rng.gen_range(0..side), rng.gen_range(0..side));
        let mut step = 2;
        while step < side {
            if x + step < side {
                take((x, y), (x + step, y));
            }
            if y + step < side {
                take((x, y), (x, y + step));
            }
            step *= 2;
        }
    }
    for _ in 0..20_000 {
        let a = (rng.gen_range(0..side), rng.gen_range(0..side));
        let b = (rng.gen_range(0..side), rng.gen_range(0..side));
        take(a, b);
    }
    out
}

/// Longest wire at each level above the blocks: tree links into level `h`
/// and mesh links of level `h`.
pub fn level_wires(e: &Embedding, spec: PyramidSpec) -> Vec<(u32, u64, u64)> {
    let mut by_pair: std::collections::HashMap<(u32, u32), u64> = std::collections::HashMap::new();
    for x in &e.edges {
        by_pair.insert((x.from, x.to), x.length());
    }
    let mut out: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
    for (a, c, h, mesh, _) in upper_links(&spec) {
        let len = by_pair[&(a, c)];
        let e = out.entry(h).or_insert((0, 0));
        if mesh {
            e.1 = e.1.max(len);
        } else {
            e.0 = e.0.max(len);
        }
    }
    out.into_iter().map(|(h, (t, m))| (h, t, m)).collect()
}

/// The change of delivery overhead when wires are not of unit delay
/// (thesis section 4.3), evaluated on a laid-out fat-pyramid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeltaDelta {
    /// `max_d T_w(d) / (T_1 w(d))` over `d = 1 .. 2 (sqrt A - 1)`.
    pub max: f64,
    /// The competing distance where it is reached.
    pub at: u64,
    /// The thesis's expression `w(d + lg A) lg d / (w(d) lg A)`, its
    /// largest value over the same `d` (before condition C1 bounds it by 2).
    pub thesis_max: f64,
}

/// Delivery-cycle slowdown from wire delay, bounded with the layout's own
/// wires: a message of competing distance `d` turns at butterfly level
/// `h(d) <= lg ceil(d / 2^beta) + 1` (checked by the survey tests), so its
/// path takes at most one wire of each level up to `2 beta + h(d)`, twice,
/// and two mesh wires of that level. With `M_l` the longest wire into level
/// `l` (tree or mesh), `T_w(d) = 2 sum_{l <= 2 beta + h(d)} w(M_l) +
/// 2 w(M_{2 beta + h(d)})`; the unit-delay cycle is `T_1 = 2 (2 beta + K)`
/// hops (leaf to root to leaf). The report is `T_w(d) / (T_1 w(d))`: how
/// much longer a cycle gets, relative to how much longer the competing
/// network's own messages get.
pub fn delta_delta(
    e: &Embedding,
    spec: PyramidSpec,
    w: &crate::layout::metrics::Delay,
) -> DeltaDelta {
    let m = crate::layout::metrics::measure(e);
    let top = 2 * spec.beta + spec.k();
    let longest = |l: u32| m.per_level.get(&l).map_or(0, |x| x.max);
    let t1 = 2.0 * top as f64;
    let lg_a = (spec.processors as f64).log2();
    let side = (spec.processors as f64).sqrt() as u64;
    let mut out = DeltaDelta {
        max: 0.0,
        at: 1,
        thesis_max: 0.0,
    };
    for d in 1..=2 * side.saturating_sub(1).max(1) {
        let blocks = d.div_ceil(1 << spec.beta);
        let h = (64 - (blocks - 1).leading_zeros()).min(spec.k()) + 1;
        let turn = (2 * spec.beta + h).min(top);
        let tw =
            2.0 * (1..=turn).map(|l| w.of(longest(l))).sum::<f64>() + 2.0 * w.of(longest(turn));
        let r = tw / (t1 * w.of(d));
        if r > out.max {
            out.max = r;
            out.at = d;
        }
        let thesis = w.of(d + lg_a.ceil() as u64) * (d as f64).log2() / (w.of(d) * lg_a);
        out.thesis_max = out.thesis_max.max(thesis);
    }
    out
}
