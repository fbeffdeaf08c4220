//! The terminal table and the chart of `fabric simulate butterfly`, each
//! figure beside the paper's bound (the report itself:
//! [`crate::report::model::butterfly`]).

#[cfg(feature = "cli")]
use plotters::prelude::*;

#[cfg(feature = "cli")]
use crate::report::chart::ChartError;
#[cfg(feature = "cli")]
use crate::report::model::butterfly::CellReport;
use crate::report::model::butterfly::PacketReport;
use crate::sim::packet::adversary::Replay;
use crate::sim::packet::experiment::bound::Verdict;
#[cfg(feature = "cli")]
use crate::sim::packet::experiment::Bound;

/// Model, protocol, traffic and routing as the flags name them.
fn setting(r: &PacketReport) -> [&'static str; 4] {
    [
        r.model.name(),
        r.protocol.map_or("-", |p| p.name()),
        r.traffic.name(),
        r.routing.name(),
    ]
}

/// The terminal table.
pub fn packet_table(r: &PacketReport) -> String {
    let [model, protocol, traffic, routing] = setting(r);
    let mut o = format!(
        "butterfly: model {model}, {protocol}, {traffic} traffic, {routing} routing, k = {}, {} trials, seed {}\n",
        r.packets_per_input, r.trials, r.seed
    );
    for rule in &r.rules {
        o += &format!("  rule: {rule}\n");
    }
    if let Some(c) = r.cells.first() {
        o += &format!(
            "  step = switch {:.2} + w(longest wire), w = {}, wires from {}\n",
            c.step.switch_delay, r.delay, c.step.source
        );
    }
    o += &format!(
        "{:>8} {:>3} {:>3} {:>9} {:>11} {:>8} {:>6} {:>8} {:>10}  {}\n",
        "N", "lgN", "q", "T mean", "T min-max", "T/lgN", "occ", "D ratio", "bit-times", "bound"
    );
    for c in &r.cells {
        let ratio = c
            .delay_tree_worst_ratio
            .map_or("-".to_string(), |x| format!("{x:.3}"));
        let mut bound = format!("{} [{}]", c.statement, verdict_word(c.verdict));
        if let Some(p) = &c.phases {
            bound += &format!(" T_A {:.1} T_B {:.1}", p[0].mean, p[1].mean);
        }
        if let Some(rep) = c.replay {
            bound += match rep {
                Replay::Identical => ", replay identical",
                Replay::Differs => ", REPLAY DIFFERS",
            };
        }
        o += &format!(
            "{:>8} {:>3} {:>3} {:>9.2} {:>11} {:>8.3} {:>6} {:>8} {:>10.0}  {}\n",
            c.rows,
            c.lg_rows,
            c.q,
            c.steps.mean,
            format!("{}-{}", c.steps.min, c.steps.max),
            c.steps_per_lg_n.mean,
            c.max_occupancy,
            ratio,
            c.bit_times,
            bound
        );
    }
    o
}

fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Holds => "holds",
        Verdict::Violated => "VIOLATED",
        Verdict::Reported => "reported",
    }
}

#[cfg(feature = "cli")]
fn draw(e: impl std::fmt::Display) -> ChartError {
    ChartError::Draw(e.to_string())
}

#[cfg(feature = "cli")]
/// A cell's plotted figure: mean, smallest, largest, and the bound where
/// it is a number.
type Pick = fn(&CellReport) -> (f64, f64, f64, Option<f64>);

