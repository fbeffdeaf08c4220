//! Lee-style shortest-path search on the routing grid (Dijkstra with small
//! integer costs), limited to a window of columns. Used to connect a pin to
//! its net's tree when the straight stub is blocked (YACR2's maze steps,
//! generalised to any path through free space on any layer).

use crate::channel::grid::{Cell, Grid, Marks, PointState};
use crate::channel::search::{Buckets, Dijkstra, Policy, Preferred};

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
     $window_bound:expr, |$next:ident, $j:ident, $l:ident, $cost:ident| $body:block) => {{
        let s = $search;
        let g = s.grid;
        let (c, i, k): (Cell, usize, usize) = ($c, $i, $k);
        let row = (g.extent.columns + 2) as usize;
        let plane = row * (g.extent.width + 2) as usize;
        // The same steps in the frame.
        let (f_row, f_plane) = ($frame.columns, $frame.columns * $frame.rows);
        let top = g.top_row();
        let on_pin_row = c.y == 0 || c.y == top;
        let on_side = c.x == -1 || c.x == g.extent.columns;
        let beyond = c.layer > s.layers;
        let pref = s.preferred[(c.layer - 1) as usize];
        if !on_pin_row {
            if let Some(along) = pref
                .along(s.costs.step, s.costs.wrong_way)
                .filter(|_| !beyond)
            {
                for (dx, j, l) in [
                    (-1i64, i.wrapping_sub(1), k.wrapping_sub(1)),
                    (1, i + 1, k + 1),
                ] {
                    let x = c.x + dx;
                    let side_ok = match x {
                        -1 => s.left_side,
                        x if x == g.extent.columns => s.right_side,
                        _ => (0..g.extent.columns).contains(&x),
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
        if let Some(across) = pref
            .across(s.costs.step, s.costs.wrong_way)
            .filter(|_| !on_side && !beyond)
        {
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
        let state = self.grid.state_at(i);
        if state == PointState::Free || state == PointState::Net(self.net) {
            return Some(0);
        }
        let p = self.steal?;
        // Pins, side exits and other groups' space are never taken.
        let boundary = c.y == 0
            || c.y == self.grid.top_row()
            || c.x == -1
            || c.x == self.grid.extent.columns
            || state == PointState::Blocked;
        (!boundary).then_some(p)
    }

    /// The columns the search may use: its window, kept to the grid and
    /// its side columns.
    fn columns(&self) -> (i64, i64) {
        (
            self.window.0.max(-1),
            self.window.1.min(self.grid.extent.columns),
        )
    }

    /// The window's own indexing of its cells.
    fn frame(&self) -> Frame {
        let (x0, x1) = self.columns();
        let columns = (x1 - x0 + 1).max(0) as usize;
        let rows = (self.grid.extent.width + 2) as usize;
        Frame {
            x0,
            columns,
            rows,
            size: columns * rows * self.grid.extent.layers as usize,
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
    /// also a move back (whether a step is allowed depends on its layer
    /// alone, so a direction rule keeps this), except that a pin row is
    /// entered only onto a target: so between two sets of such cells that a search may start
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
        // The queue holds raster indices, which pop in (layer, y, x) order
        // at equal distance; distances and parents are kept by the
        // window's own index ([`Frame`]).
        let frame = self.frame();
        let search = &mut scratch.search;
        search.grow(frame.size);
        let longest =
            (self.costs.step + self.costs.wrong_way).max(self.costs.via) + self.steal.unwrap_or(0);
        search.prepare(longest);
        let mut policy = Maze {
            search: self,
            frame,
            columns: self.columns(),
            is_target,
            window_bound: false,
        };
        for (i, c) in self.starts(sources, &mut policy.window_bound) {
            search.start(i, frame.at(c));
        }
        match search.run(&mut policy) {
            Some(end) => {
                let path = search.path(end, |i| frame.at(g.cell_at(i)));
                Ok(path.into_iter().map(|i| g.cell_at(i)).collect())
            }
            None => Err(NotFound {
                window_bound: policy.window_bound,
            }),
        }
    }
}

/// The cost policy of [`Search::run`]: nodes are raster indices, slots the
/// window's own index; a target ends the search (a source does not).
struct Maze<'s, 'a, T> {
    search: &'s Search<'a>,
    frame: Frame,
    columns: (i64, i64),
    is_target: T,
    /// Whether the window kept the search from a source or a move.
    window_bound: bool,
}

impl<T: Fn(Cell, usize) -> bool> Policy for Maze<'_, '_, T> {
    type At = Cell;

    #[inline(always)]
    fn locate(&self, i: usize) -> (usize, Cell) {
        let c = self.search.grid.cell_at(i);
        (self.frame.at(c), c)
    }

    #[inline(always)]
    fn is_goal(&self, i: usize, c: Cell, d: u32) -> bool {
        d > 0 && (self.is_target)(c, i)
    }

    #[inline(always)]
    fn each_move(&mut self, i: usize, k: usize, c: Cell, mut step: impl FnMut(usize, usize, u32)) {
        let s = self.search;
        let frame = self.frame;
        let (x0, x1) = self.columns;
        let is_target = &self.is_target;
        each_move!(
            s,
            c,
            i,
            k,
            frame,
            (x0, x1),
            is_target,
            self.window_bound,
            |next, j, l, cost| {
                debug_assert_eq!(l, frame.at(next));
                if let Some(toll) = s.price_at(next, j) {
                    step(j, l, cost + toll);
                }
            }
        );
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

/// The searches' scratch space by the window's own index ([`Frame`]):
/// the shortest path search's distances and parents (raster indices) and
/// the flood's marks, kept between searches on a thread and reset entry by
/// entry (a search usually touches a small part of its window). Sized to a
/// window, not to the grid: on a long channel a grid of raster-indexed
/// scratch is tens of megabytes on each thread, mapped anew on every new
/// thread.
#[derive(Default)]
struct Scratch {
    search: Dijkstra<Buckets>,
    /// The reachability flood's marks and stack.
    seen: Marks,
    stack: Vec<(usize, usize, Cell)>,
}

impl Scratch {
    /// Room for `n` window indices.
    fn grow(&mut self, n: usize) {
        self.search.grow(n);
        self.seen.grow(n, n);
    }

    fn reset(&mut self) {
        self.search.reset();
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
#[path = "maze_tests.rs"]
mod tests;
