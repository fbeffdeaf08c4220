//! The flags of `fabric simulate`, each parsed into its type by clap.

use crate::cli::{parse_delay, DelayArg};
use std::path::PathBuf;

use crate::layout::fattree::Capacity;
use crate::sim::algorithms::AlgorithmKind;
use crate::sim::traffic::TrafficKind;
use crate::sim::Policy;

/// RANDOM's congestion parameter `r` as given: a number, or the fat-tree's
/// own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CongestionArg {
    /// The fat-tree's congestion parameter (section 3.2).
    Auto,
    /// A number, at least 1.
    Value(f64),
}

/// `--r`: a number >= 1 or `auto`.
fn parse_congestion(s: &str) -> Result<CongestionArg, String> {
    if s == "auto" {
        return Ok(CongestionArg::Auto);
    }
    s.parse::<f64>()
        .ok()
        .filter(|r| r.is_finite() && *r >= 1.0)
        .map(CongestionArg::Value)
        .ok_or_else(|| "give a number >= 1 or `auto`".to_string())
}

/// RANDOM's constants taken from a theorem rather than from the flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Constants {
    // Theorem 7's constants. (A plain comment: a doc comment would change
    // the `--help` listing of the values.)
    Proof,
}

/// Arguments of `fabric simulate`.
#[derive(Debug, clap::Args)]
pub struct SimulateArgs {
    /// Routing algorithm: `random` (RANDOM with TRY-GUESS), `random-prime`
    /// (RANDOM', for capacities Omega(lg n)), `greedy`, or
    /// `butterfly-fat-tree` (section 3.5, wire by wire). Default: the
    /// layout's own (butterfly-fat-tree for butterfly and scalable
    /// fat-tree layouts), else random.
    #[arg(long, short, value_enum)]
    pub algorithm: Option<AlgorithmKind>,
    /// Message set: `permutation`, `random` destinations, `local` (inside
    /// subtrees of --subtree processors), `many-to-one`, `mesh` (a mesh of
    /// the same area mapped geometrically, Lemma 10), `greedy-adversary`
    /// (Theorem 8's M_n, all messages leaving through the root).
    #[arg(long, short, value_enum, default_value_t = TrafficKind::Permutation)]
    pub traffic: TrafficKind,
    /// Number of processors, a power of 4 (taken from the file with --layout).
    #[arg(long, short = 'n', required_unless_present = "layout")]
    pub size: Option<u64>,
    /// Messages per processor (permutations: how many; mesh: copies per
    /// neighbour), or for greedy-adversary the load factor (a multiple of
    /// 12). A list runs each in turn: `--rate 1,4,16`.
    #[arg(long, value_delimiter = ',', default_value = "1")]
    pub rate: Vec<u32>,
    /// local traffic: processors per block (a power of 2).
    #[arg(long, default_value_t = 16)]
    pub subtree: u32,
    /// Channel capacities c(p) of the fat-tree (as for `fabric layout`);
    /// default `doubling`. greedy-adversary uses Theorem 8's 4-ary tree.
    #[arg(long, value_parser = Capacity::parse)]
    pub capacity: Option<Capacity>,
    /// What a congested switch keeps: `ideal-random`, `priority`,
    /// `rotating`, `drop-all`. Default: priority for greedy, else
    /// ideal-random.
    #[arg(long, value_enum)]
    pub policy: Option<Policy>,
    /// random: constant k1 of TRY-GUESS.
    #[arg(long, default_value_t = 1.0)]
    pub k1: f64,
    /// random: constant k2 of TRY-GUESS.
    #[arg(long, default_value_t = 1.0)]
    pub k2: f64,
    /// random: the congestion parameter in the subset probability
    /// 1/(r lambda): a number, or `auto` for the fat-tree's own.
    #[arg(long, default_value = "1", value_parser = parse_congestion)]
    pub r: CongestionArg,
    /// random: `proof` uses Theorem 7's constants (k1 = 400 r^2 ln r,
    /// k2 = 36 r, r the fat-tree's congestion parameter); very many cycles.
    #[arg(long, value_enum, conflicts_with_all = ["k1", "k2", "r"])]
    pub constants: Option<Constants>,
    /// random: the guaranteed-finite variant (section 3.2): after every
    /// RANDOM cycle, one cycle sends a single undelivered message alone.
    #[arg(long)]
    pub interleave: bool,
    /// Take the network and its wire lengths from this layout file
    /// (`fabric layout ... -o`); it is checked first. Default: lay the
    /// network out in memory.
    #[arg(long)]
    pub layout: Option<PathBuf>,
    /// Wire delay w(d): unit, linear, log, sqrt, or points `d:w,d:w,...`.
    #[arg(long, default_value = "unit", value_parser = parse_delay)]
    pub delay: DelayArg,
    /// Bit-times a switch takes; default 2 ceil(lg(2 c_max)) for the
    /// fat-tree's concentrators, 1 for the butterfly fat-tree's switches.
    #[arg(long)]
    pub switch_delay: Option<f64>,
    /// Payload bits after the 2 lg n address bits.
    #[arg(long, default_value_t = 0)]
    pub payload: u64,
    /// Independent trials per rate (run in parallel).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=100000))]
    pub trials: u64,
    /// Random seed; the same seed gives the same report.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Give up on a trial after this many delivery cycles (exit 1).
    #[arg(long, default_value_t = 1_000_000)]
    pub max_cycles: u64,
    /// Write the report (schema fabric.simulate.fat_tree; see --format).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The report's format (csv: one row per trial of every rate).
    #[command(flatten)]
    pub format: crate::cli::FormatArgs,
    /// Draw delivery cycles against the load factor (SVG), with Figure 3-3's
    /// regions.
    #[arg(long)]
    pub plot: Option<PathBuf>,
}
