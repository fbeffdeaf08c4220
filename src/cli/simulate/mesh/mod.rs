//! `fabric simulate mesh`: randomized k-k routing on meshes and tori
//! (Kaufmann and Sibeyn), swept over algorithms, topologies, sizes, k,
//! problems, strategies and phase controls, or one of the preset
//! experiments of `docs/simulation.md`; every cell's T beside its lower bounds and the paper's
//! leading term.
//!
//! Every cell is checked before any runs; the outputs are written whole or
//! not at all. T below a lower bound is a failed assertion, not a report.

mod args;
mod experiment;
#[cfg(test)]
mod tests;

use std::time::Instant;

pub use args::MeshArgs;
use experiment::{sweeps, SmearArg, Sweep};

use crate::error::{Error, Result, SimulationFailure};
use crate::layout::construction::Dims;
use crate::layout::mesh::{mesh_layout, MeshSpec};
use crate::layout::NetworkName;
use crate::report::mesh::{mesh_chart, mesh_table};
use crate::report::model::butterfly::StepTime;
use crate::report::model::mesh::{MeshCell, MeshReport, EXCESS_ALARM};
use crate::report::model::{render, Report};
use crate::sim::mesh::algorithm::{Algorithm, Params};
use crate::sim::mesh::bounds::Switching;
use crate::sim::mesh::run::{run_trial, Setup};
use crate::sim::mesh::traffic::Workload;
use crate::sim::mesh::{Shape, Topology};
use crate::sim::seeded_trials;

use crate::cli::{check_output_paths, outputs_of, write_all_or_nothing};

/// The largest array laid out in memory to measure its wires; beyond it
/// the layout's closed forms (which its tests hold equal to the measured
/// layout) give the longest wire.
const MEASURED_PUS: usize = 1 << 14;

/// The sweep the list flags describe.
fn sweep_of(args: &MeshArgs, array: Option<&LaidArray>) -> Sweep {
    Sweep {
        algorithm: args.algorithm.clone(),
        topology: array.map_or_else(|| args.topology.clone(), |a| vec![a.topology]),
        size: array.map_or_else(|| args.size.clone(), |a| vec![a.side]),
        dims: array.map_or(args.dims, |a| a.dims),
        k: args.k.clone(),
        traffic: args.traffic.clone(),
        strategy: args.strategy.clone(),
        phases: args.phases.clone(),
        switching: if args.cut_through {
            Switching::CutThrough
        } else {
            Switching::StoreAndForward
        },
        locality: args.locality.clone(),
        strip: args.strip.clone(),
        smear: args.smear.clone(),
    }
}

/// A mesh or torus read from a layout file: its shape and longest wire.
struct LaidArray {
    topology: Topology,
    side: u32,
    dims: u32,
    longest: u64,
    file: String,
}

/// The array of a layout file, checked legal and a mesh or torus.
fn laid_array(path: &std::path::Path) -> Result<LaidArray> {
    let e = super::job::read_layout(path)?;
    let topology = match e.network {
        NetworkName::Mesh => Topology::Mesh,
        NetworkName::Torus => Topology::Torus,
        ref other => {
            return Err(Error::Usage(format!(
                "{}: a `{other}` layout; simulate mesh needs a mesh or torus layout",
                path.display()
            )))
        }
    };
    let num = |key: &str| -> Result<u32> {
        e.parameters
            .get(key)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| Error::Usage(format!("{}: no numeric `{key}`", path.display())))
    };
    Ok(LaidArray {
        topology,
        side: num("side")?,
        dims: num("dims")?,
        longest: crate::layout::metrics::measure(&e).max_wire_length.max(1),
        file: path.display().to_string(),
    })
}

/// One cell: its setup and seed.
struct Cell {
    setup: Setup,
    seed: u64,
}

/// The seed of cell `i`: each cell has its own streams, one per trial.
fn cell_seed(seed: u64, i: usize) -> u64 {
    seed.wrapping_add((i as u64) << 32)
}

