//! `fabric simulate`: route message sets over a laid-out network and report
//! delivery cycles and bit-times against the load factor.
//!
//! The flags are parsed into typed fields (`args`), then checked and turned
//! into a [`job::SimulateJob`] (`job`) before anything long runs; [`run`]
//! then builds the network, runs every rate's trials and writes the report.

mod args;
mod bay_bilardi;
mod butterfly;
mod job;
mod mesh;
mod open_loop;
mod wire_delay;
mod wormhole;

use std::time::Instant;

use crate::error::{Error, Result, SimulationFailure};
use crate::network::Network;
use crate::report;
use crate::sim::algorithms::route;
use crate::sim::bft::LinkTree;
use crate::sim::fattree::FatTree;
use crate::sim::traffic::generate;
use crate::sim::{run_trials, FabricFigures, Message, SimError, SimReport, SimRun, TimeModel};

pub use args::SimulateArgs;
pub use bay_bilardi::BbArgs;
pub use butterfly::ButterflyArgs;
use job::{usage, ExternalChannel, NetPlan, SimulateJob};
pub use mesh::MeshArgs;
pub use wormhole::WormholeArgs;

use super::write_all_or_nothing;

/// A built network: a fat-tree or the butterfly fat-tree, routed wire by
/// wire. Everything after the build is generic over [`FabricFigures`]; this enum
/// is the one place that names the fabrics.
enum Net {
    Fat(FatTree),
    Wires(LinkTree),
}

/// A network that cannot be built from a checked layout: the job fails.
fn failed(e: SimError) -> Error {
    SimulationFailure::Fabric(e).into()
}

