//! A small directed graph on dense `u32` node ids, with the few algorithms
//! the routers need: strongly connected components (Tarjan, iterative),
//! topological order, longest path counted in nodes, and finding a cycle;
//! and disjoint sets ([`UnionFind`]).

#![warn(missing_docs)]

/// Disjoint sets of `0 .. n`, found by path halving; [`UnionFind::union`]
/// hangs the first set's root under the second's.
#[derive(Clone, Debug, Default)]
pub struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    /// `n` elements `0 .. n`, each in a set of its own.
    pub fn new(n: usize) -> Self {
        let mut sets = UnionFind::default();
        sets.reset(n);
        sets
    }

    /// `n` elements, each alone again (the memory is kept).
    pub fn reset(&mut self, n: usize) {
        debug_assert!(n <= u32::MAX as usize);
        self.parent.clear();
        self.parent.extend(0..n as u32);
    }

    /// The root of `a`'s set.
    pub fn find(&mut self, a: usize) -> usize {
        let mut a = a as u32;
        while self.parent[a as usize] != a {
            let up = self.parent[self.parent[a as usize] as usize];
            self.parent[a as usize] = up;
            a = up;
        }
        a as usize
    }

    /// Whether `a` is the root of its set.
    pub fn is_root(&self, a: usize) -> bool {
        self.parent[a] as usize == a
    }

    /// Join the sets of `a` and `b`; false when they were one already.
    pub fn union(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        self.parent[ra] = rb as u32;
        ra != rb
    }
}

/// Directed graph with adjacency lists; parallel edges are removed by
/// [`Digraph::dedup`].
#[derive(Clone, Debug, Default)]
pub struct Digraph {
    succ: Vec<Vec<u32>>,
}

impl Digraph {
    /// A graph on nodes `0 .. nodes` with no edges.
    pub fn new(nodes: usize) -> Self {
        Digraph {
            succ: vec![Vec::new(); nodes],
        }
    }

    /// The graph with the given edges, repeated ones dropped and every
    /// adjacency list sorted (as after [`Digraph::dedup`]).
    pub fn from_edges(nodes: usize, mut edges: Vec<(u32, u32)>) -> Self {
        edges.sort_unstable();
        edges.dedup();
        let mut degree = vec![0usize; nodes];
        for &(v, _) in &edges {
            degree[v as usize] += 1;
        }
        let mut succ: Vec<Vec<u32>> = degree.into_iter().map(Vec::with_capacity).collect();
        for (v, w) in edges {
            succ[v as usize].push(w);
        }
        Digraph { succ }
    }

    /// Add the edge `from → to`; a repeated edge stays until [`Digraph::dedup`].
    pub fn add_edge(&mut self, from: u32, to: u32) {
        self.succ[from as usize].push(to);
    }