/// The cells of `sweep`, appended to `out`: the lists' cartesian product,
/// L only where it is used and ε only for LevelRoute.
fn cells_of(sweep: &Sweep, seed: u64, out: &mut Vec<Cell>) -> Result<()> {
    let usage = |e: crate::sim::mesh::MeshError| Error::Usage(e.to_string());
    for &algorithm in &sweep.algorithm {
        for &topology in &sweep.topology {
            for &workload in &sweep.traffic {
                let uses_l = matches!(algorithm, Algorithm::Local | Algorithm::LocalUnknown)
                    || workload == Workload::Local;
                let ls: &[u32] = if uses_l {
                    &sweep.locality
                } else {
                    &sweep.locality[..1]
                };
                let es: &[u32] = if algorithm == Algorithm::Level {
                    &sweep.strip
                } else {
                    &sweep.strip[..1]
                };
                for &strategy in &sweep.strategy {
                    for &phasing in &sweep.phases {
                        for &smear in &sweep.smear {
                            for &locality in ls {
                                for &strip in es {
                                    for &k in &sweep.k {
                                        for &n in &sweep.size {
                                            let shape =
                                                Shape::new(n, sweep.dims as usize, topology)
                                                    .map_err(|e| usage(e.into()))?;
                                            let setup = Setup {
                                                shape,
                                                k,
                                                workload,
                                                algorithm,
                                                params: Params {
                                                    locality,
                                                    strip,
                                                    smear: smear.block(k, n),
                                                },
                                                strategy,
                                                phasing,
                                                switching: sweep.switching,
                                            };
                                            setup.check().map_err(|e| {
                                                Error::Usage(format!("{algorithm} on the {shape}, k = {k}, {workload}: {e}"))
                                            })?;
                                            let seed = cell_seed(seed, out.len());
                                            out.push(Cell { setup, seed });
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// Refuses lists that name a value twice.
fn check_lists(args: &MeshArgs) -> Result<()> {
    fn once<T: PartialEq + std::fmt::Debug>(flag: &str, list: &[T]) -> Result<()> {
        for (i, v) in list.iter().enumerate() {
            if list[..i].contains(v) {
                return Err(Error::Usage(format!("--{flag} lists {v:?} twice")));
            }
        }
        Ok(())
    }
    once("algorithm", &args.algorithm)?;
    once("topology", &args.topology)?;
    once("size", &args.size)?;
    once("k", &args.k)?;
    once("traffic", &args.traffic)?;
    once("strategy", &args.strategy)?;
    once("phases", &args.phases)?;
    once("locality", &args.locality)?;
    once("strip", &args.strip)?;
    once::<SmearArg>("smear", &args.smear)
}

/// Bytes a cell's trial needs, about: the packets' entries and homes, the
/// plan's legs, the problem, and the links' buckets.
fn cell_bytes(s: &Setup) -> u64 {
    let packets = u64::from(s.k) * s.shape.pus() as u64;
    let phases = 2 * s.shape.dims as u64 + u64::from(s.k);
    packets * (64 + 4 * phases) + s.shape.pus() as u64 * 16 * 32
}

/// The step's length in bit-times: a switch plus the longest wire of the
/// layout file, or of the layout of `fabric layout mesh|torus`, laid out in
/// memory when small.
fn step_time(shape: &Shape, delay: &crate::cli::DelayArg, array: Option<&LaidArray>) -> StepTime {
    let topology = shape.topology;
    let dims = Dims::from_count(shape.dims as u64);
    let spec = dims.and_then(|d| MeshSpec::new(topology, u64::from(shape.side), d).ok());
    let (longest, source) = match spec {
        _ if array.is_some() => {
            let a = array.expect("checked");
            (a.longest, a.file.clone())
        }
        Some(spec) if shape.pus() <= MEASURED_PUS => {
            let e = mesh_layout(spec);
            let m = crate::layout::metrics::measure(&e);
            (
                m.max_wire_length,
                format!("`fabric layout {topology}` in memory"),
            )
        }
        Some(spec) => (
            spec.forms().longest_wire,
            format!("the closed forms of `fabric layout {topology}`"),
        ),
        None => (1, "unit wires (no layout of this array)".to_string()),
    };
    let wire_delay = delay.delay.of(longest);
    StepTime {
        source,
        longest_wire_per_level: None,
        longest_wire: longest,
        wire_delay,
        switch_delay: 1.0,
        bit_times_per_step: 1.0 + wire_delay,
    }
}

/// The rules every cell runs under, for the report.
fn rules() -> Vec<String> {
    vec![
        "a directed link carries one packet a step; all chosen packets move at once".into(),
        "ties go to the higher of a seeded random rank per packet; lower phases first".into(),
        "random intermediates include the current coordinate; torus ties at n/2 by a coin".into(),
        "barrier: a phase starts the step after the last packet finishes the previous one".into(),
        "T meets every lower bound on every trial (asserted)".into(),
    ]
}

/// Runs every cell, its trials in parallel, with progress on a terminal.
fn run_cells(
    cells: &[Cell],
    trials: u64,
    delay: &crate::cli::DelayArg,
    array: Option<&LaidArray>,
) -> Result<Vec<MeshCell>> {
    let bar = crate::cli::progress::Progress::bar(cells.len() as u64, "cells");
    let mut out = Vec::new();
    for c in cells {
        let s = &c.setup;
        bar.message(format!("{} on the {}, k = {}", s.algorithm, s.shape, s.k));
        let t0 = Instant::now();
        let runs = seeded_trials(trials, c.seed, |_, rng| run_trial(s, rng)).map_err(|source| {
            SimulationFailure::Mesh {
                algorithm: s.algorithm,
                shape: s.shape,
                source,
            }
        })?;
        out.push(MeshCell::of(
            s,
            c.seed,
            &runs,
            step_time(&s.shape, delay, array),
            t0.elapsed().as_secs_f64(),
        ));
        bar.step();
    }
    Ok(out)
}

/// `fabric simulate mesh`.
pub fn run(args: &MeshArgs) -> Result<i32> {
    let layouts: Vec<&std::path::Path> = args.layout.iter().map(|p| p.as_path()).collect();
    check_output_paths(&layouts, &outputs_of(&args.output, &args.plot))?;
    args.format.check::<MeshReport>()?;
    check_lists(args)?;
    let array = args.layout.as_deref().map(laid_array).transpose()?;
    let sweeps = match args.experiment {
        Some(e) => sweeps(e),
        None => vec![sweep_of(args, array.as_ref())],
    };
    let mut cells = Vec::new();
    for s in &sweeps {
        cells_of(s, args.seed, &mut cells)?;
    }
    for c in &cells {
        let s = &c.setup;
        crate::limits::check(
            || {
                format!(
                    "a trial of {} on the {} with k = {}",
                    s.algorithm, s.shape, s.k
                )
            },
            cell_bytes(s).saturating_mul(rayon::current_num_threads() as u64),
        )?;
    }
    let trials = args
        .trials
        .unwrap_or_else(|| args.experiment.map_or(3, |e| e.trials()));
    let start = Instant::now();
    let reports = run_cells(&cells, trials, &args.delay, array.as_ref())?;
    let seconds = start.elapsed().as_secs_f64();
    let alarms = reports.iter().filter(|c| c.alarmed()).count();
    let report = MeshReport {
        header: MeshReport::header(),
        experiment: args.experiment.map(crate::cli::flag_name),
        trials,
        seed: args.seed,
        delay: args.delay.text.clone(),
        rules: rules(),
        cells: reports,
        alarms,
    };
    let mut outputs = Vec::new();
    if let Some(path) = &args.output {
        outputs.push((path.clone(), render(&report, args.format.format)?));
    }
    if let Some(path) = &args.plot {
        outputs.push((path.clone(), mesh_chart(&report)?));
    }
    write_all_or_nothing(&outputs)?;
    print!("{}", mesh_table(&report));
    let hops: u64 = report.cells.iter().map(|c| c.hops).sum();
    println!(
        "  {} cells of {trials} trials in {seconds:.2} s ({:.1} M packet-hops/s); {} with excess above the alarm ({EXCESS_ALARM} in 2-D, times d/2 beyond)",
        report.cells.len(),
        hops as f64 / seconds.max(1e-9) / 1e6,
        report.alarms
    );
    Ok(0)
}
