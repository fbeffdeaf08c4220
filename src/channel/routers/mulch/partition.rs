//! The MulCh partitioner's model (thesis section 6.3): the group types, the options of net assignment, a partition
//! of the nets into groups with its figures, and the [`Context`] computed
//! once per channel (the vertical constraint graph and its components, the
//! crossings from one pass of the boundary-marching algorithm, the
//! assignment order). Net assignment is [`super::assign`], the choice of
//! group types [`super::selection`].

use crate::channel::analysis::{crossing_pairs, density, vertical_constraint_graph};
use crate::channel::layer_model::{Configuration, LayerModel};
use crate::channel::problem::{ChannelProblem, NetId};
use crate::channel::separation::single_layer_width;
use crate::channel::solution::GroupType;

/// The three group types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GroupKind {
    /// Two horizontal layers sharing one vertical layer.
    Hvh,
    /// One horizontal and one vertical layer.
    Hv,
    /// One layer, wires in both directions, planar nets only.
    B,
}

impl GroupKind {
    /// The type's name as reports print it: `HVH`, `HV` or `B`.
    pub fn name(self) -> &'static str {
        match self {
            GroupKind::Hvh => "HVH",
            GroupKind::Hv => "HV",
            GroupKind::B => "B",
        }
    }

    /// The type a routed channel's layer group of this kind has.
    pub fn group_type(self) -> GroupType {
        match self {
            GroupKind::Hvh => GroupType::Model(LayerModel::Hvh),
            GroupKind::Hv => GroupType::Model(LayerModel::Hv),
            GroupKind::B => GroupType::B,
        }
    }

    /// Layers the group takes.
    pub fn layers(self) -> u32 {
        match self {
            GroupKind::Hvh => 3,
            GroupKind::Hv => 2,
            GroupKind::B => 1,
        }
    }

    /// Layers of the group that carry horizontal wires.
    pub fn h_layers(self) -> u32 {
        match self {
            GroupKind::Hvh => 2,
            GroupKind::Hv | GroupKind::B => 1,
        }
    }
}

/// The groups of a configuration, in layer order: HVH groups, then HV
/// groups, then B groups.
pub fn group_kinds(c: &Configuration) -> Vec<GroupKind> {
    let mut kinds = Vec::new();
    kinds.extend(std::iter::repeat_n(GroupKind::Hvh, c.hvh as usize));
    kinds.extend(std::iter::repeat_n(GroupKind::Hv, c.hv as usize));
    kinds.extend(std::iter::repeat_n(GroupKind::B, c.b as usize));
    kinds
}

/// Which cost function compares the groups (thesis section 6.3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum CostFunction {
    /// HV/HVH: `max(ceil(d_g / H_g), LP_g)`; B: `d_g + X(n)`.
    #[default]
    Basic,
    /// The thesis's variant: a penalty of 1000 per track of normalised
    /// density above the configuration's lower bound, LP among HV/HVH groups
    /// first, then density added to compare with the B groups.
    Variant,
}

/// What "the excess number of nets crossed" counts (the thesis text is lost
/// at a page break; docs/routing.md gives the reading chosen).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Excess {
    /// Nets crossing `n` that are not assigned yet.
    #[default]
    Unassigned,
    /// Every net crossing `n`.
    All,
}

/// Options of net assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct AssignOptions {
    /// How the groups are compared for each net.
    pub cost: CostFunction,
    /// Which crossing nets the B-group cost `X(n)` counts.
    pub excess: Excess,
}

/// Figures of one group of a partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupStats {
    /// The group type.
    pub kind: GroupKind,
    /// Nets assigned to the group.
    pub nets: Vec<NetId>,
    /// Density of the group's nets: for HV/HVH the nets that need a track,
    /// for B every net (single-column nets block the layer too).
    pub density: u32,
    /// Longest path (in nets) of the group's vertical constraint graph;
    /// `nets + 1` when it is cyclic; 0 for B groups.
    pub longest_path: u32,
    /// The group's vertical constraint graph has a cycle (never for B groups).
    pub cyclic: bool,
    /// The area estimate: HV `d_g`, HVH `ceil(d_g / 2)`, B the plane width
    /// (chapter 7 separation + 1).
    pub estimate: u32,
}

