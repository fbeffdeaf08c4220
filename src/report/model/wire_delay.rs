//! `fabric.simulate.wire_delay`: the report of `fabric simulate
//! wire-delay`, one cell per network, size, wire delay and traffic;
//! `--format csv` writes the cells, one row each.

use schemars::JsonSchema;
use serde::Serialize;

use super::{Header, Report};
use crate::report::bay_bilardi::Spread;
use crate::sim::circuit::{DistanceRow, ExchangeKind, WireNetwork};

/// The report of `fabric simulate wire-delay`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct WireDelayReport {
    /// Schema, its version, and the writer's version.
    #[serde(flatten)]
    pub header: Header,
    /// Trials per cell.
    pub trials: u64,
    /// The seed the cells' seeds derive from.
    pub seed: u64,
    /// Bit-times through a switch.
    pub switch_delay: f64,
    /// How the engine times and routes, in a few lines.
    pub rules: Vec<String>,
    /// One entry per network, size, delay and traffic.
    pub cells: Vec<WireCell>,
}

/// One cell.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct WireCell {
    /// The network.
    pub network: WireNetwork,
    /// Its routing algorithm.
    pub algorithm: String,
    /// The layout file, or `built in memory`.
    pub layout: String,
    /// Processors, `A` of `lg A`.
    pub processors: u64,
    /// Area of the layout.
    pub area: u64,
    /// The wire delay function, as given.
    pub delay: String,
    /// The traffic.
    pub traffic: ExchangeKind,
    /// Radius of local traffic; `null` for global traffic.
    pub radius: Option<u64>,
    /// Bits per message, `2 lg n` plus the payload.
    pub message_bits: u64,
    /// The seed of the cell's trials.
    pub seed: u64,
    /// Messages per trial.
    pub messages: Spread,
    /// Rounds until all were delivered.
    pub rounds: Spread,
    /// Mean delivery time per trial (bit-times).
    pub mean_time: Spread,
    /// Largest delivery time per trial (bit-times).
    pub max_time: Spread,
    /// Sum of the rounds' longest attempts (bit-times).
    pub synchronous_time: Spread,
    /// `c`: largest delivery time over `d + lg A`, contention included.
    pub c: Spread,
    /// Largest time of a path alone over `d + lg A` (Theorem 18's
    /// measure).
    pub c_path: Spread,
    /// Delta delta measured on the routed paths (largest over the trials).
    pub delta_delta: f64,
    /// Delta delta from the layout's longest wires per level
    /// (fat-pyramid only; `null` for the other networks).
    pub delta_delta_analytic: Option<f64>,
    /// The thesis's expression `w(d + lg A) lg d / (w(d) lg A)`, largest
    /// over `d` (fat-pyramid only; `null` for the other networks).
    pub delta_delta_thesis: Option<f64>,
    /// Delivery times by mesh distance, over every trial.
    pub by_distance: Vec<DistanceRow>,
    /// Wall seconds of the cell (not in the report, which the seed fixes
    /// byte for byte).
    #[serde(skip)]
    pub seconds: f64,
}

/// A row of the CSV: one cell, each spread as its mean, min and max.
#[derive(Clone, Debug, Serialize)]
struct CellRow<'a> {
    network: WireNetwork,
    algorithm: &'a str,
    layout: &'a str,
    processors: u64,
    area: u64,
    delay: &'a str,
    traffic: ExchangeKind,
    radius: Option<u64>,
    message_bits: u64,
    seed: u64,
    messages_mean: f64,
    messages_min: f64,
    messages_max: f64,
    rounds_mean: f64,
    rounds_min: f64,
    rounds_max: f64,
    mean_time_mean: f64,
    mean_time_min: f64,
    mean_time_max: f64,
    max_time_mean: f64,
    max_time_min: f64,
    max_time_max: f64,
    synchronous_time_mean: f64,
    synchronous_time_min: f64,
    synchronous_time_max: f64,
    c_mean: f64,
    c_min: f64,
    c_max: f64,
    c_path_mean: f64,
    c_path_min: f64,
    c_path_max: f64,
    delta_delta: f64,
    delta_delta_analytic: Option<f64>,
    delta_delta_thesis: Option<f64>,
}

impl<'a> CellRow<'a> {
    fn of(c: &'a WireCell) -> CellRow<'a> {
        CellRow {
            network: c.network,
            algorithm: &c.algorithm,
            layout: &c.layout,
            processors: c.processors,
            area: c.area,
            delay: &c.delay,
            traffic: c.traffic,
            radius: c.radius,
            message_bits: c.message_bits,
            seed: c.seed,
            messages_mean: c.messages.mean,
            messages_min: c.messages.min,
            messages_max: c.messages.max,
            rounds_mean: c.rounds.mean,
            rounds_min: c.rounds.min,
            rounds_max: c.rounds.max,
            mean_time_mean: c.mean_time.mean,
            mean_time_min: c.mean_time.min,
            mean_time_max: c.mean_time.max,
            max_time_mean: c.max_time.mean,
            max_time_min: c.max_time.min,
            max_time_max: c.max_time.max,
            synchronous_time_mean: c.synchronous_time.mean,
            synchronous_time_min: c.synchronous_time.min,
            synchronous_time_max: c.synchronous_time.max,
            c_mean: c.c.mean,
            c_min: c.c.min,
            c_max: c.c.max,
            c_path_mean: c.c_path.mean,
            c_path_min: c.c_path.min,
            c_path_max: c.c_path.max,
            delta_delta: c.delta_delta,
            delta_delta_analytic: c.delta_delta_analytic,
            delta_delta_thesis: c.delta_delta_thesis,
        }
    }
}

impl Report for WireDelayReport {
    const SCHEMA: &'static str = "fabric.simulate.wire_delay";
    const VERSION: u32 = 2;
    const TABLE: Option<&'static str> = Some("cells");

    fn csv(&self) -> Option<Result<String, csv::Error>> {
        let rows: Vec<CellRow> = self.cells.iter().map(CellRow::of).collect();
        Some(super::csv_rows(&rows))
    }
}
