//! The candidates of one directed link, held in a slice of the link
//! arena ([`super::links`]): a binary max-heap of [`Entry`]s ordered by
//! their packed `(key << 32) | rank` words, or, for the random strategy,
//! an unordered list from which each step draws afresh.

use super::draw;

/// A candidate: its heap word and the state a hop updates, so that a hop
/// touches only the links it leaves and joins. Packed to 12 bytes
/// (aligned to 4) so that more candidates share a cache line; fields are
/// only ever copied, never borrowed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, packed(4))]
pub(super) struct Entry {
    /// `(key << 32) | rank`, the key being `(255 - phase) << 24 | measure`
    /// (never 0: at most 255 phases).
    pub word: u64,
    /// Hops left in the leg (low 16 bits; 0 marks an empty pending slot),
    /// the coordinate along the leg's axis (next 15 bits) and [`TRANSIT`]
    /// once the packet has moved (until it is delivered).
    pub aux: u32,
}

/// The flag of [`Entry::aux`] marking a packet in transit.
pub(super) const TRANSIT: u32 = 1 << 31;

impl Entry {
    /// A candidate with `word`, `left` hops to go, at coordinate `x`, in
    /// transit if `transit`.
    pub fn new(word: u64, left: u32, x: u32, transit: bool) -> Entry {
        let t = if transit { TRANSIT } else { 0 };
        Entry {
            word,
            aux: left | x << 16 | t,
        }
    }

    /// Hops left in the leg.
    #[inline]
    pub fn left(self) -> u32 {
        self.aux & 0xffff
    }

    /// The coordinate along the leg's axis.
    #[inline]
    pub fn x(self) -> u32 {
        (self.aux >> 16) & 0x7fff
    }

    /// 1 if the packet is in transit, else 0.
    #[inline]
    pub fn transit(self) -> u32 {
        self.aux >> 31
    }

    /// The rank (the low half of the word).
    #[inline]
    pub fn rank(self) -> u32 {
        self.word as u32
    }

    /// The phase of the leg (from the top byte of the word).
    #[inline]
    pub fn phase(self) -> usize {
        255 - (self.word >> 56) as usize
    }

    /// `a` if `c`, else `b`, without a branch.
    #[inline(always)]
    pub fn pick(c: bool, a: Entry, b: Entry) -> Entry {
        let m = (c as u64).wrapping_neg();
        let m32 = m as u32;
        Entry {
            word: (a.word & m) | (b.word & !m),
            aux: (a.aux & m32) | (b.aux & !m32),
        }
    }
}

/// Places of a heap kept in its link's record; the rest live in the
/// link's arena slice (the tail): heap place `i >= HEAD` is `tail[i - HEAD]`.
pub(super) const HEAD: usize = 3;

/// Puts `e` in the root of the heap `head[..len]` (`1 <= len <= HEAD`),
/// whose root is a hole, and restores the heap without branches.
#[inline(always)]
pub(super) fn sift_head(head: &mut [Entry; HEAD], len: usize, e: Entry) {
    let (a, b) = (head[1], head[2]);
    // The larger child: the second only if there are two and it wins.
    let two = (len > 2) & (b.word > a.word);
    let c = Entry::pick(two, b, a);
    let up = (len > 1) & (c.word > e.word);
    head[0] = Entry::pick(up, c, e);
    head[1 + two as usize] = Entry::pick(up, e, c);
}

/// A link's candidates: `len` of them, the first [`HEAD`] in `head` and
/// the rest in `tail` (`tail.len() == len.saturating_sub(HEAD)`).
pub(super) struct Heap<'h> {
    pub head: &'h mut [Entry; HEAD],
    pub tail: &'h mut [Entry],
    pub len: usize,
}

