//! The sweep's frame: setting up the left side terminals, one column at a
//! time (the steps in order), row insertion reaching back into the columns
//! routed, verticals and the vias they make, and the check at the right
//! end.

use super::*;

impl<'a> State<'a> {
    pub(super) fn new(problem: &'a ChannelProblem, k: usize, params: Params) -> Self {
        let nets = problem
            .net_ids()
            .map(|id| {
                let n = problem.net(id);
                NetInfo {
                    pins: &n.pins,
                    last: n.last_pin().map_or(-1, |c| c as i64),
                    right: n.right,
                    cursor: 0,
                }
            })
            .collect();
        let rows = params.initial_width.max(0);
        let net_count = problem.nets().len();
        State {
            problem,
            k,
            params,
            rows,
            order: Vec::new(),
            in_order: true,
            hist: Vec::new(),
            start: Vec::new(),
            carry: Vec::new(),
            verts: Vec::new(),
            vias: Vec::new(),
            nets,
            state: Vec::new(),
            vcol: Vec::new(),
            sets: UnionFind::default(),
            keep: Vec::new(),
            pieces: vec![(0, 0); net_count],
            stamp: 0,
            split: Vec::new(),
            comp: Vec::new(),
            joins: Joins::default(),
            movers: Vec::new(),
        }
    }

    pub(super) fn slots(&self) -> usize {
        self.k * self.rows as usize
    }

    /// The id of the row at `y` (0 and `W + 1` are the pin rows).
    pub(super) fn row_id(&self, y: i64) -> u32 {
        if y == 0 {
            BOTTOM
        } else if y == self.rows + 1 {
            TOP
        } else {
            self.order[y as usize - 1]
        }
    }

    /// Record the tracks leaving the current column, `carry` (by
    /// position), in `hist` by slot id.
    pub(super) fn snapshot(&mut self) {
        let base = self.hist.len();
        self.start.push(base);
        if self.in_order {
            self.hist.extend_from_slice(&self.carry);
            return;
        }
        self.hist.resize(base + self.carry.len(), 0);
        let k = self.k;
        for (owners, &id) in self.carry.chunks_exact(k).zip(&self.order) {
            let at = base + id as usize * k;
            self.hist[at..at + k].copy_from_slice(owners);
        }
    }

    pub(super) fn row(&self, s: usize) -> i64 {
        (s / self.k) as i64 + 1
    }

    pub(super) fn run(&mut self) -> Option<()> {
        let columns = self.problem.columns() as i64;
        // Column -1: the left side terminals, nets whose first pin is on the
        // top placed high.
        let mut left: Vec<(u32, i64)> = self
            .problem
            .left()
            .iter()
            .map(|&id| (id.0, self.side_bias(id.0, -1)))
            .collect();
        left.sort_by_key(|&(n, b)| (b, n));
        while (left.len() as i64) > self.rows * self.k as i64 {
            self.rows += 1;
        }
        self.order = (0..self.rows as u32).collect();
        let mut first = vec![0u32; self.slots()];
        // Bottom-bound nets from the bottom slot up, top-bound from the top
        // down, steady ones in the middle.
        let n = left.len();
        let lows: Vec<_> = left.iter().filter(|e| e.1 < 0).collect();
        let highs: Vec<_> = left.iter().rev().filter(|e| e.1 > 0).collect();
        let mids: Vec<_> = left.iter().filter(|e| e.1 == 0).collect();
        let mut free: Vec<usize> = (0..self.slots()).collect();
        for e in &lows {
            let s = free.remove(0);
            first[s] = e.0 + 1;
        }
        for e in &highs {
            let s = free.pop().expect("enough slots");
            first[s] = e.0 + 1;
        }
        let start = free.len().saturating_sub(mids.len()) / 2;
        for (i, e) in mids.iter().enumerate() {
            first[free[start + i]] = e.0 + 1;
        }
        debug_assert_eq!(first.iter().filter(|&&o| o != 0).count(), n);
        self.carry = first;
        self.snapshot();
        for x in 0..columns {
            self.column(x);
            if self.rows >= self.params.give_up_at {
                return None;
            }
        }
        self.finish()
    }

    /// +1 when the net's next pin after column `x` is on the top (and its
    /// next bottom pin is `steady` columns further or absent), -1 for the
    /// mirror case, 0 otherwise.
    pub(super) fn side_bias(&self, net: u32, x: i64) -> i64 {
        let pins = &self.nets[net as usize].pins;
        let rest = &pins[pins.partition_point(|p| p.column as i64 <= x)..];
        let mut next: Option<(i64, Side)> = None;
        let mut other_at: Option<i64> = None;
        for &Pin { column, side } in rest {
            let c = column as i64;
            match next {
                None => next = Some((c, side)),
                Some((_, s0)) => {
                    if side != s0 {
                        other_at = Some(c);
                        break;
                    }
                }
            }
        }
        match next {
            None => 0,
            Some((c, side)) => {
                if other_at.is_some_and(|o| o - c < self.params.steady) {
                    return 0;
                }
                match side {
                    Side::Top => 1,
                    Side::Bottom => -1,
                }
            }
        }
    }

