//! `fabric simulate`'s arguments turned into a checked job: every
//! cross-flag check, the layout file read and checked, the network's shape
//! and capacities, the algorithm's constants, the memory limits and the
//! message sets' parameters, all before anything long is built or run.

use std::path::{Path, PathBuf};

use super::args::{CongestionArg, SimulateArgs};
use crate::cli::{check_output_paths, outputs_of};
use crate::error::{Error, Result};
use crate::layout::fattree::{Capacity, FatTreeSpec};
use crate::layout::metrics::Delay;
use crate::layout::{Embedding, NetworkName};
use crate::network::Network;
use crate::sim::algorithms::{Algorithm, AlgorithmKind, RandomConstants};
use crate::sim::fattree::FatTree;
use crate::sim::traffic::{generate, theorem8_capacities, Traffic};
use crate::sim::{Policy, SimWarning};

/// A bad flag, flag combination or layout parameter (exit 2).
pub(super) fn usage(e: String) -> Error {
    Error::Usage(e)
}

/// The network a job builds.
pub(super) enum NetPlan {
    /// The butterfly fat-tree, routed wire by wire: from the layout file,
    /// or laid out in memory for `n` processors.
    Wires {
        /// Processors.
        n: u64,
        /// The checked layout file, if one was given.
        layout: Option<Embedding>,
    },
    /// A fat-tree with its channel capacities (`tree`, unit wires so far);
    /// its wire lengths come from the layout file or from laying out
    /// `spec` in memory.
    Fat {
        /// The tree's channels.
        tree: FatTree,
        /// The layout's parameters.
        spec: FatTreeSpec,
        /// The checked layout file, if one was given.
        layout: Option<Embedding>,
    },
}

/// Whether the message sets leave through the root's external channel
/// (Theorem 8's adversary), which then counts among the channels in use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ExternalChannel {
    /// Messages leave through the root (greedy-adversary traffic).
    Used,
    /// Every message goes from processor to processor.
    Unused,
}

/// Everything `fabric simulate` runs, checked.
pub(super) struct SimulateJob {
    /// The network to build.
    pub plan: NetPlan,
    /// Processors of the network.
    pub processors: u64,
    /// The capacities as the report words them.
    pub capacity_text: String,
    /// The fat-tree's congestion parameter; `None` for the butterfly
    /// fat-tree.
    pub congestion: Option<f64>,
    /// The routing algorithm with its constants.
    pub algorithm: Algorithm,
    /// The message sets' pattern.
    pub traffic: Traffic,
    /// What congested switches keep.
    pub policy: Policy,
    /// The wire delay function.
    pub delay: Delay,
    /// The wire delay function's text, as given.
    pub delay_text: String,
    /// Whether the root's external channel is in use.
    pub external: ExternalChannel,
    /// The rates, in the order given.
    pub rates: Vec<u32>,
    /// Trials per rate.
    pub trials: u64,
    /// The seed of every trial's stream.
    pub seed: u64,
    /// Delivery cycles after which a trial is given up.
    pub max_cycles: u64,
    /// `--switch-delay`, if given.
    pub switch_delay: Option<f64>,
    /// Payload bits per message.
    pub payload: u64,
    /// Where the wire lengths come from, as the report words it.
    pub layout_name: String,
    /// The report's path.
    pub output: Option<PathBuf>,
    /// The report's format.
    pub format: crate::report::model::Format,
    /// The chart's path.
    pub plot: Option<PathBuf>,
    /// What the setup warns of.
    pub warnings: Vec<SimWarning>,
}

/// What the flags alone decide.
struct Flags {
    kind: AlgorithmKind,
    traffic: Traffic,
    policy: Policy,
    /// The butterfly fat-tree, routed wire by wire.
    wires: bool,
    external: ExternalChannel,
}

