//! The butterfly `B(n)` of Maggs and Sitaraman (section 1.1): `N = 2^n`
//! rows, levels `0 ..= n`, node `<l, c>` with row `c` stored as an integer
//! whose bit `i` is `c_i` (`c_0` the low-order bit, as in their section 4).
//!
//! The edges between levels `l` and `l + 1` flip bit `l` only: the straight
//! edge goes to `<l + 1, c>`, the cross edge to `<l + 1, c ^ 2^l>`. Level 0
//! holds the inputs and level `n` the outputs; there are `(n + 1) N` nodes
//! and `2 n N` edges, and one path from each input to each output. The
//! wraparound butterfly identifies `<n, c>` with `<0, c>`; the back-to-back
//! butterfly is two copies with their level-`n` nodes identified, the second
//! walked from level `n` down to level 0.
//!
//! Every function here is closed form; the tests hold each against a
//! breadth-first search of the explicit graph.

/// A node `<level, row>` of a butterfly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node {
    /// The level, `0 ..= n`.
    pub level: u32,
    /// The row, `0 .. 2^n`.
    pub row: u64,
}

/// Which of its two out-edges a node sends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutEdge {
    /// To the same row on the next level.
    Straight,
    /// To the row with bit `level` flipped on the next level.
    Cross,
}

/// Which of its two in-edges a node (level 1 or more) receives on: the
/// 0-edge comes from the row with bit `level - 1` clear, the 1-edge from
/// the row with it set. Simultaneous arrivals are taken 0-edge first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InEdge {
    /// From the neighbour whose bit `level - 1` is 0.
    Zero,
    /// From the neighbour whose bit `level - 1` is 1.
    One,
}

/// The rows of a set of nodes on one level: those whose bits outside
/// `free` equal `fixed`'s. `free` is a contiguous run of bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowSet {
    /// The rows' common bits (zero on the free bits).
    pub fixed: u64,
    /// The bits that vary.
    pub free: u64,
}

impl RowSet {
    /// Whether `row` is in the set.
    pub fn contains(&self, row: u64) -> bool {
        row & !self.free == self.fixed
    }

    /// The number of rows (at least 1: the set holds `fixed`).
    pub fn count(&self) -> u64 {
        1 << self.free.count_ones()
    }

    /// The rows in increasing order (the free bits are contiguous).
    pub fn rows(&self) -> impl Iterator<Item = u64> + '_ {
        // An empty `free` has one row, `fixed`; any shift serves.
        let shift = self.free.trailing_zeros() % 64;
        (0..self.count()).map(move |k| self.fixed | (k << shift))
    }
}

/// The butterfly `B(n)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Butterfly {
    /// `n = lg N`, the number of edge levels.
    pub n: u32,
}

/// The mask of bits `0 .. l`.
fn low(l: u32) -> u64 {
    (1u64 << l) - 1
}

impl Butterfly {
    /// The butterfly with `2^n` rows; `n` at most 40 (the simulators refuse
    /// far smaller sizes for memory long before).
    pub fn new(n: u32) -> Self {
        assert!(
            n <= 40,
            "a butterfly of 2^{n} rows is beyond any simulation"
        );
        Butterfly { n }
    }

    /// The number of rows `N = 2^n` (inputs, outputs).
    pub fn rows(&self) -> u64 {
        1 << self.n
    }

    /// The number of nodes, `(n + 1) N`.
    pub fn node_count(&self) -> u64 {
        (self.n as u64 + 1) * self.rows()
    }

    /// The number of edges, `2 n N`.
    pub fn edge_count(&self) -> u64 {
        2 * self.n as u64 * self.rows()
    }

    /// The node an out-edge of `from` (level below `n`) leads to.
    pub fn follow(&self, from: Node, edge: OutEdge) -> Node {
        debug_assert!(from.level < self.n);
        let row = match edge {
            OutEdge::Straight => from.row,
            OutEdge::Cross => from.row ^ (1 << from.level),
        };
        Node {
            level: from.level + 1,
            row,
        }
    }

    /// The node an in-edge of `to` (level 1 or more) comes from.
    pub fn source(&self, to: Node, edge: InEdge) -> Node {
        debug_assert!(to.level >= 1);
        let bit = 1 << (to.level - 1);
        let row = match edge {
            InEdge::Zero => to.row & !bit,
            InEdge::One => to.row | bit,
        };
        Node {
            level: to.level - 1,
            row,
        }
    }

