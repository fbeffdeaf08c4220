//! `fabric.simulate.bay_bilardi`: the report of `fabric simulate
//! pruned-butterfly` and `sorting-fat-tree` (Bay and Bilardi; `network`
//! says which): per cell (a size and a workload), the load factors `λ`,
//! `λ_a`, `λ_d` and `η` of the message sets, the time in bit steps beside
//! the floor `b·λ` and the paper's bound, and `A·T²` of the laid-out
//! network over both floors (`--format csv` writes the `cells`, flattened).

use schemars::JsonSchema;
use serde::Serialize;

use super::{Header, Report};
use crate::sim::bb::bounds::prop1_slowdown;
use crate::sim::bb::run::{Network, Routed, Setting, Trial};
use crate::sim::bb::sft::{self, SftModel};
use crate::sim::bb::traffic::Workload;

/// The report of `fabric simulate pruned-butterfly` and `sorting-fat-tree`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct BbReport {
    /// Schema, its version, and the writer's version.
    #[serde(flatten)]
    pub header: Header,
    /// The network: `pruned_butterfly` or `sorting_fat_tree`.
    pub network: Network,
    /// Trials per cell.
    pub trials: u64,
    /// The seed the cells' seeds derive from.
    pub seed: u64,
    /// The rules followed where the paper leaves a choice.
    pub rules: Vec<String>,
    /// One entry per size and workload.
    pub cells: Vec<BbCell>,
}

/// Mean, smallest and largest over the trials.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Spread {
    /// Mean.
    pub mean: f64,
    /// Smallest.
    pub min: f64,
    /// Largest.
    pub max: f64,
}

