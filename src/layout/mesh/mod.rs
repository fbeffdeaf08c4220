//! The `d`-dimensional mesh and torus of side `n` (`mesh`, `torus`) on the
//! grid, for `d = 1, 2` (laid out in the plane) and `d = 3` (in space).
//!
//! Network: node `(i_1, ..., i_d)`, `0 <= i_k < n`, has id
//! `i_1 + i_2 n + i_3 n^2`, and every node is a processor at level 0 (a PU
//! with its router). The mesh joins the nodes that differ by 1 in one
//! coordinate: `d n^(d-1) (n - 1)` links. The torus makes every axis a ring
//! by adding the wrap-around link from `i_k = n - 1` to `i_k = 0`: `d n^d`
//! links, every node of degree `2d`. The torus needs `n >= 3`; at `n = 2`
//! each wrap-around link would join the two nodes its mesh link joins, and
//! the family refuses it ([`SpecError::TorusSide`]). A layout file's
//! parameters are `side` (`n`) and `dims` (`d`).
//!
//! Mesh layout: node `(i_1, i_2, i_3)` is the grid point `(i_1, i_2, i_3)`
//! (`y = 0` for `d = 1`, `z = 0` for `d <= 2`), and every link is a unit
//! wire between neighbouring points. The nodes fill an `n x ... x n` box
//! (`n x 1` for `d = 1`).
//!
//! Torus layout ([`TORUS_PITCH`], [`TORUS_BOX`]):
//! - **Folding.** Along each axis the ring's nodes lie in the interleaved
//!   order `0, n-1, 1, n-2, 2, ...`: ring node `k` is at position `2k` for
//!   `2k < n`, else at `2 (n - 1 - k) + 1` ([`fold`]). Ring neighbours are
//!   then one or two positions apart. The `n - 2` *chain* links join
//!   positions `q` and `q + 2` (the even chain for even `q`, the odd chain
//!   for odd `q`). The two *end* links join positions `0, 1` and
//!   `n - 2, n - 1`; one of them is the wrap-around link.
//! - **Nodes.** A node is a box of side 3 along each torus axis (side 1
//!   along `y` for `d = 1`), at pitch 5. Along an axis that carries tracks
//!   the boxes start at 1 when the odd tracks below them are used
//!   (`n >= 4`), and at 0 otherwise.
//! - **Wires along axis `a`.** Axis `b = a + 1` (modulo the layout's
//!   dimensions) is `a`'s side axis: `y` for `x`; `x` for `y` in 2-D and
//!   `z` in 3-D; `x` for `z`. Every coordinate other than `a` and `b` is the
//!   box's middle.
//!   - An end link runs straight along `a`, from the middle cell of the low
//!     node's upper `a`-face to the middle cell of the high node's lower
//!     `a`-face: 3 long.
//!   - A chain link leaves the low node's upper `a`-face along `b` to its
//!     track, runs along `a` past the node between, and enters the high
//!     node's lower `a`-face along `b`: `1 + 8 + 1 = 10` long, two
//!     pitches. The even chain uses the face cells with the largest `b` and
//!     the track just past the boxes; the odd chain uses those with the
//!     smallest `b` and the track just before them.
//! - **Legality.** Every wire leaves its node by a unit edge of its own.
//!   Along axis `a` a node uses the middle cells of its two `a`-faces (end
//!   links) and two cells of one `b`-face (chain links). The axis whose
//!   side axis is `a` uses cells of the `a`-faces off their middle. The
//!   even track of one row of boxes and the odd track of the next are
//!   different lines (pitch 5 = box 3 + two tracks), and in 3-D the tracks
//!   of the three axes lie on lines of their own. A chain link turns only
//!   beside its own two nodes, where no other wire turns. Other wires meet
//!   it only where they cross straight through it: the end links and the
//!   tracks of the other axes, and the other chain's links leaving their
//!   nodes. Crossings, no knock-knees.
//!
//! Closed forms ([`Forms`]; the tests measure them exactly):
//!
//! | | mesh | torus |
//! | --- | --- | --- |
//! | side (width, height, depth) | `n` (height 1 for `d = 1`) | `5n`, or `5n - 1` for `n = 3`; for `d = 1` width `5n - 2` and height 3 (2 for `n = 3`) |
//! | area (volume) | `n^d` | the product of the sides |
//! | longest wire | 1 | 10 for every `n`: two pitches |
//! | total wire length | `d n^(d-1) (n - 1)` | `d n^(d-1) (10n - 14)` |
//! | crossings | none | none for `d = 1`; `4 (n - 1) (n - 2)` for `d = 2`; `6n (n - 2)` for `d = 3` |
//!
//! Crossings of the torus: along one axis, the two chains' links together
//! pass over `2 (n - 2)` of the `n - 1` gaps between node positions,
//! counted with the chain (gap `g` lies under an even-chain link for even
//! `g <= n - 3` and odd `g <= n - 2`, under an odd-chain one for odd
//! `g <= n - 3` and even `2 <= g <= n - 2`), and over the middles of the
//! nodes at positions `1 .. n - 2`. In the plane a track of one axis
//! crosses a track of the other wherever both pass over gaps,
//! `(2 (n - 2))^2` points, and an end link crosses one track of the other
//! axis when its own row lies at positions `1 .. n - 2`, `2 (n - 2)` per
//! axis: `4 (n - 1) (n - 2)` in all. In space the tracks of the three axes
//! lie on lines apart; only the end links of axis `b` cross the tracks of
//! the axis `a` whose side axis `b` is, `2 (n - 2)` in each of `n` layers
//! per axis: `6n (n - 2)`.

