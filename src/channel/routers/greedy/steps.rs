//! The steps of one column: bring the pins in (step 1), collapse split nets
//! and choose the slot each component keeps (steps 2 and 3), pull split
//! nets' outer tracks inwards (step 4), and move nets towards their next
//! pin (step 5).

use super::*;

impl<'a> State<'a> {
    /// The slot a pin of `net` on `side` reaches first going inwards that is
    /// empty or the net's own, then the net's own slot nearest the pin when
    /// that is another slot (so the second is `None` whenever the first is).
    pub(super) fn pin_candidates(&self, net: u32, side: Side) -> [Option<usize>; 2] {
        let n = self.slots();
        let mut nearest = None;
        let mut own = None;
        for i in 0..n {
            let s = match side {
                Side::Top => n - 1 - i,
                Side::Bottom => i,
            };
            let o = self.state[s];
            if nearest.is_none() && (o == 0 || o == net + 1) {
                nearest = Some(s);
            }
            if own.is_none() && o == net + 1 {
                own = Some(s);
            }
            if nearest.is_some() && own.is_some() {
                break;
            }
        }
        [nearest, own.filter(|&o| Some(o) != nearest)]
    }

    /// Step 1: the column's pins.
    pub(super) fn pins(&mut self, x: i64, t: Option<u32>, b: Option<u32>) {
        self.reset_parent();
        match (t, b) {
            (Some(t), Some(b)) if t == b => {
                // One net on both pins: a full vertical; a new track when
                // the net goes on and has none.
                if self.continues(t, x) && !self.state.contains(&(t + 1)) {
                    let bias = self.side_bias(t, x);
                    if !self.state.contains(&0) {
                        let p = if bias < 0 { 1 } else { self.rows + 1 };
                        self.insert_row(p);
                    }
                    let s = self.empty_towards(bias);
                    self.state[s] = t + 1;
                }
                self.reset_parent();
                let top = self.rows + 1;
                self.vertical(x, t, 0, top);
            }
            _ => {
                let need = |s: &Self, n: Option<u32>| {
                    n.filter(|&n| s.continues(n, x) || s.state.contains(&(n + 1)))
                };
                let (t, b) = (need(self, t), need(self, b));
                let (ct, cb) = loop {
                    if let Some(pair) = self.pin_pair(t, b) {
                        break pair;
                    }
                    self.make_room(t, b);
                };
                self.reset_parent();
                let top = self.rows + 1;
                if let (Some(t), Some(s)) = (t, ct) {
                    self.state[s] = t + 1;
                    let r = self.row(s);
                    self.vertical(x, t, r, top);
                }
                if let (Some(b), Some(s)) = (b, cb) {
                    self.state[s] = b + 1;
                    let r = self.row(s);
                    self.vertical(x, b, 0, r);
                }
            }
        }
    }

    /// An empty slot, as high as possible for `bias > 0`, as low as
    /// possible for `bias < 0`, nearest the middle otherwise.
    pub(super) fn empty_towards(&self, bias: i64) -> usize {
        let n = self.slots();
        let empties = (0..n).filter(|&s| self.state[s] == 0);
        match bias.signum() {
            1 => empties.max().expect("an empty slot"),
            -1 => empties.min().expect("an empty slot"),
            _ => empties
                .min_by_key(|&s| (2 * s as i64 - n as i64 + 1).abs())
                .expect("an empty slot"),
        }
    }

