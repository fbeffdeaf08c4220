//! The report of `fabric simulate open-loop`: per configuration (a
//! topology, its links, virtual channels), the analytic zero-load latency
//! and channel-load bound, one row per offered rate (latency figures,
//! accepted throughput, link utilisation) and the saturation bracket; as
//! YAML (serde, read back by `--compare`), a terminal table and a
//! latency–throughput chart.

use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use crate::report::chart::ChartError;

/// The layout of the YAML report; raised when a field changes meaning.
pub const SCHEMA: u32 = 1;

/// The whole report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpenLoopReport {
    /// [`SCHEMA`].
    pub schema: u32,
    /// The seed every point's stream derives from.
    pub seed: u64,
    /// How the router and the measurement work.
    pub rules: Vec<String>,
    /// When a rate counts as saturated.
    pub saturation_criterion: String,
    /// One entry per configuration.
    pub configs: Vec<ConfigReport>,
}

/// Smallest, mean and largest.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Range {
    /// Smallest.
    pub min: f64,
    /// Mean.
    pub mean: f64,
    /// Largest.
    pub max: f64,
}

impl Range {
    /// The range of `v` (all 0 when empty).
    pub fn of(v: impl Iterator<Item = f64> + Clone) -> Range {
        let n = v.clone().count();
        if n == 0 {
            return Range {
                min: 0.0,
                mean: 0.0,
                max: 0.0,
            };
        }
        Range {
            min: v.clone().fold(f64::INFINITY, f64::min),
            mean: v.clone().sum::<f64>() / n as f64,
            max: v.fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

/// One configuration and its rates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigReport {
    /// The series' name on the chart.
    pub label: String,
    /// `mesh`, `torus`, `fat-tree`, `butterfly-fat-tree`.
    pub topology: String,
    /// Terminals.
    pub terminals: u32,
    /// Routers (terminals' routers included).
    pub routers: u32,
    /// Directed channels.
    pub channels: u32,
    /// `unit` or `layout`.
    pub links: String,
    /// The wire delay `w(d)` of layout links.
    pub delay: String,
    /// Wire lengths of the channels (unit grid edges).
    pub wire_length: Range,
    /// Channel latencies in cycles.
    pub link_latency: Range,
    /// Virtual channels per port.
    pub vcs: u32,
    /// Flits per virtual channel.
    pub vc_depth: u32,
    /// Flits per packet.
    pub packet_flits: u32,
    /// Router delay in cycles.
    pub router_delay: u32,
    /// `wormhole` or `virtual-cut-through`.
    pub flow_control: String,
    /// `bernoulli` or `periodic`.
    pub injection: String,
    /// The destination pattern.
    pub traffic: String,
    /// Warm-up, measurement, most drain cycles.
    pub phases: [u64; 3],
    /// Analytic zero-load latency in cycles, averaged over the pattern.
    pub zero_load_latency: f64,
    /// The channel-load bound, flits/terminal/cycle.
    pub channel_load_bound: f64,
    /// The saturation search's bracket, when run.
    pub saturation: Option<SaturationReport>,
    /// One row per offered rate.
    pub points: Vec<PointReport>,
}

/// Where the search put saturation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaturationReport {
    /// The highest offered rate found unsaturated.
    pub below: f64,
    /// The lowest found saturated.
    pub above: f64,
    /// Accepted throughput at `below`.
    pub accepted_below: f64,
    /// Accepted throughput at `above`.
    pub accepted_above: f64,
    /// `below` over the channel-load bound.
    pub fraction_of_bound: f64,
    /// Rates simulated.
    pub probes: u32,
}

/// Latency figures in cycles.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatencyReport {
    /// Mean.
    pub avg: f64,
    /// Median.
    pub median: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Maximum.
    pub max: u64,
}

/// One offered rate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointReport {
    /// Offered rate asked for, flits/terminal/cycle.
    pub rate: f64,
    /// Offered as measured in the window.
    pub offered: f64,
    /// Accepted (delivered) in the window.
    pub accepted: f64,
    /// Whether every measured packet was delivered within the drain.
    pub drained: bool,
    /// Whether the rate meets the saturation criterion.
    pub saturated: bool,
    /// Measured packets.
    pub measured: u64,
    /// Of them, delivered.
    pub delivered: u64,
    /// Head into the network to tail delivered.
    pub network_latency: LatencyReport,
    /// The analytic zero-load latency averaged over the measured packets'
    /// own sources and destinations: what `network_latency.avg` would be
    /// without contention.
    pub zero_load_of_packets: f64,
    /// Creation to tail delivered.
    pub total_latency: LatencyReport,
    /// Mean channels crossed.
    pub hops: f64,
    /// Flits per cycle on the channels during the measurement.
    pub link_utilisation: Range,
    /// The busiest channel, `from -> to` routers.
    pub busiest_link: [u32; 2],
    /// Cycles run.
    pub cycles: u64,
    /// Flits through a switch, whole run.
    pub flit_hops: u64,
}

