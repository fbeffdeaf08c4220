//! Deterministic on-line routing on two area-universal networks (Bay and
//! Bilardi): the pruned butterfly and the sorting fat-tree, their routing
//! algorithms simulated at message level and costed in bit steps, the
//! flexible sorter, and the load factors and lower bounds a routing is
//! judged against.
//!
//! Terminals are the leaves `0..N` of a complete binary tree of height
//! `n = lg N`; level 0 is the root, level `n` the leaves. A channel is
//! named by the level `i >= 1` of the node below it: the channel above a
//! node at level `i` is the cut between its `2^(n-i)` leaves and the rest.

#![warn(missing_docs)]

pub mod bounds;
pub mod graph;
pub mod load;
pub mod pb;
pub mod run;
pub mod sft;
pub mod sorter;
pub mod traffic;

use serde::Serialize;

/// A terminal (a leaf of the tree), `0..N`.
pub type Terminal = u32;

/// A message: its source and destination terminals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Message {
    /// Where it starts.
    pub src: Terminal,
    /// Where it must be delivered.
    pub dst: Terminal,
}

/// `n = lg N` of a network of `N` terminals, with the channel capacities
/// of the pruned butterfly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Levels {
    /// `lg N`: the leaves are at level `n`.
    pub n: u32,
}

impl Levels {
    /// The levels of `N` terminals, if `N` is a power of 4 of at least 4.
    pub fn new(terminals: u64) -> Option<Levels> {
        let n = terminals.checked_ilog2()?;
        (terminals.is_power_of_two() && n % 2 == 0 && (2..=30).contains(&n)).then_some(Levels { n })
    }

    /// `N`.
    pub fn terminals(self) -> u32 {
        1 << self.n
    }

    /// `sqrt(N)`.
    pub fn root_side(self) -> u32 {
        1 << (self.n / 2)
    }

    /// Vertices per pruned-butterfly node at level `i`:
    /// `2^(n/2 - floor(i/2))`.
    pub fn size(self, i: u32) -> u32 {
        debug_assert!(i <= self.n);
        1 << (self.n / 2 - i / 2)
    }

    /// Capacity of the pruned butterfly's channel above a node at level
    /// `i >= 1`: `size(i - 1)`.
    pub fn cap(self, i: u32) -> u32 {
        debug_assert!(i >= 1 && i <= self.n);
        self.size(i - 1)
    }

    /// The level of the lowest common ancestor of leaves `a` and `b` (the
    /// peak of a message from `a` to `b`): `n - bitlen(a xor b)`; `n` when
    /// `a == b`.
    pub fn peak(self, a: Terminal, b: Terminal) -> u32 {
        self.n - (32 - (a ^ b).leading_zeros())
    }

    /// The node at level `i` above leaf `l` (its index among the `2^i`
    /// nodes of the level).
    pub fn ancestor(self, l: Terminal, i: u32) -> u32 {
        l >> (self.n - i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_caps_follow_the_worked_examples() {
        let l = Levels::new(16).unwrap();
        assert_eq!(
            (0..=4).map(|i| l.size(i)).collect::<Vec<_>>(),
            [4, 4, 2, 2, 1]
        );
        assert_eq!((1..=4).map(|i| l.cap(i)).collect::<Vec<_>>(), [4, 4, 2, 2]);
        let l = Levels::new(64).unwrap();
        assert_eq!(
            (0..=6).map(|i| l.size(i)).collect::<Vec<_>>(),
            [8, 8, 4, 4, 2, 2, 1]
        );
        assert_eq!(
            (1..=6).map(|i| l.cap(i)).collect::<Vec<_>>(),
            [8, 8, 4, 4, 2, 2]
        );
        assert!(Levels::new(32).is_none() && Levels::new(0).is_none() && Levels::new(1).is_none());
    }

    #[test]
    fn peak_is_the_level_of_the_common_ancestor() {
        let l = Levels::new(16).unwrap();
        for a in 0..16 {
            for b in 0..16 {
                let p = l.peak(a, b);
                assert_eq!(l.ancestor(a, p), l.ancestor(b, p));
                assert!(p == 4 || l.ancestor(a, p + 1) != l.ancestor(b, p + 1));
            }
        }
    }
}
