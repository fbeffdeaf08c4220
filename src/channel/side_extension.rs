//! Floating side terminals reduced to a plain channel (thesis section
//! 7.1.2).
//!
//! **Floating side terminals** (the router picks the row of each side exit)
//! reduce to a plain channel: the side terminals move onto the bottom row
//! beyond the channel's ends, keeping their cyclic order around the
//! boundary, so any single-layer routing of the extended channel, cut back
//! to the original columns, routes the original. With `k` left terminals,
//! the extended channel has `2k` extra columns on the left; the left
//! terminals, in their marching order (top to bottom), take the bottom pins
//! of extended columns `1 ..= k`, leaving `k` empty columns before the first
//! original column (this project's choice: `x_min - 2k + 1 ..= x_min - k`). The right side
//! is the mirror image: its terminals, bottom to top, take bottom pins `k`
//! to `2k - 1` columns past the last original column.
//!
//! The side order is the one the crossing analysis fixes
//! ([`crate::channel::analysis::marching_order`]), which leaves only the
//! crossings no order avoids; a channel that is planar with it is planar
//! extended.

use super::analysis::marching_order;
use super::problem::{ChannelProblem, NetId, ValidateError};
use super::solution::{ChannelSolution, Via, Wire};
use crate::geom::Point;

/// A channel with floating side terminals moved onto the bottom row.
#[derive(Clone, Debug)]
pub struct Extension {
    /// The extended channel: no side terminals.
    pub problem: ChannelProblem,
    /// Extra columns on the left: original column `x` is extended column
    /// `x + shift`.
    pub shift: i64,
    /// Columns of the original channel.
    pub columns: u32,
}

/// Move the side terminals of `p` onto the bottom row of an extended
/// channel (section comment above). A problem without side terminals comes
/// back unchanged with `shift = 0`.
pub fn extend_floating_sides(p: &ChannelProblem) -> Result<Extension, ValidateError> {
    extend_floating_sides_with_gap(p, None)
}

/// As [`extend_floating_sides`], with `gap` empty columns between each
/// side's moved terminals and the channel instead of `k - 1` (tests use
/// wider gaps to check that the gap does not constrain the routing).
pub fn extend_floating_sides_with_gap(
    p: &ChannelProblem,
    gap: Option<usize>,
) -> Result<Extension, ValidateError> {
    let c = p.columns() as usize;
    let seq = marching_order(p);
    // The sides' nets in marching order: the right side follows the bottom
    // pins, the left side closes the sequence.
    let bottom_pins = p.bottom().iter().flatten().count();
    let top_pins = p.top().iter().flatten().count();
    let r = p.right().len();
    let right: Vec<NetId> = seq[bottom_pins..bottom_pins + r].to_vec();
    let left: Vec<NetId> = seq[bottom_pins + r + top_pins..].to_vec();
    let (kl, kr) = (left.len(), right.len());
    let gap_l = gap.unwrap_or(kl.saturating_sub(1));
    let gap_r = gap.unwrap_or(kr.saturating_sub(1));
    // Left: an empty column, the k terminals, the gap; right: the mirror.
    let shift = if kl == 0 { 0 } else { 1 + kl + gap_l };
    let pad_r = if kr == 0 { 0 } else { gap_r + kr + 1 };
    let total = shift + c + pad_r;
    let mut top = vec![0u32; total];
    let mut bottom = vec![0u32; total];
    for x in 0..c {
        top[x + shift] = p.top()[x].map_or(0, |id| p.label(id));
        bottom[x + shift] = p.bottom()[x].map_or(0, |id| p.label(id));
    }
    for (j, &id) in left.iter().enumerate() {
        bottom[1 + j] = p.label(id);
    }
    for (j, &id) in right.iter().enumerate() {
        bottom[shift + c + gap_r + j] = p.label(id);
    }
    let problem = ChannelProblem::from_rows(p.name(), &top, &bottom, &[], &[])?;
    Ok(Extension {
        problem,
        shift: shift as i64,
        columns: p.columns(),
    })
}