/// The networks `fabric simulate` routes over, each with its own flags.
#[derive(Debug, clap::Subcommand)]
pub enum SimulateCommand {
    /// Fat-trees (thesis chapter 3) in delivery cycles: cycles and
    /// bit-times against the load factor.
    #[command(after_help = "Examples:\n  \
        fabric simulate fat-tree --algorithm random --traffic permutation --size 256 --rate 1,4,16 --plot cycles.svg\n  \
        fabric simulate fat-tree --algorithm greedy --traffic greedy-adversary --size 1024 --rate 12,24\n  \
        fabric simulate fat-tree --algorithm butterfly-fat-tree --size 256 --delay linear -o bft.yaml")]
    FatTree(SimulateArgs),
    /// The butterfly with bounded queues (Maggs and Sitaraman), packet by
    /// packet, each figure beside the paper's bound.
    #[command(after_help = "Examples:\n  \
        fabric simulate butterfly --size 64,256,1024,4096 --queue 1,2,4 --trials 20 --plot e1.svg\n  \
        fabric simulate butterfly --model t --traffic adversary --size 4096,16384,65536 --queue 2\n  \
        fabric simulate butterfly --traffic bit-reversal --routing two-phase --size 1024 --queue 2")]
    Butterfly(ButterflyArgs),
    /// Wormhole routing on fat-trees (Greenberg and Oh): WORM, STORE, UNIV
    /// and SPLIT flit by flit, each cell beside the paper's Tables I and II.
    #[command(after_help = "Examples:\n  \
        fabric simulate wormhole --scheme store,worm --traffic random,complement,many-to-one --size 16,64,256,1024\n  \
        fabric simulate wormhole --scheme store,univ --priorities lg --plot fig2.svg\n  \
        fabric simulate wormhole --scheme worm --path fp,rp,gp --flits 16 --runs 10 -o worm.yaml")]
    Wormhole(WormholeArgs),
    /// Randomized k-k routing on meshes and tori (Kaufmann and Sibeyn):
    /// NoWrapRoute, WrapRoute, LocalRoute and LevelRoute, T beside the
    /// lower bounds and the paper's leading terms.
    #[command(after_help = "Examples:\n  \
        fabric simulate mesh --algorithm nowrap --size 64,128 --k 1,8,16 --traffic ls,random\n  \
        fabric simulate mesh --algorithm wrap --topology torus --size 128 --k 8 --trials 10 -o wrap.yaml\n  \
        fabric simulate mesh --experiment e2 --plot e2.svg")]
    Mesh(MeshArgs),
    /// Deterministic routing on the pruned butterfly (Bay and Bilardi):
    /// stages by peak level, batches, sidetracking; T in bit steps beside
    /// b·λ, Theorem 1 and the A·T² floors.
    #[command(after_help = "Examples:\n  \
        fabric simulate pruned-butterfly --traffic nbr,xorhalf,bitrev,transpose,hot-spot --size 1024 --trials 1\n  \
        fabric simulate pruned-butterfly --traffic random-perm,multi-scale --size 64,256,1024,4096 --plot pb.svg\n  \
        fabric simulate pruned-butterfly --traffic mot-exp --eta 8 --size 4096 -o witness.yaml")]
    PrunedButterfly(BbArgs),
    /// Deterministic routing on the sorting fat-tree (Bay and Bilardi):
    /// batches climb to their peaks through flexible sorters and descend;
    /// T in bit steps beside b·λ, Theorem 3 and the A·T² floors.
    #[command(after_help = "Examples:\n  \
        fabric simulate sorting-fat-tree --traffic random-perm,bitrev --size 256,1024,4096,16384\n  \
        fabric simulate sorting-fat-tree --traffic random-kn --k 3 --size 4096 -o sft.yaml")]
    SortingFatTree(BbArgs),
    /// Messages of a competing mesh routed wire by wire over laid-out
    /// networks (fat-pyramid, fat-tree, H-tree, tree of meshes), each timed
    /// by its own path's wires: c = time / (d + lg A) and Delta delta.
    #[command(after_help = "Examples:\n  \
        fabric simulate wire-delay --network fat-pyramid,fat-tree --size 256,1024,4096 --delay linear --delay sqrt --plot c.svg\n  \
        fabric simulate wire-delay --layout pyramid.yaml --traffic local --radius 4 -o pyr.yaml\n  \
        fabric simulate wire-delay --network tree-of-meshes,htree --size 1024 --delay linear")]
    WireDelay(wire_delay::WireDelayArgs),
    /// Open-loop traffic through virtual-channel routers on laid-out
    /// fabrics: latency against accepted throughput, saturation beside the
    /// channel-load bound.
    #[command(after_help = "Examples:\n  \
        fabric simulate open-loop --topology mesh --size 64 --vcs 1,2,4 --rates 0.05:0.5:0.05 -o mesh.yaml --plot mesh.svg\n  \
        fabric simulate open-loop --topology mesh,fat-tree,butterfly-fat-tree --links unit,layout --plot cmp.svg\n  \
        fabric simulate open-loop --topology torus --traffic tornado --vcs 2 --compare mesh.yaml --plot t.svg")]
    OpenLoop(open_loop::OpenLoopArgs),
}

/// `fabric simulate NETWORK ...`.
pub fn run(command: SimulateCommand) -> Result<i32> {
    match command {
        SimulateCommand::FatTree(args) => run_fat_tree(&args),
        SimulateCommand::Butterfly(args) => butterfly::run(&args),
        SimulateCommand::Wormhole(args) => wormhole::run(&args),
        SimulateCommand::Mesh(args) => mesh::run(&args),
        SimulateCommand::PrunedButterfly(args) => {
            bay_bilardi::run(crate::sim::bb::run::Network::PrunedButterfly, &args)
        }
        SimulateCommand::SortingFatTree(args) => {
            bay_bilardi::run(crate::sim::bb::run::Network::SortingFatTree, &args)
        }
        SimulateCommand::WireDelay(args) => wire_delay::run(&args),
        SimulateCommand::OpenLoop(args) => open_loop::run(&args),
    }
}

