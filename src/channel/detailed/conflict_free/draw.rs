//! A conflict-free assignment drawn straight into a solution, without the
//! routing grid: each trunk piece is one wire on the trunk layer, and each
//! pin column holds at most two verticals, the top pin's net down to its
//! lowest piece there and the bottom pin's net up to its highest, which the
//! assignment keeps apart. A vertical goes on a vertical layer with a via
//! at each of its net's pieces, or, when no other net's trunk crosses the
//! column along it, on the trunk layer itself with no via at all.

use crate::channel::problem::{ChannelProblem, NetId};
use crate::channel::solution::{ChannelSolution, LayerGroup, Via, Wire};
use crate::geom::Point;

use super::super::{Item, LayerModel};

/// Rows as bits of a column, pin rows included: row `y` is bit `y`.
type Column = u128;

/// Rows `lo ..= hi` as bits.
fn rows(lo: i64, hi: i64) -> Column {
    let upto = if hi >= 127 {
        Column::MAX
    } else {
        (1 << (hi + 1)) - 1
    };
    upto & !((1 << lo) - 1)
}

/// The routing of `items` in rows `ys` (one per item, `1 ..= width`, no
/// two overlapping items in one row, every constraint kept) in `model`,
/// whose trunks all lie on one layer.
pub fn draw(
    problem: &ChannelProblem,
    model: LayerModel,
    width: i64,
    items: &[Item],
    ys: &[i64],
) -> ChannelSolution {
    let h = model.h_layers()[0];
    // The vertical layer next to the trunk layer (below it when both are).
    let v = if h > 1 { h - 1 } else { h + 1 };
    let c = problem.columns() as usize;
    let label = |net: u32| problem.label(NetId(net));
    // Trunk rows crossing each column, and each net's piece rows at each of
    // its pin columns (`ends`, sorted by column then net).
    let mut crossing: Vec<Column> = vec![0; c];
    let mut ends: Vec<(usize, u32, i64)> = Vec::new();
    let mut wires: Vec<Wire> = Vec::new();
    let mut vias: Vec<Via> = Vec::new();
    for (k, it) in items.iter().enumerate() {
        let y = ys[k];
        let (lo, hi) = (it.lo.max(0) as usize, it.hi.min(c as i64 - 1) as usize);
        for col in &mut crossing[lo..=hi] {
            *col |= 1 << y;
        }
        ends.extend(it.pin_columns(problem).map(|x| (x as usize, it.net, y)));
        // One wire for a run of the net's pieces in one row.
        if k > 0 && items[k - 1].net == it.net && ys[k - 1] == y {
            let w = wires.last_mut().expect("the run's wire");
            w.to.x = it.hi;
        } else {
            wires.push(Wire {
                net: label(it.net),
                layer: h,
                from: Point { x: it.lo, y },
                to: Point { x: it.hi, y },
            });
        }
    }
    ends.sort_unstable();
    let top_row = width + 1;
    let mut at = 0;
    for (x, &across) in crossing.iter().enumerate() {
        let from = at;
        while at < ends.len() && ends[at].0 == x {
            at += 1;
        }
        let here = &ends[from..at];
        let (top, bottom) = (problem.top()[x], problem.bottom()[x]);
        for (net, pin_y) in [(top, top_row), (bottom, 0)] {
            let Some(net) = net else { continue };
            let same = top == bottom;
            if same && pin_y == 0 {
                continue;
            }
            let mine: Vec<i64> = here.iter().filter(|e| e.1 == net.0).map(|e| e.2).collect();
            let own = mine.iter().fold(0, |m: Column, &y| m | 1 << y);
            let (lo, hi) = if same {
                (0, top_row)
            } else if pin_y == 0 {
                (0, mine.iter().copied().max().unwrap_or(0))
            } else {
                (mine.iter().copied().min().unwrap_or(top_row), top_row)
            };
            let free = across & !own & rows(lo, hi) == 0;
            let layer = if free { h } else { v };
            wires.push(Wire {
                net: label(net.0),
                layer,
                from: Point { x: x as i64, y: lo },
                to: Point { x: x as i64, y: hi },
            });
            if !free {
                vias.extend(mine.iter().map(|&y| Via {
                    net: label(net.0),
                    at: Point { x: x as i64, y },
                    from: h,
                    to: v,
                }));
            }
        }
    }
    let mut s = ChannelSolution {
        name: problem.name().to_string(),
        layers: model.layers(),
        width: width as u32,
        columns: problem.columns(),
        groups: vec![LayerGroup {
            kind: model.name().to_string(),
            layers: (1..=model.layers()).collect(),
        }],
        wires,
        vias,
    };
    s.canonicalize();
    s
}
