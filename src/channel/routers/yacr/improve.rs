//! The local search after the assignment sweep ([`super::assign`]): move
//! single pieces to other slots, or swap two, while that lowers the number
//! of vertical constraint violations.

use std::collections::BTreeMap;

use super::assign::{violated, Item, PieceConstraints, Slot};
use crate::channel::problem::ChannelProblem;

/// Local search after the sweep: move single pieces to other slots where
/// they fit, while that lowers the number of vertical constraint violations.
pub fn improve(
    problem: &ChannelProblem,
    items: &[Item],
    constraints: &PieceConstraints,
    slots: &mut [Slot],
    rows: i64,
    h_layers: &[u32],
) {
    improve_passing(
        problem,
        items,
        constraints,
        slots,
        rows,
        h_layers,
        Turns::PassOverSettled,
    );
}

/// Which pieces get a turn in each pass of [`improve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Turns {
    /// Pass over the pieces nothing near has changed for since their last
    /// turn (they would make no move again).
    PassOverSettled,
    /// Give every piece its turn (the check that passing over is a pure
    /// speed-up).
    #[cfg(test)]
    Every,
}

/// [`improve`], giving the pieces their `turns`.
pub(super) fn improve_passing(
    problem: &ChannelProblem,
    items: &[Item],
    constraints: &PieceConstraints,
    slots: &mut [Slot],
    rows: i64,
    h_layers: &[u32],
    turns: Turns,
) {
    let mut st = Moves::new(problem, items, constraints, slots, rows, h_layers);
    let mut settled = vec![0u32; items.len()];
    let mut cons: Vec<(i64, bool)> = Vec::new();
    for _ in 0..6 {
        let mut moved = false;
        for k in 0..items.len() {
            // A settled piece is passed over (before its constraints are
            // read: nothing changes whichever way round).
            let (lo, hi) = (column(items[k].lo), column(items[k].hi));
            if turns == Turns::PassOverSettled
                && settled[k] > 0
                && st.stamps.max(lo, hi) <= settled[k]
            {
                continue;
            }
            constraints.gather_rows(k, &st.ys, &mut cons);
            let here = violated(&cons, slots[k].y);
            if here == 0 {
                continue;
            }
            if st.move_piece(slots, k, here, &cons) || st.swap_piece(slots, k, here) {
                moved = true;
                continue;
            }
            settled[k] = st.stamps.clock;
        }
        if !moved {
            break;
        }
    }
}

/// The column index of [`Stamps`] for column `x` (side columns included).
fn column(x: i64) -> usize {
    (x + 1) as usize
}

/// What the turns of [`improve_passing`] share: the slots, the pieces in
/// each, every piece's row and the stamps of the columns where pieces
/// moved.
struct Moves<'a> {
    items: &'a [Item],
    constraints: &'a PieceConstraints,
    rows: i64,
    h_layers: &'a [u32],
    /// Every slot, top row first.
    all: Vec<Slot>,
    /// Pieces of each slot by start column (pieces of one net may touch),
    /// with their right ends and nets.
    lanes: Vec<Lane>,
    /// Every piece's row, kept with the slots (compact: read at every turn).
    ys: Vec<i32>,
    /// What a piece's turn reads lies in the columns of the pieces that
    /// overlap it (their slots, their constraints, the lanes over them).
    /// When a piece moves, the columns of every piece overlapping it get a
    /// new stamp; a piece whose columns carry no stamp newer than its last
    /// turn without a move would make no move again, and is passed over.
    stamps: Stamps,
}

impl<'a> Moves<'a> {
    fn new(
        problem: &ChannelProblem,
        items: &'a [Item],
        constraints: &'a PieceConstraints,
        slots: &[Slot],
        rows: i64,
        h_layers: &'a [u32],
    ) -> Self {
        let all: Vec<Slot> = (1..=rows)
            .rev()
            .flat_map(|y| h_layers.iter().map(move |&layer| Slot { y, layer }))
            .collect();
        let mut st = Moves {
            items,
            constraints,
            rows,
            h_layers,
            lanes: vec![BTreeMap::new(); all.len()],
            all,
            ys: slots.iter().map(|s| s.y as i32).collect(),
            stamps: Stamps::new(problem.columns() as usize + 2),
        };
        for (k, &slot) in slots.iter().enumerate() {
            let (key, value) = st.entry(k);
            let si = st.slot_index(slot);
            st.lanes[si].insert(key, value);
        }
        st
    }

    fn slot_index(&self, s: Slot) -> usize {
        let l = self
            .h_layers
            .iter()
            .position(|&l| l == s.layer)
            .expect("a trunk layer");
        (self.rows - s.y) as usize * self.h_layers.len() + l
    }

    /// A piece's key and value in its lane.
    fn entry(&self, k: usize) -> ((i64, usize), (i64, u32)) {
        let it = self.items[k];
        ((it.lo, k), (it.hi, it.net))
    }

    /// Whether piece `k` fits in slot `si` (it may touch its own net's
    /// pieces).
    fn fits(&self, si: usize, k: usize) -> bool {
        let it = self.items[k];
        for (&(lo, _), &(hi, net)) in self.lanes[si].range(..=(it.hi, usize::MAX)).rev() {
            if hi < it.lo {
                break;
            }
            let touching = net == it.net && (hi == it.lo || lo == it.hi);
            if !touching {
                return false;
            }
        }
        true
    }

    /// Stamp the columns of every piece overlapping piece `p`, which moved.
    fn moved_piece(&mut self, p: usize) {
        self.stamps.clock += 1;
        let clock = self.stamps.clock;
        let it = self.items[p];
        for lane in &self.lanes {
            for (&(lo, _), &(hi, _)) in lane.range(..=(it.hi, usize::MAX)).rev() {
                if hi < it.lo {
                    break;
                }
                self.stamps.raise(column(lo), column(hi), clock);
            }
        }
    }

