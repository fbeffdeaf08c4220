//! Negotiated-congestion rip-up and reroute (after PathFinder) on the
//! channel grid: the fallback that routes what the reserved-layer router
//! cannot, for example two nets swapping sides in two adjacent columns,
//! which needs both layers in both directions.
//!
//! Every net is a Steiner tree grown by shortest paths from its tree to its
//! nearest unconnected terminal. Cells may be shared while nets negotiate: a
//! cell used by others costs more each round (present congestion) and more
//! for every round it was overused (history). The rounds stop when no cell is
//! shared, or after a fixed number of rounds (then the caller widens the
//! channel). Wrong-way steps cost extra, so the result stays mostly reserved.

use crate::channel::grid::{Cell, Grid};
use crate::channel::problem::{ChannelProblem, NetId, Side};
use crate::channel::search::Preferred;
use crate::channel::search::{Dijkstra, Heap, Policy};

const ROUNDS: usize = 40;
/// Columns beyond a net's span its paths may use.
const MARGIN: i64 = 6;

struct State<'a> {
    problem: &'a ChannelProblem,
    columns: i64,
    rows: i64,
    layers: u32,
    preferred: &'a [Preferred],
    /// Nets using each cell.
    users: Vec<u16>,
    history: Vec<u32>,
    /// The pin owner of pin-row cells (`net + 1`), 0 elsewhere.
    pin: Vec<u32>,
    /// Each net's tree: cells and joined pairs.
    trees: Vec<Vec<(usize, usize)>>,
    cells: Vec<Vec<usize>>,
}

