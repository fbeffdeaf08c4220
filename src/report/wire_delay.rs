//! The report of `fabric simulate wire-delay`: per network, size, wire
//! delay and traffic, the rounds, the delivery times in bit-times, `c` (the
//! largest delivery time over `d + lg A`, Theorem 18's shape), and Delta
//! delta measured on the routed paths beside its analytic value; as the
//! typed report `fabric.simulate.wire_delay` (YAML, JSON, or CSV of its
//! cells), a terminal table and a chart of `c` against the size.

#[cfg(feature = "cli")]
use crate::report::chart::{bar_chart, Axis, BarChart, BarPoint, BarSeries, ChartError};
pub use crate::report::model::wire_delay::{WireCell, WireDelayReport};
use crate::sim::circuit::{DistanceRow, TrialFigures};

/// The rows of several trials merged: counts added, means weighted,
/// maxima taken.
pub fn merge_rows(trials: &[TrialFigures]) -> Vec<DistanceRow> {
    let mut out: Vec<DistanceRow> = Vec::new();
    for r in trials.iter().flat_map(|t| &t.rows) {
        match out.iter_mut().find(|o| o.lo == r.lo) {
            Some(o) => {
                let m = o.messages + r.messages;
                o.mean = (o.mean * o.messages as f64 + r.mean * r.messages as f64) / m as f64;
                o.messages = m;
                o.max = o.max.max(r.max);
                o.max_path = o.max_path.max(r.max_path);
                o.max_ratio = o.max_ratio.max(r.max_ratio);
            }
            None => out.push(*r),
        }
    }
    out.sort_by_key(|r| r.lo);
    out
}

/// The terminal table: one line per cell.
pub fn wire_delay_table(r: &WireDelayReport) -> String {
    let mut o = format!(
        "wire-delay: {} trials per cell, seed {}, switch delay {}\n",
        r.trials, r.seed, r.switch_delay
    );
    for rule in &r.rules {
        o += &format!("  rule: {rule}\n");
    }
    o += &format!(
        "  {:<17} {:>7} {:>7} {:<7} {:<9} | {:>6} {:>10} {:>10} {:>7} {:>7} | {:>7} {:>7} {:>7}\n",
        "network",
        "n",
        "area/n",
        "delay",
        "traffic",
        "rounds",
        "mean time",
        "max time",
        "c",
        "c path",
        "Δδ",
        "Δδ lay",
        "Δδ thm"
    );
    let opt = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.2}"));
    for c in &r.cells {
        let traffic = match c.radius {
            Some(radius) => format!("{} r{radius}", c.traffic.name()),
            None => c.traffic.name().to_string(),
        };
        o += &format!(
            "  {:<17} {:>7} {:>7.1} {:<7} {:<9} | {:>6.1} {:>10.1} {:>10.1} {:>7.2} {:>7.2} | {:>7.2} {:>7} {:>7}\n",
            c.network.name(),
            c.processors,
            c.area as f64 / c.processors as f64,
            c.delay,
            traffic,
            c.rounds.mean,
            c.mean_time.mean,
            c.max_time.max,
            c.c.max,
            c.c_path.max,
            c.delta_delta,
            opt(c.delta_delta_analytic),
            opt(c.delta_delta_thesis),
        );
    }
    o += "  c = the largest time / (d + lg A) over the messages, contention included; c path = the same for a message's path alone: Theorem 18 bounds it on the fat-pyramid\n";
    o
}

#[cfg(feature = "cli")]
/// `c path` against the processors, one series per network, delay and traffic,
/// bars from the smallest to the largest trial.
pub fn wire_delay_chart(r: &WireDelayReport) -> Result<String, ChartError> {
    let mut series: Vec<BarSeries> = Vec::new();
    for c in &r.cells {
        let label = format!("{} {} {}", c.network.name(), c.delay, c.traffic.name());
        let point = BarPoint {
            x: c.processors as f64,
            y: c.c_path.mean,
            lo: c.c_path.min,
            hi: c.c_path.max,
        };
        match series.iter_mut().find(|s| s.label == label) {
            Some(s) => s.points.push(point),
            None => series.push(BarSeries {
                label,
                points: vec![point],
            }),
        }
    }
    bar_chart(&BarChart {
        title: format!(
            "path time / (d + lg A) over {} trials (Theorem 18)",
            r.trials
        ),
        x_desc: "processors A".to_string(),
        y_desc: "c path = max path time / (d + lg A)".to_string(),
        y_axis: Axis::Log,
        series,
    })
}