impl SimulateJob {
    /// Check the arguments and read the layout file: the output paths, the
    /// flags, the layout, the network's shape, the algorithm, the memory
    /// budget and the message sets, in that order.
    pub fn from_args(args: &SimulateArgs) -> Result<SimulateJob> {
        args.format
            .check::<crate::report::model::FatTreeSimReport>()?;
        check_output_paths(
            &args.layout.iter().map(PathBuf::as_path).collect::<Vec<_>>(),
            &outputs_of(&args.output, &args.plot),
        )?;
        let layout = args.layout.as_deref().map(read_layout).transpose()?;
        let flags = checked(args, algorithm_for(args, layout.as_ref()))?;
        let (plan, capacity_text) = if flags.wires {
            wires_plan(args, layout)?
        } else {
            fat_plan(args, &flags, layout)?
        };
        let (processors, congestion) = match &plan {
            NetPlan::Wires { n, .. } => (*n, None),
            NetPlan::Fat { tree, .. } => (tree.n() as u64, Some(tree.congestion_parameter())),
        };
        let algorithm = algorithm_of(args, flags.kind, congestion)?;
        let warnings = warnings_of(args, &algorithm);
        let job = SimulateJob {
            plan,
            processors,
            capacity_text,
            congestion,
            algorithm,
            traffic: flags.traffic,
            policy: flags.policy,
            delay: args.delay.delay.clone(),
            delay_text: args.delay.text.clone(),
            external: flags.external,
            rates: args.rate.clone(),
            trials: args.trials,
            seed: args.seed,
            max_cycles: args.max_cycles,
            switch_delay: args.switch_delay,
            payload: args.payload,
            layout_name: args
                .layout
                .as_ref()
                .map_or("built in memory".into(), |p| p.display().to_string()),
            output: args.output.clone(),
            format: args.format.format,
            plot: args.plot.clone(),
            warnings,
        };
        job.check_limits()?;
        job.check_message_sets()?;
        Ok(job)
    }

    /// The seed of rate `j`'s trials: each rate has its own streams.
    pub fn rate_seed(&self, j: usize) -> u64 {
        self.seed.wrapping_add((j as u64) << 32)
    }

    /// Every rate's message sets against the memory budget.
    fn check_limits(&self) -> Result<()> {
        let processors = self.processors;
        let concurrent = self.trials.min(rayon::current_num_threads() as u64);
        for &rate in &self.rates {
            let messages = processors.saturating_mul(rate as u64);
            crate::limits::check(
                || {
                    format!(
                        "simulating {processors} processors at rate {rate} ({messages} messages a trial, \
                         {concurrent} trials at a time)"
                    )
                },
                crate::limits::simulate_bytes(messages, concurrent),
            )?;
        }
        Ok(())
    }

    /// Every rate's message set can be generated (trial 0's is drawn).
    fn check_message_sets(&self) -> Result<()> {
        for (j, &rate) in self.rates.iter().enumerate() {
            generate(
                self.traffic,
                self.processors as u32,
                rate,
                self.policy,
                &mut crate::sim::trial_rng(self.rate_seed(j), 0),
            )
            .map_err(|e| usage(e.to_string()))?;
        }
        Ok(())
    }
}

/// The algorithm given, or the layout's own: wire by wire on butterfly and
/// scalable fat-trees, RANDOM on every other fat-tree.
fn algorithm_for(args: &SimulateArgs, layout: Option<&Embedding>) -> AlgorithmKind {
    args.algorithm.unwrap_or(match layout.map(|e| &e.network) {
        Some(NetworkName::ButterflyFatTree | NetworkName::ScalableFatTree) => {
            AlgorithmKind::ButterflyFatTree
        }
        _ => AlgorithmKind::Random,
    })
}

/// Every check of the flags alone, before any file is read or anything
/// built.
fn checked(args: &SimulateArgs, kind: AlgorithmKind) -> Result<Flags> {
    let traffic = Traffic::of(args.traffic, args.subtree);
    let policy = args.policy.unwrap_or(if kind == AlgorithmKind::Greedy {
        Policy::Priority
    } else {
        Policy::IdealRandom
    });
    if kind == AlgorithmKind::Greedy && policy == Policy::DropAll {
        return Err(usage(
            "greedy with drop-all switches never finishes once a channel is over capacity (drop-all is not an admissible switch); choose another --policy".into(),
        ));
    }
    let wires = kind == AlgorithmKind::ButterflyFatTree;
    if args.rate.is_empty() || args.rate.contains(&0) {
        return Err(usage("--rate needs positive numbers".into()));
    }
    let adversary = traffic == Traffic::GreedyAdversary;
    if adversary && wires {
        return Err(usage(
            "greedy-adversary traffic leaves through the fat-tree's root; the butterfly fat-tree has no external channel".into(),
        ));
    }
    if adversary && args.capacity.is_some() {
        return Err(usage(
            "greedy-adversary runs on Theorem 8's tree (capacity 2^j above 4^j leaves); drop --capacity".into(),
        ));
    }
    if wires && args.capacity.is_some() {
        return Err(usage(
            "the butterfly fat-tree's capacities are fixed (2^l wires above 4^l leaves); drop --capacity".into(),
        ));
    }
    let explicit_random = args.k1 != 1.0
        || args.k2 != 1.0
        || args.r != CongestionArg::Value(1.0)
        || args.constants.is_some()
        || args.interleave;
    if explicit_random && kind != AlgorithmKind::Random {
        return Err(usage(
            "--k1, --k2, --r, --constants and --interleave belong to the random algorithm".into(),
        ));
    }
    if args.subtree != 16 && !matches!(traffic, Traffic::Local { .. }) {
        return Err(usage("--subtree applies to local traffic".into()));
    }
    if !(args.k1 > 0.0 && args.k2 > 0.0 && args.k1.is_finite() && args.k2.is_finite()) {
        return Err(usage("--k1 and --k2 must be positive".into()));
    }
    if args
        .switch_delay
        .is_some_and(|d| !(d >= 0.0 && d.is_finite()))
    {
        return Err(usage("--switch-delay must be a number >= 0".into()));
    }
    Ok(Flags {
        kind,
        traffic,
        policy,
        wires,
        external: if adversary {
            ExternalChannel::Used
        } else {
            ExternalChannel::Unused
        },
    })
}

