//! Reserved-layer detailed channel routing in two layers (HV, VH) and three
//! layers (HVH, VHV) after YACR2 (thesis section 6.4 uses it for MulCh's HV and
//! HVH groups; design in spec note 003 part 2, section 4):
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
//! VHV has two vertical layers, so top pins come down on one and bottom pins
//! go up on the other and no column ever conflicts: it reaches density.

pub mod assign;
pub mod cleanup;
pub mod greedy;
pub mod grid;
pub mod local;
pub mod maze;
pub mod negotiated;

use crate::channel::analysis::density;
use crate::channel::problem::{ChannelProblem, NetId};
pub use crate::channel::router::Borrowed;
use crate::channel::router::{
    ChannelRouter, Effort, EffortLevel, RouteError, RouteEvent, RouteOptions,
};
use crate::channel::solution::{ChannelSolution, LayerGroup};
use crate::geom::Point;

use crate::parallel::Handoff;
use assign::{assign_with, improve, PieceConstraints, Slot};
use grid::{Cell, Grid, Mark, SparePool};
use maze::{commit, Costs, Preferred, Search};

/// The layer models of reserved-layer routing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerModel {
    Hv,
    Vh,
    Hvh,
    Vhv,
}

impl LayerModel {
    pub fn name(self) -> &'static str {
        match self {
            LayerModel::Hv => "HV",
            LayerModel::Vh => "VH",
            LayerModel::Hvh => "HVH",
            LayerModel::Vhv => "VHV",
        }
    }

    pub fn parse(s: &str) -> Option<LayerModel> {
        match s.to_ascii_uppercase().as_str() {
            "HV" => Some(LayerModel::Hv),
            "VH" => Some(LayerModel::Vh),
            "HVH" => Some(LayerModel::Hvh),
            "VHV" => Some(LayerModel::Vhv),
            _ => None,
        }
    }

    /// The model used for a layer count when none is asked for.
    pub fn default_for(layers: u32) -> Option<LayerModel> {
        match layers {
            2 => Some(LayerModel::Hv),
            3 => Some(LayerModel::Hvh),
            _ => None,
        }
    }

    pub fn layers(self) -> u32 {
        self.name().len() as u32
    }

    fn preferred(self) -> Vec<Preferred> {
        self.name()
            .chars()
            .map(|c| {
                if c == 'H' {
                    Preferred::Horizontal
                } else {
                    Preferred::Vertical
                }
            })
            .collect()
    }

    fn h_layers(self) -> Vec<u32> {
        (1..=self.layers())
            .filter(|&l| self.name().as_bytes()[(l - 1) as usize] == b'H')
            .collect()
    }

    fn v_layers(self) -> Vec<u32> {
        (1..=self.layers())
            .filter(|&l| self.name().as_bytes()[(l - 1) as usize] == b'V')
            .collect()
    }
}

/// The YACR2-style reserved-layer router.
#[derive(Clone, Copy, Debug, Default)]
pub struct DetailedRouter;

impl ChannelRouter for DetailedRouter {
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
        route_borrowing(problem, model, None, options.effort, observer)
    }

    fn route_borrowing(
        &self,
        problem: &ChannelProblem,
        options: &RouteOptions,
        borrowed: &Borrowed,
        observer: &mut dyn FnMut(RouteEvent),
    ) -> Result<ChannelSolution, RouteError> {
        let model = model_for(self.name(), options)?;
        route_borrowing(problem, model, Some(borrowed), options.effort, observer)
    }
}

/// The layer model a caller asks for, checked against the layer count.
fn model_for(router: &'static str, options: &RouteOptions) -> Result<LayerModel, RouteError> {
    let model = match options.model.as_deref() {
        Some(m) => LayerModel::parse(m).ok_or(RouteError::Layers {
            router,
            layers: options.layers,
            supported: "2 (HV, VH) or 3 (HVH, VHV)",
        })?,
        None => LayerModel::default_for(options.layers).ok_or(RouteError::Layers {
            router,
            layers: options.layers,
            supported: "2 (HV, VH) or 3 (HVH, VHV)",
        })?,
    };
    if model.layers() != options.layers {
        return Err(RouteError::Layers {
            router,
            layers: options.layers,
            supported: if model.layers() == 2 {
                "2 for HV and VH"
            } else {
                "3 for HVH and VHV"
            },
        });
    }
    Ok(model)
}

/// The greedy (Rivest–Fiduccia) router alone: one left-to-right sweep per
/// start width and knob setting ([`greedy`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyRouter;

impl ChannelRouter for GreedyRouter {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn route(
        &self,
        problem: &ChannelProblem,
        options: &RouteOptions,
    ) -> Result<ChannelSolution, RouteError> {
        let model = model_for(self.name(), options)?;
        if model == LayerModel::Vhv {
            return Err(RouteError::Layers {
                router: self.name(),
                layers: options.layers,
                supported: "2 (HV, VH) or 3 (HVH)",
            });
        }
        let lower = lower_bound(problem, model);
        match greedy::best(problem, model, lower) {
            Some(sw) => Ok(finish(problem, model, greedy::draw(problem, model, &sw))),
            None => Err(RouteError::Unroutable(format!(
                "the greedy router left a net split at the right end of {} at every start width tried",
                problem.name()
            ))),
        }
    }
}

/// One greedy sweep with the given knobs, drawn and cleaned up; `None`
/// when a net stays split at the right end (or for VHV, which the sweep
/// does not route).
pub fn greedy_solution(
    problem: &ChannelProblem,
    model: LayerModel,
    params: greedy::Params,
) -> Option<ChannelSolution> {
    let sw = greedy::sweep(problem, model, params)?;
    Some(finish(problem, model, greedy::draw(problem, model, &sw)))
}

/// `ceil(d / H)`, at least 1.
fn lower_bound(problem: &ChannelProblem, model: LayerModel) -> i64 {
    let d = density(problem) as i64;
    let h = model.h_layers().len() as i64;
    ((d + h - 1) / h).max(1)
}

/// A trunk piece: a net's span cut at its pin columns (doglegs happen at
/// pin columns, where the net has a vertical anyway).
#[derive(Clone, Copy, Debug)]
pub struct Item {
    pub net: u32,
    pub lo: i64,
    pub hi: i64,
}

impl Item {
    /// The columns of the net's pins inside the piece, ascending, each once
    /// (a column may hold a top and a bottom pin of the net).
    pub fn pin_columns<'a>(&self, problem: &'a ChannelProblem) -> impl Iterator<Item = i64> + 'a {
        let pins = &problem.net(NetId(self.net)).pins;
        let from = pins.partition_point(|p| (p.column as i64) < self.lo);
        let hi = self.hi;
        let mut last = None;
        pins[from..]
            .iter()
            .map(|pin| pin.column as i64)
            .take_while(move |&x| x <= hi)
            .filter(move |&x| last.replace(x) != Some(x))
    }
}

/// The trunk pieces of every net that needs a track, nets in id order.
fn items_of(problem: &ChannelProblem, doglegs: bool) -> Vec<Item> {
    let mut items = Vec::new();
    for id in problem.net_ids() {
        let net = problem.net(id);
        if !net.needs_track(problem.columns()) {
            continue;
        }
        let (lo, hi) = net.span(problem.columns());
        if !doglegs {
            items.push(Item { net: id.0, lo, hi });
            continue;
        }
        for w in net.breakpoints(problem.columns()).windows(2) {
            items.push(Item {
                net: id.0,
                lo: w[0],
                hi: w[1],
            });
        }
    }
    items
}

/// Route a channel in one layer model, with the default effort.
pub fn route_model(
    problem: &ChannelProblem,
    model: LayerModel,
    observer: &mut dyn FnMut(RouteEvent),
) -> Result<ChannelSolution, RouteError> {
    route_borrowing(problem, model, None, Effort::default(), observer)
}

/// Route a channel in one layer model, with the free space of a borrowed
/// layer (numbered `model.layers() + 1` in the result) for repairs.
pub fn route_borrowing(
    problem: &ChannelProblem,
    model: LayerModel,
    borrowed: Option<&Borrowed>,
    effort: Effort,
    observer: &mut dyn FnMut(RouteEvent),
) -> Result<ChannelSolution, RouteError> {
    let d = density(problem) as i64;
    let h = model.h_layers();
    let start = (d + h.len() as i64 - 1) / h.len() as i64;
    let limit = start.max(1) + problem.nets().len() as i64 + 2;
    let made = Assignments::new(problem, model, effort);
    let preferred = model.preferred();
    // The reserved-layer router from the lower bound up, and from a few rows
    // above it, row by row, the negotiated-congestion fallback too; the
    // greedy sweep bounds the search: at its width the routing with fewer
    // vias (then less wire) wins, and when the others fail up to it, it is
    // the answer. Its width is learnt row by row (`best_within`): on a long
    // channel its sweeps then give up early instead of running to the end.
    let lower = start.max(1);
    let greedy = |sw: &greedy::Sweep| finish(problem, model, greedy::draw(problem, model, sw));
    // Past `limit` only a greedy width beyond it keeps the search going.
    let mut beyond: Option<Option<greedy::Sweep>> = None;
    let mut rows = start;
    loop {
        if rows >= limit {
            let full = beyond.get_or_insert_with(|| greedy::best(problem, model, lower));
            match full {
                _ if rows == limit => {}
                Some(sw) if sw.rows >= rows => {}
                Some(sw) => return Ok(greedy(sw)),
                None => {
                    return Err(RouteError::Unroutable(format!(
                        "the yacr router found no {} routing of {} within {limit} tracks",
                        model.name(),
                        problem.name()
                    )))
                }
            }
        }
        observer(RouteEvent::Trying {
            width: rows as u32,
            method: "reserved layers",
        });
        let extra = borrowed
            .filter(|b| rows >= b.from_width as i64)
            .and_then(|b| (b.occupied)(rows as u32));
        // Besides, the greedy sweep when it needs no more than `rows` tracks:
        // then exactly `rows`, as every narrower width ended the search
        // before.
        observer(RouteEvent::Trying {
            width: rows as u32,
            method: "greedy sweep",
        });
        let (mut found, other, within) =
            reserved(problem, model, rows, &made, extra.as_deref(), || {
                greedy::best_within(problem, model, lower, rows)
            });
        // Whether the greedy sweep needs more than `rows` tracks, as the
        // fallback asks (past `limit`, whether it routes at all).
        let greedy_wider =
            within.is_none() && (rows < limit || beyond.as_ref().is_some_and(|f| f.is_some()));
        if found.is_none() && rows >= start + FALLBACK_AFTER && greedy_wider {
            observer(RouteEvent::Trying {
                width: rows as u32,
                method: "negotiated congestion",
            });
            found = negotiated::route(problem, rows, &preferred);
        }
        if let Some(grid) = found {
            let mut ours = finish(problem, model, grid);
            // The other variant's routing, when the effort asked for it.
            if let Some(g) = other {
                let alt = finish(problem, model, g);
                if quality(&alt) < quality(&ours) {
                    ours = alt;
                }
            }
            return Ok(match within.filter(|sw| sw.rows == ours.width as i64) {
                Some(sw) => {
                    let g = greedy(&sw);
                    if quality(&g) < quality(&ours) {
                        g
                    } else {
                        ours
                    }
                }
                None => ours,
            });
        }
        if let Some(sw) = within {
            return Ok(greedy(&sw));
        }
        rows += 1;
    }
}

