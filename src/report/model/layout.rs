//! `fabric.layout`: one layout of `fabric layout KIND --size N` (docs/formats.md
//! section 4c): the network and its parameters, the measured figures, the
//! wires per level, the recurrence's side and the geometry, inline or in
//! CSV files beside the report.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Header, Report};
use crate::layout::metrics::LayoutMetrics;
use crate::layout::{Embedding, P3};

/// The schema name of layout reports.
pub const LAYOUT_SCHEMA: &str = "fabric.layout";
/// The schema version of layout reports this `fabric` writes and reads
/// (version 1 is the header-less layout, still read).
pub const LAYOUT_SCHEMA_VERSION: u32 = 2;

/// The report of `fabric layout KIND --size N --output FILE`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LayoutReport {
    /// Schema, its version, and the writer's version.
    #[serde(flatten)]
    pub header: Header,
    /// What was laid out (`htree`, `fat-tree`, ..., or `custom`).
    pub network: String,
    /// The construction's parameters, each value as text.
    pub parameters: BTreeMap<String, String>,
    /// 2 or 3: the number of coordinates of every point.
    pub dimensions: u32,
    /// The figures measured on the geometry.
    pub metrics: MetricsRecord,
    /// Wires by the higher level of their two nodes, by increasing level.
    pub levels: Vec<LevelRecord>,
    /// The side the construction's recurrence predicts; `null` when it has
    /// none.
    pub recurrence: Option<RecurrenceRecord>,
    /// The nodes' boxes and the edges' paths.
    pub geometry: Geometry,
}

impl Report for LayoutReport {
    const SCHEMA: &'static str = LAYOUT_SCHEMA;
    const VERSION: u32 = LAYOUT_SCHEMA_VERSION;
}

/// The measured figures of a layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MetricsRecord {
    /// Grid points the bounding box spans along `x`.
    pub width: u64,
    /// Grid points the bounding box spans along `y`.
    pub height: u64,
    /// Grid points along `z`; `null` in 2-D.
    pub depth: Option<u64>,
    /// `width * height` (times `depth` in 3-D: the volume).
    pub area: u64,
    /// Unit grid edges of all wires.
    pub total_wire_length: u64,
    /// Unit grid edges of the longest wire.
    pub max_wire_length: u64,
    /// Nodes of the geometry.
    pub nodes: u64,
    /// Edges (wires) of the geometry.
    pub edges: u64,
}

/// The wires of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LevelRecord {
    /// The higher level of the wires' two nodes (processors are level 0).
    pub level: u32,
    /// Wires of the level.
    pub edges: u64,
    /// Their summed length.
    pub total_wire_length: u64,
    /// The longest one's length.
    pub max_wire_length: u64,
}

/// The side the recurrence `S(n) = 2 S(n/4) + t(n)` (or the construction's
/// own) predicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecurrenceRecord {
    /// The side by the recurrence.
    pub side: u64,
    /// The side by its closed form.
    pub closed_form: u64,
}

/// Where the geometry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum GeometryKind {
    /// In the report: `nodes` and `edges` lists.
    Inline,
    /// In two gzip-compressed CSV files beside the report, named by `files`.
    Csv,
    /// Left out: the report holds the figures only.
    None,
}

/// The geometry of a layout: its `kind`, and the keys of that kind set
/// (`files` for `csv`; `nodes` and `edges` for `inline`), the others `null`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Geometry {
    /// `inline`, `csv` or `none`.
    pub kind: GeometryKind,
    /// The CSV files, relative to the report's folder; `null` unless `csv`.
    pub files: Option<GeometryFiles>,
    /// The nodes; `null` unless `inline`.
    pub nodes: Option<Vec<NodeRecord>>,
    /// The edges; `null` unless `inline`.
    pub edges: Option<Vec<EdgeRecord>>,
}

