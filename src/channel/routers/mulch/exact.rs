//! Exact partitioning by integer programming (good_lp with the pure-Rust
//! microlp solver): the smallest width that any assignment of the nets to
//! the groups of a configuration allows, next to the heuristic's.
//!
//! For a configuration with groups `g` (each with `H_g` horizontal layers),
//! binary `x[n][g]` puts net `n` in group `g`, and the integer `W` is
//! minimised subject to
//! - every net in exactly one group;
//! - for every group and every column where a span starts, the group's nets
//!   that need a track and cover that column number at most `H_g · W`;
//! - no two crossing nets in one B group.
//!
//! Each group needs at least `ceil(d_g / H_g)` tracks in the reserved-layer
//! model, and a B group at least the density of its nets that need a track
//! (two such nets over one column need two rows there, in one layer too; a
//! single-column net's column holds no other net of a planar group), so the
//! optimum `W*` is a lower bound on the width of any reserved-layer routing
//! that follows any partition of that configuration. When the optimal partition's true estimate (with B groups
//! at their real plane width) equals `W*`, the bound is also attained: `W*`
//! is then the best estimate of any partition, certified. The heuristic's
//! partition is given to the solver as a warm start.
//!
//! With a time limit the solver may stop before proving optimality; the
//! answer then says so (`proven: false`) and is only the best assignment
//! found. A run that proves optimality is deterministic; one cut short by
//! the clock may differ from run to run.

use good_lp::{
    constraint, variable, Expression, ProblemVariables, Solution, SolutionStatus, SolverModel,
    Variable, WithInitialSolution, WithTimeLimit,
};

use super::assign::assign_nets;
use super::partition::{group_kinds, AssignOptions, Context, GroupKind};
use crate::channel::layer_model::Configuration;

/// The exact result for one configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactConfiguration {
    /// Number of B layers.
    pub b: u32,
    /// The configuration solved.
    pub config: Configuration,
    /// `W*`: the optimum (or, when not proven, the best value found).
    pub width: Option<u32>,
    /// The solver proved `width` optimal.
    pub proven: bool,
    /// The true estimate of the solver's partition (B groups at their plane
    /// width); equal to `width` when the bound is attained.
    pub estimate: Option<u32>,
    /// The group of each net in the solver's partition.
    pub group_of: Vec<usize>,
    /// The heuristic's estimate for the same configuration, if it assigns.
    pub heuristic_estimate: Option<u32>,
    /// Why no value was found (infeasible, or the clock ran out first).
    pub note: Option<String>,
}

/// The exact results of every configuration of `L` layers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactReport {
    /// One result per configuration of `L` layers, by increasing `b`.
    pub configurations: Vec<ExactConfiguration>,
    /// The smallest proven optimum over all configurations, when every
    /// configuration was either proven or infeasible: no partition of any
    /// configuration allows a narrower reserved-layer routing.
    pub bound: Option<u32>,
    /// The bound is attained by a partition's true estimate.
    pub attained: bool,
}

/// Every configuration of `layers` layers (every `b` whose other layers can
/// be packed), each solved with an equal share of `seconds`.
pub fn exact_partitions(ctx: &Context, layers: u32, seconds: f64) -> ExactReport {
    let configs: Vec<Configuration> = (0..=layers)
        .filter_map(|b| Configuration::new(layers, b))
        .collect();
    // Time left over by configurations settled early goes to the others.
    let start = std::time::Instant::now();
    let count = configs.len();
    let configurations: Vec<ExactConfiguration> = configs
        .into_iter()
        .enumerate()
        .map(|(k, c)| {
            let left = (seconds - start.elapsed().as_secs_f64()).max(0.0);
            solve_configuration(ctx, c, left / (count - k) as f64)
        })
        .collect();
    let all_settled = configurations
        .iter()
        .all(|e| e.proven || (e.width.is_none() && e.note.as_deref() == Some(INFEASIBLE)));
    let best = configurations
        .iter()
        .filter(|e| e.proven)
        .filter_map(|e| e.width.map(|w| (w, e.estimate == Some(w))))
        .min_by_key(|&(w, attained)| (w, !attained));
    ExactReport {
        bound: best.filter(|_| all_settled).map(|(w, _)| w),
        attained: best.is_some_and(|(_, a)| a) && all_settled,
        configurations,
    }
}

const INFEASIBLE: &str = "no partition: some net fits no group";

