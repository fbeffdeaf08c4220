//! The pruned butterfly of Bay and Bilardi (`pruned-butterfly`) laid out
//! as an H-tree after their Fig. 3: every PB vertex a
//! node box, every PB edge a wire, for `N` a power of 4.
//!
//! The square `F_t` of the subtree of `m = 4^t` leaves, rooted at the
//! even level `i = n - 2t` (its root node has `s = 2^t = sqrt(m)`
//! vertices), has side `S_t`:
//!
//! - `S_0 = κ0 lg N`: a leaf is its terminal, a box of that side
//!   ([`PbLayoutSpec::kappa0`]);
//! - `S_t = 2 S_{t-1} + B_t` with the band `B_t = κ1 sqrt(m) + κ2 lg N`:
//!   four copies of `F_{t-1}` in the quadrants (the upper two mirrored
//!   vertically, so that every copy's up-bundle points at the centre),
//!   separated by a horizontal and a vertical band of width `B_t`. The
//!   `κ2 lg N` of the band is room for the node's `O(log N)` auxiliary
//!   circuitry (Lemma 2's adder and shift register), left empty here.
//!
//! In the horizontal band: the two odd-level child nodes (`s` vertices
//! each, one grid point a vertex) in the left and the right half, right
//! between their two quadrants' up-bundles, and the root node in the
//! centre, its vertex `u` a `2 x 1` box at columns `G_t + 2u, +1`, where
//! `G_t = S_{t-1} + (B_t - 2s)/2`. Vertex `u` of all three nodes lies on
//! the band's row `S_{t-1} + (B_t - s)/2 + u` (a staircase), so that
//!
//! - a child vertex's wire to the root vertex `u` (its single up-edge)
//!   runs straight along that row;
//! - the root vertex `u`'s two up-edges (to vertices `u` and `u + s` of
//!   the parent node) leave its box's two points straight up, through the
//!   band and the upper half of the vertical band: the up-bundle, its wire
//!   `p` at column `G_t + p` leading to parent vertex `p/2 + (p mod 2) s`;
//! - the quadrants' up-bundle wire `p` runs straight on into the band to
//!   the child vertex `p/2 + (p mod 2) s/2` (its down-edge), which sits in
//!   the column of that wire.
//!
//! Every wire is one straight segment; two wires meet only where a
//! horizontal one crosses a vertical one (`κ1 >= 2` gives the root's
//! `2 sqrt(m)` up-wires their columns). A leaf's two up-wires leave the
//! top of its terminal at columns `G_0 = (S_0 - 2)/2` and `G_0 + 1`.
//!
//! Closed form: `S_t = 2^t (κ0 + κ2) lg N + κ1 t 2^t - κ2 lg N`, so the
//! side is `Θ(sqrt(N) log N)` and the area `Θ(N log^2 N)`; the longest
//! wire (the quadrant-to-child and child-to-root wires of the top square)
//! is about `S_{t-1} / 2`, `Θ(sqrt(N) log N)`. Node levels count from the
//! leaves (`n - i`); leaves are processors, the other vertices switches.
//! Node ids are [`PrunedButterfly::index`].

mod network;

pub(crate) use network::intended;

use crate::layout::frame::{Frame, Mirror};
use std::collections::BTreeMap;

use super::check::MAX_POINTS;
use super::construction::{ClosedForms, Construction, Laid, LayoutError, Measured};
use super::{Edge, Embedding, NetworkName, Node, SpecError, P3};
use crate::network::Network;
use crate::sim::bb::graph::{PrunedButterfly, Vertex};

/// The default `κ0`: a leaf's terminal is a square of side `κ0 lg N`.
pub const KAPPA0: u64 = 1;
/// The default `κ1`: the band above `m` leaves is `κ1 sqrt(m) + κ2 lg N`
/// wide; at least 2, for the root node's `2 sqrt(m)` up-wires.
pub const KAPPA1: u64 = 2;
/// The default `κ2` (see [`KAPPA1`]).
pub const KAPPA2: u64 = 1;

