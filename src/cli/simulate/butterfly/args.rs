//! The flags of `fabric simulate butterfly`, each parsed into its type.

use std::path::PathBuf;

use crate::cli::{parse_delay, DelayArg, FormatArgs};
use crate::report::model::butterfly::PacketsPerInput;
use crate::sim::packet::adversary::SplitRule;
use crate::sim::packet::dropping::{Capacity, DropPolicy, Variant};
use crate::sim::packet::engine::Protocol;
use crate::sim::packet::experiment::{Model, Routing, Workload};

/// `--size`: a number of rows (inputs) `N`, a power of 2 from 2 to 2^30.
fn parse_rows(s: &str) -> Result<u32, String> {
    let n: u64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of rows"))?;
    if n < 2 || !n.is_power_of_two() || n > 1 << 30 {
        return Err(format!(
            "{n} rows: the butterfly needs a power of 2 from 2 to 2^30"
        ));
    }
    Ok(n.trailing_zeros())
}

/// `--packets`: how many packets each input sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketsArg {
    /// This many at every size.
    Fixed(u32),
    /// `lg N` at each size.
    LgN,
}

impl PacketsArg {
    /// k at `B(n)`.
    pub fn at(self, n: u32) -> u32 {
        match self {
            PacketsArg::Fixed(k) => k,
            PacketsArg::LgN => n,
        }
    }

    /// As the report records it.
    pub fn record(self) -> PacketsPerInput {
        match self {
            PacketsArg::Fixed(k) => PacketsPerInput::Fixed { k },
            PacketsArg::LgN => PacketsPerInput::LgN,
        }
    }
}

fn parse_packets(s: &str) -> Result<PacketsArg, String> {
    if s == "lg" {
        return Ok(PacketsArg::LgN);
    }
    match s.parse::<u32>() {
        Ok(k) if (1..=4096).contains(&k) => Ok(PacketsArg::Fixed(k)),
        _ => Err(format!("`{s}`: give a number from 1 to 4096, or `lg`")),
    }
}

/// Arguments of `fabric simulate butterfly`.
#[derive(Debug, clap::Args)]
pub struct ButterflyArgs {
    /// Queue model: `g` (section 2: capacity q per switch), `t` (section
    /// 3: threshold q, at most q + 2), `w` (section 4: waves and tokens),
    /// `c` (section 5: circuit locking), `a` (section 5: ATOM).
    #[arg(long, value_enum, default_value_t = Model::G)]
    pub model: Model,
    /// The switches' protocol (models g and t; default fifo):
    /// nonpredictive `fifo`, `lifo`, `fixed-priority`, `random-pick`, or
    /// greedy `per-edge-oldest`.
    #[arg(long, value_enum)]
    pub protocol: Option<Protocol>,
    /// Models c and a: `back-to-back` (Ranade's stage 1, then copy 2),
    /// `koch-random` (random destinations on one butterfly) or `direct`.
    #[arg(long, value_enum, default_value_t = Variant::BackToBack)]
    pub scheme: Variant,
    /// Model c: q limits the paths on each edge (`per-edge`) or the
    /// packets entering each node (`per-node`).
    #[arg(long, value_enum, default_value_t = Capacity::PerEdge)]
    pub capacity: Capacity,
    /// Model a: an overflowing buffer drops its lowest ranks (`push-out`)
    /// or the arrivals (`tail-drop`).
    #[arg(long = "drop", value_enum, default_value_t = DropPolicy::PushOut)]
    pub drop_policy: DropPolicy,
    /// Models c and a: ranks drawn from 1 ..= r; default
    /// max(2, round(lg N^(1/q))), 2 lg N for q = 1.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub ranks: Option<u32>,
    /// Routing problem; `adversary` builds Theorem 3.1's permutation
    /// against the protocol (model t).
    #[arg(long, short, value_enum, default_value_t = Workload::RandomDestinations)]
    pub traffic: Workload,
    /// `direct` on the unique paths, or Valiant's `two-phase` through the
    /// wraparound (Theorem 2.6).
    #[arg(long, value_enum, default_value_t = Routing::Direct)]
    pub routing: Routing,
    /// The adversary's split rule in the busy sub-butterfly: the paper's,
    /// or the first half to 0.
    #[arg(long, value_enum, default_value_t = SplitRule::Paper)]
    pub split: SplitRule,
    /// Rows N (inputs), powers of 2; a list sweeps: `--size 64,256,1024`.
    /// Taken from the file with --layout.
    #[arg(long, short = 'n', value_delimiter = ',', value_parser = parse_rows,
          required_unless_present = "layout")]
    pub size: Vec<u32>,
    /// Queue capacity (model g) or threshold (model t); a list sweeps.
    #[arg(long, value_delimiter = ',', default_value = "4")]
    pub queue: Vec<u32>,
    /// Packets per input, k: a number from 1 to 4096, or `lg` for
    /// k = lg N at each size ("fully loaded", section 4).
    #[arg(long, default_value = "1", value_parser = parse_packets)]
    pub packets: PacketsArg,
    /// Take the butterfly and its wire lengths from this layout file
    /// (`fabric layout butterfly ... -o`); it is checked first.
    #[arg(long)]
    pub layout: Option<PathBuf>,
    /// Wire delay w(d) for the step time: unit, linear, log, sqrt, or
    /// points `d:w,d:w,...`.
    #[arg(long, default_value = "unit", value_parser = parse_delay)]
    pub delay: DelayArg,
    /// Independent trials per size and queue size (run in parallel).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=100000))]
    pub trials: u64,
    /// Random seed; the same seed gives the same report.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the report (YAML unless --format says otherwise).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The report's format.
    #[command(flatten)]
    pub format: FormatArgs,
    /// Draw the sweep's figure against lg N, one series per queue size,
    /// with the paper's bound (SVG).
    #[arg(long)]
    pub plot: Option<PathBuf>,
}
