//! Fat-trees in three dimensions (thesis sections 5.2-5.3, Theorems 25
//! and 26): a recursive cube layout whose gaps are
//! thin slabs, so that a channel of `t` wires crosses a gap of thickness
//! about `t / S` instead of `sqrt t`.
//!
//! For `n = 8^k` processors and wire counts `t(p) = ω c(p)` above a subtree
//! of `p` leaves, the layout `C_j` of a subtree of `8^j` leaves is a cube of
//! side `S_j = 2 S_{j-1} + h_j` (`S_0 = s0 = ceil(sqrt t(1))`, the
//! processor's box):
//!
//! - eight copies of `C_{j-1}` in the corners, the upper four mirrored in
//!   `z`, separated by gap slabs of thickness `h_j` at `[S_{j-1}, S_{j-1} +
//!   h_j)` in `x`, `y` and `z`;
//! - the three binary levels of the cube's top are plates in the `z` gap:
//!   for each half `a` in `x` and `b` in `y`, the node `P_ab` above the two
//!   copies `(a, b, ·)` (a box over the copies' up-bundles), between the two
//!   `P_a·` the node `Q_a` above them, and in the `x` gap the root `R`;
//! - every channel is a bundle of straight wires: the copies' up-bundles run
//!   in `z` from their roots through the copies' own `x` gap slabs into
//!   `P_ab`; `P_ab` to `Q_a` and `Q_a` to `R` are wires one unit long across
//!   the faces where the plates touch;
//! - `R` spans `ℓ_j` rows in `y` (its band), so its own up-bundle, `t(8^j)`
//!   wires in the `x` gap slab above it, has `h_j ℓ_j >= t(8^j)` places.
//!
//! `h_j` is the least thickness for which the cross-sections hold the wires
//! (`t(2·8^{j-1}) <= S_{j-1} h_j`, `max(t(4·8^{j-1}), t(8^j)) <= ℓ_j h_j`)
//! and the bands nest (`P_a0`, `Q_a`, `P_a1` fit side by side in `y` with
//! `Q_a` covering `R`'s band). With `c(p) = p^(2/3) / lg V` the thickness is
//! about `c 2^j / (ρ_j lg V)` with `ρ_j = S_{j-1} / 2^{j-1}`, so `ρ^2` grows
//! by `O(1 / lg V)` per level, over `lg V / 3` levels: `S_k / 2^k` stays
//! bounded and the volume is `O(V)` (Theorem 26); the longest wire is an
//! up-bundle, `S_{k-2} + 1`. When `h_j = 1` the two copies' up-bundles end
//! at the same points inside `P` (allowed: the checker's sharing rules hold
//! outside node boxes).
//! Levels count binary levels from the processors (0): `P` at `3j - 2`, `Q`
//! at `3j - 1`, `R` at `3j`; ids follow the binary fat-tree of
//! [`crate::network::Network::binary_fat_tree`] (heap order, `x` half first,
//! then `y`, then `z`).

use std::collections::BTreeMap;

use super::construction::{ClosedForms, Construction, Laid, LayoutError, LayoutOptions, Measured};
use super::fattree::heap_id;
use super::fattree::Capacity;
use super::parameters::{FileParameters, ParameterError};
use super::{Edge, Embedding, NetworkName, Node, Orientation, SpecError, P3};
use crate::network::Network;

/// Parameters of a 3-D fat-tree layout.
#[derive(Clone, Debug, PartialEq)]
pub struct FatTree3dSpec {
    /// Number of processors, a power of 8.
    pub processors: u64,
    /// The channel capacity function `c(p)` (for Theorem 26's `O(V)`
    /// volume, [`Capacity::TwoThirdsOverLg`]).
    pub capacity: Capacity,
    /// Wires per unit of capacity: 1 or 2.
    pub omega: u64,
}

