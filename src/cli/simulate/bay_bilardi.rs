//! `fabric simulate pruned-butterfly` and `sorting-fat-tree`: Bay and
//! Bilardi's deterministic routing on the two area-universal networks,
//! swept over sizes and workloads; every trial's time beside the floor
//! `b·λ` and the paper's bound, and `A·T²` of the laid-out network beside
//! both floors.
//!
//! Every size is checked (and laid out, for its area) before any trial
//! runs; the outputs are written whole or not at all. A claim of the
//! paper failing on a trial ends the run with exit 1.

use std::path::PathBuf;
use std::time::Instant;

use crate::cli::{check_output_paths, outputs_of, write_all_or_nothing, FormatArgs};
use crate::error::{Error, Result, SimulationFailure};
use crate::report::bay_bilardi::{bb_chart, bb_table};
use crate::report::model::bay_bilardi::{BbCell, BbReport};
use crate::report::model::{render, Report};
use crate::sim::bb::run::{layout_area, run_trial, Network, Setting};
use crate::sim::bb::sft::SftModel;
use crate::sim::bb::traffic::{Params, Workload};
use crate::sim::seeded_trials;

fn parse_size(s: &str) -> std::result::Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n)
            if (4..=1 << 20).contains(&n) && n.is_power_of_two() && n.trailing_zeros() % 2 == 0 =>
        {
            Ok(n)
        }
        _ => Err(format!(
            "`{s}`: N must be a power of 4 from 4 to 2^16 (the largest laid out)"
        )),
    }
}

fn parse_lambda0(s: &str) -> std::result::Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("`{s}`: λ0 must be a positive number")),
    }
}

/// Arguments of `fabric simulate pruned-butterfly` and `sorting-fat-tree`.
#[derive(Debug, clap::Args)]
pub struct BbArgs {
    /// Message sets: nbr, xorhalf, bitrev, transpose, random-perm,
    /// random-kn, hot-spot, multi-scale, mot-exp; a list sweeps.
    #[arg(
        long,
        short,
        value_enum,
        value_delimiter = ',',
        default_value = "random-perm"
    )]
    pub traffic: Vec<Workload>,
    /// Terminals N, powers of 4 (the sorting fat-tree from 256); a list
    /// sweeps.
    #[arg(long, short = 'n', value_delimiter = ',', value_parser = parse_size, default_value = "1024")]
    pub size: Vec<u64>,
    /// Bits of a message body b; default lg N.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub body_bits: Option<u32>,
    /// Messages per terminal of random-kn.
    #[arg(long, short, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub k: u32,
    /// λ0 of multi-scale: each subtree sends λ0·cap messages to its sibling.
    #[arg(long, default_value = "1", value_parser = parse_lambda0)]
    pub lambda0: f64,
    /// The target η of mot-exp (a power of 2, at most sqrt(N)).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub eta: u32,
    /// The sorting fat-tree's cost model for Steps 4–7: lean (the paper's
    /// Step 4: each arriving column through the Lemma 9 sorter once, waves
    /// pipelined) or conservative (a full flexible sort per node and
    /// stage).
    #[arg(long, value_enum, default_value_t = SftModel::Lean)]
    pub sft_model: SftModel,
    /// Independent trials per cell (run in parallel).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=10000))]
    pub trials: u64,
    /// Random seed; the same seed gives the same report.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Take N and the area A from this layout file (`fabric layout
    /// pruned-butterfly|sorting-fat-tree ... -o`; checked first) instead of
    /// --size; the time model ignores wire delay, as the paper does.
    #[arg(long, conflicts_with = "size")]
    pub layout: Option<PathBuf>,
    /// Write the report (YAML unless --format says otherwise).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The report's format.
    #[command(flatten)]
    pub format: FormatArgs,
    /// Draw T against N (SVG), one series per workload.
    #[arg(long)]
    pub plot: Option<PathBuf>,
}

/// The rules followed where the paper leaves a choice.
fn rules(network: Network, model: SftModel) -> Vec<String> {
    let mut r: Vec<String> = vec![
        "time in bit steps, wire delay ignored (the paper's model); b = lg N unless given".into(),
        "λ over the network's channel capacities; η on the reference tree, leaf edges at height 0".into(),
        "A from the layout (fabric layout); floors with constant 1; T >= b·λ and A·T² >= b²η²N asserted".into(),
    ];
    match network {
        Network::PrunedButterfly => r.extend([
            "compression to the parent's vertices; λ_T = max ceil(ℓ/cap) including the channel to the parent".to_string(),
            "key (dst, src, id); two sidetracked messages split without toggling; half-duplex stages".to_string(),
            "Corollary 1, Lemmas 1, 4, 6, 7 and Theorem 1 asserted on every trial".to_string(),
        ]),
        Network::SortingFatTree => r.extend([
            "L x L meshes, L the least power of 2 >= lg N; B = lg N batches; sorters of capacity d·n".to_string(),
            match model {
                SftModel::Lean => "lean model: a stage lasts its slowest node's column passes (Lemma 9, b + lg s each) with its waves pipelined; full flexible sorts only in steps 5-6; barrier 2H; mesh steps 3·L words",
                SftModel::Conservative => "conservative model: a stage lasts its slowest node's full flexible sort (Theorem 2) plus its waves; barrier 2 lg N; mesh steps 3·L words",
            }
            .to_string(),
            "Lemma 10 (per batch and channel, up and down) and the sorters' capacity (ascent, peak sorts, descent, padded to whole columns) asserted".to_string(),
        ]),
    }
    r
}

