//! `fabric.simulate.wormhole`: the cells of `fabric simulate wormhole`,
//! one per scheme, path rule, scan, traffic and size, each with the
//! paper's values where it tabulates them (`--format csv` writes the
//! `cells`, flattened).

use schemars::JsonSchema;
use serde::Serialize;

use super::butterfly::StepTime;
use super::{Header, Report};
use crate::sim::wormhole::{PathRule, Pattern, Scan, Scheme, SchemeRun, Setup};

/// The report of `fabric simulate wormhole`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct WormReport {
    /// Schema, its version, and the writer's version.
    #[serde(flatten)]
    pub header: Header,
    /// The network, as `--network` names it.
    pub network: String,
    /// Its channel capacities in words.
    pub capacity: String,
    /// Flits per message, `L`.
    pub flits: u32,
    /// `--queue` as given; `None`: each scheme's own (every cell gives
    /// its `q`).
    pub queue: Option<u32>,
    /// `R` as given.
    pub priorities: Priorities,
    /// Runs per cell.
    pub runs: u64,
    /// The seed the cells' seeds derive from.
    pub seed: u64,
    /// The wire delay function `w(d)`, as given.
    pub delay: String,
    /// The layout file, or `None` when laid out in memory.
    pub layout: Option<String>,
    /// The rules of the step and of the schemes.
    pub rules: Vec<String>,
    /// One entry per scheme, path rule, scan, traffic and size.
    pub cells: Vec<CellReport>,
    /// Cells with a paper value outside its band.
    pub outside_band: usize,
}

/// `R`, the initial-delay range and UNIV's priority range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Priorities {
    /// The same `R` at every size.
    Fixed {
        /// `R`.
        r: u32,
    },
    /// `R = lg N` at each size (every cell gives its `r`).
    LgN,
}

impl std::fmt::Display for Priorities {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Priorities::Fixed { r } => write!(f, "{r}"),
            Priorities::LgN => f.write_str("lg N"),
        }
    }
}

/// Mean latency over the runs with its extremes and 99 % confidence
/// interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Latency {
    /// Mean, in flit-steps.
    pub mean: f64,
    /// Smallest run.
    pub min: u64,
    /// Largest run.
    pub max: u64,
    /// Sample standard deviation (divided by runs - 1); 0 for one run.
    pub stddev: f64,
    /// Half-width of the two-sided 99 % confidence interval of the mean,
    /// `t(0.995, runs - 1) s / sqrt(runs)`; `None` for one run.
    pub ci99: Option<f64>,
}

/// Two-sided 99 % quantiles `t(0.995, df)` of Student's t for
/// `df = 1 ..= 30`.
const T99: [f64; 30] = [
    63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169, 3.106, 3.055, 3.012,
    2.977, 2.947, 2.921, 2.898, 2.878, 2.861, 2.845, 2.831, 2.819, 2.807, 2.797, 2.787, 2.779,
    2.771, 2.763, 2.756, 2.750,
];

/// `(1 / df, t(0.995, df))` from `df = 30` to the normal quantile at
/// `1 / df = 0`.
const T99_TAIL: [(f64, f64); 5] = [
    (1.0 / 30.0, 2.750),
    (1.0 / 40.0, 2.704),
    (1.0 / 60.0, 2.660),
    (1.0 / 120.0, 2.617),
    (0.0, 2.576),
];

/// `t(0.995, df)`: the table up to 30 degrees of freedom, linear in
/// `1 / df` beyond; `None` for `df = 0`.
pub fn t99(df: u64) -> Option<f64> {
    match df {
        0 => None,
        1..=30 => Some(T99[df as usize - 1]),
        _ => {
            let x = 1.0 / df as f64;
            let k = T99_TAIL
                .windows(2)
                .position(|w| x >= w[1].0)
                .unwrap_or(T99_TAIL.len() - 2);
            let ((x0, t0), (x1, t1)) = (T99_TAIL[k], T99_TAIL[k + 1]);
            Some(t1 + (t0 - t1) * (x - x1) / (x0 - x1))
        }
    }
}