    /// Sort every adjacency list and drop repeated edges.
    pub fn dedup(&mut self) {
        for s in &mut self.succ {
            s.sort_unstable();
            s.dedup();
        }
    }

    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        self.succ.len()
    }

    /// The number of edges, parallel ones counted apiece.
    pub fn edge_count(&self) -> usize {
        self.succ.iter().map(Vec::len).sum()
    }

    /// The heads of the edges leaving `v`, in insertion order (sorted after
    /// [`Digraph::dedup`]).
    pub fn successors(&self, v: u32) -> &[u32] {
        &self.succ[v as usize]
    }

    /// Every edge `(from, to)` in order of `from`, then `to` (after `dedup`).
    pub fn edges(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.succ
            .iter()
            .enumerate()
            .flat_map(|(v, s)| s.iter().map(move |&w| (v as u32, w)))
    }

    /// Strongly connected components, each sorted, listed by smallest member.
    pub fn strongly_connected_components(&self) -> Vec<Vec<u32>> {
        let (comp, count) = self.component_numbers();
        let mut out: Vec<Vec<u32>> = vec![Vec::new(); count];
        for (v, &c) in comp.iter().enumerate() {
            out[c as usize].push(v as u32);
        }
        out.sort_unstable_by_key(|c| c[0]);
        out
    }

    /// The strongly connected component of each node and how many there
    /// are, numbered in the order Tarjan's algorithm completes them: an
    /// edge between two components always runs from the higher number to
    /// the lower (a reverse topological order of the condensation).
    pub fn component_numbers(&self) -> (Vec<u32>, usize) {
        const UNSET: u32 = u32::MAX;
        let n = self.succ.len();
        let mut index = vec![UNSET; n];
        let mut low = vec![0u32; n];
        let mut comp = vec![UNSET; n];
        let mut stack: Vec<u32> = Vec::new();
        let mut calls: Vec<(u32, usize)> = Vec::new();
        let mut next = 0u32;
        let mut count = 0u32;
        for s in 0..n as u32 {
            if index[s as usize] != UNSET {
                continue;
            }
            index[s as usize] = next;
            low[s as usize] = next;
            next += 1;
            stack.push(s);
            calls.push((s, 0));
            while let Some(&mut (v, ref mut pos)) = calls.last_mut() {
                let vs = v as usize;
                if *pos < self.succ[vs].len() {
                    let w = self.succ[vs][*pos];
                    *pos += 1;
                    let ws = w as usize;
                    if index[ws] == UNSET {
                        index[ws] = next;
                        low[ws] = next;
                        next += 1;
                        stack.push(w);
                        calls.push((w, 0));
                    } else if comp[ws] == UNSET {
                        // On the stack: not yet in a completed component.
                        low[vs] = low[vs].min(index[ws]);
                    }
                } else {
                    calls.pop();
                    if let Some(&(u, _)) = calls.last() {
                        low[u as usize] = low[u as usize].min(low[vs]);
                    }
                    if low[vs] == index[vs] {
                        loop {
                            let w = stack.pop().expect("Tarjan stack holds v");
                            comp[w as usize] = count;
                            if w == v {
                                break;
                            }
                        }
                        count += 1;
                    }
                }
            }
        }
        (comp, count as usize)
    }

    /// A topological order (Kahn, smallest ready node first), or `None` when
    /// the graph has a cycle.
    pub fn topological_order(&self) -> Option<Vec<u32>> {
        let n = self.succ.len();
        let mut indeg = vec![0u32; n];
        for s in &self.succ {
            for &w in s {
                indeg[w as usize] += 1;
            }
        }
        let mut ready: std::collections::BinaryHeap<std::cmp::Reverse<u32>> = (0..n as u32)
            .filter(|&v| indeg[v as usize] == 0)
            .map(std::cmp::Reverse)
            .collect();
        let mut order = Vec::with_capacity(n);
        while let Some(std::cmp::Reverse(v)) = ready.pop() {
            order.push(v);
            for &w in &self.succ[v as usize] {
                indeg[w as usize] -= 1;
                if indeg[w as usize] == 0 {
                    ready.push(std::cmp::Reverse(w));
                }
            }
        }
        (order.len() == n).then_some(order)
    }

    /// Length in nodes of a longest path, `None` when cyclic, 0 when empty.
    pub fn longest_path_nodes(&self) -> Option<u32> {
        let order = self.topological_order()?;
        let mut best = vec![1u32; self.succ.len()];
        let mut longest = 0;
        for &v in &order {
            let here = best[v as usize];
            longest = longest.max(here);
            for &w in &self.succ[v as usize] {
                best[w as usize] = best[w as usize].max(here + 1);
            }
        }
        Some(longest)
    }

    /// A shortest cycle through the smallest node of the first non-trivial
    /// strongly connected component, listed in edge order; `None` if acyclic.
    pub fn find_cycle(&self) -> Option<Vec<u32>> {
        for v in 0..self.succ.len() as u32 {
            if self.succ[v as usize].contains(&v) {
                return Some(vec![v]);
            }
        }
        let comp = self
            .strongly_connected_components()
            .into_iter()
            .find(|c| c.len() > 1)?;
        let mut inside = vec![false; self.succ.len()];
        for &v in &comp {
            inside[v as usize] = true;
        }
        let start = comp[0];
        let mut parent = vec![u32::MAX; self.succ.len()];
        let mut queue = std::collections::VecDeque::from([start]);
        parent[start as usize] = start;
        while let Some(v) = queue.pop_front() {
            for &w in &self.succ[v as usize] {
                if w == start {
                    let mut cycle = vec![v];
                    let mut u = v;
                    while u != start {
                        u = parent[u as usize];
                        cycle.push(u);
                    }
                    cycle.reverse();
                    return Some(cycle);
                }
                if inside[w as usize] && parent[w as usize] == u32::MAX {
                    parent[w as usize] = v;
                    queue.push_back(w);
                }
            }
        }
        unreachable!("a strongly connected component with two nodes has a cycle through each")
    }
}

