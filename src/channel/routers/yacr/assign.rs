//! Track assignment of whole nets (trunks) to slots `(row, H layer)`, after
//! YACR2's track assignment, as a sweep that never
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

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::channel::problem::{ChannelProblem, NetId};
use crate::graph::Digraph;

/// The bound (exclusive) of the random cost a jittered assignment on
/// stream `s` adds to each slot: 16, 32, 64 or 128 in turn, so the starts
/// shake the assignment at several scales (the distance from the ideal row
/// costs 4 a row, a violation 1,000,000).
fn jitter_bound(stream: u64) -> u64 {
    16 << (stream % 4)
}

/// Where a trunk runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Row `1 ..= W`.
    pub y: i64,
    /// A horizontal layer of the model (1-based).
    pub layer: u32,
}

/// Constraint depths of the nodes of a constraint graph: how many nodes
/// must lie above (`above`) and below (`below`) each along the longest
/// chains, edges inside strongly connected components ignored.
pub struct Depths {
    /// For each node, the most nodes on a chain that must lie above it.
    pub above: Vec<u32>,
    /// For each node, the most nodes on a chain that must lie below it.
    pub below: Vec<u32>,
}

/// Longest chains above and below each node of `vcg` (an edge `a -> b`
/// means `a` above `b`), cycles broken by dropping edges inside components.
pub fn depths(vcg: &Digraph) -> Depths {
    let n = vcg.node_count();
    let (comp, count) = vcg.component_numbers();
    // The nodes of each component; edges between components run from
    // higher numbers to lower ones.
    let mut start = vec![0usize; count + 1];
    for &c in &comp {
        start[c as usize + 1] += 1;
    }
    for c in 0..count {
        start[c + 1] += start[c];
    }
    let mut fill = start.clone();
    let mut nodes = vec![0u32; n];
    for (v, &c) in comp.iter().enumerate() {
        nodes[fill[c as usize]] = v as u32;
        fill[c as usize] += 1;
    }
    let members = |c: usize| &nodes[start[c]..start[c + 1]];
    // Above: from the sources down, each node's final before it passes on.
    let mut above = vec![0u32; n];
    for c in (0..count).rev() {
        for &v in members(c) {
            for &w in vcg.successors(v) {
                if comp[w as usize] != c as u32 {
                    above[w as usize] = above[w as usize].max(above[v as usize] + 1);
                }
            }
        }
    }
    // Below: from the sinks up.
    let mut below = vec![0u32; n];
    for c in 0..count {
        for &v in members(c) {
            for &w in vcg.successors(v) {
                if comp[w as usize] != c as u32 {
                    below[v as usize] = below[v as usize].max(below[w as usize] + 1);
                }
            }
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
    assign_with(
        problem,
        items,
        &PieceConstraints::new(problem, items),
        rows,
        h_layers,
        None,
    )
}

/// The vertical constraints among trunk pieces, which do not depend on the
/// width: their depths ([`depths`] of [`piece_graph`]) and, for each piece,
/// the pieces it must lie above or below.
pub struct PieceConstraints {
    /// Depths of every piece in the piece constraint graph.
    pub depths: Depths,
    /// Piece `k`'s constraints are `pairs[start[k]..start[k + 1]]`, each
    /// `(other piece, above)`: in its lower end column, then its upper.
    start: Vec<usize>,
    pairs: Vec<(u32, bool)>,
}

impl PieceConstraints {
    /// The constraints among `items`, the trunk pieces of `problem`.
    pub fn new(problem: &ChannelProblem, items: &[Item]) -> Self {
        PieceConstraints::meeting_at(problem, items, &Columns::meeting(problem, items))
    }

    /// [`PieceConstraints::new`] with the pieces meeting each pin column
    /// listed already ([`Columns::meeting`] of `items`).
    pub(super) fn meeting_at(problem: &ChannelProblem, items: &[Item], at: &Columns) -> Self {
        let depths = depths(&piece_graph_at(problem, items, at));
        let ending = Columns::ending(problem, items);
        let c = problem.columns() as i64;
        let mut start = Vec::with_capacity(items.len() + 1);
        let mut pairs = Vec::new();
        for it in items {
            start.push(pairs.len());
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
                pairs.extend(ending.of(other, x).map(|o| (o as u32, mine_top)));
            }
        }
        start.push(pairs.len());
        PieceConstraints {
            depths,
            start,
            pairs,
        }
    }

    /// The vertical constraints of piece `k` against the other pieces
    /// placed so far (`slot_of`), each given to `f` as `(row, above)`: in
    /// each end column that is a pin column, the top net's pieces must lie
    /// strictly above the bottom net's, so the piece must lie above
    /// (`above`) or below the placed piece's row.
    fn each(
        &self,
        k: usize,
        slot_of: impl Fn(usize) -> Option<Slot>,
        mut f: impl FnMut(i64, bool),
    ) {
        for &(o, above) in &self.pairs[self.start[k]..self.start[k + 1]] {
            if let Some(os) = slot_of(o as usize) {
                f(os.y, above);
            }
        }
    }

    /// The constraints of piece `k` against every other piece, whose rows
    /// are `ys`, collected into `out`.
    pub(super) fn gather_rows(&self, k: usize, ys: &[i32], out: &mut Vec<(i64, bool)>) {
        out.clear();
        out.extend(
            self.pairs[self.start[k]..self.start[k + 1]]
                .iter()
                .map(|&(o, above)| (ys[o as usize] as i64, above)),
        );
    }

    /// [`PieceConstraints::violations`] with the other pieces' rows `ys`.
    pub(super) fn violations_rows(&self, ys: &[i32], k: usize, y: i64) -> u32 {
        self.pairs[self.start[k]..self.start[k + 1]]
            .iter()
            .filter(|&&(o, above)| violates(y, ys[o as usize] as i64, above))
            .count() as u32
    }

    /// [`PieceConstraints::each`] of piece `k`, collected into `out`.
    fn gather(
        &self,
        k: usize,
        slot_of: impl Fn(usize) -> Option<Slot>,
        out: &mut Vec<(i64, bool)>,
    ) {
        out.clear();
        self.each(k, slot_of, |row, above| out.push((row, above)));
    }
}

/// [`assign`] with the pieces' constraints made already: they do not depend
/// on the width.
pub fn assign_with(
    problem: &ChannelProblem,
    items: &[Item],
    constraints: &PieceConstraints,
    rows: i64,
    h_layers: &[u32],
    jitter: Option<(u64, u64)>,
) -> Option<Vec<Slot>> {
    let depths = &constraints.depths;
    let slots: Vec<Slot> = (1..=rows)
        .rev()
        .flat_map(|y| h_layers.iter().map(move |&layer| Slot { y, layer }))
        .collect();
    // Occupied extent of each slot and the nets at its two ends: the sweeps
    // only ever extend it outwards.
    let mut left_end = vec![(i64::MAX, u32::MAX); slots.len()];
    let mut right_end = vec![(i64::MIN, u32::MAX); slots.len()];
    let mut placed: Vec<Option<Slot>> = vec![None; items.len()];
    let peaks = peaks(problem, items);
    // A jittered assignment starts at a peak drawn at random and adds a
    // random amount (under `jitter_bound`, a few to some 30 rows' worth of
    // the distance term) to every slot's cost: a different assignment of
    // the same kind.
    let mut rng = jitter.map(|(seed, stream)| {
        let mut r = ChaCha8Rng::seed_from_u64(seed);
        r.set_stream(stream);
        (r, jitter_bound(stream))
    });
    let cstar = match rng.as_mut() {
        Some((r, _)) if !peaks.is_empty() => peaks[r.gen_range(0..peaks.len())],
        _ => peaks.get(peaks.len() / 2).copied().unwrap_or(0),
    };
    let ideal = |k: usize| -> i64 {
        let (a, b) = (depths.above[k] as i64, depths.below[k] as i64);
        let t = if a + b == 0 {
            (rows + 1) / 2
        } else {
            (a * (rows - b) + b * (a + 1)) / (a + b)
        };
        (rows + 1 - t.clamp(1, rows)).clamp(1, rows)
    };
    let mut cons: Vec<(i64, bool)> = Vec::new();
    let mut place =
        |k: usize, placed: &[Option<Slot>], fits: &dyn Fn(usize) -> bool| -> Option<usize> {
            constraints.gather(k, |o| placed[o], &mut cons);
            let (a, b) = (depths.above[k] as i64, depths.below[k] as i64);
            let ideal_k = ideal(k);
            let mut best: Option<(u64, usize)> = None;
            for (si, slot) in slots.iter().enumerate() {
                if !fits(si) {
                    continue;
                }
                let vcv = violated(&cons, slot.y) as u64;
                let squeeze = (a - (rows - slot.y)).max(0) + (b - (slot.y - 1)).max(0);
                let cost = vcv * 1_000_000
                    + squeeze as u64 * 1_000
                    + (slot.y - ideal_k).unsigned_abs() * 4
                    + (slot.layer != h_layers[0]) as u64
                    + rng.as_mut().map_or(0, |(r, bound)| r.gen_range(0..*bound));
                if best.is_none_or(|(bc, _)| cost < bc) {
                    best = Some((cost, si));
                }
            }
            best.map(|(_, si)| si)
        };
    // 1. One piece per net crossing c*, top-down in topological order.
    let crossing = crossing(items, depths, cstar);
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
    // 2. Sweep right. (The keys end in the piece, so no two are equal: an
    // unstable sort of the keys gives the order a stable one would.)
    let mut right: Vec<(i64, std::cmp::Reverse<u32>, usize)> = (0..items.len())
        .filter(|&k| placed[k].is_none() && items[k].lo >= cstar)
        .map(|k| (items[k].lo, constrained(k), k))
        .collect();
    right.sort_unstable();
    for k in right.into_iter().map(|key| key.2) {
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
    let mut left: Vec<(std::cmp::Reverse<i64>, std::cmp::Reverse<u32>, usize)> = (0..items.len())
        .filter(|&k| placed[k].is_none())
        .map(|k| (std::cmp::Reverse(items[k].hi), constrained(k), k))
        .collect();
    left.sort_unstable();
    for k in left.into_iter().map(|key| key.2) {
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

/// The columns of maximum density over the pieces' nets (each net counted
/// over its span), left to right.
fn peaks(problem: &ChannelProblem, items: &[Item]) -> Vec<i64> {
    let c = problem.columns() as i64;
    // Each net's span over its pieces, by net index, then the number of
    // spans over each column (a difference array).
    let nets = items
        .iter()
        .map(|it| it.net as usize + 1)
        .max()
        .unwrap_or(0);
    let mut net_spans = vec![(i64::MAX, i64::MIN); nets];
    for it in items {
        let e = &mut net_spans[it.net as usize];
        e.0 = e.0.min(it.lo);
        e.1 = e.1.max(it.hi);
    }
    let mut change = vec![0i64; c as usize + 1];
    for &(lo, hi) in &net_spans {
        let (lo, hi) = (lo.max(0), hi.min(c - 1));
        if lo <= hi {
            change[lo as usize] += 1;
            change[hi as usize + 1] -= 1;
        }
    }
    let mut profile = vec![0u32; c as usize];
    let mut now = 0i64;
    for x in 0..c as usize {
        now += change[x];
        profile[x] = now as u32;
    }
    let dmax = profile.iter().copied().max().unwrap_or(0);
    (0..c).filter(|&x| profile[x as usize] == dmax).collect()
}

/// The first piece of each net that crosses column `cstar`, in the order
/// the sweep places them: fewest pieces above first, then most below.
fn crossing(items: &[Item], depths: &Depths, cstar: i64) -> Vec<usize> {
    let mut first_at_cstar: std::collections::HashMap<u32, usize> =
        std::collections::HashMap::new();
    for (k, it) in items.iter().enumerate() {
        if it.lo <= cstar && cstar <= it.hi {
            first_at_cstar.entry(it.net).or_insert(k);
        }
    }
    let mut crossing: Vec<usize> = first_at_cstar.values().copied().collect();
    crossing.sort_by_key(|&k| (depths.above[k], std::cmp::Reverse(depths.below[k]), k));
    crossing
}

/// The constraint graph of trunk pieces: in each column with a top pin of
/// one net and a bottom pin of another, every piece of the top net that
/// meets the column must lie above every such piece of the bottom net.
pub fn piece_graph(problem: &ChannelProblem, items: &[Item]) -> Digraph {
    piece_graph_at(problem, items, &Columns::meeting(problem, items))
}

/// [`piece_graph`] with the pieces meeting each pin column listed already.
fn piece_graph_at(problem: &ChannelProblem, items: &[Item], at: &Columns) -> Digraph {
    let c = problem.columns() as usize;
    let mut g = Digraph::new(items.len());
    for x in 0..c {
        if let (Some(t), Some(b)) = (problem.top()[x], problem.bottom()[x]) {
            if t == b {
                continue;
            }
            for a in at.of(t.0, x as i64) {
                for b in at.of(b.0, x as i64) {
                    g.add_edge(a as u32, b as u32);
                }
            }
        }
    }
    g.dedup();
    g
}

/// Pieces listed by column with their nets, in the order given: the
/// pieces ending in each column (at its `lo` or `hi`) for the violation
/// counts, or meeting each pin column of their net for the constraint graph.
/// Pieces end at their net's pin columns, so a column lists few.
pub(crate) struct Columns {
    start: Vec<usize>,
    entries: Vec<(u32, usize)>,
}

impl Columns {
    /// The entries `(column, net, piece)` that `each` pushes, columns
    /// `0 .. c`.
    fn new(c: usize, each: impl Fn(&mut dyn FnMut(usize, u32, usize))) -> Self {
        let mut start = vec![0usize; c + 1];
        each(&mut |x, _, _| start[x + 1] += 1);
        for x in 0..c {
            start[x + 1] += start[x];
        }
        let mut fill = start.clone();
        let mut entries = vec![(0u32, 0usize); start[c]];
        each(&mut |x, net, k| {
            entries[fill[x]] = (net, k);
            fill[x] += 1;
        });
        Columns { start, entries }
    }

    /// The pieces at the ends of `items` inside the channel.
    fn ending(problem: &ChannelProblem, items: &[Item]) -> Self {
        let c = problem.columns() as i64;
        Columns::new(c as usize, |push| {
            for (k, it) in items.iter().enumerate() {
                for x in [it.lo, it.hi] {
                    if (0..c).contains(&x) {
                        push(x as usize, it.net, k);
                    }
                }
            }
        })
    }

    /// The pieces meeting each pin column of their own net, by column, in
    /// item order.
    pub(crate) fn meeting(problem: &ChannelProblem, items: &[Item]) -> Self {
        Columns::new(problem.columns() as usize, |push| {
            for (k, it) in items.iter().enumerate() {
                for x in it.pin_columns(problem) {
                    push(x as usize, it.net, k);
                }
            }
        })
    }

    /// The pieces of `net` listed in column `x`, in order.
    pub(crate) fn of(&self, net: u32, x: i64) -> impl Iterator<Item = usize> + '_ {
        self.entries[self.start[x as usize]..self.start[x as usize + 1]]
            .iter()
            .filter(move |e| e.0 == net)
            .map(|e| e.1)
    }
}

/// Whether a piece in row `y` violates the constraint `(row, above)`.
fn violates(y: i64, row: i64, above: bool) -> bool {
    if above {
        y <= row
    } else {
        y >= row
    }
}

/// How many of the `constraints` a piece in row `y` violates.
pub(super) fn violated(constraints: &[(i64, bool)], y: i64) -> u32 {
    constraints
        .iter()
        .filter(|&&(row, above)| violates(y, row, above))
        .count() as u32
}

/// A trunk piece: a net's span cut at its pin columns (doglegs happen at
/// pin columns, where the net has a vertical anyway).
#[derive(Clone, Copy, Debug)]
pub struct Item {
    /// The net's id ([`NetId`] index).
    pub net: u32,
    /// First column of the piece (`-1` for a left side exit).
    pub lo: i64,
    /// Last column of the piece, inclusive (`C` for a right side exit).
    pub hi: i64,
}

impl Item {
    /// The columns of the net's pins inside the piece, ascending, each once
    /// (a column may hold a top and a bottom pin of the net).
    pub fn pin_columns<'a>(&self, problem: &'a ChannelProblem) -> impl Iterator<Item = i64> + 'a {
        let pins = &problem.net(NetId(self.net)).pins;
        let from = pins.partition_point(|p| (p.column as i64) < self.lo);
        let hi = self.hi;
        let mut last = None;
        pins[from..]
            .iter()
            .map(|pin| pin.column as i64)
            .take_while(move |&x| x <= hi)
            .filter(move |&x| last.replace(x) != Some(x))
    }
}

/// How [`items_of`] cuts a net's trunk into pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// At the net's pin columns (doglegs where the net has a vertical
    /// anyway).
    Doglegs,
    /// Not at all: one piece per net.
    WholeNets,
}

impl Cut {
    /// Doglegs when `doglegs`, else whole nets (for the tests' random
    /// draws).
    #[cfg(test)]
    pub fn doglegs_if(doglegs: bool) -> Self {
        if doglegs {
            Cut::Doglegs
        } else {
            Cut::WholeNets
        }
    }
}

/// The trunk pieces of every net that needs a track, nets in id order, cut
/// as `cut` says.
pub fn items_of(problem: &ChannelProblem, cut: Cut) -> Vec<Item> {
    let mut items = Vec::new();
    for id in problem.net_ids() {
        let net = problem.net(id);
        if !net.needs_track(problem.columns()) {
            continue;
        }
        let (lo, hi) = net.span(problem.columns());
        if cut == Cut::WholeNets {
            items.push(Item { net: id.0, lo, hi });
            continue;
        }
        for w in net.breakpoints(problem.columns()).windows(2) {
            items.push(Item {
                net: id.0,
                lo: w[0],
                hi: w[1],
            });
        }
    }
    items
}

#[cfg(test)]
#[path = "assign_tests.rs"]
mod tests;
