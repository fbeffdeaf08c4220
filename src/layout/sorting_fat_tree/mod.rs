//! The sorting fat-tree of Bay and Bilardi (`sorting-fat-tree`) after
//! their Fig. 5: `N` terminals in `L x L` meshes at
//! the leaves of an H-tree fat-tree whose nodes are flexible-sorter
//! blocks, every channel wired at its capacity.
//!
//! Sizes: `N` a power of 4 and the mesh side `L` a power of 2 (by default
//! the least one `>= lg N`) with `M = N / L^2 >= 4` meshes,
//! `M` a power of 4: `N = 256` (`L = 8`), 1024, 4096, 16384, 65536
//! (`L = 16`). Others are refused.
//!
//! Network: terminals `0 .. N` (mesh `g` in leaf order, row `r`, column
//! `c` is `g L^2 + r L + c`), joined as `L x L` meshes; the tree's
//! `M - 1` sorters, heap index `h` (root 1) with id `N + h - 1` at level
//! `lg M - depth(h)` (1 above two meshes). Channels: each mesh's top row
//! `r = L - 1` sends one link per column to its parent sorter (`L`
//! wires); a sorter above `m` terminals sends `cap(m)` links to its
//! parent, `sqrt(m)` for `m` an even power of 2 and `sqrt(2m)` for odd.
//!
//! Layout `F_t` of a subtree of `4^t` meshes (`m = 4^t L^2` terminals,
//! `s = sqrt(m)`), a `W_t x H_t` rectangle:
//!
//! - `F_0` is a mesh: terminal boxes of side `T = τ lg N` at pitch
//!   `T + 1`, mesh links two long across the gaps; `W_0 = H_0 = L (T+1) - 1`.
//!   Its channel leaves the tops of the top-row terminals.
//! - `F_t`: both the root sorter `R` (`m` terminals) and its two children
//!   `C_0`, `C_1` (`m/2`) are `ξ s x ξ s lg N` blocks (spec: a
//!   `(b, sqrt n, n/2)` and a `(b, 2 sqrt n, n)` sorter both fit). `C_b`
//!   lies in the horizontal band (height `ξ s`) of the left or right half
//!   (width `Wh = max(W_{t-1}, ξ s lg N)`), `R` stands in the central
//!   vertical band (width `ξ s`), spanning the band. Four copies of
//!   `F_{t-1}` lie in the quadrants against the central bands, the upper
//!   two mirrored vertically. So `W_t = 2 Wh + ξ s` and
//!   `H_t = max(2 H_{t-1} + ξ s, ξ s lg N)`: the `H(n)` and `V(n)` of the
//!   paper's recurrence.
//! - Wires: each quadrant's channel (`s/2` wires) runs straight from its
//!   root (the copy's `R`, or its mesh's top row) into `C_b`; `C_b`'s
//!   channel to `R` (`s` wires) runs straight across the one column
//!   between them; `R`'s channel (`s` wires) leaves its top, straight up
//!   the vertical band to the top of `F_t`, and on into the parent.
//!
//! Every wire is straight and no two meet. The side is `Θ(sqrt(N) log N)`
//! (the recurrence gives `W ≈ ξ sqrt(N) (2 lg N + lg M / 2)`, a gap in the
//! paper's accounting: the paper's `2 ξ sqrt(N) lg N` does not survive the `H(n)`
//! recurrence taken literally), so the area is `Θ(N log^2 N)`.

mod network;

pub(crate) use network::intended;

use crate::layout::frame::{Frame, Mirror};
use std::collections::BTreeMap;

use super::check::MAX_POINTS;
use super::construction::{ClosedForms, Construction, Laid, LayoutError, Measured};
use super::{Edge, Embedding, NetworkName, Node, SpecError, P3};
use crate::network::Network;

/// The default `ξ`: a sorter block is `ξ sqrt(m) x ξ sqrt(m) lg N`.
pub const XI: u64 = 1;
/// The default `τ`: a terminal is a square of side `τ lg N`.
pub const TAU: u64 = 1;