/// A partition of the nets into the groups of one configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    /// The configuration whose groups the nets are split into.
    pub config: Configuration,
    /// Every group, in layer order (as [`group_kinds`]).
    pub groups: Vec<GroupStats>,
    /// Group index of every net (by net id).
    pub group_of: Vec<usize>,
    /// The area estimate: the largest group estimate.
    pub estimate: u32,
}

impl Partition {
    /// Number of single-layer B groups.
    pub fn b(&self) -> u32 {
        self.config.b
    }
}

/// What is computed once per channel for any number of partitions.
pub struct Context<'a> {
    pub(super) problem: &'a ChannelProblem,
    /// Channel density (nets that need a track).
    pub(super) density: u32,
    pub(super) succ: Vec<Vec<u32>>,
    pub(super) pred: Vec<Vec<u32>>,
    /// Strongly connected component of each net; `cyclic[n]` when that
    /// component has two nets or more.
    pub(super) scc: Vec<u32>,
    pub(super) cyclic: Vec<bool>,
    pub(super) crossings: Vec<Vec<u32>>,
    /// The assignment order: cyclic nets first, then the others, each by
    /// first column then id.
    pub(super) order: Vec<NetId>,
    /// Span for HV/HVH densities, shifted by one so a left side exit is
    /// column 0; `None` for nets that need no track.
    pub(super) track_span: Vec<Option<(usize, usize)>>,
    /// Span for B densities (shifted as `track_span`), single-column nets
    /// included (side terminals go through the switchbox reduction, so every
    /// net may go to a B group).
    pub(super) plane_span: Vec<(usize, usize)>,
}

