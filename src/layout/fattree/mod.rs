//! Fat-trees in H-tree style (thesis chapter 4, equation 4.1), the H-tree being the fat-tree of capacity 1.
//!
//! For `n = 4^k` processors and a channel capacity `c(p)` (the channel
//! above a subtree of `p` leaves; `t(p) = ω c(p)` wires, `ω` = 1 or 2), the
//! layout `F_j` of a subtree of `4^j` leaves is a square of side
//! `S_j = 2 S_{j-1} + t(4^j)`, `S_0 = s1 = max(ceil(sqrt α), t(1))`:
//!
//! - four copies of `F_{j-1}` in the corners, the northern two mirrored so
//!   that every copy's up-bundle points at the central band;
//! - the root box `R = [s, s+t) x [s, s+t)` (with `s = S_{j-1}`,
//!   `t = t(4^j)`) in the centre: the binary node above `4^j` leaves;
//! - two half-node boxes `W_b`, columns `[b(s+t) + G, +t_q)`, rows
//!   `[s, s+t)`, where `G` is the column offset of a copy's up-bundle
//!   (`S_{j-2}`, or 0 for a leaf) and `t_q = t(4^{j-1})`: the binary nodes
//!   above `2·4^{j-1}` leaves;
//! - straight wires: `t_q` vertical ones from each copy's root box to its
//!   `W_b`, and `t_h = t(2·4^{j-1})` horizontal ones on rows
//!   `s .. s+t_h-1` from each `W_b` to `R`.
//!
//! Every channel is a bundle of real wires, one network edge each. The
//! root's own up-bundle (to the outside world) is not drawn, so the
//! bounding box is exactly `S_k x S_k`. Levels count from the processors
//! (0): `W_b` of `F_j` is level `2j - 1`, `R` level `2j`.

use std::collections::BTreeMap;

use super::{Edge, Embedding, NetworkName, Node, Orientation, SpecError, P3};

/// The channel capacity function `c(p)` for a subtree of `p` leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Capacity {
    /// `c = 1` everywhere: the H-tree.
    One,
    /// `ceil(sqrt(p) / lg A)` with `A = n α` and `lg` of `A / α`
    /// (Lemma 10; with `α = 1`, `ceil(sqrt(p) / lg n)`).
    SqrtOverLg,
    /// `ceil(sqrt(p))` (the modular choice).
    Sqrt,
    /// `ceil(p^(2/3) / lg n)`: the 3-D counterpart of `SqrtOverLg` (thesis
    /// section 5.3, with `V = n` unit processors).
    TwoThirdsOverLg,
    /// `ceil(p^(2/3))`: root capacity `w = n^(2/3)`, Theorem 25's range.
    TwoThirds,
    /// `2^floor(lg p / 2)`: capacity doubles every other binary level
    /// (every 4-ary level), as in Theorem 8.
    Doubling,
    /// Given values for `p = 1, 2, 4, ...` (one per binary level).
    Table(Vec<u64>),
}

impl std::str::FromStr for Capacity {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Capacity, SpecError> {
        Capacity::parse(s)
    }
}

impl Capacity {
    /// Parse `one`, `sqrt-over-lg`, `sqrt`, `doubling` or `table:c1,c2,...`.
    pub fn parse(s: &str) -> Result<Capacity, SpecError> {
        match s {
            "one" | "1" => Ok(Capacity::One),
            "sqrt-over-lg" => Ok(Capacity::SqrtOverLg),
            "sqrt" => Ok(Capacity::Sqrt),
            "two-thirds-over-lg" => Ok(Capacity::TwoThirdsOverLg),
            "two-thirds" => Ok(Capacity::TwoThirds),
            "doubling" => Ok(Capacity::Doubling),
            _ => {
                let list = s
                    .strip_prefix("table:")
                    .ok_or_else(|| SpecError::UnknownCapacity(s.to_string()))?;
                let values = list
                    .split(',')
                    .map(|v| {
                        v.trim()
                            .parse::<u64>()
                            .map_err(|_| SpecError::CapacityEntry(v.to_string()))
                    })
                    .collect::<Result<Vec<u64>, SpecError>>()?;
                Ok(Capacity::Table(values))
            }
        }
    }