/// The report as YAML.
pub fn open_loop_yaml(r: &OpenLoopReport) -> String {
    serde_norway::to_string(r).expect("the report serialises")
}

/// Read a report written by [`open_loop_yaml`].
pub fn read_open_loop(text: &str) -> Result<OpenLoopReport, String> {
    let r: OpenLoopReport = serde_norway::from_str(text).map_err(|e| e.to_string())?;
    if r.schema != SCHEMA {
        return Err(format!("schema {} (this fabric reads {SCHEMA})", r.schema));
    }
    Ok(r)
}

/// One table per configuration.
pub fn open_loop_table(r: &OpenLoopReport) -> String {
    let mut s = String::new();
    for c in &r.configs {
        s += &format!(
            "{}: {} terminals, {} routers, {} channels, links {} (latency {:.0}..{:.0}), zero-load {:.2} cycles, channel-load bound {:.4}\n",
            c.label, c.terminals, c.routers, c.channels, c.links, c.link_latency.min, c.link_latency.max,
            c.zero_load_latency, c.channel_load_bound
        );
        s += "    rate  offered accepted   net avg  net p99  tot avg  tot med  tot p99  tot max  link max  sat\n";
        for p in &c.points {
            s += &format!(
                "  {:6.3}  {:7.4}  {:7.4}  {:8.2} {:8} {:8.2} {:8} {:8} {:8}  {:8.3}  {}\n",
                p.rate,
                p.offered,
                p.accepted,
                p.network_latency.avg,
                p.network_latency.p99,
                p.total_latency.avg,
                p.total_latency.median,
                p.total_latency.p99,
                p.total_latency.max,
                p.link_utilisation.max,
                if p.saturated { "yes" } else { "no" }
            );
        }
        if let Some(sat) = &c.saturation {
            s += &format!(
                "  saturation between {:.4} and {:.4} offered ({:.1} % of the bound {:.4}); accepted {:.4} below, {:.4} above\n",
                sat.below,
                sat.above,
                100.0 * sat.fraction_of_bound,
                c.channel_load_bound,
                sat.accepted_below,
                sat.accepted_above
            );
        }
    }
    s
}

fn draw(e: impl std::fmt::Display) -> ChartError {
    ChartError::Draw(e.to_string())
}

/// Average total latency against accepted throughput, one line per
/// configuration (of this report and the compared ones); saturated points
/// hollow, latency on a log scale.
pub fn open_loop_chart(title: &str, configs: &[&ConfigReport]) -> Result<String, ChartError> {
    let pts = || configs.iter().flat_map(|c| &c.points);
    let xmax = pts().map(|p| p.accepted.max(p.rate)).fold(0.05, f64::max) * 1.05;
    let ymax = pts().map(|p| p.total_latency.avg).fold(10.0, f64::max) * 1.3;
    let ymin = pts()
        .map(|p| p.total_latency.avg)
        .fold(f64::MAX, f64::min)
        .clamp(1.0, 1e9)
        * 0.8;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (900, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(draw)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(14)
            .x_label_area_size(42)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..xmax, (ymin..ymax).log_scale())
            .map_err(draw)?;
        chart
            .configure_mesh()
            .x_desc("accepted throughput (flits/terminal/cycle)")
            .y_desc("average total latency (cycles)")
            .draw()
            .map_err(draw)?;
        for (i, c) in configs.iter().enumerate() {
            let colour = Palette99::pick(i).to_rgba();
            let line: Vec<(f64, f64)> = c
                .points
                .iter()
                .map(|p| (p.accepted, p.total_latency.avg))
                .collect();
            chart
                .draw_series(LineSeries::new(line, colour.stroke_width(2)))
                .map_err(draw)?
                .label(c.label.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
            chart
                .draw_series(c.points.iter().map(|p| {
                    let style = if p.saturated {
                        colour.stroke_width(2)
                    } else {
                        colour.filled()
                    };
                    Circle::new((p.accepted, p.total_latency.avg), 4, style)
                }))
                .map_err(draw)?;
            // The channel-load bound, a faint vertical line.
            if c.channel_load_bound < xmax {
                chart
                    .draw_series(LineSeries::new(
                        vec![(c.channel_load_bound, ymin), (c.channel_load_bound, ymax)],
                        colour.mix(0.35).stroke_width(1),
                    ))
                    .map_err(draw)?;
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE)
            .border_style(BLACK)
            .draw()
            .map_err(draw)?;
        root.present().map_err(draw)?;
    }
    Ok(out)
}
