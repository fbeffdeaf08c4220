//! Reserved-layer detailed channel routing in two layers (HV, VH) and three
//! layers (HVH, VHV) after YACR2 (thesis section 6.4 uses it for MulCh's HV and
//! HVH groups; docs/routing.md gives the design):
//!
//! 1. start at the lower bound `W = ceil(d / H)`;
//! 2. assign every net's trunk to a slot (row, horizontal layer) with few
//!    vertical constraint violations ([`assign`]);
//! 3. draw trunks and the straight pin stubs that do not collide;
//! 4. connect each remaining pin to its net by a shortest path through free
//!    space on any layer ([`maze`]), trying either net of a violating column
//!    first, each in a widening window of columns;
//! 5. if a pin stays unconnected, insert an empty row at each position in
//!    turn and retry; then try jittered assignments (random slot costs on a
//!    seeded stream each, [`Effort`]); then assign afresh with one more row,
//!    and so on. `W` is bounded (`d + nets + 2`), so the router always
//!    stops.
//!
//! Steps 2 to 5 are one strategy of the width loop, which runs a portfolio
//! of them at each width ([`Strategy`]): conflict-free assignment, reserved
//! layers, the greedy sweep and negotiated congestion.
//!
//! VHV has two vertical layers, so top pins come down on one and bottom pins
//! go up on the other and no column ever conflicts: it reaches density.

#![warn(missing_docs)]

pub mod assign;
mod attempt;
mod candidates;
pub mod improve;
pub mod local;
pub mod maze;
mod repair;
mod riser;
mod setup;

use crate::channel::analysis::density;
use crate::channel::layer_model::LayerModel;
use crate::channel::problem::{ChannelProblem, NetId};
pub use crate::channel::router::Borrowed;
use crate::channel::router::{
    ChannelRouter, Directions, Effort, EffortLevel, RouteError, RouteEvent, RouteOptions, Rules,
};
use crate::channel::solution::ChannelSolution;
use crate::geom::Point;

use crate::channel::grid::finish::finish;
use crate::channel::grid::{Cell, Grid, Mark, SparePool};
use crate::channel::router::model_for;
use crate::channel::routers::conflict_free::{self, ConflictFree};
use crate::channel::routers::greedy;
use crate::channel::routers::negotiated;
use crate::channel::search::{preferred, Preferred};
use crate::parallel::Handoff;
use assign::{assign_with, PieceConstraints, Slot};
use assign::{items_of, Cut, Item};
use candidates::*;
use improve::improve;
use maze::{commit, Costs, Search};

/// The YACR2-style reserved-layer router.
#[derive(Clone, Copy, Debug, Default)]
pub struct YacrRouter;

impl ChannelRouter for YacrRouter {
    fn name(&self) -> &'static str {
        "yacr"
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
        let model = model_for(self.name(), options)?;
        route_borrowing(problem, model, None, options.rules(), observer)
    }

    fn route_borrowing(
        &self,
        problem: &ChannelProblem,
        options: &RouteOptions,
        borrowed: &Borrowed,
        observer: &mut dyn FnMut(RouteEvent),
    ) -> Result<ChannelSolution, RouteError> {
        let model = model_for(self.name(), options)?;
        route_borrowing(problem, model, Some(borrowed), options.rules(), observer)
    }
}

/// The strategies of the width loop: the router is a portfolio of them.
/// [`route_borrowing`] starts at the lower bound `ceil(d / H)` and, width by
/// width, runs them in the order of [`Strategy::PORTFOLIO`]; the best
/// routing any of them finds at a width ends the search (by its quality:
/// fewer vias, then less wire).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Trunk pieces assigned so that no column conflicts, drawn straight
    /// ([`conflict_free`]): the quick path. Under a fast effort in a model
    /// with one vertical layer it first runs alone over the first
    /// `QUICK_LADDER` widths.
    ConflictFree,
    /// Trunks on the horizontal layers, pins joined by maze repair over
    /// reserved-layer candidates (YACR2; [`assign`], [`maze`], [`local`]).
    ReservedLayers,
    /// The greedy column sweep ([`greedy`]): its width bounds the search,
    /// and past the other strategies' limit it is the answer.
    GreedySweep,
    /// Negotiated congestion over the whole channel ([`negotiated`]): the
    /// fallback from `FALLBACK_AFTER` rows above the lower bound, when the
    /// reserved-layer candidates fail and the greedy sweep needs more rows.
    Negotiated,
}

