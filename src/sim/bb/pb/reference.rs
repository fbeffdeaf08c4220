//! A slow reference for the pruned butterfly's routing (test-only), to
//! cross-check [`super::route`].
//!
//! It shares none of the fast router's index arithmetic: it walks the
//! explicit graph of [`crate::sim::bb::graph`], with adjacency maps built
//! from [`PrunedButterfly::edges`].
//!
//! - Subtrees, peaks and channel capacities come from the graph: a leaf's
//!   ancestor node at each level is found by climbing its up-edges, and the
//!   capacity of a channel is the number of edges from the node into its
//!   parent node.
//! - Compression climbs edge by edge from the leaf to the parent vertex
//!   `<i, j_P, h>`. At each vertex it takes the one up-edge whose end can
//!   still reach the target, which a breadth-first search down from the
//!   target decides (not the closed-form path), and counts edges used twice.
//! - Expansion descends the graph's down-edges. An active message takes the
//!   edge into the child node whose subtree holds its destination, under
//!   rules (a)-(d) and the choices where the paper is open, listed at the top of
//!   [`super`]: key `(dst, src, id)`; two sidetracked messages split, the
//!   smaller key to the direction bit's edge, no toggle; direction bits
//!   start left once and are never reset; left-sibling subtrees before
//!   right ones; `λ_T` with the channel to the parent, rounded up; batch
//!   `rank mod λ_T`, rank by leaf and then queue order (original messages
//!   in set order, then sidetracked ones in arrival order).
//! - Queue order is not fully fixed by the paper: two sidetracked messages
//!   that reach one leaf in the same batch are queued in the order of the
//!   leaf's up-edges in the graph, the edge to `<n-1, j, 0>` first.
//!
//! The cost model is not re-derived: the bit steps of the returned
//! [`Outcome`] are 0. Besides the figures it returns every message's trail
//! of leaves and a log of every batch (keys on `P`, arrivals), so a test
//! can replay the batches through the fast router's expansion.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::super::graph::{PrunedButterfly, Vertex};
use super::super::{Levels, Message};
use super::{Outcome, Stage};

/// The result of a reference routing.
pub struct Reference {
    /// The figures of [`Outcome`], bit steps left at 0.
    pub outcome: Outcome,
    /// Per message, the leaves it visited: its source, then every leaf a
    /// batch brought it to (the last its destination).
    pub trails: Vec<Vec<u32>>,
    /// Every batch, in the order routed.
    pub batches: Vec<Batch>,
}

/// One routed batch.
pub struct Batch {
    /// The stage.
    pub stage: u32,
    /// The parent node `P`, at level `stage`.
    pub parent: u32,
    /// `T'`, at level `stage + 1`.
    pub into: u32,
    /// The keys `(dst, src, id)` on `P`'s vertices `0, 1, ...`.
    pub keys: Vec<(u32, u32, u32)>,
    /// Where each message arrived, with whether it was still active, in
    /// key order.
    pub arrivals: Vec<(u32, (u32, u32, u32), bool)>,
}

/// The explicit graph, with adjacency maps and what is derived from them.
struct Graph {
    /// `lg N`: the leaves are at level `n`.
    n: u32,
    /// Each vertex's up-edges, in the order of [`PrunedButterfly::edges`].
    up: HashMap<Vertex, Vec<Vertex>>,
    /// Each vertex's down-edges.
    down: HashMap<Vertex, Vec<Vertex>>,
    /// Edges from node `(level, j)` into its parent node.
    cap: HashMap<(u32, u32), u32>,
    /// Per leaf, its ancestor node at each level `0..=n`.
    anc: Vec<Vec<u32>>,
    /// Per target vertex, the vertices from which an up-path reaches it.
    reach: HashMap<Vertex, HashSet<Vertex>>,
}