impl Latency {
    /// The figures of the runs' latencies (at least one).
    pub fn of(values: &[u64]) -> Latency {
        let k = values.len().max(1) as f64;
        let mean = values.iter().map(|&v| v as f64).sum::<f64>() / k;
        let ss: f64 = values.iter().map(|&v| (v as f64 - mean).powi(2)).sum();
        let df = values.len().saturating_sub(1) as u64;
        let stddev = if df > 0 { (ss / df as f64).sqrt() } else { 0.0 };
        Latency {
            mean,
            min: values.iter().copied().min().unwrap_or(0),
            max: values.iter().copied().max().unwrap_or(0),
            stddev,
            ci99: t99(df).map(|t| t * stddev / k.sqrt()),
        }
    }
}

/// A figure the paper tabulates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub enum PaperFigure {
    /// Table I: mean latency in flit-steps.
    #[serde(rename = "table_1_latency")]
    Latency,
    /// Table II: mean realized congestion `c`.
    #[serde(rename = "table_2_c")]
    Congestion,
    /// Table II: mean of latency / `c`.
    #[serde(rename = "table_2_latency_per_c")]
    LatencyPerC,
}

impl PaperFigure {
    /// As the terminal names it.
    pub fn label(self) -> &'static str {
        match self {
            PaperFigure::Latency => "latency",
            PaperFigure::Congestion => "c",
            PaperFigure::LatencyPerC => "latency/c",
        }
    }
}

/// Whether a measurement lies within the paper's band.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub enum BandVerdict {
    /// `|measured - paper| <= tolerance x paper`.
    #[serde(rename = "within_band")]
    Within,
    /// Outside: a finding, not an error.
    #[serde(rename = "outside_band")]
    Outside,
}

impl BandVerdict {
    /// As the terminal words it.
    pub fn words(self) -> &'static str {
        match self {
            BandVerdict::Within => "within band",
            BandVerdict::Outside => "outside band",
        }
    }
}

/// A measured figure beside the paper's value.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Comparison {
    /// Which figure.
    pub figure: PaperFigure,
    /// The measured value.
    pub measured: f64,
    /// The paper's.
    pub paper: f64,
    /// measured / paper.
    pub ratio: f64,
    /// The band as a fraction of the paper's value (0: exact).
    pub tolerance: f64,
    /// Within the band or not.
    pub verdict: BandVerdict,
}

impl Comparison {
    /// `measured` against `paper` with a relative `tolerance`.
    pub fn new(figure: PaperFigure, measured: f64, paper: f64, tolerance: f64) -> Comparison {
        // Means of whole numbers are exact; the slack only absorbs rounding.
        let slack = tolerance * paper + 1e-9 * paper.abs();
        Comparison {
            figure,
            measured,
            paper,
            ratio: measured / paper,
            tolerance,
            verdict: if (measured - paper).abs() <= slack {
                BandVerdict::Within
            } else {
                BandVerdict::Outside
            },
        }
    }
}

/// One cell's figures.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CellReport {
    /// The scheme.
    pub scheme: Scheme,
    /// The up-link rule.
    pub path: PathRule,
    /// The input scan.
    pub scan: Scan,
    /// The traffic.
    pub traffic: Pattern,
    /// Processors `N`.
    pub processors: u32,
    /// Queue size in units.
    pub q: u32,
    /// `R`.
    pub r: u32,
    /// The seed of the cell's runs (run `i` on stream `i`).
    pub seed: u64,
    /// Latency in flit-steps.
    pub latency: Latency,
    /// Every run's latency, in run order.
    pub latencies: Vec<u64>,
    /// Mean realized congestion `c`.
    pub congestion: f64,
    /// The largest `c` of a run.
    pub congestion_max: u32,
    /// Mean dilation `d` (the longest path taken, in links).
    pub dilation: f64,
    /// Mean over the runs of latency / `c` (runs with `c > 0`).
    pub latency_per_c: f64,
    /// WORM: the mean over the runs of `c L + d`.
    pub lower_bound: Option<f64>,
    /// Mean messages not addressed to their own source.
    pub messages: f64,
    /// Unit link crossings over all runs.
    pub unit_hops: u64,
    /// The flit-step's length from the layout's wires.
    pub step: StepTime,
    /// Mean latency in bit-times: flit-steps times the step.
    pub bit_times: f64,
    /// The paper's values for this configuration, if it tabulates them.
    pub paper: Vec<Comparison>,
    /// Wall-clock seconds of the cell's runs (terminal only: the report
    /// stays byte-identical for a seed).
    #[serde(skip)]
    pub seconds: f64,
}

