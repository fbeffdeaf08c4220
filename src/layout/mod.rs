//! Grid embeddings of networks (Thompson's model; docs/formats.md section 4):
//! nodes are boxes of grid points, network edges are rectilinear paths.
//!
//! - [`Embedding`]: the model, 2-D (`z = 0` everywhere) or 3-D.
//! - [`check`]: the independent legality checker.
//! - [`metrics`]: bounding box, area or volume, wire lengths (total,
//!   maximum, per level), and wire delay for a delay function.
//! - [`Construction`]: a family's typed parameters build its embedding
//!   with its closed forms, its network twin and its figures;
//!   [`LayoutKind`] dispatches to the families.
//! - The families, each with its construction and network twin:
//!   [`fattree`] (fat-trees in H-tree style for a channel capacity
//!   function, the H-tree being the case of capacity 1), [`butterfly`]
//!   (butterfly and scalable fat-trees), [`tree_of_meshes`], [`folded`],
//!   [`pyramid`], [`fattree3d`] and [`butterfly_net`] (the butterfly
//!   `B(n)` in area `Θ(N^2)`, with the wire length of every link for the
//!   packet simulators) and [`mesh`] (the `d`-dimensional mesh and the
//!   folded torus, every wire of constant length, with the wire length of
//!   every link for the mesh simulators); [`pruned_butterfly`] (Bay and
//!   Bilardi's pruned butterfly as an H-tree, Fig. 3) and
//!   [`sorting_fat_tree`] (their sorting fat-tree: meshes at the leaves of
//!   an H-tree of sorter blocks, Fig. 5).
//! - [`twin`]: the network a layout realises against the one its file's
//!   parameters describe.
//!
//! # Example
//!
//! Build the fat-tree of 16 processors in H-tree style, check it with the
//! independent checker, confirm it realises the fat-tree its parameters
//! name, and hold its measures to the family's closed forms:
//!
//! ```
//! use fabric::layout::{check, metrics, LayoutKind, LayoutOptions};
//! use fabric::network::Network;
//!
//! let options = LayoutOptions {
//!     capacity: None,
//!     omega: 1,
//!     alpha: 1,
//!     levels: None,
//!     mesh_capacity: 1,
//!     dims: None,
//! };
//! let laid = LayoutKind::FatTree.construction(16, &options)?.build()?;
//! let embedding = &laid.embedding;
//! let verdict = check::check(embedding);
//! assert!(verdict.is_legal(), "{:?}", verdict.violations);
//! let network = Network::realised_by(embedding)?;
//! assert!(network.is_some(), "a fat-tree is a known network");
//! let m = metrics::measure(embedding);
//! laid.forms.check(&m, embedding.dimensions)?;
//! assert!(m.area >= 16, "every processor has a grid point of its own");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod butterfly;
pub mod butterfly_net;
pub mod check;
pub mod construction;
mod error;
pub mod fattree;
pub mod fattree3d;
pub mod folded;
mod frame;
pub mod kind;
pub mod mesh;
pub mod metrics;
mod network_name;
mod parameters;
pub mod pruned_butterfly;
pub mod pyramid;
pub mod sorting_fat_tree;
pub mod sweep;
pub mod tree_of_meshes;
pub mod twin;

pub use construction::{Construction, Dims, LayoutError, LayoutOptions};
pub use error::{DelayError, SpecError};
pub use kind::LayoutKind;
pub use network_name::NetworkName;
pub use parameters::ParameterError;

use std::collections::BTreeMap;

/// A grid point; 2-D embeddings keep `z = 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct P3 {
    /// First coordinate, in grid units (the width axis).
    pub x: i64,
    /// Second coordinate, in grid units (the height axis).
    pub y: i64,
    /// Third coordinate, in grid units (the depth axis; 0 in 2-D).
    pub z: i64,
}

impl P3 {
    /// The point `(x, y, z)`.
    pub const fn new(x: i64, y: i64, z: i64) -> P3 {
        P3 { x, y, z }
    }

    /// The point `(x, y)` of the plane `z = 0`, for 2-D embeddings.
    pub const fn xy(x: i64, y: i64) -> P3 {
        P3 { x, y, z: 0 }
    }
}

/// A network node: a box of grid points, bounds inclusive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The node's id, unique in the embedding; edges name nodes by it.
    pub id: u32,
    /// `processor`, `switch`, ... (free-form, as in docs/formats.md).
    pub kind: String,
    /// Level counted from the processors (level 0) upwards.
    pub level: u32,
    /// The box's corner with the smallest coordinates, included.
    pub min: P3,
    /// The box's corner with the largest coordinates, included.
    pub max: P3,
}

impl Node {
    /// True when `p` lies in the node's box (bounds included).
    pub fn contains(&self, p: P3) -> bool {
        self.min.x <= p.x
            && p.x <= self.max.x
            && self.min.y <= p.y
            && p.y <= self.max.y
            && self.min.z <= p.z
            && p.z <= self.max.z
    }
}

/// A network edge realised as a rectilinear path through its corner points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The edge's id, unique in the embedding.
    pub id: u32,
    /// Id of the node where the path starts.
    pub from: u32,
    /// Id of the node where the path ends.
    pub to: u32,
    /// Corner points from inside `from`'s box to inside `to`'s box;
    /// consecutive points differ in exactly one coordinate.
    pub path: Vec<P3>,
}

impl Edge {
    /// Unit grid edges along the path (saturating: a file's coordinates
    /// may span all of i64).
    pub fn length(&self) -> u64 {
        self.path
            .windows(2)
            .map(|w| {
                w[0].x
                    .abs_diff(w[1].x)
                    .saturating_add(w[0].y.abs_diff(w[1].y))
                    .saturating_add(w[0].z.abs_diff(w[1].z))
            })
            .fold(0, u64::saturating_add)
    }
}

/// A laid-out network.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Embedding {
    /// What was laid out (`htree`, `fat-tree`, ...).
    pub network: NetworkName,
    /// Its parameters, as written in the file.
    pub parameters: BTreeMap<String, String>,
    /// 2 or 3.
    pub dimensions: u32,
    /// The network's nodes with their boxes.
    pub nodes: Vec<Node>,
    /// The network's edges with their paths.
    pub edges: Vec<Edge>,
}

/// How a copy of a sub-layout is placed in its parent: as built, or
/// mirrored along one axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Orientation {
    /// As built.
    Upright,
    /// Mirrored.
    Mirrored,
}

/// A rectilinear path as its corner points: repeated points and points
/// where the path runs straight on are dropped (2-D paths have `z = 0`).
pub(crate) fn corners(points: Vec<P3>) -> Vec<P3> {
    let mut out: Vec<P3> = Vec::with_capacity(points.len());
    for p in points {
        if out.last() == Some(&p) {
            continue;
        }
        if out.len() >= 2 {
            let (a, b) = (out[out.len() - 2], out[out.len() - 1]);
            let straight = (a.x == b.x && b.x == p.x && a.y == b.y && b.y == p.y)
                || (a.x == b.x && b.x == p.x && a.z == b.z && b.z == p.z)
                || (a.y == b.y && b.y == p.y && a.z == b.z && b.z == p.z);
            if straight {
                out.pop();
            }
        }
        out.push(p);
    }
    out
}