/// How a routing of a given width ranks: fewer vias, then less wire.
fn quality(s: &ChannelSolution) -> (u64, u64) {
    (s.via_count(), s.net_length())
}

/// Rows above the lower bound the reserved-layer router gets alone before
/// the fallback joins in.
const FALLBACK_AFTER: i64 = 2;

/// The trunk-piece variants and their slot assignments, each assignment made
/// once per (variant, width) by whichever candidate needs it first: the
/// candidates that open an empty row at width `W` reuse the dogleg variant's
/// assignment at `W - 1`, which the width before made already.
struct Assignments<'a> {
    problem: &'a ChannelProblem,
    h: Vec<u32>,
    variants: Vec<Vec<Item>>,
    /// The constraints among each variant's pieces, made at its first
    /// assignment.
    constraints: Vec<std::sync::OnceLock<PieceConstraints>>,
    /// The set-up order of each variant, made at its first attempt.
    orders: Vec<std::sync::OnceLock<Order>>,
    /// Where each variant failed, by width: `(variant, rows, column)`.
    failed: std::sync::Mutex<Vec<(usize, i64, i64)>>,
    /// The spares of ended attempts' grids.
    spares: SparePool,
    made: std::sync::Mutex<Vec<((usize, i64), SlotCell)>>,
    effort: Effort,
}

/// An assignment (`None`: the sweep ran out of slots), made once by
/// whichever candidate needs it first.
type SlotCell = std::sync::Arc<std::sync::OnceLock<Option<Vec<Slot>>>>;

impl<'a> Assignments<'a> {
    fn new(problem: &'a ChannelProblem, model: LayerModel, effort: Effort) -> Self {
        Assignments {
            problem,
            h: model.h_layers(),
            variants: vec![items_of(problem, true), items_of(problem, false)],
            constraints: (0..2).map(|_| std::sync::OnceLock::new()).collect(),
            orders: (0..2).map(|_| std::sync::OnceLock::new()).collect(),
            made: std::sync::Mutex::new(Vec::new()),
            failed: std::sync::Mutex::new(Vec::new()),
            spares: SparePool::default(),
            effort,
        }
    }

    /// How many jittered starts a width of `rows` rows gets once its
    /// standard candidates fail: as asked, or as many attempts of its size
    /// as the level's budget covers ([`START_BUDGET`], four times that when
    /// thorough), at most [`MAX_STARTS`] (four times that when thorough).
    fn starts(&self, rows: i64) -> usize {
        match (self.effort.starts, self.effort.level) {
            (Some(n), _) => n as usize,
            (None, EffortLevel::Fast) => 0,
            (None, level) => {
                let scale = if level == EffortLevel::Thorough {
                    THOROUGH
                } else {
                    1
                };
                (scale * START_BUDGET / self.cells(rows)).min(scale * MAX_STARTS) as usize
            }
        }
    }

    /// `base` on variant `k`'s pieces in the given slots.
    fn candidate<'b>(&'b self, base: &Candidate<'b>, k: usize, slots: &'b [Slot]) -> Candidate<'b> {
        Candidate {
            items: &self.variants[k],
            order: self.order(k),
            slots,
            ..*base
        }
    }

    /// Grid cells (columns times rows) of a width.
    fn cells(&self, rows: i64) -> i64 {
        (self.problem.columns() as i64 * rows).max(1)
    }

    /// Whether a width that one piece variant routes also gets the other
    /// variant's attempt, to keep the routing with fewer vias: when
    /// thorough, within its budget of cells.
    fn compares_variants(&self, rows: i64) -> bool {
        self.effort.level == EffortLevel::Thorough && self.cells(rows) <= THOROUGH * START_BUDGET
    }

    /// The assignment of jittered start `i`: the whole-net variant on even
    /// starts, the dogleg variant on odd ones, each on its own random
    /// stream of the effort's seed.
    fn jittered(&self, i: usize, rows: i64) -> (usize, Option<Vec<Slot>>) {
        let k = if i % 2 == 0 { WHOLE } else { DOGLEG };
        (
            k,
            self.make(k, rows, Some((self.effort.seed, (i / 2) as u64))),
        )
    }

    /// Where variant `k` failed at `rows` rows (a column worth probing).
    fn failed_at(&self, k: usize, rows: i64) -> Option<i64> {
        let failed = self
            .failed
            .lock()
            .expect("no candidate panics holding the list");
        failed.iter().find(|f| (f.0, f.1) == (k, rows)).map(|f| f.2)
    }

    /// Note where variant `k`'s attempt at `rows` rows failed, if a probe
    /// there is worth it (past the first RESTART_REACH columns).
    fn failed(&self, k: usize, rows: i64, failure: Failure) {
        if let Some(x) = failure.filter(|&x| x > RESTART_REACH) {
            self.fail(k, rows, x);
        }
    }

    /// Whether candidate `c` of variant `k` at `rows` rows fails its probe
    /// where the variant failed one row narrower (noted as a failure there
    /// again). At a width that failed, every candidate ran to its end, so
    /// what was noted does not depend on timing.
    fn fails_probe(&self, c: &Candidate, k: usize, rows: i64) -> bool {
        let Some(x) = self.failed_at(k, rows - 1) else {
            return false;
        };
        let fails = !c.probe(x);
        if fails {
            self.fail(k, rows, x);
        }
        fails
    }

    /// Note that variant `k` failed at column `x` at `rows` rows.
    fn fail(&self, k: usize, rows: i64, x: i64) {
        let mut failed = self
            .failed
            .lock()
            .expect("no candidate panics holding the list");
        failed.push((k, rows, x));
    }

    /// The set-up order of variant `k`.
    fn order(&self, k: usize) -> &Order {
        self.orders[k].get_or_init(|| Order::new(self.problem, &self.variants[k]))
    }

    /// Where the assignment of variant `k` in `rows` rows is kept, made or
    /// not.
    fn cell(&self, k: usize, rows: i64) -> SlotCell {
        let mut made = self
            .made
            .lock()
            .expect("no candidate panics holding the list");
        // Only this width and the one below are asked for again.
        made.retain(|&((_, r), _)| r + 1 >= rows);
        match made.iter().find(|(key, _)| *key == (k, rows)) {
            Some((_, cell)) => cell.clone(),
            None => {
                let cell = SlotCell::default();
                made.push(((k, rows), cell.clone()));
                cell
            }
        }
    }

    /// The improved assignment kept in `cell` (of variant `k` in `rows`
    /// rows), made now if nobody has; `None` when the sweep runs out of
    /// slots.
    fn fill<'c>(&self, cell: &'c SlotCell, k: usize, rows: i64) -> Option<&'c [Slot]> {
        cell.get_or_init(|| self.make(k, rows, None)).as_deref()
    }

    /// A new improved assignment of variant `k` in `rows` rows, jittered
    /// with the given seed and stream or not ([`assign_with`]).
    fn make(&self, k: usize, rows: i64, jitter: Option<(u64, u64)>) -> Option<Vec<Slot>> {
        let items = &self.variants[k];
        let cons = self.constraints[k].get_or_init(|| PieceConstraints::new(self.problem, items));
        let mut slots = assign_with(self.problem, items, cons, rows, &self.h, jitter)?;
        improve(self.problem, items, cons, &mut slots, rows, &self.h);
        Some(slots)
    }
}

