//! One step of the cut-through engine: free links with candidates are
//! assigned, then every worm holding a link moves one flit over each link
//! it holds (its head over the one it just won), all at once.

use super::{heap, wrap, Group, State, Worm};
use crate::sim::mesh::engine::draw;
use crate::sim::mesh::plan::Strategy;
use crate::sim::mesh::shape::Dir;

impl State<'_> {
    /// Step `t`.
    pub(super) fn step(&mut self, t: u64) {
        let random = self.config.strategy == Strategy::Random;
        let seed = self.config.seed;
        let mut links = std::mem::take(&mut self.active);
        for &b in &links {
            let bucket = &mut self.buckets[b as usize];
            let word = if random {
                heap::pop_drawn(bucket, |r| draw(seed, t, r))
            } else {
                heap::pop(bucket)
            };
            let w = self.who[word as u32 as usize];
            self.busy[b as usize] = true;
            let worm = &mut self.worms[w as usize];
            worm.won = true;
            if worm.len == 1 {
                self.moving.push(w);
            }
        }
        links.clear();
        self.active = links;
        self.touched.clear();
        let mut moving = std::mem::take(&mut self.moving);
        for &w in &moving {
            self.advance(w, t);
        }
        moving.retain(|&w| self.worms[w as usize].len > 1);
        self.moving = moving;
        self.out.steps = t;
        for &at in &self.touched {
            let load = self.load[at as usize];
            self.out.qmax = self.out.qmax.max(load.all);
            self.out.qmax_transit = self.out.qmax_transit.max(load.transit);
        }
    }

    /// Worm `w` in step `t`: the front flit of each group behind the head
    /// crosses the link held for its hop, so only the tail's group shrinks
    /// and the head's grows; then the head crosses the link it won, if it
    /// won one. A tail's group left empty releases its link.
    fn advance(&mut self, w: u32, t: u64) {
        let wi = w as usize;
        let cap = self.cap;
        let base = wi * cap;
        let mut worm = self.worms[wi];
        let front = worm.first as usize;
        let back = wrap(front + worm.len as usize - 1, cap);
        let (tail, head) = (worm.tail, worm.head());
        let head_moves = worm.won;
        worm.won = false;
        let last = if head_moves { head } else { head - 1 };
        self.mark_phases(w, tail, last, t);
        self.out.hops += u64::from(worm.len - 1) + u64::from(head_moves);
        if worm.len > 1 {
            self.groups[base + front].flits -= 1;
            self.groups[base + back].flits += 1;
            let from = &mut self.load[self.groups[base + front].at as usize];
            from.all -= 1;
            from.transit -= u32::from(tail > 0);
            let delivered = usize::from(worm.phase) == self.plan.phases;
            let at = &mut self.load[worm.pos as usize];
            at.all += 1;
            at.transit += u32::from(!delivered);
            self.touched.push(worm.pos);
        }
        if head_moves {
            self.groups[base + back].flits -= 1;
            self.groups[base + back].at = worm.pos;
            self.groups[base + back].slot = worm.slot;
            self.groups[base + wrap(back + 1, cap)].flits = 1;
            worm.len += 1;
            self.move_head(&mut worm, head);
        }
        let tail_crossed = self.groups[base + front].flits == 0;
        if tail_crossed {
            let Group { at, slot, .. } = self.groups[base + front];
            self.release(at as usize * self.shape.slots() + usize::from(slot));
            worm.first = wrap(front + 1, cap) as u32;
            worm.tail += 1;
            worm.len -= 1;
        }
        let (len, front) = (worm.len as usize, worm.first as usize);
        assert!(
            len <= self.flits as usize
                && self.groups[base + front].flits > 0
                && self.groups[base + wrap(front + len - 1, cap)].flits > 0,
            "worm {w} is cut in step {t}"
        );
        let leg_done = head_moves && worm.left == 0;
        self.worms[wi] = worm;
        if tail_crossed {
            self.tail_through(w);
        }
        if leg_done {
            let j = usize::from(worm.phase);
            self.ends[wi * self.plan.phases + j] = head + 1;
            self.start_leg(w, j + 1, t + 1);
        } else if head_moves {
            self.enqueue(w, t + 1);
        }
    }

    /// The head of `worm`, at hop `head`, crosses the link it won.
    fn move_head(&mut self, worm: &mut Worm, head: u32) {
        let from = &mut self.load[worm.pos as usize];
        from.all -= 1;
        from.transit -= u32::from(head > 0);
        let slot = usize::from(worm.slot);
        let dir = if slot & 1 == 0 { Dir::Up } else { Dir::Down };
        let stride = self.stride[slot >> 1];
        let next = self.shape.step(worm.x, dir);
        worm.pos = worm.pos - worm.x * stride + next * stride;
        worm.x = next;
        let at = &mut self.load[worm.pos as usize];
        at.all += 1;
        at.transit += 1;
        self.touched.push(worm.pos);
        worm.left -= 1;
        worm.made += 1;
        worm.total_left = worm.total_left.saturating_sub(1);
    }

    /// Marks step `t` as a step of every phase whose leg has a hop among
    /// `tail ..= last`, the hops of `w` crossed in it.
    fn mark_phases(&mut self, w: u32, tail: u32, last: u32, t: u64) {
        let wi = w as usize;
        let phases = self.plan.phases;
        let head_phase = usize::from(self.worms[wi].phase);
        let mut j = usize::from(self.worms[wi].tail_phase);
        if j == head_phase && j < phases {
            // The whole worm is in the head's leg.
            self.out.phase_end[j] = t;
            return;
        }
        let ends = &self.ends[wi * phases..(wi + 1) * phases];
        while j < phases {
            let start = if j == 0 { 0 } else { ends[j - 1] };
            if start > last {
                break;
            }
            let end = if j < head_phase { ends[j] } else { u32::MAX };
            if end > start.max(tail) {
                self.out.phase_end[j] = t;
            }
            if j >= head_phase {
                break;
            }
            j += 1;
        }
    }

    /// Link `b`'s tail crossed: it is free from the next step on.
    fn release(&mut self, b: usize) {
        self.busy[b] = false;
        if !self.buckets[b].is_empty() {
            self.active.push(b as u32);
        }
    }

    /// Where every flit is, worm by worm and head first.
    #[cfg(test)]
    pub(super) fn flit_positions(&self) -> Vec<super::Pu> {
        let mut out = Vec::with_capacity(self.worms.len() * self.flits as usize);
        for (wi, worm) in self.worms.iter().enumerate() {
            let len = worm.len as usize;
            for i in (0..len).rev() {
                let g = self.groups[wi * self.cap + wrap(worm.first as usize + i, self.cap)];
                let at = if i + 1 == len { worm.pos } else { g.at };
                out.extend(std::iter::repeat_n(at, g.flits as usize));
            }
        }
        out
    }
}
