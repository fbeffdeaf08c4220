//! A worm engine's link queue: a binary max-heap of packed
//! `(key << 32) | rank` words, or, for the random strategy, an unordered
//! list from which each step draws afresh.

/// Pushes `w` onto the max-heap `h`.
pub(super) fn push(h: &mut Vec<u64>, w: u64) {
    let mut i = h.len();
    h.push(w);
    while i > 0 {
        let parent = (i - 1) / 2;
        if h[parent] >= w {
            break;
        }
        h[i] = h[parent];
        i = parent;
    }
    h[i] = w;
}

/// Pops the largest word of the non-empty max-heap `h`.
pub(super) fn pop(h: &mut Vec<u64>) -> u64 {
    let top = h[0];
    let last = h.pop().expect("pop from an empty queue");
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
        let c = if r < n && h[r] > h[l] { r } else { l };
        if h[c] <= last {
            break;
        }
        h[i] = h[c];
        i = c;
    }
    h[i] = last;
    top
}

/// Removes and returns the word with the highest key, among those the one
/// whose rank scores highest under `score` (the random strategy's fresh
/// draw), from a non-empty list.
pub(super) fn pop_drawn(h: &mut Vec<u64>, score: impl Fn(u32) -> u64) -> u64 {
    let rate = |w: u64| (w >> 32, score(w as u32));
    let mut best = 0;
    let mut best_score = rate(h[0]);
    for (i, &w) in h.iter().enumerate().skip(1) {
        let s = rate(w);
        if s > best_score {
            best = i;
            best_score = s;
        }
    }
    h.swap_remove(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn heap_pops_in_descending_order() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for _ in 0..200 {
            let len = rng.gen_range(1..40);
            let mut words: Vec<u64> = (0..len).map(|_| rng.gen_range(0..50)).collect();
            let mut h = Vec::new();
            for &w in &words {
                push(&mut h, w);
            }
            words.sort_unstable_by(|a, b| b.cmp(a));
            let popped: Vec<u64> = (0..len).map(|_| pop(&mut h)).collect();
            assert_eq!(popped, words);
        }
    }
}
