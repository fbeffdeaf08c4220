//! The candidates of one width (step 5 of the module docs), in the order
//! [`reserved`] tries them: the whole-net variant up to its first restarts,
//! the dogleg variant, the whole-net variant on from there, the dogleg
//! variant with an empty row opened at a few places, then the jittered
//! starts. Each variant's assignment at a width is made once and shared
//! ([`Assignments`]); a candidate that failed one row narrower is first
//! probed where it failed.

use super::attempt::{Candidate, Failure, Paused, Stop};
use super::repair::RESTART_REACH;
use super::setup::Order;
use super::*;

/// The trunk-piece variants and their slot assignments, each assignment made
/// once per (variant, width) by whichever candidate needs it first: the
/// candidates that open an empty row at width `W` reuse the dogleg variant's
/// assignment at `W - 1`, which the width before made already.
pub(super) struct Assignments<'a> {
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
    /// The conflict-free search's view of the dogleg variant, made at its
    /// first use.
    quick: std::sync::OnceLock<ConflictFree>,
    /// The spares of ended attempts' grids.
    spares: SparePool,
    made: std::sync::Mutex<Vec<((usize, i64), SlotCell)>>,
    effort: Effort,
    /// The direction rule of the candidates' layers.
    pub(super) directions: Directions,
}

/// An assignment (`None`: the sweep ran out of slots), made once by
/// whichever candidate needs it first.
type SlotCell = std::sync::Arc<std::sync::OnceLock<Option<Vec<Slot>>>>;

impl<'a> Assignments<'a> {
    pub(super) fn new(
        problem: &'a ChannelProblem,
        model: LayerModel,
        effort: Effort,
        directions: Directions,
    ) -> Self {
        Assignments {
            problem,
            h: model.h_layers(),
            variants: vec![
                items_of(problem, Cut::Doglegs),
                items_of(problem, Cut::WholeNets),
            ],
            constraints: (0..2).map(|_| std::sync::OnceLock::new()).collect(),
            orders: (0..2).map(|_| std::sync::OnceLock::new()).collect(),
            made: std::sync::Mutex::new(Vec::new()),
            failed: std::sync::Mutex::new(Vec::new()),
            spares: SparePool::default(),
            quick: std::sync::OnceLock::new(),
            effort,
            directions,
        }
    }

    /// The quick path: a conflict-free assignment of the dogleg variant
    /// ([`conflict_free`]) in the narrowest of `widths` the search
    /// reaches, drawn with every riser straight. Only models with one trunk
    /// layer take it (with two, a conflict-free assignment would also have
    /// to pair the rows' pieces), only channels with a net that needs a
    /// track (else width 0 is the answer), and only channels of at most
    /// [`conflict_free::MAX_PIECES`] pieces (the search scans every piece
    /// at each step).
    pub(super) fn quick(
        &self,
        model: LayerModel,
        widths: std::ops::Range<i64>,
    ) -> Option<ChannelSolution> {
        let items = &self.variants[DOGLEG];
        if self.h.len() != 1 || items.is_empty() || items.len() > conflict_free::MAX_PIECES {
            return None;
        }
        let cf = self
            .quick
            .get_or_init(|| ConflictFree::new(self.problem, items));
        let restarts = match self.effort.level {
            EffortLevel::Fast => 8,
            EffortLevel::Normal => 32,
            EffortLevel::Thorough => 128,
        };
        let (rows, ys) = cf.assign(widths, self.effort.seed, restarts, QUICK_BUDGET)?;
        Some(conflict_free::draw(
            self.problem,
            model,
            self.directions,
            rows,
            items,
            &ys,
        ))
    }