/// Parameters of a sorting fat-tree layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SftLayoutSpec {
    /// Terminals `N`.
    pub processors: u64,
    /// The mesh side `L`.
    pub mesh_side: u64,
    /// Sorter block scale `ξ >= 1`.
    pub xi: u64,
    /// Terminal side per `lg N`, `τ >= 1`.
    pub tau: u64,
}

/// The shape of one sorting fat-tree: its sizes and the recurrence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SftShape {
    /// `lg N`.
    pub lg: u64,
    /// `L`.
    pub mesh_side: u64,
    /// Meshes `M = N / L^2`.
    pub meshes: u64,
    /// A terminal's side `T`.
    pub terminal: u64,
    /// `(W_t, H_t)` for `t = 0 ..= lg M / 2`.
    pub sizes: Vec<(u64, u64)>,
}

impl SftShape {
    /// `ξ s_t`: the sorter blocks' thickness in `F_t`.
    fn thick(&self, xi: u64, t: usize) -> u64 {
        xi * (self.mesh_side << t)
    }

    /// The half width `Wh` of `F_t`.
    fn half(&self, xi: u64, t: usize) -> u64 {
        self.sizes[t - 1].0.max(self.thick(xi, t) * self.lg)
    }
}

/// The capacity of the channel above a subtree of `m` terminals (a power
/// of 2): `sqrt(m)` for an even power, `sqrt(2m)` for an odd one.
pub fn capacity(m: u64) -> u64 {
    let e = m.trailing_zeros();
    1 << e.div_ceil(2)
}

impl SftLayoutSpec {
    /// The spec of `N` terminals with the default mesh side (the least
    /// power of 2 at least `lg N`) and the default `ξ` and `τ`.
    pub fn new(processors: u64) -> SftLayoutSpec {
        let lg = processors.max(2).ilog2() as u64;
        SftLayoutSpec {
            processors,
            mesh_side: lg.next_power_of_two(),
            xi: XI,
            tau: TAU,
        }
    }

    /// Check the parameters and evaluate the recurrence.
    pub fn shape(&self) -> Result<SftShape, SpecError> {
        let (n, l) = (self.processors, self.mesh_side);
        let bad = SpecError::SortingFatTreeSize {
            processors: n,
            mesh_side: l,
        };
        let pow4 = |x: u64| x.is_power_of_two() && x.trailing_zeros() % 2 == 0;
        if !pow4(n) || !l.is_power_of_two() || l < 2 || l.saturating_mul(l) > n / 4 {
            return Err(bad);
        }
        let meshes = n / (l * l);
        if !pow4(meshes) || self.xi == 0 || self.tau == 0 {
            return Err(bad);
        }
        let lg = n.ilog2() as u64;
        let terminal = self.tau.checked_mul(lg).ok_or(bad.clone())?;
        let base = l
            .checked_mul(terminal + 1)
            .ok_or(bad.clone())?
            .saturating_sub(1);
        let mut shape = SftShape {
            lg,
            mesh_side: l,
            meshes,
            terminal,
            sizes: vec![(base, base)],
        };
        for t in 1..=(meshes.trailing_zeros() / 2) as usize {
            let thick = self.xi.checked_mul(l << t).ok_or(bad.clone())?;
            let long = thick.checked_mul(lg).ok_or(bad.clone())?;
            let (w, h) = shape.sizes[t - 1];
            let width = 2 * w.max(long) + thick;
            let height = (2 * h + thick).max(long);
            shape.sizes.push((width, height));
        }
        let &(w, h) = shape.sizes.last().expect("t = 0 at least");
        if w.saturating_mul(h) > MAX_POINTS {
            return Err(SpecError::AreaBeyondChecker {
                width: w,
                height: h,
                max_points: MAX_POINTS,
            });
        }
        Ok(shape)
    }
}

struct Builder<'a> {
    spec: &'a SftLayoutSpec,
    shape: &'a SftShape,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
}

/// A channel's wires as (node id, first point), and the columns they take.
type Bundle = Vec<(u32, P3)>;