mod figures;
mod network;

pub(crate) use network::intended;
pub use network::link_lengths;

use std::collections::BTreeMap;

use super::check::MAX_POINTS;
use super::construction::{
    Bound, ClosedForms, Construction, Dims, Laid, LayoutError, LayoutOptions, Measured,
};
use super::{Edge, Embedding, NetworkName, Node, SpecError, P3};
use crate::network::Network;

/// The torus's node pitch along each torus axis: a box and two tracks.
pub const TORUS_PITCH: u64 = 5;

/// The side of a torus node's box along each torus axis.
pub const TORUS_BOX: u64 = 3;

/// The length of a torus's chain link (positions `q` to `q + 2`), its
/// longest wire: `2 TORUS_PITCH - (TORUS_BOX - 1)` along its axis and a
/// unit step to its track and back.
pub const TORUS_CHAIN_WIRE: u64 = 2 * TORUS_PITCH - (TORUS_BOX - 1) + 2;

/// The length of a torus's end link (positions `q` to `q + 1`).
pub const TORUS_END_WIRE: u64 = TORUS_PITCH - (TORUS_BOX - 1);

// Every wire spans two node pitches at most.
const _: () = assert!(TORUS_CHAIN_WIRE <= 2 * TORUS_PITCH && TORUS_END_WIRE <= TORUS_PITCH);

/// Mesh or torus: whether the lines of the array close into rings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Topology {
    /// Neighbours along each axis joined, no wrap-around.
    Mesh,
    /// Every axis a ring: the mesh and its wrap-around links.
    Torus,
}

impl std::fmt::Display for Topology {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Topology {
    /// The name layout files and the command line give it.
    pub fn name(self) -> &'static str {
        match self {
            Topology::Mesh => "mesh",
            Topology::Torus => "torus",
        }
    }

    /// The `network` a layout file names.
    pub fn network_name(self) -> NetworkName {
        match self {
            Topology::Mesh => NetworkName::Mesh,
            Topology::Torus => NetworkName::Torus,
        }
    }

    /// The least side: 2 for the mesh, 3 for the torus (whose wrap-around
    /// links would double the mesh links at 2).
    pub fn least_side(self) -> u64 {
        match self {
            Topology::Mesh => 2,
            Topology::Torus => 3,
        }
    }

    /// Refuses a side below [`Topology::least_side`].
    pub fn check_side(self, n: u64) -> Result<(), SpecError> {
        if n >= self.least_side() {
            return Ok(());
        }
        Err(match self {
            Topology::Mesh => SpecError::MeshSide(n),
            Topology::Torus => SpecError::TorusSide(n),
        })
    }

    /// Nodes and links of the network of side `n` in `dims` dimensions,
    /// `n^d` and `d n^(d-1) (n - 1)` (mesh) or `d n^d` (torus); `None` past
    /// `u64`. `n` must be at least 1.
    pub fn counts(self, n: u64, dims: Dims) -> Option<(u64, u64)> {
        let d = dims.count();
        let nodes = n.checked_pow(d)?;
        let rings = (d as u64).checked_mul(n.checked_pow(d - 1)?)?;
        let per_ring = match self {
            Topology::Mesh => n - 1,
            Topology::Torus => n,
        };
        Some((nodes, rings.checked_mul(per_ring)?))
    }
}

