//! `fabric simulate wire-delay`: messages of a competing mesh routed wire
//! by wire over laid-out networks (the fat-pyramid, the universal fat-tree,
//! the H-tree, the tree of meshes), each delivery timed by the wires of its
//! own path; Theorem 18's `c = time / (d + lg A)` and Delta delta beside
//! the layout's analytic value.
//!
//! Every network is laid out (or read and checked) and every memory
//! estimate made before any trial runs; the outputs are written whole or
//! not at all.

use std::path::PathBuf;
use std::time::Instant;

use super::job::read_layout;
use crate::cli::{check_output_paths, outputs_of, parse_delay, write_all_or_nothing, DelayArg};
use crate::error::{Error, Result, SimulationFailure};
use crate::layout::pyramid::{delta_delta, PyramidSpec};
use crate::layout::{Embedding, NetworkName};
use crate::report::bay_bilardi::Spread;
use crate::report::model::Report;
use crate::report::wire_delay::{
    merge_rows, wire_delay_chart, wire_delay_table, WireCell, WireDelayReport,
};
use crate::sim::circuit::{trial, Exchange, ExchangeKind, Routable, Timing, WireNetwork};
use crate::sim::seeded_trials;

fn parse_size(s: &str) -> std::result::Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if (16..=1 << 18).contains(&n) && n.is_power_of_two() => Ok(n),
        _ => Err(format!(
            "`{s}`: give a power of 4 (a power of 8 for tree-of-meshes-3d) from 16 to 2^18"
        )),
    }
}

/// Arguments of `fabric simulate wire-delay`.
#[derive(Debug, clap::Args)]
pub struct WireDelayArgs {
    /// Networks laid out in memory: fat-pyramid (Theorem 18's shortcuts),
    /// fat-tree (capacities ceil(sqrt p / lg n)), htree, tree-of-meshes,
    /// tree-of-meshes-3d (a 3-D competing mesh); a list compares them on the
    /// same message sets.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "fat-pyramid,fat-tree"
    )]
    pub network: Vec<WireNetwork>,
    /// Processors, powers of 4 from 16 to 4^9 (tree of meshes: to 4^7;
    /// tree-of-meshes-3d: powers of 8 to 8^5); a list sweeps.
    #[arg(long, short = 'n', value_delimiter = ',', value_parser = parse_size, default_value = "4096")]
    pub size: Vec<u64>,
    /// Route over this layout file (fat-pyramid, fat-tree, htree, a tree of
    /// meshes in 2-D or 3-D; checked first) instead of --network and --size.
    #[arg(long, conflicts_with_all = ["network", "size"])]
    pub layout: Option<PathBuf>,
    /// Message sets: local (each processor to one within --radius in the
    /// competing mesh), global (a random permutation); a list runs each.
    #[arg(
        long,
        short,
        value_enum,
        value_delimiter = ',',
        default_value = "local,global"
    )]
    pub traffic: Vec<ExchangeKind>,
    /// Radius of local traffic in the competing mesh.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub radius: u64,
    /// Wire delay w(d): unit, linear, log, sqrt or points `d:w,...`;
    /// repeat the flag to run several.
    #[arg(long, value_parser = parse_delay, default_values = ["linear", "sqrt"])]
    pub delay: Vec<DelayArg>,
    /// Parallel links between fat-pyramid mesh neighbours (as `fabric
    /// layout fat-pyramid --mesh-capacity`); a coarser construction uses 6.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64), conflicts_with = "layout")]
    pub mesh_capacity: u32,
    /// Bit-times through a switch.
    #[arg(long, default_value_t = 1.0)]
    pub switch_delay: f64,
    /// Payload bits after the 2 lg n address bits (at most 2^32).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(..=1 << 32))]
    pub payload: u64,
    /// Independent trials per cell (run in parallel).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=10000))]
    pub trials: u64,
    /// Random seed; the same seed gives the same report.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Give up a trial after this many rounds (exit 1).
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_rounds: u32,
    /// Write the report (schema fabric.simulate.wire_delay; see --format).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The report's format (csv: one row per cell).
    #[command(flatten)]
    pub format: crate::cli::FormatArgs,
    /// Draw c path (the largest path time over d + lg A) against the
    /// processors (SVG).
    #[arg(long)]
    pub plot: Option<PathBuf>,
}

