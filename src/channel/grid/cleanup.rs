//! Clean-up after routing: drop vias that join nothing the net needs, prune
//! wire ends that lead nowhere (dead ends left by repairs and by the dropped
//! vias), and move pin stubs onto the layer of the wire they join when that
//! layer is free there, which saves their via (via minimisation by layer
//! reassignment). Each step keeps every net in one piece, so the routing stays
//! legal; vias and net length never go up.

use crate::channel::grid::{Cell, Grid, RIGHT, UP, VIA};
use crate::channel::layer_model::Directions;
use crate::channel::problem::ChannelProblem;

/// Remove redundant vias and dangling wire for every net; under
/// [`Directions::Preferred`] move pin stubs onto the layer they join first
/// ([`reassign_stubs`]: a vertical stub then lies on a horizontal layer,
/// which [`Directions::Reserved`] forbids).
pub fn tidy(problem: &ChannelProblem, g: &mut Grid, directions: Directions) {
    // On a large channel, when the pool has a second thread, half the nets
    // are cleaned up on a copy of the grid beside the others.
    let threads = if problem.nets().len() >= SPLIT_FROM && crate::parallel::threads() > 1 {
        Threads::Two
    } else {
        Threads::One
    };
    tidy_split(problem, g, threads, directions);
}

/// Channels with fewer nets are cleaned up on one thread.
const SPLIT_FROM: usize = 4096;

/// How many threads [`tidy_split`] cleans up on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Threads {
    /// This thread only.
    One,
    /// Half the nets on a copy of the grid, in parallel on the pool.
    Two,
}

/// [`tidy`] on one or two `threads`: the result is the same.
fn tidy_split(problem: &ChannelProblem, g: &mut Grid, threads: Threads, directions: Directions) {
    let split = threads == Threads::Two;
    if directions == Directions::Preferred {
        reassign_stubs(g);
    }
    // Clean-up claims no cell, so each net's cells now are all it will own.
    // When split, the copy for the second half is made meanwhile (both
    // only read the grid).
    let whole: &Grid = g;
    let ((start, cells), copy) = crate::parallel::join(
        split,
        || whole.cells_by_net(),
        || split.then(|| whole.copy_wiring()),
    );
    let cells_of = |net: u32| &cells[start[net as usize]..start[net as usize + 1]];
    // Each net's clean-up reads and writes its own cells only, so the order
    // of the nets changes nothing; left to right (by the left end of each
    // net's span), the cells of one net are near the last one's in memory.
    let mut nets: Vec<(i64, u32)> = problem
        .net_ids()
        .map(|id| (problem.net(id).span(problem.columns()).0, id.0))
        .collect();
    nets.sort_unstable();
    let Some(mut copy) = copy else {
        for &(_, net) in &nets {
            tidy_net(g, net, cells_of(net));
        }
        return;
    };
    // The right half of the nets on the copy, then their cells copied back
    // (nothing else changes: an edge joins two cells of one net).
    let (left, right) = nets.split_at(nets.len() / 2);
    crate::parallel::join(
        true,
        || {
            for &(_, net) in left {
                tidy_net(g, net, cells_of(net));
            }
        },
        || {
            for &(_, net) in right {
                tidy_net(&mut copy, net, cells_of(net));
            }
        },
    );
    for &(_, net) in right {
        g.take_cells(&copy, cells_of(net));
    }
}

/// Clean up one net whose cells are all among `mine` (ascending).
fn tidy_net(g: &mut Grid, net: u32, mine: &[u32]) {
    // Redundant vias: dropping one leaves the net in as many pieces, so it
    // lies on a cycle. Dropping one only turns other joints into bridges,
    // so one ascending pass with the cycles found afresh after each drop
    // drops what testing every via in turn would.
    let mut looped = g.looped_vias_among(net, mine);
    let mut k = 0;
    while k < looped.len() {
        let c = g.cell_at(looped[k]);
        g.clear_flag(c, VIA);
        let after = looped[k];
        looped = g.looped_vias_among(net, mine);
        k = looped.partition_point(|&i| i <= after);
    }
    // Dead ends: a wire cell with at most one joined neighbour that is no
    // pin and no side exit, repeatedly.
    loop {
        let dead = g.dead_ends_among(net, mine);
        if dead.is_empty() {
            break;
        }
        for i in dead {
            let c = g.cell_at(i);
            if g.owner(c) == net + 1 && degree(g, c) <= 1 {
                g.release(c);
            }
        }
    }
}

