//! The one shortest-path search of the channel router: Dijkstra's
//! algorithm over the nodes of a grid (cells, by some index), generic over
//! a cost policy ([`Policy`]: where a node's distance is kept, which node
//! ends the search, the moves out of a node and their costs) and over the
//! priority queue ([`Queue`]). Both queues pop `(distance, node)` pairs in
//! increasing order of both, so equal distances pop in node order whichever
//! queue a search uses, and the first parent found for a node is kept.
//!
//! Three searches use it: the maze search of the repairs
//! ([`crate::channel::routers::yacr::maze`], small step costs: Dial's [`Buckets`]), the local
//! negotiation of a window ([`crate::channel::routers::yacr::local`]) and the negotiated router
//! ([`crate::channel::routers::negotiated`]), whose congestion prices grow round by round
//! past what a ring of buckets holds ([`Heap`]).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::layer_model::Directions;

/// A priority queue of `(distance, node)` pairs that pops them in
/// increasing order of both.
pub trait Queue: Default {
    /// Make room for pushes up to `longest` beyond the distance last popped.
    fn prepare(&mut self, longest: u32);
    /// Empty the queue, keeping its storage.
    fn clear(&mut self);
    /// Queue node `i` at distance `d`.
    fn push(&mut self, d: u32, i: usize);
    /// The least pair, or `None` when the queue is empty.
    fn pop(&mut self) -> Option<(u32, usize)>;
}

/// A binary heap of `(distance, node)` pairs packed in one `u64` (nodes
/// fit in 32 bits), for step costs of any size.
#[derive(Default)]
pub struct Heap(BinaryHeap<Reverse<u64>>);

impl Queue for Heap {
    fn prepare(&mut self, _longest: u32) {}

    fn clear(&mut self) {
        self.0.clear();
    }

    #[inline]
    fn push(&mut self, d: u32, i: usize) {
        debug_assert!(i <= u32::MAX as usize);
        self.0.push(Reverse((d as u64) << 32 | i as u64));
    }

    #[inline]
    fn pop(&mut self) -> Option<(u32, usize)> {
        let Reverse(key) = self.0.pop()?;
        Some(((key >> 32) as u32, (key & 0xffff_ffff) as usize))
    }
}

/// A monotone priority queue for small integer step costs (Dial's buckets):
/// pops `(distance, index)` pairs in increasing order of both, exactly as a
/// binary heap of the pairs would, when every push is at most `longest`
/// beyond the distance last popped and never at it.
#[derive(Default)]
pub struct Buckets {
    ring: Vec<Vec<usize>>,
    /// The bucket being emptied, sorted descending so `pop` takes its end.
    current: Vec<usize>,
    distance: u32,
    pending: usize,
}

impl Queue for Buckets {
    /// Make room for pushes up to `longest` beyond the last pop (an empty
    /// queue keeps its buckets' storage).
    fn prepare(&mut self, longest: u32) {
        let size = (longest as usize + 1).next_power_of_two();
        if self.ring.len() < size {
            self.ring.resize(size, Vec::new());
        }
    }

    fn clear(&mut self) {
        if self.pending > 0 {
            self.ring.iter_mut().for_each(Vec::clear);
        }
        self.current.clear();
        self.distance = 0;
        self.pending = 0;
    }

    #[inline]
    fn push(&mut self, d: u32, i: usize) {
        debug_assert!(d >= self.distance && (d - self.distance) < self.ring.len() as u32);
        let mask = self.ring.len() - 1;
        self.ring[d as usize & mask].push(i);
        self.pending += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<(u32, usize)> {
        if let Some(i) = self.current.pop() {
            return Some((self.distance, i));
        }
        if self.pending == 0 {
            return None;
        }
        let mask = self.ring.len() - 1;
        loop {
            let bucket = &mut self.ring[self.distance as usize & mask];
            if !bucket.is_empty() {
                std::mem::swap(&mut self.current, bucket);
                self.pending -= self.current.len();
                self.current.sort_unstable_by(|a, b| b.cmp(a));
                let i = self.current.pop().expect("a non-empty bucket");
                return Some((self.distance, i));
            }
            self.distance += 1;
        }
    }
}

/// What a search costs and where it may go. A node is what the queue holds
/// (its index orders equal distances); its slot is where its distance and
/// parent are kept (a window's own index, or the node itself).
pub trait Policy {
    /// What [`Policy::locate`] finds out about a node that the goal test
    /// and the moves read again (its cell, say).
    type At: Copy;