/// Parameters of a pruned-butterfly layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PbLayoutSpec {
    /// Leaves (terminals) `N`, a power of 4 of at least 4.
    pub processors: u64,
    /// A terminal's side is `κ0 lg N` (at least 2).
    pub kappa0: u64,
    /// The band's width per `sqrt(m)`, at least 2.
    pub kappa1: u64,
    /// The band's width per `lg N`.
    pub kappa2: u64,
}

/// The recurrence's sides and bands of one spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PbRecurrence {
    /// `lg N`.
    pub lg: u64,
    /// `S_t` for `t = 0 ..= n/2`.
    pub sides: Vec<u64>,
    /// `B_t` for `t = 0 ..= n/2` (`B_0 = 0`, unused).
    pub bands: Vec<u64>,
}

impl PbRecurrence {
    /// The column of the first up-wire of `F_t`, in its own coordinates.
    fn bundle_column(&self, t: usize) -> u64 {
        if t == 0 {
            (self.sides[0] - 2) / 2
        } else {
            self.sides[t - 1] + (self.bands[t] - (2 << t)) / 2
        }
    }

    /// The band row of vertex 0 of `F_t`'s nodes, in its own coordinates.
    fn first_row(&self, t: usize) -> u64 {
        self.sides[t - 1] + (self.bands[t] - (1 << t)) / 2
    }
}

impl PbLayoutSpec {
    /// The spec of `N` leaves with the default `κ`s.
    pub fn new(processors: u64) -> PbLayoutSpec {
        PbLayoutSpec {
            processors,
            kappa0: KAPPA0,
            kappa1: KAPPA1,
            kappa2: KAPPA2,
        }
    }

    /// The graph laid out; refused unless `N` is a power of 4, at least 4.
    pub fn graph(&self) -> Result<PrunedButterfly, SpecError> {
        PrunedButterfly::new(self.processors).ok_or(SpecError::NotPowerOfFour {
            processors: self.processors,
            family: "the pruned butterfly",
        })
    }

    /// Check the parameters and evaluate the recurrence.
    pub fn recurrence(&self) -> Result<PbRecurrence, SpecError> {
        let pb = self.graph()?;
        if self.kappa1 < 2 || self.kappa0.saturating_mul(pb.n() as u64) < 2 {
            return Err(SpecError::Bad("pruned-butterfly (κ0 lg N >= 2, κ1 >= 2)"));
        }
        let rec = evaluate(pb.n(), self.kappa0, self.kappa1, self.kappa2)
            .ok_or(SpecError::Bad("pruned-butterfly (too large)"))?;
        let side = *rec.sides.last().expect("n/2 + 1 sides");
        if side.saturating_mul(side) > MAX_POINTS {
            return Err(SpecError::AreaBeyondChecker {
                width: side,
                height: side,
                max_points: MAX_POINTS,
            });
        }
        Ok(rec)
    }

    /// The longest wire by the geometry of the module comment, wire class
    /// by wire class (independent of the builder).
    pub fn longest_wire(&self) -> Result<u64, SpecError> {
        let r = self.recurrence()?;
        let mut longest = 0;
        for t in 1..r.sides.len() {
            let (q, band, s) = (r.sides[t - 1], r.bands[t], 1u64 << t);
            let (g, g_q, rho) = (r.bundle_column(t), r.bundle_column(t - 1), r.first_row(t));
            for p in 0..s {
                // Quadrant wire p to child vertex u (its column g_q + p).
                let u = p / 2 + (p % 2) * (s / 2);
                let row = rho + u;
                let (below, above) = if t == 1 {
                    // From the leaf's top row, q - 1, or the upper leaf's
                    // bottom row, q + band.
                    (row - (q - 1), q + band - row)
                } else {
                    let v = r.first_row(t - 1) + p / 2; // in the quadrant
                    (row - v, (q + band + (q - 1 - v)) - row)
                };
                // Child vertex u to root vertex u, left and right.
                let left = g + 2 * u - (g_q + p);
                let right = (q + band + g_q + p) - (g + 2 * u + 1);
                longest = longest.max(below).max(above).max(left).max(right);
            }
        }
        Ok(longest)
    }
}

