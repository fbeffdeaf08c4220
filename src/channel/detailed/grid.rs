//! The routing grid of the detailed router: static extent `(x, y, layer)`
//! with `x = -1 ..= C`, `y = 0 ..= W + 1`, layers `1 ..= L`, and the mutable
//! occupancy (which net owns a point, which unit edges and vias it uses).
//!
//! A net is stored as `id + 1` (0 = free). Edges are flags on their lower or
//! left end: `RIGHT` joins `(x, y)` to `(x + 1, y)`, `UP` joins `(x, y)` to
//! `(x, y + 1)`, `VIA` joins layer `l` to `l + 1` at one point.

use crate::channel::solution::{Via, Wire};
use crate::geom::Point;

pub const RIGHT: u8 = 1;
pub const UP: u8 = 2;
pub const VIA: u8 = 4;

/// A grid point on a layer (layer is 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub x: i64,
    pub y: i64,
    pub layer: u32,
}

impl Cell {
    pub const fn new(x: i64, y: i64, layer: u32) -> Self {
        Cell { x, y, layer }
    }
}

#[derive(Clone, Debug)]
pub struct Grid {
    pub columns: i64,
    pub width: i64,
    pub layers: u32,
    owner: Vec<u32>,
    edges: Vec<u8>,
    /// Cells claimed by each net, in claim order.
    cells_of: Vec<Vec<u32>>,
}

impl Grid {
    pub fn new(columns: u32, width: u32, layers: u32, nets: usize) -> Self {
        let n = (columns as usize + 2) * (width as usize + 2) * layers as usize;
        Grid {
            columns: columns as i64,
            width: width as i64,
            layers,
            owner: vec![0; n],
            edges: vec![0; n],
            cells_of: vec![Vec::new(); nets],
        }
    }

    /// The cell at a raster index.
    pub fn cell_at(&self, i: usize) -> Cell {
        let cols = (self.columns + 2) as usize;
        let rows = (self.width + 2) as usize;
        let x = (i % cols) as i64 - 1;
        let y = ((i / cols) % rows) as i64;
        let layer = (i / cols / rows) as u32 + 1;
        Cell::new(x, y, layer)
    }

    /// Connected components of a net's cells: cells joined by edges, and the
    /// layers of a pin point (a contact through all layers).
    pub fn components(&self, net: u32) -> Vec<Vec<Cell>> {
        let mine = &self.cells_of[net as usize];
        let mut seen: std::collections::HashSet<u32> = std::collections::HashSet::new();
        let mut out = Vec::new();
        let top = self.top_row();
        for &start in mine {
            if self.owner[start as usize] != net + 1 || !seen.insert(start) {
                continue;
            }
            let mut comp = Vec::new();
            let mut stack = vec![start];
            while let Some(i) = stack.pop() {
                let c = self.cell_at(i as usize);
                comp.push(c);
                let f = self.edges[i as usize];
                let mut next: Vec<Cell> = Vec::with_capacity(6);
                if f & RIGHT != 0 {
                    next.push(Cell::new(c.x + 1, c.y, c.layer));
                }
                if f & UP != 0 {
                    next.push(Cell::new(c.x, c.y + 1, c.layer));
                }
                if f & VIA != 0 {
                    next.push(Cell::new(c.x, c.y, c.layer + 1));
                }
                let left = Cell::new(c.x - 1, c.y, c.layer);
                if self.contains(left) && self.flags(left) & RIGHT != 0 {
                    next.push(left);
                }
                let down = Cell::new(c.x, c.y - 1, c.layer);
                if self.contains(down) && self.flags(down) & UP != 0 {
                    next.push(down);
                }
                if c.layer > 1 && self.flags(Cell::new(c.x, c.y, c.layer - 1)) & VIA != 0 {
                    next.push(Cell::new(c.x, c.y, c.layer - 1));
                }
                if c.y == 0 || c.y == top {
                    for l in 1..=self.layers {
                        if l != c.layer {
                            next.push(Cell::new(c.x, c.y, l));
                        }
                    }
                }
                for n in next {
                    let j = self.index(n) as u32;
                    if self.owner[j as usize] == net + 1 && seen.insert(j) {
                        stack.push(j);
                    }
                }
            }
            out.push(comp);
        }
        out
    }

    pub fn top_row(&self) -> i64 {
        self.width + 1
    }

    pub fn contains(&self, c: Cell) -> bool {
        (-1..=self.columns).contains(&c.x)
            && (0..=self.width + 1).contains(&c.y)
            && (1..=self.layers).contains(&c.layer)
    }

    pub fn index(&self, c: Cell) -> usize {
        (((c.layer - 1) as i64 * (self.width + 2) + c.y) * (self.columns + 2) + c.x + 1) as usize
    }

    /// The owner of a cell as `net index + 1`, 0 when free.
    pub fn owner(&self, c: Cell) -> u32 {
        self.owner[self.index(c)]
    }

