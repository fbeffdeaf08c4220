//! Clean-up after routing: drop vias that join nothing the net needs, then
//! prune wire ends that lead nowhere (dead ends left by repairs and by the
//! dropped vias). Each step keeps every net connected, so the routing stays
//! legal; vias and net length can only go down.

use super::grid::{Cell, Grid, RIGHT, UP, VIA};
use crate::channel::problem::ChannelProblem;

/// Remove redundant vias and dangling wire for every net.
pub fn tidy(problem: &ChannelProblem, g: &mut Grid) {
    for id in problem.net_ids() {
        let net = id.0;
        let pieces = g.label_components(net).len();
        // Redundant vias: dropping one leaves the net in as many pieces.
        let vias: Vec<Cell> = g
            .cells_of(net)
            .into_iter()
            .filter(|&c| g.owner(c) == net + 1 && g.flags(c) & VIA != 0)
            .collect();
        for c in vias {
            g.clear_flag(c, VIA);
            if g.label_components(net).len() > pieces {
                g.set_flag(c, VIA);
            }
        }
        // Dead ends: a wire cell with at most one joined neighbour that is
        // no pin and no side exit, repeatedly.
        loop {
            let dead: Vec<Cell> = g
                .cells_of(net)
                .into_iter()
                .filter(|&c| {
                    g.owner(c) == net + 1
                        && c.y > 0
                        && c.y <= g.width
                        && c.x >= 0
                        && c.x < g.columns
                        && degree(g, c) <= 1
                })
                .collect();
            if dead.is_empty() {
                break;
            }
            for c in dead {
                if g.owner(c) == net + 1 && degree(g, c) <= 1 {
                    g.release(c);
                }
            }
        }
    }
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
