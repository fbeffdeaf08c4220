//! Minimum separation of a single-layer channel (thesis section 7.1,
//! CHANNEL-SEPARATION of Fig. 7-5). Lines 10 and 17 of the figure print as
//! `dx >= 1 >= flow - 1`; they are read as `dx >= max(1, flow - 1)`, the
//! condition of Corollary 28 below.
//!
//! Terminals lie on two parallel lines (bottom and top); every terminal of a
//! net must be joined in one layer. With the lines `w` apart, a cut `[b, t]`
//! from a bottom terminal to a top terminal is crossed by `flow` nets: those
//! with a terminal at an end of the cut or with terminals on both sides of it.
//! The channel is routable iff every cut is safe, `flow <= max(|dx|, w) + 1`
//! (Lemma 27), so the minimum separation is `max(flow - 1)` over the *dense*
//! cuts (`dx = 0` or `|dx| < flow - 1`, Corollary 28).
//!
//! Multi-terminal nets are handled per net: a net counts once in a
//! cut. [`separation`] is linear in the number of terminal positions and needs
//! a planar channel; [`separation_brute_force`] checks every cut and is the
//! test oracle. Chapter 6's width is `separation + 1`, or 0 when every net
//! lies in a single column.

use super::problem::{ChannelProblem, Side};

/// The terminals of a single-layer channel at its used x positions. Every
/// used position has a top and a bottom terminal; a missing one is a dummy
/// (`None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Terminals {
    /// Used x positions, increasing.
    pub x: Vec<i64>,
    /// The net (id) of the top terminal at each position of `x`.
    pub top: Vec<Option<u32>>,
    /// The net (id) of the bottom terminal at each position of `x`.
    pub bottom: Vec<Option<u32>>,
}

impl Terminals {
    /// The top and bottom pins of a problem (side terminals are not part of
    /// this model: a switchbox reduction handles them).
    pub fn of_problem(p: &ChannelProblem) -> Terminals {
        let mut x = Vec::new();
        let mut top = Vec::new();
        let mut bottom = Vec::new();
        for c in 0..p.columns() as usize {
            let (t, b) = (p.top()[c], p.bottom()[c]);
            if t.is_some() || b.is_some() {
                x.push(c as i64);
                top.push(t.map(|id| id.0));
                bottom.push(b.map(|id| id.0));
            }
        }
        Terminals { x, top, bottom }
    }

    fn len(&self) -> usize {
        self.x.len()
    }
}

/// Per net, the extreme positions (indices) of its terminals on each side.
struct Extent {
    min: [usize; 2],
    max: [usize; 2],
}

const BOTTOM: usize = 0;
const TOP: usize = 1;

/// Extents indexed by net id (ids are dense enough to index a vector).
fn extents(t: &Terminals) -> Vec<Extent> {
    let top_id = t
        .top
        .iter()
        .chain(&t.bottom)
        .flatten()
        .copied()
        .max()
        .unwrap_or(0) as usize;
    let mut e: Vec<Extent> = (0..=top_id)
        .map(|_| Extent {
            min: [usize::MAX; 2],
            max: [0; 2],
        })
        .collect();
    for i in 0..t.len() {
        for (side, net) in [(BOTTOM, t.bottom[i]), (TOP, t.top[i])] {
            if let Some(n) = net {
                let ext = &mut e[n as usize];
                ext.min[side] = ext.min[side].min(i);
                ext.max[side] = ext.max[side].max(i);
            }
        }
    }
    e
}

/// Flow of the cut from bottom position `i` to top position `j`, counted
/// directly: O(terminals).
pub fn flow(t: &Terminals, i: usize, j: usize) -> u32 {
    let mut nets: std::collections::HashMap<u32, (bool, bool, bool)> =
        std::collections::HashMap::new(); // (at end, left, right)
    for k in 0..t.len() {
        for (side, net, end) in [(BOTTOM, t.bottom[k], i), (TOP, t.top[k], j)] {
            let Some(n) = net else { continue };
            let e = nets.entry(n).or_insert((false, false, false));
            let _ = side;
            if k == end {
                e.0 = true;
            } else if k < end {
                e.1 = true;
            } else {
                e.2 = true;
            }
        }
    }
    nets.values().filter(|&&(at, l, r)| at || (l && r)).count() as u32
}