/// The node after node `v` along axis `a` in the network of side `n`:
/// `i_a + 1`, modulo `n` for the torus; `None` for a mesh node with
/// `i_a = n - 1`. `v` must be a node (`v < n^d`, `a < d`).
pub fn successor(topology: Topology, n: u64, v: u64, a: u32) -> Option<u64> {
    let stride = n.pow(a);
    if (v / stride) % n + 1 < n {
        Some(v + stride)
    } else {
        match topology {
            Topology::Mesh => None,
            Topology::Torus => Some(v - (n - 1) * stride),
        }
    }
}

/// The position of ring node `k` of `n` in the folded order
/// `0, n-1, 1, n-2, ...`: `2k` for `2k < n`, else `2 (n - 1 - k) + 1`.
pub fn fold(n: u64, k: u64) -> u64 {
    if 2 * k < n {
        2 * k
    } else {
        2 * (n - 1 - k) + 1
    }
}

/// A mesh or torus to lay out: its side `n` (at least 2, or 3 for the
/// torus) and dimensions, small enough for the legality checker's raster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeshSpec {
    topology: Topology,
    side: u64,
    dims: Dims,
}

impl MeshSpec {
    /// The network of `topology` of side `side` in `dims` dimensions
    /// (`fabric layout mesh|torus --size --dims`): refused, before anything
    /// is built, for a side below the least or a layout of more than the
    /// checker's [`MAX_POINTS`] grid points.
    pub fn new(topology: Topology, side: u64, dims: Dims) -> Result<MeshSpec, SpecError> {
        topology.check_side(side)?;
        let [width, height, depth] = closed_sides(topology, side, dims);
        if width.saturating_mul(height).saturating_mul(depth) > MAX_POINTS {
            return Err(match dims {
                Dims::Three => SpecError::BeyondChecker {
                    side: width,
                    max_points: MAX_POINTS,
                },
                Dims::One | Dims::Two => SpecError::AreaBeyondChecker {
                    width,
                    height,
                    max_points: MAX_POINTS,
                },
            });
        }
        Ok(MeshSpec {
            topology,
            side,
            dims,
        })
    }

    /// The spec `fabric layout mesh|torus --size n` asks for, `--dims`
    /// (default 2) from the options.
    pub fn from_options(
        topology: Topology,
        size: u64,
        o: &LayoutOptions,
    ) -> Result<MeshSpec, SpecError> {
        MeshSpec::new(topology, size, o.dims.unwrap_or_default())
    }

    /// Mesh or torus.
    pub fn topology(&self) -> Topology {
        self.topology
    }

    /// The side `n`.
    pub fn side(&self) -> u64 {
        self.side
    }

    /// The dimensions `d`.
    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// Nodes and links, `n^d` and those of [`Topology::counts`] (a spec's
    /// layout fits the checker's raster, so both fit in `u64`).
    pub fn counts(&self) -> (u64, u64) {
        self.topology
            .counts(self.side, self.dims)
            .expect("a spec fits the checker's raster")
    }
}

/// The closed forms of a mesh's or torus's layout (module comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forms {
    /// Grid points along `x`.
    pub width: u64,
    /// Grid points along `y`.
    pub height: u64,
    /// Grid points along `z` (1 in 2-D).
    pub depth: u64,
    /// `width · height · depth`: the area in 2-D, the volume in 3-D.
    pub area: u64,
    /// 1 for the mesh, [`TORUS_CHAIN_WIRE`] = 10 for the torus.
    pub longest_wire: u64,
    /// `d n^(d-1) (n - 1)` for the mesh, `d n^(d-1) (10n - 14)` for the
    /// torus.
    pub total_wire_length: u64,
    /// Wires crossing straight through each other: none in the mesh and
    /// the ring; `4 (n - 1) (n - 2)` in the plane and `6n (n - 2)` in
    /// space for the torus.
    pub crossings: u64,
}

/// Width, height and depth by the closed forms of the module comment
/// (saturating, for sides no spec takes).
fn closed_sides(topology: Topology, n: u64, dims: Dims) -> [u64; 3] {
    match (topology, dims) {
        (Topology::Mesh, Dims::One) => [n, 1, 1],
        (Topology::Mesh, Dims::Two) => [n, n, 1],
        (Topology::Mesh, Dims::Three) => [n, n, n],
        // The boxes span 5n - 2; tracks add one line past them (n >= 3)
        // and one before them (n >= 4).
        (Topology::Torus, Dims::One) => [n.saturating_mul(5) - 2, 2 + (n >= 4) as u64, 1],
        (Topology::Torus, Dims::Two | Dims::Three) => {
            let s = n.saturating_mul(5) - 1 + (n >= 4) as u64;
            [s, s, if dims == Dims::Three { s } else { 1 }]
        }
    }
}

