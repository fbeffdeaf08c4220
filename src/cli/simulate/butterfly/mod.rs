//! `fabric simulate butterfly`: bounded-queue routing on `B(n)` (Maggs and
//! Sitaraman), swept over sizes and queue sizes, each cell beside the
//! paper's bound.
//!
//! Every cell's parameters are checked (models, protocols, traffic, the
//! adversary's sizes, the memory budget) before any trial runs; the report
//! is written whole or not at all. Exit 1 when a bound is violated or an
//! adversary's replay differs.

mod args;

use std::time::Instant;

pub use args::ButterflyArgs;

use crate::error::{Error, Result, SimulationFailure};
use crate::layout::butterfly_net::{link_lengths_by_level, longest_wire};
use crate::layout::metrics::Delay;
use crate::report::model::butterfly::{CellReport, PacketReport, StepTime};
use crate::report::model::{render, Report};
use crate::report::packet::{packet_chart, packet_table};
use crate::sim::packet::adversary::Replay;
use crate::sim::packet::dropping::RankRange;
use crate::sim::packet::engine::Protocol;
use crate::sim::packet::experiment::bound::Verdict;
use crate::sim::packet::experiment::{Dropping, Experiment, Model, Routing, Workload};

use super::job::read_layout;
use crate::cli::{check_output_paths, flag_name, outputs_of, write_all_or_nothing};

/// The rules followed where the paper leaves a choice.
fn rules(e: &Experiment) -> Vec<String> {
    let mut r: Vec<String> = Vec::new();
    if e.model == Model::C {
        r.push("model C is one-shot: all packets advance in lockstep, level by level".into());
    } else {
        r.extend([
            "snapshot steps: a queue accepts from its start-of-step occupancy; \
         departures in the same step free no room"
                .to_string(),
            "arrivals appended 0-edge first; level-0 queues unbounded, outputs ideal sinks"
                .to_string(),
        ]);
    }
    if e.model.drops() {
        r.push(format!(
            "section 5: {} scheme, {} capacity{}, ranks {}",
            flag_name(e.dropping.scheme),
            flag_name(e.dropping.capacity),
            if e.model == Model::A {
                format!(
                    ", {} drops, snapshot acceptance",
                    flag_name(e.dropping.policy)
                )
            } else {
                String::new()
            },
            match e.dropping.ranks {
                RankRange::Auto => "max(2, round(lg N^(1/q))), 2 lg N for q = 1".to_string(),
                RankRange::Fixed(r) => format!("1 ..= {r}"),
            }
        ));
    }
    if e.model == Model::W {
        r.push("waves: mode flips take no step, one transmission event per switch per step".into());
    }
    if e.model == Model::G {
        r.push("model G: with more requests than free slots the 0-edge request is accepted".into());
    }
    if e.protocol == Protocol::FixedPriority {
        r.push("fixed-priority: the lowest input row first, ties to the oldest".into());
    }
    match e.routing {
        Routing::TwoPhase => {
            r.push("two-phase: phase B starts after phase A has delivered every packet".into())
        }
        Routing::TwoPhasePipelined => r.push(
            "two-phase, pipelined: a packet joins the back of its intermediate input's queue \
             when it wraps; T_A is the last wrap, T_B the rest"
                .into(),
        ),
        Routing::Direct => {}
    }
    if e.workload == Workload::Adversary {
        r.push(format!(
            "adversary: rho maximises LB; {} split rule; LB with q as given \
             (the paper assumes q even; for odd q the proof supports LB with q + 1)",
            flag_name(e.split)
        ));
    }
    r
}

/// Where the wire lengths come from.
enum Wires {
    /// A checked layout file of `B(n)`: its path, `n` and every link's
    /// length by level.
    File(String, u32, Vec<Vec<u64>>),
    /// The closed forms of `fabric layout butterfly`.
    ClosedForm,
}

impl Wires {
    fn of(args: &ButterflyArgs) -> Result<Wires> {
        let Some(path) = &args.layout else {
            return Ok(Wires::ClosedForm);
        };
        let e = read_layout(path)?;
        let name = path.display().to_string();
        let nodes = e.nodes.len() as u64;
        let n = (1..=30u32)
            .find(|&n| (n as u64 + 1) << n == nodes)
            .ok_or_else(|| Error::File {
                path: name.clone(),
                message: format!("{nodes} nodes: not (n + 1) 2^n for any butterfly B(n)"),
            })?;
        let lengths = link_lengths_by_level(&e, n).map_err(|err| Error::File {
            path: name.clone(),
            message: format!("not the butterfly B({n}): {err}"),
        })?;
        Ok(Wires::File(name, n, lengths))
    }

