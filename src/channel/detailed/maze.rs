//! Lee-style shortest-path search on the routing grid (Dijkstra with small
//! integer costs), limited to a window of columns. Used to connect a pin to
//! its net's tree when the straight stub is blocked (YACR2's maze steps,
//! generalised to any path through free space on any layer).

use super::grid::{Cell, Grid, Marks, BLOCKED};

/// Preferred wiring direction of a layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preferred {
    /// Steps along a row are cheap; steps along a column cost `wrong_way`.
    Horizontal,
    /// Steps along a column are cheap; steps along a row cost `wrong_way`.
    Vertical,
    /// Steps in both directions cost the same (a B layer).
    Any,
}

/// Costs of one search.
#[derive(Clone, Copy, Debug)]
pub struct Costs {
    /// Cost of a step to a neighbouring point on one layer.
    pub step: u32,
    /// Extra cost of a step against the layer's preferred direction.
    pub wrong_way: u32,
    /// Cost of a step to the same point on an adjacent layer.
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
    /// The grid searched; the search reads it and never changes it.
    pub grid: &'a Grid,
    /// The net being connected (its index; the grid stores it as `net + 1`).
    pub net: u32,
    /// The preferred direction of layer `l` at index `l - 1`.
    pub preferred: &'a [Preferred],
    /// Step, wrong-way and via costs.
    pub costs: Costs,
    /// Columns the path may use, inclusive.
    pub window: (i64, i64),
    /// The path uses layers `1 ..= layers` (a borrowed layer above them is
    /// left out unless included here).
    pub layers: u32,
    /// Side columns the net may enter (`x = -1`, `x = C`).
    pub left_side: bool,
    /// The net may enter the right side column `x = C`.
    pub right_side: bool,
    /// When set, the path may also take other nets' cells off the pin rows
    /// at this extra cost (the caller rips those nets up and reroutes them).
    pub steal: Option<u32>,
}

/// The moves of a search out of cell `$c` (raster index `$i`, index `$k` in
/// the search's [`Frame`] `$frame`): runs `$body` with `$next`, `$j` (its
/// raster index), `$l` (its frame index) and `$cost` (the move's own cost,
/// before the price of entering `$next`) for each move the search allows
/// and its window holds, in the order x - 1, x + 1, layer - 1, layer + 1,
/// y - 1, y + 1, and sets `$window_bound` when an allowed move was left out
/// for leaving the window. Moves never run along a pin row or a side column,
/// enter a pin row only onto a target, and a cell above the search's layers
/// only steps down. Shared by the shortest-path search and the reachability
/// flood, so that both walk the same graph; a macro, so that each expands it
/// in its innermost loop (a closure-taking method cost a quarter more
/// instructions).
macro_rules! each_move {
    ($search:expr, $c:expr, $i:expr, $k:expr, $frame:expr, ($x0:expr, $x1:expr), $is_target:expr,
     $window_bound:ident, |$next:ident, $j:ident, $l:ident, $cost:ident| $body:block) => {{
        let s = $search;
        let g = s.grid;
        let (c, i, k): (Cell, usize, usize) = ($c, $i, $k);
        let row = (g.columns + 2) as usize;
        let plane = row * (g.width + 2) as usize;
        // The same steps in the frame.
        let (f_row, f_plane) = ($frame.columns, $frame.columns * $frame.rows);
        let top = g.top_row();
        let on_pin_row = c.y == 0 || c.y == top;
        let on_side = c.x == -1 || c.x == g.columns;
        let beyond = c.layer > s.layers;
        let pref = s.preferred[(c.layer - 1) as usize];
        if !on_pin_row {
            if !beyond {
                let along = s.costs.step
                    + if pref == Preferred::Vertical {
                        s.costs.wrong_way
                    } else {
                        0
                    };
                for (dx, j, l) in [
                    (-1i64, i.wrapping_sub(1), k.wrapping_sub(1)),
                    (1, i + 1, k + 1),
                ] {
                    let x = c.x + dx;
                    let side_ok = match x {
                        -1 => s.left_side,
                        x if x == g.columns => s.right_side,
                        _ => (0..g.columns).contains(&x),
                    };
                    if !side_ok {
                        continue;
                    }
                    let next = Cell::new(x, c.y, c.layer);
                    if x < $x0 || x > $x1 {
                        $window_bound |= s.price_at(next, j).is_some();
                        continue;
                    }
                    let ($next, $j, $l, $cost) = (next, j, l, along);
                    $body
                }
            }
            if !on_side {
                if c.layer > 1 {
                    let ($next, $j, $l, $cost) = (
                        Cell::new(c.x, c.y, c.layer - 1),
                        i - plane,
                        k - f_plane,
                        s.costs.via,
                    );
                    $body
                }
                if c.layer < s.layers {
                    let ($next, $j, $l, $cost) = (
                        Cell::new(c.x, c.y, c.layer + 1),
                        i + plane,
                        k + f_plane,
                        s.costs.via,
                    );
                    $body
                }
            }
        }
        if !on_side && !beyond {
            let across = s.costs.step
                + if pref == Preferred::Horizontal {
                    s.costs.wrong_way
                } else {
                    0
                };
            for (dy, j, l) in [
                (-1i64, i.wrapping_sub(row), k.wrapping_sub(f_row)),
                (1, i + row, k + f_row),
            ] {
                let ny = c.y + dy;
                if ny < 0 || ny > top {
                    continue;
                }
                let next = Cell::new(c.x, ny, c.layer);
                if (ny == 0 || ny == top) && !$is_target(next, j) {
                    continue;
                }
                let ($next, $j, $l, $cost) = (next, j, l, across);
                $body
            }
        }
    }};
}