/// `S_t` and `B_t` for `n = lg N` and the `κ`s; `None` past `u64`.
pub fn evaluate(n: u32, k0: u64, k1: u64, k2: u64) -> Option<PbRecurrence> {
    let lg = n as u64;
    let mut sides = vec![k0.checked_mul(lg)?];
    let mut bands = vec![0];
    for t in 1..=(n / 2) {
        let band = k1.checked_mul(1 << t)?.checked_add(k2.checked_mul(lg)?)?;
        let side = sides[t as usize - 1].checked_mul(2)?.checked_add(band)?;
        bands.push(band);
        sides.push(side);
    }
    Some(PbRecurrence { lg, sides, bands })
}

/// The closed form `S_t = 2^t (κ0 + κ2) lg N + κ1 t 2^t - κ2 lg N` at
/// `t = n/2`.
pub fn closed_form_side(n: u32, k0: u64, k1: u64, k2: u64) -> u64 {
    let (t, lg) = (n as u64 / 2, n as u64);
    (1u64 << t) * ((k0 + k2) * lg + k1 * t) - k2 * lg
}

struct Builder<'a> {
    pb: PrunedButterfly,
    r: &'a PbRecurrence,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
}

impl Builder<'_> {
    fn node(&mut self, v: Vertex, (min, max): (P3, P3)) -> u32 {
        let id = self.pb.index(v) as u32;
        let kind = if v.i == self.pb.n() {
            "processor"
        } else {
            "switch"
        };
        self.nodes.push(Node {
            id,
            kind: kind.to_string(),
            level: self.pb.n() - v.i,
            min,
            max,
        });
        id
    }

    fn wire(&mut self, from: u32, to: u32, a: P3, b: P3) {
        let id = self.edges.len() as u32;
        let path = if a == b { vec![a] } else { vec![a, b] };
        self.edges.push(Edge { id, from, to, path });
    }

    /// Lay out `F_t` of node `j` at level `n - 2t` under `map`; its
    /// up-bundle, wire `p` as (root vertex id, the wire's first point).
    fn build(&mut self, t: usize, map: Frame, j: u32) -> Vec<(u32, P3)> {
        let n = self.pb.n();
        let r = self.r;
        if t == 0 {
            let side = r.sides[0];
            let id = self.node(Vertex { i: n, j, k: 0 }, map.rect(0, side, 0, side));
            let g = r.bundle_column(0);
            return (0..2).map(|p| (id, map.at(g + p, side - 1))).collect();
        }
        let (q, band, s) = (r.sides[t - 1], r.bands[t], 1u64 << t);
        let i = n - 2 * t as u32;
        let (g, g_q, rho) = (r.bundle_column(t), r.bundle_column(t - 1), r.first_row(t));
        let mut roots = Vec::with_capacity(s as usize);
        for u in 0..s {
            let box_ = map.rect(g + 2 * u, g + 2 * u + 2, rho + u, rho + u + 1);
            roots.push(self.node(Vertex { i, j, k: u as u32 }, box_));
        }
        for b in 0..2u64 {
            let x0 = b * (q + band);
            let child_node = 2 * j + b as u32;
            // The child node's vertex u sits in the column of the
            // quadrants' wire p with p/2 + (p mod 2) s/2 = u.
            let mut child = vec![(0u32, P3::default()); s as usize];
            for p in 0..s {
                let u = p / 2 + (p % 2) * (s / 2);
                let at = map.at(x0 + g_q + p, rho + u);
                let v = Vertex {
                    i: i + 1,
                    j: child_node,
                    k: u as u32,
                };
                child[u as usize] = (self.node(v, (at, at)), at);
            }
            for c in 0..2u64 {
                let mirror = if c == 1 {
                    Mirror::Flipped
                } else {
                    Mirror::Upright
                };
                let cmap = map.child(x0, c * (q + band), q, mirror);
                let bundle = self.build(t - 1, cmap, 2 * child_node + c as u32);
                for (p, &(from, start)) in bundle.iter().enumerate() {
                    let (to, end) = child[p / 2 + (p % 2) * (s as usize / 2)];
                    self.wire(from, to, start, end);
                }
            }
            for (u, &(from, start)) in child.iter().enumerate() {
                let end = map.at(g + 2 * u as u64 + b, rho + u as u64);
                self.wire(from, roots[u], start, end);
            }
        }
        (0..2 * s)
            .map(|p| (roots[(p / 2) as usize], map.at(g + p, rho + p / 2)))
            .collect()
    }
}