/// The reserved-layer steps at one width: the whole-net variant up to its
/// [`QUICK_RESTARTS`] restarts, the dogleg variant, the whole-net variant
/// on from there, then the dogleg variant with an empty row opened at each
/// of [`open_rows`] in turn, then the jittered starts
/// ([`Assignments::starts`], [`Assignments::jittered`]). The first
/// of these candidates in that order that routes is the answer; with spare
/// cores, later candidates are tried while earlier ones run
/// ([`crate::parallel::first_success`]), with the same answer. When one
/// of the two piece variants routes and the effort compares them
/// ([`Assignments::compares_variants`]), the other variant's routing (if
/// it routes) comes second.
///
/// `also()` runs besides, on a core the candidates leave idle
/// ([`crate::parallel::first_success_also`]).
fn reserved<U: Send>(
    problem: &ChannelProblem,
    model: LayerModel,
    rows: i64,
    made: &Assignments,
    borrowed: Option<&[Point]>,
    also: impl FnOnce() -> U + Send,
) -> (Option<Grid>, Option<Grid>, U) {
    let h = &made.h;
    let variants = &made.variants;
    // Opening a row into an assignment one row narrower needs that
    // assignment to exist: at least the lower bound of rows.
    let d = density(problem) as i64;
    let open = rows > (d + h.len() as i64 - 1) / h.len() as i64 && rows >= 2;
    let places = if open { open_rows(rows) } else { Vec::new() };
    // The whole-net variant up to its first restarts, the dogleg variant,
    // the whole-net variant on from there, the empty rows.
    let fixed = 3 + (!places.is_empty()) as usize;
    let candidates = fixed + made.starts(rows);
    let whole = made.cell(WHOLE, rows);
    let paused: Handoff<Paused<'_>> = Handoff::default();
    let base = Candidate {
        problem,
        model,
        rows,
        items: &[],
        order: made.order(DOGLEG),
        slots: &[],
        borrowed,
        spares: Some(&made.spares),
    };
    let run = |k: usize, abandoned: &dyn Fn() -> bool| {
        if k == 0 || k == 2 {
            // The whole-net variant. A routing made with few restarts (up
            // to QUICK_RESTARTS) comes before the dogleg variant's: it has
            // fewer vias as a rule. The attempt then pauses, and goes on
            // after the dogleg variant. Candidate 0 hands on nothing unless
            // it pauses, whatever way it returns.
            let _nothing_unless_given = (k == 0).then(|| paused.guard());
            let c = made.candidate(&base, WHOLE, made.fill(&whole, WHOLE, rows)?);
            if k == 2 {
                return match c.resume(paused.take()?, abandoned) {
                    Ok(g) => Some(g),
                    Err(failure) => {
                        made.failed(WHOLE, rows, failure);
                        None
                    }
                };
            }
            if made.fails_probe(&c, WHOLE, rows) {
                return None;
            }
            return match c.attempt_until(abandoned, QUICK_RESTARTS) {
                Ok(g) => Some(g),
                Err(Stop::Paused(p)) => {
                    paused.give(Some(p));
                    None
                }
                Err(Stop::Failed(failure)) => {
                    made.failed(WHOLE, rows, failure);
                    None
                }
            };
        }
        if k == 1 {
            let cell = made.cell(DOGLEG, rows);
            let c = made.candidate(&base, DOGLEG, made.fill(&cell, DOGLEG, rows)?);
            // A variant that failed at a column one row narrower is first
            // probed there.
            if made.fails_probe(&c, DOGLEG, rows) {
                return None;
            }
            return match c.attempt(abandoned) {
                Ok(g) => Some(g),
                Err(failure) => {
                    made.failed(DOGLEG, rows, failure);
                    None
                }
            };
        }
        if k >= fixed {
            // A jittered start: a variant on an assignment of its own.
            let (v, slots) = made.jittered(k - fixed, rows);
            return made.candidate(&base, v, &slots?).attempt(abandoned).ok();
        }
        // The empty-row candidates in turn. Each first probes the columns
        // where the ones before it failed: candidates that differ only in
        // where the empty row is tend to fail at the same conflict.
        let items = &variants[DOGLEG];
        let cell = made.cell(DOGLEG, rows - 1);
        let slots = made.fill(&cell, DOGLEG, rows - 1)?;
        let mut failed_at: Vec<i64> = Vec::new();
        for &f in &places {
            let shifted: Vec<Slot> = slots
                .iter()
                .map(|s| Slot {
                    y: if s.y >= f { s.y + 1 } else { s.y },
                    ..*s
                })
                .collect();
            let c = Candidate {
                items,
                slots: &shifted,
                ..base
            };
            if failed_at.iter().any(|&x| !c.probe(x)) {
                continue;
            }
            match c.attempt(abandoned) {
                Ok(g) => return Some(g),
                Err(Some(x)) if x > RESTART_REACH => {
                    if failed_at.iter().all(|&y| (x - y).abs() > PROBE_APART) {
                        failed_at.push(x);
                    }
                }
                Err(_) if abandoned() => return None,
                Err(_) => {}
            }
        }
        None
    };
    let (won, u) = crate::parallel::first_success_also(
        candidates,
        |k, abandoned: &dyn Fn() -> bool| run(k, abandoned).map(|g| (k, g)),
        also,
    );
    let Some((k, g)) = won else {
        return (None, None, u);
    };
    // The other piece variant in full when one of them routed and the
    // effort compares them (candidate 1 is the dogleg variant, 0 and 2 the
    // whole-net one).
    let other = if k <= 2 && made.compares_variants(rows) {
        let v = if k == 1 { WHOLE } else { DOGLEG };
        let cell = made.cell(v, rows);
        made.fill(&cell, v, rows)
            .and_then(|slots| made.candidate(&base, v, slots).attempt(&|| false).ok())
    } else {
        None
    };
    (Some(g), other, u)
}

/// The places of the dogleg and the whole-net variant in
/// [`Assignments::variants`].
const DOGLEG: usize = 0;
const WHOLE: usize = 1;

/// Restarts a whole-net attempt may make and still come before the dogleg
/// variant.
const QUICK_RESTARTS: usize = 1;

/// Failures of empty-row candidates closer than this to a column already
/// probed add no probe of their own.
const PROBE_APART: i64 = 64;

/// The places (rows `1 ..= rows`) where an empty row is opened into the
/// assignment one row narrower: every place in a channel of at most
/// [`OPEN_ROWS`] rows, else that many spread evenly from the bottom row to
/// the top one, bottom first. Each place costs a whole attempt, and a
/// width that fails tries them all, so their number is bounded: with every
/// place, a 3,000-column channel of 234 rows tried 236 candidates at its
/// second width (two minutes).
fn open_rows(rows: i64) -> Vec<i64> {
    if rows <= OPEN_ROWS {
        return (1..=rows).collect();
    }
    let mut places: Vec<i64> = (0..OPEN_ROWS)
        .map(|i| 1 + (i * (rows - 1) + (OPEN_ROWS - 1) / 2) / (OPEN_ROWS - 1))
        .collect();
    places.dedup();
    places
}

/// How many places an empty row is opened at, at most, per width.
const OPEN_ROWS: i64 = 8;

/// The grid cells (columns times rows) the jittered starts of one width may
/// cover together by default: small channels get [`MAX_STARTS`], long
/// ones none (each start is a whole attempt).
const START_BUDGET: i64 = 200_000;

/// Jittered starts per width by default, at most.
const MAX_STARTS: i64 = 32;

/// How many times the default budget and starts a thorough effort gets.
const THOROUGH: i64 = 4;

/// The vertical a net needs in a column: the rows it must join there.
#[derive(Clone, Debug)]
struct Riser {
    net: u32,
    layer: u32,
    lo: i64,
    hi: i64,
    /// Rows and layers of the net's trunk pieces ending in this column.
    joints: Vec<(i64, u32)>,
}

/// One candidate routing at a fixed width: a trunk-piece variant and its
/// assignment, and the borrowed layer's used points (blocked on the layer
/// above the model's).
struct Candidate<'a> {
    problem: &'a ChannelProblem,
    model: LayerModel,
    rows: i64,
    items: &'a [Item],
    order: &'a Order,
    slots: &'a [Slot],
    borrowed: Option<&'a [Point]>,
    /// Where an ended attempt leaves its grid's spare for the next.
    spares: Option<&'a SparePool>,
}

/// Why an attempt failed: `Some(x)` when the conflict in column `x` could
/// not be repaired (and no restart was left), `None` otherwise (abandoned,
/// a blocked set-up, the last check).
type Failure = Option<i64>;

/// The columns a probe works on: the conflicts in `from ..= to` are
/// repaired, those left of `from` are left alone, and nothing right of
/// what the last repair reads is drawn.
#[derive(Clone, Copy, Debug)]
struct Stretch {
    from: i64,
    to: i64,
}

impl<'a> Candidate<'a> {
    /// One try: the grid when every net is connected. It gives up as soon
    /// as it sees `abandoned()`.
    ///
    /// The pins, trunks and straight risers are drawn column by column just
    /// ahead of the repairs ([`Setup`]), so an attempt that fails early in
    /// a long channel has not drawn the rest of it; the grid a repair sees
    /// is the one a full set-up would have given (see [`Setup::ahead_of`]).
    fn attempt(&self, abandoned: &dyn Fn() -> bool) -> Result<Grid, Failure> {
        self.run(abandoned, true, None)
    }

    /// Whether the repairs of the conflicts within [`RESTART_REACH`]
    /// columns left of column `x` and in `x` itself succeed, on the set-up
    /// alone around them (no repair further left): a quick test, at a
    /// column where a like candidate failed, of whether this one fails
    /// there too. The repairs left out further left would only have taken
    /// space, so a candidate that fails its probe would nearly always fail
    /// the whole attempt.
    fn probe(&self, x: i64) -> bool {
        let stretch = Stretch {
            from: x - RESTART_REACH,
            to: x + RESTART_REACH,
        };
        match self.run(&|| false, true, Some(stretch)) {
            Ok(g) => {
                self.give_back(g);
                true
            }
            Err(_) => false,
        }
    }

    /// [`Candidate::attempt`], drawing lazily or (`lazy` false) the whole
    /// channel first; on a stretch only, when one is given (then the grid
    /// is not complete).
    fn run(
        &self,
        abandoned: &dyn Fn() -> bool,
        lazy: bool,
        stretch: Option<Stretch>,
    ) -> Result<Grid, Failure> {
        unpaused(self.run_until(abandoned, lazy, stretch, None))
    }

