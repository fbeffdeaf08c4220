//! `fabric.sweep`: the size table of `fabric layout KIND --sweep`, the one
//! report with a table (`--format csv` writes its `sizes`).

use schemars::JsonSchema;
use serde::Serialize;

use super::{Header, Report};
use crate::layout::sweep::SweepRow;

/// The report of `fabric layout KIND --sweep`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct SweepReport {
    /// Schema, its version, and the writer's version.
    #[serde(flatten)]
    pub header: Header,
    /// The network family laid out.
    pub network: String,
    /// The mesh's or torus's dimensions; `null` for the other families.
    pub dims: Option<u32>,
    /// Least-squares slopes on log-log axes, to 4 decimals.
    pub fitted_exponent: FittedExponents,
    /// One record per size, by increasing `n`.
    pub sizes: Vec<SizeRecord>,
}

/// The fitted exponents of area and longest wire against `n`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
pub struct FittedExponents {
    /// Of the area; `null` with fewer than two sizes.
    pub area: Option<f64>,
    /// Of the longest wire.
    pub max_wire_length: Option<f64>,
}

/// One size of a sweep, verified legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SizeRecord {
    /// The size (processors, root mesh side, rows or side).
    pub n: u64,
    /// The layout's side (its width).
    pub side: u64,
    /// The side the construction's recurrence predicts.
    pub recurrence_side: u64,
    /// The layout's area (volume in 3-D).
    pub area: u64,
    /// Total wire length.
    pub total_wire_length: u64,
    /// The longest wire.
    pub max_wire_length: u64,
    /// The longest wire the construction's formula predicts; `null` when
    /// it has none.
    pub formula_max_wire_length: Option<u64>,
    /// Nodes.
    pub nodes: usize,
    /// Edges.
    pub edges: usize,
    /// Wire crossings.
    pub crossings: u64,
}

impl Report for SweepReport {
    const SCHEMA: &'static str = "fabric.sweep";
    const VERSION: u32 = 2;
    const TABLE: Option<&'static str> = Some("sizes");

    fn csv(&self) -> Option<Result<String, csv::Error>> {
        Some(super::csv_rows(&self.sizes))
    }
}

impl SweepReport {
    /// The report of a sweep of `network` (with a mesh's or torus's
    /// `dims`) and its fitted exponents.
    pub fn new(
        network: &str,
        dims: Option<crate::layout::Dims>,
        rows: &[SweepRow],
        area_exponent: Option<f64>,
        wire_exponent: Option<f64>,
    ) -> SweepReport {
        let four = |e: Option<f64>| e.map(|e| (e * 1e4).round() / 1e4);
        SweepReport {
            header: Self::header(),
            network: network.to_string(),
            dims: dims.map(|d| d.count()),
            fitted_exponent: FittedExponents {
                area: four(area_exponent),
                max_wire_length: four(wire_exponent),
            },
            sizes: rows
                .iter()
                .map(|r| SizeRecord {
                    n: r.n,
                    side: r.side,
                    recurrence_side: r.recurrence_side,
                    area: r.area,
                    total_wire_length: r.total_wire_length,
                    max_wire_length: r.max_wire_length,
                    formula_max_wire_length: r.formula_max_wire,
                    nodes: r.nodes,
                    edges: r.edges,
                    crossings: r.crossings,
                })
                .collect(),
        }
    }
}