/// Solve the integer program of one configuration.
pub fn solve_configuration(
    ctx: &Context,
    config: Configuration,
    seconds: f64,
) -> ExactConfiguration {
    let p = ctx.problem();
    let kinds = group_kinds(&config);
    let heuristic = assign_nets(ctx, config, AssignOptions::default());
    let nets = p.nets().len();
    let mut out = ExactConfiguration {
        b: config.b,
        config,
        width: None,
        proven: false,
        estimate: None,
        group_of: Vec::new(),
        heuristic_estimate: heuristic.as_ref().map(|h| h.estimate),
        note: None,
    };
    let mut vars = ProblemVariables::new();
    // x[n][g]: net n in group g (every net may go to every group; B groups
    // exclude crossing pairs by the constraints below).
    let x: Vec<Vec<Variable>> = (0..nets)
        .map(|_| {
            kinds
                .iter()
                .map(|_| vars.add(variable().binary()))
                .collect()
        })
        .collect();
    let w = vars.add(variable().integer().min(0).max(nets as f64 + 1.0));
    let mut model = vars.minimise(w).using(good_lp::microlp);
    for row in &x {
        let sum: Expression = row.iter().copied().sum();
        model = model.with(constraint!(sum == 1));
    }
    // Interchangeable groups: the first net in assignment order goes to the
    // first group of its kind.
    if let Some(first) = ctx.order().first() {
        for (g, &k) in kinds.iter().enumerate() {
            let first_of_kind = kinds.iter().position(|&q| q == k) == Some(g);
            if !first_of_kind {
                let v = x[first.index()][g];
                model = model.with(constraint!(v == 0));
            }
        }
    }
    for (g, &k) in kinds.iter().enumerate() {
        let spans: Vec<(usize, (usize, usize))> = (0..nets)
            .filter_map(|n| ctx.track_span(n).map(|s| (n, s)))
            .collect();
        let mut starts: Vec<usize> = spans.iter().map(|&(_, (a, _))| a).collect();
        starts.sort_unstable();
        starts.dedup();
        for &col in &starts {
            let cover: Expression = spans
                .iter()
                .filter(|&&(_, (a, b))| a <= col && col <= b)
                .map(|&(n, _)| x[n][g])
                .sum();
            let cap = k.h_layers() as f64;
            model = model.with(constraint!(cover <= cap * w));
        }
        if k == GroupKind::B {
            for n in 0..nets {
                for &m in ctx.crossings(n) {
                    let m = m as usize;
                    if n < m {
                        let (a, b) = (x[n][g], x[m][g]);
                        model = model.with(constraint!(a + b <= 1));
                    }
                }
            }
        }
    }
    if let Some(h) = &heuristic {
        let mut start: Vec<(Variable, f64)> = Vec::new();
        let mut width = 0u32;
        for stats in &h.groups {
            let d = stats.density.div_ceil(stats.kind.h_layers());
            width = width.max(d);
        }
        for (n, row) in x.iter().enumerate() {
            for (g, &v) in row.iter().enumerate() {
                start.push((v, if h.group_of[n] == g { 1.0 } else { 0.0 }));
            }
        }
        start.push((w, width as f64));
        model = model.with_initial_solution(start);
    }
    let model = model.with_time_limit(seconds.max(0.001));
    match model.solve() {
        Ok(sol) => {
            let value = sol.value(w).round() as u32;
            out.width = Some(value);
            out.proven = matches!(sol.status(), SolutionStatus::Optimal);
            out.group_of = x
                .iter()
                .map(|row| {
                    row.iter()
                        .position(|&v| sol.value(v) > 0.5)
                        .expect("every net is in one group")
                })
                .collect();
            out.estimate = Some(ctx.estimate_of(&kinds, &out.group_of));
        }
        Err(good_lp::ResolutionError::Infeasible) => out.note = Some(INFEASIBLE.into()),
        Err(good_lp::ResolutionError::Other(_)) => {
            out.note = Some("time limit reached before a partition was found".into())
        }
        Err(e) => out.note = Some(e.to_string()),
    }
    out
}

/// The exact report, and the best solver partition routed: the one with
/// the smallest true estimate, then the smallest `W*`, proven first.
pub fn exact_and_route(
    problem: &crate::channel::problem::ChannelProblem,
    layers: u32,
    seconds: f64,
    rules: crate::channel::router::Rules,
    observer: &mut dyn FnMut(crate::channel::router::RouteEvent),
) -> Result<(ExactReport, Option<super::RoutedPartition>), crate::channel::router::RouteError> {
    let ctx = Context::new(problem);
    let report = exact_partitions(&ctx, layers, seconds);
    let best = report
        .configurations
        .iter()
        .filter(|e| e.width.is_some())
        .min_by_key(|e| (e.estimate, e.width, !e.proven));
    let routed = match best {
        Some(e) => {
            let part = ctx.partition_of(e.config, &e.group_of);
            // A partition that does not route (a strict reserved-layer
            // group may not) leaves no exact routing to compare.
            super::route_partition(problem, &part, rules, observer).ok()
        }
        None => None,
    };
    Ok((report, routed))
}