impl Graph {
    /// The graph of `levels`, its adjacency built from the edge list.
    fn new(levels: Levels) -> Graph {
        let pb = PrunedButterfly { levels };
        let n = levels.n;
        let mut up: HashMap<Vertex, Vec<Vertex>> = HashMap::new();
        let mut down: HashMap<Vertex, Vec<Vertex>> = HashMap::new();
        let mut cap: HashMap<(u32, u32), u32> = HashMap::new();
        for v in pb.vertices() {
            up.insert(v, Vec::new());
            down.insert(v, Vec::new());
        }
        for e in pb.edges() {
            up.get_mut(&e.child).expect("a vertex").push(e.parent);
            down.get_mut(&e.parent).expect("a vertex").push(e.child);
            *cap.entry((e.child.i, e.child.j)).or_insert(0) += 1;
        }
        let anc = (0..levels.terminals())
            .map(|l| {
                let mut v = Vertex { i: n, j: l, k: 0 };
                let mut nodes = vec![0; n as usize + 1];
                nodes[n as usize] = l;
                while v.i > 0 {
                    let ps = &up[&v];
                    assert!(ps.iter().all(|p| p.j == ps[0].j), "one parent node");
                    v = ps[0];
                    nodes[v.i as usize] = v.j;
                }
                nodes
            })
            .collect();
        Graph {
            n,
            up,
            down,
            cap,
            anc,
            reach: HashMap::new(),
        }
    }

    /// The level of the lowest common ancestor node of leaves `a` and `b`.
    fn peak(&self, a: u32, b: u32) -> u32 {
        (0..=self.n)
            .rev()
            .find(|&lev| self.anc[a as usize][lev as usize] == self.anc[b as usize][lev as usize])
            .expect("the root is common")
    }

    /// Records the vertices with an up-path to `t`: a search down from `t`.
    fn search(&mut self, t: Vertex) {
        let down = &self.down;
        self.reach.entry(t).or_insert_with(|| {
            let mut seen = HashSet::from([t]);
            let mut todo = vec![t];
            while let Some(v) = todo.pop() {
                for &c in &down[&v] {
                    if seen.insert(c) {
                        todo.push(c);
                    }
                }
            }
            seen
        });
    }

    /// The up-path from leaf `l` to `t`, edge by edge, as `(child, parent)`.
    fn climb(&mut self, l: u32, t: Vertex) -> Vec<(Vertex, Vertex)> {
        let mut v = Vertex {
            i: self.n,
            j: l,
            k: 0,
        };
        let mut path = Vec::new();
        self.search(t);
        let reach = &self.reach[&t];
        while v.i > t.i {
            let on: Vec<Vertex> = self.up[&v]
                .iter()
                .copied()
                .filter(|p| reach.contains(p))
                .collect();
            assert_eq!(on.len(), 1, "one up-edge of {v:?} leads to {t:?}");
            path.push((v, on[0]));
            v = on[0];
        }
        assert_eq!(v, t, "the climb ends at its target");
        path
    }

    /// The down-edge of `v` into the child node whose subtree holds `leaf`.
    fn toward(&self, v: Vertex, leaf: u32) -> Vertex {
        let node = self.anc[leaf as usize][v.i as usize + 1];
        let c: Vec<Vertex> = self.down[&v]
            .iter()
            .copied()
            .filter(|c| c.j == node)
            .collect();
        assert_eq!(c.len(), 1, "one down-edge of {v:?} into node {node}");
        c[0]
    }

    /// The down-edge of `v` into its left (`right == false`) or right child.
    fn side(&self, v: Vertex, right: bool) -> Vertex {
        let node = 2 * v.j + u32::from(right);
        let c: Vec<Vertex> = self.down[&v]
            .iter()
            .copied()
            .filter(|c| c.j == node)
            .collect();
        assert_eq!(c.len(), 1, "one down-edge of {v:?} into node {node}");
        c[0]
    }
}

/// A message of the reference.
struct Msg {
    /// `(dst, src, id)`.
    key: (u32, u32, u32),
    /// The leaf it is at.
    cur: u32,
    /// The leaves it visited, `cur` last.
    trail: Vec<u32>,
}

