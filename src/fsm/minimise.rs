//! DFA state minimisation: Hopcroft's partition refinement
//! (`O(k n lg n)`) and the slow, obvious Moore refinement it is tested
//! against. Both start from a partition of the states by their outputs
//! and refine by next-state classes until stable; the answer is the
//! coarsest stable partition, numbered canonically (classes in order of
//! their first state), so the two can be compared with `==`.

use std::collections::HashMap;

use crate::fsm::table::{Table, NONE};

/// A complete DFA for minimisation: `n` states, `k` symbols, `delta[q·k +
/// a]` the next state, and `init[q]` the class of `q`'s outputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dfa {
    /// States.
    pub n: usize,
    /// Symbols.
    pub k: usize,
    /// Transitions, row by row.
    pub delta: Vec<u32>,
    /// The initial partition (any labels).
    pub init: Vec<u32>,
}

impl Dfa {
    /// The completed machine of a deterministic `table` over its used
    /// symbols: one more state, a sink, takes every unspecified
    /// transition, and the outputs of a state on every symbol (`-`
    /// distinct from 0 and 1, "unspecified" distinct from all) decide the
    /// initial partition. The sink is the last state.
    pub fn of_table(table: &Table) -> Dfa {
        let s = table.states as usize;
        let k = table.symbols.len();
        let sink = s as u32;
        let mut delta = Vec::with_capacity((s + 1) * k);
        let mut sigs: HashMap<Vec<(u64, u64, bool)>, u32> = HashMap::new();
        let mut init = Vec::with_capacity(s + 1);
        for q in 0..=s {
            let mut sig = Vec::with_capacity(k);
            for &x in &table.symbols {
                let t = (q < s).then(|| table.first[table.cell(q as u32, x)]);
                let Some(t) = t.filter(|t| t.next != NONE) else {
                    delta.push(sink);
                    sig.push((0, 0, false));
                    continue;
                };
                delta.push(t.next);
                sig.push((t.out.care, t.out.ones, true));
            }
            if table.outputs == 0 {
                // A recogniser: the reset state is the distinguished one.
                sig.push((0, 0, q == table.reset as usize));
            }
            let next = sigs.len() as u32;
            init.push(*sigs.entry(sig).or_insert(next));
        }
        Dfa {
            n: s + 1,
            k,
            delta,
            init,
        }
    }
}

/// Labels renumbered in order of first appearance.
pub fn canonical(labels: &[u32]) -> Vec<u32> {
    let mut map: HashMap<u32, u32> = HashMap::new();
    labels
        .iter()
        .map(|&l| {
            let next = map.len() as u32;
            *map.entry(l).or_insert(next)
        })
        .collect()
}

/// The coarsest stable partition by Moore's refinement: each round splits
/// every class by the classes of the next states, until no class splits.
/// `O(n² k)` at worst; the reference for [`hopcroft`].
pub fn moore(d: &Dfa) -> Vec<u32> {
    let mut class = canonical(&d.init);
    let mut count = class.iter().max().map_or(0, |&c| c as usize + 1);
    loop {
        let sigs: Vec<Vec<u32>> = (0..d.n)
            .map(|q| {
                let mut v = vec![class[q]];
                v.extend((0..d.k).map(|a| class[d.delta[q * d.k + a] as usize]));
                v
            })
            .collect();
        let mut ids: HashMap<&Vec<u32>, u32> = HashMap::new();
        let next: Vec<u32> = sigs
            .iter()
            .map(|s| {
                let id = ids.len() as u32;
                *ids.entry(s).or_insert(id)
            })
            .collect();
        let new_count = ids.len();
        class = canonical(&next);
        if new_count == count {
            return class;
        }
        count = new_count;
    }
}

/// The partition under refinement: `elems[first[b]..end[b]]` are block
/// `b`'s states, the first `marked[b]` of them marked.
struct Partition {
    elems: Vec<u32>,
    pos: Vec<u32>,
    block: Vec<u32>,
    first: Vec<u32>,
    end: Vec<u32>,
    marked: Vec<u32>,
}

