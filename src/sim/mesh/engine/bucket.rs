//! The candidates of one directed link, held in a slice of the link
//! arena ([`super::links`]): a binary max-heap of [`Entry`]s ordered by
//! their packed `(key << 32) | rank` words, or, for the random strategy,
//! an unordered list from which each step draws afresh.

use super::draw;

/// A candidate: its heap word and the state a hop updates, so that a hop
/// touches only the two links it leaves and joins. Packed to 12 bytes
/// (aligned to 4) so that more candidates share a cache line; fields are
/// only ever copied, never borrowed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, packed(4))]
pub(super) struct Entry {
    /// `(key << 32) | rank`, the key being `(255 - phase) << 24 | measure`.
    pub word: u64,
    /// Hops left in the leg; 0 only in an empty [`super::links::Link`]
    /// pending slot.
    pub left: u16,
    /// The coordinate along the leg's axis (15 bits), and [`TRANSIT`] once
    /// the packet has moved (until it is delivered).
    pub xt: u16,
}

/// The flag of [`Entry::xt`] marking a packet in transit.
pub(super) const TRANSIT: u16 = 1 << 15;

impl Entry {
    /// The coordinate along the leg's axis.
    #[inline]
    pub fn x(self) -> u32 {
        u32::from(self.xt & !TRANSIT)
    }

    /// 1 if the packet is in transit, else 0.
    #[inline]
    pub fn transit(self) -> u32 {
        u32::from(self.xt >> 15)
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
}

/// Moves `e` down from the root of the max-heap `h`, whose root is a hole.
#[inline]
fn sift_down(h: &mut [Entry], e: Entry) {
    let n = h.len();
    let w = e.word;
    let mut i = 0;
    loop {
        let l = 2 * i + 1;
        if l >= n {
            break;
        }
        let r = l + 1;
        let c = if r < n && h[r].word > h[l].word { r } else { l };
        if h[c].word <= w {
            break;
        }
        h[i] = h[c];
        i = c;
    }
    h[i] = e;
}

/// Adds `e` to the max-heap `h[..h.len() - 1]`, whose last place is free.
#[inline]
pub(super) fn push(h: &mut [Entry], e: Entry) {
    let mut i = h.len() - 1;
    while i > 0 {
        let parent = (i - 1) / 2;
        if h[parent].word >= e.word {
            break;
        }
        h[i] = h[parent];
        i = parent;
    }
    h[i] = e;
}

/// Removes the largest word of the non-empty max-heap `h`, leaving the
/// heap in `h[..h.len() - 1]`.
#[inline]
pub(super) fn pop(h: &mut [Entry]) -> Entry {
    let top = h[0];
    let n = h.len() - 1;
    if n > 0 {
        let last = h[n];
        sift_down(&mut h[..n], last);
    }
    top
}

/// Replaces the largest word of the non-empty max-heap `h` by `e`, and
/// returns it.
#[inline]
pub(super) fn replace_top(h: &mut [Entry], e: Entry) -> Entry {
    let top = h[0];
    sift_down(h, e);
    top
}

/// The random strategy's rating of a candidate at a step: the key first
/// (phases keep their order), then the fresh draw.
#[inline]
pub(super) fn rate(e: Entry, seed: u64, step: u64) -> (u64, u64) {
    (e.word >> 32, draw(seed, step, e.rank()))
}

/// The place and rating of the best-rated candidate of the non-empty list
/// `h` (ratings never tie: the draw is a bijection of the rank).
pub(super) fn best_drawn(h: &[Entry], seed: u64, step: u64) -> (usize, (u64, u64)) {
    let mut best = 0;
    let mut best_rate = rate(h[0], seed, step);
    for (i, &e) in h.iter().enumerate().skip(1) {
        let r = rate(e, seed, step);
        if r > best_rate {
            best = i;
            best_rate = r;
        }
    }
    (best, best_rate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_heap_pops_in_descending_order() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..200 {
            let len = rng.gen_range(1..40);
            let mut words: Vec<u64> = (0..len).map(|_| rng.gen_range(0..50)).collect();
            let mut h = vec![Entry::default(); len];
            for (i, &w) in words.iter().enumerate() {
                push(&mut h[..=i], Entry { word: w, ..Entry::default() });
            }
            words.sort_unstable_by(|a, b| b.cmp(a));
            let popped: Vec<u64> = (0..len).map(|i| pop(&mut h[..len - i]).word).collect();
            assert_eq!(popped, words);
        }
    }

    #[test]
    fn replacing_the_top_keeps_the_heap() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        for _ in 0..200 {
            let len = rng.gen_range(1..40);
            let mut words: Vec<u64> = (0..len).map(|_| rng.gen_range(0..50)).collect();
            let mut h = vec![Entry::default(); len];
            for (i, &w) in words.iter().enumerate() {
                push(&mut h[..=i], Entry { word: w, ..Entry::default() });
            }
            let extra = rng.gen_range(0..50);
            words.sort_unstable_by(|a, b| b.cmp(a));
            let top = replace_top(&mut h, Entry { word: extra, ..Entry::default() });
            assert_eq!({ top.word }, words[0]);
            words[0] = extra;
            words.sort_unstable_by(|a, b| b.cmp(a));
            let popped: Vec<u64> = (0..len).map(|i| pop(&mut h[..len - i]).word).collect();
            assert_eq!(popped, words);
        }
    }
}