/// A message moving down in an expansion: its id, whether it is active,
/// and the vertex it came from.
#[derive(Clone, Copy)]
struct Moving {
    /// The message.
    id: u32,
    /// Whether it is still on its way to its destination.
    active: bool,
    /// The vertex it came down from.
    from: Vertex,
}

/// The state of one reference routing.
struct Ref {
    /// The explicit graph.
    g: Graph,
    /// The messages, by id.
    msgs: Vec<Msg>,
    /// Per leaf, its queue: message ids with whether they are held there
    /// as sidetracked messages.
    queues: Vec<Vec<(u32, bool)>>,
    /// Vertices whose direction bit points right.
    right: HashSet<Vertex>,
    /// The figures so far.
    out: Outcome,
    /// The batches so far.
    batches: Vec<Batch>,
}

/// Routes `messages` by the reference on the pruned butterfly of `levels`.
pub fn route(levels: Levels, messages: &[Message]) -> Reference {
    let g = Graph::new(levels);
    let mut queues = vec![Vec::new(); levels.terminals() as usize];
    let mut out = Outcome {
        max_batch_load: (0, 1),
        ..Outcome::default()
    };
    let msgs: Vec<Msg> = messages
        .iter()
        .enumerate()
        .map(|(id, m)| {
            let id = id as u32;
            if m.src == m.dst {
                out.delivered += 1;
            } else {
                queues[m.src as usize].push((id, false));
            }
            Msg {
                key: (m.dst, m.src, id),
                cur: m.src,
                trail: vec![m.src],
            }
        })
        .collect();
    let mut r = Ref {
        g,
        msgs,
        queues,
        right: HashSet::new(),
        out,
        batches: Vec::new(),
    };
    for i in 0..levels.n {
        r.stage(i);
    }
    assert!(
        r.queues.iter().all(Vec::is_empty),
        "every message delivered"
    );
    assert_eq!(r.out.delivered, messages.len(), "every message delivered");
    Reference {
        outcome: r.out,
        trails: r.msgs.into_iter().map(|m| m.trail).collect(),
        batches: r.batches,
    }
}

impl Ref {
    /// The peak of message `m` where it is now.
    fn peak_of(&self, m: u32) -> u32 {
        let msg = &self.msgs[m as usize];
        self.g.peak(msg.cur, msg.key.0)
    }

    /// Stage `i`: the subtrees at level `i + 1` send their messages of
    /// peak `i` to their siblings, left siblings first.
    fn stage(&mut self, i: u32) {
        let mut by_t: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        let mut count = 0;
        for q in &self.queues {
            for &(m, _) in q {
                if self.peak_of(m) == i {
                    let cur = self.msgs[m as usize].cur;
                    by_t.entry(self.g.anc[cur as usize][i as usize + 1])
                        .or_default()
                        .push(m);
                    count += 1;
                }
            }
        }
        let before = self.out.sidetracks;
        let mut lambda_max = 0;
        for side in 0..2 {
            for (&t, mt) in &by_t {
                if t % 2 == side {
                    lambda_max = lambda_max.max(self.subtree(i, mt));
                }
            }
        }
        self.out.stages.push(Stage {
            messages: count,
            max_lambda_t: lambda_max,
            sidetracked: self.out.sidetracks - before,
            bit_steps: 0,
        });
    }

    /// The largest `ℓ / cap` over the channels of the subtree at level
    /// `i + 1` holding `ms` and the one above it, as `(ℓ, cap)`.
    fn load(&self, i: u32, ms: &[u32]) -> (u32, u32) {
        let mut below: HashMap<(u32, u32), u32> = HashMap::new();
        for &m in ms {
            let anc = &self.g.anc[self.msgs[m as usize].cur as usize];
            for lev in i + 1..=self.g.n {
                *below.entry((lev, anc[lev as usize])).or_insert(0) += 1;
            }
        }
        let mut most = (0, 1);
        for (node, l) in below {
            let cap = self.g.cap[&node];
            if u64::from(l) * u64::from(most.1) > u64::from(most.0) * u64::from(cap) {
                most = (l, cap);
            }
        }
        most
    }

