//! The terminal table of `fabric simulate mesh` and its chart of T
//! against n (the report itself: [`crate::report::model::mesh`]).

#[cfg(feature = "cli")]
use crate::report::chart::{bar_chart, Axis, BarChart, BarPoint, BarSeries, ChartError};
use crate::report::model::mesh::{excess_alarm, MeshReport};

/// The terminal table: one line per cell.
pub fn mesh_table(r: &MeshReport) -> String {
    let mut o = format!(
        "mesh k-k routing: {} trials per cell, seed {}{}\n",
        r.trials,
        r.seed,
        r.experiment
            .as_ref()
            .map(|e| format!(", experiment {e}"))
            .unwrap_or_default()
    );
    for rule in &r.rules {
        o += &format!("  rule: {rule}\n");
    }
    o += &format!(
        "  {:<40} {:>4} {:>5} | {:>17} | {:<23} | {:>20} | {:>29} | {:>6} {:>6} | {:>7}\n",
        "setting",
        "n",
        "d",
        "T mean (min-max)",
        "phases (mean)",
        "lower bounds d/b/c/l",
        "lead (source)",
        "T/lead",
        "excess",
        "Qmax"
    );
    for c in &r.cells {
        let phases: Vec<String> = c
            .phase
            .iter()
            .map(|p| format!("{:.0}", p.steps.mean))
            .collect();
        let b = &c.bounds;
        let (lead, ratio, excess) = match (c.lead, c.t_over_lead, c.excess) {
            (Some(l), Some(t), Some(x)) => (
                format!("{:.0} ({})", l.value, l.source),
                format!("{t:.3}"),
                format!("{x:.2}{}", if x > excess_alarm(c.d) { "!" } else { "" }),
            ),
            _ => ("-".to_string(), "-".to_string(), "-".to_string()),
        };
        o += &format!(
            "  {:<40} {:>4} {:>5} | {:>7.1} ({:>4}-{:>4}) | {:<23} | {:>20} | {:>29} | {:>6} {:>6} | {:>3} ({:>2})\n",
            c.series(),
            c.n,
            c.d,
            c.t.mean,
            c.t.min,
            c.t.max,
            phases.join("/"),
            format!("{}/{}/{}/{}", b.distance, b.bisection, b.connection, b.direction),
            lead,
            ratio,
            excess,
            c.qmax,
            c.qmax_transit
        );
    }
    o
}

#[cfg(feature = "cli")]
/// T against n, one series per setting, bars from the fastest to the
/// slowest trial.
pub fn mesh_chart(r: &MeshReport) -> Result<String, ChartError> {
    let mut series: Vec<BarSeries> = Vec::new();
    for c in &r.cells {
        let point = BarPoint {
            x: f64::from(c.n),
            y: c.t.mean,
            lo: c.t.min as f64,
            hi: c.t.max as f64,
        };
        let label = c.series();
        match series.iter_mut().find(|s| s.label == label) {
            Some(s) => s.points.push(point),
            None => series.push(BarSeries {
                label,
                points: vec![point],
            }),
        }
    }
    let means = r.cells.iter().map(|c| c.t.mean).filter(|&m| m > 0.0);
    let (lo, hi) = means.fold((f64::MAX, 0.0f64), |(a, b), m| (a.min(m), b.max(m)));
    bar_chart(&BarChart {
        title: format!(
            "mesh k-k routing{}: T over {} trials",
            r.experiment
                .as_ref()
                .map(|e| format!(" ({e})"))
                .unwrap_or_default(),
            r.trials
        ),
        x_desc: "n (side)".to_string(),
        y_desc: "T (steps)".to_string(),
        y_axis: if hi > 20.0 * lo {
            Axis::Log
        } else {
            Axis::Linear
        },
        series,
    })
}