/// Flow of the cut from bottom `i` to top `j` from the per-net extents:
/// a net crosses when it has a terminal at an end, or terminals on both
/// sides (left: bottom before `i` or top before `j`; right: after).
fn flow_with(ext: &[Extent], t: &Terminals, i: usize, j: usize) -> u32 {
    let at_end = |n: u32| t.bottom[i] == Some(n) || t.top[j] == Some(n);
    ext.iter()
        .enumerate()
        .filter(|(_, e)| e.min[BOTTOM] != usize::MAX || e.min[TOP] != usize::MAX)
        .filter(|&(n, e)| {
            let left = (e.min[BOTTOM] != usize::MAX && e.min[BOTTOM] < i)
                || (e.min[TOP] != usize::MAX && e.min[TOP] < j);
            let right = (e.min[BOTTOM] != usize::MAX && e.max[BOTTOM] > i)
                || (e.min[TOP] != usize::MAX && e.max[TOP] > j);
            at_end(n as u32) || (left && right)
        })
        .count() as u32
}

/// Minimum separation by checking every cut: O(N^3) with direct flows.
/// `None` when there are no terminals.
pub fn separation_brute_force(t: &Terminals) -> Option<i64> {
    if t.len() == 0 {
        return None;
    }
    let mut sep = -1i64;
    for i in 0..t.len() {
        for j in 0..t.len() {
            let f = flow(t, i, j) as i64;
            let dx = (t.x[j] - t.x[i]).abs();
            if dx == 0 || dx < f - 1 {
                sep = sep.max(f - 1);
            }
        }
    }
    Some(sep)
}

/// Minimum separation from the critical cuts only (Lemma 27): cuts between
/// two real terminals, and the straight cuts. O(N^2), flows kept up to date
/// along each bottom terminal's fan with `flowdiff`.
pub fn separation_critical_cuts(t: &Terminals) -> Option<i64> {
    if t.len() == 0 {
        return None;
    }
    let ext = extents(t);
    let mut sep = -1i64;
    for i in 0..t.len() {
        let mut f = flow_with(&ext, t, i, 0) as i64;
        for j in 0..t.len() {
            if j > 0 {
                f += flowdiff(t, &ext, BOTTOM, i, j, j - 1);
            }
            let real = t.bottom[i].is_some() && t.top[j].is_some();
            let dx = (t.x[j] - t.x[i]).abs();
            if (real || i == j) && (dx == 0 || dx < f - 1) {
                sep = sep.max(f - 1);
            }
        }
    }
    Some(sep)
}

/// `flow([p, q]) - flow([p, r])` where `q` is the position just right of
/// `r` on the side opposite `p`. `p_side` is p's side.
fn flowdiff(t: &Terminals, ext: &[Extent], p_side: usize, p: usize, q: usize, r: usize) -> i64 {
    let other = 1 - p_side;
    let net_at = |side: usize, k: usize| if side == TOP { t.top[k] } else { t.bottom[k] };
    let (nq, nr) = (net_at(other, q), net_at(other, r));
    if nq.is_some() && nq == nr {
        return 0;
    }
    // A: every other terminal of net(q) lies strictly right of [p, r].
    let a = nq.is_some_and(|n| {
        let e = &ext[n as usize];
        e.min[other] == q && (e.min[p_side] == usize::MAX || e.min[p_side] > p)
    });
    // B: every other terminal of net(r) lies strictly left of [p, q].
    let b = nr.is_some_and(|n| {
        let e = &ext[n as usize];
        e.max[other] == r && (e.min[p_side] == usize::MAX || e.max[p_side] < p)
    });
    a as i64 - b as i64
}

/// A cut that decides the separation: from the bottom terminal at
/// `bottom_x` to the top terminal at `top_x`, crossed by `flow` nets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CriticalCut {
    /// Column of the cut's bottom end.
    pub bottom_x: i64,
    /// Column of the cut's top end.
    pub top_x: i64,
    /// Nets that must cross the cut; the separation is `flow - 1`.
    pub flow: u32,
}

/// Minimum separation in time linear in the number of positions
/// (CHANNEL-SEPARATION). The channel must be planar (no two nets cross);
/// on crossing input the result can be too small. `None` without terminals.
pub fn separation(t: &Terminals) -> Option<i64> {
    separation_with_cut(t).map(|(s, _)| s)
}

/// The separation and a dense cut with `flow - 1` equal to it, still in
/// linear time (the deciding bottom terminal is remembered, and its cuts
/// are scanned once more).
pub fn separation_with_cut(t: &Terminals) -> Option<(i64, CriticalCut)> {
    let (sep, apex) = separation_core(t)?;
    let ext = extents(t);
    let mut f = flow_with(&ext, t, apex, 0) as i64;
    for j in 0..t.len() {
        if j > 0 {
            f += flowdiff(t, &ext, BOTTOM, apex, j, j - 1);
        }
        let dx = (t.x[j] - t.x[apex]).abs();
        if (dx == 0 || dx < f - 1) && f - 1 == sep {
            let cut = CriticalCut {
                bottom_x: t.x[apex],
                top_x: t.x[j],
                flow: f as u32,
            };
            return Some((sep, cut));
        }
    }
    unreachable!("the apex that set the separation has a dense cut with that flow")
}