impl Builder<'_> {
    fn node(&mut self, id: u32, kind: &str, level: u32, (min, max): (P3, P3)) -> u32 {
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
        let path = if a == b { vec![a] } else { vec![a, b] };
        self.edges.push(Edge { id, from, to, path });
    }

    /// Mesh `g` under `map`; its channel.
    fn mesh(&mut self, g: u64, map: Frame) -> Bundle {
        let (l, t) = (self.shape.mesh_side, self.shape.terminal);
        let pitch = t + 1;
        let id = |r: u64, c: u64| (g * l * l + r * l + c) as u32;
        for r in 0..l {
            for c in 0..l {
                let (x, y) = (c * pitch, r * pitch);
                self.node(id(r, c), "processor", 0, map.rect(x, x + t, y, y + t));
            }
        }
        for r in 0..l {
            for c in 0..l {
                let (x, y) = (c * pitch, r * pitch);
                if c + 1 < l {
                    let (a, b) = (map.at(x + t - 1, y + t / 2), map.at(x + pitch, y + t / 2));
                    self.wire(id(r, c), id(r, c + 1), a, b);
                }
                if r + 1 < l {
                    let (a, b) = (map.at(x + t / 2, y + t - 1), map.at(x + t / 2, y + pitch));
                    self.wire(id(r, c), id(r + 1, c), a, b);
                }
            }
        }
        (0..l)
            .map(|c| {
                (
                    id(l - 1, c),
                    map.at(c * pitch + t / 2, (l - 1) * pitch + t - 1),
                )
            })
            .collect()
    }

    /// `F_t` of heap node `h` under `map`; its channel (empty at the root).
    fn build(&mut self, t: usize, map: Frame, h: u64) -> Result<Bundle, SpecError> {
        let shape = self.shape;
        if t == 0 {
            return Ok(self.mesh(h - shape.meshes, map));
        }
        let xi = self.spec.xi;
        let hgt = shape.sizes[t].1;
        let (qw, qh) = shape.sizes[t - 1];
        let (thick, half) = (shape.thick(xi, t), shape.half(xi, t));
        let long = thick * shape.lg;
        let s = shape.mesh_side << t;
        let sorter = |heap: u64| (shape.meshes * shape.mesh_side.pow(2) + heap - 1) as u32;
        let depth = 63 - h.leading_zeros() as u64;
        let level = (shape.meshes.trailing_zeros() as u64 - depth) as u32;
        // The band's rows and the root sorter's, centred on it.
        let yb = (hgt - thick) / 2;
        let y_r = (yb + thick / 2).saturating_sub(long / 2).min(hgt - long);
        if y_r > yb || y_r + long < yb + s {
            return Err(SpecError::Bad(
                "sorting-fat-tree (root sorter beside its band)",
            ));
        }
        let root = self.node(
            sorter(h),
            "switch",
            level,
            map.rect(half, half + thick, y_r, y_r + long),
        );
        for b in 0..2u64 {
            let x_c = if b == 0 { half - long } else { half + thick };
            let child = sorter(2 * h + b);
            self.node(
                child,
                "switch",
                level - 1,
                map.rect(x_c, x_c + long, yb, yb + thick),
            );
            // The quadrants, against the central bands.
            let x_q = if b == 0 { half - qw } else { half + thick };
            for c in 0..2u64 {
                let (y_q, mirror) = if c == 0 {
                    (yb - qh, Mirror::Upright)
                } else {
                    (yb + thick, Mirror::Flipped)
                };
                let cmap = map.child(x_q, y_q, qh, mirror);
                let bundle = self.build(t - 1, cmap, 2 * (2 * h + b) + c)?;
                let row = if c == 0 { yb } else { yb + thick - 1 };
                for (from, start) in bundle {
                    let x = map.column(start) as u64;
                    if x < x_c || x >= x_c + long {
                        return Err(SpecError::Bad(
                            "sorting-fat-tree (channel beside its sorter)",
                        ));
                    }
                    self.wire(from, child, start, map.at(x, row));
                }
            }
            // C_b to R across the column between them.
            let (xa, xb) = if b == 0 {
                (half - 1, half)
            } else {
                (half + thick, half + thick - 1)
            };
            for p in 0..s {
                self.wire(child, root, map.at(xa, yb + p), map.at(xb, yb + p));
            }
        }
        let x0 = half + (thick - s) / 2;
        Ok(if t == shape.sizes.len() - 1 {
            Vec::new()
        } else {
            (0..s)
                .map(|p| (root, map.at(x0 + p, y_r + long - 1)))
                .collect()
        })
    }
}

