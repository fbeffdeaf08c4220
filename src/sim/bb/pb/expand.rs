//! The greedy expansion of a sorted batch from the parent node's vertices
//! into the sibling subtree, with sidetracking and direction bits.

use super::super::Levels;
use super::Outcome;

/// A pruned-butterfly vertex `<level, node, k>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Vertex {
    /// Its level (0 is the root).
    pub level: u32,
    /// Its node among the `2^level` of the level.
    pub node: u32,
    /// Its place in the node, `0..size(level)`.
    pub k: u32,
}

/// A message's key `(dst, src, id)`.
pub(super) type Key = (u32, u32, u32);

/// A message moving down: where it is, its key, and whether it is still
/// active (on its way to its destination).
#[derive(Clone, Copy, Debug)]
struct Down {
    /// `node * size(level) + k` at the current level.
    at: u32,
    key: Key,
    active: bool,
}

/// The direction bits of every vertex.
pub(super) struct Expansion {
    levels: Levels,
    /// Where each level's vertices start in `right`.
    offset: Vec<usize>,
    /// A vertex's direction bit: `true` once it points right.
    right: Vec<bool>,
}

impl Expansion {
    /// Every direction bit "left".
    pub fn new(levels: Levels) -> Expansion {
        let mut offset = Vec::with_capacity(levels.n as usize + 1);
        let mut total = 0usize;
        for i in 0..=levels.n {
            offset.push(total);
            total += (1usize << i) * levels.size(i) as usize;
        }
        Expansion {
            levels,
            offset,
            right: vec![false; total],
        }
    }

    /// Expands `starts` (vertices of the parent node at level `i`, with
    /// their keys, sorted by key along the vertices) into the subtree
    /// `sib` at level `i + 1`; returns where each message arrives, and
    /// whether it is active (then at its destination). Records conflicts
    /// and Lemma 1 violations in `out`.
    pub fn run(
        &mut self,
        i: u32,
        sib: u32,
        starts: &[(Vertex, Key)],
        out: &mut Outcome,
    ) -> Vec<(u32, Key, bool)> {
        let levels = self.levels;
        let n = levels.n;
        let below = levels.size(i + 1);
        let mut cur: Vec<Down> = starts
            .iter()
            .map(|&(v, key)| {
                debug_assert!(v.level == i && v.node == sib >> 1);
                Down {
                    at: sib * below + v.k % below,
                    key,
                    active: true,
                }
            })
            .collect();
        let mut next = Vec::with_capacity(cur.len());
        let mut conflicted: Vec<u32> = Vec::new();
        let mut actives: Vec<u32> = Vec::new();
        for lev in i + 1..n {
            let (size, child) = (levels.size(lev), levels.size(lev + 1));
            cur.sort_unstable_by_key(|d| d.at);
            next.clear();
            conflicted.clear();
            actives.clear();
            let mut g = 0;
            while g < cur.len() {
                let two = g + 1 < cur.len() && cur[g + 1].at == cur[g].at;
                let group = if two { &cur[g..g + 2] } else { &cur[g..g + 1] };
                let at = group[0].at;
                assert!(
                    cur.get(g + group.len()).is_none_or(|d| d.at != at),
                    "a vertex receives at most two messages"
                );
                let (node, k) = (at / size, at % size);
                let bit = &mut self.right[self.offset[lev as usize] + at as usize];
                let sent = decide(group, n - 1 - lev, bit, &mut conflicted, node);
                for (d, c) in group.iter().zip(sent) {
                    let to = 2 * node + c;
                    if d.active && c == want(d, n - 1 - lev) {
                        actives.push(to);
                    }
                    next.push(Down {
                        at: to * child + k % child,
                        key: d.key,
                        active: d.active && c == want(d, n - 1 - lev),
                    });
                }
                g += group.len();
            }
            out.conflicts += conflicted.len();
            if !conflicted.is_empty() {
                actives.sort_unstable();
                let cap = levels.cap(lev + 1) as usize;
                for c in &conflicted {
                    let carried =
                        actives.partition_point(|a| a <= c) - actives.partition_point(|a| a < c);
                    out.lemma1_violations += usize::from(carried != cap);
                }
            }
            std::mem::swap(&mut cur, &mut next);
        }
        // At the leaves a node has one vertex: `at` is the leaf.
        cur.iter().map(|d| (d.at, d.key, d.active)).collect()
    }
}

/// The child an active message wants: its destination's bit `bit`.
fn want(d: &Down, bit: u32) -> u32 {
    (d.key.0 >> bit) & 1
}

/// The children the one or two messages of a vertex of node `node` take
/// (rules (a)-(d) and the split of two sidetracked messages); a conflict
/// between two actives records the wanted child node in `conflicted`.
fn decide(
    group: &[Down],
    bit: u32,
    right: &mut bool,
    conflicted: &mut Vec<u32>,
    node: u32,
) -> [u32; 2] {
    let dir = u32::from(*right);
    match group {
        [d] if d.active => [want(d, bit), 0],
        [_] => {
            *right = !*right;
            [dir, 0]
        }
        [a, b] => match (a.active, b.active) {
            (true, true) => {
                let (wa, wb) = (want(a, bit), want(b, bit));
                if wa != wb {
                    [wa, wb]
                } else {
                    conflicted.push(2 * node + wa);
                    // The larger key is sidetracked onto the other edge.
                    if a.key < b.key {
                        [wa, 1 - wa]
                    } else {
                        [1 - wb, wb]
                    }
                }
            }
            (true, false) => [want(a, bit), 1 - want(a, bit)],
            (false, true) => [1 - want(b, bit), want(b, bit)],
            (false, false) => {
                // The smaller key takes the direction bit's edge.
                if a.key < b.key {
                    [dir, 1 - dir]
                } else {
                    [1 - dir, dir]
                }
            }
        },
        _ => unreachable!("a vertex holds one or two messages"),
    }
}