/// Bytes a trial holds per message: the set, the router's state, the
/// loads' sorted copies, with room.
const BYTES_PER_MESSAGE: u64 = 128;

/// At most how many messages a workload makes on `n` terminals (the
/// multi-scale set sends at most `λ0 cap` per subtree and level, under
/// `8 λ0 N` in all).
fn estimate(workload: Workload, params: &Params, n: u64) -> u64 {
    match workload {
        Workload::RandomKn => u64::from(params.k) * n,
        Workload::MultiScale => (8.0 * params.lambda0 * n as f64).ceil() as u64 + n,
        Workload::MotExp => 8 * n,
        _ => n,
    }
}

/// `(N, A)` of a layout file of `network`, checked legal.
fn laid(network: Network, path: &std::path::Path) -> Result<(u64, u64)> {
    let e = super::job::read_layout(path)?;
    let want = match network {
        Network::PrunedButterfly => crate::layout::NetworkName::PrunedButterfly,
        Network::SortingFatTree => crate::layout::NetworkName::SortingFatTree,
    };
    if e.network != want {
        return Err(Error::Usage(format!(
            "{}: a `{}` layout; this command needs a `{}` layout",
            path.display(),
            e.network,
            want
        )));
    }
    let n = e
        .parameters
        .get("processors")
        .and_then(|v| v.parse::<u64>().ok())
        .ok_or_else(|| Error::Usage(format!("{}: no numeric `processors`", path.display())))?;
    Ok((n, crate::layout::metrics::measure(&e).area))
}

/// `fabric simulate pruned-butterfly` or `sorting-fat-tree`.
pub fn run(network: Network, args: &BbArgs) -> Result<i32> {
    let layouts: Vec<&std::path::Path> = args.layout.iter().map(|p| p.as_path()).collect();
    check_output_paths(&layouts, &outputs_of(&args.output, &args.plot))?;
    args.format.check::<BbReport>()?;
    let from_file = args
        .layout
        .as_deref()
        .map(|p| laid(network, p))
        .transpose()?;
    let sizes = from_file.map_or_else(|| args.size.clone(), |(n, _)| vec![n]);
    let params = Params {
        k: args.k,
        lambda0: args.lambda0,
        eta: args.eta,
        ..Params::default()
    };
    let mut settings = Vec::new();
    for &n in &sizes {
        let area = match from_file {
            Some((_, a)) => a,
            None => layout_area(network, n).map_err(|e| Error::Usage(format!("N = {n}: {e}")))?,
        };
        for &workload in &args.traffic {
            if network == Network::SortingFatTree && workload == Workload::HotSpot {
                return Err(Error::Usage(
                    "hot-spot has degree N: the sorting fat-tree routes sets of constant degree"
                        .into(),
                ));
            }
            if workload == Workload::MotExp && u64::from(args.eta).pow(2) > n {
                return Err(Error::Usage(format!(
                    "mot-exp with η = {} needs N >= η², not {n}",
                    args.eta
                )));
            }
            let body_bits = args.body_bits.unwrap_or(n.ilog2());
            let threads = rayon::current_num_threads() as u64;
            crate::limits::check(
                || {
                    format!(
                        "{} trials of {} messages at N = {n}",
                        threads,
                        estimate(workload, &params, n)
                    )
                },
                estimate(workload, &params, n)
                    .saturating_mul(BYTES_PER_MESSAGE)
                    .saturating_mul(threads),
            )?;
            settings.push(Setting {
                network,
                terminals: n,
                workload,
                params,
                body_bits,
                sft_model: args.sft_model,
                area,
            });
        }
    }
    let start = Instant::now();
    let bar = crate::cli::progress::Progress::bar(settings.len() as u64, "cells");
    let mut cells = Vec::new();
    for (i, s) in settings.iter().enumerate() {
        bar.message(format!("N = {}", s.terminals));
        let seed = args.seed.wrapping_add((i as u64) << 32);
        let t0 = Instant::now();
        let trials =
            seeded_trials(args.trials, seed, |_, rng| run_trial(s, rng)).map_err(|e| match e {
                crate::sim::bb::run::RunError::Claim(claim) => SimulationFailure::Claim {
                    terminals: s.terminals,
                    claim,
                }
                .into(),
                other => Error::Usage(format!("N = {}: {other}", s.terminals)),
            })?;
        cells.push(BbCell::of(s, seed, trials, t0.elapsed().as_secs_f64()));
        bar.step();
    }
    drop(bar);
    let report = BbReport {
        header: BbReport::header(),
        network,
        trials: args.trials,
        seed: args.seed,
        rules: rules(network, args.sft_model),
        cells,
    };
    let mut outputs = Vec::new();
    if let Some(path) = &args.output {
        outputs.push((path.clone(), render(&report, args.format.format)?));
    }
    if let Some(path) = &args.plot {
        outputs.push((path.clone(), bb_chart(&report)?));
    }
    write_all_or_nothing(&outputs)?;
    print!("{}", bb_table(&report));
    println!(
        "  {} cells of {} trials in {:.2} s",
        report.cells.len(),
        args.trials,
        start.elapsed().as_secs_f64()
    );
    Ok(0)
}
