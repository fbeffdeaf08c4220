//! The report of `fabric simulate butterfly`: YAML (serde), a terminal
//! table and a chart of the sweep, each figure beside the paper's bound.

use plotters::prelude::*;

use crate::report::chart::ChartError;
use crate::sim::packet::adversary::Replay;
use crate::sim::packet::experiment::bound::Verdict;
use crate::sim::packet::experiment::{Bound, Cell};
use crate::sim::Spread;

/// The whole report.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PacketReport {
    /// The network, `butterfly`.
    pub network: &'static str,
    /// Queue model, protocol, traffic and routing, as the flags name them.
    pub model: String,
    /// The protocol.
    pub protocol: String,
    /// The traffic.
    pub traffic: String,
    /// Direct or two-phase.
    pub routing: String,
    /// Packets per input: a number, or `lg N`.
    pub packets_per_input: String,
    /// Trials per cell.
    pub trials: u64,
    /// The seed.
    pub seed: u64,
    /// The rules followed wherever the paper or the notes leave a choice.
    pub rules: Vec<String>,
    /// The wire delay function `w(d)`, as given.
    pub delay: String,
    /// One entry per size and queue size.
    pub cells: Vec<CellReport>,
}

/// The length of a synchronous step in bit-times.
#[derive(Clone, Debug, serde::Serialize)]
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
#[derive(Clone, Debug, serde::Serialize)]
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
    /// Wall-clock seconds for the cell's trials (terminal only: the YAML
    /// stays byte-identical for a seed).
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

/// The report as YAML.
pub fn packet_yaml(r: &PacketReport) -> String {
    serde_norway::to_string(r).unwrap_or_else(|e| unreachable!("a report always serialises: {e}"))
}

/// The terminal table.
pub fn packet_table(r: &PacketReport) -> String {
    let mut o = format!(
        "butterfly: model {}, {}, {} traffic, {} routing, k = {}, {} trials, seed {}\n",
        r.model, r.protocol, r.traffic, r.routing, r.packets_per_input, r.trials, r.seed
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

fn draw(e: impl std::fmt::Display) -> ChartError {
    ChartError::Draw(e.to_string())
}

/// A cell's plotted figure: mean, smallest, largest, and the bound where
/// it is a number.
type Pick = fn(&CellReport) -> (f64, f64, f64, Option<f64>);

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
        let title = format!(
            "B(n), model {}, {}, {} traffic ({} routing), k = {}, {} trials",
            r.model, r.protocol, r.traffic, r.routing, r.packets_per_input, r.trials
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