impl<'a> Context<'a> {
    /// Compute the constraint graph, its components, the crossings and the
    /// assignment order of `problem`.
    pub fn new(problem: &'a ChannelProblem) -> Context<'a> {
        let n = problem.nets().len();
        let c = problem.columns();
        let mut vcg = vertical_constraint_graph(problem);
        vcg.dedup();
        let mut pred = vec![Vec::new(); n];
        let succ: Vec<Vec<u32>> = (0..n as u32).map(|v| vcg.successors(v).to_vec()).collect();
        for (v, s) in succ.iter().enumerate() {
            for &w in s {
                pred[w as usize].push(v as u32);
            }
        }
        let mut scc = vec![0u32; n];
        let mut cyclic = vec![false; n];
        for (k, comp) in vcg.strongly_connected_components().iter().enumerate() {
            for &v in comp {
                scc[v as usize] = k as u32;
                cyclic[v as usize] = comp.len() > 1;
            }
        }
        let mut crossings = vec![Vec::new(); n];
        for (a, b) in crossing_pairs(problem) {
            crossings[a.index()].push(b.0);
            crossings[b.index()].push(a.0);
        }
        let track_span = problem
            .nets()
            .iter()
            .map(|net| {
                net.needs_track(c).then(|| {
                    let (a, b) = net.span(c);
                    ((a + 1) as usize, (b + 1) as usize)
                })
            })
            .collect();
        let plane_span = problem
            .nets()
            .iter()
            .map(|net| {
                let (a, b) = net.span(c);
                ((a + 1) as usize, (b + 1) as usize)
            })
            .collect();
        let mut order: Vec<NetId> = problem.net_ids().collect();
        order.sort_by_key(|&id| (!cyclic[id.index()], problem.net(id).span(c).0, id.0));
        Context {
            problem,
            density: density(problem),
            succ,
            pred,
            scc,
            cyclic,
            crossings,
            order,
            track_span,
            plane_span,
        }
    }

    /// The channel the context was built for.
    pub fn problem(&self) -> &ChannelProblem {
        self.problem
    }

    /// Channel density: the most nets needing a track that cross one column.
    pub fn density(&self) -> u32 {
        self.density
    }

    /// The order in which nets are assigned.
    pub fn order(&self) -> &[NetId] {
        &self.order
    }

    /// Span of net `n` counted by HV/HVH densities (columns shifted by one,
    /// so a left side exit is column 0); `None` if it needs no track.
    pub fn track_span(&self, n: usize) -> Option<(usize, usize)> {
        self.track_span[n]
    }

    /// Span of net `n` counted by B densities.
    pub fn plane_span(&self, n: usize) -> (usize, usize) {
        self.plane_span[n]
    }

    /// Nets crossing net `n` (by id).
    pub fn crossings(&self, n: usize) -> &[u32] {
        &self.crossings[n]
    }

    /// The partition with a given group for every net, its figures
    /// recomputed from scratch (densities by sweeping, longest paths by
    /// dynamic programming over each group's constraint graph).
    ///
    /// # Panics
    /// If a B group holds a net that no B group may take.
    pub fn partition_of(&self, config: Configuration, group_of: &[usize]) -> Partition {
        let kinds = group_kinds(&config);
        let groups: Vec<GroupStats> = kinds
            .iter()
            .enumerate()
            .map(|(g, &kind)| {
                let nets: Vec<NetId> = (0..group_of.len())
                    .filter(|&n| group_of[n] == g)
                    .map(|n| NetId(n as u32))
                    .collect();
                let spans: Vec<(usize, usize)> = nets
                    .iter()
                    .filter_map(|id| match kind {
                        GroupKind::B => Some(self.plane_span[id.index()]),
                        _ => self.track_span[id.index()],
                    })
                    .collect();
                let density = sweep_density(&spans);
                let (longest_path, cyclic) = if kind == GroupKind::B {
                    (0, false)
                } else {
                    self.longest_path_of(&nets)
                };
                let estimate = match kind {
                    GroupKind::Hv => density,
                    GroupKind::Hvh => density.div_ceil(2),
                    GroupKind::B => plane_estimate(self.problem, &nets),
                };
                GroupStats {
                    kind,
                    nets,
                    density,
                    longest_path,
                    cyclic,
                    estimate,
                }
            })
            .collect();
        let estimate = groups.iter().map(|g| g.estimate).max().unwrap_or(0);
        Partition {
            config,
            groups,
            group_of: group_of.to_vec(),
            estimate,
        }
    }

    /// The area estimate of an assignment to the groups `kinds`.
    pub fn estimate_of(&self, kinds: &[GroupKind], group_of: &[usize]) -> u32 {
        let config = Configuration {
            layers: kinds.iter().map(|k| k.layers()).sum(),
            b: kinds.iter().filter(|&&k| k == GroupKind::B).count() as u32,
            hvh: kinds.iter().filter(|&&k| k == GroupKind::Hvh).count() as u32,
            hv: kinds.iter().filter(|&&k| k == GroupKind::Hv).count() as u32,
        };
        self.partition_of(config, group_of).estimate
    }

    /// Longest path in nets of the constraint graph among `nets`, and whether
    /// it is cyclic (then the path is `|nets| + 1`).
    pub(super) fn longest_path_of(&self, nets: &[NetId]) -> (u32, bool) {
        let mut index = vec![usize::MAX; self.succ.len()];
        for (k, id) in nets.iter().enumerate() {
            index[id.index()] = k;
        }
        let mut g = crate::graph::Digraph::new(nets.len());
        for (k, id) in nets.iter().enumerate() {
            for &s in &self.succ[id.index()] {
                if index[s as usize] != usize::MAX {
                    g.add_edge(k as u32, index[s as usize] as u32);
                }
            }
        }
        match g.longest_path_nodes() {
            Some(lp) => (lp, false),
            None => (nets.len() as u32 + 1, true),
        }
    }
}

/// Largest number of inclusive spans over one column.
pub(super) fn sweep_density(spans: &[(usize, usize)]) -> u32 {
    let mut events: Vec<(usize, i32)> = Vec::with_capacity(2 * spans.len());
    for &(a, b) in spans {
        events.push((a, 1));
        events.push((b + 1, -1));
    }
    events.sort_unstable_by_key(|&(x, d)| (x, d));
    let (mut run, mut best) = (0i32, 0i32);
    for (_, d) in events {
        run += d;
        best = best.max(run);
    }
    best as u32
}

/// The true width of a B group: chapter 7 separation + 1 (0 for no nets or
/// only single-column nets).
pub(super) fn plane_estimate(problem: &ChannelProblem, nets: &[NetId]) -> u32 {
    if nets.is_empty() {
        return 0;
    }
    let sub = problem
        .restricted(nets)
        .expect("a subset of a valid channel's nets is valid");
    single_layer_width(&sub).expect("a B group's nets are planar")
}