    /// The form [`Capacity::parse`] reads back (written in layout files).
    pub fn spec(&self) -> String {
        match self {
            Capacity::One => "one".into(),
            Capacity::SqrtOverLg => "sqrt-over-lg".into(),
            Capacity::TwoThirdsOverLg => "two-thirds-over-lg".into(),
            Capacity::TwoThirds => "two-thirds".into(),
            Capacity::Sqrt => "sqrt".into(),
            Capacity::Doubling => "doubling".into(),
            Capacity::Table(v) => format!(
                "table:{}",
                v.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
            ),
        }
    }

    /// The formula written in reports.
    pub fn describe(&self) -> String {
        match self {
            Capacity::One => "1".into(),
            Capacity::SqrtOverLg => "ceil(sqrt(p)/lg(A/alpha))".into(),
            Capacity::TwoThirdsOverLg => "ceil(p^(2/3)/lg n)".into(),
            Capacity::TwoThirds => "ceil(p^(2/3))".into(),
            Capacity::Sqrt => "ceil(sqrt(p))".into(),
            Capacity::Doubling => "2^floor(lg(p)/2)".into(),
            Capacity::Table(v) => format!(
                "table [{}]",
                v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
            ),
        }
    }

    /// `c(2^i)` for a tree of `n` leaves with processors of area `alpha`.
    pub fn at_level(&self, i: u32, n: u64, alpha: u64) -> Result<u64, SpecError> {
        let p = 1u64 << i;
        Ok(match self {
            Capacity::One => 1,
            Capacity::SqrtOverLg => {
                let lg = (n.max(2) as f64).log2();
                ((p as f64 * alpha as f64).sqrt() / lg).ceil().max(1.0) as u64
            }
            Capacity::Sqrt => (p as f64).sqrt().ceil() as u64,
            Capacity::TwoThirds => two_thirds_over(p, 1),
            Capacity::TwoThirdsOverLg => {
                // The least c >= 1 with (c lg n)^3 >= p^2, in integers when
                // n is a power of 2.
                if n.is_power_of_two() {
                    two_thirds_over(p, n.trailing_zeros().max(1) as u128)
                } else {
                    let lg = (n.max(2) as f64).log2();
                    ((p as f64).powf(2.0 / 3.0) / lg).ceil().max(1.0) as u64
                }
            }
            Capacity::Doubling => 1 << (i / 2),
            Capacity::Table(v) => *v.get(i as usize).ok_or(SpecError::ShortTable {
                entries: v.len(),
                leaves: n,
                needed: n.trailing_zeros() + 1,
            })?,
        })
    }
}

/// `k` with `n = (2^bits)^k` processors, or an error naming the layout.
pub(crate) fn levels_of(n: u64, bits: u32, layout: &'static str) -> Result<u32, SpecError> {
    if n == 0 || !n.is_power_of_two() || n.trailing_zeros() % bits != 0 {
        return Err(SpecError::NotPowerOf {
            processors: n,
            layout,
            base: 1u64 << bits,
        });
    }
    Ok(n.trailing_zeros() / bits)
}

/// Wires per unit of capacity must be 1 or 2.
pub(crate) fn check_omega(omega: u64) -> Result<(), SpecError> {
    if (1..=2).contains(&omega) {
        Ok(())
    } else {
        Err(SpecError::Omega(omega))
    }
}

/// The least `c >= 1` with `(c lg)^3 >= p^2`: `ceil(p^(2/3) / lg)` in
/// integers.
fn two_thirds_over(p: u64, lg: u128) -> u64 {
    let p2 = (p as u128) * (p as u128);
    let mut c = ((p as f64).powf(2.0 / 3.0) / lg as f64).floor().max(1.0) as u128;
    while c > 1 && ((c - 1) * lg).pow(3) >= p2 {
        c -= 1;
    }
    while (c * lg).pow(3) < p2 {
        c += 1;
    }
    c as u64
}