/// The sizes of every level: cube sides, gap thicknesses, root bands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// `S_0 .. S_k`.
    pub sides: Vec<u64>,
    /// `h_1 .. h_k` (index 0 holds `s0`: the processor is its own gap).
    pub gaps: Vec<u64>,
    /// `ℓ_0 .. ℓ_k`: the `y` extent of each level's root band.
    pub bands: Vec<u64>,
    /// `t(2^i)` for `i = 0 .. 3k`.
    pub tracks: Vec<u64>,
}

impl FatTree3dSpec {
    /// `k` with `processors = 8^k`; an error unless it is a power of 8.
    pub fn k(&self) -> Result<u32, SpecError> {
        super::fattree::levels_of(self.processors, 3, "the 3-D fat-tree layout")
    }

    /// Wire counts per binary level and the sizes of every level.
    pub fn plan(&self) -> Result<Plan, SpecError> {
        let k = self.k()?;
        super::fattree::check_omega(self.omega)?;
        let too_big = || SpecError::CubeTooLarge;
        let tracks: Vec<u64> = (0..=3 * k)
            .map(|i| {
                self.capacity
                    .at_level(i, self.processors, 1)
                    .and_then(|c| c.checked_mul(self.omega).ok_or_else(too_big))
            })
            .collect::<Result<_, _>>()?;
        if let Some(i) = tracks.iter().position(|&t| t == 0) {
            return Err(SpecError::ZeroCapacityAtLevel(i));
        }
        // The processor's side: the least s with s^2 >= t(1).
        let s0 = (tracks[0] as f64).sqrt() as u64;
        let s0 = (s0.saturating_sub(1)..)
            .find(|&s| s.checked_mul(s).is_none_or(|q| q >= tracks[0]))
            .expect("a square root");
        let mut sides = vec![s0];
        let mut gaps = vec![s0];
        let mut bands = vec![s0];
        for j in 1..=k as usize {
            let (s1, l1) = (sides[j - 1], bands[j - 1]);
            let t2 = tracks[3 * j - 2];
            let t34 = tracks[3 * j - 1].max(tracks[3 * j]);
            // Every condition gets easier as h grows: find the least h by
            // doubling, then bisection.
            let mut hi = t2.div_ceil(s1).max(1);
            while fits(s1, l1, t2, t34, hi).is_none() {
                hi = hi
                    .checked_mul(2)
                    .filter(|&h| h < 1 << 40)
                    .ok_or_else(too_big)?;
            }
            let mut lo = t2.div_ceil(s1).max(1);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if fits(s1, l1, t2, t34, mid).is_some() {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            let band = fits(s1, l1, t2, t34, hi).expect("checked above");
            let side = s1
                .checked_mul(2)
                .and_then(|x| x.checked_add(hi))
                .filter(|&x| x < 1 << 40)
                .ok_or_else(too_big)?;
            sides.push(side);
            gaps.push(hi);
            bands.push(band);
        }
        Ok(Plan {
            sides,
            gaps,
            bands,
            tracks,
        })
    }
}

/// Whether a gap of thickness `h` holds level `j`'s channels, given the
/// copies' side `s1` and band `l1`, `t2 = t(2·8^{j-1})` and
/// `t34 = max(t(4·8^{j-1}), t(8^j))`; `R`'s band when it does. `P_a0` ends
/// at `r1 + l1 <= r0` (the start of `R`'s band) and `P_a1` starts at
/// `s1 + h + r1 >= r0 + band`; `P -> Q` needs `t2 <= s1 h`, `Q -> R` and
/// `R`'s up-bundle `t34 <= band h`.
fn fits(s1: u64, l1: u64, t2: u64, t34: u64, h: u64) -> Option<u64> {
    let band = t34.div_ceil(h).max(1);
    let side = 2 * s1 + h;
    let r1 = (s1 - l1) / 2;
    let r0 = (side - band.min(side)) / 2;
    (t2 <= s1.saturating_mul(h) && band <= side && r1 + l1 <= r0 && r0 + band <= s1 + h + r1)
        .then_some(band)
}

/// The layout's longest wire: an up-bundle of the top level, `S_{k-2} + 1`
/// (every other wire is one unit long; a lone processor has none).
pub fn longest_wire(plan: &Plan) -> u64 {
    let k = plan.sides.len() - 1;
    match k {
        0 => 0,
        1 => 1,
        _ => plan.sides[k - 2] + 1,
    }
}

/// Maps a cube's local coordinates to the global ones: a shift, and `z`
/// mirrored when `flip` (the upper copies).
#[derive(Clone, Copy, Debug)]
struct Frame {
    o: P3,
    flip: bool,
}

impl Frame {
    fn at(&self, x: i64, y: i64, z: i64) -> P3 {
        P3::new(
            self.o.x + x,
            self.o.y + y,
            if self.flip {
                self.o.z - z
            } else {
                self.o.z + z
            },
        )
    }