    /// An attempt that pauses before its `restarts + 1`-th restart: the
    /// grid if it routes before; else why it failed, or where it stands.
    fn attempt_until(
        &self,
        abandoned: &dyn Fn() -> bool,
        restarts: usize,
    ) -> Result<Grid, Stop<'a>> {
        self.run_until(abandoned, true, None, Some(restarts))
    }

    /// Go on with an attempt that [`Candidate::attempt_until`] paused: the
    /// whole attempt's answer.
    fn resume(&self, paused: Paused<'a>, abandoned: &dyn Fn() -> bool) -> Result<Grid, Failure> {
        let (g, progress) = *paused;
        unpaused(self.go_on_with(g, progress, abandoned, None, None))
    }

    /// [`Candidate::run`], pausing as [`Candidate::go_on`] does with
    /// `pause_at`.
    fn run_until(
        &self,
        abandoned: &dyn Fn() -> bool,
        lazy: bool,
        stretch: Option<Stretch>,
        pause_at: Option<usize>,
    ) -> Result<Grid, Stop<'a>> {
        let mut g = self.new_grid();
        match self.start(&mut g, lazy, stretch) {
            Ok(progress) => self.go_on_with(g, progress, abandoned, stretch, pause_at),
            Err(failure) => {
                self.give_back(g);
                Err(Stop::Failed(failure))
            }
        }
    }

    /// [`Candidate::go_on`] with the grid and the attempt's state handed
    /// over: the grid when it routes, the two back when it pauses; a failed
    /// attempt's grid goes back to the spares.
    fn go_on_with(
        &self,
        mut g: Grid,
        mut progress: Progress<'a>,
        abandoned: &dyn Fn() -> bool,
        stretch: Option<Stretch>,
        pause_at: Option<usize>,
    ) -> Result<Grid, Stop<'a>> {
        match self.go_on(&mut g, &mut progress, abandoned, stretch, pause_at) {
            Step::Routed => Ok(g),
            Step::Paused => Err(Stop::Paused(Box::new((g, progress)))),
            Step::Failed(failure) => {
                self.give_back(g);
                Err(Stop::Failed(failure))
            }
        }
    }

    /// An empty grid for an attempt, made from a spare when there is one.
    fn new_grid(&self) -> Grid {
        Grid::reusing(
            self.problem.columns(),
            self.rows as u32,
            self.model.layers() + self.borrowed.is_some() as u32,
            self.problem.nets().len(),
            self.spares.map(SparePool::take).unwrap_or_default(),
        )
    }

    /// Leave an ended attempt's grid's spare for the next attempt.
    fn give_back(&self, g: Grid) {
        if let Some(pool) = self.spares {
            pool.give(g);
        }
    }

    /// The set-up of an attempt on a new grid (the borrowed layer's points
    /// blocked), nothing repaired yet.
    fn start(
        &self,
        g: &mut Grid,
        lazy: bool,
        stretch: Option<Stretch>,
    ) -> Result<Progress<'a>, Failure> {
        if let Some(points) = self.borrowed {
            for p in points {
                let c = Cell::new(p.x, p.y, g.layers);
                if g.contains(c) && !g.is_blocked(c) {
                    g.block(c);
                }
            }
        }
        let mut setup = Setup::new(
            self.problem,
            self.model,
            g,
            self.items,
            self.slots,
            self.order,
        );
        if let Some(s) = stretch {
            setup.start_at(s.from);
        }
        if !lazy && !setup.draw(g, i64::MAX) {
            return Err(None);
        }
        Ok(Progress {
            setup,
            order: Vec::new(),
            restarts: None,
            made: 0,
            whole: g.mark(),
            marks: Vec::new(),
            p: 0,
            pending: None,
        })
    }

    /// Repair the conflicts in order from where `progress` stands; when
    /// one fails, undo the repairs made since the first earlier repair
    /// within RESTART_REACH columns of it (on a channel narrower than
    /// that, all of them) and go on from there with the failed one first:
    /// those repairs may have used its space. Repairs before that stay. A
    /// conflict that fails with nothing before it to undo, or after the
    /// restart budget (REPAIR_RESTARTS) of its stretch of RESTART_REACH
    /// columns is spent, fails the width. With `pause_at`, stop before the
    /// restart that would be the `pause_at + 1`-th of the attempt.
    fn go_on(
        &self,
        g: &mut Grid,
        progress: &mut Progress<'_>,
        abandoned: &dyn Fn() -> bool,
        stretch: Option<Stretch>,
        pause_at: Option<usize>,
    ) -> Step {
        let Candidate {
            problem,
            model,
            borrowed,
            ..
        } = *self;
        let mut preferred = model.preferred();
        if borrowed.is_some() {
            preferred.push(Preferred::Any);
        }
        if let Some((x, j)) = progress.pending.take() {
            progress.restart(g, x, j);
        }
        let regions = 1 + problem.columns() as usize / RESTART_REACH as usize;
        // The last column whose conflicts are repaired.
        let last = stretch.map_or(i64::MAX, |s| s.to);
        loop {
            if abandoned() {
                return Step::Failed(None);
            }
            let Progress {
                setup,
                order,
                restarts,
                made,
                marks,
                p,
                pending,
                ..
            } = &mut *progress;
            // The next conflict in order, with the channel drawn far enough
            // ahead of it.
            order.extend(order.len()..setup.conflicts.len());
            let upto = match order.get(*p) {
                Some(&k) if setup.conflicts[k].0 > last => break,
                Some(&k) => setup.ahead_of(setup.conflicts[k].0),
                None if setup.done() || setup.drawn() > last => break,
                None => setup.drawn() + SETUP_CHUNK,
            };
            if !setup.draw(g, upto) {
                return Step::Failed(None);
            }
            order.extend(order.len()..setup.conflicts.len());
            if *p == order.len() {
                continue;
            }
            marks.truncate(*p);
            marks.push(g.mark());
            let (x, lower, upper) = &setup.conflicts[order[*p]];
            let x = *x;
            if x > last {
                break;
            }
            if repair(
                problem,
                g,
                &preferred,
                model.layers(),
                x,
                lower,
                upper,
                abandoned,
            ) {
                *p += 1;
                continue;
            }
            if abandoned() {
                // The repair may have stopped short.
                return Step::Failed(None);
            }
            let j = order[..*p]
                .iter()
                .position(|&q| (setup.conflicts[q].0 - x).abs() <= RESTART_REACH)
                .unwrap_or(*p);
            if restarts.is_none() {
                // Made at the first failure: the budget is capped by the
                // number of conflicts in the whole channel.
                if stretch.is_none()
                    && setup.conflicts.len() < REPAIR_RESTARTS
                    && !setup.draw(g, i64::MAX)
                {
                    return Step::Failed(None);
                }
                *restarts = Some(vec![REPAIR_RESTARTS.min(setup.conflicts.len()); regions]);
            }
            let left = restarts.as_ref().expect("made above")[(x / RESTART_REACH) as usize];
            if j == *p || left == 0 {
                return Step::Failed(Some(x));
            }
            if pause_at == Some(*made) {
                *pending = Some((x, j));
                return Step::Paused;
            }
            progress.restart(g, x, j);
        }
        g.commit_trial(progress.whole);
        if stretch.is_some() || complete(problem, g) {
            Step::Routed
        } else {
            Step::Failed(None)
        }
    }
}

/// Where an attempt stands: its set-up, the order of its conflicts, the
/// repairs made (each from a mark) and the restarts left and made.
struct Progress<'a> {
    setup: Setup<'a>,
    order: Vec<usize>,
    restarts: Option<Vec<usize>>,
    /// Restarts made so far.
    made: usize,
    whole: Mark,
    marks: Vec<Mark>,
    p: usize,
    /// The restart a pause put off: the failed conflict's column and where
    /// in the order it moves to.
    pending: Option<(i64, usize)>,
}

impl Progress<'_> {
    /// The restart [`Candidate::go_on`] makes when the conflict at `p`
    /// (column `x`) fails: undo the repairs from `j` on and move the
    /// conflict to `j`.
    fn restart(&mut self, g: &mut Grid, x: i64, j: usize) {
        let restarts = self.restarts.as_mut().expect("made at the first failure");
        restarts[(x / RESTART_REACH) as usize] -= 1;
        self.made += 1;
        g.rollback(self.marks[j]);
        let k = self.order.remove(self.p);
        self.order.insert(j, k);
        self.p = j;
    }
}

/// What a stretch of an attempt's repairs came to.
enum Step {
    Routed,
    Failed(Failure),
    Paused,
}

/// A paused attempt: its grid and where it stands.
type Paused<'a> = Box<(Grid, Progress<'a>)>;

/// Why [`Candidate::attempt_until`] gave no grid.
enum Stop<'a> {
    Failed(Failure),
    Paused(Paused<'a>),
}

/// The answer of an attempt that was asked for no pause.
fn unpaused(r: Result<Grid, Stop<'_>>) -> Result<Grid, Failure> {
    match r {
        Ok(g) => Ok(g),
        Err(Stop::Failed(failure)) => Err(failure),
        Err(Stop::Paused(_)) => unreachable!("no pause was asked for"),
    }
}

/// How many columns right of its conflict a repair may read or write: its
/// widest search window and a margin.
const SEEN_BEYOND: i64 = MAX_REACH + 4;

/// Columns the set-up draws at a time when no conflict is waiting.
const SETUP_CHUNK: i64 = 1024;

/// The lazy set-up of one attempt: pins, trunk pieces and the risers of the
/// columns without a conflict, drawn from left to right up to three
/// frontiers (pins, trunks, risers) that keep each net's cells in the order a
/// full set-up would claim them: all its pins, then all its trunk pieces,
/// then all its risers.
struct Setup<'a> {
    problem: &'a ChannelProblem,
    items: &'a [Item],
    slots: &'a [Slot],
    top: i64,
    v_bottom: u32,
    v_top: u32,
    /// Item indices by left end (then index), and how far nets reach.
    order: &'a Order,
    /// Columns `< pins` have their pins; items `by_lo[..trunks]` are drawn;
    /// columns `< risers` have their risers (or their conflict listed).
    pins: i64,
    trunks: usize,
    risers: i64,
    /// Net, row and layer of the trunk pieces ending in each column.
    ends: Vec<Vec<(u32, i64, u32)>>,
    /// Trunk pieces that end left of this column are not drawn.
    skip_before: i64,
    /// Conflicts left of this column are neither listed nor drawn.
    repair_from: i64,
    /// Columns where two risers would overlap on one layer, in column order.
    conflicts: Vec<(i64, Riser, Riser)>,
}

/// What every set-up of one trunk-piece variant orders alike.
struct Order {
    /// Item indices by left end (then index).
    by_lo: Vec<usize>,
    /// `reach[c + 1]`: one past the last column of every net that starts
    /// left of column `c`, and at least `c`.
    reach: Vec<i64>,
}

impl Order {
    fn new(problem: &ChannelProblem, items: &[Item]) -> Self {
        let columns = problem.columns() as i64;
        let mut by_lo: Vec<usize> = (0..items.len()).collect();
        by_lo.sort_by_key(|&k| (items[k].lo, k));
        // Spans run from -1 (left side) to `columns` (right side).
        let mut reach: Vec<i64> = (-1..=columns + 1).collect();
        for id in problem.net_ids() {
            let (lo, hi) = problem.net(id).span(problem.columns());
            if lo <= hi {
                let i = (lo + 2) as usize;
                reach[i] = reach[i].max(hi + 1);
            }
        }
        for i in 1..reach.len() {
            reach[i] = reach[i].max(reach[i - 1]);
        }
        Order { by_lo, reach }
    }
}

impl<'a> Setup<'a> {
    fn new(
        problem: &'a ChannelProblem,
        model: LayerModel,
        g: &Grid,
        items: &'a [Item],
        slots: &'a [Slot],
        order: &'a Order,
    ) -> Self {
        let columns = problem.columns() as i64;
        let v = model.v_layers();
        Setup {
            problem,
            items,
            slots,
            top: g.top_row(),
            v_bottom: v[0],
            v_top: *v.last().expect("a model has a V layer"),
            order,
            pins: 0,
            trunks: 0,
            risers: 0,
            ends: vec![Vec::new(); columns as usize],
            skip_before: 0,
            repair_from: 0,
            conflicts: Vec::new(),
        }
    }

