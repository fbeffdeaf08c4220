//! Net assignment of the MulCh partitioner (thesis section 6.3): each net, in the context's order, is tried in
//! every group of a configuration and kept in the best one.
//!
//! Densities are kept per group in a [`DensityTree`] (insert, read, remove);
//! longest vertical-constraint paths per group are kept incrementally (the
//! longest path ending at and starting from every member).

use std::cmp::Ordering;

#[cfg(test)]
use super::partition::sweep_density;
use super::partition::{
    group_kinds, plane_estimate, AssignOptions, Context, CostFunction, Excess, GroupKind,
    GroupStats, Partition,
};
use crate::channel::density_tree::DensityTree;
use crate::channel::layer_model::Configuration;
use crate::channel::problem::NetId;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::analysis::crossing_pairs;
    use crate::channel::layer_model::candidate_b_values;
    use crate::channel::problem::ChannelProblem;

    fn problem(top: &[u32], bottom: &[u32]) -> ChannelProblem {
        ChannelProblem::from_rows("t", top, bottom, &[], &[]).unwrap()
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
