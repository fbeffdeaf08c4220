//! The channel routers, one module each, named for its algorithm. Each
//! implements [`ChannelRouter`](crate::channel::ChannelRouter); the
//! registry ([`crate::channel::registry`]) names the ones the command line
//! offers.
//!
//! - [`left_edge`]: the constrained left-edge algorithm (one track per
//!   trunk, no doglegs), the classical baseline.
//! - [`greedy`]: the Rivest–Fiduccia greedy column sweep.
//! - [`conflict_free`]: trunk pieces assigned so no column conflicts,
//!   drawn straight.
//! - [`yacr`]: the reserved-layer router after YACR2 with maze repair; its
//!   width loop runs a portfolio of strategies, the other routers of this
//!   folder among them.
//! - [`negotiated`]: negotiated congestion (PathFinder) over the whole
//!   channel.
//! - [`plane`]: one-layer (planar) routing of river-routable channels.
//! - [`mulch`]: MulCh, the multilayer router: it partitions the layers into
//!   groups, routes each group's nets with the routers above and stacks the
//!   results.
//!
//! They share the routing grid ([`crate::channel::grid`]) and the one
//! shortest-path search ([`crate::channel::search`]).

pub mod conflict_free;
pub mod greedy;
pub mod left_edge;
pub mod mulch;
pub mod negotiated;
pub mod plane;
pub mod yacr;