impl Search<'_> {
    /// The extra cost of entering a cell (raster index `i`), or `None` when
    /// it cannot be used.
    #[inline]
    fn price_at(&self, c: Cell, i: usize) -> Option<u32> {
        let o = self.grid.owner_at(i);
        if o == 0 || o == self.net + 1 {
            return Some(0);
        }
        let p = self.steal?;
        // Pins, side exits and other groups' space are never taken.
        let boundary = c.y == 0
            || c.y == self.grid.top_row()
            || c.x == -1
            || c.x == self.grid.columns
            || o == BLOCKED;
        (!boundary).then_some(p)
    }

    /// The columns the search may use: its window, kept to the grid and
    /// its side columns.
    fn columns(&self) -> (i64, i64) {
        (self.window.0.max(-1), self.window.1.min(self.grid.columns))
    }

    /// The window's own indexing of its cells.
    fn frame(&self) -> Frame {
        let (x0, x1) = self.columns();
        let columns = (x1 - x0 + 1).max(0) as usize;
        let rows = (self.grid.width + 2) as usize;
        Frame {
            x0,
            columns,
            rows,
            size: columns * rows * self.grid.layers as usize,
        }
    }

    /// The sources on the grid and inside the window, with their raster
    /// indices; sets `window_bound` when a source on the grid lies outside
    /// the window.
    fn starts<'s>(
        &'s self,
        sources: &'s [Cell],
        window_bound: &'s mut bool,
    ) -> impl Iterator<Item = (usize, Cell)> + 's {
        let g = self.grid;
        let (x0, x1) = self.columns();
        sources.iter().copied().filter_map(move |s| {
            if !g.contains(s) {
                return None;
            }
            if s.x < x0 || s.x > x1 {
                *window_bound = true;
                return None;
            }
            Some((g.index(s), s))
        })
    }

    /// Cheapest path from any source to a cell where `is_target` holds (it
    /// is given the cell and its raster index),
    /// source first. Moves never run along a pin row or a side column.
    ///
    /// Most searches of the repairs reach no target, and a failed shortest
    /// path search visits every cell it can reach anyway: a plain flood
    /// over the same moves decides first, at a fraction of the cost, and
    /// the shortest path search runs only when a target is reachable.
    pub fn run(
        &self,
        sources: &[Cell],
        is_target: impl Fn(Cell, usize) -> bool,
    ) -> Result<Vec<Cell>, NotFound> {
        SCRATCH.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            match self.reach_in(&mut scratch, sources, &is_target, usize::MAX) {
                Flood::Reached => {}
                Flood::Exhausted { window_bound } => return Err(NotFound { window_bound }),
                Flood::OverBudget => unreachable!("the flood has no budget"),
            }
            let found = self.run_in(&mut scratch, sources, is_target);
            scratch.reset();
            found
        })
    }

    /// Whether the flood of [`Search::run`] from `sources` reaches a cell
    /// where `is_target` holds within this search's window, giving up
    /// (`None`) after entering `budget` cells.
    ///
    /// Inside the grid's columns and the search's layers every move is
    /// also a move back, except that a pin row is entered only onto a
    /// target: so between two sets of such cells that a search may start
    /// from, `A` reaches `B` exactly when `B` reaches `A` (within the same
    /// window). A caller can decide a search from the side that is walled
    /// in, which is the cheaper flood.
    pub fn reaches(
        &self,
        sources: &[Cell],
        is_target: impl Fn(Cell, usize) -> bool,
        budget: usize,
    ) -> Option<bool> {
        SCRATCH.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            match self.reach_in(&mut scratch, sources, &is_target, budget) {
                Flood::Reached => Some(true),
                Flood::Exhausted { .. } => Some(false),
                Flood::OverBudget => None,
            }
        })
    }

    /// Whether a target can be reached by the moves of [`Search::run`]
    /// (their costs aside), and if not, what a failed search reports (it
    /// visits the same cells); the flood gives up after entering `budget`
    /// cells.
    fn reach_in(
        &self,
        scratch: &mut Scratch,
        sources: &[Cell],
        is_target: &impl Fn(Cell, usize) -> bool,
        budget: usize,
    ) -> Flood {
        let mut budget = budget;
        let (x0, x1) = self.columns();
        let frame = self.frame();
        scratch.grow(frame.size);
        let Scratch { seen, stack, .. } = scratch;
        seen.clear();
        stack.clear();
        let mut window_bound = false;
        for (i, s) in self.starts(sources, &mut window_bound) {
            let k = frame.at(s);
            if seen.mark(k) {
                stack.push((i, k, s));
            }
        }
        while let Some((i, k, c)) = stack.pop() {
            // Enter each allowed cell not seen yet; a target ends the flood.
            each_move!(
                self,
                c,
                i,
                k,
                frame,
                (x0, x1),
                is_target,
                window_bound,
                |next, j, l, _cost| {
                    debug_assert_eq!(l, frame.at(next));
                    if !seen.is_marked(l) && self.price_at(next, j).is_some() {
                        if is_target(next, j) {
                            return Flood::Reached;
                        }
                        if budget == 0 {
                            return Flood::OverBudget;
                        }
                        budget -= 1;
                        seen.mark(l);
                        stack.push((j, l, next));
                    }
                }
            );
        }
        Flood::Exhausted { window_bound }
    }

    fn run_in(
        &self,
        scratch: &mut Scratch,
        sources: &[Cell],
        is_target: impl Fn(Cell, usize) -> bool,
    ) -> Result<Vec<Cell>, NotFound> {
        let g = self.grid;
        let (x0, x1) = self.columns();
        // The queue holds raster indices, which pop in (layer, y, x) order
        // at equal distance; distances and parents are kept by the
        // window's own index ([`Frame`]).
        let frame = self.frame();
        scratch.grow(frame.size);
        let longest =
            (self.costs.step + self.costs.wrong_way).max(self.costs.via) + self.steal.unwrap_or(0);
        scratch.queue.prepare(longest);
        let Scratch {
            dist,
            parent,
            touched,
            queue,
            ..
        } = scratch;
        // Whether the window kept the search from a source or a move.
        let mut window_bound = false;
        for (i, c) in self.starts(sources, &mut window_bound) {
            let k = frame.at(c);
            if dist[k] == u32::MAX {
                touched.push(k);
            }
            dist[k] = 0;
            queue.push(0, i);
        }
        while let Some((d, i)) = queue.pop() {
            let c = g.cell_at(i);
            let k = frame.at(c);
            if d > dist[k] {
                continue;
            }
            if d > 0 && is_target(c, i) {
                let mut path = vec![c];
                let mut at = c;
                loop {
                    let p = parent[frame.at(at)];
                    if p == NO_PARENT {
                        break;
                    }
                    at = g.cell_at(p as usize);
                    path.push(at);
                }
                path.reverse();
                return Ok(path);
            }
            each_move!(
                self,
                c,
                i,
                k,
                frame,
                (x0, x1),
                is_target,
                window_bound,
                |next, j, l, cost| {
                    debug_assert_eq!(l, frame.at(next));
                    if let Some(toll) = self.price_at(next, j) {
                        let nd = d + cost + toll;
                        if nd < dist[l] {
                            if dist[l] == u32::MAX {
                                touched.push(l);
                            }
                            dist[l] = nd;
                            parent[l] = i as u32;
                            queue.push(nd, j);
                        }
                    }
                }
            );
        }
        Err(NotFound { window_bound })
    }
}

