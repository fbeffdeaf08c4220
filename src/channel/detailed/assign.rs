//! Track assignment of whole nets (trunks) to slots `(row, H layer)`, after
//! YACR2 (spec note 003 part 2, section 4.1 step 3), as a sweep that never
//! needs more than `W >= density` slots per column:
//!
//! 1. the nets crossing a column of maximum density are placed first, in
//!    topological order of the (cycle-broken) VCG, from the top down;
//! 2. a sweep to the right places each net at its first column, a sweep to
//!    the left each net at its last column, into a slot free over the net's
//!    whole span.
//!
//! Each net takes the free slot of least cost: first the number of vertical
//! constraint violations (VCVs) it makes with nets already placed, then the
//! rows it leaves too few for the nets that must lie above or below it, then
//! its distance from YACR2's ideal row. The VCVs left over are repaired by
//! the maze steps.

use super::Item;
use crate::channel::problem::ChannelProblem;
use crate::graph::Digraph;

/// Where a trunk runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Row `1 ..= W`.
    pub y: i64,
    pub layer: u32,
}

/// Constraint depths of the nodes of a constraint graph: how many nodes
/// must lie above (`above`) and below (`below`) each along the longest
/// chains, edges inside strongly connected components ignored.
pub struct Depths {
    pub above: Vec<u32>,
    pub below: Vec<u32>,
}

/// Longest chains above and below each node of `vcg` (an edge `a -> b`
/// means `a` above `b`), cycles broken by dropping edges inside components.
pub fn depths(vcg: &Digraph) -> Depths {
    let n = vcg.node_count();
    let mut comp = vec![0usize; n];
    for (k, c) in vcg.strongly_connected_components().iter().enumerate() {
        for &v in c {
            comp[v as usize] = k;
        }
    }
    let mut dag = Digraph::new(n);
    let mut rev = Digraph::new(n);
    for (a, b) in vcg.edges() {
        if comp[a as usize] != comp[b as usize] {
            dag.add_edge(a, b);
            rev.add_edge(b, a);
        }
    }
    let order = dag
        .topological_order()
        .expect("condensation edges are acyclic");
    let mut above = vec![0u32; n];
    for &v in &order {
        for &w in dag.successors(v) {
            above[w as usize] = above[w as usize].max(above[v as usize] + 1);
        }
    }
    let mut below = vec![0u32; n];
    for &v in order.iter().rev() {
        for &w in rev.successors(v) {
            below[w as usize] = below[w as usize].max(below[v as usize] + 1);
        }
    }
    Depths { above, below }
}