impl CellReport {
    /// The summary of `runs` of `setup` on `n` processors, seeded with
    /// `seed`, each flit-step `step` long, run in `seconds`.
    pub fn of(
        setup: &Setup,
        n: u32,
        seed: u64,
        runs: &[SchemeRun],
        step: StepTime,
        seconds: f64,
    ) -> CellReport {
        let k = runs.len().max(1) as f64;
        let mean = |f: &dyn Fn(&SchemeRun) -> f64| runs.iter().map(f).sum::<f64>() / k;
        let latencies: Vec<u64> = runs.iter().map(|r| r.latency).collect();
        let latency = Latency::of(&latencies);
        let per_c: Vec<f64> = runs
            .iter()
            .filter(|r| r.congestion > 0)
            .map(|r| r.latency as f64 / r.congestion as f64)
            .collect();
        let l = setup.flits as f64;
        CellReport {
            scheme: setup.scheme,
            path: setup.path,
            scan: setup.scan,
            traffic: setup.pattern,
            processors: n,
            q: setup.q(),
            r: setup.r,
            seed,
            latency,
            latencies,
            congestion: mean(&|r| r.congestion as f64),
            congestion_max: runs.iter().map(|r| r.congestion).max().unwrap_or(0),
            dilation: mean(&|r| r.dilation as f64),
            latency_per_c: per_c.iter().sum::<f64>() / per_c.len().max(1) as f64,
            lower_bound: (setup.scheme == Scheme::Worm)
                .then(|| mean(&|r| r.congestion as f64 * l + r.dilation as f64)),
            messages: mean(&|r| r.messages as f64),
            unit_hops: runs.iter().map(|r| r.unit_hops).sum(),
            bit_times: latency.mean * step.bit_times_per_step,
            step,
            paper: Vec::new(),
            seconds,
        }
    }

    /// The paper's comparison of `figure`, if the cell has one.
    pub fn compared(&self, figure: PaperFigure) -> Option<&Comparison> {
        self.paper.iter().find(|c| c.figure == figure)
    }

    /// Scheme, path rule, scan and traffic, as in `WORM RP-RR random`.
    pub fn series(&self) -> String {
        format!(
            "{} {}-{} {}",
            self.scheme.name(),
            path_name(self.path),
            scan_name(self.scan),
            traffic_name(self.traffic)
        )
    }
}

/// A path rule as the paper abbreviates it.
fn path_name(p: PathRule) -> &'static str {
    match p {
        PathRule::Fixed => "FP",
        PathRule::Random => "RP",
        PathRule::Greedy => "GP",
    }
}

/// A scan as the paper abbreviates it.
fn scan_name(s: Scan) -> &'static str {
    match s {
        Scan::Fixed => "FO",
        Scan::RoundRobin => "RR",
        Scan::Farthest => "FF",
    }
}

/// A traffic pattern as `--traffic` names it.
pub fn traffic_name(t: Pattern) -> &'static str {
    match t {
        Pattern::Random => "random",
        Pattern::Complement => "complement",
        Pattern::ManyToOne => "many-to-one",
    }
}

/// A cell as one CSV row: its nested figures flattened into columns (the
/// paper's values by figure, empty where it tabulates none).
#[derive(Clone, Debug, Serialize)]
struct CellRow {
    scheme: Scheme,
    path: PathRule,
    scan: Scan,
    traffic: Pattern,
    processors: u32,
    q: u32,
    r: u32,
    seed: u64,
    latency_mean: f64,
    latency_min: u64,
    latency_max: u64,
    latency_stddev: f64,
    latency_ci99: Option<f64>,
    congestion: f64,
    congestion_max: u32,
    dilation: f64,
    latency_per_c: f64,
    lower_bound: Option<f64>,
    messages: f64,
    unit_hops: u64,
    longest_wire: u64,
    bit_times_per_step: f64,
    bit_times: f64,
    paper_latency: Option<f64>,
    paper_latency_verdict: Option<BandVerdict>,
    paper_c: Option<f64>,
    paper_c_verdict: Option<BandVerdict>,
    paper_latency_per_c: Option<f64>,
    paper_latency_per_c_verdict: Option<BandVerdict>,
}