impl Strategy {
    /// The portfolio, in the order the width loop runs it.
    pub const PORTFOLIO: [Strategy; 4] = [
        Strategy::ConflictFree,
        Strategy::ReservedLayers,
        Strategy::GreedySweep,
        Strategy::Negotiated,
    ];

    /// The name progress output gives the strategy.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::ConflictFree => "conflict-free assignment",
            Strategy::ReservedLayers => "reserved layers",
            Strategy::GreedySweep => "greedy sweep",
            Strategy::Negotiated => "negotiated congestion",
        }
    }

    /// Tell the observer this strategy is trying `rows` tracks.
    fn announce(self, rows: i64, observer: &mut dyn FnMut(RouteEvent)) {
        observer(RouteEvent::Trying {
            width: rows as u32,
            method: self.name(),
        });
    }
}

/// Route a channel in one layer model, with the default effort.
pub fn route_model(
    problem: &ChannelProblem,
    model: LayerModel,
    observer: &mut dyn FnMut(RouteEvent),
) -> Result<ChannelSolution, RouteError> {
    route_borrowing(problem, model, None, Rules::default(), observer)
}

/// Route a channel in one layer model, with the free space of a borrowed
/// layer (numbered `model.layers() + 1` in the result) for repairs.
pub fn route_borrowing(
    problem: &ChannelProblem,
    model: LayerModel,
    borrowed: Option<&Borrowed>,
    rules: Rules,
    observer: &mut dyn FnMut(RouteEvent),
) -> Result<ChannelSolution, RouteError> {
    let Rules { effort, directions } = rules;
    let d = density(problem) as i64;
    let h = model.h_layers();
    let start = (d + h.len() as i64 - 1) / h.len() as i64;
    let limit = start.max(1) + problem.nets().len() as i64 + 2;
    let made = Assignments::new(problem, model, effort, directions);
    let preferred = preferred(model, directions);
    // The reserved-layer router from the lower bound up, and from a few rows
    // above it, row by row, the negotiated-congestion fallback too; the
    // greedy sweep bounds the search: at its width the routing with fewer
    // vias (then less wire) wins, and when the others fail up to it, it is
    // the answer. Its width is learnt row by row (`best_within`): on a long
    // channel its sweeps then give up early instead of running to the end.
    let lower = start.max(1);
    let greedy =
        |sw: &greedy::Sweep| finish(problem, model, directions, greedy::draw(problem, model, sw));
    let keeps = |s: &ChannelSolution| s.keeps(directions);
    // Past `limit` only a greedy width beyond it keeps the search going.
    let mut beyond: Option<Option<greedy::Sweep>> = None;
    // A fast effort takes the quick path's narrowest routing over the first
    // widths before anything else, in models with one vertical layer (with
    // one for each pin row, as VHV has, no column conflicts and the
    // candidates meet density).
    let ladder = if effort.level == EffortLevel::Fast && model.v_layers().len() == 1 {
        Strategy::ConflictFree.announce(start, observer);
        if let Some(s) = made.quick(model, start..start + QUICK_LADDER).filter(keeps) {
            return Ok(s);
        }
        start..start + QUICK_LADDER
    } else {
        start..start
    };
    let mut rows = start;
    loop {
        if rows >= limit {
            let full = beyond.get_or_insert_with(|| greedy::best(problem, model, lower));
            match full {
                _ if rows == limit => {}
                Some(sw) if sw.rows >= rows => {}
                Some(sw) => {
                    let s = greedy(sw);
                    if keeps(&s) {
                        return Ok(s);
                    }
                    return Err(RouteError::Unroutable(format!(
                        "the yacr router found no {} routing of {} within {limit} tracks \
                         that keeps every wire in its layer's direction",
                        model.name(),
                        problem.name()
                    )));
                }
                None => {
                    return Err(RouteError::Unroutable(format!(
                        "the yacr router found no {} routing of {} within {limit} tracks",
                        model.name(),
                        problem.name()
                    )))
                }
            }
        }
        let extra = borrowed
            .filter(|b| rows >= b.from_width as i64)
            .and_then(|b| (b.occupied)(rows as u32));
        // The quick path, unless the ladder tried this width.
        let quick = if ladder.contains(&rows) {
            None
        } else {
            Strategy::ConflictFree.announce(rows, observer);
            made.quick(model, rows..rows + 1)
        };
        // Besides, the greedy sweep when it needs no more than `rows` tracks:
        // then exactly `rows`, as every narrower width ended the search
        // before.
        Strategy::ReservedLayers.announce(rows, observer);
        Strategy::GreedySweep.announce(rows, observer);
        let (mut found, other, within) =
            reserved(problem, model, rows, &made, extra.as_deref(), || {
                greedy::best_within(problem, model, lower, rows)
            });
        // The greedy sweep's routing when it keeps the direction rule (its
        // drawing does by construction once the clean-up leaves its stubs).
        let within = within
            .map(|sw| (sw.rows, greedy(&sw)))
            .filter(|(_, g)| keeps(g));
        // Whether the greedy sweep needs more than `rows` tracks, as the
        // fallback asks (past `limit`, whether it routes at all).
        let greedy_wider =
            within.is_none() && (rows < limit || beyond.as_ref().is_some_and(|f| f.is_some()));
        if found.is_none() && rows >= start + FALLBACK_AFTER && greedy_wider {
            Strategy::Negotiated.announce(rows, observer);
            found = negotiated::route(problem, rows, &preferred);
        }
        if let Some(s) = pick(problem, model, directions, [found, other], quick, within) {
            return Ok(s);
        }
        rows += 1;
    }
}

