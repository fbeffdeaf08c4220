//! The candidates of one directed link: a binary max-heap of [`Entry`]s
//! ordered by their packed `(key << 32) | rank` words, or, for the random
//! strategy, an unordered list from which each step draws afresh.

/// What a bucket holds: anything ordered by a packed word.
pub(crate) trait Keyed: Copy {
    /// `(key << 32) | rank`.
    fn word(&self) -> u64;
}

impl Keyed for u64 {
    fn word(&self) -> u64 {
        *self
    }
}

impl Keyed for Entry {
    fn word(&self) -> u64 {
        self.word
    }
}

/// A candidate: its heap word and the state a hop updates, so that a hop
/// touches only the two links' buckets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Entry {
    /// `(key << 32) | rank`.
    pub word: u64,
    /// Hops left in the leg.
    pub left: u16,
    /// Hops made in the leg.
    pub made: u16,
    /// The coordinate along the leg's axis.
    pub x: u16,
    /// 1 once the packet has moved (until it is delivered).
    pub transit: u16,
}

/// Push `w` onto the max-heap `h`.
pub(crate) fn push<T: Keyed>(h: &mut Vec<T>, e: T) {
    let mut i = h.len();
    h.push(e);
    while i > 0 {
        let parent = (i - 1) / 2;
        if h[parent].word() >= e.word() {
            break;
        }
        h[i] = h[parent];
        i = parent;
    }
    h[i] = e;
}

/// Pop the largest word of the non-empty max-heap `h`.
pub(crate) fn pop<T: Keyed>(h: &mut Vec<T>) -> T {
    let top = h[0];
    let last = h.pop().expect("pop from an empty bucket");
    let n = h.len();
    if n == 0 {
        return top;
    }
    let mut i = 0;
    loop {
        let l = 2 * i + 1;
        if l >= n {
            break;
        }
        let r = l + 1;
        let c = if r < n && h[r].word() > h[l].word() {
            r
        } else {
            l
        };
        if h[c].word() <= last.word() {
            break;
        }
        h[i] = h[c];
        i = c;
    }
    h[i] = last;
    top
}

/// Remove and return the word with the highest key, among those the one
/// whose rank scores highest under `score` (the random strategy's fresh
/// draw), from a non-empty list.
pub(crate) fn pop_drawn<T: Keyed>(h: &mut Vec<T>, score: impl Fn(u32) -> u64) -> T {
    let rate = |w: u64| (w >> 32, score(w as u32));
    let mut best = 0;
    let mut best_score = rate(h[0].word());
    for (i, e) in h.iter().enumerate().skip(1) {
        let s = rate(e.word());
        if s > best_score {
            best = i;
            best_score = s;
        }
    }
    h.swap_remove(best)
}

/// A stateless 64-bit mix (splitmix64's finaliser): the random strategy's
/// draw for `(seed, step, rank)`, the same whatever order links are served.
pub(crate) fn draw(seed: u64, step: u64, rank: u32) -> u64 {
    let mut x = seed ^ step.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(rank) << 17;
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
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
            let mut h = Vec::new();
            for &w in &words {
                push(
                    &mut h,
                    Entry {
                        word: w,
                        ..Entry::default()
                    },
                );
            }
            words.sort_unstable_by(|a, b| b.cmp(a));
            let popped: Vec<u64> = (0..len).map(|_| pop(&mut h).word).collect();
            assert_eq!(popped, words);
        }
    }
}
