//! Wormhole routing on butterfly fat-trees and its store-and-forward and
//! split-flit rivals (Greenberg and Oh, "Universal Wormhole Routing";
//! docs/simulation.md).
//!
//! A worm of `L` flits follows its head through flit queues of `q` flits at
//! the far ends of the links; a link is held from its head's crossing to
//! its tail's ([`engine`], the SYNC step of docs/simulation.md). The schemes of the
//! paper's simulation study ([`Scheme`]) run on the same engine:
//! - **WORM**: worms of `L` flits, `q = 2` flits;
//! - **STORE**: each message one unit, `q = 1` packet, time in packet-steps
//!   times `L`;
//! - **UNIV**: STORE whose packets carry a random priority in `1 ..= R`
//!   that decides every output (a reading of the paper: docs/simulation.md);
//! - **SPLIT**: each message `L` one-flit packets routed independently,
//!   `q = 2` flits.

pub mod algorithm_a;
mod draw;
pub mod engine;
pub mod net;
#[cfg(test)]
mod reference;
mod run;
#[cfg(test)]
mod tests;

pub use engine::{Outcome, Rules};
pub use net::WormNet;
pub use run::{run_scheme, SchemeRun, Setup};

/// One worm: its ends, its length in units, the step it may leave its
/// source, its priority (lower first, under [`Arbitration::Priority`]) and
/// its coins (the up links [`PathRule::Fixed`] takes, drawn at the source).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Worm {
    /// Source processor.
    pub src: u32,
    /// Destination processor.
    pub dst: u32,
    /// Units (flits; 1 for a packet).
    pub len: u32,
    /// The first step it may leave its source.
    pub release: u64,
    /// Priority: lower wins an output first.
    pub priority: u32,
    /// Bit `i`: the up link taken at the `i`-th link of the path.
    pub coins: u64,
}

/// How a head picks an up link (down is unique).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum PathRule {
    /// FP: a uniform random shortest path fixed at the source.
    #[cfg_attr(feature = "cli", value(name = "fp"))]
    Fixed,
    /// RP: a fresh uniform draw each step; wait if that link is blocked.
    #[cfg_attr(feature = "cli", value(name = "rp"))]
    Random,
    /// GP: the first unblocked up link in index order.
    #[cfg_attr(feature = "cli", value(name = "gp"))]
    Greedy,
}

/// The order a switch serves its inputs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Scan {
    /// FO: child links by child index, then parent links.
    #[cfg_attr(feature = "cli", value(name = "fo"))]
    Fixed,
    /// RR: the fixed order rotated by a fresh random offset, every step at
    /// every switch.
    #[cfg_attr(feature = "cli", value(name = "rr"))]
    RoundRobin,
    /// FF: the farthest first (the higher common ancestor), ties as RR.
    #[cfg_attr(feature = "cli", value(name = "ff"))]
    Farthest,
}

/// How heads competing for outputs are ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arbitration {
    /// In scan order.
    Scan,
    /// By priority, ties in scan order (UNIV).
    Priority,
}

/// The schemes of the paper's simulation study.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Scheme {
    /// Delayed greedy store-and-forward, one packet per queue.
    Store,
    /// Greedy wormhole routing.
    Worm,
    /// STORE with random priorities deciding every output.
    Univ,
    /// Every flit its own store-and-forward packet.
    Split,
}

impl Scheme {
    /// Every scheme, in report order.
    pub const ALL: [Scheme; 4] = [Scheme::Store, Scheme::Worm, Scheme::Univ, Scheme::Split];

    /// The paper's name.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Store => "STORE",
            Scheme::Worm => "WORM",
            Scheme::Univ => "UNIV",
            Scheme::Split => "SPLIT",
        }
    }

    /// The queue size the paper simulates (SPLIT's, which the paper does not
    /// give, is 2 flits).
    pub fn default_queue(self) -> u32 {
        match self {
            Scheme::Store | Scheme::Univ => 1,
            Scheme::Worm | Scheme::Split => 2,
        }
    }
}

/// The traffic patterns of the paper's study, one message per processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// Uniform destinations, self allowed (a message to itself is
    /// delivered at step 0).
    Random,
    /// Processor `a` to `N - 1 - a`.
    Complement,
    /// The lower half to `N - 1`, the upper half to 0.
    ManyToOne,
}

impl Pattern {
    /// Each processor's destination.
    pub fn destinations(self, n: u32, rng: &mut impl rand::Rng) -> Vec<u32> {
        (0..n)
            .map(|a| match self {
                Pattern::Random => rng.gen_range(0..n),
                Pattern::Complement => n - 1 - a,
                Pattern::ManyToOne if a < n / 2 => n - 1,
                Pattern::ManyToOne => 0,
            })
            .collect()
    }
}

/// Why a wormhole run cannot start or could not finish.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WormError {
    /// Queues must hold a unit.
    #[error("a queue of 0 units cannot hold a flit")]
    ZeroQueue,
    /// Queues are small.
    #[error("a queue of {q} units: at most {max}")]
    QueueTooLarge {
        /// The queue asked for.
        q: u32,
        /// The largest allowed.
        max: u32,
    },
    /// A worm's ends are not processors.
    #[error("worm {worm} runs from {src} to {dst}, outside the {processors} processors")]
    Outside {
        /// The worm.
        worm: usize,
        /// Its source.
        src: u32,
        /// Its destination.
        dst: u32,
        /// Processors of the network.
        processors: u32,
    },
    /// Worms are 1 to 65,535 units long.
    #[error("worm {worm} is {len} units long: 1 to 65535")]
    Length {
        /// The worm.
        worm: usize,
        /// Its length.
        len: u32,
    },
    /// Nothing moved in a step while worms remained.
    #[error("deadlock at step {step}: {remaining} worms remain and nothing moved")]
    Deadlock {
        /// The step.
        step: u64,
        /// Worms not yet arrived.
        remaining: usize,
    },
}