/// The two CSV files of a `csv` geometry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GeometryFiles {
    /// One row per node: `id,kind,level,min_x,min_y[,min_z],max_x,max_y[,max_z]`.
    pub nodes: String,
    /// One row per edge: `id,from,to,path`, the path's points `x y[ z]`
    /// separated by `;`.
    pub edges: String,
}

/// A node and its box.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NodeRecord {
    /// Unique among the nodes; edges name nodes by it.
    pub id: u32,
    /// `processor`, `switch`, ... (free-form).
    pub kind: String,
    /// Level counted from the processors (level 0) upwards.
    pub level: u32,
    /// The box's corner with the smallest coordinates, `[x, y]` or
    /// `[x, y, z]`.
    pub min: Vec<i64>,
    /// The corner with the largest coordinates.
    pub max: Vec<i64>,
}

/// An edge and its wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EdgeRecord {
    /// Unique among the edges.
    pub id: u32,
    /// The node where the path starts.
    pub from: u32,
    /// The node where it ends.
    pub to: u32,
    /// Corner points, consecutive ones differing in one coordinate.
    pub path: Vec<Vec<i64>>,
}

/// The coordinates of `p` in `dimensions` dimensions.
pub fn coordinates(p: &P3, dimensions: u32) -> Vec<i64> {
    if dimensions == 3 {
        vec![p.x, p.y, p.z]
    } else {
        vec![p.x, p.y]
    }
}

impl Geometry {
    /// The embedding's nodes and edges in the report.
    pub fn inline(e: &Embedding) -> Geometry {
        let d = e.dimensions;
        Geometry {
            kind: GeometryKind::Inline,
            files: None,
            nodes: Some(
                e.nodes
                    .iter()
                    .map(|n| NodeRecord {
                        id: n.id,
                        kind: n.kind.clone(),
                        level: n.level,
                        min: coordinates(&n.min, d),
                        max: coordinates(&n.max, d),
                    })
                    .collect(),
            ),
            edges: Some(
                e.edges
                    .iter()
                    .map(|x| EdgeRecord {
                        id: x.id,
                        from: x.from,
                        to: x.to,
                        path: x.path.iter().map(|p| coordinates(p, d)).collect(),
                    })
                    .collect(),
            ),
        }
    }

    /// A geometry in the CSV files `nodes` and `edges`.
    pub fn csv(nodes: String, edges: String) -> Geometry {
        Geometry {
            kind: GeometryKind::Csv,
            files: Some(GeometryFiles { nodes, edges }),
            nodes: None,
            edges: None,
        }
    }

    /// No geometry.
    pub fn none() -> Geometry {
        Geometry {
            kind: GeometryKind::None,
            files: None,
            nodes: None,
            edges: None,
        }
    }
}

impl LayoutReport {
    /// The report of the layout `e` measured as `m`, with the side its
    /// recurrence predicts (`(side, closed form)`) and its geometry.
    pub fn new(
        e: &Embedding,
        m: &LayoutMetrics,
        recurrence: Option<(u64, u64)>,
        geometry: Geometry,
    ) -> LayoutReport {
        LayoutReport {
            header: Self::header(),
            network: e.network.as_str().to_string(),
            parameters: e.parameters.clone(),
            dimensions: e.dimensions,
            metrics: MetricsRecord {
                width: m.width,
                height: m.height,
                depth: (e.dimensions == 3).then_some(m.depth),
                area: m.area,
                total_wire_length: m.total_wire_length,
                max_wire_length: m.max_wire_length,
                nodes: e.nodes.len() as u64,
                edges: e.edges.len() as u64,
            },
            levels: m
                .per_level
                .iter()
                .map(|(&level, w)| LevelRecord {
                    level,
                    edges: w.edges,
                    total_wire_length: w.total,
                    max_wire_length: w.max,
                })
                .collect(),
            recurrence: recurrence
                .map(|(side, closed_form)| RecurrenceRecord { side, closed_form }),
            geometry,
        }
    }
}
