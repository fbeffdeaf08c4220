//! `fabric.simulate.mesh`: per cell of `fabric simulate mesh`, T and its
//! phases over the trials, the lower bounds, the paper's leading term with
//! T/lead and the normalised excess, and the queues (`--format csv` writes
//! the `cells`, flattened).

use schemars::JsonSchema;
use serde::Serialize;

use super::butterfly::StepTime;
use super::{Header, Report};
use crate::sim::mesh::algorithm::{Algorithm, PhaseKind};
use crate::sim::mesh::bounds::{Lead, LowerBounds, Switching};
use crate::sim::mesh::run::{Setup, Trial};
use crate::sim::mesh::traffic::Workload;
use crate::sim::mesh::{Phasing, Strategy, Topology};

/// The excess above which a 2-D cell is flagged (the regression figures
/// peak at 2.24).
pub const EXCESS_ALARM: f64 = 3.0;

/// The alarm in `d` dimensions: the d-dimensional theorems' error terms
/// carry a factor d (Theorems 4, 5, 11, 12), so the 2-D alarm scales by
/// d / 2.
pub fn excess_alarm(d: usize) -> f64 {
    EXCESS_ALARM * d.max(2) as f64 / 2.0
}

/// The report of `fabric simulate mesh`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct MeshReport {
    /// Schema, its version, and the writer's version.
    #[serde(flatten)]
    pub header: Header,
    /// The experiment preset as `--experiment` names it (`e2` ...);
    /// `null` for a sweep of the flags.
    pub experiment: Option<String>,
    /// Trials per cell.
    pub trials: u64,
    /// The seed the cells' seeds derive from.
    pub seed: u64,
    /// The wire delay function `w(d)`, as given.
    pub delay: String,
    /// The rules of the step and of the tie-breaking.
    pub rules: Vec<String>,
    /// One entry per setting.
    pub cells: Vec<MeshCell>,
    /// Cells whose excess passed [`excess_alarm`] of their dimension.
    pub alarms: usize,
}

/// Mean, smallest and largest over the trials.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Range {
    /// Mean.
    pub mean: f64,
    /// Smallest.
    pub min: u64,
    /// Largest.
    pub max: u64,
}

impl Range {
    fn of(v: impl Iterator<Item = u64> + Clone) -> Range {
        let n = v.clone().count().max(1) as f64;
        Range {
            mean: v.clone().sum::<u64>() as f64 / n,
            min: v.clone().min().unwrap_or(0),
            max: v.max().unwrap_or(0),
        }
    }
}

/// One phase's figures.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
pub struct PhaseFigures {
    /// What it does.
    pub kind: PhaseKind,
    /// Its steps (the steps it adds to the end, without barriers).
    pub steps: Range,
    /// Packets not through it when the next budget began (fixed phases).
    pub overruns: u64,
}

/// NoLRoute's flood over a cell's trials.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FloodFigures {
    /// `L'` of the last trial (every trial's PUs agree on theirs).
    pub agreed: u32,
    /// The most steps until every PU knew `L'`.
    pub steps: u64,
    /// The most info packets one link carried.
    pub most_per_link: u32,
}

/// One setting's figures over its trials.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct MeshCell {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Mesh or torus.
    pub topology: Topology,
    /// The side n.
    pub n: u32,
    /// The dimension d.
    pub d: usize,
    /// Packets per PU (flits per worm).
    pub k: u32,
    /// The problem.
    pub traffic: Workload,
    /// Who wins a link.
    pub strategy: Strategy,
    /// Phase control.
    pub phases: Phasing,
    /// Packets or worms.
    pub switching: Switching,
    /// L (local traffic and LocalRoute).
    pub locality: Option<u32>,
    /// ε (LevelRoute).
    pub strip: Option<u32>,
    /// Smearing block, if any.
    pub smear: Option<u32>,
    /// The cell's seed.
    pub seed: u64,
    /// T over the trials.
    pub t: Range,
    /// Each phase.
    pub phase: Vec<PhaseFigures>,
    /// The largest of each lower bound over the trials (every trial's T
    /// meets its own bounds; asserted).
    pub bounds: LowerBounds,
    /// The paper's leading term, if it gives one.
    pub lead: Option<Lead>,
    /// Mean T over the leading term.
    pub t_over_lead: Option<f64>,
    /// `(T - lead) / sqrt(k n ln n)`, or `/ (k sqrt(n ln n))` for worms.
    pub excess: Option<f64>,
    /// Most packets resident at a PU, counting unsent, waiting and
    /// delivered ones (largest over the trials).
    pub qmax: u32,
    /// The same counting packets in transit only.
    pub qmax_transit: u32,
    /// NoLRoute's flood of L: the most steps it took and the most info
    /// packets on one link, over the trials.
    pub flood: Option<FloodFigures>,
    /// Link traversals, summed over the trials (flit-hops for worms).
    pub hops: u64,
    /// The step's length in bit-times, from the layout.
    pub step: StepTime,
    /// Wall-clock seconds for the cell's trials (terminal only: the
    /// report stays byte-identical for a seed).
    #[serde(skip)]
    pub seconds: f64,
}

impl MeshCell {
    /// Whether the excess passed the alarm of the cell's dimension.
    pub fn alarmed(&self) -> bool {
        self.excess.is_some_and(|x| x > excess_alarm(self.d))
    }