    /// The in-edge of the receiver that a packet sent from `from` arrives
    /// on: bit `level` of the sender's row.
    pub fn arrival_edge(from: Node) -> InEdge {
        if (from.row >> from.level) & 1 == 0 {
            InEdge::Zero
        } else {
            InEdge::One
        }
    }

    /// The row on level `l` of the path from input `a` to output `d`: the
    /// low `l` bits already set to `d`'s, the others still `a`'s.
    pub fn row_at(a: u64, d: u64, l: u32) -> u64 {
        (d & low(l)) | (a & !low(l))
    }

    /// The out-edge a packet bound for output `d` takes from `from`.
    pub fn toward(from: Node, d: u64) -> OutEdge {
        if (from.row ^ d) >> from.level & 1 == 0 {
            OutEdge::Straight
        } else {
            OutEdge::Cross
        }
    }

    /// The unique path from input `a` to output `d`, levels 0 to `n`.
    pub fn path(&self, a: u64, d: u64) -> impl Iterator<Item = Node> {
        (0..=self.n).map(move |level| Node {
            level,
            row: Self::row_at(a, d, level),
        })
    }

    /// The inputs that reach `node`: the `2^l` rows whose bits `l .. n`
    /// equal the node's.
    pub fn inputs_reaching(&self, node: Node) -> RowSet {
        RowSet {
            fixed: node.row & !low(node.level),
            free: low(node.level),
        }
    }

    /// The outputs `node` reaches: the `2^(n - l)` rows whose bits
    /// `0 .. l` equal the node's.
    pub fn outputs_reached(&self, node: Node) -> RowSet {
        RowSet {
            fixed: node.row & low(node.level),
            free: low(self.n) & !low(node.level),
        }
    }

    /// The rows of the sub-butterfly of levels `l1 ..= l2` that holds
    /// `node`: bits `0 .. l1` and `l2 .. n` fixed, the bits between free.
    /// It is a butterfly of depth `l2 - l1` (the same rows on every level
    /// from `l1` to `l2`).
    pub fn sub_butterfly(&self, node: Node, l1: u32, l2: u32) -> RowSet {
        debug_assert!(l1 <= l2 && l2 <= self.n);
        let free = low(l2) & !low(l1);
        RowSet {
            fixed: node.row & !free,
            free,
        }
    }

    /// The wraparound butterfly's identification: output `<n, c>` is
    /// input `<0, c>`.
    pub fn wrap(&self, node: Node) -> Node {
        if node.level == self.n {
            Node {
                level: 0,
                row: node.row,
            }
        } else {
            node
        }
    }