impl State<'_> {
    fn index(&self, c: Cell) -> usize {
        (((c.layer - 1) as i64 * (self.rows + 2) + c.y) * (self.columns + 2) + c.x + 1) as usize
    }

    fn cell(&self, i: usize) -> Cell {
        let cols = (self.columns + 2) as usize;
        let rows = (self.rows + 2) as usize;
        Cell::new(
            (i % cols) as i64 - 1,
            ((i / cols) % rows) as i64,
            (i / cols / rows) as u32 + 1,
        )
    }

    /// The net's terminals: each pin (all its layers, a contact) and each
    /// side (any track point of the side column), with whether it is a side.
    fn terminals(&self, net: u32) -> Vec<(Vec<usize>, bool)> {
        let n = self.problem.net(NetId(net));
        let mut out: Vec<(Vec<usize>, bool)> = n
            .pins
            .iter()
            .map(|p| {
                let y = if p.side == Side::Bottom {
                    0
                } else {
                    self.rows + 1
                };
                let cells = (1..=self.layers)
                    .map(|l| self.index(Cell::new(p.column as i64, y, l)))
                    .collect();
                (cells, false)
            })
            .collect();
        for (want, x) in [(n.left, -1), (n.right, self.columns)] {
            if want {
                let cells = (1..=self.layers)
                    .flat_map(|l| (1..=self.rows).map(move |y| (l, y)))
                    .map(|(l, y)| self.index(Cell::new(x, y, l)))
                    .collect();
                out.push((cells, true));
            }
        }
        out
    }

    fn rip_up(&mut self, net: u32) {
        for &i in &self.cells[net as usize] {
            self.users[i] -= 1;
        }
        self.cells[net as usize].clear();
        self.trees[net as usize].clear();
    }

    /// Grow the net's tree over all its terminals; `pres` scales the price
    /// of cells other nets use. Leaves the net empty if a terminal cannot be
    /// reached at all.
    fn route_net(&mut self, net: u32, pres: u32) {
        let info = self.problem.net(NetId(net));
        // Paths stay within a margin of the net's span.
        let (lo, hi) = info.span(self.problem.columns());
        let window = (lo - MARGIN, hi + MARGIN);
        let mut terms = self.terminals(net);
        let (seed, seed_is_side) = terms.remove(0);
        // Search arrays cover the window only.
        let x0 = window.0.max(-1);
        let x1 = window.1.min(self.columns);
        let wcols = (x1 - x0 + 1) as usize;
        let wrows = (self.rows + 2) as usize;
        let local = |c: Cell| -> usize {
            ((c.layer - 1) as usize * wrows + c.y as usize) * wcols + (c.x - x0) as usize
        };
        let m = wcols * wrows * self.layers as usize;
        let mut in_tree = vec![false; m];
        // A side seed only offers start points; the tree keeps the one used.
        let mut tree_cells: Vec<usize> = Vec::new();
        let mut sources: Vec<usize> = seed.clone();
        if !seed_is_side {
            for &i in &seed {
                in_tree[local(self.cell(i))] = true;
            }
            tree_cells.extend(&seed);
        }
        let mut search: Dijkstra<Heap> = Dijkstra::default();
        search.grow(m);
        let mut is_term = vec![usize::MAX; m];
        let exits = Exits::of(info.left, info.right);
        while !terms.is_empty() {
            is_term.iter_mut().for_each(|t| *t = usize::MAX);
            for (k, (t, _)) in terms.iter().enumerate() {
                for &i in t {
                    is_term[local(self.cell(i))] = k;
                }
            }
            search.reset();
            for &i in &sources {
                search.start(i, local(self.cell(i)));
            }
            let reached = search.run(&mut Congestion {
                state: self,
                mine: net + 1,
                pres,
                window: (x0, x1),
                local: &local,
                is_term: &is_term,
                exits,
            });
            let Some(end) = reached else {
                self.trees[net as usize].clear();
                return;
            };
            let (term, term_is_side) = terms.remove(is_term[local(self.cell(end))]);
            let mut j = end;
            loop {
                if !in_tree[local(self.cell(j))] {
                    in_tree[local(self.cell(j))] = true;
                    tree_cells.push(j);
                }
                let Some(p) = search.parent(local(self.cell(j))) else {
                    break;
                };
                self.trees[net as usize].push((p, j));
                j = p;
            }
            if !term_is_side {
                for i in term {
                    if !in_tree[local(self.cell(i))] {
                        in_tree[local(self.cell(i))] = true;
                        tree_cells.push(i);
                    }
                }
            }
            sources = tree_cells.clone();
        }
        for &i in &tree_cells {
            self.users[i] += 1;
        }
        self.cells[net as usize] = tree_cells;
    }

    /// Calls `f(next, cost)` for each move out of `c` the net's side
    /// `exits` allow, in the order x - 1, x + 1, layer - 1, layer + 1,
    /// y - 1, y + 1: never along a pin row or a side column.
    #[inline(always)]
    fn moves(&self, c: Cell, exits: Exits, mut f: impl FnMut(Cell, u32)) {
        let top = self.rows + 1;
        let pref = self.preferred[(c.layer - 1) as usize];
        let (h, v) = (pref.along(1, 4), pref.across(1, 4));
        let on_pin_row = c.y == 0 || c.y == top;
        let on_side = c.x == -1 || c.x == self.columns;
        if !on_pin_row {
            if let Some(h) = h {
                for dx in [-1, 1] {
                    let x = c.x + dx;
                    let ok = match x {
                        -1 => exits.left(),
                        x if x == self.columns => exits.right(),
                        x => (0..self.columns).contains(&x),
                    };
                    if ok {
                        f(Cell::new(x, c.y, c.layer), h);
                    }
                }
            }
            if !on_side {
                if c.layer > 1 {
                    f(Cell::new(c.x, c.y, c.layer - 1), 3);
                }
                if c.layer < self.layers {
                    f(Cell::new(c.x, c.y, c.layer + 1), 3);
                }
            }
        }
        if let (false, Some(v)) = (on_side, v) {
            for dy in [-1, 1] {
                let y = c.y + dy;
                if (0..=top).contains(&y) && !(on_pin_row && (y == 0 || y == top)) {
                    f(Cell::new(c.x, y, c.layer), v);
                }
            }
        }
    }
}

/// The side columns a net may enter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Exits {
    Neither,
    Left,
    Right,
    Both,
}

impl Exits {
    /// The exits of a net that may leave on the left and on the right as
    /// given.
    fn of(left: bool, right: bool) -> Self {
        match (left, right) {
            (false, false) => Exits::Neither,
            (true, false) => Exits::Left,
            (false, true) => Exits::Right,
            (true, true) => Exits::Both,
        }
    }

    fn left(self) -> bool {
        matches!(self, Exits::Left | Exits::Both)
    }