    /// The slot of node `i`, and what else the search needs of it.
    fn locate(&self, i: usize) -> (usize, Self::At);

    /// Whether node `i`, popped at distance `d`, ends the search.
    fn is_goal(&self, i: usize, at: Self::At, d: u32) -> bool;

    /// Calls `step(j, l, cost)` for each move out of node `i` (slot `k`)
    /// to node `j` (slot `l`) at its cost, in the order ties are to be
    /// broken: of two moves reaching a node at one distance, the first
    /// made is kept.
    fn each_move(&mut self, i: usize, k: usize, at: Self::At, step: impl FnMut(usize, usize, u32));

    /// The distance through a move of `cost` from distance `d`.
    #[inline]
    fn extend(d: u32, cost: u32) -> u32 {
        d + cost
    }
}

/// No parent: a search's source. Nodes fit in 32 bits.
const NO_PARENT: u32 = u32::MAX;

/// The distances and parents (by slot) and the queue of a search, kept
/// between searches and reset entry by entry (a search usually touches a
/// small part of its slots).
#[derive(Default)]
pub struct Dijkstra<Q> {
    dist: Vec<u32>,
    parent: Vec<u32>,
    touched: Vec<usize>,
    queue: Q,
}

impl<Q: Queue> Dijkstra<Q> {
    /// Room for `n` slots.
    pub fn grow(&mut self, n: usize) {
        if self.dist.len() < n {
            self.dist.resize(n, u32::MAX);
            self.parent.resize(n, NO_PARENT);
        }
    }

    /// Make room in the queue for steps up to `longest` ([`Queue::prepare`]).
    pub fn prepare(&mut self, longest: u32) {
        self.queue.prepare(longest);
    }

    /// Forget the last search: every slot unreached, the queue empty.
    pub fn reset(&mut self) {
        for &k in &self.touched {
            self.dist[k] = u32::MAX;
            self.parent[k] = NO_PARENT;
        }
        self.touched.clear();
        self.queue.clear();
    }

    /// Start the search from node `i` (slot `k`) at distance 0.
    #[inline]
    pub fn start(&mut self, i: usize, k: usize) {
        if self.dist[k] == u32::MAX {
            self.touched.push(k);
        }
        self.dist[k] = 0;
        self.queue.push(0, i);
    }

    /// Search from the sources started until a node pops that ends the
    /// search (its node), or no node is left (`None`).
    #[inline]
    pub fn run<P: Policy>(&mut self, policy: &mut P) -> Option<usize> {
        let Dijkstra {
            dist,
            parent,
            touched,
            queue,
        } = self;
        while let Some((d, i)) = queue.pop() {
            let (k, at) = policy.locate(i);
            if d > dist[k] {
                continue;
            }
            if policy.is_goal(i, at, d) {
                return Some(i);
            }
            // Inlined at each of a policy's move sites: a call per step
            // would cost more than the step.
            policy.each_move(
                i,
                k,
                at,
                #[inline(always)]
                |j, l, cost| {
                    let nd = P::extend(d, cost);
                    if nd < dist[l] {
                        if dist[l] == u32::MAX {
                            touched.push(l);
                        }
                        dist[l] = nd;
                        parent[l] = i as u32;
                        queue.push(nd, j);
                    }
                },
            );
        }
        None
    }

    /// The parent of the node in slot `k`, `None` for a source.
    #[inline]
    pub fn parent(&self, k: usize) -> Option<usize> {
        let p = self.parent[k];
        (p != NO_PARENT).then_some(p as usize)
    }