/// How the engine routes and times, for the report.
fn rules() -> Vec<String> {
    vec![
        "circuit switching: each round every undelivered message seizes its path channel by channel (hop j of all before hop j+1) under a random priority; a full channel aborts it until the next round".into(),
        "a channel is the parallel wires between two nodes: as many messages as wires, delay w(longest)".into(),
        "attempt time 2 sum(s + w) + L delivered, 2 (sum before the full channel + s) aborted; delivery time = sum of a message's attempts (thesis 4.3's asynchronous rule)".into(),
        "competing mesh: point (x, y) on the processor in the layout's x-th column and y-th row (tree of meshes: by definition); d its mesh distance, A the processors".into(),
        "Δδ = max over messages of W / (T_1 w(d)): W the path's wire delays summed, T_1 = 2 depth hops; Δδ lay the same with each level's longest wire".into(),
    ]
}

/// A network to route: its layout and where it came from.
struct Net {
    network: WireNetwork,
    layout: String,
    embedding: Embedding,
}

/// The network kind of a layout file, or why it is not routed here.
fn network_of(e: &Embedding) -> Result<WireNetwork> {
    Ok(match e.network {
        NetworkName::FatPyramid => WireNetwork::FatPyramid,
        NetworkName::FatTree => WireNetwork::FatTree,
        NetworkName::Htree => WireNetwork::Htree,
        NetworkName::TreeOfMeshes => WireNetwork::TreeOfMeshes,
        NetworkName::TreeOfMeshes3d => WireNetwork::TreeOfMeshes3d,
        ref other => {
            return Err(Error::Usage(format!(
                "a `{other}` layout: wire-delay routes fat-pyramid, fat-tree, htree and tree-of-meshes(-3d) layouts (fabric simulate fat-tree takes the other trees)"
            )))
        }
    })
}

/// Every network the flags name, laid out, after every memory check.
fn networks(args: &WireDelayArgs) -> Result<Vec<Net>> {
    if let Some(path) = &args.layout {
        let e = read_layout(path)?;
        return Ok(vec![Net {
            network: network_of(&e)?,
            layout: path.display().to_string(),
            embedding: e,
        }]);
    }
    for &n in &args.size {
        for &network in &args.network {
            let cube = network == WireNetwork::TreeOfMeshes3d;
            if cube && n.trailing_zeros() % 3 != 0 {
                return Err(Error::Usage(format!(
                    "{n} processors: tree-of-meshes-3d needs a power of 8"
                )));
            }
            if !cube && n.trailing_zeros() % 2 != 0 {
                return Err(Error::Usage(format!(
                    "{n} processors: {} needs a power of 4",
                    network.layout_kind().name()
                )));
            }
            let most = match network {
                WireNetwork::TreeOfMeshes => 1 << 14,
                WireNetwork::TreeOfMeshes3d => 1 << 15,
                _ => 1 << 18,
            };
            if n > most {
                return Err(Error::Usage(format!(
                    "{n} processors: the {} is laid out to {most} here (area n lg^2 n)",
                    network.layout_kind().name()
                )));
            }
            let kind = network.layout_kind();
            crate::limits::check(
                || format!("laying out a {} of {n} processors", kind.name()),
                crate::limits::layout_bytes(kind, network.layout_size(n), Default::default())
                    .saturating_add(n.saturating_mul(256)),
            )?;
        }
    }
    let mut out = Vec::new();
    for &n in &args.size {
        for &network in &args.network {
            let embedding = network
                .build(n, args.mesh_capacity)
                .map_err(|e| Error::Usage(format!("{n} processors: {e}")))?;
            out.push(Net {
                network,
                layout: "built in memory".into(),
                embedding,
            });
        }
    }
    Ok(out)
}

/// The fat-pyramid's analytic Delta delta and the thesis's expression.
fn analytic(net: &Net, delay: &DelayArg) -> (Option<f64>, Option<f64>) {
    if net.network != WireNetwork::FatPyramid {
        return (None, None);
    }
    let p = &net.embedding.parameters;
    let num = |k: &str| p.get(k).and_then(|v| v.parse::<u64>().ok());
    match (num("processors"), num("block_levels")) {
        (Some(processors), Some(beta)) => {
            let spec = PyramidSpec {
                processors,
                beta: beta as u32,
                mesh_capacity: num("mesh_capacity").unwrap_or(1) as u32,
            };
            let dd = delta_delta(&net.embedding, spec, &delay.delay);
            (Some(dd.max), Some(dd.thesis_max))
        }
        _ => (None, None),
    }
}