/// Parameters of a fat-tree layout.
#[derive(Clone, Debug, PartialEq)]
pub struct FatTreeSpec {
    /// Number of processors, a power of 4.
    pub processors: u64,
    /// The channel capacity function `c(p)`.
    pub capacity: Capacity,
    /// Wires per unit of capacity: 1 (a channel is `c` wires, as in (4.1))
    /// or 2 (separate up and down wires).
    pub omega: u64,
    /// Processor area `α` (its box side is `ceil(sqrt α)` at least).
    pub alpha: u64,
}

/// The side lengths `S_0 .. S_k` by the recurrence (4.1), and the wire
/// counts `t(2^i)` per binary level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recurrence {
    /// `S_j`, the side of the square layout of a subtree of `4^j` leaves,
    /// for `j = 0 ..= k`; `S_k` is the whole layout's side.
    pub sides: Vec<u64>,
    /// `t(2^i) = ω c(2^i)`, the wires of the channel above a subtree of
    /// `2^i` leaves, for `i = 0 ..= 2k`.
    pub tracks: Vec<u64>,
    /// `s1 = max(ceil(sqrt α), t(1))`, a processor box's side (`S_0`).
    pub leaf_side: u64,
}

impl FatTreeSpec {
    /// `k` with `processors = 4^k`.
    pub fn k(&self) -> Result<u32, SpecError> {
        levels_of(self.processors, 2, "the H-tree-style layout")
    }

    /// Check the parameters and evaluate the recurrence.
    pub fn recurrence(&self) -> Result<Recurrence, SpecError> {
        let k = self.k()?;
        check_omega(self.omega)?;
        if self.alpha == 0 {
            return Err(SpecError::ZeroArea);
        }
        let tracks: Vec<u64> = (0..=2 * k)
            .map(|i| {
                self.capacity
                    .at_level(i, self.processors, self.alpha)
                    .map(|c| c * self.omega)
            })
            .collect::<Result<_, _>>()?;
        if let Some(i) = tracks.iter().position(|&t| t == 0) {
            return Err(SpecError::ZeroCapacity(1u64 << i));
        }
        if let Some(i) = tracks.windows(2).position(|w| w[1] < w[0]) {
            return Err(SpecError::Decreasing {
                p: 1u64 << i,
                c: tracks[i] / self.omega,
                parent_p: 1u64 << (i + 1),
                parent_c: tracks[i + 1] / self.omega,
            });
        }
        let leaf_side = ((self.alpha as f64).sqrt().ceil() as u64).max(tracks[0]);
        let mut sides = vec![leaf_side];
        for j in 1..=k as usize {
            let s = sides[j - 1];
            sides.push(2 * s + tracks[2 * j]);
        }
        Ok(Recurrence {
            sides,
            tracks,
            leaf_side,
        })
    }
}

/// The closed form of (4.1): `S(n) = sqrt(n) s1 + sum_{i<k} 2^i t(n / 4^i)`.
pub fn closed_form_side(r: &Recurrence) -> u64 {
    let k = r.sides.len() - 1;
    let mut s = (1u64 << k) * r.leaf_side;
    for i in 0..k {
        s += (1u64 << i) * r.tracks[2 * (k - i)];
    }
    s
}

/// Local-to-global map: `(x, y) -> (ox + x, oy + sy * y)`.
#[derive(Clone, Copy)]
struct Map {
    ox: i64,
    oy: i64,
    /// `(x, y) -> (ox + a x + b y, oy + c x + d y)`.
    a: i64,
    b: i64,
    c: i64,
    d: i64,
}

impl Map {
    const IDENTITY: Map = Map {
        ox: 0,
        oy: 0,
        a: 1,
        b: 0,
        c: 0,
        d: 1,
    };

    fn at(&self, x: i64, y: i64) -> P3 {
        P3::xy(
            self.ox + self.a * x + self.b * y,
            self.oy + self.c * x + self.d * y,
        )
    }

    /// The map of a sub-layout of side `side` placed at local `(bx, by)`,
    /// mirrored vertically when `orientation` says so.
    fn child(&self, bx: i64, by: i64, side: i64, orientation: Orientation) -> Map {
        let (by, sy) = match orientation {
            Orientation::Mirrored => (by + side - 1, -1),
            Orientation::Upright => (by, 1),
        };
        let o = self.at(bx, by);
        Map {
            ox: o.x,
            oy: o.y,
            a: self.a,
            b: self.b * sy,
            c: self.c,
            d: self.d * sy,
        }
    }

