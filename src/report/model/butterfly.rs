//! `fabric.simulate.butterfly`: the sweep of `fabric simulate butterfly`,
//! one record per size and queue size with the paper's bound beside the
//! measurement (`--format csv` writes the `cells`, flattened).

use schemars::JsonSchema;
use serde::Serialize;

use super::{Header, Report};
use crate::sim::packet::adversary::Replay;
use crate::sim::packet::engine::Protocol;
use crate::sim::packet::experiment::bound::Verdict;
use crate::sim::packet::experiment::{Bound, Cell, Model, Routing, Workload};
use crate::sim::Spread;

/// The report of `fabric simulate butterfly`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PacketReport {
    /// Schema, its version, and the writer's version.
    #[serde(flatten)]
    pub header: Header,
    /// The network, `butterfly`.
    pub network: String,
    /// The queue model.
    pub model: Model,
    /// The switches' protocol; `null` for models with their own rule
    /// (w, c, a).
    pub protocol: Option<Protocol>,
    /// The routing problem.
    pub traffic: Workload,
    /// Direct or two-phase.
    pub routing: Routing,
    /// Packets per input.
    pub packets_per_input: PacketsPerInput,
    /// Trials per cell.
    pub trials: u64,
    /// The seed.
    pub seed: u64,
    /// The rules followed wherever the paper leaves a choice.
    pub rules: Vec<String>,
    /// The wire delay function `w(d)`, as given.
    pub delay: String,
    /// One entry per size and queue size.
    pub cells: Vec<CellReport>,
}

/// How many packets each input sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PacketsPerInput {
    /// The same number at every size.
    Fixed {
        /// Packets per input.
        k: u32,
    },
    /// `lg N` at each size ("fully loaded").
    LgN,
}

impl std::fmt::Display for PacketsPerInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PacketsPerInput::Fixed { k } => write!(f, "{k}"),
            PacketsPerInput::LgN => f.write_str("lg N"),
        }
    }
}

/// The length of a synchronous step in bit-times.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct StepTime {
    /// Where the wire lengths come from: a layout file, or the closed
    /// forms of `fabric layout butterfly`.
    pub source: String,
    /// The longest wire of each edge level `l` (levels `l` to `l + 1`),
    /// when a layout file gives them.
    pub longest_wire_per_level: Option<Vec<u64>>,
    /// The longest wire.
    pub longest_wire: u64,
    /// The delay `w(d)` of the longest wire.
    pub wire_delay: f64,
    /// The switch's bit-time.
    pub switch_delay: f64,
    /// Switch plus longest wire: a synchronous step waits for the slowest
    /// link.
    pub bit_times_per_step: f64,
}

/// One cell's figures.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CellReport {
    /// `lg N`.
    pub lg_rows: u32,
    /// `N`.
    pub rows: u64,
    /// The queue size.
    pub q: u32,
    /// The paper's bound.
    pub bound: Bound,
    /// The bound in words.
    pub statement: String,
    /// Whether the measurement respects it.
    pub verdict: Verdict,
    /// Routing time T over the trials.
    pub steps: Spread,
    /// `T / lg N` over the trials.
    pub steps_per_lg_n: Spread,
    /// Two-phase routing: T_A and T_B over the trials.
    pub phases: Option<[Spread; 2]>,
    /// The most packets one switch held in any trial.
    pub max_occupancy: u32,
    /// Theorem 2.1: the largest arrival / D(p) over all trials.
    pub delay_tree_worst_ratio: Option<f64>,
    /// The adversary's replays: all identical or not.
    pub replay: Option<Replay>,
    /// Per edge level `l`: mean packets per trial sent straight and
    /// across, where the model records them (G and T, direct routing).
    pub link_use: Option<Vec<[f64; 2]>>,
    /// Packet-hops over all trials.
    pub hops: u64,
    /// The step's length from the layout's wires.
    pub step: StepTime,
    /// The mean routing time in bit-times: T times the step.
    pub bit_times: f64,
    /// Wall-clock seconds for the cell's trials (terminal only: the
    /// report stays byte-identical for a seed).
    #[serde(skip)]
    pub seconds: f64,
}

