//! `fabric.simulate.open_loop`: the report of `fabric simulate open-loop`,
//! read back by `--compare`. Per configuration (a topology, its links,
//! virtual channels), the analytic zero-load latency and channel-load
//! bound, one record per offered rate (latency figures, accepted
//! throughput, link utilisation) and the saturation bracket. `--format csv`
//! writes the latency–throughput points of every configuration, each row
//! led by its configuration's columns.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Header, Report};
use crate::sim::openloop::{
    FlowControl, Injection, LinkMode, PacketLength, Pattern, Topology, UpLinks, WarmupMode,
    WarmupOutcome,
};

/// The report of `fabric simulate open-loop`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OpenLoopReport {
    /// Schema, its version, and the writer's version.
    #[serde(flatten)]
    pub header: Header,
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
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ConfigReport {
    /// The series' name on the chart.
    pub label: String,
    /// The topology.
    pub topology: Topology,
    /// Terminals.
    pub terminals: u32,
    /// Routers (terminals' routers included).
    pub routers: u32,
    /// Directed channels.
    pub channels: u32,
    /// Unit links or the layout's wires.
    pub links: LinkMode,
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
    /// Flits per packet (the mean when the lengths vary).
    pub packet_flits: u32,
    /// Fixed or varying packet lengths (fixed in reports written before
    /// the choice existed).
    #[serde(default)]
    pub packet_length: PacketLength,
    /// Router delay in cycles.
    pub router_delay: u32,
    /// Wormhole or virtual cut-through.
    pub flow_control: FlowControl,
    /// Bernoulli or periodic injection.
    pub injection: Injection,
    /// The destination pattern.
    pub traffic: Pattern,
    /// How a tree router picks among several output ports (random in
    /// reports written before the choice existed).
    #[serde(default)]
    pub up_links: UpLinks,
    /// The cycles of the run's phases.
    pub phases: PhaseCycles,
    /// Analytic zero-load latency in cycles, averaged over the pattern.
    pub zero_load_latency: f64,
    /// The channel-load bound, flits/terminal/cycle.
    pub channel_load_bound: f64,
    /// The saturation search's bracket, when run.
    pub saturation: Option<SaturationReport>,
    /// One row per offered rate.
    pub points: Vec<PointReport>,
}

/// Warm-up, measurement and the most drain cycles of a run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PhaseCycles {
    /// Cycles before measured packets are created (the most, when the
    /// warm-up converges).
    pub warmup: u64,
    /// How the warm-up ends (fixed in reports written before the choice
    /// existed).
    #[serde(default)]
    pub warmup_mode: WarmupMode,
    /// Cycles per window of a converging warm-up.
    #[serde(default)]
    pub warmup_window: u64,
    /// Relative change of the windowed mean latency under which a
    /// converging warm-up ends.
    #[serde(default)]
    pub warmup_tolerance: f64,
    /// Cycles whose packets are measured.
    pub measure: u64,
    /// The most cycles to wait for the measured packets after.
    pub drain: u64,
}

