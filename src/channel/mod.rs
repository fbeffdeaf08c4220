//! Channel routing: the problem model, its analysis, routers, routed
//! solutions and their independent verifier.
//!
//! Pipeline: [`problem::RawChannel`] (from `io`) → [`problem::ChannelProblem`]
//! (validated) → a [`router::ChannelRouter`] → [`solution::ChannelSolution`] →
//! [`verify::verify`] → report.
//!
//! # Example
//!
//! Route a channel with a vertical constraint in two layers by the
//! left-edge router, then check the routing with the independent verifier,
//! the routed figures claimed beside the geometry:
//!
//! ```
//! use fabric::channel::analysis::analyze;
//! use fabric::channel::verify::verify;
//! use fabric::channel::{RouteOptions, RouterKind};
//!
//! // Columns 0 and 1 put net 1 (top pins) above net 2 (bottom pins).
//! let text = "top: 1 1 0 1 3\nbottom: 2 2 3 0 0\n";
//! let problem = fabric::io::parse_channel(text, "small.txt")?;
//! let analysis = analyze(&problem, 2);
//! let router = RouterKind::LeftEdge.router();
//! let solution = router.route(&problem, &RouteOptions::layers(2))?;
//! let metrics = solution.metrics(analysis.density);
//! let report = verify(&problem, &solution, Some(&metrics));
//! assert!(report.is_legal(), "{:?}", report.violations);
//! // No routing is narrower than the density, the lower bound.
//! assert!(metrics.width >= analysis.density);
//! assert_eq!(solution.layers, 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

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