#[cfg(test)]
impl Digraph {
    /// Which nodes reach which (`r[a][b]`: a path from `a` to `b`; every
    /// node reaches itself), by a depth-first search from every node: the
    /// obvious way, for tests.
    pub(crate) fn reachability(&self) -> Vec<Vec<bool>> {
        let n = self.node_count();
        (0..n)
            .map(|from| {
                let mut seen = vec![false; n];
                let mut stack = vec![from];
                while let Some(v) = stack.pop() {
                    if !std::mem::replace(&mut seen[v], true) {
                        stack.extend(self.successors(v as u32).iter().map(|&w| w as usize));
                    }
                }
                seen
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, edges: &[(u32, u32)]) -> Digraph {
        let mut g = Digraph::new(n);
        for &(a, b) in edges {
            g.add_edge(a, b);
        }
        g.dedup();
        g
    }

    #[test]
    fn longest_path_on_chain_and_diamond() {
        assert_eq!(graph(3, &[(0, 1), (1, 2)]).longest_path_nodes(), Some(3));
        assert_eq!(
            graph(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]).longest_path_nodes(),
            Some(3)
        );
        assert_eq!(graph(2, &[]).longest_path_nodes(), Some(1));
        assert_eq!(graph(0, &[]).longest_path_nodes(), Some(0));
    }

    #[test]
    fn two_cycle_is_one_component() {
        let g = graph(3, &[(0, 1), (1, 0), (1, 2)]);
        let sccs = g.strongly_connected_components();
        assert_eq!(sccs, vec![vec![0, 1], vec![2]]);
        assert_eq!(g.longest_path_nodes(), None);
        assert_eq!(g.find_cycle(), Some(vec![0, 1]));
    }

    #[test]
    fn found_cycle_is_a_real_cycle() {
        let g = graph(5, &[(0, 1), (1, 2), (2, 3), (3, 1), (3, 4)]);
        let c = g.find_cycle().unwrap();
        for k in 0..c.len() {
            let (a, b) = (c[k], c[(k + 1) % c.len()]);
            assert!(g.successors(a).contains(&b), "{a}->{b} missing");
        }
        assert_eq!(c.len(), 3);
    }

    /// Component numbers against mutual reachability on random graphs:
    /// two nodes share a number exactly when each reaches the other, and
    /// every edge between components runs from the higher number down.
    #[test]
    fn component_numbers_are_mutual_reach_in_reverse_topological_order() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut joined = 0;
        for _ in 0..400 {
            let n = rng.gen_range(1..16usize);
            let m = rng.gen_range(0..3 * n);
            let edges: Vec<(u32, u32)> = (0..m)
                .map(|_| (rng.gen_range(0..n) as u32, rng.gen_range(0..n) as u32))
                .collect();
            let g = graph(n, &edges);
            let (comp, count) = g.component_numbers();
            let r = g.reachability();
            for a in 0..n {
                for b in 0..n {
                    assert_eq!(comp[a] == comp[b], r[a][b] && r[b][a], "{edges:?}");
                    joined += (a != b && comp[a] == comp[b]) as usize;
                }
            }
            for (a, b) in g.edges() {
                assert!(comp[a as usize] >= comp[b as usize], "{edges:?}");
            }
            assert_eq!(count, comp.iter().max().map_or(0, |&c| c as usize + 1));
        }
        assert!(joined > 100, "cycles seen: {joined}");
    }
}
