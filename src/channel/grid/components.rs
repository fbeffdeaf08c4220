//! The components of a net's cells: labelling floods and counts, the
//! joints of a cell, the vias whose removal leaves a net in as many pieces
//! (bridges), and dead ends: what the repairs, local negotiation and
//! clean-up ask of the grid.

use super::*;

impl Grid {
    /// Connected components of a net's cells: cells joined by edges, and the
    /// layers of a pin point (a contact through all layers). Afterwards
    /// [`Grid::component_of`] tells the component of any of these cells.
    pub fn label_components(&mut self, net: u32) -> Vec<Vec<Cell>> {
        self.flood(net, Listing::Cells).1
    }

    /// The number of connected components of a net's cells (as
    /// [`Grid::label_components`], without listing them).
    pub fn count_components(&mut self, net: u32) -> usize {
        self.flood(net, Listing::CountOnly).0
    }

    /// The number of connected components of every net's cells (each as
    /// [`Grid::count_components`] gives it), from one pass over the grid
    /// with a union-find instead of a flood per net.
    pub fn count_all_components(&self) -> Vec<usize> {
        let n = self.owner.len();
        let cols = (self.extent.columns + 2) as usize;
        let rows = (self.extent.width + 2) as usize;
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

    /// The number of a net's components, and (when `listing` asks) their
    /// cells.
    fn flood(&mut self, net: u32, listing: Listing) -> (usize, Vec<Vec<Cell>>) {
        let collect = listing == Listing::Cells;
        let mut count = 0usize;
        self.labelled.clear();
        let mut out: Vec<Vec<Cell>> = Vec::new();
        let top = self.top_row();
        let cols = (self.extent.columns + 2) as usize;
        let rows = (self.extent.width + 2) as usize;
        let plane = cols * rows;
        let layers = self.extent.layers as usize;
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
    pub(crate) fn joints(&self, i: usize, net: u32, out: &mut Vec<(usize, (usize, usize, u8))>) {
        out.clear();
        let cols = (self.extent.columns + 2) as usize;
        let rows = (self.extent.width + 2) as usize;
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
            for l in (0..self.extent.layers as usize).filter(|&l| l != layer0) {
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
        let plane = ((self.extent.columns + 2) * (self.extent.width + 2)) as usize;
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
        let row = (self.extent.columns + 2) as usize;
        let plane = row * (self.extent.width + 2) as usize;
        let top = self.top_row() as usize;
        let mut sets = UnionFind::new(cells.len());
        // Joins two cells; false when they were joined already.
        let mut join = |a: usize, b: usize| sets.union(self.tag[a] as usize, self.tag[b] as usize);
        let live = |j: usize| j < self.owner.len() && self.owner[j] == net + 1;
        for &i in cells {
            let f = self.edges[i];
            let y = (i / row) % (self.extent.width + 2) as usize;
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
                    for l in layer0 + 1..self.extent.layers as usize {
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
        let cols = (self.extent.columns + 2) as usize;
        let rows = (self.extent.width + 2) as usize;
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
}

/// What a flood of a net's components gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Listing {
    /// Their number only.
    CountOnly,
    /// Their number and their cells.
    Cells,
}