    /// A copy placed at `(dx, dy, dz)` in this frame, mirrored in `z`
    /// (relative to this frame) when `orientation` says so, its side being
    /// `side`.
    fn child(&self, dx: i64, dy: i64, dz: i64, orientation: Orientation, side: i64) -> Frame {
        let flip = orientation == Orientation::Mirrored;
        let local_origin = if flip {
            self.at(dx, dy, dz + side - 1)
        } else {
            self.at(dx, dy, dz)
        };
        Frame {
            o: local_origin,
            flip: self.flip != flip,
        }
    }

    /// The global box of a local box (bounds inclusive).
    fn boxed(&self, lo: (i64, i64, i64), hi: (i64, i64, i64)) -> (P3, P3) {
        let (a, b) = (self.at(lo.0, lo.1, lo.2), self.at(hi.0, hi.1, hi.2));
        (
            P3::new(a.x.min(b.x), a.y.min(b.y), a.z.min(b.z)),
            P3::new(a.x.max(b.x), a.y.max(b.y), a.z.max(b.z)),
        )
    }
}

struct Builder<'a> {
    plan: &'a Plan,
    n: u64,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
}

impl Builder<'_> {
    fn node(&mut self, heap: u64, level: u32, b: (P3, P3)) {
        let kind = if level == 0 { "processor" } else { "switch" };
        self.nodes.push(Node {
            id: heap_id(heap, self.n),
            kind: kind.into(),
            level,
            min: b.0,
            max: b.1,
        });
    }

    fn wire(&mut self, from: u64, to: u64, a: P3, b: P3) {
        let id = self.edges.len() as u32;
        self.edges.push(Edge {
            id,
            from: heap_id(from, self.n),
            to: heap_id(to, self.n),
            path: if a == b { vec![a] } else { vec![a, b] },
        });
    }

    /// Lay out the subtree of `8^j` leaves whose root has heap index `heap`
    /// in `frame`.
    fn cube(&mut self, j: usize, heap: u64, frame: Frame) {
        let p = self.plan;
        if j == 0 {
            let s = p.sides[0] as i64 - 1;
            self.node(heap, 0, frame.boxed((0, 0, 0), (s, s, s)));
            return;
        }
        let (s1, h) = (p.sides[j - 1] as i64, p.gaps[j] as i64);
        let (l1, band) = (p.bands[j - 1] as i64, p.bands[j] as i64);
        let side = 2 * s1 + h;
        let r1 = (s1 - l1) / 2;
        let r0 = (side - band) / 2;
        let (g0, g1) = (s1, s1 + h - 1); // the gaps, inclusive
        let level = 3 * j as u32;
        // The copies' roots' up-faces, in the copy's frame: x in its x gap,
        // y in its band, z on the top of its z gap.
        let (cx0, cx1, ctop) = if j == 1 {
            (0, s1 - 1, s1 - 1)
        } else {
            let (s2, hc) = (p.sides[j - 2] as i64, p.gaps[j - 1] as i64);
            (s2, s2 + hc - 1, s2 + hc - 1)
        };
        let t1 = p.tracks[3 * j - 3] as usize;
        let t2 = p.tracks[3 * j - 2] as usize;
        let t3 = p.tracks[3 * j - 1] as usize;
        // R in the x gap, over its band, in the z gap.
        self.node(
            heap,
            level,
            frame.boxed((g0, r0, g0), (g1, r0 + band - 1, g1)),
        );
        for a in 0..2i64 {
            let q = 2 * heap + a as u64;
            let xa = a * (s1 + h);
            let (y1, y2) = (r1 + l1, s1 + h + r1 - 1); // Q's rows
            self.node(
                q,
                level - 1,
                frame.boxed((xa, y1, g0), (xa + s1 - 1, y2, g1)),
            );
            // Q_a to R across the face x = g0 - 1 | g0 (a = 0) or
            // g1 | g1 + 1 (a = 1): one wire per (y, z) of R's band.
            let (qx, rx) = if a == 0 { (g0 - 1, g0) } else { (g1 + 1, g1) };
            for w in 0..t3 as i64 {
                let (y, z) = (r0 + w % band, g0 + w / band);
                self.wire(q, heap, frame.at(qx, y, z), frame.at(rx, y, z));
            }
            for b in 0..2i64 {
                let pp = 2 * q + b as u64;
                let yb = b * (s1 + h);
                // P over the copies' up-bundles (rows of their bands), the
                // whole half in x.
                let (py0, py1) = (yb + r1, yb + r1 + l1 - 1);
                self.node(
                    pp,
                    level - 2,
                    frame.boxed((xa, py0, g0), (xa + s1 - 1, py1, g1)),
                );
                // P to Q across P's face towards the middle.
                let (py, qy) = if b == 0 {
                    (py1, py1 + 1)
                } else {
                    (py0, py0 - 1)
                };
                for w in 0..t2 as i64 {
                    let (x, z) = (xa + w % s1, g0 + w / s1);
                    self.wire(pp, q, frame.at(x, py, z), frame.at(x, qy, z));
                }
                for c in 0..2i64 {
                    let child = 2 * pp + c as u64;
                    let zc = c * (s1 + h);
                    let orientation = if c == 1 {
                        Orientation::Mirrored
                    } else {
                        Orientation::Upright
                    };
                    let cf = frame.child(xa, yb, zc, orientation, s1);
                    self.cube(j - 1, child, cf);
                    // The copy's up-bundle: straight in z from its root's
                    // up-face into P's near face.
                    let width = cx1 - cx0 + 1;
                    let pz = if c == 0 { g0 } else { g1 };
                    for w in 0..t1 as i64 {
                        let (x, y) = (cx0 + w % width, r1 + w / width);
                        let start = cf.at(x, y, ctop);
                        let end = frame.at(xa + x, yb + y, pz);
                        self.wire(child, pp, start, end);
                    }
                }
            }
        }
    }
}

