//! Randomized k-k routing on d-dimensional meshes and tori (Kaufmann and
//! Sibeyn, "Randomized multi-packet routing on meshes"; spec note
//! `004-kaufmann-sibeyn`).
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

#![warn(missing_docs)]

pub mod engine;
pub mod oracle;
pub mod plan;
#[cfg(test)]
pub(crate) mod reference;
pub mod shape;
pub mod worm;

pub use engine::{route, route_with, Config, Outcome};
pub use plan::{Gates, Leg, Phasing, Plan, Strategy};
pub use shape::{Dir, Pu, Shape, ShapeError, Topology};
