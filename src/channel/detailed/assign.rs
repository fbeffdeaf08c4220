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

use crate::channel::problem::{ChannelProblem, NetId, Side};
use crate::graph::Digraph;

/// Where a trunk runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Row `1 ..= W`.
    pub y: i64,
    pub layer: u32,
}

/// The per-net constraint depths: how many nets must lie above (`above`) and
/// below (`below`) it along the longest VCG chains, cycles ignored.
pub struct Depths {
    pub above: Vec<u32>,
    pub below: Vec<u32>,
}

/// Longest chains above and below each net in the VCG without the edges
/// inside strongly connected components.
pub fn depths(problem: &ChannelProblem, vcg: &Digraph) -> Depths {
    let n = problem.nets().len();
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

/// Assign a slot to every net with a span (`spans[n]`, sides at -1 and C).
/// `rows` is `W`; `h_layers` are the layers that carry trunks.
pub fn assign(
    problem: &ChannelProblem,
    spans: &[Option<(i64, i64)>],
    rows: i64,
    h_layers: &[u32],
    depths: &Depths,
) -> Vec<Option<Slot>> {
    let n = problem.nets().len();
    let slots: Vec<Slot> = (1..=rows)
        .rev()
        .flat_map(|y| h_layers.iter().map(move |&layer| Slot { y, layer }))
        .collect();
    // Occupied extent of each slot: [left_end, right_end] spans the nets
    // placed so far (the sweeps only ever extend it outwards).
    let mut left_end = vec![i64::MAX; slots.len()];
    let mut right_end = vec![i64::MIN; slots.len()];
    let mut placed: Vec<Option<Slot>> = vec![None; n];
    let c = problem.columns() as i64;
    // A column of maximum density (the middle one of them).
    let mut profile = vec![0u32; c as usize];
    for s in spans.iter().flatten() {
        for x in s.0.max(0)..=s.1.min(c - 1) {
            profile[x as usize] += 1;
        }
    }
    let dmax = profile.iter().copied().max().unwrap_or(0);
    let peaks: Vec<i64> = (0..c).filter(|&x| profile[x as usize] == dmax).collect();
    let cstar = peaks[peaks.len() / 2];
    let ideal = |id: usize| -> i64 {
        let (a, b) = (depths.above[id] as i64, depths.below[id] as i64);
        let t = if a + b == 0 {
            (rows + 1) / 2
        } else {
            (a * (rows - b) + b * (a + 1)) / (a + b)
        };
        (rows + 1 - t.clamp(1, rows)).clamp(1, rows)
    };
    let place = |id: usize, placed: &[Option<Slot>], fits: &dyn Fn(usize) -> bool| {
        let net = problem.net(NetId(id as u32));
        let mut best: Option<(u64, usize)> = None;
        for (k, slot) in slots.iter().enumerate() {
            if !fits(k) {
                continue;
            }
            let mut vcv = 0u64;
            for pin in &net.pins {
                let col = pin.column as usize;
                let other = match pin.side {
                    Side::Top => problem.bottom()[col],
                    Side::Bottom => problem.top()[col],
                };
                let Some(other) = other.filter(|o| o.index() != id) else {
                    continue;
                };
                if let Some(os) = placed[other.index()] {
                    let bad = match pin.side {
                        Side::Top => slot.y <= os.y,
                        Side::Bottom => slot.y >= os.y,
                    };
                    vcv += bad as u64;
                }
            }
            let (a, b) = (depths.above[id] as i64, depths.below[id] as i64);
            let squeeze = (a - (rows - slot.y)).max(0) + (b - (slot.y - 1)).max(0);
            let cost = vcv * 1_000_000
                + squeeze as u64 * 1_000
                + (slot.y - ideal(id)).unsigned_abs() * 4
                + (slot.layer != h_layers[0]) as u64;
            if best.is_none_or(|(bc, _)| cost < bc) {
                best = Some((cost, k));
            }
        }
        best.map(|(_, k)| k)
    };
    let span = |id: usize| spans[id].expect("only nets with spans are placed");
    // 1. Nets crossing c*, top-down in topological order.
    let mut crossing: Vec<usize> = (0..n)
        .filter(|&id| spans[id].is_some_and(|(lo, hi)| lo <= cstar && cstar <= hi))
        .collect();
    crossing.sort_by_key(|&id| (depths.above[id], std::cmp::Reverse(depths.below[id]), id));
    for id in crossing {
        let (lo, hi) = span(id);
        let k = place(id, &placed, &|k| right_end[k] < lo && left_end[k] > hi)
            .expect("a column has at most W nets");
        placed[id] = Some(slots[k]);
        left_end[k] = lo;
        right_end[k] = hi;
    }
    let constrained = |id: usize| std::cmp::Reverse(depths.above[id] + depths.below[id]);
    // 2. Sweep right: nets starting right of c*.
    let mut right: Vec<usize> = (0..n)
        .filter(|&id| spans[id].is_some_and(|(lo, _)| lo > cstar))
        .collect();
    right.sort_by_key(|&id| (span(id).0, constrained(id), id));
    for id in right {
        let (lo, hi) = span(id);
        let k = place(id, &placed, &|k| right_end[k] < lo).expect("at most W nets cross a column");
        placed[id] = Some(slots[k]);
        right_end[k] = hi;
        left_end[k] = left_end[k].min(lo);
    }
    // 3. Sweep left: nets ending left of c*.
    let mut left: Vec<usize> = (0..n)
        .filter(|&id| spans[id].is_some_and(|(_, hi)| hi < cstar))
        .collect();
    left.sort_by_key(|&id| (std::cmp::Reverse(span(id).1), constrained(id), id));
    for id in left {
        let (lo, hi) = span(id);
        let k = place(id, &placed, &|k| left_end[k] > hi).expect("at most W nets cross a column");
        placed[id] = Some(slots[k]);
        left_end[k] = lo;
        right_end[k] = right_end[k].max(hi);
    }
    placed
}
