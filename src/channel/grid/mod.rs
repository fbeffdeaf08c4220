//! The routing grid of the detailed router: static extent `(x, y, layer)`
//! with `x = -1 ..= C`, `y = 0 ..= W + 1`, layers `1 ..= L`, and the mutable
//! occupancy (which net owns a point, which unit edges and vias it uses).
//!
//! A net is stored as `id + 1` (0 = free). Edges are flags on their lower or
//! left end: `RIGHT` joins `(x, y)` to `(x + 1, y)`, `UP` joins `(x, y)` to
//! `(x, y + 1)`, `VIA` joins layer `l` to `l + 1` at one point.

#![warn(missing_docs)]

use crate::channel::solution::{Via, Wire};
use crate::geom::Point;
use crate::graph::UnionFind;

pub mod cleanup;
mod components;
mod extent;
pub mod finish;
mod geometry;
mod journal;
mod marks;
mod point;

pub use extent::Extent;
pub use journal::Mark;
use journal::{Change, Journal};
pub use marks::Marks;
pub use point::{Cell, PointState};

/// The owner of a point another group's routing uses (a borrowed layer's
/// occupied space): never free, never claimed, never ripped up.
pub const BLOCKED: u32 = u32::MAX;

/// Edge flag: the point is joined to `(x + 1, y)` on its layer.
pub const RIGHT: u8 = 1;
/// Edge flag: the point is joined to `(x, y + 1)` on its layer.
pub const UP: u8 = 2;
/// Edge flag: the point is joined to the same point on layer `l + 1`.
pub const VIA: u8 = 4;

/// The routing grid of one channel at one width: which net owns each point
/// and which unit edges and vias join points (see the module docs).
#[derive(Clone, Debug)]
pub struct Grid {
    /// What the grid covers; the fields below are what lies on it.
    pub extent: Extent,
    owner: Vec<u32>,
    edges: Vec<u8>,
    /// Cells claimed by each net, in claim order.
    cells_of: Vec<Vec<u32>>,
    /// Component tags of the last [`Grid::label_components`] call: valid
    /// where `labelled` is marked.
    tag: Vec<u32>,
    labelled: Marks,
    /// The flood's stack, kept between floods.
    stack: Vec<u32>,
    /// Undo log of every change since the first open mark.
    journal: Journal,
    /// The points [`Grid::block`] took.
    blocked: Vec<u32>,
    /// Whether every owned cell is in a claim list or `blocked` (not so in
    /// a [`Grid::copy_wiring`]).
    listed: bool,
}

/// What a grid can hand on to the next grid: its owners and edges, all
/// free again; the component labelling's arrays as they are (a tag counts
/// only where the marks say so, and a new round unmarks everything); and
/// the lists and logs, emptied but with their room. A channel's attempts
/// one after the other then neither clear nor allocate these again.
#[derive(Default)]
pub struct Spare {
    /// Owners and edges, all free again (see [`Grid::into_spare`]).
    owner: Vec<u32>,
    edges: Vec<u8>,
    tag: Vec<u32>,
    labelled: Marks,
    cells_of: Vec<Vec<u32>>,
    journal: Journal,
    stack: Vec<u32>,
}

/// `n` zeros, written: the allocator's zeroed memory (`vec![0; n]`) is
/// mapped on first use, and when its first use is a read, the first write
/// then copies the page and makes every core flush its view of it (on two
/// threads, a fifth of a tall channel's time went to these flushes).
fn written_zeros<T: Copy + Default>(n: usize) -> Vec<T> {
    written_zeros_in(n, n)
}

/// [`written_zeros`] in a vector with room for `room` (not written: the
/// memory is only mapped when a longer vector first writes it).
fn written_zeros_in<T: Copy + Default>(n: usize, room: usize) -> Vec<T> {
    let mut v = Vec::with_capacity(room.max(n));
    v.resize(n, T::default());
    v
}

/// `v` at length `n`, its new entries zero: in the room it has when it has
/// enough (only the new entries are written), else in a new vector with
/// room for `room`.
fn zeros_at<T: Copy + Default>(mut v: Vec<T>, n: usize, room: usize) -> Vec<T> {
    if v.capacity() < n {
        return written_zeros_in(n, room);
    }
    v.truncate(n);
    v.resize(n, T::default());
    v
}

/// The room a net's list of claimed cells gets at its first claim: a
/// net of a random channel claims some tens of cells (a trunk and its
/// risers), and growing every list from one cell by doubling took some
/// 380,000 reallocations on a 100,000-column channel.
const FIRST_CELLS: usize = 32;

