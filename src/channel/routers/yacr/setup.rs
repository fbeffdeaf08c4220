//! The set-up of an attempt: pins, trunk pieces and the straight risers of
//! the columns without a conflict, drawn from left to right just ahead of
//! the repairs, and the conflicting columns listed for them. A long channel
//! whose attempt fails early is never drawn in full.

use super::assign::Columns;
use super::repair::SEEN_BEYOND;
use super::riser::{draw_riser, Joints, Riser};
use super::*;

/// The lazy set-up of one attempt: pins, trunk pieces and the risers of the
/// columns without a conflict, drawn from left to right up to three
/// frontiers (pins, trunks, risers) that keep each net's cells in the order a
/// full set-up would claim them: all its pins, then all its trunk pieces,
/// then all its risers.
pub(super) struct Setup<'a> {
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
    /// Trunk pieces that end left of this column are not drawn.
    skip_before: i64,
    /// Conflicts left of this column are neither listed nor drawn.
    repair_from: i64,
    /// Columns where two risers would overlap on one layer, in column order.
    pub(super) conflicts: Vec<(i64, Riser, Riser)>,
}

/// What every set-up of one trunk-piece variant orders alike.
pub(super) struct Order {
    /// Item indices by left end (then index).
    by_lo: Vec<usize>,
    /// `reach[c + 1]`: one past the last column of every net that starts
    /// left of column `c`, and at least `c`.
    reach: Vec<i64>,
    /// The pieces meeting each pin column of their net: the riser of a
    /// net's pin column joins them. (They are drawn by then: a riser is
    /// drawn after every piece that starts left of its column.)
    meeting: Columns,
}

impl Order {
    pub(super) fn new(problem: &ChannelProblem, items: &[Item]) -> Self {
        let columns = problem.columns() as i64;
        // Keys end in the piece, so an unstable sort is a stable one.
        let mut keyed: Vec<(i64, usize)> =
            items.iter().enumerate().map(|(k, it)| (it.lo, k)).collect();
        keyed.sort_unstable();
        let by_lo: Vec<usize> = keyed.into_iter().map(|(_, k)| k).collect();
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
        let meeting = Columns::meeting(problem, items);
        Order {
            by_lo,
            reach,
            meeting,
        }
    }

    /// The pieces meeting each pin column of their net.
    pub(super) fn meeting(&self) -> &Columns {
        &self.meeting
    }
}

impl<'a> Setup<'a> {
    pub(super) fn new(
        problem: &'a ChannelProblem,
        model: LayerModel,
        g: &Grid,
        items: &'a [Item],
        slots: &'a [Slot],
        order: &'a Order,
    ) -> Self {
        debug_assert_eq!(order.by_lo.len(), items.len(), "the items' own order");
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
    /// can see (columns from [`MAX_REACH`](super::repair::MAX_REACH) and a margin left of it), and
    /// leave the conflicts left of `from` alone. Before anything is drawn.
    pub(super) fn start_at(&mut self, from: i64) {
        debug_assert_eq!(self.drawn(), 0, "nothing drawn yet");
        let first = (from - SEEN_BEYOND).clamp(0, self.columns());
        self.pins = first;
        self.risers = first;
        self.skip_before = first;
        self.repair_from = from;
    }

    /// How far to draw before repairing a conflict in column `x`: a repair
    /// reads and writes the columns within [`MAX_REACH`](super::repair::MAX_REACH) of `x` (columns up
    /// to [`SEEN_BEYOND`] past `x`, a margin for the searches' edges), and
    /// labels the components of the nets it meets there, so every net that
    /// starts in or left of those columns must be drawn whole.
    pub(super) fn ahead_of(&self, x: i64) -> i64 {
        self.reach(x.saturating_add(SEEN_BEYOND + 1))
    }

    /// Columns `< drawn()` have their risers.
    pub(super) fn drawn(&self) -> i64 {
        self.risers
    }

    pub(super) fn done(&self) -> bool {
        self.risers >= self.columns()
    }

    /// Draw the risers of the columns `< upto` and whatever they need first,
    /// outside any open trial of the grid (the repairs so far touched only
    /// columns drawn before them, and nets drawn whole). False when a trunk
    /// or a riser meets a blocked point (the attempt fails).
    pub(super) fn draw(&mut self, g: &mut Grid, upto: i64) -> bool {
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
                    for l in 1..=g.extent.layers {
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
        }
        // The risers of each column; two risers on one V layer that overlap
        // make the column a conflict to repair.
        while self.risers < risers {
            let x = self.risers;
            self.risers += 1;
            let top = self.top;
            let t = problem.top()[x as usize].map(|id| id.0);
            let b = problem.bottom()[x as usize].map(|id| id.0);
            let (meeting, slots) = (&self.order.meeting, self.slots);
            let riser = |net: u32, pin_rows: &[i64], layer: u32| {
                let mut joints = Joints::default();
                for k in meeting.of(net, x) {
                    joints.push((slots[k].y, slots[k].layer));
                }
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
            // The bottom pin's riser, then the top pin's (one riser when
            // both pins are of one net).
            let (lower, upper) = match (t, b) {
                (Some(t), Some(b)) if t == b => (Some(riser(t, &[0, top], self.v_bottom)), None),
                _ => (
                    b.map(|b| riser(b, &[0], self.v_bottom)),
                    t.map(|t| riser(t, &[top], self.v_top)),
                ),
            };
            if let (Some(l), Some(u)) = (&lower, &upper) {
                if l.layer == u.layer && u.lo <= l.hi {
                    if x >= self.repair_from {
                        let (l, u) = (lower.expect("matched"), upper.expect("matched"));
                        self.conflicts.push((x, l, u));
                    }
                    continue;
                }
            }
            for r in lower.iter().chain(&upper) {
                if !draw_riser(g, x, r) {
                    return false;
                }
            }
        }
        true
    }
}
