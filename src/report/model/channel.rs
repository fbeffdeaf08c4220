//! `fabric.analysis`, `fabric.separation` and `fabric.switchbox`: the
//! reports of the channel measurements.

use schemars::JsonSchema;
use serde::Serialize;

use super::{Header, Report};
use crate::channel::analysis::ChannelAnalysis;
use crate::channel::problem::{ChannelProblem, NetId};
use crate::channel::separation::CriticalCut;
use crate::channel::switchbox::{Switchbox, SwitchboxCheck, Unroutable};

/// The report of `fabric analyze`. Columns are 0-based; nets are named by
/// their labels.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct AnalysisReport {
    /// Schema, its version, and the writer's version.
    #[serde(flatten)]
    pub header: Header,
    /// The channel's name.
    pub name: String,
    /// Columns.
    pub columns: u32,
    /// Columns without a pin.
    pub empty_columns: u32,
    /// Nets.
    pub nets: usize,
    /// Pins on the top and bottom rows.
    pub pins: usize,
    /// Side terminals.
    pub side_terminals: SideTerminals,
    /// Nets all of whose pins are in one column.
    pub single_column_nets: usize,
    /// The channel's density.
    pub density: u32,
    /// The columns where the density is reached.
    pub max_density_columns: Vec<u32>,
    /// The density at every column.
    pub density_profile: Vec<u32>,
    /// The vertical constraint graph.
    pub vcg: Vcg,
    /// Crossing nets (single-layer routability).
    pub crossings: Crossings,
    /// Width lower bounds.
    pub lower_bounds: LowerBounds,
}

/// Side terminals on each end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SideTerminals {
    /// On the left end.
    pub left: usize,
    /// On the right end.
    pub right: usize,
}

/// The vertical constraint graph's figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Vcg {
    /// Edges.
    pub edges: usize,
    /// No cycle.
    pub acyclic: bool,
    /// Nodes on its longest path; `null` when it has a cycle.
    pub longest_path: Option<u32>,
    /// Its cyclic strongly connected components, as net labels.
    pub cyclic_components: Vec<Vec<u32>>,
    /// One cycle, as net labels; `null` when acyclic.
    pub cycle: Option<Vec<u32>>,
}

/// Pairs of nets that cannot both be routed in one layer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Crossings {
    /// No two nets cross.
    pub planar: bool,
    /// The number of crossing pairs.
    pub pairs: usize,
    /// The crossing pairs, as net labels.
    pub crossing_pairs: Vec<[u32; 2]>,
}

/// Width lower bounds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct LowerBounds {
    /// The two-layer bound without doglegs; `null` when the VCG has a cycle.
    pub two_layer_no_doglegs: Option<u32>,
    /// The channel is planar.
    pub single_layer_routable: bool,
    /// Per layer count.
    pub by_layers: Vec<LayerBoundRecord>,
}

/// The bounds for one layer count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct LayerBoundRecord {
    /// The layer count.
    pub layers: u32,
    /// The smallest bound over its configurations.
    pub width_lower_bound: u32,
    /// Per configuration.
    pub configurations: Vec<ConfigurationBound>,
}

/// The bound of one configuration of layer groups.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ConfigurationBound {
    /// The groups, as `HVH+B`.
    pub groups: String,
    /// Number of B layers.
    pub b: u32,
    /// Horizontal layers.
    pub horizontal_layers: u32,
    /// The bound.
    pub width_lower_bound: u32,
}

impl Report for AnalysisReport {
    const SCHEMA: &'static str = "fabric.analysis";
    const VERSION: u32 = 2;
}