impl Partition {
    fn new(init: &[u32]) -> Partition {
        let labels = canonical(init);
        let blocks = labels.iter().max().map_or(0, |&c| c as usize + 1);
        let mut elems: Vec<u32> = (0..init.len() as u32).collect();
        elems.sort_by_key(|&q| labels[q as usize]);
        let mut pos = vec![0u32; init.len()];
        for (i, &q) in elems.iter().enumerate() {
            pos[q as usize] = i as u32;
        }
        let mut first = vec![u32::MAX; blocks];
        let mut end = vec![0u32; blocks];
        for (i, &q) in elems.iter().enumerate() {
            let b = labels[q as usize] as usize;
            first[b] = first[b].min(i as u32);
            end[b] = i as u32 + 1;
        }
        Partition {
            elems,
            pos,
            block: labels,
            first,
            end,
            marked: vec![0; blocks],
        }
    }

    /// Mark `q`; returns its block when it is the block's first mark.
    fn mark(&mut self, q: u32) -> Option<u32> {
        let b = self.block[q as usize] as usize;
        let m = self.first[b] + self.marked[b];
        let p = self.pos[q as usize];
        if p < m {
            return None;
        }
        let other = self.elems[m as usize];
        self.elems.swap(p as usize, m as usize);
        self.pos[other as usize] = p;
        self.pos[q as usize] = m;
        self.marked[b] += 1;
        (self.marked[b] == 1).then_some(b as u32)
    }

    /// Split the marked part off block `b` as a new block; returns it, or
    /// `None` when every state was marked.
    fn split(&mut self, b: u32) -> Option<u32> {
        let b = b as usize;
        let m = std::mem::take(&mut self.marked[b]);
        if m == self.end[b] - self.first[b] {
            return None;
        }
        let nb = self.first.len() as u32;
        let (lo, hi) = (self.first[b], self.first[b] + m);
        self.first.push(lo);
        self.end.push(hi);
        self.marked.push(0);
        self.first[b] = hi;
        for i in lo..hi {
            self.block[self.elems[i as usize] as usize] = nb;
        }
        Some(nb)
    }

    fn size(&self, b: u32) -> u32 {
        self.end[b as usize] - self.first[b as usize]
    }
}

/// The coarsest stable partition by Hopcroft's algorithm: a worklist of
/// (block, symbol) splitters; splitting a block keeps the pending
/// splitters of both halves, or adds only the smaller half.
pub fn hopcroft(d: &Dfa) -> Vec<u32> {
    let (n, k) = (d.n, d.k);
    // Predecessors per (symbol, target), compressed.
    let mut start = vec![0u32; k * n + 1];
    for q in 0..n {
        for a in 0..k {
            start[a * n + d.delta[q * k + a] as usize + 1] += 1;
        }
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut fill = start.clone();
    let mut preds = vec![0u32; n * k];
    for q in 0..n {
        for a in 0..k {
            let slot = a * n + d.delta[q * k + a] as usize;
            preds[fill[slot] as usize] = q as u32;
            fill[slot] += 1;
        }
    }
    let mut p = Partition::new(&d.init);
    let mut work: Vec<(u32, u32)> = Vec::new();
    let mut pending: Vec<bool> = Vec::new();
    for b in 0..p.first.len() as u32 {
        for a in 0..k as u32 {
            work.push((b, a));
            pending.push(true);
        }
    }
    let mut splitter: Vec<u32> = Vec::new();
    let mut touched: Vec<u32> = Vec::new();
    while let Some((b, a)) = work.pop() {
        pending[b as usize * k + a as usize] = false;
        splitter.clear();
        splitter
            .extend_from_slice(&p.elems[p.first[b as usize] as usize..p.end[b as usize] as usize]);
        touched.clear();
        for &t in &splitter {
            let slot = a as usize * n + t as usize;
            for &q in &preds[start[slot] as usize..start[slot + 1] as usize] {
                touched.extend(p.mark(q));
            }
        }
        for &old in &touched {
            let Some(new) = p.split(old) else { continue };
            pending.extend(std::iter::repeat_n(false, k));
            for c in 0..k as u32 {
                if pending[old as usize * k + c as usize] {
                    work.push((new, c));
                    pending[new as usize * k + c as usize] = true;
                } else {
                    let small = if p.size(new) <= p.size(old) { new } else { old };
                    work.push((small, c));
                    pending[small as usize * k + c as usize] = true;
                }
            }
        }
    }
    canonical(&p.block)
}
