//! `fabric simulate wormhole`: wormhole routing and its store-and-forward
//! and split-flit rivals on fat-trees (Greenberg and Oh, "Universal
//! Wormhole Routing"), swept over schemes, path rules, scans, traffic and
//! sizes, each cell beside the paper's value where it has one.
//!
//! Every flag and the layout file are checked, the networks built and the
//! memory estimated before any run; the outputs are written whole or not
//! at all. A paper value outside its band is reported, not an error.

mod args;
mod paper;
#[cfg(test)]
mod tests;

use std::time::Instant;

use args::WormNetwork;
pub use args::WormholeArgs;

use crate::error::{Error, Result, SimulationFailure, WormholeNetworkError};
use crate::layout::fattree::Capacity;
use crate::layout::{Embedding, NetworkName};
use crate::network::Network;
use crate::report::model::butterfly::StepTime;
use crate::report::model::wormhole::{BandVerdict, CellReport, WormReport};
use crate::report::model::{render, Report};
use crate::report::wormhole::{wormhole_chart, wormhole_table};
use crate::sim::bft::LinkTree;
use crate::sim::seeded_trials;
use crate::sim::wormhole::{run_scheme, Scheme, Setup, WormNet};

use super::job::read_layout;
use crate::cli::{check_output_paths, outputs_of, write_all_or_nothing};

/// The universal fat-tree's capacity function.
const UNIVERSAL_CAPACITY: &str = "sqrt-over-lg";

/// Where the networks and their wire lengths come from.
enum Wires {
    /// A checked layout file: its path as given, its processors, its
    /// capacity in words, and the layout.
    File {
        name: String,
        n: u32,
        capacity: String,
        embedding: Embedding,
    },
    /// Laid out in memory at every size.
    InMemory,
}

/// The layout family `--network` runs on.
fn layout_family(network: WormNetwork) -> NetworkName {
    match network {
        WormNetwork::ButterflyFatTree => NetworkName::ButterflyFatTree,
        WormNetwork::UniversalFatTree => NetworkName::ScalableFatTree,
    }
}

/// The capacities in words, as laid out in memory.
fn capacity_text(network: WormNetwork) -> String {
    match network {
        WormNetwork::ButterflyFatTree => "2^l wires above 4^l processors".to_string(),
        WormNetwork::UniversalFatTree => format!("capacity {UNIVERSAL_CAPACITY}"),
    }
}

impl Wires {
    fn of(args: &WormholeArgs) -> Result<Wires> {
        let Some(path) = &args.layout else {
            return Ok(Wires::InMemory);
        };
        let embedding = read_layout(path)?;
        let name = path.display().to_string();
        let family = layout_family(args.network);
        if embedding.network != family {
            return Err(Error::Usage(format!(
                "--network {} runs on a {family} layout; {name} is a {} layout",
                crate::cli::flag_name(args.network),
                embedding.network
            )));
        }
        let param = |key: &str| embedding.parameters.get(key).cloned();
        let n = param("processors")
            .and_then(|p| p.parse::<u64>().ok())
            .ok_or_else(|| Error::Usage(format!("{name}: no number of processors")))?;
        let n = args::check_processors(n).map_err(|e| Error::Usage(format!("{name}: {e}")))?;
        let capacity = match args.network {
            WormNetwork::ButterflyFatTree => capacity_text(args.network),
            WormNetwork::UniversalFatTree => format!(
                "capacity {}",
                param("capacity").unwrap_or_else(|| UNIVERSAL_CAPACITY.to_string())
            ),
        };
        Ok(Wires::File {
            name,
            n,
            capacity,
            embedding,
        })
    }

    /// The sizes to run: the layout's, or the flag's (default 16 to 1024).
    fn sizes(&self, flag: &Option<Vec<u32>>) -> Result<Vec<u32>> {
        match self {
            Wires::InMemory => Ok(flag.clone().unwrap_or_else(|| vec![16, 64, 256, 1024])),
            Wires::File { name, n, .. } => match flag {
                Some(f) if f.iter().any(|m| m != n) => Err(Error::Usage(format!(
                    "--size disagrees with {name}, a layout of {n} processors"
                ))),
                _ => Ok(vec![*n]),
            },
        }
    }

    fn capacity(&self, network: WormNetwork) -> String {
        match self {
            Wires::File { capacity, .. } => capacity.clone(),
            Wires::InMemory => capacity_text(network),
        }
    }

    fn name(&self) -> Option<String> {
        match self {
            Wires::File { name, .. } => Some(name.clone()),
            Wires::InMemory => None,
        }
    }