impl Heap<'_> {
    #[inline]
    fn get(&self, i: usize) -> Entry {
        if i < HEAD {
            self.head[i]
        } else {
            self.tail[i - HEAD]
        }
    }

    #[inline]
    fn set(&mut self, i: usize, e: Entry) {
        if i < HEAD {
            self.head[i] = e;
        } else {
            self.tail[i - HEAD] = e;
        }
    }

    /// Moves `e` down from the root of the max-heap of more than [`HEAD`]
    /// places, whose root is a hole. Children are chosen without branches.
    #[inline]
    fn sift_down(&mut self, e: Entry) {
        debug_assert!(self.len > HEAD);
        let w = e.word;
        let (head, tail) = (&mut *self.head, &mut *self.tail);
        let n = tail.len();
        let two = head[2].word > head[1].word;
        let c = head[1 + usize::from(two)];
        if c.word <= w {
            head[0] = e;
            return;
        }
        head[0] = c;
        // The children of head place 1 + two are tail places 2 two and
        // 2 two + 1; those of tail place p, 2 p + 4 and 2 p + 5.
        let l = 2 * usize::from(two);
        if l >= n {
            head[1 + usize::from(two)] = e;
            return;
        }
        let r = (l + 1).min(n - 1);
        let mut hole = l + usize::from(tail[r].word > tail[l].word);
        if tail[hole].word <= w {
            head[1 + usize::from(two)] = e;
            return;
        }
        head[1 + usize::from(two)] = tail[hole];
        loop {
            let l = 2 * hole + 4;
            if l >= n {
                break;
            }
            // Without a right child, `l` is compared with itself.
            let r = (l + 1).min(n - 1);
            let c = l + usize::from(tail[r].word > tail[l].word);
            if tail[c].word <= w {
                break;
            }
            tail[hole] = tail[c];
            hole = c;
        }
        tail[hole] = e;
    }

    /// Adds `e` to the max-heap, whose place `len - 1` is free (`len`
    /// counts `e`).
    #[inline]
    pub fn push(&mut self, e: Entry) {
        let mut i = self.len - 1;
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.get(parent);
            if p.word >= e.word {
                break;
            }
            self.set(i, p);
            i = parent;
        }
        self.set(i, e);
    }

    /// Removes the largest word of the non-empty max-heap (the caller
    /// shortens it by one).
    #[cfg(test)]
    pub fn pop(&mut self) -> Entry {
        let top = self.head[0];
        let last = self.get(self.len - 1);
        self.len -= 1;
        if !self.tail.is_empty() {
            let n = self.tail.len() - 1;
            self.tail = &mut std::mem::take(&mut self.tail)[..n];
        }
        if self.len > HEAD {
            self.sift_down(last);
        } else if self.len > 0 {
            sift_head(self.head, self.len, last);
        }
        top
    }

    /// Replaces the largest word of the non-empty max-heap by `e`, and
    /// returns it.
    #[inline]
    pub fn replace_top(&mut self, e: Entry) -> Entry {
        let top = self.head[0];
        if self.len > HEAD {
            self.sift_down(e);
        } else {
            sift_head(self.head, self.len, e);
        }
        top
    }

    /// Puts `e` in place `i` of the list and returns what was there.
    #[inline]
    pub fn swap(&mut self, i: usize, e: Entry) -> Entry {
        let out = self.get(i);
        self.set(i, e);
        out
    }

    /// Removes place `i` of the list, moving the last into it (the caller
    /// shortens it by one).
    #[inline]
    pub fn swap_remove(&mut self, i: usize) -> Entry {
        let out = self.get(i);
        let last = self.get(self.len - 1);
        self.set(i, last);
        out
    }

    /// Appends `e` to the list, whose place `len - 1` is free.
    #[inline]
    pub fn append(&mut self, e: Entry) {
        self.set(self.len - 1, e);
    }
}

/// The place and rating of the best-rated candidate of the non-empty list
/// `h` (ratings never tie: the draw is a bijection of the rank).
pub(super) fn best_drawn(h: &Heap<'_>, seed: u64, step: u64) -> (usize, (u64, u64)) {
    let mut best = 0;
    let mut best_rate = rate(h.head[0], seed, step);
    let head = &h.head[..h.len.min(HEAD)];
    for (i, &e) in head.iter().chain(h.tail.iter()).enumerate().skip(1) {
        let r = rate(e, seed, step);
        if r > best_rate {
            best = i;
            best_rate = r;
        }
    }
    (best, best_rate)
}

/// The random strategy's rating of a candidate at a step: the key first
/// (phases keep their order), then the fresh draw.
#[inline]
pub(super) fn rate(e: Entry, seed: u64, step: u64) -> (u64, u64) {
    (e.word >> 32, draw(seed, step, e.rank()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// A heap of `words`, pushed one by one into a head and a tail.
    fn build(words: &[u64], head: &mut [Entry; HEAD], tail: &mut [Entry]) {
        for (i, &w) in words.iter().enumerate() {
            let t = (i + 1).saturating_sub(HEAD);
            let mut h = Heap {
                head: &mut *head,
                tail: &mut tail[..t],
                len: i + 1,
            };
            h.push(Entry {
                word: w,
                ..Entry::default()
            });
        }
    }

    /// Pops all `len` words.
    fn drain(head: &mut [Entry; HEAD], tail: &mut [Entry], len: usize) -> Vec<u64> {
        (0..len)
            .map(|i| {
                let n = len - i;
                let mut h = Heap {
                    head: &mut *head,
                    tail: &mut tail[..n.saturating_sub(HEAD)],
                    len: n,
                };
                h.pop().word
            })
            .collect()
    }

    #[test]
    fn the_heap_pops_in_descending_order() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..200 {
            let len = rng.gen_range(1..40);
            let mut words: Vec<u64> = (0..len).map(|_| rng.gen_range(0..50)).collect();
            let (mut head, mut tail) = ([Entry::default(); HEAD], vec![Entry::default(); len]);
            build(&words, &mut head, &mut tail);
            words.sort_unstable_by(|a, b| b.cmp(a));
            assert_eq!(drain(&mut head, &mut tail, len), words);
        }
    }
}
