//! `fabric simulate`: route message sets over a laid-out network and report
//! delivery cycles and bit-times against the load factor.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::error::{Error, Result};
use crate::layout::fattree::{Capacity, FatTreeSpec};
use crate::layout::metrics::Delay;
use crate::layout::Embedding;
use crate::network::Network;
use crate::report;
use crate::sim::algorithms::{route, Algorithm, AlgorithmKind, RandomConstants};
use crate::sim::bft::LinkTree;
use crate::sim::fattree::FatTree;
use crate::sim::traffic::{generate, theorem8_capacities, Traffic, TrafficKind};
use crate::sim::{run_trials, Fabric, Message, Policy, SimReport, SimRun, TimeModel};

use super::{check_output_paths, outputs_of, read_text, write_all_or_nothing};

/// The networks `fabric simulate` routes over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SimNetwork {
    /// Fat-trees (thesis chapter 3), and the butterfly fat-tree for the
    /// `butterfly-fat-tree` algorithm.
    FatTree,
}

#[derive(Debug, clap::Args)]
pub struct SimulateArgs {
    /// The network family: `fat-tree` (thesis chapter 3; the
    /// `butterfly-fat-tree` algorithm runs on the butterfly fat-tree).
    #[arg(value_enum)]
    pub network: SimNetwork,
    /// Routing algorithm: `random` (RANDOM with TRY-GUESS), `random-prime`
    /// (RANDOM', for capacities Omega(lg n)), `greedy`, or
    /// `butterfly-fat-tree` (section 3.5, wire by wire).
    #[arg(long, short, value_enum, default_value_t = AlgorithmKind::Random)]
    pub algorithm: AlgorithmKind,
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
    #[arg(long)]
    pub capacity: Option<String>,
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
    #[arg(long, default_value = "1")]
    pub r: String,
    /// random: `proof` uses Theorem 7's constants (k1 = 400 r^2 ln r,
    /// k2 = 36 r, r the fat-tree's congestion parameter); very many cycles.
    #[arg(long, value_parser = ["proof"], conflicts_with_all = ["k1", "k2", "r"])]
    pub constants: Option<String>,
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
    #[arg(long, default_value = "unit")]
    pub delay: String,
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
    /// Write the report as YAML.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Draw delivery cycles against the load factor (SVG), with Figure 3-3's
    /// regions.
    #[arg(long)]
    pub plot: Option<PathBuf>,
}

enum Net {
    Fat(FatTree),
    Wires(LinkTree),
}

impl Net {
    /// The network's processors.
    fn processors(&self) -> u32 {
        match self {
            Net::Fat(t) => t.processors(),
            Net::Wires(t) => t.processors(),
        }
    }
}

fn usage(e: String) -> Error {
    Error::Usage(e)
}

/// The layout file, checked legal and realising the network its parameters
/// describe.
fn read_layout(path: &std::path::Path) -> Result<Embedding> {
    let text = read_text(path)?;
    let file = crate::io::parse_layout(&text, &path.display().to_string())?;
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

/// What `fabric simulate` decided from its flags before building anything.
struct Flags {
    kind: AlgorithmKind,
    traffic: Traffic,
    policy: Policy,
    delay: Delay,
    /// The butterfly fat-tree, routed wire by wire.
    wires: bool,
    /// Theorem 8's adversarial message set.
    adversary: bool,
}

pub fn run(args: &SimulateArgs) -> Result<i32> {
    check_output_paths(
        &args.layout.iter().map(PathBuf::as_path).collect::<Vec<_>>(),
        &outputs_of(&args.output, &args.plot),
    )?;
    let flags = checked(args)?;
    let layout = args.layout.as_deref().map(read_layout).transpose()?;
    let start = Instant::now();
    let (net, capacity_text) = build_net(args, &flags, layout)?;
    let build_seconds = start.elapsed().as_secs_f64();
    let r_auto = match &net {
        Net::Fat(t) => Some(t.congestion_parameter()),
        Net::Wires(_) => None,
    };
    let algorithm = algorithm_of(args, r_auto)?;
    let time = time_model(args, &net, flags.adversary);
    let sim_start = Instant::now();
    let runs = run_rates(args, &flags, &net, &algorithm, &time, start)?;
    let seconds = sim_start.elapsed().as_secs_f64();
    let rep = report_of(
        args,
        &flags,
        &net,
        capacity_text,
        r_auto,
        algorithm,
        time,
        runs,
    );
    finish(args, &rep, build_seconds, seconds)
}

/// Every check of the flags alone, before any file is read or anything
/// built.
fn checked(args: &SimulateArgs) -> Result<Flags> {
    let kind = args.algorithm;
    let traffic = Traffic::of(args.traffic, args.subtree);
    let policy = args.policy.unwrap_or(if kind == AlgorithmKind::Greedy {
        Policy::Priority
    } else {
        Policy::IdealRandom
    });
    let delay = Delay::parse(&args.delay).map_err(usage)?;
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
        || args.r != "1"
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
        delay,
        wires,
        adversary,
    })
}