/// Assign a slot to every trunk piece. `rows` is `W`; `h_layers` are the
/// layers that carry trunks. Pieces of one net may share a slot where they
/// touch; the free slot of least cost is taken (see the module docs).
///
/// `None` when some column runs out of slots: pieces of one net that meet
/// in a column on different slots (a dogleg) take two slots there, so with
/// doglegs `W = density` is not always enough for this greedy sweep (one
/// piece per net always fits).
pub fn assign(
    problem: &ChannelProblem,
    items: &[Item],
    rows: i64,
    h_layers: &[u32],
) -> Option<Vec<Slot>> {
    let depths = &depths(&piece_graph(problem, items));
    let slots: Vec<Slot> = (1..=rows)
        .rev()
        .flat_map(|y| h_layers.iter().map(move |&layer| Slot { y, layer }))
        .collect();
    // Occupied extent of each slot and the nets at its two ends: the sweeps
    // only ever extend it outwards.
    let mut left_end = vec![(i64::MAX, u32::MAX); slots.len()];
    let mut right_end = vec![(i64::MIN, u32::MAX); slots.len()];
    let mut placed: Vec<Option<Slot>> = vec![None; items.len()];
    // Pieces of each net ending in each column, for the VCV count.
    let c = problem.columns() as i64;
    let ending = Ending::new(problem, items);
    let mut profile = vec![0u32; c as usize];
    let mut net_spans: std::collections::HashMap<u32, (i64, i64)> =
        std::collections::HashMap::new();
    for it in items {
        let e = net_spans.entry(it.net).or_insert((it.lo, it.hi));
        e.0 = e.0.min(it.lo);
        e.1 = e.1.max(it.hi);
    }
    for &(lo, hi) in net_spans.values() {
        for x in lo.max(0)..=hi.min(c - 1) {
            profile[x as usize] += 1;
        }
    }
    let dmax = profile.iter().copied().max().unwrap_or(0);
    let peaks: Vec<i64> = (0..c).filter(|&x| profile[x as usize] == dmax).collect();
    let cstar = peaks.get(peaks.len() / 2).copied().unwrap_or(0);
    let ideal = |k: usize| -> i64 {
        let (a, b) = (depths.above[k] as i64, depths.below[k] as i64);
        let t = if a + b == 0 {
            (rows + 1) / 2
        } else {
            (a * (rows - b) + b * (a + 1)) / (a + b)
        };
        (rows + 1 - t.clamp(1, rows)).clamp(1, rows)
    };
    let place =
        |k: usize, placed: &[Option<Slot>], fits: &dyn Fn(usize) -> bool| -> Option<usize> {
            let mut best: Option<(u64, usize)> = None;
            for (si, slot) in slots.iter().enumerate() {
                if !fits(si) {
                    continue;
                }
                let vcv = count_violations(problem, items, &ending, k, *slot, |o| placed[o]) as u64;
                let (a, b) = (depths.above[k] as i64, depths.below[k] as i64);
                let squeeze = (a - (rows - slot.y)).max(0) + (b - (slot.y - 1)).max(0);
                let cost = vcv * 1_000_000
                    + squeeze as u64 * 1_000
                    + (slot.y - ideal(k)).unsigned_abs() * 4
                    + (slot.layer != h_layers[0]) as u64;
                if best.is_none_or(|(bc, _)| cost < bc) {
                    best = Some((cost, si));
                }
            }
            best.map(|(_, si)| si)
        };
    // 1. One piece per net crossing c*, top-down in topological order.
    let mut first_at_cstar: std::collections::HashMap<u32, usize> =
        std::collections::HashMap::new();
    for (k, it) in items.iter().enumerate() {
        if it.lo <= cstar && cstar <= it.hi {
            first_at_cstar.entry(it.net).or_insert(k);
        }
    }
    let mut crossing: Vec<usize> = first_at_cstar.values().copied().collect();
    crossing.sort_by_key(|&k| (depths.above[k], std::cmp::Reverse(depths.below[k]), k));
    for k in crossing.iter().copied() {
        let it = items[k];
        let si = place(k, &placed, &|si| {
            right_end[si].0 < it.lo && left_end[si].0 > it.hi
        })?;
        placed[k] = Some(slots[si]);
        left_end[si] = (it.lo, it.net);
        right_end[si] = (it.hi, it.net);
    }
    let constrained = |k: usize| std::cmp::Reverse(depths.above[k] + depths.below[k]);
    // 2. Sweep right.
    let mut right: Vec<usize> = (0..items.len())
        .filter(|&k| placed[k].is_none() && items[k].lo >= cstar)
        .collect();
    right.sort_by_key(|&k| (items[k].lo, constrained(k), k));
    for k in right {
        let it = items[k];
        let si = place(k, &placed, &|si| {
            right_end[si].0 < it.lo || (right_end[si] == (it.lo, it.net))
        })?;
        placed[k] = Some(slots[si]);
        right_end[si] = (it.hi, it.net);
        if left_end[si].0 > it.lo {
            left_end[si] = (it.lo, it.net);
        }
    }
    // 3. Sweep left.
    let mut left: Vec<usize> = (0..items.len()).filter(|&k| placed[k].is_none()).collect();
    left.sort_by_key(|&k| (std::cmp::Reverse(items[k].hi), constrained(k), k));
    for k in left {
        let it = items[k];
        let si = place(k, &placed, &|si| {
            left_end[si].0 > it.hi || (left_end[si] == (it.hi, it.net))
        })?;
        placed[k] = Some(slots[si]);
        left_end[si] = (it.lo, it.net);
        if right_end[si].0 < it.hi {
            right_end[si] = (it.hi, it.net);
        }
    }
    placed.into_iter().collect()
}

