//! `fabric.route`: a routed channel (docs/formats.md section 3) with MulCh's
//! selection and, with `--exact`, the integer programs' results.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Header, Report};
use crate::channel::routers::mulch::exact::ExactReport;
use crate::channel::routers::mulch::{Answer, MulchResult, RoutedPartition};
use crate::channel::solution::{ChannelSolution, Metrics};

/// The schema name of routing reports.
pub const ROUTE_SCHEMA: &str = "fabric.route";
/// The schema version of routing reports this `fabric` writes (and the
/// newest `fabric verify` reads).
pub const ROUTE_SCHEMA_VERSION: u32 = 3;

/// A routed channel, as `fabric route` writes it.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct RouteReport {
    /// Schema, its version, and the writer's version.
    #[serde(flatten)]
    pub header: Header,
    /// The channel's name.
    pub name: String,
    /// Number of layers.
    pub layers: u32,
    /// Tracks between the pin rows.
    pub width: u32,
    /// Columns of the channel.
    pub columns: u32,
    /// Layer groups (empty when the router declares none).
    pub groups: Vec<GroupRecord>,
    /// Wire segments.
    pub wires: Vec<WireRecord>,
    /// Vias.
    pub vias: Vec<ViaRecord>,
    /// The routing's figures.
    pub metrics: MetricsRecord,
    /// The figures a reader needs to compare the routing with routers of
    /// the reserved-layer literature.
    pub conventions: ConventionsRecord,
    /// MulCh's selection (`null` for the other routers).
    pub mulch: Option<MulchSection>,
}

impl Report for RouteReport {
    const SCHEMA: &'static str = ROUTE_SCHEMA;
    const VERSION: u32 = ROUTE_SCHEMA_VERSION;
}

/// A layer group of the routing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GroupRecord {
    /// The group's type (`HV`, `HVH`, `B`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    /// Its layers, 1-based.
    pub layers: Vec<u32>,
}

/// A straight wire segment on one layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WireRecord {
    /// The net's label.
    pub net: u32,
    /// The layer, 1-based.
    pub layer: u32,
    /// One end, `[x, y]`.
    pub from: [i64; 2],
    /// The other end, `[x, y]`.
    pub to: [i64; 2],
}

/// A via between two layers at one point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ViaRecord {
    /// The net's label.
    pub net: u32,
    /// The point, `[x, y]`.
    pub at: [i64; 2],
    /// The lower layer.
    pub from: u32,
    /// The upper layer.
    pub to: u32,
}

/// The figures of a routing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MetricsRecord {
    /// Tracks used.
    pub width: u32,
    /// Total wire length.
    pub net_length: u64,
    /// Number of vias.
    pub vias: u64,
    /// The channel's density.
    pub density: u32,
}

impl From<&Metrics> for MetricsRecord {
    fn from(m: &Metrics) -> Self {
        MetricsRecord {
            width: m.width,
            net_length: m.net_length,
            vias: m.vias,
            density: m.density,
        }
    }
}

impl From<MetricsRecord> for Metrics {
    fn from(m: MetricsRecord) -> Self {
        Metrics {
            width: m.width,
            net_length: m.net_length,
            vias: m.vias,
            density: m.density,
        }
    }
}

/// How the routing stands in the conventions of reserved-layer routing
/// (docs/models.md): wires against their layer's direction and vias
/// counted with pins on the vertical layer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ConventionsRecord {
    /// Vias in the classic convention: the via records' contacts plus one
    /// for each pin entered on a horizontal layer that no via stack at the
    /// pin reaches (`metrics.vias` counts pins as connecting on every
    /// layer).
    pub classic_vias: u64,
    /// Unit edges against their layer's direction, over all layers; 0 is
    /// what `fabric verify --reserved` accepts.
    pub against_direction: u64,
    /// The same per layer a group gives a direction (B layers have none
    /// and are not listed).
    pub against_direction_per_layer: Vec<AgainstRecord>,
}

/// Unit edges against one layer's direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct AgainstRecord {
    /// The layer, 1-based.
    pub layer: u32,
    /// Its unit edges against its direction.
    pub unit_edges: u64,
}

