//! The routing grid of the detailed router: static extent `(x, y, layer)`
//! with `x = -1 ..= C`, `y = 0 ..= W + 1`, layers `1 ..= L`, and the mutable
//! occupancy (which net owns a point, which unit edges and vias it uses).
//!
//! A net is stored as `id + 1` (0 = free). Edges are flags on their lower or
//! left end: `RIGHT` joins `(x, y)` to `(x + 1, y)`, `UP` joins `(x, y)` to
//! `(x, y + 1)`, `VIA` joins layer `l` to `l + 1` at one point.

use crate::channel::solution::{Via, Wire};
use crate::geom::Point;
use crate::graph::UnionFind;

/// The owner of a point another group's routing uses (a borrowed layer's
/// occupied space): never free, never claimed, never ripped up.
pub const BLOCKED: u32 = u32::MAX;

pub const RIGHT: u8 = 1;
pub const UP: u8 = 2;
pub const VIA: u8 = 4;

/// A grid point on a layer (layer is 1-based).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

/// Marks on dense indices, all cleared at once: a mark is the number of
/// the current round, so a new round clears every mark (the array is wiped
/// only when the round number wraps).
#[derive(Clone, Debug, Default)]
pub struct Marks {
    stamp: Vec<u32>,
    round: u32,
}

impl Marks {
    /// `n` indices, in round 0 (start a round before marking).
    pub fn new(n: usize) -> Self {
        Marks {
            stamp: written_zeros(n),
            round: 0,
        }
    }

    /// At least `n` indices (new ones unmarked once a round has started).
    pub fn grow(&mut self, n: usize) {
        if self.stamp.len() < n {
            self.stamp.resize(n, 0);
        }
    }

    /// Start a new round: no index is marked.
    pub fn clear(&mut self) {
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.round = 1;
        }
    }

    #[inline]
    pub fn is_marked(&self, i: usize) -> bool {
        self.stamp[i] == self.round
    }

    /// Mark `i`; true when it was not marked yet.
    #[inline]
    pub fn mark(&mut self, i: usize) -> bool {
        let fresh = self.stamp[i] != self.round;
        self.stamp[i] = self.round;
        fresh
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
    /// Component tags of the last [`Grid::label_components`] call: valid
    /// where `labelled` is marked.
    tag: Vec<u32>,
    labelled: Marks,
    /// The flood's stack, kept between floods.
    stack: Vec<u32>,
    /// Undo log of every change since the first open mark.
    journal: Vec<Change>,
    /// Whether changes are being logged (a trial is open).
    logging: bool,
    /// The points [`Grid::block`] took.
    blocked: Vec<u32>,
    /// Whether every owned cell is in a claim list or `blocked` (not so in
    /// a [`Grid::copy_wiring`]).
    listed: bool,
}

/// One logged change of the grid.
#[derive(Clone, Copy, Debug)]
enum Change {
    /// A cell's owner and edge flags before a write.
    Cell { index: u32, owner: u32, edges: u8 },
    /// A cell index pushed onto a net's list.
    Pushed { net: u32 },
}

/// A point in the undo log to roll back to.
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    len: usize,
    was_logging: bool,
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
    journal: Vec<Change>,
    stack: Vec<u32>,
}

