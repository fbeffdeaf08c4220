//! The MulCh partitioner (thesis section 6.3; spec note 003 part 2,
//! section 2): which group types to use, and which nets go to which group.
//!
//! Net assignment puts each net, in a fixed order, into every group of the
//! configuration, costs every group, and keeps the net only in the best one.
//! Densities are kept per group in a [`DensityTree`] (insert, read, remove);
//! longest vertical-constraint paths per group are kept incrementally (the
//! longest path ending at and starting from every member); crossings come
//! from one pass of the boundary-marching algorithm.

use std::cmp::Ordering;

use crate::channel::analysis::{crossing_pairs, density, vertical_constraint_graph};
use crate::channel::density_tree::DensityTree;
use crate::channel::layer_model::{candidate_b_values, Configuration};
use crate::channel::problem::{ChannelProblem, NetId};
use crate::channel::separation::single_layer_width;

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

/// Which cost function compares the groups (thesis l.1182 and l.1184).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
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
/// at a page break; spec note 003 part 2, ambiguity 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
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
    problem: &'a ChannelProblem,
    /// Channel density (nets that need a track).
    density: u32,
    succ: Vec<Vec<u32>>,
    pred: Vec<Vec<u32>>,
    /// Strongly connected component of each net; `cyclic[n]` when that
    /// component has two nets or more.
    scc: Vec<u32>,
    cyclic: Vec<bool>,
    crossings: Vec<Vec<u32>>,
    /// The assignment order: cyclic nets first, then the others, each by
    /// first column then id.
    order: Vec<NetId>,
    /// Span for HV/HVH densities, shifted by one so a left side exit is
    /// column 0; `None` for nets that need no track.
    track_span: Vec<Option<(usize, usize)>>,
    /// Span for B densities (shifted as `track_span`), single-column nets
    /// included (side terminals go through the switchbox reduction, so every
    /// net may go to a B group).
    plane_span: Vec<(usize, usize)>,
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
    fn longest_path_of(&self, nets: &[NetId]) -> (u32, bool) {
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
fn sweep_density(spans: &[(usize, usize)]) -> u32 {
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

/// One group while nets are being assigned.
struct Group {
    kind: GroupKind,
    tree: DensityTree,
    member: Vec<bool>,
    nets: Vec<NetId>,
    /// Longest path of member nets ending at / starting from each member.
    up: Vec<u32>,
    down: Vec<u32>,
    lp: u32,
    cyclic: bool,
}

/// A group's figures with net `n` added.
#[derive(Clone, Copy, Debug)]
struct Trial {
    feasible: bool,
    density: u32,
    /// `ceil(density / H_g)`.
    norm: u32,
    lp: u32,
    makes_cycle: bool,
    up: u32,
    down: u32,
    crossed: u32,
}

impl Group {
    fn new(kind: GroupKind, ctx: &Context) -> Group {
        let n = ctx.problem.nets().len();
        let columns = ctx.problem.columns() as usize + 2;
        Group {
            kind,
            tree: DensityTree::new(columns),
            member: vec![false; n],
            nets: Vec::new(),
            up: vec![0; n],
            down: vec![0; n],
            lp: 0,
            cyclic: false,
        }
    }

    fn span(&self, ctx: &Context, n: usize) -> Option<(usize, usize)> {
        match self.kind {
            GroupKind::B => Some(ctx.plane_span[n]),
            _ => ctx.track_span[n],
        }
    }

    fn trial(&mut self, ctx: &Context, n: usize, assigned: &[bool], excess: Excess) -> Trial {
        let mut t = Trial {
            feasible: true,
            density: self.tree.density(),
            norm: 0,
            lp: 0,
            makes_cycle: false,
            up: 1,
            down: 1,
            crossed: 0,
        };
        if self.kind == GroupKind::B {
            if ctx.crossings[n].iter().any(|&m| self.member[m as usize]) {
                t.feasible = false;
                return t;
            }
            t.crossed = ctx.crossings[n]
                .iter()
                .filter(|&&m| excess == Excess::All || !assigned[m as usize])
                .count() as u32;
        }
        if let Some((a, b)) = self.span(ctx, n) {
            self.tree.insert(a, b);
            t.density = self.tree.density();
            self.tree.remove(a, b);
        }
        t.norm = t.density.div_ceil(self.kind.h_layers());
        if self.kind != GroupKind::B {
            let members = self.nets.len() as u32 + 1;
            if self.cyclic {
                t.lp = members + 1;
            } else if ctx.cyclic[n] && self.closes_cycle(ctx, n) {
                t.makes_cycle = true;
                t.lp = members + 1;
            } else {
                t.up = 1 + ctx.pred[n]
                    .iter()
                    .filter(|&&p| self.member[p as usize])
                    .map(|&p| self.up[p as usize])
                    .max()
                    .unwrap_or(0);
                t.down = 1 + ctx.succ[n]
                    .iter()
                    .filter(|&&s| self.member[s as usize])
                    .map(|&s| self.down[s as usize])
                    .max()
                    .unwrap_or(0);
                t.lp = self.lp.max(t.up + t.down - 1);
            }
        }
        #[cfg(test)]
        self.check_trial(ctx, n, &t);
        t
    }

    /// Test builds: the trial's figures equal a recomputation from scratch
    /// (density by sweeping, longest path by dynamic programming), for
    /// every trial, won or lost.
    #[cfg(test)]
    fn check_trial(&self, ctx: &Context, n: usize, t: &Trial) {
        if !t.feasible {
            return;
        }
        let mut nets = self.nets.clone();
        nets.push(NetId(n as u32));
        let spans: Vec<(usize, usize)> = nets
            .iter()
            .filter_map(|id| self.span(ctx, id.index()))
            .collect();
        assert_eq!(t.density, sweep_density(&spans), "trial density");
        if self.kind != GroupKind::B {
            let (lp, cyclic) = ctx.longest_path_of(&nets);
            assert_eq!(t.lp, lp, "trial longest path");
            assert_eq!(self.cyclic || t.makes_cycle, cyclic, "trial cycle");
        }
    }

    /// Whether adding `n` closes a cycle among the members: some member
    /// successor of `n` reaches a member predecessor of `n`. Only nets of
    /// `n`'s strongly connected component can lie on such a cycle.
    fn closes_cycle(&self, ctx: &Context, n: usize) -> bool {
        let comp = ctx.scc[n];
        let inside = |v: u32| self.member[v as usize] && ctx.scc[v as usize] == comp;
        let targets: Vec<u32> = ctx.pred[n].iter().copied().filter(|&p| inside(p)).collect();
        if targets.is_empty() {
            return false;
        }
        let mut seen = std::collections::HashSet::new();
        let mut stack: Vec<u32> = ctx.succ[n].iter().copied().filter(|&s| inside(s)).collect();
        while let Some(v) = stack.pop() {
            if !seen.insert(v) {
                continue;
            }
            if targets.contains(&v) {
                return true;
            }
            stack.extend(ctx.succ[v as usize].iter().copied().filter(|&w| inside(w)));
        }
        false
    }

    fn commit(&mut self, ctx: &Context, n: usize, t: &Trial) {
        if let Some((a, b)) = self.span(ctx, n) {
            self.tree.insert(a, b);
        }
        self.member[n] = true;
        self.nets.push(NetId(n as u32));
        if self.kind == GroupKind::B {
            return;
        }
        if self.cyclic || t.makes_cycle {
            self.cyclic = true;
            self.lp = self.nets.len() as u32 + 1;
            return;
        }
        self.up[n] = t.up;
        self.down[n] = t.down;
        self.lp = t.lp;
        // Raise the longest paths through the new member.
        let mut stack = vec![n as u32];
        while let Some(v) = stack.pop() {
            for &s in &ctx.succ[v as usize] {
                if self.member[s as usize] && self.up[s as usize] < self.up[v as usize] + 1 {
                    self.up[s as usize] = self.up[v as usize] + 1;
                    stack.push(s);
                }
            }
        }
        let mut stack = vec![n as u32];
        while let Some(v) = stack.pop() {
            for &p in &ctx.pred[v as usize] {
                if self.member[p as usize] && self.down[p as usize] < self.down[v as usize] + 1 {
                    self.down[p as usize] = self.down[v as usize] + 1;
                    stack.push(p);
                }
            }
        }
    }
}

/// Ordering key of a feasible trial: lower wins on every entry.
type Key = (u64, u32, u32, usize, usize);

/// Assign every net of the channel to one group of `config`; `None` when
/// some net fits no group (every group is B and the net crosses a net in
/// each).
pub fn assign_nets(
    ctx: &Context,
    config: Configuration,
    options: AssignOptions,
) -> Option<Partition> {
    let kinds = group_kinds(&config);
    if kinds.is_empty() {
        return None;
    }
    let mut groups: Vec<Group> = kinds.iter().map(|&k| Group::new(k, ctx)).collect();
    let n_nets = ctx.problem.nets().len();
    let mut assigned = vec![false; n_nets];
    let mut group_of = vec![usize::MAX; n_nets];
    let lower = config.width_lower_bound(ctx.density);
    for &id in &ctx.order {
        let n = id.index();
        let trials: Vec<Trial> = groups
            .iter_mut()
            .map(|g| g.trial(ctx, n, &assigned, options.excess))
            .collect();
        let best = choose(&groups, &trials, options.cost, lower)?;
        groups[best].commit(ctx, n, &trials[best]);
        assigned[n] = true;
        group_of[n] = best;
    }
    let stats: Vec<GroupStats> = groups
        .into_iter()
        .map(|mut g| {
            g.nets.sort_unstable();
            let density = g.tree.density();
            let estimate = match g.kind {
                GroupKind::Hv => density,
                GroupKind::Hvh => density.div_ceil(2),
                GroupKind::B => plane_estimate(ctx.problem, &g.nets),
            };
            GroupStats {
                kind: g.kind,
                density,
                longest_path: if g.kind == GroupKind::B { 0 } else { g.lp },
                cyclic: g.cyclic,
                estimate,
                nets: g.nets,
            }
        })
        .collect();
    let estimate = stats.iter().map(|s| s.estimate).max().unwrap_or(0);
    Some(Partition {
        config,
        groups: stats,
        group_of,
        estimate,
    })
}

/// The true width of a B group: chapter 7 separation + 1 (0 for no nets or
/// only single-column nets).
fn plane_estimate(problem: &ChannelProblem, nets: &[NetId]) -> u32 {
    if nets.is_empty() {
        return 0;
    }
    let sub = problem
        .restricted(nets)
        .expect("a subset of a valid channel's nets is valid");
    single_layer_width(&sub).expect("a B group's nets are planar")
}

/// The group that takes the net, by the cost function and the tie-breaks
/// (cost, then density, then longest path, then fewer nets, then the lower
/// group index; density is normalised by the group's horizontal layers).
fn choose(groups: &[Group], trials: &[Trial], cost: CostFunction, lower: u32) -> Option<usize> {
    // B groups enter the longest-path tie-break with 0 (their constraint
    // graph does not bound their width), so they win ties on cost and
    // density against HV/HVH groups, whose path is at least 1.
    let key = |g: usize, c: u64| -> Key {
        let t = &trials[g];
        let lp = if groups[g].kind == GroupKind::B {
            0
        } else {
            t.lp
        };
        (c, t.norm, lp, groups[g].nets.len(), g)
    };
    let feasible = |g: &usize| trials[*g].feasible;
    let all = 0..groups.len();
    match cost {
        CostFunction::Basic => all
            .filter(feasible)
            .map(|g| {
                let t = &trials[g];
                let c = match groups[g].kind {
                    GroupKind::B => (t.density + t.crossed) as u64,
                    _ => t.norm.max(t.lp) as u64,
                };
                key(g, c)
            })
            .min()
            .map(|k| k.4),
        CostFunction::Variant => {
            let pen = |g: usize| 1000 * trials[g].norm.saturating_sub(lower) as u64;
            let stage1 = all
                .clone()
                .filter(|g| groups[*g].kind != GroupKind::B)
                .map(|g| key(g, pen(g) + trials[g].lp as u64))
                .min();
            let hv = stage1.map(|k| {
                let g = k.4;
                key(g, k.0 + trials[g].norm as u64)
            });
            let b = all
                .filter(|g| groups[*g].kind == GroupKind::B)
                .filter(feasible)
                .map(|g| key(g, pen(g) + (trials[g].density + trials[g].crossed) as u64))
                .min();
            match (hv, b) {
                (Some(x), Some(y)) => Some(if x.cmp(&y) == Ordering::Greater {
                    y.4
                } else {
                    x.4
                }),
                (x, y) => x.or(y).map(|k| k.4),
            }
        }
    }
}

/// One step of the group-type selection loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// Number of B layers tried.
    pub b: u32,
    /// The configuration for that `b`.
    pub config: Configuration,
    /// `None` when the nets could not all be assigned.
    pub estimate: Option<u32>,
}

/// Options of the selection loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SelectOptions {
    /// Options of net assignment for every configuration tried.
    pub assign: AssignOptions,
    /// Use B layers at all (`false`: Chameleon's configuration only).
    pub no_b_layers: bool,
    /// Also try this many more B layers than the loop settles on (0, 1 or 2).
    pub extra: u32,
    /// How hard the HV and HVH groups' router searches at a width.
    pub effort: crate::channel::router::Effort,
}