impl CellReport {
    /// The summary of `cell`, run in `seconds`.
    pub fn of(cell: &Cell, step: StepTime, seconds: f64) -> CellReport {
        let steps: Vec<f64> = cell.trials.iter().map(|t| t.steps as f64).collect();
        let spread = Spread::of(&steps);
        let lg = cell.n.max(1) as f64;
        let per: Vec<f64> = steps.iter().map(|s| s / lg).collect();
        let phases = cell.trials.iter().all(|t| t.phases.is_some()).then(|| {
            let a: Vec<f64> = cell
                .trials
                .iter()
                .filter_map(|t| t.phases)
                .map(|p| p.0 as f64)
                .collect();
            let b: Vec<f64> = cell
                .trials
                .iter()
                .filter_map(|t| t.phases)
                .map(|p| p.1 as f64)
                .collect();
            [Spread::of(&a), Spread::of(&b)]
        });
        let ratios: Vec<f64> = cell
            .trials
            .iter()
            .filter_map(|t| t.delay_tree_ratio)
            .collect();
        let replays: Vec<Replay> = cell.trials.iter().filter_map(|t| t.replay).collect();
        CellReport {
            lg_rows: cell.n,
            rows: 1 << cell.n,
            q: cell.q,
            statement: cell.bound.statement(),
            verdict: cell.bound.verdict(cell),
            bound: cell.bound.clone(),
            steps: spread,
            steps_per_lg_n: Spread::of(&per),
            phases,
            max_occupancy: cell
                .trials
                .iter()
                .map(|t| t.max_occupancy)
                .max()
                .unwrap_or(0),
            delay_tree_worst_ratio: (!ratios.is_empty())
                .then(|| ratios.iter().cloned().fold(0.0, f64::max)),
            replay: (!replays.is_empty()).then(|| {
                if replays.iter().all(|&r| r == Replay::Identical) {
                    Replay::Identical
                } else {
                    Replay::Differs
                }
            }),
            link_use: link_use(cell),
            hops: cell.trials.iter().map(|t| t.hops).sum(),
            bit_times: spread.mean * step.bit_times_per_step,
            step,
            seconds,
        }
    }
}

/// The mean per-level link use over the trials, when every trial has it.
fn link_use(cell: &Cell) -> Option<Vec<[f64; 2]>> {
    let all: Vec<&Vec<[u64; 2]>> = cell
        .trials
        .iter()
        .filter_map(|t| t.link_use.as_ref())
        .collect();
    if all.is_empty() || all.len() != cell.trials.len() {
        return None;
    }
    let t = all.len() as f64;
    Some(
        (0..all[0].len())
            .map(|l| {
                let s: [u64; 2] = all
                    .iter()
                    .fold([0, 0], |a, u| [a[0] + u[l][0], a[1] + u[l][1]]);
                [s[0] as f64 / t, s[1] as f64 / t]
            })
            .collect(),
    )
}

/// A cell as one CSV row: its nested figures flattened into columns.
#[derive(Clone, Debug, Serialize)]
struct CellRow<'a> {
    lg_rows: u32,
    rows: u64,
    q: u32,
    bound: &'static str,
    bound_steps: Option<u64>,
    statement: &'a str,
    verdict: Verdict,
    steps_mean: f64,
    steps_min: f64,
    steps_max: f64,
    steps_stddev: f64,
    steps_per_lg_n_mean: f64,
    phase_a_mean: Option<f64>,
    phase_b_mean: Option<f64>,
    max_occupancy: u32,
    delay_tree_worst_ratio: Option<f64>,
    replay: Option<Replay>,
    delivered_fraction: Option<f64>,
    hops: u64,
    longest_wire: u64,
    wire_delay: f64,
    switch_delay: f64,
    bit_times_per_step: f64,
    bit_times: f64,
}

impl<'a> CellRow<'a> {
    fn of(c: &'a CellReport) -> CellRow<'a> {
        let (bound, delivered_fraction) = match &c.bound {
            Bound::Greedy => ("greedy", None),
            Bound::TwoPhase => ("two_phase", None),
            Bound::Adversary { .. } => ("adversary", None),
            Bound::Waves { .. } => ("waves", None),
            Bound::Locking { summary, .. } => ("locking", Some(summary.fraction)),
            Bound::PathLength => ("path_length", None),
        };
        CellRow {
            lg_rows: c.lg_rows,
            rows: c.rows,
            q: c.q,
            bound,
            bound_steps: c.bound.steps(c.lg_rows),
            statement: &c.statement,
            verdict: c.verdict,
            steps_mean: c.steps.mean,
            steps_min: c.steps.min,
            steps_max: c.steps.max,
            steps_stddev: c.steps.stddev,
            steps_per_lg_n_mean: c.steps_per_lg_n.mean,
            phase_a_mean: c.phases.map(|p| p[0].mean),
            phase_b_mean: c.phases.map(|p| p[1].mean),
            max_occupancy: c.max_occupancy,
            delay_tree_worst_ratio: c.delay_tree_worst_ratio,
            replay: c.replay,
            delivered_fraction,
            hops: c.hops,
            longest_wire: c.step.longest_wire,
            wire_delay: c.step.wire_delay,
            switch_delay: c.step.switch_delay,
            bit_times_per_step: c.step.bit_times_per_step,
            bit_times: c.bit_times,
        }
    }
}

impl Report for PacketReport {
    const SCHEMA: &'static str = "fabric.simulate.butterfly";
    const VERSION: u32 = 2;
    const TABLE: Option<&'static str> = Some("cells");

    fn csv(&self) -> Option<Result<String, csv::Error>> {
        let rows: Vec<CellRow> = self.cells.iter().map(CellRow::of).collect();
        Some(super::csv_rows(&rows))
    }
}