    /// A box given by local half-open ranges, as inclusive global corners.
    fn rect(&self, x0: i64, x1: i64, y0: i64, y1: i64) -> (P3, P3) {
        let (a, b) = (self.at(x0, y0), self.at(x1 - 1, y1 - 1));
        (
            P3::xy(a.x.min(b.x), a.y.min(b.y)),
            P3::xy(a.x.max(b.x), a.y.max(b.y)),
        )
    }
}

struct Builder<'a> {
    r: &'a Recurrence,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    processors: u64,
}

/// Node id of the binary-tree node with heap index `heap` (root 1, children
/// `2h` and `2h + 1`) in a tree of `n` leaves: leaves (`heap >= n`) are the
/// processors `heap - n`, the others `n + heap - 1`.
pub fn heap_id(heap: u64, n: u64) -> u32 {
    if heap >= n {
        (heap - n) as u32
    } else {
        (n + heap - 1) as u32
    }
}

impl Builder<'_> {
    fn node(&mut self, kind: &str, level: u32, heap: u64, (min, max): (P3, P3)) -> u32 {
        let id = heap_id(heap, self.processors);
        self.nodes.push(Node {
            id,
            kind: kind.to_string(),
            level,
            min,
            max,
        });
        id
    }

    fn wire(&mut self, from: u32, to: u32, a: P3, b: P3) {
        let id = self.edges.len() as u32;
        self.edges.push(Edge {
            id,
            from,
            to,
            path: if a == b { vec![a] } else { vec![a, b] },
        });
    }

    /// Lay out `F_j` under `map`; returns its root node id. The root's
    /// up-bundle leaves its box's top row (local) in columns
    /// `G_j .. G_j + t(4^j)`.
    fn build(&mut self, j: usize, map: Map, heap: u64) -> u32 {
        if j == 0 {
            let s1 = self.r.leaf_side as i64;
            return self.node("processor", 0, heap, map.rect(0, s1, 0, s1));
        }
        let s = self.r.sides[j - 1] as i64;
        let t = self.r.tracks[2 * j] as i64;
        let t_h = self.r.tracks[2 * j - 1] as i64;
        let t_q = self.r.tracks[2 * j - 2] as i64;
        let g = if j >= 2 {
            self.r.sides[j - 2] as i64
        } else {
            0
        };
        // The child's root box top row, in the child's local coordinates.
        let child_top = if j >= 2 {
            let s2 = self.r.sides[j - 2] as i64;
            s2 + t_q - 1
        } else {
            self.r.leaf_side as i64 - 1
        };
        let level = 2 * j as u32;
        let root = self.node("switch", level, heap, map.rect(s, s + t, s, s + t));
        let mut halves = [0u32; 2];
        for b in 0..2i64 {
            let x0 = b * (s + t) + g;
            let half = 2 * heap + b as u64;
            halves[b as usize] =
                self.node("switch", level - 1, half, map.rect(x0, x0 + t_q, s, s + t));
        }
        for b in 0..2i64 {
            for b2 in 0..2i64 {
                let orientation = if b2 == 1 {
                    Orientation::Mirrored
                } else {
                    Orientation::Upright
                };
                let cmap = map.child(b * (s + t), b2 * (s + t), s, orientation);
                let child = self.build(j - 1, cmap, 2 * (2 * heap + b as u64) + b2 as u64);
                // Up-bundle: from the child's root box top row to W_b.
                let w_row = if orientation == Orientation::Mirrored {
                    s + t - 1
                } else {
                    s
                };
                for i in 0..t_q {
                    let from = cmap.at(g + i, child_top);
                    let to = map.at(b * (s + t) + g + i, w_row);
                    self.wire(child, halves[b as usize], from, to);
                }
            }
        }
        for (b, &w) in halves.iter().enumerate() {
            for i in 0..t_h {
                let (wx, rx) = if b == 0 {
                    (g + t_q - 1, s)
                } else {
                    (s + t + g, s + t - 1)
                };
                self.wire(w, root, map.at(wx, s + i), map.at(rx, s + i));
            }
        }
        root
    }
}

