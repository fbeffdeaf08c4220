//! Bounded queues of packet ids in three flat arrays: queue `v`'s length
//! is `lens[v]`, its oldest packet `heads[v]`, and the others, oldest
//! first, `cap - 1` entries of `rest` from `v * (cap - 1)`.
//!
//! A sweep reads lengths and heads most, and few switches of a level hold
//! packets at once (about one in eight on random traffic), mostly one
//! each: dense lengths (16 bits for a switch: a cache line serves 32) and
//! dense heads (a line serves 16) keep what a hop reads on few cache
//! lines, and `rest` is touched only by queues of two or more. Queues are
//! short (a switch holds at most `q + 2` packets), so removing from the
//! middle shifts the rest down instead of keeping a ring.

/// A queue length: 16 bits for switches (at most `MAX_Q + 2`), 32 for the
/// unbounded injection queues.
pub(crate) trait Len: Copy + Default {
    /// As a count.
    fn get(self) -> usize;
    /// From a count that fits.
    fn of(len: usize) -> Self;
}

impl Len for u16 {
    #[inline(always)]
    fn get(self) -> usize {
        self as usize
    }

    #[inline(always)]
    fn of(len: usize) -> Self {
        len as u16
    }
}

impl Len for u32 {
    #[inline(always)]
    fn get(self) -> usize {
        self as usize
    }

    #[inline(always)]
    fn of(len: usize) -> Self {
        len as u32
    }
}

/// `count` queues of capacity `cap` each.
#[derive(Clone, Debug)]
pub(crate) struct Bank<L> {
    cap: usize,
    lens: Vec<L>,
    heads: Vec<u32>,
    rest: Vec<u32>,
}

impl<L: Len> Bank<L> {
    /// `count` empty queues of capacity `cap`.
    pub(crate) fn new(count: usize, cap: usize) -> Self {
        Bank {
            cap,
            lens: vec![L::default(); count],
            heads: vec![0; count],
            rest: vec![0; count * cap.saturating_sub(1)],
        }
    }

    /// Every queue.
    pub(crate) fn view(&mut self) -> View<'_, L> {
        View::new(self.cap, &mut self.lens, &mut self.heads, &mut self.rest)
    }

    /// Queues `lo .. mid` and `mid .. hi`, apart.
    pub(crate) fn split(&mut self, lo: usize, mid: usize, hi: usize) -> (View<'_, L>, View<'_, L>) {
        let (c, r) = (self.cap, self.cap.saturating_sub(1));
        let (la, lb) = self.lens[lo..hi].split_at_mut(mid - lo);
        let (ha, hb) = self.heads[lo..hi].split_at_mut(mid - lo);
        let (ra, rb) = self.rest[lo * r..hi * r].split_at_mut((mid - lo) * r);
        (View::new(c, la, ha, ra), View::new(c, lb, hb, rb))
    }
}

/// A run of a bank's queues, numbered from 0: queue `v`'s length is
/// `lens[v]`, at most `cap`; its oldest packet is `heads[v]` and the
/// others, oldest first, `rest[v * (cap - 1) ..]`.
pub(crate) struct View<'a, L> {
    /// `cap - 1`: the room of a queue's `rest`.
    more: usize,
    lens: &'a mut [L],
    heads: &'a mut [u32],
    rest: &'a mut [u32],
}

impl<'a, L> View<'a, L> {
    fn new(cap: usize, lens: &'a mut [L], heads: &'a mut [u32], rest: &'a mut [u32]) -> Self {
        let more = cap.saturating_sub(1);
        debug_assert_eq!(lens.len(), heads.len());
        debug_assert_eq!(lens.len() * more, rest.len());
        View {
            more,
            lens,
            heads,
            rest,
        }
    }
}