/// The layout file, checked legal and realising the network its parameters
/// describe.
pub(super) fn read_layout(path: &Path) -> Result<Embedding> {
    let file = crate::cli::read_layout(path)?;
    let e = file.embedding;
    let verdict = crate::layout::check::check(&e);
    if let Some(v) = verdict.violations.first() {
        return Err(Error::File {
            path: path.display().to_string(),
            message: format!(
                "not a legal layout ({} violations; first: {v}); see `fabric verify-layout`",
                verdict.total
            ),
        });
    }
    match Network::intended(&e) {
        Some(Ok(want)) => {
            Network::from_embedding(&e)
                .and_then(|got| got.compare(&want))
                .map_err(|m| Error::File {
                    path: path.display().to_string(),
                    message: format!("the layout's network differs from its parameters: {m}"),
                })?;
        }
        Some(Err(m)) => return Err(usage(format!("{}: parameters: {m}", path.display()))),
        None => {
            return Err(usage(format!(
                "{}: a `{}` layout; simulate needs a fat-tree or butterfly-fat-tree layout",
                path.display(),
                e.network
            )))
        }
    }
    Ok(e)
}

fn param(e: &Embedding, key: &str) -> Result<String> {
    e.parameters
        .get(key)
        .cloned()
        .ok_or_else(|| usage(format!("the layout has no `{key}` parameter")))
}

/// `--size`, which clap requires when no --layout is given.
fn size_without_layout(args: &SimulateArgs) -> Result<u64> {
    args.size
        .ok_or_else(|| usage("give --size or --layout".into()))
}

/// The layout's processor count.
fn processors_of(e: &Embedding) -> Result<u64> {
    param(e, "processors")?
        .parse()
        .map_err(|_| usage("the layout's `processors` is not a number".into()))
}

/// The butterfly fat-tree: its layout file, or its size to lay it out.
fn wires_plan(args: &SimulateArgs, layout: Option<Embedding>) -> Result<(NetPlan, String)> {
    let n = match &layout {
        Some(e)
            if matches!(
                e.network,
                NetworkName::ButterflyFatTree | NetworkName::ScalableFatTree
            ) =>
        {
            processors_of(e)?
        }
        Some(e) => {
            return Err(usage(format!(
                "the butterfly-fat-tree algorithm needs a butterfly or scalable fat-tree layout, not `{}`",
                e.network
            )))
        }
        None => {
            let n = size_without_layout(args)?;
            if n < 4 || !n.is_power_of_two() || n.trailing_zeros() % 2 != 0 {
                return Err(usage(format!(
                    "{n} processors: the butterfly fat-tree needs a power of 4, at least 4"
                )));
            }
            n
        }
    };
    let capacity = match &layout {
        Some(e) if e.network == NetworkName::ScalableFatTree => format!(
            "switches as {}",
            param(e, "capacity").unwrap_or_else(|_| "sqrt-over-lg".into())
        ),
        _ => "2^l wires above 4^l leaves".into(),
    };
    Ok((NetPlan::Wires { n, layout }, capacity))
}