impl CellRow {
    fn of(c: &CellReport) -> CellRow {
        let paper = |f: PaperFigure| c.compared(f).map(|p| p.paper);
        let verdict = |f: PaperFigure| c.compared(f).map(|p| p.verdict);
        CellRow {
            scheme: c.scheme,
            path: c.path,
            scan: c.scan,
            traffic: c.traffic,
            processors: c.processors,
            q: c.q,
            r: c.r,
            seed: c.seed,
            latency_mean: c.latency.mean,
            latency_min: c.latency.min,
            latency_max: c.latency.max,
            latency_stddev: c.latency.stddev,
            latency_ci99: c.latency.ci99,
            congestion: c.congestion,
            congestion_max: c.congestion_max,
            dilation: c.dilation,
            latency_per_c: c.latency_per_c,
            lower_bound: c.lower_bound,
            messages: c.messages,
            unit_hops: c.unit_hops,
            longest_wire: c.step.longest_wire,
            bit_times_per_step: c.step.bit_times_per_step,
            bit_times: c.bit_times,
            paper_latency: paper(PaperFigure::Latency),
            paper_latency_verdict: verdict(PaperFigure::Latency),
            paper_c: paper(PaperFigure::Congestion),
            paper_c_verdict: verdict(PaperFigure::Congestion),
            paper_latency_per_c: paper(PaperFigure::LatencyPerC),
            paper_latency_per_c_verdict: verdict(PaperFigure::LatencyPerC),
        }
    }
}

impl Report for WormReport {
    const SCHEMA: &'static str = "fabric.simulate.wormhole";
    const VERSION: u32 = 2;
    const TABLE: Option<&'static str> = Some("cells");

    fn csv(&self) -> Option<Result<String, csv::Error>> {
        let rows: Vec<CellRow> = self.cells.iter().map(CellRow::of).collect();
        Some(super::csv_rows(&rows))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_follow_the_table_and_approach_the_normal() {
        assert_eq!(t99(0), None);
        assert_eq!(t99(29), Some(2.756));
        assert_eq!(t99(40), Some(2.704));
        let t = t99(90).unwrap();
        assert!(t < 2.660 && t > 2.617, "{t}");
        assert!((t99(1_000_000).unwrap() - 2.576).abs() < 1e-3);
        let mut last = f64::MAX;
        for df in 1..500 {
            let t = t99(df).unwrap();
            assert!(t <= last, "df {df}");
            last = t;
        }
    }

    #[test]
    fn latency_interval_uses_the_sample_deviation() {
        let l = Latency::of(&[10, 12, 14]);
        assert_eq!((l.mean, l.min, l.max), (12.0, 10, 14));
        assert!((l.stddev - 2.0).abs() < 1e-12);
        assert!((l.ci99.unwrap() - 9.925 * 2.0 / 3f64.sqrt()).abs() < 1e-9);
        assert_eq!(Latency::of(&[7]).ci99, None);
    }

    #[test]
    fn bands_are_relative_and_exact_means_exact() {
        let c = Comparison::new(PaperFigure::Latency, 104.9, 100.0, 0.05);
        assert_eq!(c.verdict, BandVerdict::Within);
        let c = Comparison::new(PaperFigure::Latency, 105.2, 100.0, 0.05);
        assert_eq!(c.verdict, BandVerdict::Outside);
        let c = Comparison::new(PaperFigure::Latency, 258.0, 258.0, 0.0);
        assert_eq!(c.verdict, BandVerdict::Within);
        let c = Comparison::new(PaperFigure::Latency, 258.5, 258.0, 0.0);
        assert_eq!(c.verdict, BandVerdict::Outside);
    }
}
