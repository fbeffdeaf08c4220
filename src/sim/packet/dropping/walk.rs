//! The `n` hops a packet makes through one butterfly, in either direction,
//! as steps `0 .. n` of a walk: the forward walk of a single butterfly
//! (level `j` at step `j`) and the return walk down copy 2 of the
//! back-to-back butterfly (level `n - j` at step `j`). Both models lock or
//! queue on walks, so one engine serves every variant.

use crate::sim::packet::butterfly::Butterfly;

/// The direction a packet crosses a butterfly in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Walk {
    /// Level 0 to level `n`; the packet starts at its source row.
    Forward,
    /// Level `n` of copy 2 down to level 0; the packet starts at its
    /// stage-1 intermediate row.
    Return,
}

impl Walk {
    /// The row at step `j` (`0 ..= n`) of a packet that starts at row
    /// `start` and is bound for row `dest`.
    pub(crate) fn row(self, n: u32, start: u64, dest: u64, j: u32) -> u64 {
        match self {
            Walk::Forward => Butterfly::row_at(start, dest, j),
            Walk::Return => Butterfly::return_row(start, dest, n - j),
        }
    }

    /// The row bit the hop from step `j` to step `j + 1` may flip: the
    /// lower of the two levels it joins.
    pub(crate) fn bit(self, n: u32, j: u32) -> u32 {
        match self {
            Walk::Forward => j,
            Walk::Return => n - 1 - j,
        }
    }

    /// The group a packet at step `j` competes in for the hop to step
    /// `j + 1`: under per-edge capacity its node's out-edge (row and the
    /// bit it sets, `< 2N`), under per-node capacity the node it enters
    /// (`< N`).
    pub(crate) fn edge(self, n: u32, start: u64, dest: u64, j: u32) -> usize {
        let row = self.row(n, start, dest, j);
        let bit = (dest >> self.bit(n, j)) & 1;
        (row << 1 | bit) as usize
    }

    /// The in-edge (0 or 1) the hop from step `j` arrives on: the sender's
    /// bit that the hop may flip (the 0-edge comes from the
    /// neighbour with that bit clear).
    pub(crate) fn in_edge(self, n: u32, start: u64, dest: u64, j: u32) -> u64 {
        (self.row(n, start, dest, j) >> self.bit(n, j)) & 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::packet::butterfly::{InEdge, Node};

    /// Both walks against the butterfly's own paths: the forward walk is
    /// `path(a, d)`, the return walk is `path(d, x)` read backwards (copy
    /// 2 from `<n, x>` to `<0, d>`), each hop joins the rows the edge
    /// joins, and the edge key names the next row.
    #[test]
    fn walks_are_butterfly_paths() {
        for n in 1..=5 {
            let b = Butterfly::new(n);
            for s in 0..b.rows() {
                for d in 0..b.rows() {
                    let fwd: Vec<u64> = b.path(s, d).map(|v| v.row).collect();
                    let mut back: Vec<u64> = b.path(d, s).map(|v| v.row).collect();
                    back.reverse();
                    for j in 0..=n {
                        assert_eq!(Walk::Forward.row(n, s, d, j), fwd[j as usize]);
                        assert_eq!(Walk::Return.row(n, s, d, j), back[j as usize]);
                    }
                    for walk in [Walk::Forward, Walk::Return] {
                        for j in 0..n {
                            let here = walk.row(n, s, d, j);
                            let next = walk.row(n, s, d, j + 1);
                            let bit = walk.bit(n, j);
                            assert_eq!((here ^ next) & !(1 << bit), 0);
                            assert_eq!(next >> bit & 1, walk.edge(n, s, d, j) as u64 & 1);
                            assert_eq!(walk.edge(n, s, d, j) >> 1, here as usize);
                            // The in-edge against the butterfly's: forward,
                            // the sender's arrival edge; back, the mirror of
                            // `source` (the level-l node of copy 2 hears its
                            // 0-edge from the level-(l+1) row with bit l
                            // clear).
                            let edge = match walk.in_edge(n, s, d, j) {
                                0 => InEdge::Zero,
                                _ => InEdge::One,
                            };
                            let sender = match walk {
                                Walk::Forward => {
                                    let from = Node {
                                        level: j,
                                        row: here,
                                    };
                                    assert_eq!(Butterfly::arrival_edge(from), edge);
                                    continue;
                                }
                                Walk::Return => Node {
                                    level: n - j,
                                    row: here,
                                },
                            };
                            let mirror = Node {
                                level: sender.level,
                                row: next,
                            };
                            assert_eq!(b.source(mirror, edge).row, here);
                        }
                    }
                }
            }
        }
    }
}