impl MeshSpec {
    /// The closed forms of this spec's layout.
    pub fn forms(&self) -> Forms {
        let [width, height, depth] = closed_sides(self.topology, self.side, self.dims);
        let (n, d) = (self.side, self.dims.count());
        let rings = d as u64 * n.pow(d - 1);
        let (longest_wire, per_ring) = match self.topology {
            Topology::Mesh => (1, n - 1),
            Topology::Torus => (
                TORUS_CHAIN_WIRE,
                (n - 2) * TORUS_CHAIN_WIRE + 2 * TORUS_END_WIRE,
            ),
        };
        let crossings = match (self.topology, self.dims) {
            (Topology::Mesh, _) | (Topology::Torus, Dims::One) => 0,
            (Topology::Torus, Dims::Two) => 4 * (n - 1) * (n - 2),
            (Topology::Torus, Dims::Three) => 6 * n * (n - 2),
        };
        Forms {
            width,
            height,
            depth,
            area: width * height * depth,
            longest_wire,
            total_wire_length: rings * per_ring,
            crossings,
        }
    }
}

/// Where a spec's layout puts its nodes and wires.
struct Geometry {
    spec: MeshSpec,
    /// The layout's dimensions, 2 or 3.
    layout: usize,
    /// A node box's side along each layout axis.
    boxes: [i64; 3],
    /// The node pitch along the network's axes.
    pitch: i64,
    /// The box corner of the nodes at position 0, per layout axis.
    origin: [i64; 3],
}

/// Whether chain tracks run along a layout axis's side of the boxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tracks {
    /// The even chains' tracks, just past the boxes.
    after: bool,
    /// The odd chains' tracks, just before the boxes.
    before: bool,
}

impl Geometry {
    fn new(spec: MeshSpec) -> Geometry {
        let d = spec.dims.count() as usize;
        let layout = spec.dims.layout_dimensions() as usize;
        let mut g = Geometry {
            spec,
            layout,
            boxes: [1; 3],
            pitch: 1,
            origin: [0; 3],
        };
        if spec.topology == Topology::Torus {
            g.pitch = TORUS_PITCH as i64;
            for ax in 0..layout {
                if ax < d {
                    g.boxes[ax] = TORUS_BOX as i64;
                }
                g.origin[ax] = g.tracks(ax).before as i64;
            }
        }
        g
    }

    /// The side axis of network axis `a`: the layout axis its chain links
    /// step along to reach their tracks.
    fn side_axis(&self, a: usize) -> usize {
        (a + 1) % self.layout
    }

    /// The chain tracks beside the boxes along layout axis `ax`: those of
    /// the network axis whose side axis it is (the even chain has a link
    /// for `n >= 3`, the odd chain for `n >= 4`).
    fn tracks(&self, ax: usize) -> Tracks {
        let d = self.spec.dims.count() as usize;
        let hosts =
            self.spec.topology == Topology::Torus && (0..d).any(|a| self.side_axis(a) == ax);
        Tracks {
            after: hosts && self.spec.side >= 3,
            before: hosts && self.spec.side >= 4,
        }
    }

    /// The position of coordinate `i` along its axis.
    fn position(&self, i: u64) -> u64 {
        match self.spec.topology {
            Topology::Mesh => i,
            Topology::Torus => fold(self.spec.side, i),
        }
    }

    /// The coordinates of node `v` (0 past `d`).
    fn coords(&self, v: u64) -> [u64; 3] {
        let n = self.spec.side;
        let d = self.spec.dims.count();
        std::array::from_fn(|a| {
            if (a as u32) < d {
                (v / n.pow(a as u32)) % n
            } else {
                0
            }
        })
    }

    /// The corner of the box of the node at coordinates `c`.
    fn corner(&self, c: &[u64; 3]) -> [i64; 3] {
        let d = self.spec.dims.count() as usize;
        std::array::from_fn(|ax| {
            let step = if ax < d {
                self.pitch * self.position(c[ax]) as i64
            } else {
                0
            };
            self.origin[ax] + step
        })
    }

