//! Randomized k-k routing on d-dimensional meshes and tori (Kaufmann and
//! Sibeyn, "Randomized multi-packet routing on meshes").
//!
//! [`shape`] is the array: PUs as indices, directed links, the ways along
//! a line. [`plan`] says what each packet does in each phase (a [`Leg`]
//! along one axis), how phases start and who wins a link. [`engine`] routes
//! a plan step by step, store-and-forward, with a plain simulator kept for
//! tests (`reference`) to cross-check it; [`oracle`] holds the exact
//! one-dimensional results of the paper's section 5 (Lemmas 2 and 7) and
//! the upper bounds of Lemmas 4 and 10, computed independently of the
//! engine. [`worm`] routes the cut-through model instead: one worm of k
//! flits per source follows the plan by virtual cut-through with link
//! reservation, cross-checked against a plain simulator of its own.
//! [`traffic`] makes the k-k problems and [`algorithm`] the plans of the
//! paper's algorithms; [`run`] runs a trial and holds it against the
//! lower bounds of [`bounds`].

#![warn(missing_docs)]

pub mod algorithm;
pub mod bounds;
pub mod engine;
pub mod oracle;
pub mod plan;
#[cfg(test)]
pub(crate) mod reference;
pub mod run;
pub mod shape;
pub mod traffic;
pub mod worm;

pub use engine::{route, route_with, Config, Outcome};
pub use plan::{Gates, Leg, Phasing, Plan, Strategy};
pub use shape::{Dir, Pu, Shape, ShapeError, Topology};

/// Why a mesh routing problem cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MeshError {
    /// The array itself.
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// k-LS on an odd side.
    #[error("the large shift needs an even side, not {0}")]
    OddShift(u32),
    /// Local traffic with a locality that does not fit.
    #[error("locality {l} does not fit a {topology} of side {n}: it needs 1 <= L <= n/2{}", if *topology == Topology::Mesh { " and n a multiple of 2L" } else { "" })]
    Locality {
        /// L.
        l: u32,
        /// The side.
        n: u32,
        /// Mesh or torus.
        topology: Topology,
    },
    /// LocalRoute with a radius outside 1 ..= n.
    #[error("LocalRoute needs 1 <= L <= n = {n}, not {l}")]
    LocalRadius {
        /// L.
        l: u32,
        /// The side.
        n: u32,
    },
    /// LevelRoute outside 2-D or with k odd.
    #[error("LevelRoute needs 2 dimensions and an even k, not d = {dims}, k = {k}")]
    LevelShape {
        /// The dimension.
        dims: usize,
        /// Packets per PU.
        k: u32,
    },
    /// Fixed phase budgets for an algorithm without per-phase bounds.
    #[error("{0} has no per-phase bounds to budget fixed phases by")]
    NoPhaseBounds(algorithm::Algorithm),
    /// Smearing decides its legs at barriers.
    #[error("smearing needs barrier phases")]
    SmearNeedsBarriers,
    /// LevelRoute splits a PU's packets into levels; a worm is one
    /// message.
    #[error("LevelRoute splits each PU's k packets into levels; it has no cut-through form")]
    LevelWorms,
    /// NoLRoute outside its setting.
    #[error("NoLRoute (local-unknown) runs on the 2-D torus with barrier phases")]
    NoLSetting,
    /// LevelRoute's strip outside 1 ..= n.
    #[error("the strip height must be 1 .. n = {n}, not {strip}")]
    Strip {
        /// ε.
        strip: u32,
        /// The side.
        n: u32,
    },
}