    /// Routes the messages `mt` of one subtree at level `i + 1` in `λ_T`
    /// batches; returns `λ_T`.
    fn subtree(&mut self, i: u32, mt: &[u32]) -> u32 {
        let (l, cap) = self.load(i, mt);
        let lambda = l.div_ceil(cap);
        // Rank by leaf, then place in the leaf's queue.
        let mut ranked: Vec<(u32, usize, u32)> = mt
            .iter()
            .map(|&m| {
                let cur = self.msgs[m as usize].cur;
                let pos = self.queues[cur as usize]
                    .iter()
                    .position(|e| e.0 == m)
                    .expect("queued");
                (cur, pos, m)
            })
            .collect();
        ranked.sort_unstable();
        for b in 0..lambda as usize {
            let batch: Vec<u32> = ranked
                .iter()
                .enumerate()
                .filter(|(r, _)| r % lambda as usize == b)
                .map(|(_, e)| e.2)
                .collect();
            self.batch(i, &batch);
        }
        lambda
    }

    /// Routes one batch (in rank order) from its subtree at level `i + 1`
    /// to the sibling.
    fn batch(&mut self, i: u32, batch: &[u32]) {
        let load = self.load(i, batch);
        let most = self.out.max_batch_load;
        if u64::from(load.0) * u64::from(most.1) > u64::from(most.0) * u64::from(load.1) {
            self.out.max_batch_load = load;
        }
        let leaf0 = self.msgs[batch[0] as usize].cur as usize;
        let (p, t) = (
            self.g.anc[leaf0][i as usize],
            self.g.anc[leaf0][i as usize + 1],
        );
        // Compression: message of rank h to parent vertex <i, p, h>.
        let mut used: HashMap<(Vertex, Vertex), usize> = HashMap::new();
        for (h, &m) in batch.iter().enumerate() {
            let target = Vertex {
                i,
                j: p,
                k: h as u32,
            };
            assert!(self.g.up.contains_key(&target), "no parent vertex {h}");
            for e in self.g.climb(self.msgs[m as usize].cur, target) {
                *used.entry(e).or_insert(0) += 1;
            }
        }
        self.out.compression_conflicts += used.values().map(|&u| u - 1).sum::<usize>();
        for &m in batch {
            let q = &mut self.queues[self.msgs[m as usize].cur as usize];
            q.retain(|e| e.0 != m);
        }
        // Sort by key onto P's vertices and expand into T'.
        let mut sorted = batch.to_vec();
        sorted.sort_unstable_by_key(|&m| self.msgs[m as usize].key);
        let arrivals = self.expand(i, p, t ^ 1, &sorted);
        let mut log = Batch {
            stage: i,
            parent: p,
            into: t ^ 1,
            keys: sorted.iter().map(|&m| self.msgs[m as usize].key).collect(),
            arrivals: Vec::new(),
        };
        for (leaf, got) in arrivals {
            for mv in got {
                let msg = &mut self.msgs[mv.id as usize];
                log.arrivals.push((leaf, msg.key, mv.active));
                msg.cur = leaf;
                msg.trail.push(leaf);
                if mv.active {
                    assert_eq!(leaf, msg.key.0, "an active message at its destination");
                    self.out.delivered += 1;
                    continue;
                }
                assert!(self.peak_of(mv.id) > i, "a sidetrack lowers the peak");
                self.out.sidetracks += 1;
                let q = &mut self.queues[leaf as usize];
                q.push((mv.id, true));
                let held = q.iter().filter(|e| e.1).count() as u32;
                self.out.max_held = self.out.max_held.max(held);
            }
        }
        log.arrivals.sort_unstable_by_key(|a| a.1);
        self.batches.push(log);
    }

