//! MulCh: multilayer channel routing with HV, HVH and single-layer B groups
//! (thesis chapter 6).
//!
//! 1. [`selection::select`] chooses the number of B layers and assigns every
//!    net to one group.
//! 2. Each group is routed on its own nets: B groups first, by the plane
//!    router, then HV and HVH groups by the YACR2-style router; the one just
//!    under the first B layer may route repairs through that layer's free
//!    space (thesis section 6.4, [`route_partition`]).
//! 3. The groups are stacked into one `L`-layer channel: each group takes a
//!    contiguous block of layers (HVH groups first, then HV, then B), the
//!    width is the widest group's, and narrower groups get their extra
//!    tracks at the row boundary the fewest of their vertical wires cross.
//!
//! Chameleon's partition (no B layers) is always routed too: it is reported
//! next to MulCh's, and the final answer is the better of the two by width,
//! then net length, then vias (the thesis advises running both, section 6.4).

#![warn(missing_docs)]

pub mod assign;
pub mod exact;
pub mod partition;
pub mod selection;

use std::cell::RefCell;
use std::collections::BTreeMap;

use crate::channel::analysis::density;
use crate::channel::layer_model::LayerModel;
use crate::channel::problem::{ChannelProblem, NetId};
use crate::channel::router::{ChannelRouter, RouteError, RouteEvent, RouteOptions, Rules};
use crate::channel::routers::plane::{route_plane, route_plane_at};
use crate::channel::routers::yacr::{route_borrowing, Borrowed, YacrRouter};
use crate::channel::solution::{ChannelSolution, LayerGroup, Metrics, Via, Wire};
use crate::geom::Point;

pub use assign::assign_nets;
pub use partition::{
    AssignOptions, Context, CostFunction, Excess, GroupKind, GroupStats, Partition,
};
pub use selection::{select, Attempt, SelectError, SelectOptions, Selection};

/// The MulCh router with its default options (as a [`ChannelRouter`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct MulchRouter {
    /// Selection options; their `rules` are replaced by the route options'.
    pub options: SelectOptions,
}

impl ChannelRouter for MulchRouter {
    fn name(&self) -> &'static str {
        "mulch"
    }

    fn route(
        &self,
        problem: &ChannelProblem,
        options: &RouteOptions,
    ) -> Result<ChannelSolution, RouteError> {
        self.route_observed(problem, options, &mut |_| {})
    }

    fn route_observed(
        &self,
        problem: &ChannelProblem,
        options: &RouteOptions,
        observer: &mut dyn FnMut(RouteEvent),
    ) -> Result<ChannelSolution, RouteError> {
        if options.model.is_some() {
            return Err(RouteError::Unroutable(
                "the mulch router chooses its own groups; --model applies to the yacr router"
                    .into(),
            ));
        }
        let select = SelectOptions {
            rules: options.rules(),
            ..self.options
        };
        route_mulch(problem, options.layers, select, observer).map(|r| r.solution)
    }
}

/// Figures of one routed group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupResult {
    /// The group type.
    pub kind: GroupKind,
    /// Layers of the stacked solution the group uses.
    pub layers: Vec<u32>,
    /// Number of nets assigned to the group.
    pub nets: usize,
    /// Density of the group's nets, as [`GroupStats::density`].
    pub density: u32,
    /// Longest vertical-constraint path, as [`GroupStats::longest_path`].
    pub longest_path: u32,
    /// The partitioner's area estimate, as [`GroupStats::estimate`].
    pub estimate: u32,
    /// Tracks the group needed on its own.
    pub width: u32,
    /// Net length and vias of the group inside the stacked solution.
    pub net_length: u64,
    /// Vias of the group inside the stacked solution.
    pub vias: u64,
}

/// One partition, routed and stacked.
#[derive(Clone, Debug)]
pub struct RoutedPartition {
    /// The partition that was routed.
    pub partition: Partition,
    /// Figures of every group, in layer order.
    pub groups: Vec<GroupResult>,
    /// The stacked `L`-layer solution.
    pub solution: ChannelSolution,
    /// The metrics of `solution`, against the channel's density.
    pub metrics: Metrics,
}

impl RoutedPartition {
    /// Width, then net length, then vias: the thesis's objectives in order.
    pub fn quality(&self) -> (u32, u64, u64) {
        (
            self.metrics.width,
            self.metrics.net_length,
            self.metrics.vias,
        )
    }
}