    /// The network of `n` processors with its flit-step in bit-times.
    fn build(&self, n: u32, args: &WormholeArgs) -> Result<Sized> {
        let built;
        let (e, source) = match self {
            Wires::File {
                name, embedding, ..
            } => (embedding, format!("layout {name}")),
            Wires::InMemory => {
                built = match args.network {
                    WormNetwork::ButterflyFatTree => {
                        crate::layout::butterfly::butterfly_fat_tree(n as u64)
                    }
                    WormNetwork::UniversalFatTree => {
                        let c = Capacity::parse(UNIVERSAL_CAPACITY)
                            .unwrap_or_else(|e| unreachable!("a known capacity: {e}"));
                        crate::layout::butterfly::scalable_fat_tree(n as u64, &c)
                    }
                }
                .map_err(|e| Error::Usage(e.to_string()))?;
                let family = layout_family(args.network);
                (&built, format!("`fabric layout {family}` in memory"))
            }
        };
        let failed = |e: WormholeNetworkError| SimulationFailure::WormholeNetwork {
            processors: n,
            source: e,
        };
        let graph = Network::from_embedding(e).map_err(|e| failed(e.into()))?;
        let lengths: Vec<u64> = e.edges.iter().map(|x| x.length()).collect();
        let delay = &args.delay.delay;
        let tree = LinkTree::new(&graph, Some(&lengths), delay).map_err(|e| failed(e.into()))?;
        let net = WormNet::new(&tree).map_err(|e| failed(e.into()))?;
        let longest = tree.wire_length.iter().copied().max().unwrap_or(0);
        let wire_delay = delay.of(longest);
        let step = StepTime {
            source,
            longest_wire_per_level: Some(tree.wire_length.clone()),
            longest_wire: longest,
            wire_delay,
            switch_delay: 1.0,
            bit_times_per_step: 1.0 + wire_delay,
        };
        Ok(Sized { n, net, step })
    }
}

/// One size's network and the length of its flit-step.
struct Sized {
    n: u32,
    net: WormNet,
    step: StepTime,
}

/// One cell: what it routes, on which size (an index into the networks),
/// and the seed of its runs.
struct Cell {
    setup: Setup,
    size: usize,
    seed: u64,
}

/// The seed of cell `i`: each cell has its own streams, one per run.
fn cell_seed(seed: u64, i: usize) -> u64 {
    seed.wrapping_add((i as u64) << 32)
}

/// The cartesian product of the lists: scheme, path rule, scan, traffic,
/// then size (so a series's sizes are adjacent).
fn cells(args: &WormholeArgs, nets: &[Sized]) -> Vec<Cell> {
    let mut out = Vec::new();
    for &scheme in &args.scheme {
        for &path in &args.path {
            for &scan in &args.scan {
                for &pattern in &args.traffic {
                    for (size, s) in nets.iter().enumerate() {
                        let setup = Setup {
                            scheme,
                            pattern,
                            flits: args.flits,
                            queue: args.queue,
                            path,
                            scan,
                            r: args.priorities.at(s.n),
                        };
                        let seed = cell_seed(args.seed, out.len());
                        out.push(Cell { setup, size, seed });
                    }
                }
            }
        }
    }
    out
}

/// Bytes a run holds per worm: measured 191 (peak resident memory of
/// SPLIT on 1024 processors with L = 2048, 2.1 million worms, 398 MB),
/// doubled and rounded up.
const BYTES_PER_WORM: u64 = 400;
/// Bytes per queue slot (a unit: worm, flit, hop).
const BYTES_PER_SLOT: u64 = 12;
/// Bytes per directed link besides its queue.
const BYTES_PER_LINK: u64 = 48;

/// Every cell's runs against the memory budget, as many at a time as
/// there are threads.
fn check_memory(cells: &[Cell], nets: &[Sized], runs: u64) -> Result<()> {
    let concurrent = runs.min(rayon::current_num_threads() as u64);
    for c in cells {
        let s = &nets[c.size];
        let per_message = match c.setup.scheme {
            Scheme::Split => c.setup.flits as u64,
            Scheme::Store | Scheme::Worm | Scheme::Univ => 1,
        };
        let worms = s.n as u64 * per_message;
        let links = s.net.links() as u64;
        let bytes =
            worms * BYTES_PER_WORM + links * (c.setup.q() as u64 * BYTES_PER_SLOT + BYTES_PER_LINK);
        crate::limits::check(
            || {
                format!(
                    "{} on {} processors ({worms} worms, queues of {} units, {concurrent} runs at a time)",
                    c.setup.scheme.name(),
                    s.n,
                    c.setup.q()
                )
            },
            bytes.saturating_mul(concurrent),
        )?;
    }
    Ok(())
}