    /// Move piece `k` (with `here` violations under its constraints `cons`)
    /// to the slot where it fits with the fewest, if fewer: whether it
    /// moved.
    fn move_piece(
        &mut self,
        slots: &mut [Slot],
        k: usize,
        here: u32,
        cons: &[(i64, bool)],
    ) -> bool {
        let cur = self.slot_index(slots[k]);
        let (key, value) = self.entry(k);
        self.lanes[cur].remove(&key);
        let mut best = (here, cur);
        for (si, &s) in self.all.iter().enumerate() {
            if si == cur || !self.fits(si, k) {
                continue;
            }
            let v = violated(cons, s.y);
            if v < best.0 {
                best = (v, si);
            }
        }
        self.lanes[best.1].insert(key, value);
        if best.1 == cur {
            return false;
        }
        slots[k] = self.all[best.1];
        self.ys[k] = slots[k].y as i32;
        self.moved_piece(k);
        true
    }

    /// The swap of piece `k` (with `here` violations, in slot `cur`) with a
    /// piece of another net in another slot overlapping it that lowers
    /// their violations most: the gain (negative) and the other piece.
    fn best_swap(&mut self, k: usize, cur: usize, here: u32) -> Option<(i64, usize)> {
        let it = self.items[k];
        let (constraints, ys) = (self.constraints, &mut self.ys);
        let mut best_swap: Option<(i64, usize)> = None;
        for (si, lane) in self.lanes.iter().enumerate() {
            if si == cur {
                continue;
            }
            for (&(_, o), &(hi, net)) in lane.range(..=(it.hi, usize::MAX)).rev() {
                if hi < it.lo {
                    break;
                }
                if net == it.net {
                    continue;
                }
                let (yk, yo) = (ys[k], ys[o]);
                let before = here as i64 + constraints.violations_rows(ys, o, yo as i64) as i64;
                ys[k] = yo;
                ys[o] = yk;
                let after = constraints.violations_rows(ys, k, yo as i64) as i64
                    + constraints.violations_rows(ys, o, yk as i64) as i64;
                ys[k] = yk;
                ys[o] = yo;
                if after < before && best_swap.is_none_or(|(d, _)| after - before < d) {
                    best_swap = Some((after - before, o));
                }
            }
        }
        best_swap
    }

    /// Swap piece `k` (with `here` violations) with the piece of
    /// [`Moves::best_swap`] when both fit: whether they swapped.
    fn swap_piece(&mut self, slots: &mut [Slot], k: usize, here: u32) -> bool {
        let cur = self.slot_index(slots[k]);
        let Some((_, o)) = self.best_swap(k, cur, here) else {
            return false;
        };
        let (key, value) = self.entry(k);
        let (sk, so) = (slots[k], slots[o]);
        let (ck, co) = (cur, self.slot_index(so));
        let (key_o, value_o) = self.entry(o);
        self.lanes[ck].remove(&key);
        self.lanes[co].remove(&key_o);
        let ok = self.fits(co, k) && self.fits(ck, o);
        if ok {
            slots[k] = so;
            slots[o] = sk;
            self.ys[k] = so.y as i32;
            self.ys[o] = sk.y as i32;
            self.lanes[co].insert(key, value);
            self.lanes[ck].insert(key_o, value_o);
            self.moved_piece(k);
            self.moved_piece(o);
            return true;
        }
        self.lanes[ck].insert(key, value);
        self.lanes[co].insert(key_o, value_o);
        false
    }
}

/// The pieces in one slot: `(left end, piece)` to `(right end, net)`.
type Lane = BTreeMap<(i64, usize), (i64, u32)>;

/// Stamps on positions `0 .. n`: raise a range to a value, read a range's
/// highest (a segment tree with pending raises).
pub(super) struct Stamps {
    /// The last stamp given out.
    clock: u32,
    n: usize,
    /// Highest stamp in each node's range.
    high: Vec<u32>,
    /// Stamp raised over each node's whole range.
    whole: Vec<u32>,
}

impl Stamps {
    pub(super) fn new(n: usize) -> Self {
        let n = n.max(1).next_power_of_two();
        Stamps {
            clock: 0,
            n,
            high: vec![0; 2 * n],
            whole: vec![0; 2 * n],
        }
    }

    /// Raise positions `lo ..= hi` to at least `t`.
    pub(super) fn raise(&mut self, lo: usize, hi: usize, t: u32) {
        self.raise_in(1, 0, self.n - 1, lo, hi, t);
    }

    fn raise_in(&mut self, node: usize, a: usize, b: usize, lo: usize, hi: usize, t: u32) {
        if hi < a || b < lo {
            return;
        }
        self.high[node] = self.high[node].max(t);
        if lo <= a && b <= hi {
            self.whole[node] = self.whole[node].max(t);
            return;
        }
        let m = (a + b) / 2;
        self.raise_in(2 * node, a, m, lo, hi, t);
        self.raise_in(2 * node + 1, m + 1, b, lo, hi, t);
    }

    /// The highest stamp on positions `lo ..= hi`.
    pub(super) fn max(&self, lo: usize, hi: usize) -> u32 {
        self.max_in(1, 0, self.n - 1, lo, hi)
    }

    fn max_in(&self, node: usize, a: usize, b: usize, lo: usize, hi: usize) -> u32 {
        if hi < a || b < lo {
            return 0;
        }
        if lo <= a && b <= hi {
            return self.high[node];
        }
        let m = (a + b) / 2;
        self.whole[node]
            .max(self.max_in(2 * node, a, m, lo, hi))
            .max(self.max_in(2 * node + 1, m + 1, b, lo, hi))
    }
}