/// Everything a MulCh run found.
#[derive(Clone, Debug)]
pub struct MulchResult {
    /// The answer: the best routed partition's solution.
    pub solution: ChannelSolution,
    /// Every configuration the selection loop tried, in order.
    pub attempts: Vec<Attempt>,
    /// MulCh's choice, routed.
    pub chosen: RoutedPartition,
    /// Chameleon's partition (no B layers), routed, when MulCh chose B layers.
    pub chameleon: Option<RoutedPartition>,
    /// Partitions with more B layers routed for extra effort.
    pub extra: Vec<RoutedPartition>,
    /// Which of the routed partitions gave the answer.
    pub answer: Answer,
    /// With `--exact`: the integer programs, and the solver's best
    /// partition routed.
    pub exact: Option<(exact::ExactReport, Option<RoutedPartition>)>,
    /// The effort and direction rule the groups were routed with (the
    /// exact partition's too).
    pub rules: Rules,
}

/// Which routed partition [`MulchResult::solution`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// [`MulchResult::chosen`], MulCh's own partition.
    Chosen,
    /// [`MulchResult::chameleon`], the partition without B layers.
    Chameleon,
    /// The partition at this index of [`MulchResult::extra`].
    Extra(usize),
    /// The exact solver's partition in [`MulchResult::exact`].
    Exact,
}

impl MulchResult {
    /// The routed partition that gave [`MulchResult::solution`].
    pub fn answer(&self) -> &RoutedPartition {
        match self.answer {
            Answer::Chosen => &self.chosen,
            Answer::Chameleon => self.chameleon.as_ref().expect("answer names it"),
            Answer::Extra(k) => &self.extra[k],
            Answer::Exact => self
                .exact
                .as_ref()
                .and_then(|e| e.1.as_ref())
                .expect("answer names it"),
        }
    }

    /// Also solve the partition exactly within `seconds`, route the solver's
    /// best partition, and take it as the answer if it routes better.
    pub fn add_exact(
        &mut self,
        problem: &ChannelProblem,
        seconds: f64,
        observer: &mut dyn FnMut(RouteEvent),
    ) -> Result<(), RouteError> {
        let (report, routed) =
            exact::exact_and_route(problem, self.solution.layers, seconds, self.rules, observer)?;
        let better = routed
            .as_ref()
            .is_some_and(|r| r.quality() < self.answer().quality());
        self.exact = Some((report, routed));
        if better {
            self.answer = Answer::Exact;
            self.solution = self.answer().solution.clone();
        }
        Ok(())
    }

    /// The best routing without B layers (Chameleon's), for comparison.
    pub fn without_b_layers(&self) -> Option<&RoutedPartition> {
        if self.chosen.partition.b() == 0 {
            Some(&self.chosen)
        } else {
            self.chameleon.as_ref()
        }
    }
}

/// Route a channel in `layers` layers with MulCh.
///
/// # Example
///
/// ```
/// use fabric::channel::routers::mulch::{route_mulch, SelectOptions};
/// use fabric::channel::verify::verify;
///
/// let p = fabric::io::parse_channel("top: 1 2 3 0\nbottom: 2 3 0 1\n", "c.txt").unwrap();
/// let r = route_mulch(&p, 3, SelectOptions::default(), &mut |_| {}).unwrap();
/// assert_eq!(r.solution.layers, 3);
/// assert!(verify(&p, &r.solution, None).is_legal_strict());
/// ```
pub fn route_mulch(
    problem: &ChannelProblem,
    layers: u32,
    options: SelectOptions,
    observer: &mut dyn FnMut(RouteEvent),
) -> Result<MulchResult, RouteError> {
    let ctx = Context::new(problem);
    let selection = selection::select(&ctx, layers, options).map_err(|e| match e {
        SelectError::NotPlanar(a, b) => RouteError::Unroutable(format!(
            "nets {} and {} cross: no routing in one layer",
            problem.label(a),
            problem.label(b)
        )),
        SelectError::NoConfiguration => RouteError::Layers {
            router: "mulch",
            layers,
            supported: "2 or more without B layers",
        },
    })?;
    // The partitions are independent: the others are routed on the pool
    // while this thread routes the chosen partition (and reports
    // progress). Each routing is deterministic, so the result is too.
    let rules = options.rules;
    let others: Vec<_> = selection
        .chameleon
        .iter()
        .chain(&selection.extra)
        .map(|p| move || route_partition(problem, p, rules, &mut |_| {}))
        .collect();
    let (chosen, mut others) = crate::parallel::beside(
        || route_partition(problem, &selection.chosen, rules, observer),
        others,
    );
    let extra = others.split_off(selection.chameleon.is_some() as usize);
    let chameleon = others.pop();
    let chosen = chosen?;
    // The partitions beside the chosen one only compete: one that does not
    // route (a strict reserved-layer group may not) drops out.
    let chameleon = chameleon.and_then(Result::ok);
    let extra: Vec<RoutedPartition> = extra.into_iter().filter_map(Result::ok).collect();
    let mut answer = Answer::Chosen;
    let mut best = chosen.quality();
    if let Some(c) = &chameleon {
        if c.quality() < best {
            best = c.quality();
            answer = Answer::Chameleon;
        }
    }
    for (k, e) in extra.iter().enumerate() {
        if e.quality() < best {
            best = e.quality();
            answer = Answer::Extra(k);
        }
    }
    let mut result = MulchResult {
        solution: ChannelSolution {
            name: String::new(),
            layers,
            width: 0,
            columns: 0,
            groups: Vec::new(),
            wires: Vec::new(),
            vias: Vec::new(),
        },
        attempts: selection.attempts,
        chosen,
        chameleon,
        extra,
        answer,
        exact: None,
        rules: options.rules,
    };
    result.solution = result.answer().solution.clone();
    Ok(result)
}