    /// The row on level `l` of the second (returning) copy of a
    /// back-to-back butterfly, for a packet whose first copy ended at row
    /// `x` and whose destination is `d`: the hop from level `l + 1` to `l`
    /// sets bit `l` to `d`'s, so bits `n - 1` down to `l` are `d`'s.
    pub fn return_row(x: u64, d: u64, l: u32) -> u64 {
        (x & low(l)) | (d & !low(l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeSet, VecDeque};

    /// The explicit graph: out-neighbours of each node by index
    /// `level * N + row`, from the definition (straight, then cross).
    fn graph(b: &Butterfly) -> Vec<Vec<usize>> {
        let rows = b.rows() as usize;
        let mut adj = vec![Vec::new(); b.node_count() as usize];
        for l in 0..b.n as usize {
            for c in 0..rows {
                adj[l * rows + c].push((l + 1) * rows + c);
                adj[l * rows + c].push((l + 1) * rows + (c ^ (1 << l)));
            }
        }
        adj
    }

    fn bfs(adj: &[Vec<usize>], from: usize) -> Vec<bool> {
        let mut seen = vec![false; adj.len()];
        let mut queue = VecDeque::from([from]);
        seen[from] = true;
        while let Some(v) = queue.pop_front() {
            for &w in &adj[v] {
                if !seen[w] {
                    seen[w] = true;
                    queue.push_back(w);
                }
            }
        }
        seen
    }

    fn reversed(adj: &[Vec<usize>]) -> Vec<Vec<usize>> {
        let mut rev = vec![Vec::new(); adj.len()];
        for (v, ws) in adj.iter().enumerate() {
            for &w in ws {
                rev[w].push(v);
            }
        }
        rev
    }

    /// Counts, edges and in/out-edges against the definition.
    #[test]
    fn edges_are_the_definition() {
        for n in 0..=6 {
            let b = Butterfly::new(n);
            let adj = graph(&b);
            let edges: usize = adj.iter().map(Vec::len).sum();
            assert_eq!(edges as u64, b.edge_count());
            let rows = b.rows();
            for l in 0..n {
                for c in 0..rows {
                    let v = Node { level: l, row: c };
                    for e in [OutEdge::Straight, OutEdge::Cross] {
                        let w = b.follow(v, e);
                        let k = (w.level as u64 * rows + w.row) as usize;
                        assert!(adj[(l as u64 * rows + c) as usize].contains(&k));
                        // The receiver names the edge it arrives on, and
                        // that in-edge leads back to the sender.
                        assert_eq!(b.source(w, Butterfly::arrival_edge(v)), v);
                    }
                }
            }
        }
    }

    /// Reachability and the unique path, against breadth-first search
    /// forwards and backwards, for every node of B(1) .. B(6).
    #[test]
    fn reachability_and_paths_are_the_searches() {
        for n in 1..=6 {
            let b = Butterfly::new(n);
            let rows = b.rows();
            let adj = graph(&b);
            let rev = reversed(&adj);
            for l in 0..=n {
                for c in 0..rows {
                    let v = Node { level: l, row: c };
                    let k = (l as u64 * rows + c) as usize;
                    let fwd = bfs(&adj, k);
                    let back = bfs(&rev, k);
                    let outs: BTreeSet<u64> = (0..rows)
                        .filter(|&d| fwd[(n as u64 * rows + d) as usize])
                        .collect();
                    let ins: BTreeSet<u64> = (0..rows).filter(|&a| back[a as usize]).collect();
                    let want_outs = b.outputs_reached(v);
                    let want_ins = b.inputs_reaching(v);
                    assert_eq!(outs, want_outs.rows().collect(), "outputs of {v:?}");
                    assert_eq!(ins, want_ins.rows().collect(), "inputs of {v:?}");
                    assert_eq!(outs.len() as u64, 1 << (n - l));
                    assert_eq!(ins.len() as u64, 1 << l);
                }
            }
            // One path from each input to each output, and it is `path`.
            for a in 0..rows {
                let mut count = vec![0u64; adj.len()];
                count[a as usize] = 1;
                for v in 0..adj.len() {
                    for &w in &adj[v] {
                        count[w] += count[v];
                    }
                }
                for d in 0..rows {
                    assert_eq!(count[(n as u64 * rows + d) as usize], 1);
                    let path: Vec<Node> = b.path(a, d).collect();
                    for pair in path.windows(2) {
                        assert_eq!(b.follow(pair[0], Butterfly::toward(pair[0], d)), pair[1]);
                    }
                    assert_eq!(path.last().map(|v| v.row), Some(d));
                }
            }
        }
    }

    /// A sub-butterfly is closed under the edges between its levels and is
    /// a butterfly of its depth: every input of it reaches every output of
    /// it inside it.
    #[test]
    fn sub_butterflies_are_butterflies() {
        let b = Butterfly::new(6);
        for l1 in 0..=6 {
            for l2 in l1..=6 {
                for c in [0u64, 5, 42, 63] {
                    let at = Node { level: l1, row: c };
                    let s = b.sub_butterfly(at, l1, l2);
                    assert_eq!(s.count(), 1 << (l2 - l1));
                    for a in s.rows() {
                        for d in s.rows() {
                            let inside = b
                                .path(a, d)
                                .filter(|v| (l1..=l2).contains(&v.level))
                                .all(|v| s.contains(Butterfly::row_at(a, d, v.level)));
                            // Between its levels the path of a to d only
                            // changes bits l1 .. l2, so it stays inside.
                            assert!(inside);
                            assert_eq!(Butterfly::row_at(a, d, l2) & !s.free, s.fixed);
                        }
                    }
                }
            }
        }
    }

    /// Wraparound and the back-to-back return walk.
    #[test]
    fn wraparound_and_back_to_back() {
        let b = Butterfly::new(5);
        for c in 0..b.rows() {
            let out = Node { level: 5, row: c };
            assert_eq!(b.wrap(out), Node { level: 0, row: c });
            assert_eq!(b.wrap(Node { level: 2, row: c }), Node { level: 2, row: c });
        }
        for x in 0..b.rows() {
            for d in 0..b.rows() {
                // Level n is the meeting point x, level 0 the destination
                // d; each step down sets one more bit to d's.
                assert_eq!(Butterfly::return_row(x, d, 5), x);
                assert_eq!(Butterfly::return_row(x, d, 0), d);
                for l in 0..5 {
                    let above = Butterfly::return_row(x, d, l + 1);
                    let here = Butterfly::return_row(x, d, l);
                    assert_eq!((above ^ here) & !(1 << l), 0);
                }
            }
        }
    }
}