/// Move straight pin stubs onto the layer at their other end when that
/// layer is free along them: the stub's via disappears.
pub fn reassign_stubs(g: &mut Grid) {
    let top = g.top_row();
    for x in 0..g.extent.columns {
        for (pin_y, dir) in [(0i64, 1i64), (top, -1)] {
            let owner = g.owner(Cell::new(x, pin_y, 1));
            if owner == 0 {
                continue;
            }
            let net = owner - 1;
            for layer in 1..=g.extent.layers {
                // Follow the stub from the pin along this layer: its cells
                // are rows `pin_y + dir` to the `y` the walk stops at.
                let mut y = pin_y;
                loop {
                    let next = Cell::new(x, y + dir, layer);
                    if !g.contains(next)
                        || g.owner(next) != owner
                        || !joined_vertically(g, Cell::new(x, y, layer), next)
                    {
                        break;
                    }
                    y += dir;
                    // Stop at the first cell with anything but the vertical run.
                    if degree(g, next) != 2 {
                        break;
                    }
                }
                if y == pin_y {
                    continue;
                }
                let end = Cell::new(x, y, layer);
                // The rows of the run's cells, from the pin's end.
                let run = |to: i64| {
                    std::iter::successors(Some(pin_y + dir), move |&r| (r != to).then_some(r + dir))
                };
                // The end must be a via to an adjacent layer and nothing else
                // besides the run.
                for other in [layer.wrapping_sub(1), layer + 1] {
                    if other == 0 || other > g.extent.layers {
                        continue;
                    }
                    let lo = layer.min(other);
                    if g.flags(Cell::new(x, end.y, lo)) & VIA == 0 || degree(g, end) != 2 {
                        continue;
                    }
                    // The run but its end, free on the other layer.
                    let target_free = end.y == pin_y + dir
                        || run(end.y - dir).all(|r| g.owner(Cell::new(x, r, other)) == 0);
                    if !target_free {
                        continue;
                    }
                    // The run is a simple path from the pin to the via (its
                    // cells have no other joints), so the same path on the
                    // other layer joins what it joined: the net stays in as
                    // many pieces.
                    #[cfg(debug_assertions)]
                    let pieces = g.count_components(net);
                    g.trial(|g| {
                        for r in run(end.y) {
                            g.release(Cell::new(x, r, layer));
                        }
                        let from = Cell::new(x, pin_y, other);
                        let to = Cell::new(x, end.y, other);
                        g.run(from, to, net)
                    });
                    #[cfg(debug_assertions)]
                    debug_assert_eq!(g.count_components(net), pieces);
                    break;
                }
            }
        }
    }
}

fn joined_vertically(g: &Grid, a: Cell, b: Cell) -> bool {
    let lower = if a.y < b.y { a } else { b };
    g.flags(lower) & UP != 0
}

/// Number of joined neighbours of a cell.
fn degree(g: &Grid, c: Cell) -> u32 {
    let f = g.flags(c);
    let mut d = (f & RIGHT != 0) as u32 + (f & UP != 0) as u32 + (f & VIA != 0) as u32;
    let left = Cell::new(c.x - 1, c.y, c.layer);
    if g.contains(left) && g.flags(left) & RIGHT != 0 {
        d += 1;
    }
    let down = Cell::new(c.x, c.y - 1, c.layer);
    if g.contains(down) && g.flags(down) & UP != 0 {
        d += 1;
    }
    if c.layer > 1 && g.flags(Cell::new(c.x, c.y, c.layer - 1)) & VIA != 0 {
        d += 1;
    }
    d
}

#[cfg(test)]
#[path = "cleanup_tests.rs"]
mod tests;