/// The H-tree of the complete binary tree with `n` leaves, `n` a power of
/// 2: for `n = 4^k` the fat-tree of capacity 1; for `n = 2·4^k` two such
/// layouts of side `S` turned a quarter towards each other, their roots'
/// wires meeting the root in the one-column gap between them, so the
/// layout is `(2S + 1) x S`.
pub fn htree(n: u64) -> Result<Embedding, SpecError> {
    if n == 0 || !n.is_power_of_two() {
        return Err(SpecError::HtreeProcessors(n));
    }
    let spec = |processors| FatTreeSpec {
        processors,
        capacity: Capacity::One,
        omega: 1,
        alpha: 1,
    };
    if n.trailing_zeros() % 2 == 0 {
        return fat_tree(&spec(n)).map(|(e, _)| e);
    }
    let half = n / 2;
    let r = spec(half).recurrence()?;
    let k = r.sides.len() - 1;
    let s = r.sides[k] as i64;
    // The up-bundle column of a half, in its own coordinates, and the row
    // of its root box's top.
    let g = if k >= 1 { r.sides[k - 1] as i64 } else { 0 };
    let top = g; // t = 1: the root box is the point (g, g)
    let mut b = Builder {
        r: &r,
        nodes: Vec::new(),
        edges: Vec::new(),
        processors: n,
    };
    // Left half: local up (+y) points east; right half: local up points west.
    let left = Map {
        ox: 0,
        oy: s - 1,
        a: 0,
        b: 1,
        c: -1,
        d: 0,
    };
    let right = Map {
        ox: 2 * s,
        oy: s - 1,
        a: 0,
        b: -1,
        c: -1,
        d: 0,
    };
    let root_at = P3::xy(s, s - 1 - g);
    let root = b.node("switch", 2 * k as u32 + 1, 1, (root_at, root_at));
    for (heap, map) in [(2u64, left), (3u64, right)] {
        let child = b.build(k, map, heap);
        let from = map.at(g, top);
        b.wire(child, root, from, root_at);
    }
    let mut nodes = b.nodes;
    nodes.sort_unstable_by_key(|x| x.id);
    let mut parameters = BTreeMap::new();
    parameters.insert("processors".to_string(), n.to_string());
    parameters.insert("capacity".to_string(), "one".to_string());
    parameters.insert("omega".to_string(), "1".to_string());
    parameters.insert("alpha".to_string(), "1".to_string());
    Ok(Embedding {
        network: NetworkName::Htree,
        parameters,
        dimensions: 2,
        nodes,
        edges: b.edges,
    })
}

/// Lay out a fat-tree (or, with [`Capacity::One`], the H-tree).
pub fn fat_tree(spec: &FatTreeSpec) -> Result<(Embedding, Recurrence), SpecError> {
    let r = spec.recurrence()?;
    let k = r.sides.len() - 1;
    let mut b = Builder {
        r: &r,
        nodes: Vec::new(),
        edges: Vec::new(),
        processors: spec.processors,
    };
    b.build(k, Map::IDENTITY, 1);
    let mut nodes = b.nodes;
    nodes.sort_unstable_by_key(|n| n.id);
    let mut parameters = BTreeMap::new();
    parameters.insert("processors".to_string(), spec.processors.to_string());
    parameters.insert("capacity".to_string(), spec.capacity.spec());
    parameters.insert("omega".to_string(), spec.omega.to_string());
    parameters.insert("alpha".to_string(), spec.alpha.to_string());
    let network = if spec.capacity == Capacity::One && spec.omega == 1 && spec.alpha == 1 {
        NetworkName::Htree
    } else {
        NetworkName::FatTree
    };
    Ok((
        Embedding {
            network,
            parameters,
            dimensions: 2,
            nodes,
            edges: b.edges,
        },
        r,
    ))
}

mod construction;
mod network;

pub use construction::HtreeSpec;

pub(crate) use network::intended;

#[cfg(test)]
mod tests;