    fn columns(&self) -> i64 {
        self.problem.columns() as i64
    }

    /// One past the last column of every net that starts left of `c`, and
    /// at least `c`.
    fn reach(&self, c: i64) -> i64 {
        let reach = &self.order.reach;
        let i = (c + 1).clamp(0, reach.len() as i64 - 1) as usize;
        reach[i].max(c)
    }

    /// Set up only what the repairs of the conflicts from column `from` on
    /// can see (columns from [`MAX_REACH`] and a margin left of it), and
    /// leave the conflicts left of `from` alone. Before anything is drawn.
    fn start_at(&mut self, from: i64) {
        debug_assert_eq!(self.drawn(), 0, "nothing drawn yet");
        let first = (from - SEEN_BEYOND).clamp(0, self.columns());
        self.pins = first;
        self.risers = first;
        self.skip_before = first;
        self.repair_from = from;
    }

    /// How far to draw before repairing a conflict in column `x`: a repair
    /// reads and writes the columns within [`MAX_REACH`] of `x` (columns up
    /// to [`SEEN_BEYOND`] past `x`, a margin for the searches' edges), and
    /// labels the components of the nets it meets there, so every net that
    /// starts in or left of those columns must be drawn whole.
    fn ahead_of(&self, x: i64) -> i64 {
        self.reach(x.saturating_add(SEEN_BEYOND + 1))
    }

    /// Columns `< drawn()` have their risers.
    fn drawn(&self) -> i64 {
        self.risers
    }

    fn done(&self) -> bool {
        self.risers >= self.columns()
    }

    /// Draw the risers of the columns `< upto` and whatever they need first,
    /// outside any open trial of the grid (the repairs so far touched only
    /// columns drawn before them, and nets drawn whole). False when a trunk
    /// or a riser meets a blocked point (the attempt fails).
    fn draw(&mut self, g: &mut Grid, upto: i64) -> bool {
        let columns = self.columns();
        let r = upto.min(columns);
        if r <= self.risers {
            return true;
        }
        let t = if r >= columns {
            i64::MAX
        } else {
            self.reach(r)
        };
        let pins = if t >= columns {
            columns
        } else {
            self.reach(t).min(columns)
        };
        g.unlogged(|g| self.draw_to(g, pins, t, r))
    }

    fn draw_to(&mut self, g: &mut Grid, pins: i64, trunks: i64, risers: i64) -> bool {
        let problem = self.problem;
        while self.pins < pins {
            let x = self.pins as usize;
            for (net, y) in [(problem.bottom()[x], 0), (problem.top()[x], self.top)] {
                if let Some(id) = net {
                    for l in 1..=g.layers {
                        g.claim(Cell::new(x as i64, y, l), id.0);
                    }
                }
            }
            self.pins += 1;
        }
        // Trunk pieces; pieces of one net touching on one slot merge.
        while let Some(&k) = self.order.by_lo.get(self.trunks) {
            let (item, slot) = (self.items[k], self.slots[k]);
            if item.lo >= trunks {
                break;
            }
            self.trunks += 1;
            if item.hi < self.skip_before {
                continue;
            }
            if !g.run(
                Cell::new(item.lo, slot.y, slot.layer),
                Cell::new(item.hi, slot.y, slot.layer),
                item.net,
            ) {
                return false;
            }
            // The riser of each pin column of the net inside the piece joins
            // it.
            for x in item.pin_columns(problem) {
                self.ends[x as usize].push((item.net, slot.y, slot.layer));
            }
        }
        // The risers of each column; two risers on one V layer that overlap
        // make the column a conflict to repair.
        while self.risers < risers {
            let x = self.risers;
            self.risers += 1;
            let top = self.top;
            let t = problem.top()[x as usize].map(|id| id.0);
            let b = problem.bottom()[x as usize].map(|id| id.0);
            let ends = &self.ends[x as usize];
            let riser = |net: u32, pin_rows: &[i64], layer: u32| {
                let joints: Vec<(i64, u32)> = ends
                    .iter()
                    .filter(|e| e.0 == net)
                    .map(|e| (e.1, e.2))
                    .collect();
                let ys = pin_rows.iter().copied().chain(joints.iter().map(|j| j.0));
                let lo = ys.clone().min().expect("a riser has a pin");
                let hi = ys.max().expect("a riser has a pin");
                Riser {
                    net,
                    layer,
                    lo,
                    hi,
                    joints,
                }
            };
            let risers: Vec<Riser> = match (t, b) {
                (Some(t), Some(b)) if t == b => vec![riser(t, &[0, top], self.v_bottom)],
                _ => {
                    let mut r = Vec::new();
                    if let Some(b) = b {
                        r.push(riser(b, &[0], self.v_bottom));
                    }
                    if let Some(t) = t {
                        r.push(riser(t, &[top], self.v_top));
                    }
                    r
                }
            };
            if risers.len() == 2
                && risers[0].layer == risers[1].layer
                && risers[1].lo <= risers[0].hi
            {
                if x >= self.repair_from {
                    let mut it = risers.into_iter();
                    let (lower, upper) = (it.next().unwrap(), it.next().unwrap());
                    self.conflicts.push((x, lower, upper));
                }
                continue;
            }
            for r in &risers {
                if !draw_riser(g, x, r) {
                    return false;
                }
            }
        }
        true
    }
}

/// Widest detour (columns either side) a rip-up search looks at.
const STEAL_REACH: i64 = 27;

/// Widest detour (columns either side) a repair searches.
const MAX_REACH: i64 = 243;

/// How many times the repairs of one attempt may start over (per
/// [`RESTART_REACH`] columns).
const REPAIR_RESTARTS: usize = 3;

/// When the repairs start over, those made before the first one within this
/// many columns of the failed one are kept (more than twice [`MAX_REACH`]; a
/// channel narrower than this always starts over from its first repair).
const RESTART_REACH: i64 = 600;

/// Every net in one piece and on its side exits (a last guard: repairs
/// work on components and must not have lost an exit).
fn complete(problem: &ChannelProblem, g: &mut Grid) -> bool {
    let pieces = g.count_all_components();
    problem.net_ids().all(|id| {
        let net = problem.net(id);
        let on_side = |x: i64| {
            (1..=g.layers).any(|l| (1..=g.width).any(|y| g.owner(Cell::new(x, y, l)) == id.0 + 1))
        };
        (!net.left || on_side(-1)) && (!net.right || on_side(g.columns)) && pieces[id.index()] == 1
    })
}

/// Draw a riser: a vertical on its layer and a via to each joint.
fn draw_riser(g: &mut Grid, x: i64, r: &Riser) -> bool {
    let free = (r.lo..=r.hi).all(|y| g.is_free_for(Cell::new(x, y, r.layer), r.net))
        && r.joints.iter().all(|&(y, l)| {
            (l.min(r.layer)..=l.max(r.layer)).all(|k| g.is_free_for(Cell::new(x, y, k), r.net))
        });
    if !free {
        return false;
    }
    if r.lo < r.hi {
        g.run(
            Cell::new(x, r.lo, r.layer),
            Cell::new(x, r.hi, r.layer),
            r.net,
        );
    }
    for &(y, l) in &r.joints {
        if l != r.layer {
            g.via(x, y, l, r.layer, r.net);
        }
    }
    true
}

/// Join every piece of a net into one component through free space,
/// searching near `x` first and widening.
fn connect_net(
    problem: &ChannelProblem,
    g: &mut Grid,
    preferred: &[Preferred],
    layers: u32,
    net: u32,
    x: i64,
) -> bool {
    connect_within(problem, g, preferred, layers, net, x, 0)
}

/// As [`connect_within`] on every layer of the grid.
fn connect_stealing(
    problem: &ChannelProblem,
    g: &mut Grid,
    preferred: &[Preferred],
    net: u32,
    x: i64,
    depth: u32,
) -> bool {
    let layers = g.layers;
    connect_within(problem, g, preferred, layers, net, x, depth)
}

/// As [`connect_net`], but with `depth > 0` a path may take other nets'
/// track cells at a price; each net that lost cells is then rejoined the
/// same way with `depth - 1`. Paths use layers `1 ..= layers`.
fn connect_within(
    problem: &ChannelProblem,
    g: &mut Grid,
    preferred: &[Preferred],
    layers: u32,
    net: u32,
    x: i64,
    depth: u32,
) -> bool {
    let info = problem.net(NetId(net));
    let limit = if depth > 0 { STEAL_REACH } else { MAX_REACH };
    let widest = widest_reach(limit);
    loop {
        let comps = g.label_components(net);
        // Pieces with no cell in the widest window are out of every
        // search's reach: they are other repairs' business (a long net's
        // pin at another conflict, or past the columns drawn so far), and
        // the attempt's last check finds any piece left over.
        let near = |c: &Vec<Cell>| c.iter().map(|k| (k.x - x).abs()).min().unwrap_or(i64::MAX);
        if comps.iter().filter(|c| near(c) <= widest).count() <= 1 {
            return true;
        }
        // Grow the component nearest to x.
        let (si, _) = comps
            .iter()
            .enumerate()
            .min_by_key(|(k, c)| (near(c), *k))
            .expect("two components");
        let sources: Vec<Cell> = comps[si].clone();
        let mut reach = 3i64;
        let mut checked = false;
        let found = loop {
            let search = Search {
                grid: g,
                net,
                preferred,
                costs: Costs::default(),
                window: (x.saturating_sub(reach), x.saturating_add(reach)),
                layers,
                left_side: info.left,
                right_side: info.right,
                steal: (depth > 0).then_some(STEAL_PRICE),
            };
            let window_bound = match search.run(&sources, |_, i| {
                g.owner_at(i) == net + 1 && g.component_at(i).is_some_and(|k| k != si)
            }) {
                Ok(path) => break Some(path),
                Err(e) => e.window_bound,
            };
            // Wider only when the window kept the search from something.
            if reach >= limit || !window_bound {
                break None;
            }
            // Most searches that get this far fail at every width: the
            // other pieces are walled in, while this one floods the open
            // space of ever wider windows. Flooding back from the other
            // pieces in the widest window decides those at once.
            if reach >= WALLED_FROM && !checked {
                checked = true;
                let wide = Search {
                    window: (x.saturating_sub(widest), x.saturating_add(widest)),
                    ..search
                };
                if walled_in(&wide, &comps, si) {
                    break None;
                }
            }
            reach *= 3;
        };
        match found {
            Some(path) => {
                let victims = commit(g, &path, net);
                for v in victims {
                    if !connect_within(problem, g, preferred, layers, v, x, depth.saturating_sub(1))
                    {
                        return false;
                    }
                }
            }
            None => return false,
        }
    }
}