/// The constraint graph of trunk pieces: in each column with a top pin of
/// one net and a bottom pin of another, every piece of the top net that
/// meets the column must lie above every such piece of the bottom net.
pub fn piece_graph(problem: &ChannelProblem, items: &[Item]) -> Digraph {
    let c = problem.columns() as i64;
    let mut at: std::collections::HashMap<(u32, i64), Vec<u32>> = std::collections::HashMap::new();
    for (k, it) in items.iter().enumerate() {
        for col in problem
            .net(crate::channel::problem::NetId(it.net))
            .pin_columns()
        {
            let x = col as i64;
            if it.lo <= x && x <= it.hi {
                at.entry((it.net, x)).or_default().push(k as u32);
            }
        }
    }
    let mut g = Digraph::new(items.len());
    for x in 0..c {
        if let (Some(t), Some(b)) = (problem.top()[x as usize], problem.bottom()[x as usize]) {
            if t == b {
                continue;
            }
            let none = Vec::new();
            let above = at.get(&(t.0, x)).unwrap_or(&none);
            let below = at.get(&(b.0, x)).unwrap_or(&none);
            for &a in above {
                for &b in below {
                    g.add_edge(a, b);
                }
            }
        }
    }
    g.dedup();
    g
}

/// The pieces ending in each column (at its `lo` or `hi`), with their nets:
/// pieces end at their net's pin columns, so a column lists few.
struct Ending {
    start: Vec<usize>,
    entries: Vec<(u32, usize)>,
}

impl Ending {
    fn new(problem: &ChannelProblem, items: &[Item]) -> Self {
        let c = problem.columns() as i64;
        let ends = || {
            items.iter().enumerate().flat_map(move |(k, it)| {
                [it.lo, it.hi]
                    .into_iter()
                    .filter(move |x| (0..c).contains(x))
                    .map(move |x| (x as usize, it.net, k))
            })
        };
        let mut start = vec![0usize; c as usize + 1];
        for (x, _, _) in ends() {
            start[x + 1] += 1;
        }
        for x in 0..c as usize {
            start[x + 1] += start[x];
        }
        let mut fill = start.clone();
        let mut entries = vec![(0u32, 0usize); start[c as usize]];
        for (x, net, k) in ends() {
            entries[fill[x]] = (net, k);
            fill[x] += 1;
        }
        Ending { start, entries }
    }

    /// The pieces of `net` ending in column `x`, in item order.
    fn of(&self, net: u32, x: i64) -> impl Iterator<Item = usize> + '_ {
        self.entries[self.start[x as usize]..self.start[x as usize + 1]]
            .iter()
            .filter(move |e| e.0 == net)
            .map(|e| e.1)
    }
}

/// Count the vertical constraint violations of piece `k` if it sat in
/// `slot`, against the other pieces placed so far (`slot_of`): in each end
/// column that is a pin column, the top net's pieces must lie strictly above
/// the bottom net's.
fn count_violations(
    problem: &ChannelProblem,
    items: &[Item],
    ending: &Ending,
    k: usize,
    slot: Slot,
    slot_of: impl Fn(usize) -> Option<Slot>,
) -> u32 {
    let it = items[k];
    let c = problem.columns() as i64;
    let mut vcv = 0;
    for x in [it.lo, it.hi] {
        if !(0..c).contains(&x) {
            continue;
        }
        let (t, b) = (problem.top()[x as usize], problem.bottom()[x as usize]);
        let (mine_top, other) = match (t, b) {
            (Some(t), Some(b)) if t.0 == it.net && b.0 != it.net => (true, b.0),
            (Some(t), Some(b)) if b.0 == it.net && t.0 != it.net => (false, t.0),
            _ => continue,
        };
        for o in ending.of(other, x) {
            if let Some(os) = slot_of(o) {
                let bad = if mine_top {
                    slot.y <= os.y
                } else {
                    slot.y >= os.y
                };
                vcv += bad as u32;
            }
        }
    }
    vcv
}

/// [`count_violations`] against every piece in its current slot.
fn violations(
    problem: &ChannelProblem,
    items: &[Item],
    slots: &[Slot],
    ending: &Ending,
    k: usize,
    slot: Slot,
) -> u32 {
    count_violations(problem, items, ending, k, slot, |o| Some(slots[o]))
}