    /// The figures of `trials` of `setup`.
    pub fn of(
        setup: &Setup,
        seed: u64,
        trials: &[Trial],
        step: StepTime,
        seconds: f64,
    ) -> MeshCell {
        let t = Range::of(trials.iter().map(|r| r.outcome.steps));
        let kinds = trials.first().map(|r| r.kinds.clone()).unwrap_or_default();
        let phase = kinds
            .iter()
            .enumerate()
            .map(|(j, &kind)| PhaseFigures {
                kind,
                steps: Range::of(trials.iter().map(move |r| r.outcome.phase_steps[j])),
                overruns: trials
                    .iter()
                    .map(|r| r.outcome.overruns[j])
                    .max()
                    .unwrap_or(0),
            })
            .collect();
        let most =
            |f: fn(&LowerBounds) -> u64| trials.iter().map(|r| f(&r.bounds)).max().unwrap_or(0);
        let bounds = LowerBounds {
            distance: most(|b| b.distance),
            bisection: most(|b| b.bisection),
            connection: most(|b| b.connection),
            direction: most(|b| b.direction),
        };
        let lead = setup.lead();
        let uses_l = matches!(setup.algorithm, Algorithm::Local | Algorithm::LocalUnknown)
            || setup.workload == Workload::Local;
        MeshCell {
            algorithm: setup.algorithm,
            topology: setup.shape.topology,
            n: setup.shape.side,
            d: setup.shape.dims,
            k: setup.k,
            traffic: setup.workload,
            strategy: setup.strategy,
            phases: setup.phasing,
            switching: setup.switching,
            locality: uses_l.then_some(setup.params.locality),
            strip: (setup.algorithm == Algorithm::Level).then_some(setup.params.strip),
            smear: setup.params.smear,
            seed,
            t,
            phase,
            bounds,
            lead,
            t_over_lead: lead.map(|l| t.mean / l.value),
            excess: lead.map(|l| (t.mean - l.value) / setup.scale()),
            qmax: trials.iter().map(|r| r.outcome.qmax).max().unwrap_or(0),
            qmax_transit: trials
                .iter()
                .map(|r| r.outcome.qmax_transit)
                .max()
                .unwrap_or(0),
            flood: trials.iter().filter_map(|r| r.flood).fold(None, |acc, f| {
                let (steps, links) =
                    acc.map_or((0, 0), |a: FloodFigures| (a.steps, a.most_per_link));
                Some(FloodFigures {
                    agreed: f.agreed,
                    steps: steps.max(f.steps),
                    most_per_link: links.max(f.most_per_link),
                })
            }),
            hops: trials.iter().map(|r| r.outcome.hops).sum(),
            step,
            seconds,
        }
    }

    /// The series a chart draws this cell in: everything but n.
    pub fn series(&self) -> String {
        let mut s = format!(
            "{} {} {} k={} {}",
            self.algorithm, self.topology, self.traffic, self.k, self.strategy
        );
        if self.phases != Phasing::Barrier {
            s += &format!(" {}", self.phases);
        }
        if self.switching == Switching::CutThrough {
            s += " ct";
        }
        if let Some(l) = self.locality {
            s += &format!(" L={l}");
        }
        if let Some(e) = self.strip {
            s += &format!(" e={e}");
        }
        if let Some(m) = self.smear {
            s += &format!(" smear={m}");
        }
        s
    }
}

/// A cell as one CSV row: its nested figures flattened into columns (the
/// per-phase figures are in the YAML and JSON only).
#[derive(Clone, Debug, Serialize)]
struct CellRow {
    algorithm: Algorithm,
    topology: Topology,
    n: u32,
    d: usize,
    k: u32,
    traffic: Workload,
    strategy: Strategy,
    phases: Phasing,
    switching: Switching,
    locality: Option<u32>,
    strip: Option<u32>,
    smear: Option<u32>,
    seed: u64,
    t_mean: f64,
    t_min: u64,
    t_max: u64,
    bound_distance: u64,
    bound_bisection: u64,
    bound_connection: u64,
    bound_direction: u64,
    lead: Option<f64>,
    lead_source: Option<&'static str>,
    t_over_lead: Option<f64>,
    excess: Option<f64>,
    qmax: u32,
    qmax_transit: u32,
    flood_steps: Option<u64>,
    flood_most_per_link: Option<u32>,
    hops: u64,
    longest_wire: u64,
    bit_times_per_step: f64,
}

impl CellRow {
    fn of(c: &MeshCell) -> CellRow {
        CellRow {
            algorithm: c.algorithm,
            topology: c.topology,
            n: c.n,
            d: c.d,
            k: c.k,
            traffic: c.traffic,
            strategy: c.strategy,
            phases: c.phases,
            switching: c.switching,
            locality: c.locality,
            strip: c.strip,
            smear: c.smear,
            seed: c.seed,
            t_mean: c.t.mean,
            t_min: c.t.min,
            t_max: c.t.max,
            bound_distance: c.bounds.distance,
            bound_bisection: c.bounds.bisection,
            bound_connection: c.bounds.connection,
            bound_direction: c.bounds.direction,
            lead: c.lead.map(|l| l.value),
            lead_source: c.lead.map(|l| l.source),
            t_over_lead: c.t_over_lead,
            excess: c.excess,
            qmax: c.qmax,
            qmax_transit: c.qmax_transit,
            flood_steps: c.flood.map(|f| f.steps),
            flood_most_per_link: c.flood.map(|f| f.most_per_link),
            hops: c.hops,
            longest_wire: c.step.longest_wire,
            bit_times_per_step: c.step.bit_times_per_step,
        }
    }
}

impl Report for MeshReport {
    const SCHEMA: &'static str = "fabric.simulate.mesh";
    const VERSION: u32 = 2;
    const TABLE: Option<&'static str> = Some("cells");

    fn csv(&self) -> Option<Result<String, csv::Error>> {
        let rows: Vec<CellRow> = self.cells.iter().map(CellRow::of).collect();
        Some(super::csv_rows(&rows))
    }
}