fn separation_core(t: &Terminals) -> Option<(i64, usize)> {
    let last = t.len();
    if last == 0 {
        return None;
    }
    let ext = extents(t);
    let x = &t.x;
    let mut flow_to = vec![0i64; last];
    flow_to[0] = flow_with(&ext, t, 0, 0) as i64;
    let mut offset = 0i64;
    let (mut apex, mut left, mut right) = (0usize, 0usize, 0usize);
    let mut max_flow = flow_to[0];
    // Tallies of the flows in the window [left, right], by value. Adjacent
    // cuts' flows differ by a flowdiff in {-1, 0, 1}, so the window's values
    // are contiguous: when the largest value's tally empties, the largest is
    // one less (thesis 7.1.1). Every stored value lies within `bound` of 0.
    let bound = flow_to[0] + last as i64 + 1;
    let mut tally = vec![0u32; (2 * bound + 1) as usize];
    let slot = |f: i64| (f + bound) as usize;
    let mut window = 1usize;
    tally[slot(flow_to[0])] += 1;
    let mut sep = -1i64;
    let mut sep_apex = 0usize;
    while apex < last {
        while right + 1 < last {
            let f = flow_to[right] + flowdiff(t, &ext, BOTTOM, apex, right + 1, right);
            flow_to[right + 1] = f;
            let dx = x[right + 1] - x[apex];
            if dx >= 1 && dx >= f + offset - 1 {
                break; // the next cut is sparse and points right
            }
            right += 1;
            tally[slot(f)] += 1;
            window += 1;
            max_flow = if window == 1 { f } else { max_flow.max(f) };
        }
        loop {
            let dx = x[apex] - x[left];
            if !(dx >= 1 && dx >= flow_to[left] + offset - 1) {
                break; // the cut to `left` is dense (or points right)
            }
            let f = flow_to[left];
            tally[slot(f)] -= 1;
            window -= 1;
            if window == 0 {
                max_flow = i64::MIN / 4;
            } else if f == max_flow && tally[slot(f)] == 0 {
                max_flow -= 1;
            }
            left += 1;
        }
        if max_flow + offset - 1 > sep {
            sep = max_flow + offset - 1;
            sep_apex = apex;
        }
        apex += 1;
        if apex < last {
            offset += flowdiff(t, &ext, TOP, right, apex, apex - 1);
        }
    }
    Some((sep, sep_apex))
}

/// Chapter 6 width of a planar single-layer channel: `separation + 1`, or 0
/// when every net lies in a single column.
///
/// Floating side terminals are taken through the switchbox reduction
/// ([`super::side_extension::extend_floating_sides`]).
pub fn single_layer_width(p: &ChannelProblem) -> Option<u32> {
    if !p.left().is_empty() || !p.right().is_empty() {
        let ext = super::side_extension::extend_floating_sides(p).ok()?;
        return single_layer_width(&ext.problem);
    }
    let single_columns = p
        .nets()
        .iter()
        .all(|n| n.pin_columns().len() == 1 && !n.left && !n.right);
    if single_columns {
        return Some(0);
    }
    let t = Terminals::of_problem(p);
    separation(&t).map(|s| (s + 1).max(0) as u32)
}

/// Which side a pin is on, as the separation model numbers it.
pub fn side_index(side: Side) -> usize {
    match side {
        Side::Bottom => BOTTOM,
        Side::Top => TOP,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terminals(top: &[u32], bottom: &[u32]) -> Terminals {
        let p = ChannelProblem::from_rows("t", top, bottom, &[], &[]).unwrap();
        Terminals::of_problem(&p)
    }

    #[test]
    fn staircase_vector_has_separation_three() {
        // Worked example: top{1:A,2:A,3:B,4:C}, bot{2:B,3:C,4:D,6:D}; A..D = 1..4,
        // columns 1..6 -> 0..5.
        let t = terminals(&[1, 1, 2, 3, 0, 0], &[0, 2, 3, 4, 0, 4]);
        assert_eq!(separation_brute_force(&t), Some(3));
        assert_eq!(separation(&t), Some(3));
    }

    #[test]
    fn straight_channel_has_separation_zero_and_width_zero() {
        let t = terminals(&[1, 2, 3], &[1, 2, 3]);
        assert_eq!(separation_brute_force(&t), Some(0));
        assert_eq!(separation(&t), Some(0));
        let p = ChannelProblem::from_rows("t", &[1, 2, 3], &[1, 2, 3], &[], &[]).unwrap();
        assert_eq!(single_layer_width(&p), Some(0));
    }
}