/// How a reachability flood ended.
enum Flood {
    Reached,
    /// No target reachable; `window_bound` as in [`NotFound`].
    Exhausted {
        window_bound: bool,
    },
    /// It gave up at its budget of cells.
    OverBudget,
}

/// The cells of every piece but `comps[si]`: where a flood back towards
/// that piece starts ([`Search::reaches`]).
pub fn other_pieces(comps: &[Vec<Cell>], si: usize) -> Vec<Cell> {
    comps
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != si)
        .flat_map(|(_, c)| c.iter().copied())
        .collect()
}

/// A search that reached no target. Unless `window_bound`, no source lay
/// outside the window and no allowed move left it: every cell the search
/// could reach lies inside, so a wider window would fail too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotFound {
    /// A source or an allowed move lay outside the window.
    pub window_bound: bool,
}

/// Distances, parents (raster indices) and flood marks of a search by its
/// window's own index ([`Frame`]), kept between searches on a thread and
/// reset entry by entry (a search usually touches a small part of its
/// window). Sized to a window, not to the grid: on a long channel a grid
/// of raster-indexed scratch is tens of megabytes on each thread, mapped
/// anew on every new thread.
#[derive(Default)]
struct Scratch {
    dist: Vec<u32>,
    parent: Vec<u32>,
    touched: Vec<usize>,
    queue: Buckets,
    /// The reachability flood's marks and stack.
    seen: Marks,
    stack: Vec<(usize, usize, Cell)>,
}