#[cfg(feature = "cli")]
/// The figure a sweep plots, by the bound its cells carry.
fn figure(r: &PacketReport) -> (&'static str, Pick) {
    let adversary = r
        .cells
        .iter()
        .any(|c| matches!(c.bound, Bound::Adversary { .. }));
    let locking = r
        .cells
        .iter()
        .any(|c| matches!(c.bound, Bound::Locking { .. }));
    let waves = r
        .cells
        .iter()
        .any(|c| matches!(c.bound, Bound::Waves { .. }));
    if locking {
        (
            "E[S] / N; dashed: exact (Koch) or Theorem 5.2's bound",
            |c| {
                let (x, exact) = match &c.bound {
                    Bound::Locking { summary, exact } => (summary, *exact),
                    _ => unreachable!("every cell of a sweep has the same model"),
                };
                let p = x.packets.max(1) as f64;
                (
                    x.fraction,
                    x.delivered.min / p,
                    x.delivered.max / p,
                    Some(exact.unwrap_or(x.general_bound.max(0.0))),
                )
            },
        )
    } else if waves {
        ("T / (k + lg N)", |c| {
            let kl = match &c.bound {
                Bound::Waves { k_plus_lg } => *k_plus_lg as f64,
                _ => unreachable!("every cell of a sweep has the same model"),
            };
            (c.steps.mean / kl, c.steps.min / kl, c.steps.max / kl, None)
        })
    } else if adversary {
        ("T (steps); dashed: Theorem 3.1's LB", |c| {
            let lb = match &c.bound {
                Bound::Adversary { adversary } => Some(adversary.bound as f64),
                _ => None,
            };
            (c.steps.mean, c.steps.min, c.steps.max, lb)
        })
    } else {
        ("T / lg N", |c| {
            (
                c.steps_per_lg_n.mean,
                c.steps_per_lg_n.min,
                c.steps_per_lg_n.max,
                None,
            )
        })
    }
}

#[cfg(feature = "cli")]
/// The sweep against lg N, one colour per queue size: the figure the
/// paper bounds (T / lg N, or T beside LB for the adversary), with the
/// trials' range as bars and the bound as a dashed line where it is a
/// number.
pub fn packet_chart(r: &PacketReport) -> Result<String, ChartError> {
    let (y_name, pick) = figure(r);
    let mut qs: Vec<u32> = r.cells.iter().map(|c| c.q).collect();
    qs.sort_unstable();
    qs.dedup();
    let xs: Vec<f64> = r.cells.iter().map(|c| c.lg_rows as f64).collect();
    let xmin = xs.iter().cloned().fold(f64::MAX, f64::min) - 0.5;
    let xmax = xs.iter().cloned().fold(0.0, f64::max) + 0.5;
    let ymax = r
        .cells
        .iter()
        .map(|c| {
            let (_, _, hi, lb) = pick(c);
            hi.max(lb.unwrap_or(0.0))
        })
        .fold(1.0, f64::max)
        * 1.15;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (820, 540)).into_drawing_area();
        root.fill(&WHITE).map_err(draw)?;
        let [model, protocol, traffic, routing] = setting(r);
        let title = format!(
            "B(n), model {model}, {protocol}, {traffic} traffic ({routing} routing), k = {}, {} trials",
            r.packets_per_input, r.trials
        );
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 16))
            .margin(14)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(xmin..xmax, 0.0..ymax)
            .map_err(draw)?;
        chart
            .configure_mesh()
            .x_desc("lg N")
            .y_desc(y_name)
            .draw()
            .map_err(draw)?;
        for (i, &q) in qs.iter().enumerate() {
            let colour = Palette99::pick(i).to_rgba();
            let cells: Vec<&CellReport> = r.cells.iter().filter(|c| c.q == q).collect();
            let points: Vec<(f64, f64)> = cells
                .iter()
                .map(|c| (c.lg_rows as f64, pick(c).0))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
                .map_err(draw)?
                .label(format!("q = {q}"))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
            chart
                .draw_series(cells.iter().map(|c| {
                    let (_, lo, hi, _) = pick(c);
                    let x = c.lg_rows as f64;
                    PathElement::new(vec![(x, lo), (x, hi)], colour.stroke_width(1))
                }))
                .map_err(draw)?;
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 4, colour.filled())))
                .map_err(draw)?;
            let bound: Vec<(f64, f64)> = cells
                .iter()
                .filter_map(|c| pick(c).3.map(|b| (c.lg_rows as f64, b)))
                .collect();
            if !bound.is_empty() {
                chart
                    .draw_series(DashedLineSeries::new(bound, 6, 4, colour.stroke_width(1)))
                    .map_err(draw)?;
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE)
            .border_style(BLACK)
            .draw()
            .map_err(draw)?;
        root.present().map_err(draw)?;
    }
    Ok(out)
}