    fn right(self) -> bool {
        matches!(self, Exits::Right | Exits::Both)
    }
}

/// The cost policy of a net's search: nodes are raster indices, slots the
/// index of the net's window; a cell costs its step, its history and its
/// present users at the round's price; a terminal not joined yet ends the
/// search. Pin rows are entered only at the net's own pins.
struct Congestion<'s, 'a, F> {
    state: &'s State<'a>,
    /// The net routed, as the pins hold it (`net + 1`).
    mine: u32,
    pres: u32,
    /// Columns the paths may use, inclusive.
    window: (i64, i64),
    local: &'s F,
    is_term: &'s [usize],
    exits: Exits,
}

impl<F: Fn(Cell) -> usize> Policy for Congestion<'_, '_, F> {
    type At = Cell;

    #[inline(always)]
    fn locate(&self, i: usize) -> (usize, Cell) {
        let c = self.state.cell(i);
        ((self.local)(c), c)
    }

    #[inline(always)]
    fn is_goal(&self, _: usize, c: Cell, _: u32) -> bool {
        self.is_term[(self.local)(c)] != usize::MAX
    }

    #[inline(always)]
    fn each_move(&mut self, _: usize, _: usize, c: Cell, mut step: impl FnMut(usize, usize, u32)) {
        let st = self.state;
        let (x0, x1) = self.window;
        st.moves(c, self.exits, |next, cost| {
            if next.x < x0 || next.x > x1 {
                return;
            }
            let j = st.index(next);
            let pin_row = next.y == 0 || next.y == st.rows + 1;
            if (pin_row || st.pin[j] != 0) && st.pin[j] != self.mine {
                return;
            }
            let price = cost + st.history[j] + st.users[j] as u32 * self.pres;
            step(j, (self.local)(next), price);
        });
    }
}

/// Route with `rows` tracks; the grid when the negotiation converges.
pub fn route(problem: &ChannelProblem, rows: i64, preferred: &[Preferred]) -> Option<Grid> {
    let layers = preferred.len() as u32;
    let columns = problem.columns() as i64;
    let n = (columns as usize + 2) * (rows as usize + 2) * layers as usize;
    let mut st = State {
        problem,
        columns,
        rows,
        layers,
        preferred,
        users: vec![0; n],
        history: vec![0; n],
        pin: vec![0; n],
        trees: vec![Vec::new(); problem.nets().len()],
        cells: vec![Vec::new(); problem.nets().len()],
    };
    for x in 0..columns {
        for (net, y) in [
            (problem.bottom()[x as usize], 0),
            (problem.top()[x as usize], rows + 1),
        ] {
            if let Some(id) = net {
                for l in 1..=layers {
                    let i = st.index(Cell::new(x, y, l));
                    st.pin[i] = id.0 + 1;
                }
            }
        }
    }
    let nets: Vec<u32> = problem.net_ids().map(|id| id.0).collect();
    let mut pres = 1u32;
    // The first round routes every net; later rounds reroute only the nets
    // that share a cell with another net.
    let mut todo = nets.clone();
    for _ in 0..ROUNDS {
        for &net in &todo {
            st.rip_up(net);
            st.route_net(net, pres);
            if st.cells[net as usize].is_empty() {
                // A terminal walled in by other nets' pins: more rounds
                // cannot help.
                return None;
            }
        }
        let shared: Vec<usize> = (0..n).filter(|&i| st.users[i] > 1).collect();
        if shared.is_empty() {
            let mut g = Grid::new(problem.columns(), rows as u32, layers, problem.nets().len());
            for &net in &nets {
                for &i in &st.cells[net as usize] {
                    g.claim(st.cell(i), net);
                }
                for &(a, b) in &st.trees[net as usize] {
                    g.connect(st.cell(a), st.cell(b));
                }
            }
            return Some(g);
        }
        let mut congested = vec![false; n];
        for &i in &shared {
            st.history[i] += 2;
            congested[i] = true;
        }
        todo = nets
            .iter()
            .copied()
            .filter(|&net| st.cells[net as usize].iter().any(|&i| congested[i]))
            .collect();
        pres = pres * 3 / 2 + 1;
    }
    None
}