/// The outcome of the selection loop.
#[derive(Clone, Debug)]
pub struct Selection {
    /// Every configuration tried, in order.
    pub attempts: Vec<Attempt>,
    /// The partition the loop settles on.
    pub chosen: Partition,
    /// Chameleon's partition (`b = 0`) when it is not the chosen one.
    pub chameleon: Option<Partition>,
    /// Partitions with one or two more B layers (extra effort).
    pub extra: Vec<Partition>,
}

/// Why no partition exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SelectError {
    /// One layer and crossing nets (the two given by id).
    NotPlanar(NetId, NetId),
    /// No configuration: one layer and B layers switched off.
    NoConfiguration,
}

/// MulCh's selection loop (spec note section 2.1): start with no B layers,
/// add B layers while the area estimate is at least as good, settle on the
/// best (ties to more B layers).
pub fn select(
    ctx: &Context,
    layers: u32,
    options: SelectOptions,
) -> Result<Selection, SelectError> {
    if layers == 1 {
        if options.no_b_layers {
            return Err(SelectError::NoConfiguration);
        }
        if let Some((a, &b)) = ctx
            .crossings
            .iter()
            .enumerate()
            .find_map(|(a, l)| l.first().map(|b| (a, b)))
        {
            return Err(SelectError::NotPlanar(NetId(a as u32), NetId(b)));
        }
    }
    let mut attempts = Vec::new();
    let mut best: Option<Partition> = None;
    let mut chameleon = None;
    let candidates = if options.no_b_layers {
        vec![0]
    } else {
        candidate_b_values(layers)
    };
    for b in candidates {
        let config = Configuration::new(layers, b).ok_or(SelectError::NoConfiguration)?;
        let p = assign_nets(ctx, config, options.assign);
        attempts.push(Attempt {
            b,
            config,
            estimate: p.as_ref().map(|p| p.estimate),
        });
        let Some(p) = p else { break };
        if b == 0 {
            chameleon = Some(p.clone());
        }
        match &best {
            Some(q) if p.estimate > q.estimate => break,
            _ => best = Some(p),
        }
    }
    let chosen =
        best.expect("the first configuration (b = 0, or one planar B layer) always assigns");
    let mut extra = Vec::new();
    for b in (1..=options.extra.min(2)).map(|k| chosen.b() + k) {
        if let Some(config) = Configuration::new(layers, b) {
            // A configuration the loop already assigned is not assigned again.
            if let Some(a) = attempts.iter().find(|a| a.b == b).cloned() {
                if a.estimate.is_some() {
                    extra.extend(assign_nets(ctx, config, options.assign));
                }
                continue;
            }
            let p = assign_nets(ctx, config, options.assign);
            attempts.push(Attempt {
                b,
                config,
                estimate: p.as_ref().map(|p| p.estimate),
            });
            extra.extend(p);
        }
    }
    let chameleon = chameleon.filter(|c| c.b() != chosen.b());
    Ok(Selection {
        attempts,
        chosen,
        chameleon,
        extra,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::analysis::crossing_pairs;

    fn problem(top: &[u32], bottom: &[u32]) -> ChannelProblem {
        ChannelProblem::from_rows("t", top, bottom, &[], &[]).unwrap()
    }

    #[test]
    fn chameleon_only_without_b_layers() {
        let p = problem(&[1, 2, 0, 3, 2], &[2, 0, 1, 1, 3]);
        let ctx = Context::new(&p);
        let s = select(
            &ctx,
            4,
            SelectOptions {
                no_b_layers: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(s.chosen.b(), 0);
        assert_eq!(s.attempts.len(), 1);
        assert!(s.chosen.groups.iter().all(|g| g.kind == GroupKind::Hv));
    }

    #[test]
    fn b_groups_are_planar_and_each_net_is_in_one_group() {
        let p = problem(&[1, 2, 3, 4, 1, 5, 3, 6], &[2, 3, 4, 5, 6, 1, 5, 2]);
        let ctx = Context::new(&p);
        for layers in 2..=8 {
            for &b in &candidate_b_values(layers) {
                let config = Configuration::new(layers, b).unwrap();
                let Some(part) = assign_nets(&ctx, config, AssignOptions::default()) else {
                    continue;
                };
                let mut count = vec![0; p.nets().len()];
                for (g, stats) in part.groups.iter().enumerate() {
                    for id in &stats.nets {
                        count[id.index()] += 1;
                        assert_eq!(part.group_of[id.index()], g);
                    }
                    if stats.kind == GroupKind::B && !stats.nets.is_empty() {
                        let sub = p.restricted(&stats.nets).unwrap();
                        assert!(crossing_pairs(&sub).is_empty());
                    }
                }
                assert!(count.iter().all(|&c| c == 1));
                assert!(part.estimate >= config.width_lower_bound(ctx.density()));
            }
        }
    }

    #[test]
    fn incremental_figures_equal_recomputation() {
        use crate::channel::generate::{random_channel, ChannelShape};
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        let mut cyclic_groups = 0;
        for k in 0..300 {
            let columns = rng.gen_range(3..50);
            let mut shape = ChannelShape::new(columns);
            shape.side_probability = if k % 4 == 0 { 0.3 } else { 0.0 };
            let p = random_channel(&mut rng, &shape);
            let ctx = Context::new(&p);
            let layers = rng.gen_range(2..=8);
            for &b in &candidate_b_values(layers) {
                let config = Configuration::new(layers, b).unwrap();
                for cost in [CostFunction::Basic, CostFunction::Variant] {
                    let options = AssignOptions {
                        cost,
                        excess: Excess::Unassigned,
                    };
                    let Some(part) = assign_nets(&ctx, config, options) else {
                        continue;
                    };
                    let again = ctx.partition_of(config, &part.group_of);
                    assert_eq!(part, again, "{k}: {config:?}");
                    cyclic_groups += part.groups.iter().filter(|g| g.cyclic).count();
                }
            }
        }
        assert!(cyclic_groups > 10, "only {cyclic_groups} cyclic groups");
    }
}