/// The network and its wire lengths: the butterfly fat-tree or a fat-tree,
/// from the layout file or built in memory; with the capacities' text.
fn build_net(
    args: &SimulateArgs,
    flags: &Flags,
    layout: Option<Embedding>,
) -> Result<(Net, String)> {
    let Flags {
        kind,
        wires,
        adversary,
        ref delay,
        ..
    } = *flags;
    let algorithm_name = kind.name();
    let capacity_text;
    let net = if wires {
        let e = match &layout {
            Some(e) if e.network == "butterfly-fat-tree" => e.clone(),
            Some(e) => {
                return Err(usage(format!(
                    "the butterfly-fat-tree algorithm needs a butterfly-fat-tree layout, not `{}`",
                    e.network
                )))
            }
            None => {
                let n = args.size.expect("clap requires --size without --layout");
                crate::layout::butterfly::butterfly_fat_tree(n).map_err(usage)?
            }
        };
        let graph = Network::from_embedding(&e).map_err(|e| Error::Failed(e.to_string()))?;
        let lengths: Vec<u64> = e.edges.iter().map(|x| x.length()).collect();
        capacity_text = "2^l wires above 4^l leaves".into();
        Net::Wires(LinkTree::new(&graph, Some(&lengths), delay).map_err(Error::Failed)?)
    } else {
        let (n, capacity) = match &layout {
            Some(e) => {
                if e.network != "fat-tree" {
                    return Err(usage(format!(
                        "algorithm {algorithm_name} runs on a fat-tree layout, not `{}`",
                        e.network
                    )));
                }
                if args.capacity.is_some() {
                    return Err(usage(
                        "the layout fixes the capacities; drop --capacity".into(),
                    ));
                }
                let n: u64 = param(e, "processors")?
                    .parse()
                    .map_err(|_| usage("the layout's `processors` is not a number".into()))?;
                let cap = Capacity::parse(&param(e, "capacity")?).map_err(usage)?;
                (n, cap)
            }
            None => {
                let n = args.size.expect("clap requires --size without --layout");
                let cap = if adversary {
                    Capacity::Table(
                        theorem8_capacities(n.min(1 << 30) as u32)
                            .iter()
                            .map(|&c| c as u64)
                            .collect(),
                    )
                } else {
                    Capacity::parse(args.capacity.as_deref().unwrap_or("doubling"))
                        .map_err(usage)?
                };
                (n, cap)
            }
        };
        let alpha = layout
            .as_ref()
            .and_then(|e| e.parameters.get("alpha"))
            .and_then(|a| a.parse().ok())
            .unwrap_or(1);
        let omega = layout
            .as_ref()
            .and_then(|e| e.parameters.get("omega"))
            .and_then(|a| a.parse().ok())
            .unwrap_or(1);
        let spec = FatTreeSpec {
            processors: n,
            capacity: capacity.clone(),
            omega,
            alpha,
        };
        spec.k().map_err(usage)?;
        if n > 1 << 22 {
            return Err(usage(format!(
                "{n} processors: at most 4^11 = 4194304 are simulated"
            )));
        }
        let caps: Vec<u32> = (0..=n.trailing_zeros())
            .map(|i| capacity.at_level(i, n, alpha).map(|c| c as u32))
            .collect::<std::result::Result<_, _>>()
            .map_err(usage)?;
        if adversary && caps != theorem8_capacities(n as u32) {
            return Err(usage(
                "greedy-adversary needs Theorem 8's capacities (2^j above 4^j leaves); this layout has others".into(),
            ));
        }
        capacity_text = if adversary {
            "Theorem 8: 2^j above 4^j leaves".to_string()
        } else {
            capacity.describe()
        };
        let e = match layout {
            Some(e) => e,
            None => crate::layout::fattree::fat_tree(&spec).map_err(usage)?.0,
        };
        let tree = FatTree::new(n as u32, caps).map_err(usage)?;
        Net::Fat(tree.with_layout(&e, delay).map_err(Error::Failed)?)
    };
    Ok((net, capacity_text))
}