/// `n` zeros, written: the allocator's zeroed memory (`vec![0; n]`) is
/// mapped on first use, and when its first use is a read, the first write
/// then copies the page and makes every core flush its view of it (on two
/// threads, a fifth of a tall channel's time went to these flushes).
fn written_zeros<T: Copy + Default>(n: usize) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    v.resize(n, T::default());
    v
}

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
    pub fn new(columns: u32, width: u32, layers: u32, nets: usize) -> Self {
        Grid::reusing(columns, width, layers, nets, Spare::default())
    }

    /// [`Grid::new`], with a spare of an earlier grid: the same empty grid.
    pub fn reusing(columns: u32, width: u32, layers: u32, nets: usize, spare: Spare) -> Self {
        let n = (columns as usize + 2) * (width as usize + 2) * layers as usize;
        debug_assert!(n <= u32::MAX as usize, "raster indices are kept in 32 bits");
        let Spare {
            mut owner,
            mut edges,
            mut tag,
            mut labelled,
            mut cells_of,
            mut journal,
            mut stack,
        } = spare;
        if owner.len() < n {
            owner = written_zeros(n);
            edges = written_zeros(n);
        }
        owner.truncate(n);
        edges.truncate(n);
        if tag.len() < n {
            tag = written_zeros(n);
            labelled = Marks::new(n);
        }
        // No index marked, so no stale tag counts.
        labelled.clear();
        cells_of.truncate(nets);
        cells_of.iter_mut().for_each(Vec::clear);
        cells_of.resize_with(nets, Vec::new);
        journal.clear();
        stack.clear();
        Grid {
            columns: columns as i64,
            width: width as i64,
            layers,
            owner,
            edges,
            cells_of,
            journal,
            logging: false,
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
        let m = Mark {
            len: self.journal.len(),
            was_logging: self.logging,
        };
        self.logging = true;
        m
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
        let was = std::mem::replace(&mut self.logging, false);
        let r = step(self);
        self.logging = was;
        r
    }

    /// Undo every change since the mark and close the trial.
    pub fn rollback(&mut self, m: Mark) {
        while self.journal.len() > m.len {
            match self.journal.pop().expect("journal longer than the mark") {
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
        self.close(m);
    }

    /// Keep every change since the mark and close the trial.
    pub fn commit_trial(&mut self, m: Mark) {
        self.close(m);
    }

    fn close(&mut self, m: Mark) {
        self.logging = m.was_logging;
        if !self.logging {
            self.journal.clear();
        }
    }

    fn log(&mut self, i: usize) {
        if self.logging {
            self.journal.push(Change::Cell {
                index: i as u32,
                owner: self.owner[i],
                edges: self.edges[i],
            });
        }
    }

    /// The cell at a raster index.
    pub fn cell_at(&self, i: usize) -> Cell {
        // Raster indices fit in 32 bits (cell lists store them so), and
        // 32-bit division is the quicker.
        debug_assert!(i <= u32::MAX as usize);
        let (i, cols, rows) = (i as u32, (self.columns + 2) as u32, (self.width + 2) as u32);
        let (r, x) = (i / cols, i % cols);
        Cell::new(x as i64 - 1, (r % rows) as i64, r / rows + 1)
    }

    /// Connected components of a net's cells: cells joined by edges, and the
    /// layers of a pin point (a contact through all layers). Afterwards
    /// [`Grid::component_of`] tells the component of any of these cells.
    pub fn label_components(&mut self, net: u32) -> Vec<Vec<Cell>> {
        self.flood(net, true).1
    }

    /// The number of connected components of a net's cells (as
    /// [`Grid::label_components`], without listing them).
    pub fn count_components(&mut self, net: u32) -> usize {
        self.flood(net, false).0
    }

    /// The number of connected components of every net's cells (each as
    /// [`Grid::count_components`] gives it), from one pass over the grid
    /// with a union-find instead of a flood per net.
    pub fn count_all_components(&self) -> Vec<usize> {
        let n = self.owner.len();
        let cols = (self.columns + 2) as usize;
        let rows = (self.width + 2) as usize;
        let plane = cols * rows;
        let mut sets = UnionFind::new(n);
        let mine = |i: usize| {
            let o = self.owner[i];
            o != 0 && o != BLOCKED
        };
        for i in 0..n {
            if !mine(i) {
                continue;
            }
            let o = self.owner[i];
            // The joints as the flood follows them: edges to the right, up
            // and to the layer above between cells of one net (no edge
            // leaves the grid), and the layers of a pin point, each joined
            // to the lowest layer the net holds there.
            let f = self.edges[i];
            if f & RIGHT != 0 && self.owner[i + 1] == o {
                sets.union(i, i + 1);
            }
            if f & UP != 0 && self.owner[i + cols] == o {
                sets.union(i, i + cols);
            }
            if f & VIA != 0 && self.owner[i + plane] == o {
                sets.union(i, i + plane);
            }
            let y = (i / cols) % rows;
            if y == 0 || y == rows - 1 {
                let point = i % plane;
                if let Some(j) = (point..i).step_by(plane).find(|&j| self.owner[j] == o) {
                    sets.union(i, j);
                }
            }
        }
        let mut count = vec![0usize; self.cells_of.len()];
        for i in 0..n {
            if mine(i) && sets.is_root(i) {
                count[(self.owner[i] - 1) as usize] += 1;
            }
        }
        count
    }

    fn flood(&mut self, net: u32, collect: bool) -> (usize, Vec<Vec<Cell>>) {
        let mut count = 0usize;
        self.labelled.clear();
        let mut out: Vec<Vec<Cell>> = Vec::new();
        let top = self.top_row();
        let cols = (self.columns + 2) as usize;
        let rows = (self.width + 2) as usize;
        let plane = cols * rows;
        let layers = self.layers as usize;
        let mine = std::mem::take(&mut self.cells_of[net as usize]);
        let mut stack = std::mem::take(&mut self.stack);
        for &start in &mine {
            let s0 = start as usize;
            if self.owner[s0] != net + 1 || self.labelled.is_marked(s0) {
                continue;
            }
            let k = count as u32;
            count += 1;
            self.labelled.mark(s0);
            self.tag[s0] = k;
            let mut comp = Vec::new();
            stack.push(start);
            while let Some(i) = stack.pop() {
                let i = i as usize;
                if collect {
                    comp.push(self.cell_at(i));
                }
                // Neighbours by raster strides, in the order: right, up,
                // via up, left, down, via down, then the other layers of a
                // pin point. No edge leaves the grid (the last column has
                // no RIGHT, the top pin row no UP, the top layer no VIA), so
                // the cell before `i` in raster order, the one a row before
                // it and the one a layer before it are joined to `i` only
                // when they are its neighbours.
                let f = self.edges[i];
                let mut next = [usize::MAX; 6];
                if f & RIGHT != 0 {
                    next[0] = i + 1;
                }
                if f & UP != 0 {
                    next[1] = i + cols;
                }
                if f & VIA != 0 {
                    next[2] = i + plane;
                }
                if i >= 1 && self.edges[i - 1] & RIGHT != 0 {
                    next[3] = i - 1;
                }
                if i >= cols && self.edges[i - cols] & UP != 0 {
                    next[4] = i - cols;
                }
                if i >= plane && self.edges[i - plane] & VIA != 0 {
                    next[5] = i - plane;
                }
                let mut visit = |j: usize| {
                    if self.owner[j] == net + 1 && self.labelled.mark(j) {
                        self.tag[j] = k;
                        stack.push(j as u32);
                    }
                };
                for j in next {
                    if j != usize::MAX {
                        visit(j);
                    }
                }
                let y = (i / cols) % rows;
                if y == 0 || y as i64 == top {
                    let layer0 = i / plane; // layer - 1
                    for l in (0..layers).filter(|&l| l != layer0) {
                        visit(i - layer0 * plane + l * plane);
                    }
                }
            }
            if collect {
                out.push(comp);
            }
        }
        self.cells_of[net as usize] = mine;
        self.stack = stack;
        (count, out)
    }

    /// The joined neighbours of raster index `i` (a cell of `net`), each
    /// with a key naming the joint: edges to the right, up and to the layer
    /// above, the same from the left, below and the layer under, then the
    /// contacts between the layers of a pin point (as in [`Grid::flood`]).
    pub(super) fn joints(&self, i: usize, net: u32, out: &mut Vec<(usize, (usize, usize, u8))>) {
        out.clear();
        let cols = (self.columns + 2) as usize;
        let rows = (self.width + 2) as usize;
        let plane = cols * rows;
        let x1 = i % cols;
        let y = (i / cols) % rows;
        let layer0 = i / plane;
        let f = self.edges[i];
        let key = |a: usize, b: usize, kind: u8| (a.min(b), a.max(b), kind);
        if f & RIGHT != 0 {
            out.push((i + 1, key(i, i + 1, 0)));
        }
        if f & UP != 0 {
            out.push((i + cols, key(i, i + cols, 1)));
        }
        if f & VIA != 0 {
            out.push((i + plane, key(i, i + plane, 2)));
        }
        if x1 >= 1 && self.edges[i - 1] & RIGHT != 0 {
            out.push((i - 1, key(i, i - 1, 0)));
        }
        if y >= 1 && self.edges[i - cols] & UP != 0 {
            out.push((i - cols, key(i, i - cols, 1)));
        }
        if layer0 >= 1 && self.edges[i - plane] & VIA != 0 {
            out.push((i - plane, key(i, i - plane, 2)));
        }
        if y == 0 || y as i64 == self.top_row() {
            for l in (0..self.layers as usize).filter(|&l| l != layer0) {
                let j = i - layer0 * plane + l * plane;
                out.push((j, key(i, j, 3)));
            }
        }
        out.retain(|&(j, _)| self.owner[j] == net + 1);
    }

    /// The vias of a net that lie on a cycle of its wiring, as the raster
    /// indices of their lower cells, ascending: dropping any one of them
    /// leaves the net in as many pieces. Every via joint that is not a
    /// bridge (Tarjan's algorithm, iteratively, over the joints of `Grid::joints`;
    /// parallel joints are told apart by their keys).
    pub fn looped_vias(&mut self, net: u32) -> Vec<usize> {
        let mut cells: Vec<u32> = self.cells_of[net as usize].clone();
        cells.sort_unstable();
        cells.dedup();
        self.looped_vias_among(net, &cells)
    }

    /// [`Grid::looped_vias`] with the net's cells given: `among` holds
    /// every cell the net owns (and maybe others), ascending.
    pub fn looped_vias_among(&mut self, net: u32, among: &[u32]) -> Vec<usize> {
        let cells: Vec<usize> = among
            .iter()
            .map(|&i| i as usize)
            .filter(|&i| self.owner[i] == net + 1)
            .collect();
        // Dense numbers in the component tags; a new round at the end, so
        // `component_of` tells nothing until the next labelling.
        self.labelled.clear();
        for (k, &i) in cells.iter().enumerate() {
            self.tag[i] = k as u32;
            self.labelled.mark(i);
        }
        let looped = self.bridge_search(net, &cells);
        self.labelled.clear();
        looped
    }

    /// The rest of [`Grid::looped_vias`], with `cells` numbered in the tags.
    fn bridge_search(&self, net: u32, cells: &[usize]) -> Vec<usize> {
        type Key = (usize, usize, u8);
        const NONE: u32 = u32::MAX;
        if self.is_forest(net, cells) {
            return Vec::new();
        }
        let tag = &self.tag;
        let number = |i: usize| tag[i] as usize;
        let n = cells.len();
        let mut order = vec![NONE; n];
        let mut low = vec![0u32; n];
        // Per cell: whether the via up from it is a bridge.
        let mut bridge_via = vec![false; n];
        // Every cell's joints, once: `adjacent[start[v]..start[v + 1]]`.
        let mut start = Vec::with_capacity(n + 1);
        let mut adjacent: Vec<(u32, Key)> = Vec::new();
        let mut scratch = Vec::new();
        for &i in cells {
            start.push(adjacent.len());
            self.joints(i, net, &mut scratch);
            adjacent.extend(scratch.iter().map(|&(j, key)| (number(j) as u32, key)));
        }
        start.push(adjacent.len());
        let mut clock = 0u32;
        for root in 0..n {
            if order[root] != NONE {
                continue;
            }
            order[root] = clock;
            low[root] = clock;
            clock += 1;
            // Frames: vertex, the joint it was entered by, and the next of
            // its joints to look at.
            let mut stack: Vec<(usize, Option<Key>, usize)> = vec![(root, None, start[root])];
            while let Some(frame) = stack.last_mut() {
                let (v, entered, next) = *frame;
                if next < start[v + 1] {
                    frame.2 += 1;
                    let (w, key) = adjacent[next];
                    let w = w as usize;
                    if Some(key) == entered {
                        continue;
                    }
                    if order[w] == NONE {
                        order[w] = clock;
                        low[w] = clock;
                        clock += 1;
                        stack.push((w, Some(key), start[w]));
                    } else {
                        low[v] = low[v].min(order[w]);
                    }
                } else {
                    stack.pop();
                    if let (Some(key), Some(parent)) = (entered, stack.last()) {
                        let p = parent.0;
                        low[p] = low[p].min(low[v]);
                        if low[v] > order[p] && key.2 == 2 {
                            bridge_via[number(key.0)] = true;
                        }
                    }
                }
            }
        }
        let plane = ((self.columns + 2) * (self.width + 2)) as usize;
        cells
            .iter()
            .enumerate()
            .filter(|&(k, &i)| {
                self.edges[i] & VIA != 0
                    && i + plane < self.owner.len()
                    && self.owner[i + plane] == net + 1
                    && !bridge_via[k]
            })
            .map(|(_, &i)| i)
            .collect()
    }

    /// Whether a net's wiring has no cycle through a via: union-find along
    /// its joints, with the contacts of a pin point taken as a star (they
    /// form a cycle of their own when three layers meet, but one without a
    /// via). A via at a pin point parallels the contact, so it answers no.
    /// `cells` are the net's live cells, numbered in the tags.
    fn is_forest(&self, net: u32, cells: &[usize]) -> bool {
        let row = (self.columns + 2) as usize;
        let plane = row * (self.width + 2) as usize;
        let top = self.top_row() as usize;
        let mut sets = UnionFind::new(cells.len());
        // Joins two cells; false when they were joined already.
        let mut join = |a: usize, b: usize| sets.union(self.tag[a] as usize, self.tag[b] as usize);
        let live = |j: usize| j < self.owner.len() && self.owner[j] == net + 1;
        for &i in cells {
            let f = self.edges[i];
            let y = (i / row) % (self.width + 2) as usize;
            let pin = y == 0 || y == top;
            if f & RIGHT != 0 && live(i + 1) && !join(i, i + 1) {
                return false;
            }
            if f & UP != 0 && live(i + row) && !join(i, i + row) {
                return false;
            }
            if f & VIA != 0 && live(i + plane) && (pin || !join(i, i + plane)) {
                return false;
            }
            // The contacts of a pin point: each layer above the lowest live
            // one joins the lowest (visited from the lowest).
            if pin {
                let layer0 = i / plane;
                let lowest = (0..layer0).all(|l| !live(i - (layer0 - l) * plane));
                if lowest {
                    for l in layer0 + 1..self.layers as usize {
                        let j = i + (l - layer0) * plane;
                        if live(j) && !join(i, j) {
                            return false;
                        }
                    }
                }
            }
        }
        true
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
            columns: self.columns,
            width: self.width,
            layers: self.layers,
            owner: self.owner.clone(),
            edges: self.edges.clone(),
            cells_of: vec![Vec::new(); self.cells_of.len()],
            journal: Vec::new(),
            logging: false,
            tag: vec![0; n],
            labelled: Marks::new(n),
            stack: Vec::new(),
            blocked: Vec::new(),
            listed: false,
        }
    }

    /// Take the owners and edges of the given cells from `other`.
    pub fn take_cells(&mut self, other: &Grid, cells: &[u32]) {
        debug_assert!(!self.logging, "outside any trial");
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

    /// The wire cells of a net with at most one joined neighbour, away from
    /// the pin rows and side columns, in raster order: the dead ends
    /// clean-up prunes.
    pub fn dead_ends(&self, net: u32) -> Vec<usize> {
        let mut v: Vec<u32> = self.cells_of[net as usize].clone();
        v.sort_unstable();
        v.dedup();
        self.dead_ends_among(net, &v)
    }

    /// [`Grid::dead_ends`] with the net's cells given, as in
    /// [`Grid::looped_vias_among`].
    pub fn dead_ends_among(&self, net: u32, among: &[u32]) -> Vec<usize> {
        let cols = (self.columns + 2) as usize;
        let rows = (self.width + 2) as usize;
        let plane = cols * rows;
        among
            .iter()
            .map(|&i| i as usize)
            .filter(|&i| {
                if self.owner[i] != net + 1 {
                    return false;
                }
                let f = self.edges[i];
                let mut d = (f & RIGHT != 0) as u32 + (f & UP != 0) as u32 + (f & VIA != 0) as u32;
                // The cells before `i` in raster order, a row before and a
                // layer before: joined to it only when they are its
                // neighbours (no edge leaves the grid).
                d += (i >= 1 && self.edges[i - 1] & RIGHT != 0) as u32;
                d += (i >= cols && self.edges[i - cols] & UP != 0) as u32;
                d += (i >= plane && self.edges[i - plane] & VIA != 0) as u32;
                if d > 1 {
                    return false;
                }
                let (x1, y) = (i % cols, (i / cols) % rows);
                (1..cols - 1).contains(&x1) && (1..rows - 1).contains(&y)
            })
            .collect()
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

    /// The component (index into the last [`Grid::label_components`]) of a
    /// cell of the net labelled then.
    pub fn component_of(&self, c: Cell) -> Option<usize> {
        self.component_at(self.index(c))
    }

    /// [`Grid::component_of`] by raster index.
    #[inline]
    pub fn component_at(&self, i: usize) -> Option<usize> {
        self.labelled.is_marked(i).then(|| self.tag[i] as usize)
    }

    #[inline]
    pub fn top_row(&self) -> i64 {
        self.width + 1
    }

    #[inline]
    pub fn contains(&self, c: Cell) -> bool {
        (-1..=self.columns).contains(&c.x)
            && (0..=self.width + 1).contains(&c.y)
            && (1..=self.layers).contains(&c.layer)
    }

    /// The number of cells (raster indices run below it).
    pub fn cell_count(&self) -> usize {
        self.owner.len()
    }

    #[inline]
    pub fn index(&self, c: Cell) -> usize {
        (((c.layer - 1) as i64 * (self.width + 2) + c.y) * (self.columns + 2) + c.x + 1) as usize
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

    #[inline]
    pub fn is_free_for(&self, c: Cell, net: u32) -> bool {
        let o = self.owner(c);
        o == 0 || o == net + 1
    }

    /// Claim a cell for a net; false when another net owns it.
    pub fn claim(&mut self, c: Cell, net: u32) -> bool {
        let i = self.index(c);
        match self.owner[i] {
            0 => {
                self.log(i);
                self.owner[i] = net + 1;
                self.cells_of[net as usize].push(i as u32);
                if self.logging {
                    self.journal.push(Change::Pushed { net });
                }
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

    #[inline]
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

    /// The wires (maximal straight runs of joined cells) and via stacks of
    /// the whole grid; `label` maps a net index to its label. The grid is
    /// read in raster order (a column's cells lie a whole row apart), so
    /// the runs come out in no particular order.
    pub fn geometry(&self, label: impl Fn(u32) -> u32) -> (Vec<Wire>, Vec<Via>) {
        let cols = (self.columns + 2) as usize;
        let rows = (self.width + 2) as usize;
        let plane = cols * rows;
        let layers = self.layers as usize;
        // Raster column `x` is grid column `x - 1`.
        let at = |x: usize, y: usize| Point::new(x as i64 - 1, y as i64);
        let net = |i: usize| label(self.owner[i] - 1);
        let mut wires = Vec::new();
        let mut vias = Vec::new();
        // The row where the vertical run through each column of the row
        // below began (`usize::MAX`: none).
        let mut up_from = vec![usize::MAX; cols];
        for layer in 1..=layers {
            let base = (layer - 1) * plane;
            up_from.iter_mut().for_each(|s| *s = usize::MAX);
            for y in 0..rows {
                let row = base + y * cols;
                let flags = &self.edges[row..row + cols];
                let mut x = 0;
                while x < cols {
                    if flags[x] & RIGHT != 0 {
                        let start = x;
                        while x < cols && flags[x] & RIGHT != 0 {
                            x += 1;
                        }
                        wires.push(Wire {
                            net: net(row + start),
                            layer: layer as u32,
                            from: at(start, y),
                            to: at(x, y),
                        });
                    }
                    x += 1;
                }
                for (x, &f) in flags.iter().enumerate() {
                    let from = &mut up_from[x];
                    if f & UP != 0 {
                        if *from == usize::MAX {
                            *from = y;
                        }
                    } else if *from != usize::MAX {
                        wires.push(Wire {
                            net: net(base + *from * cols + x),
                            layer: layer as u32,
                            from: at(x, *from),
                            to: at(x, y),
                        });
                        *from = usize::MAX;
                    }
                    if layer < layers
                        && f & VIA != 0
                        && (layer == 1 || self.edges[row + x - plane] & VIA == 0)
                    {
                        let mut top = layer;
                        while top < layers && self.edges[row + x + (top - layer) * plane] & VIA != 0
                        {
                            top += 1;
                        }
                        vias.push(Via {
                            net: net(row + x),
                            at: at(x, y),
                            from: layer as u32,
                            to: top as u32,
                        });
                    }
                }
            }
            // No run goes up out of the top row; should one, it ends there.
            for (x, &from) in up_from.iter().enumerate() {
                if from != usize::MAX {
                    wires.push(Wire {
                        net: net(base + from * cols + x),
                        layer: layer as u32,
                        from: at(x, from),
                        to: at(x, rows),
                    });
                }
            }
        }
        (wires, vias)
    }
}

#[cfg(test)]
mod tests {
    use super::{Cell, Grid, Marks, Point, Via, Wire, RIGHT, UP, VIA};

    /// The wires and vias of a grid found cell by cell along each row,
    /// column and point (the obvious way), sorted.
    fn runs_cell_by_cell(g: &Grid) -> (Vec<Wire>, Vec<Via>) {
        let (mut wires, mut vias) = (Vec::new(), Vec::new());
        let net = |c: Cell| g.owner(c) - 1;
        for layer in 1..=g.layers {
            for y in 0..=g.width + 1 {
                for x in -1..=g.columns {
                    let c = Cell::new(x, y, layer);
                    let left = Cell::new(x - 1, y, layer);
                    if g.flags(c) & RIGHT != 0 && (x == -1 || g.flags(left) & RIGHT == 0) {
                        let mut end = x;
                        while end <= g.columns && g.flags(Cell::new(end, y, layer)) & RIGHT != 0 {
                            end += 1;
                        }
                        wires.push(Wire {
                            net: net(c),
                            layer,
                            from: Point::new(x, y),
                            to: Point::new(end, y),
                        });
                    }
                    let below = Cell::new(x, y - 1, layer);
                    if g.flags(c) & UP != 0 && (y == 0 || g.flags(below) & UP == 0) {
                        let mut end = y;
                        while end <= g.width + 1 && g.flags(Cell::new(x, end, layer)) & UP != 0 {
                            end += 1;
                        }
                        wires.push(Wire {
                            net: net(c),
                            layer,
                            from: Point::new(x, y),
                            to: Point::new(x, end),
                        });
                    }
                    let under = Cell::new(x, y, layer.wrapping_sub(1));
                    if layer < g.layers
                        && g.flags(c) & VIA != 0
                        && (layer == 1 || g.flags(under) & VIA == 0)
                    {
                        let mut top = layer;
                        while top < g.layers && g.flags(Cell::new(x, y, top)) & VIA != 0 {
                            top += 1;
                        }
                        vias.push(Via {
                            net: net(c),
                            at: Point::new(x, y),
                            from: layer,
                            to: top,
                        });
                    }
                }
            }
        }
        wires.sort_unstable();
        vias.sort_unstable();
        (wires, vias)
    }

    /// The raster-order scan finds the runs the cell-by-cell walk finds, on
    /// raw routed grids (every kind of run, vias through three layers).
    #[test]
    fn geometry_finds_the_runs_cell_by_cell() {
        let mut compared = 0;
        for (p, g) in super::super::tests::raw_grids(53, 120) {
            let (mut wires, mut vias) = g.geometry(|n| n);
            wires.sort_unstable();
            vias.sort_unstable();
            let want = runs_cell_by_cell(&g);
            assert!(!want.0.is_empty(), "{}", p.name());
            assert_eq!((wires, vias), want, "{}", p.name());
            compared += 1;
        }
        assert_eq!(compared, 120);
    }

    /// A new round clears every mark, also when the round number wraps:
    /// a stamp left from round 1 long ago must not read as marked then.
    #[test]
    fn a_new_round_clears_every_mark_even_when_the_number_wraps() {
        let mut m = Marks::new(8);
        m.clear();
        assert!(m.mark(5));
        assert!(!m.mark(5));
        assert!(m.is_marked(5) && !m.is_marked(4));
        m.clear();
        assert!(!m.is_marked(5));
        m.round = u32::MAX;
        assert!(m.mark(3));
        m.clear();
        assert!(!m.is_marked(3) && !m.is_marked(5));
        assert!(m.mark(3));
        m.grow(12);
        assert!(m.is_marked(3) && !m.is_marked(11));
    }
}