/// A B group's routing in a channel `width` rows wide: the plane router
/// run again at that width when that saves wire over the
/// narrower routing lifted, else the lifted one.
fn b_at(
    problem: &ChannelProblem,
    nets: &[NetId],
    own: &ChannelSolution,
    width: u32,
) -> Result<ChannelSolution, RouteError> {
    if own.width >= width {
        return Ok(own.clone());
    }
    let sub = problem
        .restricted(nets)
        .expect("a subset of a valid channel's nets is valid");
    let wide = route_plane_at(&sub, width)?;
    let low = own.widened(width);
    let out = if wide.net_length() < low.net_length() {
        wide
    } else {
        low
    };
    // The borrower routes around exactly this geometry, so it must be the
    // one stacked: no later lift may move it.
    debug_assert_eq!(out.width, width, "a B routing of the asked width");
    Ok(out)
}

/// The grid points a single-layer routing uses.
fn points(s: &ChannelSolution) -> Vec<Point> {
    let mut out: Vec<Point> = s.wires.iter().flat_map(|w| w.segment().points()).collect();
    out.sort_unstable_by_key(|p| (p.x, p.y));
    out.dedup();
    out
}

/// Route every group of a partition and stack the results.
///
/// B groups are routed first. The HV or HVH group whose layers lie just
/// below the first B layer is routed last and may use that layer's free
/// space for its repairs (thesis section 6.4) at every width at least as wide as
/// all the other groups: at such a width it is the widest group, so the B
/// routing it routed around (the one `b_at` gives for that width) is the
/// one stacked, and nothing is lifted under it.
pub fn route_partition(
    problem: &ChannelProblem,
    part: &Partition,
    rules: Rules,
    observer: &mut dyn FnMut(RouteEvent),
) -> Result<RoutedPartition, RouteError> {
    let (mut routed, mut lent) = route_groups(problem, part, rules, observer)?;
    let width = routed.iter().flatten().map(|s| s.width).max().unwrap_or(0);
    // Each group's own width, reported even when a B group is re-run wider.
    let needed: Vec<u32> = routed
        .iter()
        .map(|s| s.as_ref().map_or(0, |s| s.width))
        .collect();
    // B groups narrower than the channel re-run the final optimisation at
    // its width, kept when that saves wire.
    for (k, (g, s)) in part.groups.iter().zip(routed.iter_mut()).enumerate() {
        if let (GroupKind::B, Some(old)) = (g.kind, s.as_mut()) {
            let memo = if Some(k) == lent.lender {
                lent.at.remove(&width)
            } else {
                None
            };
            *old = match memo {
                Some(lent) => lent,
                None => b_at(problem, &g.nets, old, width)?,
            };
        }
    }
    Ok(stack_groups(problem, part, &routed, &needed, width))
}

/// The B group that lends its layer's free space to the group routed last,
/// and its routings at each width the borrower asked for.
struct Lent {
    /// The lending group's index, if a B group lies just above the borrower.
    lender: Option<usize>,
    /// The lender's routing at each width the borrower asked for.
    at: BTreeMap<u32, ChannelSolution>,
}

