//! A conflict-free assignment drawn straight into a solution, without the
//! routing grid. Each pin column holds at most two verticals, the top pin's
//! net down to its lowest piece there and the bottom pin's net up to its
//! highest, which the assignment keeps apart. A trunk piece that no
//! vertical crosses between its ends lies on the vertical layer, where its
//! verticals meet it without a via; the others lie on the trunk layer. A
//! vertical goes on the vertical layer with a via at each of its net's
//! pieces on the trunk layer, or, when all its pieces are there and no
//! other net's trunk crosses the column along it, on the trunk layer itself
//! with no via at all.

use crate::channel::problem::{ChannelProblem, NetId};
use crate::channel::solution::{ChannelSolution, Via, Wire};
use crate::geom::Point;

use crate::channel::grid::finish::solution;
use crate::channel::layer_model::{Directions, LayerModel};
use crate::channel::routers::yacr::assign::{Columns, Item};

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

/// One pin's vertical: its net, its column, its rows and the pieces of its
/// net that end in the column.
struct Vertical {
    net: u32,
    x: usize,
    lo: i64,
    hi: i64,
    pieces: Vec<usize>,
}

/// The routing of `items` in rows `ys` (one per item, `1 ..= width`, no
/// two overlapping items in one row, every constraint kept) in `model`,
/// whose trunks all lie on one layer. Under [`Directions::Preferred`] a
/// trunk no vertical crosses lies on the vertical layer and a vertical no
/// trunk crosses on the trunk layer (no via either way); under
/// [`Directions::Reserved`] every trunk lies on the trunk layer and every
/// vertical on the vertical layer.
pub fn draw(
    problem: &ChannelProblem,
    model: LayerModel,
    directions: Directions,
    width: i64,
    items: &[Item],
    ys: &[i64],
) -> ChannelSolution {
    let mixed = directions == Directions::Preferred;
    let h = model.h_layers()[0];
    // The vertical layer next to the trunk layer (below it when both are).
    let v = if h > 1 { h - 1 } else { h + 1 };
    let c = problem.columns() as usize;
    let label = |net: u32| problem.label(NetId(net));
    let top_row = width + 1;
    // The pieces ending in each pin column of their net.
    let at = Columns::meeting(problem, items);
    // The verticals, and the rows they cover in each column.
    let mut verticals: Vec<Vertical> = Vec::new();
    let mut covered: Vec<Column> = vec![0; c];
    for (x, cover) in covered.iter_mut().enumerate() {
        let (top, bottom) = (problem.top()[x], problem.bottom()[x]);
        for (net, pin_y) in [(top, top_row), (bottom, 0)] {
            let Some(net) = net else { continue };
            let same = top == bottom;
            if same && pin_y == 0 {
                continue;
            }
            let pieces: Vec<usize> = at.of(net.0, x as i64).collect();
            let rows_of = pieces.iter().map(|&k| ys[k]);
            let (lo, hi) = if same {
                (0, top_row)
            } else if pin_y == 0 {
                (0, rows_of.max().unwrap_or(0))
            } else {
                (rows_of.min().unwrap_or(top_row), top_row)
            };
            *cover |= rows(lo, hi);
            verticals.push(Vertical {
                net: net.0,
                x,
                lo,
                hi,
                pieces,
            });
        }
    }
    // A piece no vertical crosses between its ends lies on the vertical
    // layer: its verticals there meet it without a via.
    let flat: Vec<bool> = items
        .iter()
        .enumerate()
        .map(|(k, it)| {
            let inside = (it.lo + 1).max(0) as usize..it.hi.min(c as i64) as usize;
            mixed && covered[inside].iter().all(|col| col & 1 << ys[k] == 0)
        })
        .collect();
    // Trunk rows crossing each column on the trunk layer.
    let mut crossing: Vec<Column> = vec![0; c];
    let mut wires: Vec<Wire> = Vec::new();
    let mut vias: Vec<Via> = Vec::new();
    for (k, it) in items.iter().enumerate() {
        let y = ys[k];
        let layer = if flat[k] { v } else { h };
        if !flat[k] {
            let (lo, hi) = (it.lo.max(0) as usize, it.hi.min(c as i64 - 1) as usize);
            for col in &mut crossing[lo..=hi] {
                *col |= 1 << y;
            }
        }
        // One wire for a run of the net's pieces in one row and layer.
        if k > 0 && items[k - 1].net == it.net && ys[k - 1] == y && flat[k - 1] == flat[k] {
            let w = wires.last_mut().expect("the run's wire");
            w.to.x = it.hi;
        } else {
            wires.push(Wire {
                net: label(it.net),
                layer,
                from: Point { x: it.lo, y },
                to: Point { x: it.hi, y },
            });
        }
    }
    // A vertical whose pieces all lie on the trunk layer goes there too when
    // no other trunk crosses its column along it: no via at all. Otherwise
    // it takes a via at each of its pieces on the trunk layer.
    for vt in &verticals {
        let own = vt
            .pieces
            .iter()
            .filter(|&&k| !flat[k])
            .fold(0, |m: Column, &k| m | 1 << ys[k]);
        let free = mixed
            && vt.pieces.iter().all(|&k| !flat[k])
            && crossing[vt.x] & !own & rows(vt.lo, vt.hi) == 0;
        let x = vt.x as i64;
        wires.push(Wire {
            net: label(vt.net),
            layer: if free { h } else { v },
            from: Point { x, y: vt.lo },
            to: Point { x, y: vt.hi },
        });
        if !free {
            vias.extend(vt.pieces.iter().filter(|&&k| !flat[k]).map(|&k| Via {
                net: label(vt.net),
                at: Point { x, y: ys[k] },
                from: h,
                to: v,
            }));
        }
    }
    solution(problem, model, model.layers(), width, wires, vias)
}
