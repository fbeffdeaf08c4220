//! Channel routing: the problem model, its analysis, routers, routed
//! solutions and their independent verifier.
//!
//! Pipeline: [`problem::RawChannel`] (from `io`) → [`problem::ChannelProblem`]
//! (validated) → a [`router::ChannelRouter`] → [`solution::ChannelSolution`] →
//! [`verify::verify`] → report.

#![warn(missing_docs)]

pub mod analysis;
pub mod density_tree;
pub mod generate;
pub mod grid;
pub mod layer_model;
pub mod problem;
pub mod registry;
pub mod router;
pub mod routers;
pub mod search;
pub mod separation;
pub mod side_extension;
pub mod solution;
pub mod switchbox;
pub mod verify;
pub mod verify_report;

pub use problem::{ChannelProblem, NetId, RawChannel};
pub use registry::{router_by_name, RouterKind};
pub use router::{ChannelRouter, Directions, RouteError, RouteEvent, RouteOptions};
pub use solution::{ChannelSolution, Metrics};