impl Extension {
    /// Cut a routing of the extended channel back to the original columns:
    /// shift x back, keep what lies in `-1 ..= C`, drop wires left standing
    /// on the side columns alone (the side exit is the run from the side
    /// column to the first or last column), then delete rows that no longer
    /// hold a horizontal wire, a via or a wire end.
    pub fn truncate(&self, s: &ChannelSolution) -> ChannelSolution {
        let (lo, hi) = (-1i64, self.columns as i64);
        let mut wires = Vec::new();
        for w in &s.wires {
            let (a, b) = (
                Point::new(w.from.x - self.shift, w.from.y),
                Point::new(w.to.x - self.shift, w.to.y),
            );
            let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
            if x1 < lo || x0 > hi {
                continue;
            }
            let (c0, c1) = (x0.max(lo), x1.min(hi));
            // Nothing may stay on a side column except the end of a run
            // that reaches into the channel.
            if c1 == c0 && (c0 == lo || c0 == hi) {
                continue;
            }
            let (p0, p1) = if a.x <= b.x { (a, b) } else { (b, a) };
            wires.push(Wire {
                net: w.net,
                layer: w.layer,
                from: Point::new(c0, p0.y),
                to: Point::new(c1, p1.y),
            });
        }
        let vias: Vec<Via> = s
            .vias
            .iter()
            .map(|v| Via {
                at: Point::new(v.at.x - self.shift, v.at.y),
                ..*v
            })
            .filter(|v| v.at.x > lo && v.at.x < hi)
            .collect();
        let mut out = ChannelSolution {
            name: s.name.clone(),
            layers: s.layers,
            width: s.width,
            columns: self.columns,
            groups: s.groups.clone(),
            wires,
            vias,
        };
        compact_rows(&mut out);
        out.canonicalize();
        out
    }
}

/// Delete the tracks that hold no horizontal wire, no via and no wire end:
/// only vertical wires pass through them, and they shrink by one.
pub fn compact_rows(s: &mut ChannelSolution) {
    let w = s.width as usize;
    let mut used = vec![false; w + 2];
    used[0] = true;
    used[w + 1] = true;
    for wire in &s.wires {
        for y in [wire.from.y, wire.to.y] {
            used[y as usize] = true;
        }
    }
    for v in &s.vias {
        used[v.at.y as usize] = true;
    }
    let mut map = vec![0i64; w + 2];
    let mut next = 0i64;
    for y in 0..w + 2 {
        map[y] = next;
        if used[y] {
            next += 1;
        }
    }
    let removed = (w + 2) as i64 - next;
    if removed == 0 {
        return;
    }
    for wire in &mut s.wires {
        wire.from.y = map[wire.from.y as usize];
        wire.to.y = map[wire.to.y as usize];
    }
    for v in &mut s.vias {
        v.at.y = map[v.at.y as usize];
    }
    s.width -= removed as u32;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_terminals_move_beyond_the_ends_in_marching_order() {
        // Net 1 leaves left, net 2 leaves right, net 3 runs through under
        // net 4's top connection.
        let p = ChannelProblem::from_rows("s", &[4, 0, 4], &[1, 0, 2], &[1, 3], &[2, 3]).unwrap();
        assert!(crate::channel::analysis::crossing_pairs(&p).is_empty());
        let e = extend_floating_sides(&p).unwrap();
        assert_eq!(e.shift, 4);
        assert_eq!(e.problem.columns(), 4 + 3 + 4);
        assert!(e.problem.left().is_empty() && e.problem.right().is_empty());
        // Left side, top to bottom: net 3 (feed-through) above net 1.
        assert_eq!(&e.problem.bottom_labels()[..4], &[0, 3, 1, 0]);
        // Right side, bottom to top: net 2 below net 3.
        assert_eq!(&e.problem.bottom_labels()[7..], &[0, 2, 3, 0]);
    }
}