impl ConventionsRecord {
    /// The figures of `solution`.
    pub fn new(solution: &ChannelSolution) -> ConventionsRecord {
        let against = solution.against_direction();
        ConventionsRecord {
            classic_vias: solution.classic_via_count(),
            against_direction: against.total(),
            against_direction_per_layer: against
                .per_layer
                .iter()
                .map(|&(layer, unit_edges)| AgainstRecord { layer, unit_edges })
                .collect(),
        }
    }
}

/// MulCh's selection loop and the partitions it routed.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct MulchSection {
    /// Every configuration the selection loop tried, in order.
    pub attempts: Vec<AttemptRecord>,
    /// MulCh's own partition, routed.
    pub chosen: PartitionRecord,
    /// Chameleon's partition (no B layers), routed for comparison; `null`
    /// when the chosen partition has no B layers itself.
    pub without_b_layers: Option<PartitionRecord>,
    /// Partitions with more B layers (`--extra-b-layers`), routed.
    pub extra: Vec<PartitionRecord>,
    /// Which routed partition is the answer written above.
    pub answer: AnswerRecord,
    /// The integer programs (`--exact`); `null` without it.
    pub exact: Option<ExactSection>,
}

/// One configuration tried by the selection loop.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct AttemptRecord {
    /// Number of B layers.
    pub b: u32,
    /// The configuration's groups, as `HVH+B`.
    pub groups: String,
    /// Its horizontal layers.
    pub horizontal_layers: u32,
    /// The width estimate; `null` when the nets could not all be assigned.
    pub estimate: Option<u32>,
}

/// A routed partition: its groups and totals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PartitionRecord {
    /// Number of B layers.
    pub b: u32,
    /// The configuration's groups, as `HVH+B`.
    pub groups_used: String,
    /// The partition's width estimate.
    pub estimate: u32,
    /// The configuration's width lower bound at the channel's density.
    pub lower_bound: u32,
    /// The routing's width.
    pub width: u32,
    /// Its net length.
    pub net_length: u64,
    /// Its vias.
    pub vias: u64,
    /// Per group, in layer order.
    pub groups: Vec<GroupFigures>,
}

/// The figures of one routed group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct GroupFigures {
    /// The group's type.
    #[serde(rename = "type")]
    pub kind: String,
    /// Its layers, 1-based.
    pub layers: Vec<u32>,
    /// Nets assigned to it.
    pub nets: usize,
    /// Their density.
    pub density: u32,
    /// The longest path of their vertical constraint graph.
    pub longest_path: u32,
    /// The group's width estimate.
    pub estimate: u32,
    /// Its routed width.
    pub width: u32,
    /// Its net length.
    pub net_length: u64,
    /// Its vias.
    pub vias: u64,
}

/// Which routed partition gave the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AnswerRecord {
    /// `chosen`.
    Chosen,
    /// `without_b_layers`.
    WithoutBLayers,
    /// `extra[index]` (0-based).
    Extra {
        /// The index into `extra`.
        index: usize,
    },
    /// `exact.routed`.
    Exact,
}

/// The integer programs of `--exact`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ExactSection {
    /// The shared time limit, in seconds.
    pub time_limit_seconds: f64,
    /// The smallest proven optimum over all configurations, when every one
    /// was proven or infeasible.
    pub bound: Option<u32>,
    /// A partition's true estimate attains the bound.
    pub attained: bool,
    /// One result per configuration, by increasing `b`.
    pub configurations: Vec<ExactRecord>,
    /// The solver's best partition, routed (`null` when none was).
    pub routed: Option<ExactRouted>,
}

/// One configuration's integer program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ExactRecord {
    /// Number of B layers.
    pub b: u32,
    /// The configuration's groups.
    pub groups: String,
    /// The optimum (or best value found), `null` when none.
    pub width: Option<u32>,
    /// `width` is proven optimal.
    pub proven: bool,
    /// The true estimate of the solver's partition.
    pub estimate: Option<u32>,
    /// The heuristic's estimate for the configuration.
    pub heuristic_estimate: Option<u32>,
    /// Why no value was found, `null` when one was.
    pub note: Option<String>,
}

/// The solver's partition, routed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ExactRouted {
    /// The configuration's groups.
    pub groups: String,
    /// The routing's width.
    pub width: u32,
    /// Its net length.
    pub net_length: u64,
    /// Its vias.
    pub vias: u64,
}