/// Local search after the sweep: move single pieces to other slots where
/// they fit, while that lowers the number of vertical constraint violations.
pub fn improve(
    problem: &ChannelProblem,
    items: &[Item],
    slots: &mut [Slot],
    rows: i64,
    h_layers: &[u32],
) {
    use std::collections::BTreeMap;
    let ending = Ending::new(problem, items);
    let all: Vec<Slot> = (1..=rows)
        .rev()
        .flat_map(|y| h_layers.iter().map(move |&layer| Slot { y, layer }))
        .collect();
    let slot_index = |s: Slot| {
        all.iter()
            .position(|&a| a == s)
            .expect("a slot of the grid")
    };
    // Pieces of each slot by start column (pieces of one net may touch).
    let mut lanes: Vec<BTreeMap<(i64, usize), ()>> = vec![BTreeMap::new(); all.len()];
    for (k, it) in items.iter().enumerate() {
        lanes[slot_index(slots[k])].insert((it.lo, k), ());
    }
    let fits = |lanes: &Vec<BTreeMap<(i64, usize), ()>>, si: usize, k: usize| -> bool {
        let it = items[k];
        for (&(_, o), _) in lanes[si].range(..=(it.hi, usize::MAX)).rev() {
            let other = items[o];
            if other.hi < it.lo {
                break;
            }
            let touching = other.net == it.net && (other.hi == it.lo || other.lo == it.hi);
            if !touching {
                return false;
            }
        }
        true
    };
    for _ in 0..6 {
        let mut moved = false;
        for k in 0..items.len() {
            let here = violations(problem, items, slots, &ending, k, slots[k]);
            if here == 0 {
                continue;
            }
            let cur = slot_index(slots[k]);
            lanes[cur].remove(&(items[k].lo, k));
            let mut best = (here, cur);
            for (si, &s) in all.iter().enumerate() {
                if si == cur || !fits(&lanes, si, k) {
                    continue;
                }
                let v = violations(problem, items, slots, &ending, k, s);
                if v < best.0 {
                    best = (v, si);
                }
            }
            lanes[best.1].insert((items[k].lo, k), ());
            if best.1 != cur {
                slots[k] = all[best.1];
                moved = true;
                continue;
            }
            // Swap with a piece of another slot that overlaps this one.
            let it = items[k];
            let mut best_swap: Option<(i64, usize)> = None;
            for (si, lane) in lanes.iter().enumerate() {
                if si == cur {
                    continue;
                }
                for (&(_, o), _) in lane.range(..=(it.hi, usize::MAX)).rev() {
                    if items[o].hi < it.lo {
                        break;
                    }
                    if items[o].net == it.net {
                        continue;
                    }
                    let before = here as i64
                        + violations(problem, items, slots, &ending, o, slots[o]) as i64;
                    let (sk, so) = (slots[k], slots[o]);
                    slots[k] = so;
                    slots[o] = sk;
                    let after = violations(problem, items, slots, &ending, k, so) as i64
                        + violations(problem, items, slots, &ending, o, sk) as i64;
                    slots[k] = sk;
                    slots[o] = so;
                    if after < before && best_swap.is_none_or(|(d, _)| after - before < d) {
                        best_swap = Some((after - before, o));
                    }
                }
            }
            if let Some((_, o)) = best_swap {
                let (sk, so) = (slots[k], slots[o]);
                let (ck, co) = (cur, slot_index(so));
                lanes[ck].remove(&(items[k].lo, k));
                lanes[co].remove(&(items[o].lo, o));
                let ok = fits(&lanes, co, k) && fits(&lanes, ck, o);
                if ok {
                    slots[k] = so;
                    slots[o] = sk;
                    lanes[co].insert((items[k].lo, k), ());
                    lanes[ck].insert((items[o].lo, o), ());
                    moved = true;
                } else {
                    lanes[ck].insert((items[k].lo, k), ());
                    lanes[co].insert((items[o].lo, o), ());
                }
            }
        }
        if !moved {
            break;
        }
    }
}