    /// The next pin column after `x` of a net, by its cursor.
    pub(super) fn next_pin(&mut self, net: u32, x: i64) -> Option<i64> {
        let info = &mut self.nets[net as usize];
        while info.cursor < info.pins.len() && info.pins[info.cursor].column as i64 <= x {
            info.cursor += 1;
        }
        info.pins.get(info.cursor).map(|p| p.column as i64)
    }

    pub(super) fn reset_parent(&mut self) {
        let n = self.slots();
        self.sets.reset(n);
    }

    pub(super) fn find(&mut self, s: usize) -> usize {
        self.sets.find(s)
    }

    pub(super) fn union(&mut self, a: usize, b: usize) {
        self.sets.union(a, b);
    }

    /// Insert an empty row so that it becomes row `p` (rows `>= p` move
    /// up), in every column routed so far and in the current one.
    pub(super) fn insert_row(&mut self, p: i64) {
        let at = (p as usize - 1) * self.k;
        for _ in 0..self.k {
            self.state.insert(at, 0);
            self.carry.insert(at, 0);
        }
        let id = self.order.len() as u32;
        self.order.insert(p as usize - 1, id);
        self.in_order &= p == self.rows + 1;
        let span = self.vcol[(p - 1) as usize] != 0
            && self.vcol[(p - 1) as usize] == self.vcol[p as usize];
        let fill = if span { self.vcol[p as usize] } else { 0 };
        self.vcol.insert(p as usize, fill);
        self.rows += 1;
    }

    /// Whether the vertical layer is free for `net` on rows `a ..= b`.
    pub(super) fn v_free(&self, net: u32, a: i64, b: i64) -> bool {
        let (lo, hi) = (a.min(b), a.max(b));
        self.vcol[lo as usize..=hi as usize]
            .iter()
            .all(|&o| o == 0 || o == net + 1)
    }

    /// Put a vertical of `net` on rows `lo ..= hi` with vias to every slot
    /// of the net it passes (which joins them).
    pub(super) fn vertical(&mut self, x: i64, net: u32, lo: i64, hi: i64) {
        for y in lo..=hi {
            self.vcol[y as usize] = net + 1;
        }
        let (lo_id, hi_id) = (self.row_id(lo), self.row_id(hi));
        self.verts.push(Vert {
            x,
            net,
            lo: lo_id,
            hi: hi_id,
        });
        let mut joined: Option<usize> = None;
        for y in lo.max(1)..=hi.min(self.rows) {
            for j in 0..self.k {
                let s = (y as usize - 1) * self.k + j;
                if self.state[s] == net + 1 {
                    let slot = self.order[y as usize - 1] as usize * self.k + j;
                    self.vias.push(ViaRec { x, slot, net });
                    if let Some(o) = joined {
                        self.union(o, s);
                    }
                    joined = Some(s);
                }
            }
        }
    }

    /// Whether a net with a pin in column `x` still needs a track after it.
    pub(super) fn continues(&self, net: u32, x: i64) -> bool {
        let info = &self.nets[net as usize];
        info.right || info.last > x
    }

    pub(super) fn column(&mut self, x: i64) {
        self.state.clone_from(&self.carry);
        self.vcol.clear();
        self.vcol.resize(self.rows as usize + 2, 0);
        let t = self.problem.top()[x as usize].map(|id| id.0);
        let b = self.problem.bottom()[x as usize].map(|id| id.0);
        self.pins(x, t, b);
        let slots = self.slots();
        self.collapse(x);
        self.keep.clear();
        self.keep.resize(slots, false);
        self.choose_kept(x);
        self.reduce_ranges(x);
        self.move_to_pins(x);
        self.carry.clear();
        let kept = self.state.iter().zip(&self.keep);
        self.carry
            .extend(kept.map(|(&o, &keep)| if keep { o } else { 0 }));
        self.snapshot();
    }

    /// After the last column: every net done except right-side nets, each
    /// in one piece on one track (the side column is no place for jogs:
    /// the strict boundary rule keeps wires out of it but for the exits).
    pub(super) fn finish(&mut self) -> Option<()> {
        let mut alive: Vec<u32> = self.carry.iter().copied().filter(|&o| o != 0).collect();
        if alive.iter().any(|&o| !self.nets[(o - 1) as usize].right) {
            return None;
        }
        alive.sort_unstable();
        let before = alive.len();
        alive.dedup();
        (alive.len() == before).then_some(())
    }
}