impl RouteReport {
    /// The report of a routing, with MulCh's section when `mulch` is given
    /// (its exact part when `exact_time_limit` is too).
    pub fn new(
        solution: &ChannelSolution,
        metrics: &Metrics,
        mulch: Option<&MulchResult>,
        exact_time_limit: Option<f64>,
    ) -> RouteReport {
        RouteReport {
            header: Self::header(),
            name: solution.name.clone(),
            layers: solution.layers,
            width: solution.width,
            columns: solution.columns,
            groups: solution
                .groups
                .iter()
                .map(|g| GroupRecord {
                    kind: g.kind.name().to_string(),
                    layers: g.layers.clone(),
                })
                .collect(),
            wires: solution
                .wires
                .iter()
                .map(|w| WireRecord {
                    net: w.net,
                    layer: w.layer,
                    from: [w.from.x, w.from.y],
                    to: [w.to.x, w.to.y],
                })
                .collect(),
            vias: solution
                .vias
                .iter()
                .map(|v| ViaRecord {
                    net: v.net,
                    at: [v.at.x, v.at.y],
                    from: v.from,
                    to: v.to,
                })
                .collect(),
            metrics: metrics.into(),
            conventions: ConventionsRecord::new(solution),
            mulch: mulch.map(|m| MulchSection::new(m, exact_time_limit)),
        }
    }
}

impl PartitionRecord {
    fn new(r: &RoutedPartition) -> PartitionRecord {
        let p = &r.partition;
        PartitionRecord {
            b: p.b(),
            groups_used: p.config.describe(),
            estimate: p.estimate,
            lower_bound: p.config.width_lower_bound(r.metrics.density),
            width: r.metrics.width,
            net_length: r.metrics.net_length,
            vias: r.metrics.vias,
            groups: r
                .groups
                .iter()
                .map(|g| GroupFigures {
                    kind: g.kind.name().to_string(),
                    layers: g.layers.clone(),
                    nets: g.nets,
                    density: g.density,
                    longest_path: g.longest_path,
                    estimate: g.estimate,
                    width: g.width,
                    net_length: g.net_length,
                    vias: g.vias,
                })
                .collect(),
        }
    }
}

impl MulchSection {
    /// MulCh's section of a run; the exact part when the run has one and
    /// its time limit is given.
    pub fn new(result: &MulchResult, exact_time_limit: Option<f64>) -> MulchSection {
        MulchSection {
            attempts: result
                .attempts
                .iter()
                .map(|a| AttemptRecord {
                    b: a.b,
                    groups: a.config.describe(),
                    horizontal_layers: a.config.horizontal_layers(),
                    estimate: a.estimate,
                })
                .collect(),
            chosen: PartitionRecord::new(&result.chosen),
            without_b_layers: (result.chosen.partition.b() != 0)
                .then(|| result.chameleon.as_ref().map(PartitionRecord::new))
                .flatten(),
            extra: result.extra.iter().map(PartitionRecord::new).collect(),
            answer: match result.answer {
                Answer::Chosen => AnswerRecord::Chosen,
                Answer::Chameleon => AnswerRecord::WithoutBLayers,
                Answer::Extra(index) => AnswerRecord::Extra { index },
                Answer::Exact => AnswerRecord::Exact,
            },
            exact: result
                .exact
                .as_ref()
                .zip(exact_time_limit)
                .map(|((report, routed), seconds)| exact_section(report, routed.as_ref(), seconds)),
        }
    }
}

fn exact_section(
    report: &ExactReport,
    routed: Option<&RoutedPartition>,
    seconds: f64,
) -> ExactSection {
    ExactSection {
        time_limit_seconds: seconds,
        bound: report.bound,
        attained: report.attained,
        configurations: report
            .configurations
            .iter()
            .map(|e| ExactRecord {
                b: e.b,
                groups: e.config.describe(),
                width: e.width,
                proven: e.proven,
                estimate: e.estimate,
                heuristic_estimate: e.heuristic_estimate,
                note: e.note.clone(),
            })
            .collect(),
        routed: routed.map(|r| ExactRouted {
            groups: r.partition.config.describe(),
            width: r.metrics.width,
            net_length: r.metrics.net_length,
            vias: r.metrics.vias,
        }),
    }
}