/// `fabric simulate fat-tree`: check the arguments into a job, then run it.
fn run_fat_tree(args: &SimulateArgs) -> Result<i32> {
    let job = SimulateJob::from_args(args)?;
    for w in &job.warnings {
        eprintln!("warning: {}", w.message());
    }
    let start = Instant::now();
    let net = build_net(&job)?;
    let build_seconds = start.elapsed().as_secs_f64();
    let time = time_model(&job, &net);
    let sim_start = Instant::now();
    let cpu_start = cpu_seconds();
    let runs = run_rates(&job, &net, &time);
    let timing = Timing {
        build_seconds,
        wall_seconds: sim_start.elapsed().as_secs_f64(),
        cpu_seconds: cpu_seconds() - cpu_start,
    };
    let rep = report_of(&job, &net, time, runs);
    finish(&job, &rep, &timing)
}

/// How long a job took.
struct Timing {
    /// Wall seconds to build the network.
    build_seconds: f64,
    /// Wall seconds of the trials.
    wall_seconds: f64,
    /// CPU seconds (user and system, every thread) of the trials.
    cpu_seconds: f64,
}

/// User plus system CPU time of the process so far, every thread, in
/// seconds (`getrusage(RUSAGE_SELF)`); 0 if the call fails.
fn cpu_seconds() -> f64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a `rusage` through the pointer, which points
    // at one; we read it only when the call reports success.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) };
    if rc != 0 {
        return 0.0;
    }
    // SAFETY: the call succeeded, so the struct is written (and it was
    // zeroed before, which is a valid `rusage` anyway).
    let usage = unsafe { usage.assume_init() };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// The network and its wire lengths, from the layout file or laid out in
/// memory.
fn build_net(job: &SimulateJob) -> Result<Net> {
    Ok(match &job.plan {
        NetPlan::Wires { n, layout } => {
            let e = match layout {
                Some(e) => e.clone(),
                None => crate::layout::butterfly::butterfly_fat_tree(*n)
                    .map_err(|e| usage(e.to_string()))?,
            };
            let graph = Network::from_embedding(&e).map_err(SimulationFailure::Network)?;
            let lengths: Vec<u64> = e.edges.iter().map(|x| x.length()).collect();
            Net::Wires(LinkTree::new(&graph, Some(&lengths), &job.delay).map_err(failed)?)
        }
        NetPlan::Fat { tree, spec, layout } => {
            let built;
            let e = match layout {
                Some(e) => e,
                None => {
                    built = crate::layout::fattree::fat_tree(spec)
                        .map_err(|e| usage(e.to_string()))?
                        .0;
                    &built
                }
            };
            Net::Fat(tree.clone().with_layout(e, &job.delay).map_err(failed)?)
        }
    })
}

/// The bit-time model: the switch delay from the flag or from the largest
/// capacity in use.
fn time_model(job: &SimulateJob, net: &Net) -> TimeModel {
    TimeModel {
        switch_delay: job.switch_delay.unwrap_or(match net {
            // The root's external channel counts only for sink traffic.
            Net::Fat(t) => {
                let used = match job.external {
                    ExternalChannel::Used => &t.cap[..],
                    ExternalChannel::Unused => &t.cap[..t.levels as usize],
                };
                let c_max = used.iter().copied().max().unwrap_or(1);
                2.0 * (2.0 * c_max as f64).log2().ceil()
            }
            Net::Wires(_) => 1.0,
        }),
        payload_bits: job.payload,
    }
}

/// Every rate's trials on the built network.
fn run_rates(job: &SimulateJob, net: &Net, time: &TimeModel) -> Vec<SimRun> {
    match net {
        Net::Fat(t) => rates_on(job, t, time),
        Net::Wires(t) => rates_on(job, t, time),
    }
}