/// Route each group of `part` on its own (B groups first, the borrower
/// last); `None` for groups without nets.
fn route_groups(
    problem: &ChannelProblem,
    part: &Partition,
    rules: Rules,
    observer: &mut dyn FnMut(RouteEvent),
) -> Result<(Vec<Option<ChannelSolution>>, Lent), RouteError> {
    let n = part.groups.len();
    let borrower = (0..n).rev().find(|&k| part.groups[k].kind != GroupKind::B);
    let lender = borrower
        .map(|k| k + 1)
        .filter(|&k| k < n && part.groups[k].kind == GroupKind::B);
    let mut routed: Vec<Option<ChannelSolution>> = vec![None; n];
    let lent_at: RefCell<BTreeMap<u32, ChannelSolution>> = Default::default();
    let order = (0..n)
        .filter(|&k| part.groups[k].kind == GroupKind::B)
        .chain((0..n).filter(|&k| part.groups[k].kind != GroupKind::B));
    for k in order {
        let g = &part.groups[k];
        if g.nets.is_empty() {
            continue;
        }
        let sub = problem
            .restricted(&g.nets)
            .expect("a subset of a valid channel's nets is valid");
        let model = match g.kind {
            GroupKind::B => {
                routed[k] = Some(route_plane(&sub)?);
                continue;
            }
            GroupKind::Hv => LayerModel::Hv,
            GroupKind::Hvh => LayerModel::Hvh,
        };
        let s = match lender.filter(|_| Some(k) == borrower) {
            Some(b) => {
                let others = routed.iter().flatten().map(|s| s.width).max().unwrap_or(0);
                let lent = &part.groups[b];
                let own = routed[b].clone();
                let occupied = |w: u32| -> Option<Vec<Point>> {
                    let Some(o) = &own else {
                        return Some(Vec::new());
                    };
                    let s = b_at(problem, &lent.nets, o, w).ok()?;
                    let p = points(&s);
                    lent_at.borrow_mut().insert(w, s);
                    Some(p)
                };
                let borrowed = Borrowed {
                    from_width: others,
                    occupied: &occupied,
                };
                let options = RouteOptions {
                    layers: model.layers(),
                    model: Some(model),
                    effort: rules.effort,
                    directions: rules.directions,
                };
                YacrRouter.route_borrowing(&sub, &options, &borrowed, observer)?
            }
            None => route_borrowing(&sub, model, None, rules, observer)?,
        };
        routed[k] = Some(s);
    }
    let lent = Lent {
        lender,
        at: lent_at.into_inner(),
    };
    Ok((routed, lent))
}

/// Stack the groups' routings, each `width` rows wide, on consecutive
/// layers (group order), with each group's figures; `needed` are the
/// groups' own widths.
fn stack_groups(
    problem: &ChannelProblem,
    part: &Partition,
    routed: &[Option<ChannelSolution>],
    needed: &[u32],
    width: u32,
) -> RoutedPartition {
    let mut solution = ChannelSolution {
        name: problem.name().to_string(),
        layers: part.config.layers,
        width,
        columns: problem.columns(),
        groups: Vec::new(),
        wires: Vec::new(),
        vias: Vec::new(),
    };
    let mut groups = Vec::new();
    let mut offset = 0u32;
    for ((g, s), &own_width) in part.groups.iter().zip(routed).zip(needed) {
        let layers: Vec<u32> = (offset + 1..=offset + g.kind.layers()).collect();
        solution.groups.push(LayerGroup {
            kind: g.kind.group_type(),
            layers: layers.clone(),
        });
        let mut piece = ChannelSolution {
            name: String::new(),
            layers: part.config.layers,
            width,
            columns: problem.columns(),
            groups: Vec::new(),
            wires: Vec::new(),
            vias: Vec::new(),
        };
        if let Some(s) = s {
            let s = s.widened(width);
            piece.wires = s
                .wires
                .iter()
                .map(|w| Wire {
                    layer: w.layer + offset,
                    ..*w
                })
                .collect();
            piece.vias = s
                .vias
                .iter()
                .map(|v| Via {
                    from: v.from + offset,
                    to: v.to + offset,
                    ..*v
                })
                .collect();
        }
        groups.push(GroupResult {
            kind: g.kind,
            layers,
            nets: g.nets.len(),
            density: g.density,
            longest_path: g.longest_path,
            estimate: g.estimate,
            width: own_width,
            net_length: piece.net_length(),
            vias: piece.via_count(),
        });
        solution.wires.append(&mut piece.wires);
        solution.vias.append(&mut piece.vias);
        offset += g.kind.layers();
    }
    solution.canonicalize();
    let metrics = solution.metrics(density(problem));
    RoutedPartition {
        partition: part.clone(),
        groups,
        solution,
        metrics,
    }
}