/// The reach of the widest window [`connect_within`] searches when its
/// windows may grow up to `limit` (3, 9, 27, ... until `limit` is met).
fn widest_reach(limit: i64) -> i64 {
    let mut widest = 3i64;
    while widest < limit {
        widest *= 3;
    }
    widest
}

/// The window reach from which a failing search first checks whether the
/// other pieces are walled in ([`walled_in`]).
const WALLED_FROM: i64 = 3;

/// Cells a flood back from the other pieces may enter before giving up.
const WALLED_BUDGET: usize = 1024;

/// Whether the pieces of the search's net other than `comps[si]` surely
/// cannot reach it within the search's window (the widest
/// [`connect_within`] would search), by a flood back from them that gives
/// up after [`WALLED_BUDGET`] cells. Exact by the symmetry of the moves
/// ([`Search::reaches`]), so it is used only when every piece lies inside
/// the grid's columns and the search's layers.
fn walled_in(search: &Search, comps: &[Vec<Cell>], si: usize) -> bool {
    let g = search.grid;
    let inside = |c: &Cell| c.x >= 0 && c.x < g.columns && c.layer <= search.layers;
    if !comps.iter().flatten().all(inside) {
        return false;
    }
    let others = maze::other_pieces(comps, si);
    let mine = search.net + 1;
    let back = search.reaches(
        &others,
        |_, i| g.owner_at(i) == mine && g.component_at(i) == Some(si),
        WALLED_BUDGET,
    );
    back == Some(false)
}

/// Repair a column where the top net's riser would cross the bottom net's:
/// keep one straight and join the other through the maze, either way round;
/// then both through the maze. These maze steps use the model's own `own`
/// layers first and then a borrowed layer above them, if the grid has one
/// (the thesis's search of B-layer free space before a track is added).
#[allow(clippy::too_many_arguments)]
fn repair(
    problem: &ChannelProblem,
    g: &mut Grid,
    preferred: &[Preferred],
    own: u32,
    x: i64,
    lower: &Riser,
    upper: &Riser,
    abandoned: &dyn Fn() -> bool,
) -> bool {
    let reach: &[u32] = if g.layers > own {
        &[own, g.layers]
    } else {
        &[own]
    };
    for &layers in reach {
        for (straight, bent) in [(lower, upper), (upper, lower)] {
            if g.trial(|g| {
                draw_riser(g, x, straight)
                    && connect_net(problem, g, preferred, layers, straight.net, x)
                    && connect_net(problem, g, preferred, layers, bent.net, x)
            }) {
                return true;
            }
        }
        for (first, second) in [(upper, lower), (lower, upper)] {
            if g.trial(|g| {
                connect_net(problem, g, preferred, layers, first.net, x)
                    && connect_net(problem, g, preferred, layers, second.net, x)
            }) {
                return true;
            }
        }
    }
    // Rip-up and reroute: the nets may take other nets' track cells, and
    // the nets that lose cells are rejoined in turn. (The costlier steps
    // from here on are skipped once the attempt is abandoned.)
    if abandoned() {
        return false;
    }
    for (first, second) in [(upper, lower), (lower, upper)] {
        if g.trial(|g| {
            connect_stealing(problem, g, preferred, first.net, x, STEAL_DEPTH)
                && connect_stealing(problem, g, preferred, second.net, x, STEAL_DEPTH)
        }) {
            return true;
        }
    }
    // Then negotiate a window around the column among every net in it.
    for r in [2, 4, 8] {
        if abandoned() {
            return false;
        }
        if local::negotiate(g, preferred, x - r, x + r, &[lower.net, upper.net]) {
            return true;
        }
    }
    // Last, move the two nets' own trunk ends: free their track cells near
    // the column and rejoin them (with rip-up of others as above).
    for r in [1, 2, 4] {
        if abandoned() {
            return false;
        }
        for (first, second) in [(upper, lower), (lower, upper)] {
            if g.trial(|g| {
                release_near(g, &[first.net, second.net], x - r, x + r);
                connect_stealing(problem, g, preferred, first.net, x, STEAL_DEPTH)
                    && connect_stealing(problem, g, preferred, second.net, x, STEAL_DEPTH)
            }) {
                return true;
            }
        }
    }
    false
}

/// Free the track cells (rows `1 ..= W`, side exits kept) of some nets in
/// columns `x0 ..= x1`.
fn release_near(g: &mut Grid, nets: &[u32], x0: i64, x1: i64) {
    for layer in 1..=g.layers {
        for y in 1..=g.width {
            for x in x0.max(0)..=x1.min(g.columns - 1) {
                let c = Cell::new(x, y, layer);
                let o = g.owner(c);
                if o != 0 && nets.contains(&(o - 1)) {
                    g.release(c);
                }
            }
        }
    }
}

/// Extra cost of taking a cell from another net during rip-up and reroute.
const STEAL_PRICE: u32 = 12;
/// How many generations of nets may lose cells in one repair.
const STEAL_DEPTH: u32 = 2;

/// Turn a routed grid into a solution.
fn finish(problem: &ChannelProblem, model: LayerModel, mut g: Grid) -> ChannelSolution {
    cleanup::tidy(problem, &mut g);
    // The labels in one small table: the nets themselves are far apart in
    // memory, and every wire and via asks for one.
    let labels: Vec<u32> = problem.net_ids().map(|id| problem.label(id)).collect();
    let (wires, vias) = g.geometry(|id| labels[id as usize]);
    // One more layer than the model's when the borrowed layer was used.
    let used = wires.iter().any(|w| w.layer > model.layers())
        || vias.iter().any(|v| v.to > model.layers());
    let mut s = ChannelSolution {
        name: problem.name().to_string(),
        layers: if used { g.layers } else { model.layers() },
        width: g.width as u32,
        columns: problem.columns(),
        groups: vec![LayerGroup {
            kind: model.name().to_string(),
            layers: (1..=model.layers()).collect(),
        }],
        wires,
        vias,
    };
    s.canonicalize();
    s
}

#[cfg(test)]
mod tests {
    use super::assign::assign;
    use super::*;
    use crate::channel::generate::{random_channel, ChannelShape};
    use crate::channel::verify::verify;
    use rand::{Rng, SeedableRng};

    /// A random channel of a random shape within the given ranges, and a
    /// random HV or HVH model for it.
    pub(super) fn random_case(
        rng: &mut rand_chacha::ChaCha8Rng,
        columns: std::ops::Range<u32>,
        fill: std::ops::Range<f64>,
        max_span: std::ops::Range<u32>,
        side_probability: std::ops::Range<f64>,
    ) -> (ChannelProblem, LayerModel) {
        let shape = ChannelShape {
            columns: rng.gen_range(columns),
            fill: rng.gen_range(fill),
            max_span: rng.gen_range(max_span),
            side_probability: rng.gen_range(side_probability),
            acyclic: false,
        };
        let p = random_channel(rng, &shape);
        let model = if rng.gen_bool(0.5) {
            LayerModel::Hv
        } else {
            LayerModel::Hvh
        };
        (p, model)
    }

    /// A variant's assignment at `rows`, improved, as a width's candidate
    /// gets it (`None` when the sweep runs out of slots).
    fn improved_slots(
        p: &ChannelProblem,
        model: LayerModel,
        items: &[Item],
        rows: i64,
    ) -> Option<Vec<Slot>> {
        let h = model.h_layers();
        let mut slots = assign(p, items, rows, &h)?;
        improve(
            p,
            items,
            &PieceConstraints::new(p, items),
            &mut slots,
            rows,
            &h,
        );
        Some(slots)
    }

