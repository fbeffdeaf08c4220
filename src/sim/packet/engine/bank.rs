//! Bounded queues in one flat array: queue `v` occupies `cap + 1` words
//! from `v * (cap + 1)`: its length, then its packet ids oldest first. The
//! length sits beside the ids so one cache line serves both. Queues are
//! short (a switch holds at most `q + 2` packets), so removing from the
//! middle shifts the rest down instead of keeping a ring.

/// `count` queues of capacity `cap` each.
#[derive(Clone, Debug)]
pub(crate) struct Bank {
    stride: usize,
    buf: Vec<u32>,
}

impl Bank {
    /// `count` empty queues of capacity `cap`.
    pub(crate) fn new(count: usize, cap: usize) -> Self {
        Bank {
            stride: cap + 1,
            buf: vec![0; count * (cap + 1)],
        }
    }

    /// Every queue.
    pub(crate) fn view(&mut self) -> View<'_> {
        View::new(self.stride, &mut self.buf)
    }

    /// Queues `lo .. mid` and `mid .. hi`, apart.
    pub(crate) fn split(&mut self, lo: usize, mid: usize, hi: usize) -> (View<'_>, View<'_>) {
        let s = self.stride;
        let (a, b) = self.buf[lo * s..hi * s].split_at_mut((mid - lo) * s);
        (View::new(s, a), View::new(s, b))
    }
}

/// A run of a bank's queues, numbered from 0: queue `v`'s length is
/// `buf[v * stride]`, at most `stride - 1`, and its ids follow.
pub(crate) struct View<'a> {
    stride: usize,
    buf: &'a mut [u32],
}

impl<'a> View<'a> {
    fn new(stride: usize, buf: &'a mut [u32]) -> Self {
        debug_assert!(stride >= 1 && buf.len() % stride == 0);
        View { stride, buf }
    }
}

impl View<'_> {
    /// The same queues, borrowed anew (for a loop to hold in locals).
    #[inline(always)]
    pub(crate) fn reborrow(&mut self) -> View<'_> {
        View {
            stride: self.stride,
            buf: &mut *self.buf,
        }
    }

    /// The first word of queue `v` (its length).
    #[inline(always)]
    fn start(&self, v: usize) -> usize {
        // Queue numbers and strides are far too small to wrap (and the
        // multiply is not checked twice); an index past the end fails the
        // slice's own bounds check.
        v.wrapping_mul(self.stride)
    }

    /// The number of packets in queue `v`.
    #[inline(always)]
    pub(crate) fn len(&self, v: usize) -> usize {
        let start = self.start(v);
        self.buf[start] as usize
    }

    /// Queue `v`'s packets, oldest first.
    #[inline(always)]
    pub(crate) fn items(&self, v: usize) -> &[u32] {
        let start = self.start(v);
        let len = self.buf[start] as usize;
        &self.buf[start + 1..start + 1 + len]
    }

    /// Queue `v`'s oldest packet; the queue must hold one.
    #[inline(always)]
    pub(crate) fn head(&self, v: usize) -> u32 {
        let start = self.start(v);
        debug_assert!(self.buf[start] >= 1, "queue {v} is empty");
        self.buf[start + 1]
    }

    /// Appends `id` to queue `v`, which must have room; returns the new
    /// length.
    #[inline(always)]
    pub(crate) fn push(&mut self, v: usize, id: u32) -> u32 {
        let start = self.start(v);
        let len = self.buf[start];
        debug_assert!((len as usize) + 1 < self.stride, "queue {v} overflows");
        self.buf[start + 1 + len as usize] = id;
        self.buf[start] = len + 1;
        len + 1
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
        let start = self.start(v);
        let len = self.buf[start] as usize;
        debug_assert!(at < len, "position {at} of a queue of {len}");
        // A short loop: queues hold a handful of ids, and memmove's call
        // costs more than the copy.
        let queue = &mut self.buf[start + 1..start + 1 + len];
        for i in at..len - 1 {
            queue[i] = queue[i + 1];
        }
        self.buf[start] = len as u32 - 1;
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