/// Rows beyond its own that a new grid's raster arrays have room for: a
/// channel's widths are tried one after another, and a wider grid made
/// from a narrower one's spare then maps no new memory for its first rows
/// (on a 100,000-column channel a new grid maps some 40 MB).
const ROOM_ROWS: usize = 4;

/// The spares of ended grids, for the grids still to come.
#[derive(Default)]
pub struct SparePool(std::sync::Mutex<Vec<Spare>>);

impl SparePool {
    /// A spare (an empty one when none is left).
    pub fn take(&self) -> Spare {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_default()
    }

    /// Whether every spare kept has all its cells free.
    #[cfg(test)]
    pub fn all_free(&self) -> bool {
        let spares = self.0.lock().unwrap_or_else(|e| e.into_inner());
        spares
            .iter()
            .all(|s| s.owner.iter().all(|&o| o == 0) && s.edges.iter().all(|&e| e == 0))
    }

    /// Keep a grid's spare for a later grid.
    pub fn give(&self, grid: Grid) {
        let spare = grid.into_spare();
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(spare);
    }
}

impl Grid {
    /// An empty grid of `columns` columns, `width` tracks and `layers` layers,
    /// for nets with indices `0 .. nets`.
    pub fn new(columns: u32, width: u32, layers: u32, nets: usize) -> Self {
        Grid::reusing(columns, width, layers, nets, Spare::default())
    }

    /// [`Grid::new`], with a spare of an earlier grid: the same empty grid.
    pub fn reusing(columns: u32, width: u32, layers: u32, nets: usize, spare: Spare) -> Self {
        let extent = Extent::new(columns, width, layers);
        let n = extent.points();
        debug_assert!(n <= u32::MAX as usize, "raster indices are kept in 32 bits");
        let room = (columns as usize + 2) * (width as usize + 2 + ROOM_ROWS) * layers as usize;
        let Spare {
            owner,
            edges,
            tag,
            mut labelled,
            mut cells_of,
            mut journal,
            mut stack,
        } = spare;
        // A spare's owners and edges are all free, so only new entries
        // need writing.
        let owner = zeros_at(owner, n, room);
        let edges = zeros_at(edges, n, room);
        // Tags count only where marked.
        let tag = zeros_at(tag, n, room);
        labelled.grow(n, room);
        // No index marked, so no stale tag counts.
        labelled.clear();
        cells_of.truncate(nets);
        cells_of.iter_mut().for_each(Vec::clear);
        cells_of.resize_with(nets, Vec::new);
        journal.clear();
        stack.clear();
        Grid {
            extent,
            owner,
            edges,
            cells_of,
            journal,
            tag,
            labelled,
            stack,
            blocked: Vec::new(),
            listed: true,
        }
    }

    /// What of this grid the next one can use: its owners and edges freed
    /// again cell by cell (every owned cell was claimed or blocked, and
    /// only owned cells have edges), which costs what the attempt drew, not
    /// the whole grid.
    pub fn into_spare(mut self) -> Spare {
        if self.listed {
            for &i in self.cells_of.iter().flatten().chain(&self.blocked) {
                self.owner[i as usize] = 0;
                self.edges[i as usize] = 0;
            }
        } else {
            self.owner.fill(0);
            self.edges.fill(0);
        }
        Spare {
            owner: self.owner,
            edges: self.edges,
            tag: self.tag,
            labelled: self.labelled,
            cells_of: self.cells_of,
            journal: self.journal,
            stack: self.stack,
        }
    }

    /// Mark a point as used by another group (before any routing).
    pub fn block(&mut self, c: Cell) {
        let i = self.index(c);
        debug_assert_eq!(self.owner[i], 0, "a blocked point starts free");
        self.owner[i] = BLOCKED;
        self.blocked.push(i as u32);
    }

    /// Whether another group's routing uses the point.
    #[inline]
    pub fn is_blocked(&self, c: Cell) -> bool {
        self.owner(c) == BLOCKED
    }

    /// Open a trial: every change from here on can be undone.
    pub fn mark(&mut self) -> Mark {
        self.journal.open()
    }

    /// Run `step` as a trial: its changes stay when it returns true and are
    /// undone when it returns false.
    pub fn trial(&mut self, step: impl FnOnce(&mut Grid) -> bool) -> bool {
        let m = self.mark();
        let kept = step(self);
        if kept {
            self.commit_trial(m);
        } else {
            self.rollback(m);
        }
        kept
    }