    pub fn is_free_for(&self, c: Cell, net: u32) -> bool {
        let o = self.owner(c);
        o == 0 || o == net + 1
    }

    /// Claim a cell for a net; false when another net owns it.
    pub fn claim(&mut self, c: Cell, net: u32) -> bool {
        let i = self.index(c);
        match self.owner[i] {
            0 => {
                self.owner[i] = net + 1;
                self.cells_of[net as usize].push(i as u32);
                true
            }
            o => o == net + 1,
        }
    }

    /// Join two neighbouring cells (same point on adjacent layers, or
    /// adjacent points on one layer).
    pub fn connect(&mut self, a: Cell, b: Cell) {
        let (lo, flag) = if a.layer != b.layer {
            (if a.layer < b.layer { a } else { b }, VIA)
        } else if a.y == b.y {
            (if a.x < b.x { a } else { b }, RIGHT)
        } else {
            (if a.y < b.y { a } else { b }, UP)
        };
        let i = self.index(lo);
        self.edges[i] |= flag;
    }

    pub fn flags(&self, c: Cell) -> u8 {
        self.edges[self.index(c)]
    }

    /// Claim and join a straight run of cells from `a` to `b` on one layer.
    pub fn run(&mut self, a: Cell, b: Cell, net: u32) -> bool {
        debug_assert_eq!(a.layer, b.layer);
        let (dx, dy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
        let mut c = a;
        if !self.claim(c, net) {
            return false;
        }
        while c != b {
            let next = Cell::new(c.x + dx, c.y + dy, c.layer);
            if !self.claim(next, net) {
                return false;
            }
            self.connect(c, next);
            c = next;
        }
        true
    }

    /// Claim and join a via stack at a point between two layers.
    pub fn via(&mut self, x: i64, y: i64, from: u32, to: u32, net: u32) -> bool {
        let (lo, hi) = (from.min(to), from.max(to));
        for l in lo..=hi {
            if !self.claim(Cell::new(x, y, l), net) {
                return false;
            }
        }
        for l in lo..hi {
            self.connect(Cell::new(x, y, l), Cell::new(x, y, l + 1));
        }
        true
    }

    /// Free a cell and its edges to its neighbours.
    pub fn release(&mut self, c: Cell) {
        let i = self.index(c);
        self.owner[i] = 0;
        self.edges[i] = 0;
        for (n, flag) in [
            (Cell::new(c.x - 1, c.y, c.layer), RIGHT),
            (Cell::new(c.x, c.y - 1, c.layer), UP),
            (Cell::new(c.x, c.y, c.layer.wrapping_sub(1)), VIA),
        ] {
            if self.contains(n) {
                let j = self.index(n);
                self.edges[j] &= !flag;
            }
        }
    }

    /// The wires (maximal straight runs of joined cells) and via stacks of
    /// the whole grid; `label` maps a net index to its label.
    pub fn geometry(&self, label: impl Fn(u32) -> u32) -> (Vec<Wire>, Vec<Via>) {
        let mut wires = Vec::new();
        let mut vias = Vec::new();
        for layer in 1..=self.layers {
            for y in 0..=self.width + 1 {
                let mut x = -1;
                while x <= self.columns {
                    let c = Cell::new(x, y, layer);
                    if self.flags(c) & RIGHT != 0 {
                        let start = x;
                        while x <= self.columns && self.flags(Cell::new(x, y, layer)) & RIGHT != 0 {
                            x += 1;
                        }
                        let net = self.owner(c) - 1;
                        wires.push(Wire {
                            net: label(net),
                            layer,
                            from: Point::new(start, y),
                            to: Point::new(x, y),
                        });
                    }
                    x += 1;
                }
            }
            for x in -1..=self.columns {
                let mut y = 0;
                while y <= self.width + 1 {
                    let c = Cell::new(x, y, layer);
                    if self.flags(c) & UP != 0 {
                        let start = y;
                        while y <= self.width + 1 && self.flags(Cell::new(x, y, layer)) & UP != 0 {
                            y += 1;
                        }
                        let net = self.owner(c) - 1;
                        wires.push(Wire {
                            net: label(net),
                            layer,
                            from: Point::new(x, start),
                            to: Point::new(x, y),
                        });
                    }
                    y += 1;
                }
            }
        }
        for y in 0..=self.width + 1 {
            for x in -1..=self.columns {
                let mut layer = 1;
                while layer < self.layers {
                    let c = Cell::new(x, y, layer);
                    if self.flags(c) & VIA != 0 {
                        let start = layer;
                        while layer < self.layers && self.flags(Cell::new(x, y, layer)) & VIA != 0 {
                            layer += 1;
                        }
                        let net = self.owner(c) - 1;
                        vias.push(Via {
                            net: label(net),
                            at: Point::new(x, y),
                            from: start,
                            to: layer,
                        });
                    }
                    layer += 1;
                }
            }
        }
        (wires, vias)
    }
}