    /// The best compatible choice of slots for the top and bottom pins.
    pub(super) fn pin_pair(&self, t: Option<u32>, b: Option<u32>) -> Option<PinPair> {
        // The choices for one pin, as the slots and how many of them are
        // choices (no pin: the one choice `None`).
        let cands = |n: Option<u32>, side| -> Option<([Option<usize>; 2], usize)> {
            match n {
                None => Some(([None, None], 1)),
                Some(n) => {
                    let c = self.pin_candidates(n, side);
                    c[0]?;
                    Some((c, 1 + usize::from(c[1].is_some())))
                }
            }
        };
        let (tops, nt) = cands(t, Side::Top)?;
        let (bottoms, nb) = cands(b, Side::Bottom)?;
        let top_row = self.rows + 1;
        let mut best: Option<(i64, PinPair)> = None;
        for &ct in &tops[..nt] {
            for &cb in &bottoms[..nb] {
                let rt = ct.map_or(top_row + 1, |s| self.row(s));
                let rb = cb.map_or(-1, |s| self.row(s));
                if rb >= rt {
                    continue;
                }
                let mut cost = 0;
                if let (Some(n), Some(s)) = (t, ct) {
                    cost += top_row - rt;
                    if self.state[s] != n + 1 {
                        cost += self.params.own_bias;
                    }
                }
                if let (Some(n), Some(s)) = (b, cb) {
                    cost += rb;
                    if self.state[s] != n + 1 {
                        cost += self.params.own_bias;
                    }
                }
                if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                    best = Some((cost, (ct, cb)));
                }
            }
        }
        best.map(|(_, p)| p)
    }

    /// No compatible choice: add a row where the pin with the longer reach
    /// can get in (the other pin keeps its nearest slot).
    pub(super) fn make_room(&mut self, t: Option<u32>, b: Option<u32>) {
        let top_row = self.rows + 1;
        let nearest = |n: Option<u32>, side| n.and_then(|n| self.pin_candidates(n, side)[0]);
        let rt = nearest(t, Side::Top).map(|s| self.row(s));
        let rb = nearest(b, Side::Bottom).map(|s| self.row(s));
        match (rt, rb) {
            (Some(rt), Some(rb)) => {
                if top_row - rt <= rb {
                    // The top pin keeps its slot; the bottom one gets a new
                    // row just below it.
                    self.insert_row(rt);
                } else {
                    self.insert_row(rb + 1);
                }
            }
            // A pin with no empty or own slot at all: a new row on its side.
            (None, _) if t.is_some() => self.insert_row(self.rows + 1),
            _ => self.insert_row(1),
        }
    }

    /// Count the components of every net among the current column's slots
    /// into `pieces`, and list in `split` the nets in more than one.
    pub(super) fn count_pieces(&mut self) {
        self.stamp += 1;
        self.split.clear();
        for s in 0..self.slots() {
            let o = self.state[s];
            // A component holds one net's slots and its root is one of
            // them: each root a net owns is one of its components.
            if o != 0 && self.sets.is_root(s) {
                let entry = &mut self.pieces[(o - 1) as usize];
                if entry.0 != self.stamp {
                    *entry = (self.stamp, 0);
                }
                entry.1 += 1;
                if entry.1 == 2 {
                    self.split.push(o - 1);
                }
            }
        }
    }

    /// A net's components at the last [`State::count_pieces`].
    pub(super) fn pieces_of(&self, net: u32) -> u32 {
        let (stamp, n) = self.pieces[net as usize];
        if stamp == self.stamp {
            n
        } else {
            0
        }
    }

    /// Step 2: join split nets. Candidates are chains of a net's slots
    /// (rows `lo ..= hi` on the vertical layer, free of other nets); a chain
    /// is worth the tracks it frees (its components less one), plus one when
    /// it joins the whole net and the net ends here (the
    /// weighting after Rivest and Fiduccia). The heaviest set of chains on
    /// disjoint rows is chosen by dynamic programming over the rows.
    pub(super) fn collapse(&mut self, x: i64) {
        self.count_pieces();
        if self.split.is_empty() {
            return;
        }
        let slots = self.slots();
        let mut joins = std::mem::take(&mut self.joins);
        joins.chains.clear();
        for i in 0..self.split.len() {
            let net = self.split[i];
            joins.group.clear();
            for s in 0..slots {
                if self.state[s] == net + 1 {
                    joins.group.push((s, self.find(s)));
                }
            }
            let roots = self.pieces_of(net);
            let ends = !self.continues(net, x);
            let group = &joins.group;
            for a in 0..group.len() {
                let lo = self.row(group[a].0);
                // The components among `group[a ..= b]`.
                let mut seen = 1;
                for b in a + 1..group.len() {
                    let hi = self.row(group[b].0);
                    if !self.v_free(net, lo, hi) {
                        break;
                    }
                    let root = group[b].1;
                    if group[a..b].iter().all(|g| g.1 != root) {
                        seen += 1;
                    }
                    if seen < 2 {
                        continue;
                    }
                    let whole = seen == roots;
                    let w = seen - 1 + u32::from(whole && ends);
                    joins.chains.push((hi, lo, w, net));
                }
            }
        }
        if !joins.chains.is_empty() {
            let chains = &mut joins.chains;
            chains.sort_unstable();
            // best[y + 1]: the heaviest choice among chains with hi <= y.
            let top = self.rows as usize + 1;
            let (best, pick) = (&mut joins.best, &mut joins.pick);
            best.clear();
            best.resize(top + 2, 0);
            pick.clear();
            pick.resize(top + 2, None);
            let mut c = 0;
            for y in 0..=top {
                best[y + 1] = best[y];
                while c < chains.len() && chains[c].0 as usize == y {
                    let (_, lo, w, _) = chains[c];
                    let v = best[lo as usize] + w;
                    if v > best[y + 1] {
                        best[y + 1] = v;
                        pick[y + 1] = Some(c);
                    }
                    c += 1;
                }
            }
            let mut y = top + 1;
            while y > 0 {
                match pick[y] {
                    Some(c) => {
                        let (hi, lo, _, net) = chains[c];
                        self.vertical(x, net, lo, hi);
                        y = lo as usize;
                    }
                    _ => y -= 1,
                }
            }
        }
        self.joins = joins;
    }

    /// After the joins: which slot each component of each net keeps (the
    /// one nearest the side of its next pin); nets that end here keep none.
    pub(super) fn choose_kept(&mut self, x: i64) {
        let slots = self.slots();
        self.count_pieces();
        self.comp.clear();
        self.comp.resize(slots, (0, 0));
        for s in 0..slots {
            if self.state[s] != 0 {
                let r = self.find(s);
                self.comp[r].0 += 1;
            }
        }
        // Slots in ascending order: each component's slots come by rank.
        for s in 0..slots {
            let o = self.state[s];
            if o == 0 {
                continue;
            }
            let net = o - 1;
            if self.pieces_of(net) == 1 && !self.continues(net, x) {
                continue; // the net ends here
            }
            let r = self.find(s);
            let (size, rank) = self.comp[r];
            self.comp[r].1 += 1;
            let kept_rank = if size == 1 {
                0
            } else {
                match self.side_bias(net, x).signum() {
                    -1 => 0,
                    1 => size - 1,
                    _ => (size - 1) / 2,
                }
            };
            if rank == kept_rank {
                self.keep[s] = true;
            }
        }
    }

    /// Move a kept track of `net` from slot `from` to the empty slot `to`
    /// with a jog.
    pub(super) fn jog(&mut self, x: i64, net: u32, from: usize, to: usize) {
        let (a, b) = (self.row(from), self.row(to));
        self.state[to] = net + 1;
        self.keep[from] = false;
        self.keep[to] = true;
        self.vertical(x, net, a.min(b), a.max(b));
    }

    /// The farthest empty slot from `s` in the direction `dir` (+1 up, -1
    /// down) reachable on the free vertical layer, not beyond row `limit`.
    pub(super) fn reach(&self, net: u32, s: usize, dir: i64, limit: i64) -> Option<usize> {
        let mut best = None;
        let mut y = self.row(s);
        let own = self.vcol[y as usize];
        if own != 0 && own != net + 1 {
            return None;
        }
        loop {
            y += dir;
            if y < 1 || y > self.rows || (dir > 0 && y > limit) || (dir < 0 && y < limit) {
                break;
            }
            let o = self.vcol[y as usize];
            if o != 0 && o != net + 1 {
                break;
            }
            for j in 0..self.k {
                let t = (y as usize - 1) * self.k + j;
                if self.state[t] == 0 {
                    best = Some(t);
                    break;
                }
            }
        }
        best
    }

    /// The lowest two and the highest two slots kept by a net that keeps
    /// at least two, as `[lo, lo2, hi2, hi]`.
    pub(super) fn kept_ends(&self, net: u32) -> [usize; 4] {
        let (mut lo, mut lo2, mut hi2, mut hi) = (None, None, None, None);
        for s in 0..self.slots() {
            if self.keep[s] && self.state[s] == net + 1 {
                if lo.is_none() {
                    lo = Some(s);
                } else if lo2.is_none() {
                    lo2 = Some(s);
                }
                hi2 = hi;
                hi = Some(s);
            }
        }
        [lo, lo2, hi2, hi].map(|s| s.expect("a net keeping two slots"))
    }

    /// Step 3: pull the outermost tracks of nets still split inwards, by
    /// net (the nets [`State::choose_kept`] found split, which keep one
    /// slot per component).
    pub(super) fn reduce_ranges(&mut self, x: i64) {
        self.split.sort_unstable();
        for i in 0..self.split.len() {
            let net = self.split[i];
            let [lo, lo2, hi2, hi] = self.kept_ends(net);
            if let Some(to) = self.reach(net, hi, -1, self.row(hi2) + 1) {
                if self.row(hi) - self.row(to) >= self.params.min_jog {
                    self.jog(x, net, hi, to);
                }
            }
            if let Some(to) = self.reach(net, lo, 1, self.row(lo2) - 1) {
                if self.row(to) - self.row(lo) >= self.params.min_jog {
                    self.jog(x, net, lo, to);
                }
            }
        }
    }

    /// Step 4: nets in one piece whose next pin is on one side move towards
    /// it, nearest next pin first.
    pub(super) fn move_to_pins(&mut self, x: i64) {
        let mut movers = std::mem::take(&mut self.movers);
        movers.clear();
        for s in 0..self.slots() {
            if !self.keep[s] {
                continue;
            }
            let net = self.state[s] - 1;
            // As counted by `choose_kept`: the jogs since only move kept slots.
            if self.pieces_of(net) > 1 {
                continue; // split nets do not move here
            }
            let bias = self.side_bias(net, x);
            if bias == 0 {
                continue;
            }
            let next = self.next_pin(net, x).unwrap_or(i64::MAX);
            movers.push((next, s, net, bias));
        }
        movers.sort_unstable();
        for &(_, s, net, bias) in &movers {
            let limit = if bias > 0 { self.rows } else { 1 };
            if let Some(to) = self.reach(net, s, bias, limit) {
                if (self.row(to) - self.row(s)).abs() >= self.params.min_jog {
                    self.jog(x, net, s, to);
                }
            }
        }
        self.movers = movers;
    }
}