/// Lay out the pruned butterfly of `spec`.
pub fn pruned_butterfly(spec: &PbLayoutSpec) -> Result<(Embedding, PbRecurrence), SpecError> {
    let r = spec.recurrence()?;
    let pb = spec.graph()?;
    let mut b = Builder {
        pb,
        r: &r,
        nodes: Vec::with_capacity(pb.vertex_count() as usize),
        edges: Vec::with_capacity(pb.edge_count() as usize),
    };
    b.build(r.sides.len() - 1, Frame::IDENTITY, 0);
    let mut nodes = b.nodes;
    nodes.sort_unstable_by_key(|x| x.id);
    let mut parameters = BTreeMap::new();
    parameters.insert("processors".to_string(), spec.processors.to_string());
    parameters.insert("kappa0".to_string(), spec.kappa0.to_string());
    parameters.insert("kappa1".to_string(), spec.kappa1.to_string());
    parameters.insert("kappa2".to_string(), spec.kappa2.to_string());
    let embedding = Embedding {
        network: NetworkName::PrunedButterfly,
        parameters,
        dimensions: 2,
        nodes,
        edges: b.edges,
    };
    Ok((embedding, r))
}

/// The recurrence the figures name.
const RECURRENCE: &str = "S(m) = 2 S(m/4) + κ1 sqrt(m) + κ2 lg N, S(1) = κ0 lg N; closed form";

impl Construction for PbLayoutSpec {
    fn build(&self) -> Result<Laid, LayoutError> {
        let (embedding, r) = pruned_butterfly(self)?;
        let side = *r.sides.last().expect("n/2 + 1 sides");
        let n = r.lg as u32;
        let closed = closed_form_side(n, self.kappa0, self.kappa1, self.kappa2);
        Ok(Laid {
            embedding,
            forms: ClosedForms::square(side, closed, Some(self.longest_wire()?)),
        })
    }

    fn network(&self) -> Result<Network, LayoutError> {
        Ok(Network::pruned_butterfly(self.processors)?)
    }

    fn figures(&self, m: &Measured) -> Vec<String> {
        let n = m.laid.embedding.nodes.len();
        let pb = self.graph();
        let mut out = vec![m.recurrence_line(RECURRENCE)];
        let Ok(pb) = pb else { return out };
        let lg = pb.n() as u64;
        let Some(r) = evaluate(pb.n(), self.kappa0, self.kappa1, self.kappa2) else {
            return out;
        };
        let ones = evaluate(pb.n(), 1, 1, 1)
            .map(|x| x.sides)
            .unwrap_or_default();
        out.push(format!(
            "  κ0 = {}, κ1 = {}, κ2 = {}: S(4^t) for t = 0 .. {} is {:?}; with every κ = 1 (an illustration, not buildable: κ1 < 2) {:?}",
            self.kappa0,
            self.kappa1,
            self.kappa2,
            lg / 2,
            r.sides,
            ones
        ));
        let big_n = self.processors as f64;
        let (lgf, me) = (lg as f64, m.metrics);
        out.push(format!(
            "  {n} vertices (4N - 3 sqrt N = {}), {} edges (6N - 6 sqrt N = {}); area / (N lg^2 N) = {:.3}, longest wire / (sqrt N lg N) = {:.3}",
            pb.vertex_count(),
            m.laid.embedding.edges.len(),
            pb.edge_count(),
            me.area as f64 / (big_n * lgf * lgf),
            me.max_wire_length as f64 / (big_n.sqrt() * lgf)
        ));
        out
    }
}

#[cfg(test)]
mod tests;
