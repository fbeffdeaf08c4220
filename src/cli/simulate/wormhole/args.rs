//! The flags of `fabric simulate wormhole`, each parsed into its type.

use std::path::PathBuf;

use crate::report::model::wormhole::Priorities;

use crate::cli::{parse_delay, DelayArg, FormatArgs};
use crate::sim::wormhole::{PathRule, Pattern, Scan, Scheme};

/// The smallest network simulated: 16 processors.
pub const MIN_PROCESSORS: u64 = 16;

/// The largest network simulated: 4096 processors (Table I's last row).
pub const MAX_PROCESSORS: u64 = 4096;

/// `n` processors if the sweep takes them: a power of 4 from 16 to 4096.
pub fn check_processors(n: u64) -> Result<u32, String> {
    let power_of_4 = n.is_power_of_two() && n.trailing_zeros() % 2 == 0;
    if !power_of_4 || !(MIN_PROCESSORS..=MAX_PROCESSORS).contains(&n) {
        return Err(format!(
            "{n} processors: the fat-tree needs a power of 4 from {MIN_PROCESSORS} to {MAX_PROCESSORS}"
        ));
    }
    Ok(n as u32)
}

/// `--size`: processors `N`, a power of 4 from 16 to 4096.
fn parse_processors(s: &str) -> Result<u32, String> {
    let n: u64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of processors"))?;
    check_processors(n)
}

/// `--priorities`: `R`, the initial-delay range and UNIV's priority range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrioritiesArg {
    /// This `R` at every size.
    Fixed(u32),
    /// `R = lg N` at each size.
    LgN,
}

/// The largest `R` accepted.
pub const MAX_PRIORITIES: u32 = 1 << 16;

impl PrioritiesArg {
    /// `R` on `n` processors.
    pub fn at(self, n: u32) -> u32 {
        match self {
            PrioritiesArg::Fixed(r) => r,
            PrioritiesArg::LgN => n.max(2).ilog2(),
        }
    }

    /// As the report records it.
    pub fn record(self) -> Priorities {
        match self {
            PrioritiesArg::Fixed(r) => Priorities::Fixed { r },
            PrioritiesArg::LgN => Priorities::LgN,
        }
    }
}

fn parse_priorities(s: &str) -> Result<PrioritiesArg, String> {
    if s == "lg" {
        return Ok(PrioritiesArg::LgN);
    }
    match s.parse::<u32>() {
        Ok(r) if (1..=MAX_PRIORITIES).contains(&r) => Ok(PrioritiesArg::Fixed(r)),
        _ => Err(format!(
            "`{s}`: give a number from 1 to {MAX_PRIORITIES}, or `lg` for R = lg N"
        )),
    }
}

/// The network the worms run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WormNetwork {
    /// The butterfly fat-tree: `2^l` wires above `4^l` processors, the
    /// network of the paper's simulations.
    ButterflyFatTree,
    /// The universal (scalable) fat-tree of capacity `sqrt(N) / lg N`
    /// built from constant-size switches.
    UniversalFatTree,
}

/// Arguments of `fabric simulate wormhole`.
#[derive(Debug, clap::Args)]
pub struct WormholeArgs {
    /// Routing schemes: `store` (store-and-forward, one packet a queue),
    /// `worm` (wormhole), `univ` (STORE with random priorities), `split`
    /// (every flit its own packet). A list sweeps.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "worm")]
    pub scheme: Vec<Scheme>,
    /// Up-link choice: `fp` (a random shortest path fixed at the source),
    /// `rp` (a fresh random draw every step), `gp` (the first free link).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "rp")]
    pub path: Vec<PathRule>,
    /// Input scan of a switch: `fo` (fixed order), `rr` (round robin from
    /// a random offset every step), `ff` (farthest first).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "rr")]
    pub scan: Vec<Scan>,
    /// Traffic, one message per processor: `random` destinations,
    /// `complement` (a to N - 1 - a), `many-to-one` (the lower half to
    /// N - 1, the upper half to 0).
    #[arg(
        long,
        short,
        value_enum,
        value_delimiter = ',',
        default_value = "random"
    )]
    pub traffic: Vec<Pattern>,
    /// Processors N, each a power of 4 from 16 to 4096; a list sweeps.
    /// Default 16,64,256,1024, or the layout file's size with --layout.
    #[arg(long, short = 'n', value_delimiter = ',', value_parser = parse_processors)]
    pub size: Option<Vec<u32>>,
    /// Flits per message, L.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=65535))]
    pub flits: u32,
    /// Queue size in units (flits; packets for store and univ). Default:
    /// each scheme's own (1 for store and univ, 2 for worm and split).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=32767))]
    pub queue: Option<u32>,
    /// R, a number >= 1 or `lg` for R = lg N: initial delays drawn from
    /// 0 .. R (worm: times L lg N flit-steps; store: packet-steps; split:
    /// flit-steps) and univ's priorities from 1 ..= R.
    #[arg(long, default_value = "1", value_parser = parse_priorities)]
    pub priorities: PrioritiesArg,
    /// Independent runs per cell (run in parallel).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=100000))]
    pub runs: u64,
    /// Random seed; the same seed gives the same report.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The network.
    #[arg(long, value_enum, default_value_t = WormNetwork::ButterflyFatTree)]
    pub network: WormNetwork,
    /// Take the network and its wire lengths from this layout file
    /// (`fabric layout butterfly-fat-tree ... -o`, or `scalable-fat-tree`
    /// for the universal fat-tree); it is checked first. Default: lay the
    /// network out in memory.
    #[arg(long)]
    pub layout: Option<PathBuf>,
    /// Wire delay w(d) for the bit-times: unit, linear, log, sqrt, or
    /// points `d:w,d:w,...`; a flit-step is 1 + w(longest wire).
    #[arg(long, default_value = "unit", value_parser = parse_delay)]
    pub delay: DelayArg,
    /// Write the report (YAML unless --format says otherwise).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The report's format.
    #[command(flatten)]
    pub format: FormatArgs,
    /// Draw latency against N (SVG), one series per scheme, path rule,
    /// scan and traffic, with 99 % confidence intervals.
    #[arg(long)]
    pub plot: Option<PathBuf>,
}