    /// The path of the last search to node `end`, its source first (`slot`
    /// gives each node's slot).
    pub fn path(&self, end: usize, slot: impl Fn(usize) -> usize) -> Vec<usize> {
        let mut path = vec![end];
        let mut at = end;
        while let Some(p) = self.parent(slot(at)) {
            at = p;
            path.push(at);
        }
        path.reverse();
        path
    }
}

/// The wiring direction of a layer, and whether wires may run against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preferred {
    /// Steps along a row are cheap; steps along a column cost `wrong_way`.
    Horizontal,
    /// Steps along a column are cheap; steps along a row cost `wrong_way`.
    Vertical,
    /// Steps in both directions cost the same (a B layer).
    Any,
    /// Steps along a row only (a horizontal layer of strict reserved-layer
    /// routing, [`Directions::Reserved`]).
    HorizontalOnly,
    /// Steps along a column only (a vertical layer of strict
    /// reserved-layer routing).
    VerticalOnly,
}

impl Preferred {
    /// The cost of a step along a row on a layer of this direction: `step`,
    /// plus `wrong_way` on a vertical layer; `None` where no such step is
    /// allowed.
    #[inline(always)]
    pub fn along(self, step: u32, wrong_way: u32) -> Option<u32> {
        match self {
            Preferred::Horizontal | Preferred::Any | Preferred::HorizontalOnly => Some(step),
            Preferred::Vertical => Some(step + wrong_way),
            Preferred::VerticalOnly => None,
        }
    }

    /// The cost of a step along a column on a layer of this direction:
    /// `step`, plus `wrong_way` on a horizontal layer; `None` where no such
    /// step is allowed.
    #[inline(always)]
    pub fn across(self, step: u32, wrong_way: u32) -> Option<u32> {
        match self {
            Preferred::Vertical | Preferred::Any | Preferred::VerticalOnly => Some(step),
            Preferred::Horizontal => Some(step + wrong_way),
            Preferred::HorizontalOnly => None,
        }
    }
}

/// The maze searches' direction of each of a model's layers under a
/// direction rule.
pub fn preferred(
    model: crate::channel::layer_model::LayerModel,
    rule: Directions,
) -> Vec<Preferred> {
    model
        .name()
        .chars()
        .map(|c| match (c == 'H', rule) {
            (true, Directions::Preferred) => Preferred::Horizontal,
            (false, Directions::Preferred) => Preferred::Vertical,
            (true, Directions::Reserved) => Preferred::HorizontalOnly,
            (false, Directions::Reserved) => Preferred::VerticalOnly,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{Buckets, Heap, Queue};
    use rand::{Rng, SeedableRng};
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    fn pops_in_the_order_of_a_binary_heap<Q: Queue>() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        for _ in 0..200 {
            let longest = rng.gen_range(1..20u32);
            let mut queue = Q::default();
            queue.prepare(longest);
            let mut heap = BinaryHeap::new();
            for _ in 0..rng.gen_range(1..5) {
                let i = rng.gen_range(0..50usize);
                queue.push(0, i);
                heap.push(Reverse((0u32, i)));
            }
            let mut popped = 0;
            while let Some(Reverse(want)) = heap.pop() {
                let got = queue.pop().expect("as many entries as the heap");
                assert_eq!(got, want);
                popped += 1;
                // Pushes strictly after the popped distance, within reach.
                if popped < 300 {
                    for _ in 0..rng.gen_range(0..3) {
                        let d = want.0 + rng.gen_range(1..=longest);
                        let i = rng.gen_range(0..50usize);
                        queue.push(d, i);
                        heap.push(Reverse((d, i)));
                    }
                }
            }
            assert_eq!(queue.pop(), None);
        }
    }

    #[test]
    fn buckets_pop_in_the_order_of_a_binary_heap() {
        pops_in_the_order_of_a_binary_heap::<Buckets>();
    }

    #[test]
    fn the_packed_heap_pops_in_the_order_of_a_binary_heap() {
        pops_in_the_order_of_a_binary_heap::<Heap>();
    }
}