/// Every rate's trials, in parallel within a rate, with progress on a
/// terminal (the job has checked the memory budget and the message sets).
fn rates_on<F: FabricFigures>(job: &SimulateJob, fabric: &F, time: &TimeModel) -> Vec<SimRun> {
    let (traffic, policy) = (job.traffic, job.policy);
    let bar = crate::cli::progress::Progress::bar(job.trials * job.rates.len() as u64, "trials");
    let progress = || bar.step();
    let n = fabric.processors();
    let algorithm = &job.algorithm;
    let mut runs = Vec::new();
    for (j, &rate) in job.rates.iter().enumerate() {
        let seed = job.rate_seed(j);
        let make = |_i: u64, rng: &mut rand_chacha::ChaCha8Rng| -> Vec<Message> {
            generate(traffic, n, rate, policy, rng).expect("checked by the job")
        };
        let trials = run_trials(fabric, job.trials, seed, time, make, |m, rng| {
            let out = route(fabric, m, algorithm, policy, job.max_cycles, rng);
            progress();
            (fabric.load_factor(m), out)
        });
        // Trial 0's message set again (its stream starts with the draw), for
        // the per-level loads.
        let first = make(0, &mut crate::sim::trial_rng(seed, 0));
        let levels = fabric.level_loads(&first);
        debug_assert_eq!(first.len(), trials[0].messages);
        runs.push(SimRun {
            rate,
            trials,
            levels,
        });
    }
    drop(bar);
    runs
}

/// The report of the runs.
fn report_of(job: &SimulateJob, net: &Net, time: TimeModel, runs: Vec<SimRun>) -> SimReport {
    match net {
        Net::Fat(t) => report_on(job, t, time, runs),
        Net::Wires(t) => report_on(job, t, time, runs),
    }
}

/// The report of the runs on one fabric.
fn report_on<F: FabricFigures>(
    job: &SimulateJob,
    fabric: &F,
    time: TimeModel,
    runs: Vec<SimRun>,
) -> SimReport {
    let worst = fabric.worst_latency(&time);
    let network_cycle_bit_time = 2.0 * worst + (fabric.address_bits() + time.payload_bits) as f64;
    SimReport {
        network: fabric.network_name().into(),
        processors: fabric.processors(),
        capacity: job.capacity_text.clone(),
        capacities: fabric.capacities().to_vec(),
        congestion_parameter: job.congestion,
        algorithm: job.algorithm,
        policy: job.policy,
        traffic: job.traffic,
        seed: job.seed,
        layout: job.layout_name.clone(),
        delay: job.delay_text.clone(),
        wire_length: fabric.wire_lengths().to_vec(),
        wire_delay: fabric.wire_delays().to_vec(),
        time,
        network_cycle_bit_time,
        max_cycles: job.max_cycles,
        warnings: job.warnings.clone(),
        runs,
    }
}

/// Write the outputs, print the table and the timing; exit 1 when a trial
/// did not deliver every message.
fn finish(job: &SimulateJob, rep: &SimReport, timing: &Timing) -> Result<i32> {
    let total = job.trials * job.rates.len() as u64;
    let mut outputs = Vec::new();
    if let Some(path) = &job.output {
        let model = report::model::FatTreeSimReport::new(rep);
        outputs.push((path.clone(), report::model::render(&model, job.format)?));
    }
    if let Some(path) = &job.plot {
        outputs.push((path.clone(), report::chart::cycles_chart(rep)?));
    }
    write_all_or_nothing(&outputs)?;
    print!("{}", report::table::simulation_table(rep));
    let steps: u64 = rep
        .runs
        .iter()
        .flat_map(|r| &r.trials)
        .map(|t| t.outcome.steps)
        .sum();
    let per = |seconds: f64| steps as f64 / seconds.max(1e-9) / 1e6;
    println!(
        "  network built in {:.2} s; {} trials in {:.2} s wall, {:.2} s CPU \
         ({:.1} M message-channel steps per wall second, {:.1} M per CPU-second)",
        timing.build_seconds,
        total,
        timing.wall_seconds,
        timing.cpu_seconds,
        per(timing.wall_seconds),
        per(timing.cpu_seconds)
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
            job.max_cycles
        );
        return Ok(1);
    }
    Ok(0)
}