/// A fat-tree: its size and capacities from the layout file or the flags,
/// checked, and its channels.
fn fat_plan(
    args: &SimulateArgs,
    flags: &Flags,
    layout: Option<Embedding>,
) -> Result<(NetPlan, String)> {
    let adversary = flags.external == ExternalChannel::Used;
    let (n, capacity) = match &layout {
        Some(e) => {
            if !matches!(
                e.network,
                NetworkName::FatTree | NetworkName::Htree | NetworkName::FatTree3d
            ) {
                return Err(usage(format!(
                    "algorithm {} runs on a fat-tree, H-tree or 3-D fat-tree layout, not `{}` (fat-pyramid and tree-of-meshes layouts: fabric simulate wire-delay --layout)",
                    flags.kind.name(),
                    e.network
                )));
            }
            if args.capacity.is_some() {
                return Err(usage(
                    "the layout fixes the capacities; drop --capacity".into(),
                ));
            }
            let n = processors_of(e)?;
            let cap = Capacity::parse(&param(e, "capacity")?).map_err(|e| usage(e.to_string()))?;
            (n, cap)
        }
        None => {
            let n = size_without_layout(args)?;
            let cap = if adversary {
                Capacity::Table(
                    theorem8_capacities(n.min(1 << 30) as u32)
                        .iter()
                        .map(|&c| c as u64)
                        .collect(),
                )
            } else {
                args.capacity.clone().unwrap_or(Capacity::Doubling)
            };
            (n, cap)
        }
    };
    let parameter = |key: &str| {
        layout
            .as_ref()
            .and_then(|e| e.parameters.get(key))
            .and_then(|a| a.parse().ok())
            .unwrap_or(1)
    };
    let spec = FatTreeSpec {
        processors: n,
        capacity: capacity.clone(),
        omega: parameter("omega"),
        alpha: parameter("alpha"),
    };
    spec.k().map_err(|e| usage(e.to_string()))?;
    if n > 1 << 22 {
        return Err(usage(format!(
            "{n} processors: at most 4^11 = 4194304 are simulated"
        )));
    }
    let caps: Vec<u32> = (0..=n.trailing_zeros())
        .map(|i| capacity.at_level(i, n, spec.alpha).map(|c| c as u32))
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| usage(e.to_string()))?;
    if adversary && caps != theorem8_capacities(n as u32) {
        return Err(usage(
            "greedy-adversary needs Theorem 8's capacities (2^j above 4^j leaves); this layout has others".into(),
        ));
    }
    let capacity_text = if adversary {
        "Theorem 8: 2^j above 4^j leaves".to_string()
    } else {
        capacity.describe()
    };
    let tree = FatTree::new(n as u32, caps).map_err(|e| usage(e.to_string()))?;
    Ok((NetPlan::Fat { tree, spec, layout }, capacity_text))
}

/// What the setup warns of: `--r auto` (without `--constants proof`) with
/// `k1` below the congestion parameter, which makes RANDOM slow.
fn warnings_of(args: &SimulateArgs, algorithm: &Algorithm) -> Vec<SimWarning> {
    match (algorithm, args.r, args.constants) {
        (Algorithm::Random(c), CongestionArg::Auto, None) if c.k1 < c.r => {
            vec![SimWarning::SlowCongestionParameter { r: c.r, k1: c.k1 }]
        }
        _ => Vec::new(),
    }
}

/// The algorithm with its constants (RANDOM's `r` from the flags or, with
/// `auto` or `--constants`, the fat-tree's congestion parameter).
fn algorithm_of(
    args: &SimulateArgs,
    kind: AlgorithmKind,
    congestion: Option<f64>,
) -> Result<Algorithm> {
    Ok(match kind {
        AlgorithmKind::Random => {
            let r = match (args.constants, args.r) {
                (Some(_), _) | (None, CongestionArg::Auto) => {
                    congestion.expect("random runs on the fat-tree")
                }
                (None, CongestionArg::Value(r)) => r,
            };
            Algorithm::Random(if args.constants.is_some() {
                RandomConstants {
                    interleave: args.interleave,
                    ..RandomConstants::proof(r)
                }
            } else {
                RandomConstants {
                    k1: args.k1,
                    k2: args.k2,
                    r,
                    interleave: args.interleave,
                }
            })
        }
        AlgorithmKind::RandomPrime => Algorithm::RandomPrime,
        AlgorithmKind::Greedy => Algorithm::Greedy,
        AlgorithmKind::ButterflyFatTree => Algorithm::ButterflyFatTree,
    })
}
