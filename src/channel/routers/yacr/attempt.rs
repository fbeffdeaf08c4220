//! One attempt at a fixed width (steps 3 and 4 of the module docs): a
//! candidate's set-up, drawn lazily ([`super::setup`]), and its conflicting
//! columns repaired in order ([`super::repair`]); when a repair fails, the
//! repairs made since the first one within [`RESTART_REACH`] columns are
//! undone and the failed one goes first. Probes (a stretch of columns
//! only) and pauses (before a given restart) are attempts cut short.

use super::repair::{complete, repair, REPAIR_RESTARTS, RESTART_REACH};
use super::setup::{Order, Setup};
use super::*;

/// One candidate routing at a fixed width: a trunk-piece variant and its
/// assignment, and the borrowed layer's used points (blocked on the layer
/// above the model's).
pub(super) struct Candidate<'a> {
    pub(super) problem: &'a ChannelProblem,
    pub(super) model: LayerModel,
    pub(super) rows: i64,
    pub(super) items: &'a [Item],
    pub(super) order: &'a Order,
    pub(super) slots: &'a [Slot],
    pub(super) borrowed: Option<&'a [Point]>,
    /// The direction rule of the model's layers.
    pub(super) directions: Directions,
    /// Where an ended attempt leaves its grid's spare for the next.
    pub(super) spares: Option<&'a SparePool>,
}

/// Why an attempt failed: `Some(x)` when the conflict in column `x` could
/// not be repaired (and no restart was left), `None` otherwise (abandoned,
/// a blocked set-up, the last check).
pub(super) type Failure = Option<i64>;

/// The columns a probe works on: the conflicts in `from ..= to` are
/// repaired, those left of `from` are left alone, and nothing right of
/// what the last repair reads is drawn.
#[derive(Clone, Copy, Debug)]
pub(super) struct Stretch {
    pub(super) from: i64,
    pub(super) to: i64,
}

impl<'a> Candidate<'a> {
    /// One try: the grid when every net is connected. It gives up as soon
    /// as it sees `abandoned()`.
    ///
    /// The pins, trunks and straight risers are drawn column by column just
    /// ahead of the repairs ([`Setup`]), so an attempt that fails early in
    /// a long channel has not drawn the rest of it; the grid a repair sees
    /// is the one a full set-up would have given (see [`Setup::ahead_of`]).
    pub(super) fn attempt(&self, abandoned: &dyn Fn() -> bool) -> Result<Grid, Failure> {
        self.run(abandoned, Drawing::Lazy, None)
    }

    /// Whether the repairs of the conflicts within [`RESTART_REACH`]
    /// columns left of column `x` and in `x` itself succeed, on the set-up
    /// alone around them (no repair further left): a quick test, at a
    /// column where a like candidate failed, of whether this one fails
    /// there too. The repairs left out further left would only have taken
    /// space, so a candidate that fails its probe would nearly always fail
    /// the whole attempt.
    pub(super) fn probe(&self, x: i64) -> bool {
        let stretch = Stretch {
            from: x - RESTART_REACH,
            to: x + RESTART_REACH,
        };
        match self.run(&|| false, Drawing::Lazy, Some(stretch)) {
            Ok(g) => {
                self.give_back(g);
                true
            }
            Err(_) => false,
        }
    }

    /// [`Candidate::attempt`], drawing lazily or the whole channel first
    /// (`drawing`); on a stretch only, when one is given (then the grid
    /// is not complete).
    pub(super) fn run(
        &self,
        abandoned: &dyn Fn() -> bool,
        drawing: Drawing,
        stretch: Option<Stretch>,
    ) -> Result<Grid, Failure> {
        unpaused(self.run_until(abandoned, drawing, stretch, None))
    }

    /// An attempt that pauses before its `restarts + 1`-th restart: the
    /// grid if it routes before; else why it failed, or where it stands.
    pub(super) fn attempt_until(
        &self,
        abandoned: &dyn Fn() -> bool,
        restarts: usize,
    ) -> Result<Grid, Stop<'a>> {
        self.run_until(abandoned, Drawing::Lazy, None, Some(restarts))
    }

    /// Go on with an attempt that [`Candidate::attempt_until`] paused: the
    /// whole attempt's answer.
    pub(super) fn resume(
        &self,
        paused: Paused<'a>,
        abandoned: &dyn Fn() -> bool,
    ) -> Result<Grid, Failure> {
        let (g, progress) = *paused;
        unpaused(self.go_on_with(g, progress, abandoned, None, None))
    }

    /// [`Candidate::run`], pausing as [`Candidate::go_on`] does with
    /// `pause_at`.
    fn run_until(
        &self,
        abandoned: &dyn Fn() -> bool,
        drawing: Drawing,
        stretch: Option<Stretch>,
        pause_at: Option<usize>,
    ) -> Result<Grid, Stop<'a>> {
        let mut g = self.new_grid();
        match self.start(&mut g, drawing, stretch) {
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
        drawing: Drawing,
        stretch: Option<Stretch>,
    ) -> Result<Progress<'a>, Failure> {
        if let Some(points) = self.borrowed {
            for p in points {
                let c = Cell::new(p.x, p.y, g.extent.layers);
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
        if drawing == Drawing::Full && !setup.draw(g, i64::MAX) {
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
            directions,
            ..
        } = *self;
        let mut preferred = preferred(model, directions);
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
pub(super) struct Progress<'a> {
    pub(super) setup: Setup<'a>,
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

/// How an attempt draws its set-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Drawing {
    /// Column by column, just ahead of the repairs ([`super::setup`]).
    Lazy,
    /// The whole channel before the first repair.
    Full,
}

/// What a stretch of an attempt's repairs came to.
enum Step {
    Routed,
    Failed(Failure),
    Paused,
}

/// A paused attempt: its grid and where it stands.
pub(super) type Paused<'a> = Box<(Grid, Progress<'a>)>;

/// Why [`Candidate::attempt_until`] gave no grid.
pub(super) enum Stop<'a> {
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

/// Columns the set-up draws at a time when no conflict is waiting.
const SETUP_CHUNK: i64 = 1024;