    /// Grid points the layout spans along layout axis `ax`, by the
    /// placement: from the odd tracks (or the first boxes) to the even
    /// tracks (or the last boxes' far side).
    fn extent(&self, ax: usize) -> u64 {
        if ax >= self.layout {
            return 1;
        }
        let t = self.tracks(ax);
        let count = if ax < self.spec.dims.count() as usize {
            self.spec.side as i64
        } else {
            1
        };
        let first = self.origin[ax] - t.before as i64;
        let last = self.origin[ax] + self.pitch * (count - 1) + self.boxes[ax] - 1 + t.after as i64;
        (last - first + 1) as u64
    }

    /// Node `v` with its box.
    fn node(&self, v: u64) -> Node {
        let min = self.corner(&self.coords(v));
        let max: [i64; 3] = std::array::from_fn(|ax| min[ax] + self.boxes[ax] - 1);
        Node {
            id: v as u32,
            kind: "processor".into(),
            level: 0,
            min: P3::new(min[0], min[1], min[2]),
            max: P3::new(max[0], max[1], max[2]),
        }
    }

    /// The path of the link along axis `a` from the node at `from` to its
    /// successor at `to`.
    fn path(&self, a: usize, from: &[u64; 3], to: &[u64; 3]) -> Vec<P3> {
        let (pf, pt) = (self.position(from[a]), self.position(to[a]));
        let (lo, hi) = if pf < pt { (from, to) } else { (to, from) };
        let b = self.side_axis(a);
        // The cell `along` into the box along a and `side` along b, in
        // the middle of the box along the other axes.
        let at = |node: &[u64; 3], along: i64, side: i64| {
            let c = self.corner(node);
            let mut p: [i64; 3] = std::array::from_fn(|ax| c[ax] + (self.boxes[ax] - 1) / 2);
            p[a] = c[a] + along;
            p[b] = c[b] + side;
            P3::new(p[0], p[1], p[2])
        };
        let top = self.boxes[a] - 1;
        let mut path = if pf.abs_diff(pt) == 1 {
            // A mesh link, or a torus end link.
            let middle = (self.boxes[b] - 1) / 2;
            vec![at(lo, top, middle), at(hi, 0, middle)]
        } else {
            // A chain link, on the track of its chain.
            let (port, track) = if pf.min(pt) % 2 == 0 {
                (self.boxes[b] - 1, self.boxes[b])
            } else {
                (0, -1)
            };
            vec![
                at(lo, top, port),
                at(lo, top, track),
                at(hi, 0, track),
                at(hi, 0, port),
            ]
        };
        if pf > pt {
            path.reverse();
        }
        path
    }
}

/// The layout of the mesh or torus of `spec` (module comment): nodes in id
/// order, then the links by axis and node, each from a node to its
/// successor ([`successor`]).
pub fn mesh_layout(spec: MeshSpec) -> Embedding {
    let g = Geometry::new(spec);
    let (count, links) = spec.counts();
    let nodes = (0..count).map(|v| g.node(v)).collect();
    let mut edges: Vec<Edge> = Vec::with_capacity(links as usize);
    for a in 0..spec.dims.count() {
        for v in 0..count {
            if let Some(w) = successor(spec.topology, spec.side, v, a) {
                edges.push(Edge {
                    id: edges.len() as u32,
                    from: v as u32,
                    to: w as u32,
                    path: g.path(a as usize, &g.coords(v), &g.coords(w)),
                });
            }
        }
    }
    let mut parameters = BTreeMap::new();
    parameters.insert("side".to_string(), spec.side.to_string());
    parameters.insert("dims".to_string(), spec.dims.count().to_string());
    Embedding {
        network: spec.topology.network_name(),
        parameters,
        dimensions: spec.dims.layout_dimensions(),
        nodes,
        edges,
    }
}

impl Construction for MeshSpec {
    fn build(&self) -> Result<Laid, LayoutError> {
        let g = Geometry::new(*self);
        let f = self.forms();
        // The height by the placement beside the closed forms; the width
        // by its closed form (the tests hold the placement's to it too).
        Ok(Laid {
            embedding: mesh_layout(*self),
            forms: ClosedForms {
                side: g.extent(1),
                width: f.width,
                closed: f.height,
                max_wire: Some(f.longest_wire),
                bound: Bound::Exact,
            },
        })
    }

    fn network(&self) -> Result<Network, LayoutError> {
        Ok(Network::mesh_or_torus(self.topology, self.side, self.dims)?)
    }

    fn figures(&self, m: &Measured) -> Vec<String> {
        figures::figures(*self, m)
    }
}

#[cfg(test)]
mod tests;