impl Spread {
    pub(crate) fn of(values: impl Iterator<Item = f64> + Clone) -> Spread {
        let n = values.clone().count().max(1) as f64;
        Spread {
            mean: values.clone().sum::<f64>() / n,
            min: values.clone().fold(f64::INFINITY, f64::min),
            max: values.fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

/// One cell.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct BbCell {
    /// The setting.
    pub setting: Setting,
    /// The seed of the cell's trials.
    pub seed: u64,
    /// `λ` under the network's capacities.
    pub lambda: Spread,
    /// `λ_a`.
    pub lambda_a: Spread,
    /// `λ_d`.
    pub lambda_d: Spread,
    /// `η`, leaf edges at height 0.
    pub eta: Spread,
    /// The largest degree.
    pub degree: u32,
    /// T in bit steps.
    pub time: Spread,
    /// `T / (b·λ)`.
    pub over_floor: Spread,
    /// T over the paper's bound: `ceil(λ) lg² N` (pruned butterfly,
    /// Theorem 1) or `λ lg N + lg² N` (sorting fat-tree, Theorem 3).
    pub over_theorem: Spread,
    /// `A·T² / (b²η²N)`.
    pub at2_general: Option<Spread>,
    /// `A·T² / (b²η²N lg²(N/η²))`.
    pub at2_theorem4: Option<Spread>,
    /// Proposition 1's slowdown `sqrt(A/N) lg N` in simulating a router of
    /// this network's own area.
    pub prop1_slowdown: f64,
    /// Wall seconds of the cell (not in the report, which the seed fixes
    /// byte for byte).
    #[serde(skip)]
    pub seconds: f64,
    /// Every trial's figures.
    pub trials: Vec<Trial>,
}

impl BbCell {
    /// The cell of `setting` from its trials.
    pub fn of(setting: &Setting, seed: u64, trials: Vec<Trial>, seconds: f64) -> BbCell {
        let lg = f64::from(setting.terminals.ilog2());
        let theorem = |t: &Trial| {
            let lam = t.loads.total.value.to_f64();
            let bound = match setting.network {
                Network::PrunedButterfly => lam.ceil().max(1.0) * lg * lg,
                Network::SortingFatTree => lam * lg + lg * lg,
            };
            t.time as f64 / bound
        };
        let opt = |f: &dyn Fn(&Trial) -> Option<f64>| {
            let v: Vec<f64> = trials.iter().filter_map(f).collect();
            (!v.is_empty()).then(|| Spread::of(v.iter().copied()))
        };
        BbCell {
            setting: *setting,
            seed,
            lambda: Spread::of(trials.iter().map(|t| t.loads.total.value.to_f64())),
            lambda_a: Spread::of(trials.iter().map(|t| t.loads.ascending.value.to_f64())),
            lambda_d: Spread::of(trials.iter().map(|t| t.loads.descending.value.to_f64())),
            eta: Spread::of(trials.iter().map(|t| t.eta)),
            degree: trials.iter().map(|t| t.degree).max().unwrap_or(0),
            time: Spread::of(trials.iter().map(|t| t.time as f64)),
            over_floor: Spread::of(trials.iter().map(|t| t.time as f64 / t.floor.max(1.0))),
            over_theorem: Spread::of(trials.iter().map(theorem)),
            at2_general: opt(&|t| t.at2.general),
            at2_theorem4: opt(&|t| t.at2.theorem4),
            prop1_slowdown: prop1_slowdown(setting.area as f64, 1 << setting.terminals.ilog2()),
            seconds,
            trials,
        }
    }
}

/// A cell as one CSV row: the setting and the figures' spreads flattened
/// into columns (the trials are in the YAML and JSON only).
#[derive(Clone, Debug, Serialize)]
struct CellRow {
    network: Network,
    terminals: u64,
    workload: Workload,
    k: u32,
    lambda0: f64,
    target_eta: u32,
    cycles: u32,
    body_bits: u32,
    sft_model: Option<SftModel>,
    area: u64,
    seed: u64,
    lambda_mean: f64,
    lambda_max: f64,
    lambda_a_mean: f64,
    lambda_d_mean: f64,
    eta_mean: f64,
    degree: u32,
    time_mean: f64,
    time_min: f64,
    time_max: f64,
    over_floor_mean: f64,
    over_theorem_mean: f64,
    over_theorem_max: f64,
    at2_general_mean: Option<f64>,
    at2_theorem4_mean: Option<f64>,
    prop1_slowdown: f64,
    max_occupancy_over_capacity: Option<f64>,
    max_padded_occupancy_over_capacity: Option<f64>,
}

/// The largest over the trials of a sorting fat-tree's fullest sorter,
/// `pick` choosing the unpadded or padded count, as a fraction of its
/// capacity `l` (`None` for the pruned butterfly).
fn fullest_sorter(c: &BbCell, pick: fn(&sft::Outcome) -> (u64, u64)) -> Option<f64> {
    c.trials
        .iter()
        .filter_map(|t| match &t.routed {
            Routed::SortingFatTree { outcome } => {
                let (held, capacity) = pick(outcome);
                Some(held as f64 / capacity.max(1) as f64)
            }
            Routed::PrunedButterfly { .. } => None,
        })
        .reduce(f64::max)
}

impl CellRow {
    fn of(c: &BbCell) -> CellRow {
        let s = &c.setting;
        CellRow {
            network: s.network,
            terminals: s.terminals,
            workload: s.workload,
            k: s.params.k,
            lambda0: s.params.lambda0,
            target_eta: s.params.eta,
            cycles: s.params.cycles,
            body_bits: s.body_bits,
            sft_model: (s.network == Network::SortingFatTree).then_some(s.sft_model),
            area: s.area,
            seed: c.seed,
            lambda_mean: c.lambda.mean,
            lambda_max: c.lambda.max,
            lambda_a_mean: c.lambda_a.mean,
            lambda_d_mean: c.lambda_d.mean,
            eta_mean: c.eta.mean,
            degree: c.degree,
            time_mean: c.time.mean,
            time_min: c.time.min,
            time_max: c.time.max,
            over_floor_mean: c.over_floor.mean,
            over_theorem_mean: c.over_theorem.mean,
            over_theorem_max: c.over_theorem.max,
            at2_general_mean: c.at2_general.map(|x| x.mean),
            at2_theorem4_mean: c.at2_theorem4.map(|x| x.mean),
            prop1_slowdown: c.prop1_slowdown,
            max_occupancy_over_capacity: fullest_sorter(c, |o| o.max_occupancy),
            max_padded_occupancy_over_capacity: fullest_sorter(c, |o| o.max_padded_occupancy),
        }
    }
}

impl Report for BbReport {
    const SCHEMA: &'static str = "fabric.simulate.bay_bilardi";
    const VERSION: u32 = 2;
    const TABLE: Option<&'static str> = Some("cells");

    fn csv(&self) -> Option<Result<String, csv::Error>> {
        let rows: Vec<CellRow> = self.cells.iter().map(CellRow::of).collect();
        Some(super::csv_rows(&rows))
    }
}