    /// Run `step` with its changes kept out of the undo log: no rollback
    /// undoes them. For drawing what was there before every open trial
    /// began, into cells no trial has touched and onto nets no trial has
    /// given cells (a rollback pops each net's latest cells).
    pub fn unlogged<R>(&mut self, step: impl FnOnce(&mut Grid) -> R) -> R {
        let was = self.journal.pause();
        let r = step(self);
        self.journal.resume(was);
        r
    }

    /// Undo every change since the mark and close the trial.
    pub fn rollback(&mut self, m: Mark) {
        while let Some(change) = self.journal.undo(m) {
            match change {
                Change::Cell {
                    index,
                    owner,
                    edges,
                } => {
                    self.owner[index as usize] = owner;
                    self.edges[index as usize] = edges;
                }
                Change::Pushed { net } => {
                    self.cells_of[net as usize].pop();
                }
            }
        }
        self.journal.close(m);
    }

    /// Keep every change since the mark and close the trial.
    pub fn commit_trial(&mut self, m: Mark) {
        self.journal.close(m);
    }

    #[inline]
    fn log(&mut self, i: usize) {
        self.journal.log(Change::Cell {
            index: i as u32,
            owner: self.owner[i],
            edges: self.edges[i],
        });
    }

    /// The cell at a raster index.
    #[inline]
    pub fn cell_at(&self, i: usize) -> Cell {
        self.extent.cell_at(i)
    }

    /// The raster indices a net has claimed, in claim order (floods start
    /// from them in this order, which numbers the components).
    #[cfg(test)]
    pub fn claims_of(&self, net: u32) -> &[u32] {
        &self.cells_of[net as usize]
    }

    /// A grid with this one's cells and joints (owners and edges) and
    /// fresh scratch space, outside any trial: for work on some nets' cells
    /// on another thread ([`Grid::take_cells`] brings it back).
    pub fn copy_wiring(&self) -> Grid {
        let n = self.owner.len();
        Grid {
            extent: self.extent,
            owner: self.owner.clone(),
            edges: self.edges.clone(),
            cells_of: vec![Vec::new(); self.cells_of.len()],
            journal: Journal::default(),
            tag: vec![0; n],
            labelled: Marks::new(n),
            stack: Vec::new(),
            blocked: Vec::new(),
            listed: false,
        }
    }

    /// Take the owners and edges of the given cells from `other`.
    pub fn take_cells(&mut self, other: &Grid, cells: &[u32]) {
        debug_assert!(!self.journal.is_logging(), "outside any trial");
        for &i in cells {
            let i = i as usize;
            self.owner[i] = other.owner[i];
            self.edges[i] = other.edges[i];
        }
    }

    /// Every net's cells from one pass over the grid: net `n`'s raster
    /// indices, ascending, are `cells[start[n]..start[n + 1]]`.
    pub fn cells_by_net(&self) -> (Vec<usize>, Vec<u32>) {
        let nets = self.cells_of.len();
        let mut start = vec![0usize; nets + 2];
        for &o in &self.owner {
            if o != 0 && o != BLOCKED {
                start[o as usize + 1] += 1;
            }
        }
        for n in 1..start.len() {
            start[n] += start[n - 1];
        }
        // Now `start[n + 1]` is where net n's cells begin; it counts up to
        // their end (net n + 1's beginning) as they are placed.
        let mut cells = vec![0u32; start[nets + 1]];
        for (i, &o) in self.owner.iter().enumerate() {
            if o != 0 && o != BLOCKED {
                let at = &mut start[o as usize];
                cells[*at] = i as u32;
                *at += 1;
            }
        }
        start.pop();
        (start, cells)
    }

    /// The cells a net has claimed (some may since have been released).
    pub fn cells_of(&self, net: u32) -> Vec<Cell> {
        let mut v: Vec<u32> = self.cells_of[net as usize].clone();
        v.sort_unstable();
        v.dedup();
        v.into_iter().map(|i| self.cell_at(i as usize)).collect()
    }

    /// Clear one edge flag stored on a cell.
    pub fn clear_flag(&mut self, c: Cell, flag: u8) {
        let i = self.index(c);
        self.log(i);
        self.edges[i] &= !flag;
    }

    /// Set one edge flag stored on a cell.
    pub fn set_flag(&mut self, c: Cell, flag: u8) {
        let i = self.index(c);
        self.log(i);
        self.edges[i] |= flag;
    }

    /// The top pin row, `W + 1`.
    #[inline]
    pub fn top_row(&self) -> i64 {
        self.extent.top_row()
    }

    /// Whether `c` lies on the grid, side columns and pin rows included.
    #[inline]
    pub fn contains(&self, c: Cell) -> bool {
        self.extent.contains(c)
    }

