//! The terminal table of `fabric simulate wormhole`, with the paper's
//! values beside the measured ones, and the chart of latency against `N`
//! (the report itself: [`crate::report::model::wormhole`]).

#[cfg(feature = "cli")]
use crate::report::chart::{bar_chart, Axis, BarChart, BarPoint, BarSeries, ChartError};
use crate::report::model::wormhole::{traffic_name, Comparison, PaperFigure, WormReport};
use crate::sim::wormhole::{Pattern, Scheme};

/// The terminal table: one line per cell, then the paper's tables when
/// the sweep holds their configuration.
pub fn wormhole_table(r: &WormReport) -> String {
    let mut o = format!(
        "wormhole: {} ({}), L = {} flits, R = {}, {} runs, seed {}\n",
        r.network, r.capacity, r.flits, r.priorities, r.runs, r.seed
    );
    for rule in &r.rules {
        o += &format!("  rule: {rule}\n");
    }
    if let Some(c) = r.cells.first() {
        o += &format!(
            "  flit-step = 1 + w(longest wire) bit-times, w = {}, wires from {}\n",
            r.delay, c.step.source
        );
    }
    o += &format!(
        "{:<24} {:>5} {:>3} {:>21} {:>15} {:>7} {:>5} {:>8} {:>9} {:>10}  {}\n",
        "scheme path-scan traffic",
        "N",
        "q",
        "latency +- 99% CI",
        "min-max",
        "c",
        "d",
        "lat/c",
        "cL+d",
        "bit-times",
        "paper"
    );
    for c in &r.cells {
        let ci = c
            .latency
            .ci99
            .map_or("-".to_string(), |h| format!("{h:.1}"));
        o += &format!(
            "{:<24} {:>5} {:>3} {:>21} {:>15} {:>7.2} {:>5.2} {:>8.2} {:>9} {:>10.0}  {}\n",
            c.series(),
            c.processors,
            c.q,
            format!("{:.1} +- {ci}", c.latency.mean),
            format!("{}-{}", c.latency.min, c.latency.max),
            c.congestion,
            c.dilation,
            c.latency_per_c,
            c.lower_bound.map_or("-".to_string(), |b| format!("{b:.1}")),
            c.bit_times,
            paper_words(&c.paper)
        );
    }
    o += &paper_tables(r);
    if r.outside_band > 0 {
        o += &format!(
            "  {} cell(s) outside the paper's band (a finding; see the ratios above)\n",
            r.outside_band
        );
    }
    o
}

/// A cell's comparisons in words, or `-`.
fn paper_words(paper: &[Comparison]) -> String {
    if paper.is_empty() {
        return "-".to_string();
    }
    paper
        .iter()
        .map(|p| {
            format!(
                "{} {}: x{:.3} {}",
                p.figure.label(),
                number(p.paper),
                p.ratio,
                p.verdict.words()
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// A paper value as printed there: whole numbers without decimals.
fn number(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x}")
    }
}

/// `measured / paper (ratio)` for one table entry, or `-`.
fn entry(c: Option<&Comparison>) -> String {
    c.map_or("-".to_string(), |c| {
        format!("{:.1} / {} ({:.3})", c.measured, number(c.paper), c.ratio)
    })
}

/// Table I's columns: scheme and traffic.
const TABLE_ONE: [(Scheme, Pattern); 6] = [
    (Scheme::Store, Pattern::Random),
    (Scheme::Store, Pattern::Complement),
    (Scheme::Store, Pattern::ManyToOne),
    (Scheme::Worm, Pattern::Random),
    (Scheme::Worm, Pattern::Complement),
    (Scheme::Worm, Pattern::ManyToOne),
];

/// The paper's Table I and Table II beside the measured values, for the
/// sizes where the sweep has a cell of their configuration.
fn paper_tables(r: &WormReport) -> String {
    let find = |n: u32, scheme: Scheme, traffic: Pattern, figure: PaperFigure| {
        r.cells
            .iter()
            .filter(|c| c.processors == n && c.scheme == scheme && c.traffic == traffic)
            .find_map(|c| c.compared(figure))
    };
    let sizes = |figure: PaperFigure| {
        let mut ns: Vec<u32> = r
            .cells
            .iter()
            .filter(|c| c.compared(figure).is_some())
            .map(|c| c.processors)
            .collect();
        ns.sort_unstable();
        ns.dedup();
        ns
    };
    let mut o = String::new();
    let one = sizes(PaperFigure::Latency);
    if !one.is_empty() {
        o += "Table I (Greenberg & Oh), RP-RR, L = 32, R = 1, flit-steps: measured / paper (ratio)\n";
        o += &format!("{:>5}", "N");
        for (s, t) in TABLE_ONE {
            o += &format!(" {:>26}", format!("{} {}", s.name(), traffic_name(t)));
        }
        o += "\n";
        for n in one {
            o += &format!("{n:>5}");
            for (s, t) in TABLE_ONE {
                o += &format!(" {:>26}", entry(find(n, s, t, PaperFigure::Latency)));
            }
            o += "\n";
        }
    }
    let two = sizes(PaperFigure::Congestion);
    if !two.is_empty() {
        o += "Table II (Greenberg & Oh), WORM RP-RR random: measured / paper (ratio)\n";
        o += &format!("{:>5} {:>26} {:>26}\n", "N", "c", "latency/c");
        for n in two {
            let at = |f| entry(find(n, Scheme::Worm, Pattern::Random, f));
            o += &format!(
                "{n:>5} {:>26} {:>26}\n",
                at(PaperFigure::Congestion),
                at(PaperFigure::LatencyPerC)
            );
        }
    }
    o
}

#[cfg(feature = "cli")]
/// Latency against `N`, one series per scheme, path rule, scan and
/// traffic, with the 99 % confidence intervals as bars; `N` on a log
/// scale, latency on a log scale when the means span more than 20x.
pub fn wormhole_chart(r: &WormReport) -> Result<String, ChartError> {
    let mut series: Vec<BarSeries> = Vec::new();
    for c in &r.cells {
        let h = c.latency.ci99.unwrap_or(0.0);
        let point = BarPoint {
            x: c.processors as f64,
            y: c.latency.mean,
            lo: c.latency.mean - h,
            hi: c.latency.mean + h,
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
    let means = r.cells.iter().map(|c| c.latency.mean).filter(|&m| m > 0.0);
    let (lo, hi) = means.fold((f64::MAX, 0.0f64), |(a, b), m| (a.min(m), b.max(m)));
    let y_axis = if hi > 20.0 * lo {
        Axis::Log
    } else {
        Axis::Linear
    };
    bar_chart(&BarChart {
        title: format!(
            "wormhole routing on the {}: L = {}, R = {}, {} runs, 99 % CI",
            r.network, r.flits, r.priorities, r.runs
        ),
        x_desc: "N (processors)".to_string(),
        y_desc: "latency (flit-steps)".to_string(),
        y_axis,
        series,
    })
}