/// `fabric simulate wire-delay`.
pub fn run(args: &WireDelayArgs) -> Result<i32> {
    args.format.check::<WireDelayReport>()?;
    let layouts: Vec<&std::path::Path> = args.layout.iter().map(PathBuf::as_path).collect();
    check_output_paths(&layouts, &outputs_of(&args.output, &args.plot))?;
    if !(args.switch_delay >= 0.0 && args.switch_delay.is_finite()) {
        return Err(Error::Usage("--switch-delay must be a number >= 0".into()));
    }
    let start = Instant::now();
    let nets = networks(args)?;
    let routable: Vec<Routable> = nets
        .iter()
        .map(|n| {
            Routable::new(&n.embedding).map_err(|e| Error::Usage(format!("{}: {e}", n.layout)))
        })
        .collect::<Result<_>>()?;
    let total = nets.len() * args.delay.len() * args.traffic.len();
    let bar = crate::cli::progress::Progress::bar(total as u64, "cells");
    let mut cells = Vec::new();
    for (net, laid) in nets.iter().zip(&routable) {
        let n = laid.processors();
        let message_bits = 2 * u64::from(n.ilog2()) + args.payload;
        for delay in &args.delay {
            let timing = Timing {
                switch_delay: args.switch_delay,
                message_bits: message_bits as f64,
                delay: delay.delay.clone(),
            };
            let (dd_layout, dd_thesis) = analytic(net, delay);
            for &traffic in &args.traffic {
                bar.message(format!("{} n = {n}", net.layout));
                let how = match traffic {
                    ExchangeKind::Local => Exchange::Local {
                        radius: args.radius,
                    },
                    ExchangeKind::Global => Exchange::Global,
                };
                // Same seed for every network and delay, and for a traffic
                // kind whatever the list's order: the same message sets.
                let seed = args.seed.wrapping_add((traffic as u64) << 32) ^ n;
                let t0 = Instant::now();
                let trials = seeded_trials(args.trials, seed, |_, rng| {
                    trial(laid, how, &timing, rng, args.max_rounds)
                })
                .map_err(|source| SimulationFailure::WireDelay {
                    layout: net.layout.clone(),
                    processors: n,
                    source,
                })?;
                let spread = |f: fn(&crate::sim::circuit::TrialFigures) -> f64| {
                    Spread::of(trials.iter().map(f))
                };
                cells.push(WireCell {
                    network: net.network,
                    algorithm: laid.rule.name().to_string(),
                    layout: net.layout.clone(),
                    processors: n,
                    area: laid.area,
                    delay: delay.text.clone(),
                    traffic,
                    radius: (traffic == ExchangeKind::Local).then_some(args.radius),
                    message_bits,
                    seed,
                    messages: spread(|t| t.messages as f64),
                    rounds: spread(|t| t.rounds as f64),
                    mean_time: spread(|t| t.mean_time),
                    max_time: spread(|t| t.max_time),
                    synchronous_time: spread(|t| t.synchronous_time),
                    c: spread(|t| t.c),
                    c_path: spread(|t| t.c_path),
                    delta_delta: trials.iter().map(|t| t.delta_delta).fold(0.0, f64::max),
                    delta_delta_analytic: dd_layout,
                    delta_delta_thesis: dd_thesis,
                    by_distance: merge_rows(&trials),
                    seconds: t0.elapsed().as_secs_f64(),
                });
                bar.step();
            }
        }
    }
    drop(bar);
    let report = WireDelayReport {
        header: WireDelayReport::header(),
        trials: args.trials,
        seed: args.seed,
        switch_delay: args.switch_delay,
        rules: rules(),
        cells,
    };
    let mut outputs = Vec::new();
    if let Some(path) = &args.output {
        outputs.push((
            path.clone(),
            crate::report::model::render(&report, args.format.format)?,
        ));
    }
    if let Some(path) = &args.plot {
        outputs.push((path.clone(), wire_delay_chart(&report)?));
    }
    write_all_or_nothing(&outputs)?;
    print!("{}", wire_delay_table(&report));
    println!(
        "  {} cells of {} trials in {:.2} s",
        report.cells.len(),
        args.trials,
        start.elapsed().as_secs_f64()
    );
    Ok(0)
}