impl AnalysisReport {
    /// The report of an analysis of `p`.
    pub fn new(p: &ChannelProblem, a: &ChannelAnalysis) -> AnalysisReport {
        let labels = |ids: &[NetId]| ids.iter().map(|&id| p.label(id)).collect::<Vec<_>>();
        AnalysisReport {
            header: Self::header(),
            name: p.name().to_string(),
            columns: a.columns,
            empty_columns: a.empty_columns,
            nets: a.nets,
            pins: a.pins,
            side_terminals: SideTerminals {
                left: a.left_terminals,
                right: a.right_terminals,
            },
            single_column_nets: a.single_column_nets,
            density: a.density,
            max_density_columns: a.max_density_columns.clone(),
            density_profile: a.density_profile.clone(),
            vcg: Vcg {
                edges: a.vcg_edges,
                acyclic: a.is_acyclic(),
                longest_path: a.longest_path,
                cyclic_components: a.cyclic_components.iter().map(|c| labels(c)).collect(),
                cycle: a.example_cycle.as_deref().map(labels),
            },
            crossings: Crossings {
                planar: a.is_planar(),
                pairs: a.crossing_pairs.len(),
                crossing_pairs: a
                    .crossing_pairs
                    .iter()
                    .map(|&(x, y)| [p.label(x), p.label(y)])
                    .collect(),
            },
            lower_bounds: LowerBounds {
                two_layer_no_doglegs: a.no_dogleg_bound,
                single_layer_routable: a.is_planar(),
                by_layers: a
                    .layer_bounds
                    .iter()
                    .map(|lb| LayerBoundRecord {
                        layers: lb.layers,
                        width_lower_bound: lb.width_lower_bound,
                        configurations: lb
                            .configurations
                            .iter()
                            .map(|(c, bound)| ConfigurationBound {
                                groups: c.describe(),
                                b: c.b,
                                horizontal_layers: c.horizontal_layers(),
                                width_lower_bound: *bound,
                            })
                            .collect(),
                    })
                    .collect(),
            },
        }
    }
}

/// The report of `fabric separation`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SeparationReport {
    /// Schema, its version, and the writer's version.
    #[serde(flatten)]
    pub header: Header,
    /// The channel's name.
    pub name: String,
    /// Chapter 7: the least distance between the terminal rows.
    pub separation: i64,
    /// Chapter 6: tracks strictly between the pin rows.
    pub width: u32,
    /// The cut that decides the separation.
    pub critical_cut: CutRecord,
}

/// The deciding cut of a separation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CutRecord {
    /// Column of its bottom end.
    pub bottom: i64,
    /// Column of its top end.
    pub top: i64,
    /// Nets that must cross it.
    pub flow: u32,
    /// `|top - bottom|`.
    pub dx: i64,
}

impl Report for SeparationReport {
    const SCHEMA: &'static str = "fabric.separation";
    const VERSION: u32 = 2;
}

impl SeparationReport {
    /// The report of a separation and its deciding cut.
    pub fn new(name: &str, separation: i64, width: u32, cut: &CriticalCut) -> SeparationReport {
        SeparationReport {
            header: Self::header(),
            name: name.to_string(),
            separation,
            width,
            critical_cut: CutRecord {
                bottom: cut.bottom_x,
                top: cut.top_x,
                flow: cut.flow,
                dx: (cut.top_x - cut.bottom_x).abs(),
            },
        }
    }
}

/// The report of `fabric switchbox`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SwitchboxReport {
    /// Schema, its version, and the writer's version.
    #[serde(flatten)]
    pub header: Header,
    /// The switchbox's name.
    pub name: String,
    /// Its width.
    pub width: i64,
    /// Its height.
    pub height: i64,
    /// Routable in one layer.
    pub routable: bool,
    /// The least height the top and bottom terminals allow (`null` when
    /// they do not decide it).
    pub top_bottom_separation: Option<i64>,
    /// The least width the left and right terminals allow.
    pub left_right_separation: Option<i64>,
    /// Why it is not routable; `null` when it is.
    pub obstacle: Option<Obstacle>,
}

/// Why a switchbox cannot be routed in one layer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Obstacle {
    /// Two nets cross.
    Crossing {
        /// Their labels.
        nets: [u32; 2],
    },
    /// A cut must carry more wires than it has room for.
    UnsafeCut {
        /// One end, `[x, y]`.
        from: [i64; 2],
        /// The other end, `[x, y]`.
        to: [i64; 2],
        /// Wires that must cross it.
        flow: u32,
        /// Wires it has room for.
        capacity: i64,
    },
}

impl Report for SwitchboxReport {
    const SCHEMA: &'static str = "fabric.switchbox";
    const VERSION: u32 = 2;
}

impl SwitchboxReport {
    /// The report of a switchbox check.
    pub fn new(sb: &Switchbox, check: &SwitchboxCheck) -> SwitchboxReport {
        SwitchboxReport {
            header: Self::header(),
            name: sb.name.clone(),
            width: sb.width,
            height: sb.height,
            routable: check.result.is_ok(),
            top_bottom_separation: check.top_bottom_separation,
            left_right_separation: check.left_right_separation,
            obstacle: match &check.result {
                Ok(()) => None,
                Err(Unroutable::Crossing(a, b)) => Some(Obstacle::Crossing { nets: [*a, *b] }),
                Err(Unroutable::Cut(c)) => Some(Obstacle::UnsafeCut {
                    from: [c.from.0, c.from.1],
                    to: [c.to.0, c.to.1],
                    flow: c.flow,
                    capacity: c.capacity,
                }),
            },
        }
    }
}