    /// The number of cells (raster indices run below it).
    pub fn cell_count(&self) -> usize {
        self.owner.len()
    }

    /// The raster index of `c`: layer-major, then row, then column (shifted
    /// by one so `x = -1` is 0). `c` must lie on the grid.
    #[inline(always)]
    pub fn index(&self, c: Cell) -> usize {
        self.extent.index(c)
    }

    /// The owner of the cell at a raster index (see [`Grid::owner`]).
    #[inline]
    pub fn owner_at(&self, i: usize) -> u32 {
        self.owner[i]
    }

    /// The owner of a cell as `net index + 1`, 0 when free.
    #[inline]
    pub fn owner(&self, c: Cell) -> u32 {
        self.owner[self.index(c)]
    }

    /// Whether net `net` (its index) may use `c`: the cell is free or its own.
    #[inline]
    pub fn is_free_for(&self, c: Cell, net: u32) -> bool {
        let o = self.owner(c);
        o == 0 || o == net + 1
    }

    /// Claim a cell for a net; false when another net owns it.
    pub fn claim(&mut self, c: Cell, net: u32) -> bool {
        self.claim_at(self.index(c), net)
    }

    /// [`Grid::claim`] of the cell at raster index `i`.
    #[inline]
    fn claim_at(&mut self, i: usize, net: u32) -> bool {
        match self.owner[i] {
            0 => {
                self.log(i);
                self.owner[i] = net + 1;
                let mine = &mut self.cells_of[net as usize];
                if mine.capacity() == 0 {
                    // Room for a typical net's cells at once, rather than
                    // growing from one cell by doubling.
                    mine.reserve_exact(FIRST_CELLS);
                }
                mine.push(i as u32);
                self.journal.log(Change::Pushed { net });
                true
            }
            o => o == net + 1,
        }
    }

    /// Join two neighbouring cells (same point on adjacent layers, or
    /// adjacent points on one layer).
    pub fn connect(&mut self, a: Cell, b: Cell) {
        debug_assert!(
            self.contains(a) && self.contains(b),
            "an edge inside the grid"
        );
        let (lo, flag) = if a.layer != b.layer {
            (if a.layer < b.layer { a } else { b }, VIA)
        } else if a.y == b.y {
            (if a.x < b.x { a } else { b }, RIGHT)
        } else {
            (if a.y < b.y { a } else { b }, UP)
        };
        let i = self.index(lo);
        if self.edges[i] & flag == 0 {
            self.log(i);
            self.edges[i] |= flag;
        }
    }

    /// The edge flags ([`RIGHT`], [`UP`], [`VIA`]) stored at `c`, the lower
    /// or left end of each edge.
    #[inline]
    pub fn flags(&self, c: Cell) -> u8 {
        self.edges[self.index(c)]
    }

    /// Claim and join a straight run of cells from `a` to `b` on one layer.
    pub fn run(&mut self, a: Cell, b: Cell, net: u32) -> bool {
        debug_assert_eq!(a.layer, b.layer);
        debug_assert!(a.x == b.x || a.y == b.y, "a straight run");
        debug_assert!(
            self.contains(a) && self.contains(b),
            "a run inside the grid"
        );
        // Cell by cell from `a`, as claims and joins one at a time would
        // (a claim that fails leaves the cells before it claimed), by
        // raster index: a step along x is 1, along y a row.
        let (dx, dy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
        let steps = (b.x - a.x).abs() + (b.y - a.y).abs();
        let stride = dx + dy * (self.extent.columns + 2);
        let flag = if dx != 0 { RIGHT } else { UP };
        let mut i = self.index(a);
        if !self.claim_at(i, net) {
            return false;
        }
        for _ in 0..steps {
            let next = (i as i64 + stride) as usize;
            if !self.claim_at(next, net) {
                return false;
            }
            // The edge is stored on the lower or left cell of the two.
            let lo = if stride > 0 { i } else { next };
            if self.edges[lo] & flag == 0 {
                self.log(lo);
                self.edges[lo] |= flag;
            }
            i = next;
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
        self.log(i);
        self.owner[i] = 0;
        self.edges[i] = 0;
        for (n, flag) in [
            (Cell::new(c.x - 1, c.y, c.layer), RIGHT),
            (Cell::new(c.x, c.y - 1, c.layer), UP),
            (Cell::new(c.x, c.y, c.layer.wrapping_sub(1)), VIA),
        ] {
            if self.contains(n) {
                let j = self.index(n);
                if self.edges[j] & flag != 0 {
                    self.log(j);
                    self.edges[j] &= !flag;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