impl<L: Len> View<'_, L> {
    /// The same queues, borrowed anew (for a loop to hold in locals).
    #[inline(always)]
    pub(crate) fn reborrow(&mut self) -> View<'_, L> {
        View {
            more: self.more,
            lens: &mut *self.lens,
            heads: &mut *self.heads,
            rest: &mut *self.rest,
        }
    }

    /// Where queue `v`'s packets after its head start in `rest`.
    #[inline(always)]
    fn rest_start(&self, v: usize) -> usize {
        // Queue numbers and capacities are far too small to wrap; an index
        // past the end fails the slice's own bounds check.
        v.wrapping_mul(self.more)
    }

    /// The number of packets in queue `v`.
    #[inline(always)]
    pub(crate) fn len(&self, v: usize) -> usize {
        self.lens[v].get()
    }

    /// The packet at position `at` (0 the oldest) of queue `v`.
    #[inline(always)]
    pub(crate) fn get(&self, v: usize, at: usize) -> u32 {
        debug_assert!(at < self.lens[v].get(), "position {at} of queue {v}");
        match at {
            0 => self.heads[v],
            _ => self.rest[self.rest_start(v) + at - 1],
        }
    }

    /// Queue `v`'s packets, oldest first.
    pub(crate) fn items(&self, v: usize) -> impl Iterator<Item = u32> + '_ {
        (0..self.len(v)).map(move |at| self.get(v, at))
    }

    /// Queue `v`'s oldest packet; the queue must hold one.
    #[inline(always)]
    pub(crate) fn head(&self, v: usize) -> u32 {
        debug_assert!(self.lens[v].get() >= 1, "queue {v} is empty");
        self.heads[v]
    }

    /// Appends packet `id` to queue `v`, which must have room; returns the
    /// new length.
    #[inline(always)]
    pub(crate) fn push(&mut self, v: usize, id: u32) -> u32 {
        let len = self.lens[v].get();
        debug_assert!(len <= self.more, "queue {v} overflows");
        if len == 0 {
            self.heads[v] = id;
        } else {
            let start = self.rest_start(v);
            self.rest[start + len - 1] = id;
        }
        self.lens[v] = L::of(len + 1);
        len as u32 + 1
    }

    /// Removes queue `v`'s oldest packet; returns the new length.
    #[inline(always)]
    pub(crate) fn pop_front(&mut self, v: usize) -> u32 {
        self.remove(v, 0)
    }

    /// Removes the packet at position `at` of queue `v`, keeping the order
    /// of the rest; returns the new length.
    #[inline(always)]
    pub(crate) fn remove(&mut self, v: usize, at: usize) -> u32 {
        let len = self.lens[v].get();
        debug_assert!(at < len, "position {at} of a queue of {len}");
        // Most queues hold one packet: nothing to shift.
        if len > 1 {
            let start = self.rest_start(v);
            let rest = &mut self.rest[start..start + len - 1];
            if at == 0 {
                self.heads[v] = rest[0];
            }
            // A short loop: queues hold a handful of ids, and memmove's
            // call costs more than the copy.
            for i in at.saturating_sub(1)..len - 2 {
                rest[i] = rest[i + 1];
            }
        }
        self.lens[v] = L::of(len - 1);
        len as u32 - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pushes and removals against a `Vec` per queue, for capacities 1
    /// (no `rest`) to 5, through a split-off view as the sweep uses them.
    #[test]
    fn bank_matches_vectors() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let count = 5;
        for cap in 1..=5 {
            let mut owner = Bank::<u16>::new(count + 2, cap);
            let (_, mut bank) = owner.split(0, 2, count + 2);
            let mut slow: Vec<Vec<u32>> = vec![Vec::new(); count];
            for id in 0..2000u32 {
                let v = rng.gen_range(0..count);
                if slow[v].len() < cap && rng.gen_bool(0.55) {
                    assert_eq!(bank.push(v, id) as usize, slow[v].len() + 1);
                    slow[v].push(id);
                } else if !slow[v].is_empty() && rng.gen_bool(0.5) {
                    assert_eq!(bank.pop_front(v) as usize, slow[v].len() - 1);
                    slow[v].remove(0);
                } else if !slow[v].is_empty() {
                    let at = rng.gen_range(0..slow[v].len());
                    bank.remove(v, at);
                    slow[v].remove(at);
                }
                for (u, s) in slow.iter().enumerate() {
                    assert_eq!(bank.items(u).collect::<Vec<_>>(), *s);
                    assert_eq!(bank.len(u), s.len());
                    if let Some(&first) = s.first() {
                        assert_eq!(bank.head(u), first);
                    }
                }
            }
        }
    }
}
