//! Marks on dense indices that clear all at once.

use super::written_zeros;

/// Marks on dense indices, all cleared at once: a mark is the number of
/// the current round, so a new round clears every mark (the array is wiped
/// only when the round number wraps).
#[derive(Clone, Debug, Default)]
pub struct Marks {
    stamp: Vec<u32>,
    /// The current round (set directly by the tests of wrapping).
    pub(super) round: u32,
}

impl Marks {
    /// `n` indices, in round 0 (start a round before marking).
    pub fn new(n: usize) -> Self {
        Marks {
            stamp: written_zeros(n),
            round: 0,
        }
    }

    /// At least `n` indices (new ones unmarked once a round has started),
    /// with room for `room` when it grows.
    pub fn grow(&mut self, n: usize, room: usize) {
        if self.stamp.len() < n {
            self.stamp.reserve_exact(room.max(n) - self.stamp.len());
            self.stamp.resize(n, 0);
        }
    }

    /// Start a new round: no index is marked.
    pub fn clear(&mut self) {
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.round = 1;
        }
    }

    /// Whether `i` was marked in the current round.
    #[inline]
    pub fn is_marked(&self, i: usize) -> bool {
        self.stamp[i] == self.round
    }

    /// Mark `i`; true when it was not marked yet.
    #[inline]
    pub fn mark(&mut self, i: usize) -> bool {
        let fresh = self.stamp[i] != self.round;
        self.stamp[i] = self.round;
        fresh
    }
}