    /// How many jittered starts a width of `rows` rows gets once its
    /// standard candidates fail: as asked, or as many attempts of its size
    /// as the level's budget covers ([`START_BUDGET`], four times that when
    /// thorough), at most [`MAX_STARTS`] (four times that when thorough).
    pub(super) fn starts(&self, rows: i64) -> usize {
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
    pub(super) fn candidate<'b>(
        &'b self,
        base: &Candidate<'b>,
        k: usize,
        slots: &'b [Slot],
    ) -> Candidate<'b> {
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
    pub(super) fn compares_variants(&self, rows: i64) -> bool {
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
    pub(super) fn failed(&self, k: usize, rows: i64, failure: Failure) {
        if let Some(x) = failure.filter(|&x| x > RESTART_REACH) {
            self.fail(k, rows, x);
        }
    }

    /// Whether candidate `c` of variant `k` at `rows` rows fails its probe
    /// where the variant failed one row narrower (noted as a failure there
    /// again). At a width that failed, every candidate ran to its end, so
    /// what was noted does not depend on timing.
    pub(super) fn fails_probe(&self, c: &Candidate, k: usize, rows: i64) -> bool {
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
        // The variant's set-up order lists the pieces meeting each pin
        // column, which the constraints are made from too.
        let cons = self.constraints[k].get_or_init(|| {
            PieceConstraints::meeting_at(self.problem, items, self.order(k).meeting())
        });
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
/// of these candidates in that order that routes is the answer; on more
/// than one thread, later candidates are tried while earlier ones run
/// ([`crate::parallel::first_success_also_starting`], the empty-row
/// candidate started second, the whole-net variant's second part only once
/// its first has returned), with the same answer. When one
/// of the two piece variants routes and the effort compares them
/// ([`Assignments::compares_variants`]), the other variant's routing (if
/// it routes) comes second.
///
/// `also()` runs besides, on a thread the candidates leave idle.
pub(super) fn reserved<U: Send>(
    problem: &ChannelProblem,
    model: LayerModel,
    rows: i64,
    made: &Assignments,
    borrowed: Option<&[Point]>,
    also: impl FnOnce() -> U + Send,
) -> (Option<Grid>, Option<Grid>, U) {
    let h = &made.h;
    // Opening a row into an assignment one row narrower needs that
    // assignment to exist: at least the lower bound of rows.
    let d = density(problem) as i64;
    let open = rows > (d + h.len() as i64 - 1) / h.len() as i64 && rows >= 2;
    let places = if open { open_rows(rows) } else { Vec::new() };
    // The whole-net variant up to its first restarts, the dogleg variant,
    // the whole-net variant on from there, the empty rows.
    let fixed = EMPTY_ROWS + (!places.is_empty()) as usize;
    let candidates = fixed + made.starts(rows);
    let whole = made.cell(WHOLE, rows);
    let paused: Handoff<Paused<'_>> = Handoff::default();
    let base = Candidate {
        problem,
        model,
        rows,
        items: &[],
        // Each candidate sets its variant's items and order (the dogleg
        // variant's set-up order is made by the first candidate that needs
        // it, on its own thread, not here before any has started).
        order: made.order(WHOLE),
        slots: &[],
        borrowed,
        directions: made.directions,
        spares: Some(&made.spares),
    };
    let run = |k: usize, abandoned: &dyn Fn() -> bool| match Kind::of(k, fixed) {
        Kind::WholeFirst => whole_first(made, &base, &whole, &paused, abandoned),
        Kind::Dogleg => {
            let cell = made.cell(DOGLEG, rows);
            let c = made.candidate(&base, DOGLEG, made.fill(&cell, DOGLEG, rows)?);
            // A variant that failed at a column one row narrower is first
            // probed there.
            if made.fails_probe(&c, DOGLEG, rows) {
                return None;
            }
            match c.attempt(abandoned) {
                Ok(g) => Some(g),
                Err(failure) => {
                    made.failed(DOGLEG, rows, failure);
                    None
                }
            }
        }
        Kind::WholeOn => {
            let c = made.candidate(&base, WHOLE, made.fill(&whole, WHOLE, rows)?);
            match c.resume(paused.take()?, abandoned) {
                Ok(g) => Some(g),
                Err(failure) => {
                    made.failed(WHOLE, rows, failure);
                    None
                }
            }
        }
        Kind::EmptyRows => empty_rows(made, &base, &places, abandoned),
        Kind::Jittered(j) => {
            // A jittered start: a variant on an assignment of its own.
            let (v, slots) = made.jittered(j, rows);
            made.candidate(&base, v, &slots?).attempt(abandoned).ok()
        }
    };
    // The empty-row candidate starts right after the first: when it routes
    // it is the longest (probes, then a whole attempt), and the dogleg
    // variant's assignment and attempt then run beside it instead of
    // before it. The answer is the same: the first candidate in the order
    // above that routes. Candidate 2 takes candidate 0's paused attempt,
    // so it is held back until 0 has returned (no thread waits for it).
    let starts: Vec<usize> = if places.is_empty() {
        (0..candidates).collect()
    } else {
        debug_assert_eq!(fixed, EMPTY_ROWS + 1);
        [WHOLE_FIRST, EMPTY_ROWS, DOGLEG_FIRST, WHOLE_ON]
            .into_iter()
            .chain(fixed..candidates)
            .collect()
    };
    let (won, u) = crate::parallel::first_success_also_starting(
        &starts,
        &[(WHOLE_FIRST, WHOLE_ON)],
        |k, abandoned: &dyn Fn() -> bool| run(k, abandoned).map(|g| (k, g)),
        also,
    );
    let Some((k, g)) = won else {
        return (None, None, u);
    };
    // The other piece variant in full when one of them routed and the
    // effort compares them.
    let other = if k <= WHOLE_ON && made.compares_variants(rows) {
        let v = if k == DOGLEG_FIRST { WHOLE } else { DOGLEG };
        let cell = made.cell(v, rows);
        made.fill(&cell, v, rows)
            .and_then(|slots| made.candidate(&base, v, slots).attempt(&|| false).ok())
    } else {
        None
    };
    (Some(g), other, u)
}

/// Dead ends the quick path's search may meet on one random stream; it
/// tries the next stream at the one after.
const QUICK_BUDGET: u64 = 16;

/// The places of the dogleg and the whole-net variant in
/// [`Assignments::variants`].
const DOGLEG: usize = 0;
const WHOLE: usize = 1;

/// The empty-row candidate's place among the candidates of a width above
/// the lower bound.
const EMPTY_ROWS: usize = 3;

/// The first whole-net candidate ([`WHOLE_FIRST`]): a routing made with
/// few restarts (up to [`QUICK_RESTARTS`]) comes before the dogleg
/// variant's, as it has fewer vias as a rule. The attempt then pauses and
/// hands itself on to [`WHOLE_ON`], which goes on with it after the dogleg
/// variant; it hands on nothing unless it pauses, whatever way it returns.
fn whole_first<'b>(
    made: &'b Assignments<'_>,
    base: &Candidate<'b>,
    whole: &'b SlotCell,
    paused: &Handoff<Paused<'b>>,
    abandoned: &dyn Fn() -> bool,
) -> Option<Grid> {
    let rows = base.rows;
    let _nothing_unless_given = paused.guard();
    let c = made.candidate(base, WHOLE, made.fill(whole, WHOLE, rows)?);
    if made.fails_probe(&c, WHOLE, rows) {
        return None;
    }
    match c.attempt_until(abandoned, QUICK_RESTARTS) {
        Ok(g) => Some(g),
        Err(Stop::Paused(p)) => {
            paused.give(Some(p));
            None
        }
        Err(Stop::Failed(failure)) => {
            made.failed(WHOLE, rows, failure);
            None
        }
    }
}

/// The empty-row candidates ([`EMPTY_ROWS`]) in turn: the dogleg
/// variant's assignment one row narrower with an empty row opened at each
/// of `places`. Each first probes the columns where the ones before it
/// failed: candidates that differ only in where the empty row is tend to
/// fail at the same conflict.
fn empty_rows(
    made: &Assignments<'_>,
    base: &Candidate<'_>,
    places: &[i64],
    abandoned: &dyn Fn() -> bool,
) -> Option<Grid> {
    let rows = base.rows;
    let items = &made.variants[DOGLEG];
    let cell = made.cell(DOGLEG, rows - 1);
    let slots = made.fill(&cell, DOGLEG, rows - 1)?;
    let mut failed_at: Vec<i64> = Vec::new();
    for &f in places {
        let shifted: Vec<Slot> = slots
            .iter()
            .map(|s| Slot {
                y: if s.y >= f { s.y + 1 } else { s.y },
                ..*s
            })
            .collect();
        let c = Candidate {
            items,
            order: made.order(DOGLEG),
            slots: &shifted,
            ..*base
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
}

/// A candidate of one width by its place in the order of [`reserved`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The whole-net variant up to its first restarts ([`WHOLE_FIRST`]).
    WholeFirst,
    /// The dogleg variant ([`DOGLEG_FIRST`]).
    Dogleg,
    /// The whole-net variant on from its pause ([`WHOLE_ON`]).
    WholeOn,
    /// The dogleg variant with empty rows opened ([`EMPTY_ROWS`]).
    EmptyRows,
    /// The jittered start of this index.
    Jittered(usize),
}

impl Kind {
    /// The candidate at place `k`, when the jittered starts begin at
    /// `fixed`.
    fn of(k: usize, fixed: usize) -> Self {
        match k {
            WHOLE_FIRST => Kind::WholeFirst,
            DOGLEG_FIRST => Kind::Dogleg,
            WHOLE_ON => Kind::WholeOn,
            k if k >= fixed => Kind::Jittered(k - fixed),
            _ => Kind::EmptyRows,
        }
    }
}

/// The place of the whole-net variant up to its first restarts among the
/// candidates of a width (first).
const WHOLE_FIRST: usize = 0;
/// The place of the dogleg variant's candidate (second).
const DOGLEG_FIRST: usize = 1;
/// The place of the whole-net variant on from its pause (third; the
/// empty-row candidate, above the lower bound, and the jittered starts
/// follow).
const WHOLE_ON: usize = 2;

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
pub(super) fn open_rows(rows: i64) -> Vec<i64> {
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
pub(super) const OPEN_ROWS: i64 = 8;

/// The grid cells (columns times rows) the jittered starts of one width may
/// cover together by default: small channels get [`MAX_STARTS`], long
/// ones none (each start is a whole attempt).
const START_BUDGET: i64 = 200_000;

/// Jittered starts per width by default, at most.
pub(super) const MAX_STARTS: i64 = 32;

/// How many times the default budget and starts a thorough effort gets.
const THOROUGH: i64 = 4;
