//! Bounded queues in two flat arrays: queue `v`'s length is `lens[v]`, and
//! its packet ids, oldest first, occupy `cap` words of `slots` from
//! `v * cap`. The lengths are dense because they are what a sweep reads
//! most: a receiver's room is tested before anything is appended, and few
//! switches of a level hold packets at once, so one cache line of lengths
//! serves 16 switches where a line of queues served three. Queues are short
//! (a switch holds at most `q + 2` packets), so removing from the middle
//! shifts the rest down instead of keeping a ring.

/// `count` queues of capacity `cap` each.
#[derive(Clone, Debug)]
pub(crate) struct Bank {
    cap: usize,
    lens: Vec<u32>,
    slots: Vec<u32>,
}

impl Bank {
    /// `count` empty queues of capacity `cap`.
    pub(crate) fn new(count: usize, cap: usize) -> Self {
        Bank {
            cap,
            lens: vec![0; count],
            slots: vec![0; count * cap],
        }
    }

    /// Every queue.
    pub(crate) fn view(&mut self) -> View<'_> {
        View::new(self.cap, &mut self.lens, &mut self.slots)
    }

    /// Queues `lo .. mid` and `mid .. hi`, apart.
    pub(crate) fn split(&mut self, lo: usize, mid: usize, hi: usize) -> (View<'_>, View<'_>) {
        let c = self.cap;
        let (la, lb) = self.lens[lo..hi].split_at_mut(mid - lo);
        let (sa, sb) = self.slots[lo * c..hi * c].split_at_mut((mid - lo) * c);
        (View::new(c, la, sa), View::new(c, lb, sb))
    }
}

/// A run of a bank's queues, numbered from 0: queue `v`'s length is
/// `lens[v]`, at most `cap`, and its ids are `slots[v * cap ..]`.
pub(crate) struct View<'a> {
    cap: usize,
    lens: &'a mut [u32],
    slots: &'a mut [u32],
}

impl<'a> View<'a> {
    fn new(cap: usize, lens: &'a mut [u32], slots: &'a mut [u32]) -> Self {
        debug_assert_eq!(lens.len() * cap, slots.len());
        View { cap, lens, slots }
    }
}

impl View<'_> {
    /// The same queues, borrowed anew (for a loop to hold in locals).
    #[inline(always)]
    pub(crate) fn reborrow(&mut self) -> View<'_> {
        View {
            cap: self.cap,
            lens: &mut *self.lens,
            slots: &mut *self.slots,
        }
    }

    /// The first slot of queue `v`.
    #[inline(always)]
    fn start(&self, v: usize) -> usize {
        // Queue numbers and capacities are far too small to wrap (and the
        // multiply is not checked twice); an index past the end fails the
        // slice's own bounds check.
        v.wrapping_mul(self.cap)
    }

    /// The number of packets in queue `v`.
    #[inline(always)]
    pub(crate) fn len(&self, v: usize) -> usize {
        self.lens[v] as usize
    }

    /// Queue `v`'s packets, oldest first.
    #[inline(always)]
    pub(crate) fn items(&self, v: usize) -> &[u32] {
        let start = self.start(v);
        &self.slots[start..start + self.lens[v] as usize]
    }

    /// Queue `v`'s oldest packet; the queue must hold one.
    #[inline(always)]
    pub(crate) fn head(&self, v: usize) -> u32 {
        debug_assert!(self.lens[v] >= 1, "queue {v} is empty");
        self.slots[self.start(v)]
    }

    /// Appends `id` to queue `v`, which must have room; returns the new
    /// length.
    #[inline(always)]
    pub(crate) fn push(&mut self, v: usize, id: u32) -> u32 {
        let len = self.lens[v];
        debug_assert!((len as usize) < self.cap, "queue {v} overflows");
        let start = self.start(v);
        self.slots[start + len as usize] = id;
        self.lens[v] = len + 1;
        len + 1
    }

    /// Removes queue `v`'s oldest packet; returns the new length.
    #[inline(always)]
    pub(crate) fn pop_front(&mut self, v: usize) -> u32 {
        let len = self.lens[v] as usize;
        debug_assert!(len >= 1, "queue {v} is empty");
        // Most queues hold one packet: nothing to shift.
        if len > 1 {
            let start = self.start(v);
            let queue = &mut self.slots[start..start + len];
            for i in 0..len - 1 {
                queue[i] = queue[i + 1];
            }
        }
        self.lens[v] = len as u32 - 1;
        len as u32 - 1
    }

    /// Removes the packet at position `at` of queue `v`, keeping the order
    /// of the rest; returns the new length.
    #[inline(always)]
    pub(crate) fn remove(&mut self, v: usize, at: usize) -> u32 {
        let len = self.lens[v] as usize;
        debug_assert!(at < len, "position {at} of a queue of {len}");
        let start = self.start(v);
        // A short loop: queues hold a handful of ids, and memmove's call
        // costs more than the copy.
        let queue = &mut self.slots[start..start + len];
        for i in at..len - 1 {
            queue[i] = queue[i + 1];
        }
        self.lens[v] = len as u32 - 1;
        len as u32 - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pushes and removals against a `Vec` per queue.
    #[test]
    fn bank_matches_vectors() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let (count, cap) = (5, 4);
        let mut owner = Bank::new(count, cap);
        let mut bank = owner.view();
        let mut slow: Vec<Vec<u32>> = vec![Vec::new(); count];
        for id in 0..2000u32 {
            let v = rng.gen_range(0..count);
            if slow[v].len() < cap && rng.gen_bool(0.55) {
                bank.push(v, id);
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
                assert_eq!(bank.items(u), s.as_slice());
                assert_eq!(bank.len(u), s.len());
                if let Some(&first) = s.first() {
                    assert_eq!(bank.head(u), first);
                }
            }
        }
    }
}