/// The algorithm with its constants (RANDOM's `r` from the flags or, with
/// `auto` or `--constants`, from the fat-tree's congestion parameter).
fn algorithm_of(args: &SimulateArgs, r_auto: Option<f64>) -> Result<Algorithm> {
    let kind = args.algorithm;
    Ok(match kind {
        AlgorithmKind::Random => {
            let r = if args.constants.is_some() || args.r == "auto" {
                r_auto.expect("random runs on the fat-tree")
            } else {
                args.r
                    .parse::<f64>()
                    .ok()
                    .filter(|r| r.is_finite() && *r >= 1.0)
                    .ok_or_else(|| {
                        usage(format!("--r `{}`: give a number >= 1 or `auto`", args.r))
                    })?
            };
            if !(args.k1 > 0.0 && args.k2 > 0.0 && args.k1.is_finite() && args.k2.is_finite()) {
                return Err(usage("--k1 and --k2 must be positive".into()));
            }
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

/// The bit-time model: the switch delay from the flag or from the largest
/// capacity in use.
fn time_model(args: &SimulateArgs, net: &Net, adversary: bool) -> TimeModel {
    TimeModel {
        switch_delay: args.switch_delay.unwrap_or(match net {
            // The root's external channel counts only for sink traffic.
            Net::Fat(t) => {
                let used = if adversary {
                    &t.cap[..]
                } else {
                    &t.cap[..t.levels as usize]
                };
                let c_max = used.iter().copied().max().unwrap_or(1);
                2.0 * (2.0 * c_max as f64).log2().ceil()
            }
            Net::Wires(_) => 1.0,
        }),
        payload_bits: args.payload,
    }
}

/// Every rate's trials, in parallel within a rate, with progress on a
/// terminal; the message sets are checked against the memory budget first.
fn run_rates(
    args: &SimulateArgs,
    flags: &Flags,
    net: &Net,
    algorithm: &Algorithm,
    time: &TimeModel,
    start: Instant,
) -> Result<Vec<SimRun>> {
    let (traffic, policy) = (flags.traffic, flags.policy);
    let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let total = args.trials * args.rate.len() as u64;
    let finished = AtomicU64::new(0);
    let progress = || {
        let k = finished.fetch_add(1, Ordering::Relaxed) + 1;
        if tty {
            eprint!(
                "\rsimulate: trial {k} of {total}, {:.1} s   ",
                start.elapsed().as_secs_f64()
            );
        }
    };
    // Every rate's message sets against the memory budget, before any runs.
    let n = net.processors();
    let processors = n as u64;
    let concurrent = args.trials.min(rayon::current_num_threads() as u64);
    for &rate in &args.rate {
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
    let mut runs = Vec::new();
    for (j, &rate) in args.rate.iter().enumerate() {
        // Each rate has its own streams: seed + rate index.
        let seed = args.seed.wrapping_add((j as u64) << 32);
        // Check the message set can be generated before the parallel runs.
        generate(
            traffic,
            n,
            rate,
            policy,
            &mut crate::sim::trial_rng(seed, 0),
        )
        .map_err(usage)?;
        let make = |_i: u64, rng: &mut rand_chacha::ChaCha8Rng| -> Vec<Message> {
            generate(traffic, n, rate, policy, rng).expect("checked above")
        };
        let trials = match &net {
            Net::Fat(t) => run_trials(t, args.trials, seed, time, make, |m, rng| {
                let out = route(t, m, algorithm, policy, args.max_cycles, rng);
                progress();
                (t.load_factor(m), out)
            }),
            Net::Wires(t) => run_trials(t, args.trials, seed, time, make, |m, rng| {
                let out = route(t, m, algorithm, policy, args.max_cycles, rng);
                progress();
                (t.load_factor(m), out)
            }),
        };
        // Trial 0's message set again (its stream starts with the draw), for
        // the per-level loads.
        let first = make(0, &mut crate::sim::trial_rng(seed, 0));
        let levels = match &net {
            Net::Fat(t) => t.level_loads(&first),
            Net::Wires(t) => t.level_loads(&first),
        };
        debug_assert_eq!(first.len(), trials[0].messages);
        runs.push(SimRun {
            rate,
            trials,
            levels,
        });
    }
    if tty {
        eprint!("\r\x1b[K");
    }
    Ok(runs)
}

/// The report of the runs.
#[allow(clippy::too_many_arguments)]
fn report_of(
    args: &SimulateArgs,
    flags: &Flags,
    net: &Net,
    capacity_text: String,
    r_auto: Option<f64>,
    algorithm: Algorithm,
    time: TimeModel,
    runs: Vec<SimRun>,
) -> SimReport {
    let worst = match net {
        Net::Fat(t) => t.worst_latency(&time),
        Net::Wires(t) => t.worst_latency(&time),
    };
    let address = match net {
        Net::Fat(t) => t.address_bits(),
        Net::Wires(t) => t.address_bits(),
    };
    let network_cycle_bit_time = 2.0 * worst + (address + time.payload_bits) as f64;
    let (n, levels_cap, wire_length, wire_delay, r) = match net {
        Net::Fat(t) => (
            t.processors(),
            t.cap.clone(),
            t.wire_length.clone(),
            t.wire_delay.clone(),
            r_auto,
        ),
        Net::Wires(t) => (
            t.processors(),
            Vec::new(),
            t.wire_length.clone(),
            t.wire_delay.clone(),
            None,
        ),
    };
    SimReport {
        network: if flags.wires {
            "butterfly-fat-tree".into()
        } else {
            "fat-tree".into()
        },
        processors: n,
        capacity: capacity_text,
        capacities: levels_cap,
        congestion_parameter: r,
        algorithm,
        policy: flags.policy,
        traffic: flags.traffic,
        seed: args.seed,
        layout: args
            .layout
            .as_ref()
            .map_or("built in memory".into(), |p| p.display().to_string()),
        delay: args.delay.clone(),
        wire_length,
        wire_delay,
        time,
        network_cycle_bit_time,
        max_cycles: args.max_cycles,
        runs,
    }
}

/// Write the outputs, print the table and the timing; exit 1 when a trial
/// did not deliver every message.
fn finish(args: &SimulateArgs, rep: &SimReport, build_seconds: f64, seconds: f64) -> Result<i32> {
    let total = args.trials * args.rate.len() as u64;
    let mut outputs = Vec::new();
    if let Some(path) = &args.output {
        outputs.push((path.clone(), report::yaml::simulation_yaml(rep)));
    }
    if let Some(path) = &args.plot {
        outputs.push((
            path.clone(),
            report::chart::cycles_chart(rep).map_err(Error::Failed)?,
        ));
    }
    write_all_or_nothing(&outputs)?;
    print!("{}", report::table::simulation_table(rep));
    let steps: u64 = rep
        .runs
        .iter()
        .flat_map(|r| &r.trials)
        .map(|t| t.outcome.steps)
        .sum();
    println!(
        "  network built in {:.2} s; {} trials in {:.2} s ({:.1} M message-channel steps/s)",
        build_seconds,
        total,
        seconds,
        steps as f64 / seconds.max(1e-9) / 1e6
    );
    let incomplete = rep
        .runs
        .iter()
        .flat_map(|r| &r.trials)
        .filter(|t| !t.outcome.complete)
        .count();
    if incomplete > 0 {
        eprintln!(
            "error: {incomplete} trial(s) did not deliver every message within {} cycles (--max-cycles)",
            args.max_cycles
        );
        return Ok(1);
    }
    Ok(0)
}
