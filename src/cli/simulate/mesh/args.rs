//! The flags of `fabric simulate mesh`, each parsed into its type.

use std::path::PathBuf;

use crate::cli::{parse_delay, DelayArg, FormatArgs};
use crate::sim::mesh::algorithm::Algorithm;
use crate::sim::mesh::traffic::Workload;
use crate::sim::mesh::{Phasing, Strategy, Topology};

use super::experiment::{Experiment, SmearArg};

fn parse_smear(s: &str) -> Result<SmearArg, String> {
    match s {
        "off" => Ok(SmearArg::Off),
        "auto" => Ok(SmearArg::Auto),
        _ => match s.parse::<u32>() {
            Ok(m) if m >= 1 => Ok(SmearArg::Block(m)),
            _ => Err(format!(
                "`{s}`: give `off`, `auto` or a block size of at least 1"
            )),
        },
    }
}

fn parse_side(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(n) if (2..=4096).contains(&n) => Ok(n),
        _ => Err(format!("`{s}`: the side must be a number from 2 to 4096")),
    }
}

/// Arguments of `fabric simulate mesh`.
#[derive(Debug, clap::Args)]
pub struct MeshArgs {
    /// Run one of the preset experiments (E2 .. E10, docs/simulation.md)
    /// with its own lists;
    /// the list flags below then must not be given, except --trials,
    /// --seed and the outputs.
    #[arg(long, value_enum, conflicts_with_all = [
        "algorithm", "topology", "size", "dims", "k", "traffic", "strategy",
        "phases", "cut_through", "locality", "strip", "smear",
    ])]
    pub experiment: Option<Experiment>,
    /// Algorithms: `nowrap` (NoWrapRoute(d)), `wrap` (WrapRoute(d)),
    /// `direct` (no randomization), `local` (LocalRoute(L)), `level`
    /// (LevelRoute, 2-D, k even). A list sweeps.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "nowrap")]
    pub algorithm: Vec<Algorithm>,
    /// `mesh` (no wrap-around) or `torus`; a list sweeps.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "mesh")]
    pub topology: Vec<Topology>,
    /// The side n (2 .. 4096); a list sweeps.
    #[arg(long, short = 'n', value_delimiter = ',', value_parser = parse_side, default_value = "64")]
    pub size: Vec<u32>,
    /// The dimension d: 1, 2 or 3 (the dimensions `fabric layout mesh`
    /// and `torus` lay out).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=3))]
    pub dims: u32,
    /// Packets per PU (flits per worm with --cut-through); a list sweeps.
    #[arg(long, short, value_delimiter = ',', default_value = "8", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub k: Vec<u32>,
    /// The k-k problem: `ls` (large shift), `pr` (point reflection),
    /// `random` (a random k-permutation), `local` (every coordinate moved
    /// by L). A list sweeps.
    #[arg(long, short, value_enum, value_delimiter = ',', default_value = "ls")]
    pub traffic: Vec<Workload>,
    /// Who wins a link: `ff` (farthest first), `farthest-origin`,
    /// `farthest-total`, `nearest`, `fifo`, `random`. A list sweeps.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "ff")]
    pub strategy: Vec<Strategy>,
    /// Phase control: `barrier`, `coalesced` or `fixed` budgets; a list
    /// sweeps.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "barrier")]
    pub phases: Vec<Phasing>,
    /// Route worms of k flits, one per PU, by virtual cut-through.
    #[arg(long)]
    pub cut_through: bool,
    /// L for `--traffic local` and `--algorithm local`; a list sweeps.
    #[arg(long, value_delimiter = ',', default_value = "8", value_parser = clap::value_parser!(u32).range(1..))]
    pub locality: Vec<u32>,
    /// ε, LevelRoute's strip of rows; a list sweeps.
    #[arg(long, value_delimiter = ',', default_value = "8", value_parser = clap::value_parser!(u32).range(1..))]
    pub strip: Vec<u32>,
    /// Queue smearing: `off`, `auto` (blocks of k lg n) or a block size;
    /// a list sweeps.
    #[arg(long, value_delimiter = ',', default_value = "off", value_parser = parse_smear)]
    pub smear: Vec<SmearArg>,
    /// Independent trials per cell (run in parallel); default 3, or the
    /// experiment's own.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10000))]
    pub trials: Option<u64>,
    /// Random seed; the same seed gives the same report.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Wire delay w(d) for the bit-times: unit, linear, log, sqrt, or
    /// points `d:w,d:w,...`; a step is 1 + w(longest wire of the layout).
    #[arg(long, default_value = "unit", value_parser = parse_delay)]
    pub delay: DelayArg,
    /// Take the array and its wires from this layout file (`fabric layout
    /// mesh|torus ... -o`; checked first) instead of --topology, --size
    /// and --dims: a step is 1 + w(the file's longest wire).
    #[arg(long, conflicts_with_all = ["experiment", "topology", "size", "dims"])]
    pub layout: Option<PathBuf>,
    /// Write the report (YAML unless --format says otherwise).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The report's format.
    #[command(flatten)]
    pub format: FormatArgs,
    /// Draw T against n (SVG), one series per setting, bars from the
    /// fastest to the slowest trial.
    #[arg(long)]
    pub plot: Option<PathBuf>,
}