    /// A candidate without a borrowed layer.
    fn plain_candidate<'a>(
        p: &'a ChannelProblem,
        model: LayerModel,
        rows: i64,
        items: &'a [Item],
        order: &'a Order,
        slots: &'a [Slot],
    ) -> Candidate<'a> {
        Candidate {
            problem: p,
            model,
            rows,
            items,
            order,
            slots,
            borrowed: None,
            spares: None,
        }
    }

    /// A random channel (shape from the ranges) at its lower bound of rows,
    /// with a piece variant (`doglegs`, or drawn after the channel when
    /// `None`) and its plain assignment; `None` when that runs out of slots.
    #[allow(clippy::type_complexity)]
    fn at_bound(
        rng: &mut rand_chacha::ChaCha8Rng,
        columns: std::ops::Range<u32>,
        fill: std::ops::Range<f64>,
        max_span: std::ops::Range<u32>,
        doglegs: Option<bool>,
    ) -> Option<(ChannelProblem, LayerModel, Vec<Item>, i64, Vec<Slot>, Order)> {
        let (p, model) = random_case(rng, columns, fill, max_span, 0.0..0.3);
        let items = items_of(&p, doglegs.unwrap_or_else(|| rng.gen_bool(0.5)));
        let rows = lower_bound(&p, model);
        let slots = assign(&p, &items, rows, &model.h_layers())?;
        let order = Order::new(&p, &items);
        Some((p, model, items, rows, slots, order))
    }

    /// Asserts that two ways of making one attempt agree: the same wiring
    /// when both route, the same failure when neither does. The second
    /// grid when they routed.
    fn same_outcome(
        a: Result<Grid, Failure>,
        b: Result<Grid, Failure>,
        name: &str,
    ) -> Option<Grid> {
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.geometry(|n| n), b.geometry(|n| n), "{name}");
                Some(b)
            }
            (Err(x), Err(y)) => {
                assert_eq!(x, y, "{name}");
                None
            }
            (a, b) => panic!("{name}: {:?} against {:?}", a.err(), b.err()),
        }
    }

    /// Raw grids straight from the repairs (before clean-up): loops and
    /// redundant vias are common there.
    pub(super) fn raw_grids(seed: u64, count: usize) -> Vec<(ChannelProblem, Grid)> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let (p, model) = random_case(&mut rng, 8..80, 0.4..1.0, 2..20, 0.0..0.3);
            let items = items_of(&p, true);
            let rows = lower_bound(&p, model) + rng.gen_range(0..2);
            let Some(slots) = improved_slots(&p, model, &items, rows) else {
                continue;
            };
            let order = Order::new(&p, &items);
            let c = plain_candidate(&p, model, rows, &items, &order, &slots);
            if let Ok(g) = c.attempt(&|| false) {
                out.push((p, g));
            }
        }
        out
    }

    /// The number of jittered starts follows the level's cell budget: all
    /// of them on a small channel, fewer as columns times rows grow, none
    /// past the budget (four times the budget and the starts when
    /// thorough, none when fast); an asked-for number is taken as it is.
    /// Only a thorough effort compares the piece variants.
    #[test]
    fn jittered_starts_follow_the_cell_budget() {
        use EffortLevel::{Fast, Normal, Thorough};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(71);
        let mut with = |columns: u32, level: EffortLevel, starts: Option<u32>, rows: i64| {
            let shape = ChannelShape {
                fill: 0.3,
                max_span: 5,
                ..ChannelShape::new(columns)
            };
            let p = random_channel(&mut rng, &shape);
            let effort = Effort {
                level,
                starts,
                seed: 0,
            };
            let made = Assignments::new(&p, LayerModel::Hv, effort);
            (made.starts(rows), made.compares_variants(rows))
        };
        assert_eq!(with(175, Normal, None, 19), (MAX_STARTS as usize, false));
        assert_eq!(with(2_000, Normal, None, 10), (10, false));
        assert_eq!(with(10_000, Normal, None, 11), (1, false));
        assert_eq!(with(100_000, Normal, None, 12), (0, false));
        assert_eq!(with(100_000, Normal, Some(5), 12), (5, false));
        assert_eq!(with(175, Normal, Some(0), 19), (0, false));
        assert_eq!(with(175, Fast, None, 19), (0, false));
        assert_eq!(with(175, Fast, Some(3), 19), (3, false));
        assert_eq!(
            with(175, Thorough, None, 19),
            (4 * MAX_STARTS as usize, true)
        );
        assert_eq!(with(10_000, Thorough, None, 11), (7, true));
        assert_eq!(with(100_000, Thorough, None, 12), (0, false));
    }

    /// Free up to `most - 1` track cells of a grid, drawn at random (a
    /// draw that meets a free or blocked cell frees nothing).
    pub(super) fn cut_at_random(rng: &mut rand_chacha::ChaCha8Rng, g: &mut Grid, most: usize) {
        for _ in 0..rng.gen_range(0..most) {
            let c = Cell::new(
                rng.gen_range(0..g.columns),
                rng.gen_range(1..=g.width),
                rng.gen_range(1..=g.layers),
            );
            let o = g.owner(c);
            if o != 0 && o != grid::BLOCKED {
                g.release(c);
            }
        }
    }

    /// Every net's pieces from one union-find pass against a flood per
    /// net, on routed grids cut at random cells (so nets lie in several
    /// pieces, some on pin points only).
    #[test]
    fn all_components_counted_at_once_are_each_nets_flood() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(19);
        let mut split = 0;
        for (p, mut g) in raw_grids(31, 120) {
            cut_at_random(&mut rng, &mut g, 30);
            let all = g.count_all_components();
            for id in p.net_ids() {
                let one = g.count_components(id.0);
                assert_eq!(all[id.index()], one, "{} net {}", p.name(), id.0);
                split += (one > 1) as usize;
            }
        }
        assert!(split > 200, "split nets seen: {split}");
    }

    #[test]
    fn looped_vias_are_the_vias_whose_removal_keeps_the_net_whole() {
        let mut looped_seen = 0;
        for (p, mut g) in raw_grids(17, 120) {
            for id in p.net_ids() {
                let net = id.0;
                let fast = g.looped_vias(net);
                // The obvious way: drop each via and count the pieces.
                let pieces = g.count_components(net);
                let mut slow = Vec::new();
                for c in g.cells_of(net) {
                    if g.owner(c) == net + 1 && g.flags(c) & grid::VIA != 0 {
                        g.clear_flag(c, grid::VIA);
                        if g.count_components(net) == pieces {
                            slow.push(g.index(c));
                        }
                        g.set_flag(c, grid::VIA);
                    }
                }
                slow.sort_unstable();
                assert_eq!(fast, slow, "{} net {net}", p.name());
                looped_seen += fast.len();
            }
        }
        // The comparison saw looped vias, not only bridges.
        eprintln!("looped vias seen: {looped_seen}");
        assert!(looped_seen > 0);
    }

    #[test]
    fn an_empty_borrowed_layer_is_used_and_saves_tracks_in_total() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
        let empty = |_: u32| Some(Vec::new());
        let borrowed = Borrowed {
            from_width: 0,
            occupied: &empty,
        };
        let (mut own, mut more, mut used) = (0, 0, 0);
        for _ in 0..150 {
            let shape = ChannelShape {
                columns: rng.gen_range(20..120),
                fill: rng.gen_range(0.6..1.0),
                max_span: rng.gen_range(4..30),
                side_probability: 0.0,
                acyclic: false,
            };
            let p = random_channel(&mut rng, &shape);
            for model in [LayerModel::Hv, LayerModel::Hvh] {
                let a = route_model(&p, model, &mut |_| {}).unwrap();
                let b = route_borrowing(&p, model, Some(&borrowed), Effort::default(), &mut |_| {})
                    .unwrap();
                own += a.width;
                more += b.width;
                let top = model.layers() + 1;
                if b.wires.iter().any(|w| w.layer == top) {
                    used += 1;
                    // Legal as a channel with the borrowed layer as a free
                    // layer of any direction.
                    let mut check = b.clone();
                    check.layers = top;
                    check.groups.push(LayerGroup {
                        kind: "B".into(),
                        layers: vec![top],
                    });
                    let r = verify(&p, &check, None);
                    assert!(r.is_legal_strict(), "{}: {:?}", p.name(), r.violations);
                }
            }
        }
        eprintln!("tracks: {own} on the own layers, {more} with an empty borrowed layer (used {used} times)");
        assert!(used > 0, "the borrowed layer was never used");
        assert!(
            more < own,
            "tracks with the borrowed layer {more}, without {own}"
        );
    }

    /// A repair joins the pieces of a net within its widest window and
    /// leaves a piece out of every search's reach (here a pin 1,088 columns
    /// away, as at another conflict of a long net) to its own repair: the
    /// near pin is joined and the call succeeds.
    #[test]
    fn a_repair_leaves_pieces_out_of_reach_to_their_own() {
        let c = 1200usize;
        let mut top = vec!["0"; c];
        let mut bottom = vec!["0"; c];
        (top[1100], bottom[12], bottom[10]) = ("1", "1", "1");
        let text = format!("top: {}\nbottom: {}\n", top.join(" "), bottom.join(" "));
        let p = crate::io::parse_channel(&text, "far.txt").unwrap();
        let net = p.net_ids().next().unwrap().0;
        let model = LayerModel::Hv;
        let mut g = Grid::new(p.columns(), 3, model.layers(), p.nets().len());
        let top_row = g.top_row();
        for (x, y) in [(10, 0), (12, 0), (1100, top_row)] {
            for l in 1..=g.layers {
                g.claim(Cell::new(x, y, l), net);
            }
        }
        assert!(g.run(Cell::new(10, 2, 1), Cell::new(1100, 2, 1), net));
        assert!(g.run(Cell::new(10, 0, 2), Cell::new(10, 2, 2), net));
        g.via(10, 2, 1, 2, net);
        assert_eq!(g.count_components(net), 3);
        let preferred = model.preferred();
        assert!(connect_within(&p, &mut g, &preferred, 2, net, 12, 0));
        // The near pin joined the trunk; the far one is still apart.
        let comps = g.label_components(net);
        assert_eq!(comps.len(), 2);
        let far = comps.iter().find(|c| c.iter().all(|k| k.x == 1100));
        assert!(far.is_some(), "the far pin stays a piece of its own");
    }

    /// The empty row is opened everywhere in narrow channels and at
    /// [`OPEN_ROWS`] places spread from bottom to top in wide ones.
    #[test]
    fn empty_rows_are_opened_at_a_bounded_spread_of_places() {
        for rows in 2..=OPEN_ROWS {
            assert_eq!(open_rows(rows), (1..=rows).collect::<Vec<_>>());
        }
        for rows in [OPEN_ROWS + 1, 40, 234, 673, 10_000] {
            let places = open_rows(rows);
            assert_eq!(places.len() as i64, OPEN_ROWS, "{rows} rows");
            assert_eq!((places[0], *places.last().unwrap()), (1, rows));
            let gaps: Vec<i64> = places.windows(2).map(|w| w[1] - w[0]).collect();
            let (lo, hi) = (gaps.iter().min().unwrap(), gaps.iter().max().unwrap());
            assert!(*lo >= 1 && hi - lo <= 1, "{rows} rows: gaps {gaps:?}");
        }
    }

    /// An attempt draws the channel just ahead of its repairs; the grid it
    /// ends with (each net's cells in claim order included, which decide
    /// component numbering and so later choices) must be the one it gives
    /// when the whole channel is drawn first. Channels long enough for the
    /// lazy set-up to matter, short and long nets, side terminals.
    #[test]
    fn lazy_set_up_routes_as_the_full_set_up() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
        let (mut routed, mut failed) = (0, 0);
        for _ in 0..24 {
            let (p, model) = random_case(&mut rng, 1500..3500, 0.6..1.0, 3..60, 0.0..0.4);
            let variant = rng.gen_bool(0.5);
            let items = items_of(&p, variant);
            let rows = lower_bound(&p, model) + rng.gen_range(0..2);
            let Some(slots) = improved_slots(&p, model, &items, rows) else {
                continue;
            };
            let order = Order::new(&p, &items);
            let c = plain_candidate(&p, model, rows, &items, &order, &slots);
            let run = |lazy| c.run(&|| false, lazy, None).ok();
            match (run(true), run(false)) {
                (Some(a), Some(b)) => {
                    routed += 1;
                    assert_eq!(a.geometry(|n| n), b.geometry(|n| n), "{}", p.name());
                    for id in p.net_ids() {
                        assert_eq!(
                            a.claims_of(id.0),
                            b.claims_of(id.0),
                            "{} net {}",
                            p.name(),
                            id.0
                        );
                    }
                }
                (None, None) => failed += 1,
                (a, b) => panic!("{}: lazy {} full {}", p.name(), a.is_some(), b.is_some()),
            }
        }
        eprintln!("{routed} attempts routed, {failed} failed, alike");
        assert!(
            routed >= 5 && failed >= 2,
            "routed {routed}, failed {failed}"
        );
    }

    /// What the repairs of a conflict in column `x` rely on: once the set-up
    /// has drawn `ahead_of(x)`, every cell within the repair's reach is as a
    /// full set-up draws it, and every net owning one of them has all its
    /// cells, in the same order.
    #[test]
    fn lazy_set_up_draws_all_a_repair_can_see() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(32);
        let mut compared = 0;
        for f in full_set_ups(&mut rng, 30) {
            for _ in 0..4 {
                let x = rng.gen_range(0..f.p.columns() as i64);
                let (mut lazy, mut setup) = f.fresh();
                let upto = setup.ahead_of(x);
                assert!(setup.draw(&mut lazy, upto));
                let seen = (x + SEEN_BEYOND).min(f.p.columns() as i64);
                let nets = same_cells(&lazy, &f.full, -1..=seen, f.p.name());
                for n in nets {
                    assert_eq!(
                        lazy.claims_of(n),
                        f.full.claims_of(n),
                        "{} net {n}",
                        f.p.name()
                    );
                }
                // Only conflicts up to the drawn columns are listed, and
                // those as the full set-up lists them.
                let listed: Vec<i64> = setup.conflicts.iter().map(|c| c.0).collect();
                assert_eq!(listed, f.conflicts[..listed.len()]);
                compared += 1;
            }
        }
        assert!(compared >= 40, "{compared} comparisons");
    }

    /// A random channel of 600-2,500 columns with a random trunk-piece
    /// variant assigned one row above its lower bound, and the grid and
    /// conflict columns of its full set-up: what the set-up tests compare
    /// partial set-ups against.
    struct FullSetUp {
        p: ChannelProblem,
        model: LayerModel,
        items: Vec<Item>,
        rows: i64,
        slots: Vec<Slot>,
        order: Order,
        full: Grid,
        conflicts: Vec<i64>,
    }

    /// Of `tries` random channels, those that assign and set up.
    fn full_set_ups(rng: &mut rand_chacha::ChaCha8Rng, tries: usize) -> Vec<FullSetUp> {
        let mut out = Vec::new();
        for _ in 0..tries {
            let (p, model) = random_case(rng, 600..2500, 0.5..1.0, 2..80, 0.0..0.3);
            let items = items_of(&p, rng.gen_bool(0.5));
            let rows = lower_bound(&p, model) + 1;
            let Some(slots) = assign(&p, &items, rows, &model.h_layers()) else {
                continue;
            };
            let order = Order::new(&p, &items);
            let mut full = Grid::new(p.columns(), rows as u32, model.layers(), p.nets().len());
            let mut all = Setup::new(&p, model, &full, &items, &slots, &order);
            if !all.draw(&mut full, i64::MAX) {
                continue;
            }
            let conflicts = all.conflicts.iter().map(|c| c.0).collect();
            out.push(FullSetUp {
                p,
                model,
                items,
                rows,
                slots,
                order,
                full,
                conflicts,
            });
        }
        out
    }

    impl FullSetUp {
        /// An empty grid and a set-up of it, nothing drawn yet.
        fn fresh(&self) -> (Grid, Setup<'_>) {
            let p = &self.p;
            let g = Grid::new(
                p.columns(),
                self.rows as u32,
                self.model.layers(),
                p.nets().len(),
            );
            let setup = Setup::new(p, self.model, &g, &self.items, &self.slots, &self.order);
            (g, setup)
        }
    }

    /// Asserts that two grids agree (owners and joints) in some columns;
    /// the nets owning cells there.
    fn same_cells(
        a: &Grid,
        b: &Grid,
        columns: std::ops::RangeInclusive<i64>,
        name: &str,
    ) -> std::collections::BTreeSet<u32> {
        let mut nets = std::collections::BTreeSet::new();
        for l in 1..=a.layers {
            for y in 0..=a.width + 1 {
                for c in columns.clone() {
                    let cell = Cell::new(c, y, l);
                    assert_eq!(a.owner(cell), b.owner(cell), "{name} {cell:?}");
                    assert_eq!(a.flags(cell), b.flags(cell), "{name} {cell:?}");
                    if a.owner(cell) != 0 {
                        nets.insert(a.owner(cell) - 1);
                    }
                }
            }
        }
        nets
    }

    /// A stretch's set-up (`start_at`) draws what the full set-up draws in
    /// every column its repairs can see, and lists the full set-up's
    /// conflicts from its first column on; mutating what it skips (say,
    /// trunks ending a column further right) fails this.
    #[test]
    fn a_stretch_sets_up_what_its_repairs_see() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
        let mut compared = 0;
        for f in full_set_ups(&mut rng, 30) {
            for _ in 0..4 {
                let from = rng.gen_range(0..f.p.columns() as i64);
                let to = from + rng.gen_range(0..2 * RESTART_REACH);
                let (mut part, mut setup) = f.fresh();
                setup.start_at(from);
                let upto = setup.ahead_of(to);
                assert!(setup.draw(&mut part, upto));
                let first = (from - SEEN_BEYOND).max(0);
                let seen = (to + SEEN_BEYOND).min(f.p.columns() as i64);
                same_cells(&part, &f.full, first..=seen, f.p.name());
                let listed: Vec<i64> = setup.conflicts.iter().map(|c| c.0).collect();
                let want: Vec<i64> = f
                    .conflicts
                    .iter()
                    .copied()
                    .filter(|&x| x >= from && x < setup.drawn())
                    .collect();
                assert_eq!(listed, want, "{} from {from}", f.p.name());
                compared += 1;
            }
        }
        assert!(compared >= 40, "{compared} comparisons");
    }

    /// A stretch from the first column to beyond the last is the attempt:
    /// the same grid when it routes, the same failing column when not.
    #[test]
    fn a_stretch_over_the_whole_channel_is_the_attempt() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(43);
        let (mut routed, mut failed) = (0, 0);
        for _ in 0..300 {
            let Some((p, model, items, rows, slots, order)) =
                at_bound(&mut rng, 20..300, 0.5..1.0, 2..40, Some(true))
            else {
                continue;
            };
            let c = plain_candidate(&p, model, rows, &items, &order, &slots);
            let whole = Stretch {
                from: 0,
                to: i64::MAX,
            };
            match (c.attempt(&|| false), c.run(&|| false, true, Some(whole))) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.geometry(|n| n), b.geometry(|n| n), "{}", p.name());
                    routed += 1;
                }
                (Err(Some(x)), Err(Some(y))) => {
                    assert_eq!(x, y, "{}", p.name());
                    failed += 1;
                }
                (a, b) => panic!("{}: attempt {:?}, stretch {:?}", p.name(), a.err(), b.err()),
            }
        }
        assert!(
            routed > 100 && failed > 20,
            "{routed} routed, {failed} failed"
        );
    }

    /// Attempts on grids made from the spares of earlier ones (of other
    /// channels, larger and smaller) route as on new grids: the same grid
    /// when they route, the same failing column when not.
    #[test]
    fn grids_from_spares_route_as_new_ones() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(47);
        let pool = SparePool::default();
        let (mut routed, mut failed) = (0, 0);
        for _ in 0..200 {
            let Some((p, model, items, rows, slots, order)) =
                at_bound(&mut rng, 10..400, 0.5..1.0, 2..40, None)
            else {
                continue;
            };
            // Half of them with a borrowed layer above, partly taken.
            let taken: Vec<Point> = (0..p.columns() as i64)
                .flat_map(|x| (1..=rows).map(move |y| Point::new(x, y)))
                .filter(|_| rng.gen_bool(0.3))
                .collect();
            let new = Candidate {
                borrowed: rng.gen_bool(0.5).then_some(&taken[..]),
                ..plain_candidate(&p, model, rows, &items, &order, &slots)
            };
            let reusing = Candidate {
                spares: Some(&pool),
                ..new
            };
            match same_outcome(new.attempt(&|| false), reusing.attempt(&|| false), p.name()) {
                Some(b) => {
                    // A routed grid goes back to the pool too (a probe's does).
                    pool.give(b);
                    routed += 1;
                }
                None => failed += 1,
            }
            assert!(pool.all_free(), "{}: a spare with cells in use", p.name());
        }
        assert!(
            routed > 60 && failed > 10,
            "{routed} routed, {failed} failed"
        );
    }

    /// An attempt paused before some restart and then resumed is the
    /// attempt: the same grid when it routes, the same failing column when
    /// not (the whole-net variant's two candidates rest on this).
    #[test]
    fn a_paused_attempt_resumed_is_the_attempt() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(59);
        let mut paused = [0; 3];
        for _ in 0..400 {
            let Some((p, model, items, rows, slots, order)) =
                at_bound(&mut rng, 40..300, 0.8..1.0, 10..40, None)
            else {
                continue;
            };
            let c = plain_candidate(&p, model, rows, &items, &order, &slots);
            let at = rng.gen_range(0..3);
            let two_parts = match c.attempt_until(&|| false, at) {
                Err(Stop::Paused(state)) => {
                    paused[at] += 1;
                    c.resume(state, &|| false)
                }
                Err(Stop::Failed(failure)) => Err(failure),
                Ok(g) => Ok(g),
            };
            same_outcome(c.attempt(&|| false), two_parts, p.name());
        }
        assert!(paused.iter().all(|&n| n >= 5), "paused {paused:?}");
    }

    /// The candidates of one width may be tried on several threads; the
    /// routing must be the one the sequential order gives. Each channel is
    /// routed once holding every spare core (so sequentially) and once
    /// without (so with speculation whenever a core is spare then).
    #[test]
    fn routings_do_not_depend_on_spare_cores() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(77);
        for _ in 0..40 {
            let (p, model) = random_case(&mut rng, 20..160, 0.6..1.0, 4..30, 0.0..0.2);
            let free = route_model(&p, model, &mut |_| {}).expect("routes");
            let alone = {
                let _all = crate::parallel::Cores::take(usize::MAX);
                route_model(&p, model, &mut |_| {}).expect("routes")
            };
            assert_eq!(free, alone, "{} in {}", p.name(), model.name());
        }
    }
}