/// The routing a width ends with, if any: the best (by [`quality`]) of the
/// reserved-layer or negotiated routing and the other variant's (`grids`)
/// and the quick path's, against the greedy sweep's routing (`within`,
/// with its rows) when that needs exactly as many tracks; else the greedy
/// sweep's when it fits. Under
/// [`Directions::Reserved`] only routings that keep every wire in its
/// layer's direction count.
fn pick(
    problem: &ChannelProblem,
    model: LayerModel,
    directions: Directions,
    grids: [Option<Grid>; 2],
    quick: Option<ChannelSolution>,
    within: Option<(i64, ChannelSolution)>,
) -> Option<ChannelSolution> {
    let mut ours: Option<ChannelSolution> = None;
    let routings = grids
        .into_iter()
        .flatten()
        .map(|g| finish(problem, model, directions, g))
        .chain(quick)
        .filter(|s| s.keeps(directions));
    for alt in routings {
        if ours.as_ref().is_none_or(|s| quality(&alt) < quality(s)) {
            ours = Some(alt);
        }
    }
    if let Some(ours) = ours {
        return Some(
            match within.filter(|(rows, _)| *rows == ours.width as i64) {
                Some((_, g)) if quality(&g) < quality(&ours) => g,
                _ => ours,
            },
        );
    }
    within.map(|(_, g)| g)
}

/// How a routing of a given width ranks: fewer vias, then less wire.
fn quality(s: &ChannelSolution) -> (u64, u64) {
    (s.via_count(), s.net_length())
}

/// Widths from the lower bound up that a fast effort tries the quick path
/// at before anything else.
const QUICK_LADDER: i64 = 2;

/// Rows above the lower bound the reserved-layer router gets alone before
/// the fallback joins in.
const FALLBACK_AFTER: i64 = 2;

#[cfg(test)]
pub(crate) mod tests;
