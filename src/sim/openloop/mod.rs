//! Open-loop traffic over laid-out fabrics: packets injected at an offered
//! rate into input-queued routers with virtual channels and credit-based
//! flow control, measured for latency and accepted throughput.
//!
//! - [`graph`]: the network as routers, one terminal per processor (per
//!   row on the butterfly, injecting at the inputs and ejecting at the
//!   outputs), and directed channels with a latency in cycles (unit, or from a layout's
//!   wire lengths through `w(d)`), built from any [`crate::network::Network`];
//! - [`routing`]: the routing functions (dimension order on the mesh,
//!   dimension order with dateline classes on the torus, up*/down* on
//!   trees with random or adaptive up links, destination tag on the
//!   butterfly), each with the virtual channels it may use;
//! - [`traffic`]: the destination patterns;
//! - [`length`]: packet lengths, fixed or drawn per packet;
//! - [`engine`]: the cycle-by-cycle simulation of one offered rate, with
//!   warm-up, measurement and drain phases and a deadlock watchdog;
//! - [`warmup`]: when the warm-up ends, after fixed cycles or once the
//!   windowed mean latency settles;
//! - [`sweep`]: rates run in parallel, the zero-load latency and the
//!   channel-load bound computed from the routing, and the saturation
//!   search.
//!
//! Timing (zero load, depth at least the credit round trip `2 l + D`): a
//! packet of `L` flits whose head crosses `h` channels of latencies `l_i`
//! through `h + 1` routers of delay `D` is delivered
//! `(h + 1) D + sum l_i + L` cycles after it was created (`L` its own
//! length; the analytic figures take the mean).

#![warn(missing_docs)]

pub mod engine;
pub mod graph;
pub mod length;
pub mod net;
pub mod routing;
pub mod sweep;
pub mod traffic;
pub mod warmup;

#[cfg(test)]
mod choice_tests;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod topology_tests;
#[cfg(test)]
mod warmup_tests;

use serde::Serialize;

pub use engine::{simulate, Config, PointResult};
pub use graph::{Graph, LinkMode, Topology};
pub use length::PacketLength;
pub use net::OpenNet;
pub use routing::UpLinks;
pub use traffic::Pattern;
pub use warmup::{Warmup, WarmupMode, WarmupOutcome};

/// How a packet holds buffers.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum FlowControl {
    /// A head may take an idle output virtual channel with any credit; the
    /// packet may then stretch over several routers.
    Wormhole,
    /// A head takes an idle output virtual channel only when the buffer
    /// behind it has room for the whole packet (needs depth >= packet).
    VirtualCutThrough,
}

/// When a terminal creates packets.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Injection {
    /// Each cycle, a packet with probability `rate / L`.
    Bernoulli,
    /// A packet every `L / rate` cycles (a rate accumulator), all terminals
    /// in phase.
    Periodic,
}

/// Why an open-loop run cannot start or did not finish.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OpenLoopError {
    /// A configuration value out of range.
    #[error("{0}")]
    Config(String),
    /// The traffic pattern needs another number of terminals.
    #[error("traffic {pattern} needs {need}; the network has {terminals} terminals")]
    Pattern {
        /// The pattern's name.
        pattern: &'static str,
        /// What it needs.
        need: &'static str,
        /// Terminals of the network.
        terminals: u32,
    },
    /// The network could not be laid out or read.
    #[error("{0}")]
    Network(String),
    /// No flit moved for the watchdog's cycles with flits in flight.
    #[error(
        "deadlock: no flit moved from cycle {since} to {cycle} with {in_flight} flits in flight"
    )]
    Deadlock {
        /// The last cycle a flit moved.
        since: u64,
        /// The cycle the watchdog fired.
        cycle: u64,
        /// Flits in buffers and on channels.
        in_flight: u64,
    },
}
