//! The terminal table and the chart of `fabric simulate pruned-butterfly`
//! and `sorting-fat-tree` (the report itself:
//! [`crate::report::model::bay_bilardi`]).

#[cfg(feature = "cli")]
use crate::report::chart::{bar_chart, Axis, BarChart, BarPoint, BarSeries, ChartError};
pub use crate::report::model::bay_bilardi::Spread;
use crate::report::model::bay_bilardi::{BbCell, BbReport};
use crate::sim::bb::run::{Network, Routed};

/// The network's name as the command line spells it.
fn network_name(n: Network) -> &'static str {
    match n {
        Network::PrunedButterfly => "pruned-butterfly",
        Network::SortingFatTree => "sorting-fat-tree",
    }
}

/// The network's own figures of a cell, in a few words.
fn own_figures(c: &BbCell) -> String {
    let n = c.trials.len().max(1) as f64;
    let mut sum = [0.0f64; 3];
    let mut worst = 0.0f64;
    for t in &c.trials {
        match &t.routed {
            Routed::PrunedButterfly { outcome: o } => {
                sum[0] += o.lambda_sum() as f64;
                sum[1] += o.sidetracks as f64;
                let lg = f64::from(o.stages.len() as u32);
                let d = f64::from(t.degree);
                worst = worst.max(f64::from(o.max_held) / ((d + 1.0) * lg + d));
            }
            Routed::SortingFatTree { outcome: o } => {
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
            c.setting.workload.name(),
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

#[cfg(feature = "cli")]
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
        let label = c.setting.workload.name();
        match series.iter_mut().find(|s| s.label == label) {
            Some(s) => s.points.push(point),
            None => series.push(BarSeries {
                label: label.to_string(),
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