    /// Expands `sorted` from the vertices `<i, p, h>` into the node `t2`
    /// at level `i + 1` and down to its leaves; returns, per leaf, the
    /// messages reaching it in the order of the leaf's up-edges.
    fn expand(&mut self, i: u32, p: u32, t2: u32, sorted: &[u32]) -> BTreeMap<u32, Vec<Moving>> {
        let mut at: BTreeMap<Vertex, Vec<Moving>> = BTreeMap::new();
        for (h, &id) in sorted.iter().enumerate() {
            let from = Vertex {
                i,
                j: p,
                k: h as u32,
            };
            let into: Vec<Vertex> = self.g.down[&from]
                .iter()
                .copied()
                .filter(|c| c.j == t2)
                .collect();
            assert_eq!(into.len(), 1, "one edge from {from:?} into node {t2}");
            at.entry(into[0]).or_default().push(Moving {
                id,
                active: true,
                from,
            });
        }
        for lev in i + 1..self.g.n {
            let mut next: BTreeMap<Vertex, Vec<Moving>> = BTreeMap::new();
            let mut conflicted = Vec::new();
            for (v, group) in at {
                for (to, mv) in self.decide(v, &group, &mut conflicted) {
                    next.entry(to).or_default().push(mv);
                }
            }
            self.out.conflicts += conflicted.len();
            for node in conflicted {
                let carried: usize = next
                    .iter()
                    .filter(|(c, _)| c.j == node)
                    .map(|(_, g)| g.iter().filter(|mv| mv.active).count())
                    .sum();
                let cap = self.g.cap[&(lev + 1, node)] as usize;
                self.out.lemma1_violations += usize::from(carried != cap);
            }
            at = next;
        }
        at.into_iter()
            .map(|(leaf, mut got)| {
                assert_eq!((leaf.i, leaf.k), (self.g.n, 0), "a leaf vertex");
                let ups = &self.g.up[&leaf];
                got.sort_by_key(|mv| ups.iter().position(|&u| u == mv.from));
                (leaf.j, got)
            })
            .collect()
    }

    /// Rules (a)-(d) and the split of two sidetracked messages at vertex
    /// `v`: where each message of `group` goes, and whether it stays
    /// active. A conflict of two actives records the wanted child node.
    fn decide(
        &mut self,
        v: Vertex,
        group: &[Moving],
        conflicted: &mut Vec<u32>,
    ) -> Vec<(Vertex, Moving)> {
        assert!(matches!(group.len(), 1 | 2), "one or two messages at {v:?}");
        let key = |mv: &Moving| self.msgs[mv.id as usize].key;
        let want = |mv: &Moving| self.g.toward(v, key(mv).0);
        let other = |c: Vertex| {
            *self.g.down[&v]
                .iter()
                .find(|&&d| d != c)
                .expect("two down-edges")
        };
        let bit = self.right.contains(&v);
        let dir = self.g.side(v, bit);
        let go = |mv: &Moving, to: Vertex, active: bool| {
            (
                to,
                Moving {
                    id: mv.id,
                    active,
                    from: v,
                },
            )
        };
        match group {
            [a] if a.active => vec![go(a, want(a), true)],
            [a] => {
                if !self.right.remove(&v) {
                    self.right.insert(v);
                }
                vec![go(a, dir, false)]
            }
            [a, b] if a.active && b.active => {
                let (wa, wb) = (want(a), want(b));
                if wa != wb {
                    return vec![go(a, wa, true), go(b, wb, true)];
                }
                conflicted.push(wa.j);
                let (win, lose) = if key(a) < key(b) { (a, b) } else { (b, a) };
                vec![go(win, wa, true), go(lose, other(wa), false)]
            }
            [a, b] if a.active || b.active => {
                let (act, side) = if a.active { (a, b) } else { (b, a) };
                let w = want(act);
                vec![go(act, w, true), go(side, other(w), false)]
            }
            [a, b] => {
                let (small, large) = if key(a) < key(b) { (a, b) } else { (b, a) };
                vec![go(small, dir, false), go(large, other(dir), false)]
            }
            _ => unreachable!("checked above"),
        }
    }
}

#[cfg(test)]
mod tests;
