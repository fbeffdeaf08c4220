//! Incremental density: a segment tree over the columns that takes a net's
//! span in and out in `O(lg N)` and answers the density in `O(1)` (thesis
//! section 7.2).
//!
//! The tree is complete over `N` leaves (the column count padded to a power
//! of two) and stored as an array with the root at 1. For a node `v`,
//! `at[v]` counts the spans that cover `v`'s whole range but not its
//! parent's, and `below[v] = at[v] + max(below[2v], below[2v+1])` is the
//! largest count of spans over one column in `v`'s range from spans decided
//! at `v` or under it. The density is `below[1]`. Deletion is insertion with
//! `-1`: `below` is recomputed on the two boundary paths, so nothing has to
//! be pushed down.

/// Density of a changing set of column intervals.
#[derive(Clone, Debug)]
pub struct DensityTree {
    leaves: usize,
    columns: usize,
    at: Vec<i32>,
    below: Vec<i32>,
    spans: usize,
}

impl DensityTree {
    /// An empty tree over columns `0 .. columns`.
    pub fn new(columns: usize) -> DensityTree {
        let leaves = columns.max(1).next_power_of_two();
        DensityTree {
            leaves,
            columns,
            at: vec![0; 2 * leaves],
            below: vec![0; 2 * leaves],
            spans: 0,
        }
    }

    /// Number of columns.
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// Number of spans currently in the tree.
    pub fn len(&self) -> usize {
        self.spans
    }

    /// Whether the tree holds no span.
    pub fn is_empty(&self) -> bool {
        self.spans == 0
    }

    /// The largest number of spans covering one column (0 when empty).
    pub fn density(&self) -> u32 {
        self.below[1].max(0) as u32
    }

    /// Add the span of columns `lo ..= hi`.
    ///
    /// # Panics
    /// If `lo > hi` or `hi` is not a column.
    pub fn insert(&mut self, lo: usize, hi: usize) {
        self.update(lo, hi, 1);
        self.spans += 1;
    }

    /// Remove a span added before with [`DensityTree::insert`].
    ///
    /// # Panics
    /// If the tree is empty, or (in debug builds) if a column would be
    /// covered a negative number of times, which means the span was never
    /// inserted.
    pub fn remove(&mut self, lo: usize, hi: usize) {
        assert!(self.spans > 0, "remove from an empty density tree");
        self.update(lo, hi, -1);
        self.spans -= 1;
        debug_assert!(
            self.at[1..].iter().all(|&a| a >= 0),
            "removed a span never inserted"
        );
    }

    fn update(&mut self, lo: usize, hi: usize, delta: i32) {
        assert!(
            lo <= hi && hi < self.columns,
            "span {lo}..={hi} is not inside columns 0..{}",
            self.columns
        );
        let (mut l, mut r) = (lo + self.leaves, hi + self.leaves + 1);
        let (first, last) = (l, r - 1);
        while l < r {
            if l & 1 == 1 {
                self.at[l] += delta;
                self.fix(l);
                l += 1;
            }
            if r & 1 == 1 {
                r -= 1;
                self.at[r] += delta;
                self.fix(r);
            }
            l /= 2;
            r /= 2;
        }
        // Every node whose `below` can change is an ancestor of one of the
        // two boundary leaves (or a node fixed above).
        for mut v in [first, last] {
            v /= 2;
            while v >= 1 {
                self.fix(v);
                v /= 2;
            }
        }
    }

    fn fix(&mut self, v: usize) {
        let children = if v < self.leaves {
            self.below[2 * v].max(self.below[2 * v + 1])
        } else {
            0
        };
        self.below[v] = self.at[v] + children;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn brute(columns: usize, spans: &[(usize, usize)]) -> u32 {
        (0..columns)
            .map(|x| spans.iter().filter(|&&(a, b)| a <= x && x <= b).count() as u32)
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn staircase() {
        let mut t = DensityTree::new(10);
        assert_eq!(t.density(), 0);
        t.insert(0, 4);
        t.insert(3, 7);
        t.insert(4, 9);
        assert_eq!(t.density(), 3);
        t.remove(3, 7);
        assert_eq!(t.density(), 2);
        t.remove(0, 4);
        assert_eq!(t.density(), 1);
        t.remove(4, 9);
        assert_eq!(t.density(), 0);
        assert!(t.is_empty());
    }

    #[test]
    fn single_column_and_odd_sizes() {
        for columns in 1..=17 {
            let mut t = DensityTree::new(columns);
            for x in 0..columns {
                t.insert(x, x);
                t.insert(0, columns - 1);
            }
            assert_eq!(t.density(), 1 + columns as u32);
        }
    }

    #[test]
    fn equals_recomputation_on_random_sequences() {
        let mut rng = ChaCha8Rng::seed_from_u64(75);
        for _ in 0..2_000 {
            let columns = rng.gen_range(1..=70);
            let mut t = DensityTree::new(columns);
            let mut live: Vec<(usize, usize)> = Vec::new();
            for _ in 0..rng.gen_range(1..60) {
                if !live.is_empty() && rng.gen_bool(0.4) {
                    let k = rng.gen_range(0..live.len());
                    let (a, b) = live.swap_remove(k);
                    t.remove(a, b);
                } else {
                    let a = rng.gen_range(0..columns);
                    let b = rng.gen_range(a..columns);
                    live.push((a, b));
                    t.insert(a, b);
                }
                assert_eq!(t.density(), brute(columns, &live), "{columns} {live:?}");
                assert_eq!(t.len(), live.len());
            }
        }
    }

    #[test]
    #[should_panic(expected = "not inside columns")]
    fn refuses_a_span_outside() {
        DensityTree::new(4).insert(2, 4);
    }
}