/// Lay out the sorting fat-tree of `spec`.
pub fn sorting_fat_tree(spec: &SftLayoutSpec) -> Result<(Embedding, SftShape), SpecError> {
    let shape = spec.shape()?;
    let mut b = Builder {
        spec,
        shape: &shape,
        nodes: Vec::new(),
        edges: Vec::new(),
    };
    b.build(shape.sizes.len() - 1, Frame::IDENTITY, 1)?;
    let mut nodes = b.nodes;
    nodes.sort_unstable_by_key(|x| x.id);
    let mut parameters = BTreeMap::new();
    parameters.insert("processors".to_string(), spec.processors.to_string());
    parameters.insert("mesh_side".to_string(), spec.mesh_side.to_string());
    parameters.insert("xi".to_string(), spec.xi.to_string());
    parameters.insert("tau".to_string(), spec.tau.to_string());
    let embedding = Embedding {
        network: NetworkName::SortingFatTree,
        parameters,
        dimensions: 2,
        nodes,
        edges: b.edges,
    };
    Ok((embedding, shape))
}

/// The recurrence the figures name.
const RECURRENCE: &str =
    "W = 2 max(W(m/4), ξ sqrt(m) lg N) + ξ sqrt(m), H = max(2 H(m/4) + ξ sqrt(m), ξ sqrt(m) lg N)";

impl Construction for SftLayoutSpec {
    fn build(&self) -> Result<Laid, LayoutError> {
        let (embedding, shape) = sorting_fat_tree(self)?;
        let &(w, h) = shape.sizes.last().expect("t = 0 at least");
        let mut forms = ClosedForms::square(h, h, None);
        forms.width = w;
        Ok(Laid { embedding, forms })
    }

    fn network(&self) -> Result<Network, LayoutError> {
        let shape = self.shape()?;
        Ok(Network::sorting_fat_tree(self.processors, shape.mesh_side))
    }

    fn figures(&self, m: &Measured) -> Vec<String> {
        let forms = &m.laid.forms;
        let mut out = vec![format!(
            "  {} x {} = recurrence {RECURRENCE}; verified legal ({} crossings), realises its network; {:.3} ms",
            forms.width,
            forms.side,
            m.crossings,
            m.seconds * 1e3
        )];
        let Ok(shape) = self.shape() else { return out };
        let (n, lg) = (self.processors as f64, shape.lg as f64);
        let caps: Vec<String> = (0..=shape.meshes.trailing_zeros())
            .map(|e| {
                let terminals = shape.mesh_side.pow(2) << e;
                format!("{terminals}:{}", capacity(terminals))
            })
            .collect();
        out.push(format!(
            "  {} meshes of {} x {} terminals (side {}), ξ = {}; channel capacity above m terminals (m:cap) {}",
            shape.meshes,
            shape.mesh_side,
            shape.mesh_side,
            shape.terminal,
            self.xi,
            caps.join(" ")
        ));
        let me = m.metrics;
        out.push(format!(
            "  width {} against the paper's side 2 ξ sqrt(N) lg N = {}; area / (N lg^2 N) = {:.3}, longest wire / (sqrt N lg N) = {:.3}",
            me.width,
            2 * self.xi * (1u64 << (shape.lg / 2)) * shape.lg,
            me.area as f64 / (n * lg * lg),
            me.max_wire_length as f64 / (n.sqrt() * lg)
        ));
        out
    }
}

#[cfg(test)]
mod tests;
