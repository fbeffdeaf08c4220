//! The report of `fabric simulate pruned-butterfly` and `sorting-fat-tree`
//! (Bay and Bilardi): per cell (a size and a workload), the load factors
//! `λ`, `λ_a`, `λ_d` and `η` of the message sets, the time in bit steps
//! beside the floor `b·λ` and the paper's bound, and `A·T²` of the laid-out
//! network over both floors; as YAML (serde), a terminal table and a chart
//! of T against N.

use serde::Serialize;

use crate::report::chart::{bar_chart, Axis, BarChart, BarPoint, BarSeries, ChartError};
use crate::sim::bb::bounds::prop1_slowdown;
use crate::sim::bb::run::{Network, Routed, Setting, Trial};
use crate::sim::bb::traffic::Workload;

/// The layout of the YAML report; raised when a field changes meaning.
pub const SCHEMA: u32 = 1;

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct BbReport {
    /// [`SCHEMA`].
    pub schema: u32,
    /// The network.
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
#[derive(Clone, Copy, Debug, PartialEq, Serialize, schemars::JsonSchema)]
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
#[derive(Clone, Debug, Serialize)]
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
    /// Wall seconds of the cell (not in the YAML, which the seed fixes
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

/// The report as YAML.
pub fn bb_yaml(r: &BbReport) -> String {
    serde_norway::to_string(r).unwrap_or_else(|e| unreachable!("a report always serialises: {e}"))
}

/// The network's name as the command line spells it.
fn network_name(n: Network) -> &'static str {
    match n {
        Network::PrunedButterfly => "pruned-butterfly",
        Network::SortingFatTree => "sorting-fat-tree",
    }
}

/// The workload's name as the command line spells it.
fn workload_name(w: Workload) -> String {
    clap::ValueEnum::to_possible_value(&w).map_or_else(String::new, |p| p.get_name().to_string())
}

/// The network's own figures of a cell, in a few words.
fn own_figures(c: &BbCell) -> String {
    let n = c.trials.len().max(1) as f64;
    let mut sum = [0.0f64; 3];
    let mut worst = 0.0f64;
    for t in &c.trials {
        match &t.routed {
            Routed::PrunedButterfly(o) => {
                sum[0] += o.lambda_sum() as f64;
                sum[1] += o.sidetracks as f64;
                let lg = f64::from(o.stages.len() as u32);
                let d = f64::from(t.degree);
                worst = worst.max(f64::from(o.max_held) / ((d + 1.0) * lg + d));
            }
            Routed::SortingFatTree(o) => {
                sum[0] += o.steps.up as f64;
                sum[1] += o.steps.down as f64;
                sum[2] += o.steps.peak_sorts as f64;
                worst = worst.max(o.max_occupancy.0 as f64 / o.max_occupancy.1 as f64);
            }
        }
    }
    match c.setting.network {
        Network::PrunedButterfly => format!(
            "Σλ_T {:.1}, sidetracks {:.0}, held {:.2} of Lemma 7",
            sum[0] / n,
            sum[1] / n,
            worst
        ),
        Network::SortingFatTree => format!(
            "up {:.0}, peak sorts {:.0}, down {:.0}, sorters {:.2} full",
            sum[0] / n,
            sum[2] / n,
            sum[1] / n,
            worst
        ),
    }
}

/// The terminal table: one line per cell.
pub fn bb_table(r: &BbReport) -> String {
    let mut o = format!(
        "{} (Bay-Bilardi): {} trials per cell, seed {}\n",
        network_name(r.network),
        r.trials,
        r.seed
    );
    for rule in &r.rules {
        o += &format!("  rule: {rule}\n");
    }
    o += &format!(
        "  {:>6} {:<12} | {:>7} {:>7} {:>7} {:>7} {:>5} | {:>22} | {:>6} {:>7} | {:>9} {:>9} | {}\n",
        "N", "workload", "λ", "λ_a", "λ_d", "η", "d", "T bit steps (min-max)", "T/bλ", "T/thm", "AT²/gen", "AT²/thm4", "network"
    );
    for c in &r.cells {
        let ratio = |s: &Option<Spread>| s.map_or("-".to_string(), |s| format!("{:.3e}", s.mean));
        o += &format!(
            "  {:>6} {:<12} | {:>7.2} {:>7.2} {:>7.2} {:>7.2} {:>5} | {:>8.0} ({:>5.0}-{:>5.0}) | {:>6.2} {:>7.2} | {:>9} {:>9} | {}\n",
            c.setting.terminals,
            workload_name(c.setting.workload),
            c.lambda.mean,
            c.lambda_a.mean,
            c.lambda_d.mean,
            c.eta.mean,
            c.degree,
            c.time.mean,
            c.time.min,
            c.time.max,
            c.over_floor.mean,
            c.over_theorem.mean,
            ratio(&c.at2_general),
            ratio(&c.at2_theorem4),
            own_figures(c)
        );
    }
    o
}

/// T against N, one series per workload, bars from the fastest to the
/// slowest trial.
pub fn bb_chart(r: &BbReport) -> Result<String, ChartError> {
    let mut series: Vec<BarSeries> = Vec::new();
    for c in &r.cells {
        let point = BarPoint {
            x: c.setting.terminals as f64,
            y: c.time.mean,
            lo: c.time.min,
            hi: c.time.max,
        };
        let label = workload_name(c.setting.workload);
        match series.iter_mut().find(|s| s.label == label) {
            Some(s) => s.points.push(point),
            None => series.push(BarSeries {
                label,
                points: vec![point],
            }),
        }
    }
    bar_chart(&BarChart {
        title: format!("{}: T over {} trials", network_name(r.network), r.trials),
        x_desc: "N (terminals)".to_string(),
        y_desc: "T (bit steps)".to_string(),
        y_axis: Axis::Log,
        series,
    })
}