    /// The sizes to run: the layout's, or the flag's.
    fn sizes(&self, flag: &[u32]) -> Result<Vec<u32>> {
        match self {
            Wires::ClosedForm => Ok(flag.to_vec()),
            Wires::File(name, n, _) => {
                if flag.iter().any(|m| m != n) {
                    return Err(Error::Usage(format!(
                        "--size disagrees with {name}, a layout of {} rows",
                        1u64 << n
                    )));
                }
                Ok(vec![*n])
            }
        }
    }

    /// The step at `B(n)`: one switch bit-time plus the longest wire's
    /// delay, since a synchronous step waits for its slowest link.
    fn step(&self, n: u32, delay: &Delay) -> StepTime {
        let (source, per_level, longest) = match self {
            Wires::File(name, _, lengths) => {
                let per: Vec<u64> = lengths
                    .iter()
                    .map(|l| l.iter().copied().max().unwrap_or(0))
                    .collect();
                let longest = per.iter().copied().max().unwrap_or(0);
                (format!("layout {name}"), Some(per), longest)
            }
            Wires::ClosedForm => (
                "the closed forms of `fabric layout butterfly`".to_string(),
                None,
                longest_wire(1u64 << n),
            ),
        };
        let switch_delay = 1.0;
        let wire_delay = delay.of(longest);
        StepTime {
            source,
            longest_wire_per_level: per_level,
            longest_wire: longest,
            wire_delay,
            switch_delay,
            bit_times_per_step: switch_delay + wire_delay,
        }
    }
}

/// `fabric simulate butterfly`.
pub fn run(args: &ButterflyArgs) -> Result<i32> {
    check_output_paths(
        &args.layout.iter().map(|p| p.as_path()).collect::<Vec<_>>(),
        &outputs_of(&args.output, &args.plot),
    )?;
    args.format.check::<PacketReport>()?;
    let wires = Wires::of(args)?;
    let sizes = wires.sizes(&args.size)?;
    if args.protocol.is_some() && !args.model.takes_protocol() {
        return Err(Error::Usage(format!(
            "--protocol is for models g and t; model {} has its own rule",
            flag_name(args.model)
        )));
    }
    let e = Experiment {
        model: args.model,
        protocol: args.protocol.unwrap_or(Protocol::Fifo),
        dropping: Dropping {
            scheme: args.scheme,
            capacity: args.capacity,
            policy: args.drop_policy,
            ranks: args.ranks.map_or(RankRange::Auto, RankRange::Fixed),
        },
        workload: args.traffic,
        routing: args.routing,
        split: args.split,
        k: args.packets.at(1),
        trials: args.trials,
        seed: args.seed,
    };
    let cells: Vec<(u32, u32)> = sizes
        .iter()
        .flat_map(|&n| args.queue.iter().map(move |&q| (n, q)))
        .collect();
    let at = |n: u32| Experiment {
        k: args.packets.at(n),
        ..e
    };
    for &(n, q) in &cells {
        at(n)
            .check(n, q)
            .map_err(|err| Error::Usage(format!("B({n}), q = {q}: {err}")))?;
    }
    let start = Instant::now();
    let bar = crate::cli::progress::Progress::bar(cells.len() as u64, "cells");
    let mut reports = Vec::new();
    for &(n, q) in &cells {
        bar.message(format!("N = {}, q = {q}", 1u64 << n));
        let t0 = Instant::now();
        let cell = at(n).cell(n, q).map_err(SimulationFailure::Butterfly)?;
        let step = wires.step(n, &args.delay.delay);
        reports.push(CellReport::of(&cell, step, t0.elapsed().as_secs_f64()));
        bar.step();
    }
    drop(bar);
    let report = PacketReport {
        header: PacketReport::header(),
        network: "butterfly".to_string(),
        model: e.model,
        protocol: e.model.takes_protocol().then_some(e.protocol),
        traffic: e.workload,
        routing: e.routing,
        packets_per_input: args.packets.record(),
        trials: e.trials,
        seed: e.seed,
        rules: rules(&e),
        delay: args.delay.text.clone(),
        cells: reports,
    };
    let mut outputs = Vec::new();
    if let Some(path) = &args.output {
        outputs.push((path.clone(), render(&report, args.format.format)?));
    }
    if let Some(path) = &args.plot {
        outputs.push((path.clone(), packet_chart(&report)?));
    }
    write_all_or_nothing(&outputs)?;
    print!("{}", packet_table(&report));
    let seconds = start.elapsed().as_secs_f64();
    let hops: u64 = report.cells.iter().map(|c| c.hops).sum();
    println!(
        "  {} cells in {seconds:.2} s ({:.1} M packet-hops/s)",
        report.cells.len(),
        hops as f64 / seconds.max(1e-9) / 1e6
    );
    let bad = report
        .cells
        .iter()
        .filter(|c| c.verdict == Verdict::Violated || c.replay == Some(Replay::Differs))
        .count();
    if bad > 0 {
        eprintln!("error: {bad} cell(s) violate their bound or replay differently");
        return Ok(1);
    }
    Ok(0)
}