/// The rules of the step and of the schemes, as the report states them.
fn rules() -> Vec<String> {
    [
        "SYNC step: every decision reads the start-of-step queue occupancies; \
         one unit leaves each input and crosses each link per step",
        "a worm holds a link from its head's crossing to its tail's; a queue of q \
         units sits at the far end of every directed link",
        "ejection through a real queue drained one unit per step; latency is the \
         step the last tail enters its ejection queue (STORE and UNIV: packet-steps x L)",
        "R: initial delays from 0 .. R (WORM x L lg N flit-steps, STORE packet-steps, \
         SPLIT flit-steps); UNIV priorities from 1 ..= R",
        "a message to its own source is delivered at step 0",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Refuses a list that names a value twice (it would run the cell twice).
fn check_lists(args: &WormholeArgs) -> Result<()> {
    fn once<T: PartialEq + Copy + std::fmt::Debug>(flag: &str, list: &[T]) -> Result<()> {
        for (i, v) in list.iter().enumerate() {
            if list[..i].contains(v) {
                return Err(Error::Usage(format!("--{flag} lists {v:?} twice")));
            }
        }
        Ok(())
    }
    once("scheme", &args.scheme)?;
    once("path", &args.path)?;
    once("scan", &args.scan)?;
    once("traffic", &args.traffic)?;
    once("size", args.size.as_deref().unwrap_or(&[]))
}

/// Runs every cell, its runs in parallel, with progress on a terminal.
fn run_cells(cells: &[Cell], nets: &[Sized], args: &WormholeArgs) -> Result<Vec<CellReport>> {
    let bar = crate::cli::progress::Progress::bar(cells.len() as u64, "cells");
    let mut reports = Vec::new();
    for c in cells {
        let s = &nets[c.size];
        bar.message(format!("{} N = {}", c.setup.scheme.name(), s.n));
        let t0 = Instant::now();
        let runs = seeded_trials(args.runs, c.seed, |_, rng| {
            run_scheme(&s.net, &c.setup, rng)
        })
        .map_err(|source| SimulationFailure::WormholeRun {
            scheme: c.setup.scheme,
            processors: s.n,
            source,
        })?;
        let mut cell = CellReport::of(
            &c.setup,
            s.n,
            c.seed,
            &runs,
            s.step.clone(),
            t0.elapsed().as_secs_f64(),
        );
        cell.paper = paper::comparisons(&cell, args.network, args.flits);
        reports.push(cell);
        bar.step();
    }
    Ok(reports)
}

/// `fabric simulate wormhole`.
pub fn run(args: &WormholeArgs) -> Result<i32> {
    check_output_paths(
        &args.layout.iter().map(|p| p.as_path()).collect::<Vec<_>>(),
        &outputs_of(&args.output, &args.plot),
    )?;
    args.format.check::<WormReport>()?;
    check_lists(args)?;
    let wires = Wires::of(args)?;
    let sizes = wires.sizes(&args.size)?;
    let nets = sizes
        .iter()
        .map(|&n| wires.build(n, args))
        .collect::<Result<Vec<_>>>()?;
    let cells = cells(args, &nets);
    check_memory(&cells, &nets, args.runs)?;
    let start = Instant::now();
    let reports = run_cells(&cells, &nets, args)?;
    let seconds = start.elapsed().as_secs_f64();
    let outside = reports
        .iter()
        .filter(|c| c.paper.iter().any(|p| p.verdict == BandVerdict::Outside))
        .count();
    let report = WormReport {
        header: WormReport::header(),
        network: crate::cli::flag_name(args.network),
        capacity: wires.capacity(args.network),
        flits: args.flits,
        queue: args.queue,
        priorities: args.priorities.record(),
        runs: args.runs,
        seed: args.seed,
        delay: args.delay.text.clone(),
        layout: wires.name(),
        rules: rules(),
        cells: reports,
        outside_band: outside,
    };
    let mut outputs = Vec::new();
    if let Some(path) = &args.output {
        outputs.push((path.clone(), render(&report, args.format.format)?));
    }
    if let Some(path) = &args.plot {
        outputs.push((path.clone(), wormhole_chart(&report)?));
    }
    write_all_or_nothing(&outputs)?;
    print!("{}", wormhole_table(&report));
    let hops: u64 = report.cells.iter().map(|c| c.unit_hops).sum();
    println!(
        "  {} cells of {} runs in {seconds:.2} s ({:.1} M unit-hops/s)",
        report.cells.len(),
        args.runs,
        hops as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(0)
}