/// The 3-D fat-tree layout and its plan.
pub fn fat_tree_3d(spec: &FatTree3dSpec) -> Result<(Embedding, Plan), SpecError> {
    let plan = spec.plan()?;
    let side = *plan.sides.last().expect("k + 1 sides");
    if side.saturating_pow(3) > super::check::MAX_POINTS {
        return Err(SpecError::BeyondChecker {
            side,
            max_points: super::check::MAX_POINTS,
        });
    }
    let k = plan.sides.len() - 1;
    let mut b = Builder {
        plan: &plan,
        n: spec.processors,
        nodes: Vec::new(),
        edges: Vec::new(),
    };
    let frame = Frame {
        o: P3::new(0, 0, 0),
        flip: false,
    };
    b.cube(k, 1, frame);
    let mut nodes = b.nodes;
    nodes.sort_by_key(|n| n.id);
    let mut parameters = BTreeMap::new();
    parameters.insert("processors".into(), spec.processors.to_string());
    parameters.insert("capacity".into(), spec.capacity.spec());
    parameters.insert("omega".into(), spec.omega.to_string());
    Ok((
        Embedding {
            network: NetworkName::FatTree3d,
            parameters,
            dimensions: 3,
            nodes,
            edges: b.edges,
        },
        plan,
    ))
}