/// No parent: a search's source. Raster indices fit in 32 bits.
const NO_PARENT: u32 = u32::MAX;

impl Scratch {
    /// Room for `n` window indices.
    fn grow(&mut self, n: usize) {
        if self.dist.len() < n {
            self.dist.resize(n, u32::MAX);
            self.parent.resize(n, NO_PARENT);
            self.seen.grow(n, n);
        }
    }

    fn reset(&mut self) {
        for &i in &self.touched {
            self.dist[i] = u32::MAX;
            self.parent[i] = NO_PARENT;
        }
        self.touched.clear();
        self.queue.clear();
    }
}

/// A search's own indexing of the cells it may enter: the columns of its
/// window (side columns included) on every row and layer of the grid, in
/// (layer, y, x) order like the grid's raster, so indices of both orders
/// sort alike.
#[derive(Clone, Copy)]
struct Frame {
    x0: i64,
    columns: usize,
    rows: usize,
    /// How many indices.
    size: usize,
}

impl Frame {
    /// The index of a cell inside the window.
    #[inline]
    fn at(&self, c: Cell) -> usize {
        debug_assert!(c.x >= self.x0 && ((c.x - self.x0) as usize) < self.columns);
        ((c.layer as usize - 1) * self.rows + c.y as usize) * self.columns
            + (c.x - self.x0) as usize
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// A monotone priority queue for small integer step costs (Dial's buckets):
/// pops `(distance, index)` pairs in increasing order of both, exactly as a
/// binary heap of the pairs would, when every push is at most `longest`
/// beyond the distance last popped and never at it.
#[derive(Default)]
struct Buckets {
    ring: Vec<Vec<usize>>,
    /// The bucket being emptied, sorted descending so `pop` takes its end.
    current: Vec<usize>,
    distance: u32,
    pending: usize,
}

impl Buckets {
    #[cfg(test)]
    fn new(longest: u32) -> Self {
        let mut b = Buckets::default();
        b.prepare(longest);
        b
    }

    /// Make room for pushes up to `longest` beyond the last pop (an empty
    /// queue keeps its buckets' storage).
    fn prepare(&mut self, longest: u32) {
        let size = (longest as usize + 1).next_power_of_two();
        if self.ring.len() < size {
            self.ring.resize(size, Vec::new());
        }
    }

    /// Empty the queue, keeping its storage.
    fn clear(&mut self) {
        if self.pending > 0 {
            self.ring.iter_mut().for_each(Vec::clear);
        }
        self.current.clear();
        self.distance = 0;
        self.pending = 0;
    }

    fn push(&mut self, d: u32, i: usize) {
        debug_assert!(d >= self.distance && (d - self.distance) < self.ring.len() as u32);
        let mask = self.ring.len() - 1;
        self.ring[d as usize & mask].push(i);
        self.pending += 1;
    }

    fn pop(&mut self) -> Option<(u32, usize)> {
        if let Some(i) = self.current.pop() {
            return Some((self.distance, i));
        }
        if self.pending == 0 {
            return None;
        }
        let mask = self.ring.len() - 1;
        loop {
            let bucket = &mut self.ring[self.distance as usize & mask];
            if !bucket.is_empty() {
                std::mem::swap(&mut self.current, bucket);
                self.pending -= self.current.len();
                self.current.sort_unstable_by(|a, b| b.cmp(a));
                let i = self.current.pop().expect("a non-empty bucket");
                return Some((self.distance, i));
            }
            self.distance += 1;
        }
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

#[cfg(test)]
mod tests {
    use super::Buckets;
    use rand::{Rng, SeedableRng};
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// A search on layers 1..=2 of a 3-layer grid: a source cell on layer 3
    /// only steps down, so a target reachable only along layer 3 is not found;
    /// with layer 3 included it is.
    #[test]
    fn a_search_keeps_to_its_layers() {
        use super::super::grid::{Cell, Grid};
        use super::{Costs, NotFound, Preferred, Search};
        let mut g = Grid::new(8, 3, 3, 2);
        // Wall off layers 1 and 2 at column 4 (rows 1..=3) with net 1.
        for l in 1..=2 {
            for y in 1..=3 {
                g.claim(Cell::new(4, y, l), 1);
            }
        }
        let preferred = [Preferred::Horizontal, Preferred::Vertical, Preferred::Any];
        let search = |layers: u32| Search {
            grid: &g,
            net: 0,
            preferred: &preferred,
            costs: Costs::default(),
            window: (0, 7),
            layers,
            left_side: false,
            right_side: false,
            steal: None,
        };
        let source = [Cell::new(1, 2, 3)];
        let target = |c: Cell, _: usize| c == Cell::new(6, 2, 1);
        assert_eq!(
            search(2).run(&source, target),
            Err(NotFound {
                window_bound: false
            })
        );
        let path = search(3)
            .run(&source, target)
            .expect("around the wall on layer 3");
        assert_eq!(path.last(), Some(&Cell::new(6, 2, 1)));
        // A window short of the way round reports that it was in the way.
        let narrow = Search {
            window: (0, 5),
            ..search(3)
        };
        assert_eq!(
            narrow.run(&source, target),
            Err(NotFound { window_bound: true })
        );
    }

    #[test]
    fn buckets_pop_in_the_order_of_a_binary_heap() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        for _ in 0..200 {
            let longest = rng.gen_range(1..20u32);
            let mut buckets = Buckets::new(longest);
            let mut heap = BinaryHeap::new();
            for _ in 0..rng.gen_range(1..5) {
                let i = rng.gen_range(0..50usize);
                buckets.push(0, i);
                heap.push(Reverse((0u32, i)));
            }
            let mut popped = 0;
            while let Some(Reverse(want)) = heap.pop() {
                let got = buckets.pop().expect("as many entries as the heap");
                assert_eq!(got, want);
                popped += 1;
                // Pushes strictly after the popped distance, within reach.
                if popped < 300 {
                    for _ in 0..rng.gen_range(0..3) {
                        let d = want.0 + rng.gen_range(1..=longest);
                        let i = rng.gen_range(0..50usize);
                        buckets.push(d, i);
                        heap.push(Reverse((d, i)));
                    }
                }
            }
            assert_eq!(buckets.pop(), None);
        }
    }

    /// Free about half of a net's track cells (the caller rolls the grid
    /// back) and label the pieces left.
    fn cut(g: &mut super::Grid, rng: &mut impl Rng, net: u32) -> Vec<Vec<super::Cell>> {
        for c in g.cells_of(net) {
            if c.y > 0 && c.y <= g.width && rng.gen_bool(0.5) {
                g.release(c);
            }
        }
        g.label_components(net)
    }

    /// The flood's verdict against the shortest path search alone: for cut
    /// nets of raw routings (some of a net's track cells freed), searches
    /// from one piece towards the others, in windows of several widths,
    /// with and without rip-up, reach a target in both or fail in both with
    /// the same report.
    #[test]
    fn the_flood_decides_as_the_shortest_path_search() {
        use super::super::tests::raw_grids;
        use super::{Cell, Costs, Flood, NotFound, Preferred, Scratch, Search};
        use crate::channel::problem::NetId;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
        let (mut reached, mut failed) = (0, 0);
        for (p, mut g) in raw_grids(12, 100) {
            let preferred = vec![Preferred::Any; g.layers as usize];
            for _ in 0..12 {
                let net = rng.gen_range(0..p.nets().len()) as u32;
                let mark = g.mark();
                let comps = cut(&mut g, &mut rng, net);
                if comps.len() >= 2 {
                    let si = rng.gen_range(0..comps.len());
                    let x = comps[si][rng.gen_range(0..comps[si].len())].x;
                    let reach = [0, 1, 3, 9, 27][rng.gen_range(0..5)];
                    let info = p.net(NetId(net));
                    let search = Search {
                        grid: &g,
                        net,
                        preferred: &preferred,
                        costs: Costs::default(),
                        window: (x - reach, x + reach),
                        layers: rng.gen_range(1..=g.layers),
                        left_side: info.left,
                        right_side: info.right,
                        steal: rng.gen_bool(0.3).then_some(12),
                    };
                    let target = |_: Cell, i: usize| {
                        g.owner_at(i) == net + 1 && g.component_at(i).is_some_and(|k| k != si)
                    };
                    let mut scratch = Scratch::default();
                    let alone = search.run_in(&mut scratch, &comps[si], target);
                    scratch.reset();
                    let flood = search.reach_in(&mut scratch, &comps[si], &target, usize::MAX);
                    match (alone, flood) {
                        (Ok(_), Flood::Reached) => reached += 1,
                        (Err(a), Flood::Exhausted { window_bound }) => {
                            assert_eq!(a, NotFound { window_bound }, "{} net {net}", p.name());
                            failed += 1;
                        }
                        (a, _) => panic!("{} net {net}: search {a:?}, flood disagrees", p.name()),
                    }
                }
                g.rollback(mark);
            }
        }
        assert!(
            reached > 300 && failed > 150,
            "{reached} reached, {failed} failed"
        );
    }

    /// The symmetry [`Search::reaches`] states: between a net's pieces
    /// inside the grid's columns and the search's layers, one piece reaches
    /// the others exactly when the others reach it, in the same window, on
    /// cut nets of raw routings (as in the test above). A budget too small
    /// gives up rather than answer.
    #[test]
    fn reaching_is_symmetric() {
        use super::super::tests::raw_grids;
        use super::{Cell, Costs, Preferred, Search};
        use crate::channel::problem::NetId;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(32);
        let (mut reached, mut failed, mut gave_up) = (0, 0, 0);
        for (p, mut g) in raw_grids(13, 100) {
            let preferred = vec![Preferred::Any; g.layers as usize];
            for _ in 0..40 {
                let net = rng.gen_range(0..p.nets().len()) as u32;
                let mark = g.mark();
                let comps = cut(&mut g, &mut rng, net);
                let layers = rng.gen_range(1..=g.layers);
                let inside = |c: &Cell| c.x >= 0 && c.x < g.columns && c.layer <= layers;
                if comps.len() >= 2 && comps.iter().flatten().all(inside) {
                    let si = rng.gen_range(0..comps.len());
                    let x = comps[si][rng.gen_range(0..comps[si].len())].x;
                    let reach = [0, 1, 3, 9, 27, 81][rng.gen_range(0..6)];
                    let info = p.net(NetId(net));
                    let search = Search {
                        grid: &g,
                        net,
                        preferred: &preferred,
                        costs: Costs::default(),
                        window: (x - reach, x + reach),
                        layers,
                        left_side: info.left,
                        right_side: info.right,
                        steal: rng.gen_bool(0.3).then_some(12),
                    };
                    let others = super::other_pieces(&comps, si);
                    let is_net = |i: usize| g.owner_at(i) == net + 1;
                    let forth = search.reaches(
                        &comps[si],
                        |_, i| is_net(i) && g.component_at(i).is_some_and(|k| k != si),
                        usize::MAX,
                    );
                    let back = search.reaches(
                        &others,
                        |_, i| is_net(i) && g.component_at(i) == Some(si),
                        usize::MAX,
                    );
                    assert_eq!(forth, back, "{} net {net}", p.name());
                    match forth {
                        Some(true) => reached += 1,
                        _ => failed += 1,
                    }
                    let small = search.reaches(
                        &others,
                        |_, i| is_net(i) && g.component_at(i) == Some(si),
                        3,
                    );
                    assert!(small.is_none() || small == back, "{} net {net}", p.name());
                    gave_up += small.is_none() as usize;
                }
                g.rollback(mark);
            }
        }
        assert!(
            reached > 500 && failed > 100 && gave_up > 300,
            "{reached} reached, {failed} failed, {gave_up} gave up"
        );
    }
}