/// Where the search put saturation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
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
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PointReport {
    /// Offered rate asked for, flits/terminal/cycle.
    pub rate: f64,
    /// Offered as measured in the window.
    pub offered: f64,
    /// Accepted (delivered) in the window.
    pub accepted: f64,
    /// Whether every measured packet was delivered within the drain.
    pub drained: bool,
    /// The cycle the measurement started (absent in reports written
    /// before it was recorded).
    #[serde(default)]
    pub warmup_cycles: Option<u64>,
    /// Why the warm-up ended then.
    #[serde(default)]
    pub warmup: WarmupOutcome,
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

/// Read a report `fabric simulate open-loop` wrote, as YAML or JSON: its
/// header first (another kind of report, or a newer version, is refused
/// by name), then the whole report.
pub fn read_open_loop(text: &str) -> Result<OpenLoopReport, String> {
    let value: serde_norway::Value = serde_norway::from_str(text).map_err(|e| e.to_string())?;
    let schema = value.get("schema").and_then(serde_norway::Value::as_str);
    if schema != Some(OpenLoopReport::SCHEMA) {
        return Err(format!(
            "not a `{}` report (its schema: {})",
            OpenLoopReport::SCHEMA,
            schema.unwrap_or("none")
        ));
    }
    let version = value
        .get("schema_version")
        .and_then(serde_norway::Value::as_u64);
    if version != Some(u64::from(OpenLoopReport::VERSION)) {
        return Err(format!(
            "schema version {} (this fabric reads {})",
            version.map_or_else(|| "none".to_string(), |v| v.to_string()),
            OpenLoopReport::VERSION
        ));
    }
    serde_norway::from_value(value).map_err(|e| e.to_string())
}

/// A latency–throughput point as one CSV row, led by its configuration's
/// columns, the nested figures flattened.
#[derive(Clone, Debug, Serialize)]
struct PointRow<'a> {
    label: &'a str,
    topology: Topology,
    links: LinkMode,
    vcs: u32,
    flow_control: FlowControl,
    injection: Injection,
    traffic: Pattern,
    up_links: UpLinks,
    packet_length: PacketLength,
    terminals: u32,
    zero_load_latency: f64,
    channel_load_bound: f64,
    rate: f64,
    offered: f64,
    accepted: f64,
    drained: bool,
    warmup_cycles: Option<u64>,
    warmup: WarmupOutcome,
    saturated: bool,
    measured: u64,
    delivered: u64,
    network_latency_avg: f64,
    network_latency_median: u64,
    network_latency_p99: u64,
    network_latency_max: u64,
    zero_load_of_packets: f64,
    total_latency_avg: f64,
    total_latency_median: u64,
    total_latency_p99: u64,
    total_latency_max: u64,
    hops: f64,
    link_utilisation_mean: f64,
    link_utilisation_max: f64,
    cycles: u64,
    flit_hops: u64,
}

impl<'a> PointRow<'a> {
    fn of(c: &'a ConfigReport, p: &PointReport) -> PointRow<'a> {
        PointRow {
            label: &c.label,
            topology: c.topology,
            links: c.links,
            vcs: c.vcs,
            flow_control: c.flow_control,
            injection: c.injection,
            traffic: c.traffic,
            up_links: c.up_links,
            packet_length: c.packet_length,
            terminals: c.terminals,
            zero_load_latency: c.zero_load_latency,
            channel_load_bound: c.channel_load_bound,
            rate: p.rate,
            offered: p.offered,
            accepted: p.accepted,
            drained: p.drained,
            warmup_cycles: p.warmup_cycles,
            warmup: p.warmup,
            saturated: p.saturated,
            measured: p.measured,
            delivered: p.delivered,
            network_latency_avg: p.network_latency.avg,
            network_latency_median: p.network_latency.median,
            network_latency_p99: p.network_latency.p99,
            network_latency_max: p.network_latency.max,
            zero_load_of_packets: p.zero_load_of_packets,
            total_latency_avg: p.total_latency.avg,
            total_latency_median: p.total_latency.median,
            total_latency_p99: p.total_latency.p99,
            total_latency_max: p.total_latency.max,
            hops: p.hops,
            link_utilisation_mean: p.link_utilisation.mean,
            link_utilisation_max: p.link_utilisation.max,
            cycles: p.cycles,
            flit_hops: p.flit_hops,
        }
    }
}

impl Report for OpenLoopReport {
    const SCHEMA: &'static str = "fabric.simulate.open_loop";
    const VERSION: u32 = 2;
    const TABLE: Option<&'static str> = Some("points");

    fn csv(&self) -> Option<Result<String, csv::Error>> {
        let rows: Vec<PointRow> = self
            .configs
            .iter()
            .flat_map(|c| c.points.iter().map(move |p| PointRow::of(c, p)))
            .collect();
        Some(super::csv_rows(&rows))
    }
}