impl FatTree3dSpec {
    /// The spec `fabric layout fat-tree-3d --size n` asks for (`--capacity`
    /// defaults to `two-thirds-over-lg`; processors have unit area, so
    /// `--alpha` is refused).
    pub fn from_options(n: u64, o: &LayoutOptions) -> Result<FatTree3dSpec, LayoutError> {
        if o.alpha != 1 {
            return Err(LayoutError::UnitProcessors);
        }
        Ok(FatTree3dSpec {
            processors: n,
            capacity: o.capacity.clone().unwrap_or(Capacity::TwoThirdsOverLg),
            omega: o.omega,
        })
    }
}

impl Construction for FatTree3dSpec {
    fn build(&self) -> Result<Laid, LayoutError> {
        let (embedding, plan) = fat_tree_3d(self)?;
        let k = plan.sides.len() - 1;
        // Closed form of S_j = 2 S_(j-1) + h_j: 2^k s0 + sum 2^(k-j) h_j.
        let closed = (plan.sides[0] << k) + (1..=k).map(|j| plan.gaps[j] << (k - j)).sum::<u64>();
        let side = *plan.sides.last().expect("k + 1 sides");
        Ok(Laid {
            embedding,
            forms: ClosedForms::square(side, closed, Some(longest_wire(&plan))),
        })
    }

    fn network(&self) -> Result<Network, LayoutError> {
        let plan = self.plan()?;
        Ok(Network::binary_fat_tree(
            "fat-tree-3d",
            self.processors,
            &plan.tracks,
        ))
    }

    /// The figures against the recurrence and Theorem 26.
    fn figures(&self, m: &Measured) -> Vec<String> {
        let plan = self.plan().expect("the plan of a layout built");
        let size = self.processors;
        let n = size as f64;
        let metrics = m.metrics;
        // Root capacity c(n), without omega's up/down doubling.
        let w = (*plan.tracks.last().expect("tracks") / self.omega) as f64;
        let thm26 = n.max((w * w.max(2.0).log2()).powf(1.5));
        vec![
            format!(
                "  side {} = recurrence S_j = 2 S_(j-1) + h_j = closed form {}; gaps h_j {:?}, root bands {:?}; verified legal ({} crossings), realises its network; {:.3} ms",
                m.laid.forms.side,
                m.laid.forms.closed,
                &plan.gaps[1..],
                &plan.bands[1..],
                m.crossings,
                m.seconds * 1e3
            ),
            format!(
                "  volume / V = {:.3} (V = n = {size}); Theorem 26: volume / max(V, (w lg w)^(3/2)) = {:.3} with root capacity w = {w}; longest wire / V^(1/3) = {:.3}",
                metrics.area as f64 / n,
                metrics.area as f64 / thm26,
                metrics.max_wire_length as f64 / n.cbrt()
            ),
        ]
    }
}

/// The intended network of a `fat-tree-3d` layout file.
pub(crate) fn intended(p: &FileParameters) -> Result<Network, ParameterError> {
    let spec = FatTree3dSpec {
        processors: p.processors()?,
        capacity: Capacity::parse(p.text_or("capacity", "two-thirds-over-lg"))?,
        omega: if p.has("omega") { p.num("omega")? } else { 1 },
    };
    let plan = spec.plan()?;
    p.fits_links(Network::binary_fat_tree_links(
        spec.processors,
        &plan.tracks,
    ))?;
    Ok(Network::binary_fat_tree(
        "fat-tree-3d",
        spec.processors,
        &plan.tracks,
    ))
}

#[cfg(test)]
mod tests;
