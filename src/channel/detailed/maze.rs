//! Lee-style shortest-path search on the routing grid (Dijkstra with small
//! integer costs), limited to a window of columns. Used to connect a pin to
//! its net's tree when the straight stub is blocked (YACR2's maze steps,
//! generalised to any path through free space on any layer).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::grid::{Cell, Grid};

/// Preferred wiring direction of a layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preferred {
    Horizontal,
    Vertical,
    Any,
}

/// Costs of one search.
#[derive(Clone, Copy, Debug)]
pub struct Costs {
    pub step: u32,
    /// Extra cost of a step against the layer's preferred direction.
    pub wrong_way: u32,
    pub via: u32,
}

impl Default for Costs {
    fn default() -> Self {
        Costs {
            step: 1,
            wrong_way: 4,
            via: 3,
        }
    }
}

/// What a search may use and where it may go.
pub struct Search<'a> {
    pub grid: &'a Grid,
    pub net: u32,
    pub preferred: &'a [Preferred],
    pub costs: Costs,
    /// Columns the path may use, inclusive.
    pub window: (i64, i64),
    /// Side columns the net may enter (`x = -1`, `x = C`).
    pub left_side: bool,
    pub right_side: bool,
    /// When set, the path may also take other nets' cells off the pin rows
    /// at this extra cost (the caller rips those nets up and reroutes them).
    pub steal: Option<u32>,
}

impl Search<'_> {
    /// The extra cost of entering a cell, or `None` when it cannot be used.
    fn price(&self, c: Cell) -> Option<u32> {
        if self.grid.is_free_for(c, self.net) {
            return Some(0);
        }
        // Pins and side exits are never taken.
        let boundary =
            c.y == 0 || c.y == self.grid.top_row() || c.x == -1 || c.x == self.grid.columns;
        match self.steal {
            Some(p) if !boundary => Some(p),
            _ => None,
        }
    }

    /// Cheapest path from any source to a cell where `is_target` holds,
    /// source first. Moves never run along a pin row or a side column.
    pub fn run(&self, sources: &[Cell], is_target: impl Fn(Cell) -> bool) -> Option<Vec<Cell>> {
        let g = self.grid;
        let (x0, x1) = (self.window.0.max(-1), self.window.1.min(g.columns));
        let cols = (x1 - x0 + 1) as usize;
        let rows = (g.width + 2) as usize;
        let n = cols * rows * g.layers as usize;
        let local = |c: Cell| -> usize {
            (((c.layer - 1) as usize * rows + c.y as usize) * cols) + (c.x - x0) as usize
        };
        let unlocal = |i: usize| -> Cell {
            let x = (i % cols) as i64 + x0;
            let rest = i / cols;
            let y = (rest % rows) as i64;
            let layer = (rest / rows) as u32 + 1;
            Cell::new(x, y, layer)
        };
        let mut dist = vec![u32::MAX; n];
        let mut parent = vec![usize::MAX; n];
        let mut heap = BinaryHeap::new();
        for &s in sources {
            if s.x < x0 || s.x > x1 || !g.contains(s) {
                continue;
            }
            let i = local(s);
            dist[i] = 0;
            heap.push(Reverse((0u32, i)));
        }
        let top = g.top_row();
        while let Some(Reverse((d, i))) = heap.pop() {
            if d > dist[i] {
                continue;
            }
            let c = unlocal(i);
            if d > 0 && is_target(c) {
                let mut path = vec![c];
                let mut j = i;
                while parent[j] != usize::MAX {
                    j = parent[j];
                    path.push(unlocal(j));
                }
                path.reverse();
                return Some(path);
            }
            let pref = self.preferred[(c.layer - 1) as usize];
            let on_pin_row = c.y == 0 || c.y == top;
            let on_side = c.x == -1 || c.x == g.columns;
            let mut try_move = |next: Cell, extra: u32| {
                if next.x < x0 || next.x > x1 || !g.contains(next) {
                    return;
                }
                let Some(toll) = self.price(next) else {
                    return;
                };
                let j = local(next);
                let nd = d + extra + toll;
                if nd < dist[j] {
                    dist[j] = nd;
                    parent[j] = i;
                    heap.push(Reverse((nd, j)));
                }
            };
            let h_cost = self.costs.step
                + if pref == Preferred::Vertical {
                    self.costs.wrong_way
                } else {
                    0
                };
            let v_cost = self.costs.step
                + if pref == Preferred::Horizontal {
                    self.costs.wrong_way
                } else {
                    0
                };
            if !on_pin_row {
                for dx in [-1, 1] {
                    let next = Cell::new(c.x + dx, c.y, c.layer);
                    let side_ok = match next.x {
                        -1 => self.left_side,
                        x if x == g.columns => self.right_side,
                        _ => true,
                    };
                    if side_ok {
                        try_move(next, h_cost);
                    }
                }
                if !on_side {
                    for dl in [-1i64, 1] {
                        let l = c.layer as i64 + dl;
                        if l >= 1 && l <= g.layers as i64 {
                            try_move(Cell::new(c.x, c.y, l as u32), self.costs.via);
                        }
                    }
                }
            }
            if !on_side {
                for dy in [-1, 1] {
                    let ny = c.y + dy;
                    // Into a pin row only onto the net's own pin (a target).
                    if (ny == 0 || ny == top) && !is_target(Cell::new(c.x, ny, c.layer)) {
                        continue;
                    }
                    if on_pin_row && (ny < 0 || ny > top) {
                        continue;
                    }
                    try_move(Cell::new(c.x, ny, c.layer), v_cost);
                }
            }
        }
        None
    }
}

/// Claim and join the cells of a path for a net; cells other nets own are
/// taken from them (released first). Returns the nets that lost cells.
pub fn commit(grid: &mut Grid, path: &[Cell], net: u32) -> Vec<u32> {
    let mut victims = Vec::new();
    for &c in path {
        let o = grid.owner(c);
        if o != 0 && o != net + 1 {
            victims.push(o - 1);
            grid.release(c);
        }
        let ok = grid.claim(c, net);
        debug_assert!(ok, "a committed path's cells are free");
    }
    victims.sort_unstable();
    victims.dedup();
    for pair in path.windows(2) {
        grid.connect(pair[0], pair[1]);
    }
    victims
}
