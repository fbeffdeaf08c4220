//! Local negotiated rip-up and reroute: free every track cell in a window of
//! columns and let the nets that lost cells (and the nets of a conflict)
//! negotiate the window's space, PathFinder style, with everything outside
//! the window fixed. It repairs the conflicts that single-net searches
//! cannot, such as chains of nets swapping sides in neighbouring columns.

use crate::channel::grid::{Cell, Grid, Marks, PointState, BLOCKED};
use crate::channel::search::Preferred;
use crate::channel::search::{Dijkstra, Heap, Policy};
use crate::graph::UnionFind;

const ROUNDS: usize = 24;

/// Reroute the window `x0 ..= x1` (clamped to the columns); `extra` nets
/// take part even if they own no cell there. On failure the grid is as it
/// was.
pub fn negotiate(g: &mut Grid, preferred: &[Preferred], x0: i64, x1: i64, extra: &[u32]) -> bool {
    let (x0, x1) = (x0.max(0), x1.min(g.extent.columns - 1));
    if x0 > x1 {
        return false;
    }
    let mark = g.mark();
    // The nets in the window (and the extra ones) and how many pieces each
    // was in; then rip up the window.
    let owned = track_cells(g, x0, x1);
    let mut nets: Vec<u32> = extra.to_vec();
    nets.extend(owned.iter().map(|&(_, net)| net));
    nets.sort_unstable();
    nets.dedup();
    // How each net was joined across the cells about to be freed: a net's
    // pieces before are its pieces after, joined through those cells (see
    // `pieces_of`), so no net is flooded twice.
    let joints = window_joints(g, &owned);
    free_window(g, &owned);
    let cols = (x1 - x0 + 1) as usize;
    let rows = (g.extent.width + 2) as usize;
    let size = cols * rows * g.extent.layers as usize;
    let local =
        |c: Cell| ((c.layer - 1) as usize * rows + c.y as usize) * cols + (c.x - x0) as usize;
    let unlocal = |i: usize| {
        Cell::new(
            (i % cols) as i64 + x0,
            ((i / cols) % rows) as i64,
            (i / cols / rows) as u32 + 1,
        )
    };
    let mut users = vec![0u16; size];
    let mut history = vec![0u32; size];
    // The overused cells of the round.
    let mut hot = vec![false; size];
    let mut paths: Vec<Vec<Vec<usize>>> = vec![Vec::new(); nets.len()];
    let mut pres = 1u32;
    let mut todo: Vec<usize> = (0..nets.len()).collect();
    // The pieces of each net do not change while the rounds negotiate (the
    // paths are claimed only at the end): find them once.
    let mut window = Window::new(g, preferred, x0, cols, rows);
    let group = &mut window.cells.group;
    let pieces: Vec<Pieces> = nets
        .iter()
        .map(|&n| {
            let from = joints.partition_point(|j| j.0 < n);
            let to = joints.partition_point(|j| j.0 <= n);
            pieces_of(g, n, (x0, x1), &joints[from..to], group, &local)
        })
        .collect();
    let before: Vec<usize> = pieces.iter().map(|p| p.before).collect();
    let mut seen = Marks::new(size);
    for _ in 0..ROUNDS {
        for &k in &todo {
            each_distinct(&mut seen, &paths[k], |i| users[i] -= 1);
            paths[k].clear();
            let Some(found) = window.route_net(nets[k], &pieces[k], &users, &history, pres) else {
                g.rollback(mark);
                return false;
            };
            each_distinct(&mut seen, &found, |i| users[i] += 1);
            paths[k] = found;
        }
        if users.iter().all(|&u| u <= 1) {
            for (k, ps) in paths.iter().enumerate() {
                for p in ps {
                    let cells: Vec<Cell> = p.iter().map(|&i| unlocal(i)).collect();
                    for &c in &cells {
                        g.claim(c, nets[k]);
                    }
                    for w in cells.windows(2) {
                        g.connect(w[0], w[1]);
                    }
                    // Join the path's ends to the net's cells just outside.
                    for &c in [cells[0], cells[cells.len() - 1]].iter() {
                        for dx in [-1, 1] {
                            let n = Cell::new(c.x + dx, c.y, c.layer);
                            if (n.x < x0 || n.x > x1)
                                && g.contains(n)
                                && g.owner(n) == nets[k] + 1
                                && c.y > 0
                                && c.y <= g.extent.width
                            {
                                g.connect(c, n);
                            }
                        }
                    }
                }
            }
            // Every net is in no more pieces than before (the pieces that do
            // not reach the window are other repairs' business).
            let ok = nets
                .iter()
                .zip(&before)
                .all(|(&n, &k)| g.count_components(n) <= k);
            if ok {
                g.commit_trial(mark);
                return true;
            }
            g.rollback(mark);
            return false;
        }
        for i in 0..size {
            hot[i] = users[i] > 1;
            if hot[i] {
                history[i] += 1;
            }
        }
        todo = (0..nets.len())
            .filter(|&k| paths[k].iter().flatten().any(|&i| hot[i]))
            .collect();
        pres = pres * 2 + 1;
    }
    g.rollback(mark);
    false
}

/// The track cells (rows `1 ..= W`) in columns `x0 ..= x1` that a net
/// holds, with the net, layer by layer and row by row.
fn track_cells(g: &Grid, x0: i64, x1: i64) -> Vec<(Cell, u32)> {
    let mut cells = Vec::new();
    for layer in 1..=g.extent.layers {
        for y in 1..=g.extent.width {
            for x in x0..=x1 {
                let c = Cell::new(x, y, layer);
                if let PointState::Net(net) = g.state(c) {
                    cells.push((c, net));
                }
            }
        }
    }
    cells
}

/// The joints `(net, i, j)` of the `owned` track cells to their nets'
/// cells around them (raster indices; as [`Grid::joints`] gives them),
/// with `(net, i, i)` for each such cell `i`, sorted.
fn window_joints(g: &Grid, owned: &[(Cell, u32)]) -> Vec<(u32, u32, u32)> {
    let mut joints = Vec::new();
    let mut near = Vec::new();
    for &(c, net) in owned {
        let i = g.index(c);
        g.joints(i, net, &mut near);
        joints.extend(near.iter().map(|&(j, _)| (net, i as u32, j as u32)));
        // A cell joined to nothing still counts.
        joints.push((net, i as u32, i as u32));
    }
    joints.sort_unstable();
    joints
}

/// Free the `owned` track cells.
fn free_window(g: &mut Grid, owned: &[(Cell, u32)]) {
    for &(c, _) in owned {
        g.release(c);
    }
}

/// Visits the distinct cells of a net's paths (paths may share their end
/// cells), once each.
fn each_distinct(seen: &mut Marks, paths: &[Vec<usize>], mut f: impl FnMut(usize)) {
    seen.clear();
    for &i in paths.iter().flatten() {
        if seen.mark(i) {
            f(i);
        }
    }
}

/// Where a net's pieces can be entered inside a window: `entries[k]` the
/// cells of piece `k`, ascending (each cell in one piece's list at most);
/// and how many pieces the net was in before the window was freed.
struct Pieces {
    entries: Vec<Vec<usize>>,
    before: usize,
}

/// The window cells through which each piece of a net can be entered: its
/// own cells inside (pins) and the free cells next to its cells outside.
/// `joints` are the net's joints `(net, i, j)` from each freed cell `i`
/// (raster index) as they were before the window was freed, `(net, i, i)`
/// included: the pieces joined through them are the pieces before.
fn pieces_of(
    g: &mut Grid,
    net: u32,
    (x0, x1): (i64, i64),
    joints: &[(u32, u32, u32)],
    group: &mut [u32],
    local: &dyn Fn(Cell) -> usize,
) -> Pieces {
    let comps = g.label_components(net);
    let before = pieces_before(g, comps.len(), joints);
    let inside = |c: Cell| c.x >= x0 && c.x <= x1;
    let mut entries: Vec<Vec<usize>> = vec![Vec::new(); comps.len()];
    if comps.len() <= 1 {
        return Pieces { entries, before };
    }
    // `group` (the window's, all NONE between calls) marks the piece each
    // cell joins; the cells marked are listed to be read back and unmarked.
    let mut marked = Vec::new();
    let mut mark = |i: usize, k: usize| {
        if group[i] == NONE {
            marked.push(i);
        }
        group[i] = k as u32;
    };
    for (k, comp) in comps.iter().enumerate() {
        for &c in comp {
            if inside(c) {
                mark(local(c), k);
            } else if c.y > 0 && c.y <= g.extent.width {
                for dx in [-1, 1] {
                    let n = Cell::new(c.x + dx, c.y, c.layer);
                    if inside(n) && g.owner(n) == 0 {
                        mark(local(n), k);
                    }
                }
            }
        }
    }
    // A cell next to two pieces belongs to the last one marked; list the
    // cells each piece finally owns.
    marked.sort_unstable();
    for i in marked {
        entries[group[i] as usize].push(i);
        group[i] = NONE;
    }
    Pieces { entries, before }
}

/// How many pieces a net was in before its cells in a window were freed:
/// its `pieces` now (just labelled) and the freed cells, joined by the
/// freed cells' `joints` (sorted; a freed cell is one they start from,
/// every other cell they reach is in a piece).
fn pieces_before(g: &Grid, pieces: usize, joints: &[(u32, u32, u32)]) -> usize {
    if joints.is_empty() {
        return pieces;
    }
    // Nodes: the pieces, then the freed cells in joint order.
    let mut freed: Vec<u32> = joints.iter().map(|j| j.1).collect();
    freed.dedup();
    let node = |i: u32| match freed.binary_search(&i) {
        Ok(k) => pieces + k,
        Err(_) => g
            .component_at(i as usize)
            .expect("a cell the net still holds is in a piece"),
    };
    let mut sets = UnionFind::new(pieces + freed.len());
    let mut count = pieces + freed.len();
    for &(_, i, j) in joints {
        count -= sets.union(node(i), node(j)) as usize;
    }
    count
}

/// No piece: a window cell no piece of the net being routed can be entered
/// through.
const NONE: u32 = u32::MAX;

/// The window of one negotiation: its cells and the search's scratch
/// space.
struct Window {
    cells: Cells,
    search: Dijkstra<Heap>,
}

/// The window's cells in its local raster order (column fastest, then row,
/// then layer) and what the searches of one negotiation need of them. The
/// grid does not change while the rounds negotiate (the paths are claimed
/// only at the end), so the owners are read once.
struct Cells {
    cols: usize,
    /// Cells per layer.
    plane: usize,
    layers: u32,
    top: u16,
    /// Owner of each window cell, as [`Grid::owner`], except that the free
    /// cells of the pin rows are [`BLOCKED`]: a search enters a cell only
    /// when it is free or the net's own.
    owner: Vec<u32>,
    /// Column (from the window's left end), row and layer of each cell.
    place: Vec<(u16, u16, u32)>,
    /// Step cost along and across rows on each layer (`None`: no such
    /// step on that layer).
    along: Vec<Option<u32>>,
    across: Vec<Option<u32>>,
    /// The piece of the net being routed that each cell joins ([`NONE`]
    /// outside [`Window::route_net`] and [`pieces_of`]).
    group: Vec<u32>,
}

impl Window {
    fn new(g: &Grid, preferred: &[Preferred], x0: i64, cols: usize, rows: usize) -> Self {
        let layers = g.extent.layers;
        let plane = cols * rows;
        let size = plane * layers as usize;
        let mut owner = Vec::with_capacity(size);
        let mut place = Vec::with_capacity(size);
        for layer in 1..=layers {
            for y in 0..rows {
                for col in 0..cols {
                    let o = g.owner(Cell::new(x0 + col as i64, y as i64, layer));
                    // A free cell on a pin row is no way through.
                    let pin_row = y == 0 || y == rows - 1;
                    owner.push(if pin_row && o == 0 { BLOCKED } else { o });
                    place.push((col as u16, y as u16, layer));
                }
            }
        }
        let rule = |layer: u32| preferred[(layer - 1) as usize];
        let mut search = Dijkstra::default();
        search.grow(size);
        let cells = Cells {
            cols,
            plane,
            layers,
            top: (rows - 1) as u16,
            owner,
            place,
            along: (1..=layers).map(|l| rule(l).along(1, 4)).collect(),
            across: (1..=layers).map(|l| rule(l).across(1, 4)).collect(),
            group: vec![NONE; size],
        };
        Window { cells, search }
    }

    /// Connect every piece of a net through the window: paths as lists of
    /// window-local indices. `None` if some piece cannot be reached at all.
    /// The net's pieces are marked in `group` meanwhile.
    fn route_net(
        &mut self,
        net: u32,
        pieces: &Pieces,
        users: &[u16],
        history: &[u32],
        pres: u32,
    ) -> Option<Vec<Vec<usize>>> {
        for (k, cells) in pieces.entries.iter().enumerate() {
            for &i in cells {
                self.cells.group[i] = k as u32;
            }
        }
        let found = self.join_pieces(net, &pieces.entries, (users, history, pres));
        for &i in pieces.entries.iter().flatten() {
            self.cells.group[i] = NONE;
        }
        found
    }

    /// Grow a tree from the first piece that can enter the window to every
    /// other such piece (marked in `group`) by shortest paths at the
    /// congestion prices `(users, history, pres)`.
    fn join_pieces(
        &mut self,
        net: u32,
        entries: &[Vec<usize>],
        (users, history, pres): (&[u16], &[u32], u32),
    ) -> Option<Vec<Vec<usize>>> {
        if entries.len() <= 1 {
            return Some(Vec::new());
        }
        // Pieces that cannot enter the window are left alone.
        let mut joined: Vec<bool> = entries.iter().map(Vec::is_empty).collect();
        let Some(start) = (0..entries.len()).find(|&k| !joined[k]) else {
            return Some(Vec::new());
        };
        joined[start] = true;
        let mut tree: Vec<usize> = entries[start].clone();
        let mut paths = Vec::new();
        let Window { cells, search } = self;
        loop {
            if joined.iter().all(|&j| j) {
                return Some(paths);
            }
            search.reset();
            for &i in &tree {
                search.start(i, i);
            }
            let mut policy = Negotiation {
                cells,
                mine: net + 1,
                joined: &joined,
                users,
                history,
                pres,
            };
            let end = search.run(&mut policy)?;
            let k = cells.group[end] as usize;
            let path = search.path(end, |i| i);
            joined[k] = true;
            tree.extend(entries[k].iter().copied());
            tree.extend(path.iter().copied());
            paths.push(path);
        }
    }
}

/// The cost policy of a window's searches: nodes and slots are window
/// indices; a cell costs its step, its history and its present users at
/// the round's price (saturating); a cell of a piece not joined yet ends
/// the search.
struct Negotiation<'w> {
    cells: &'w Cells,
    /// The net routed, as the owners hold it (`net + 1`).
    mine: u32,
    joined: &'w [bool],
    users: &'w [u16],
    history: &'w [u32],
    pres: u32,
}

impl Policy for Negotiation<'_> {
    type At = ();

    #[inline(always)]
    fn locate(&self, i: usize) -> (usize, ()) {
        (i, ())
    }

    #[inline(always)]
    fn is_goal(&self, i: usize, _: (), _: u32) -> bool {
        let k = self.cells.group[i];
        k != NONE && !self.joined[k as usize]
    }

    #[inline(always)]
    fn each_move(&mut self, i: usize, _: usize, _: (), mut step: impl FnMut(usize, usize, u32)) {
        let w = self.cells;
        let (cols, plane, top) = (w.cols, w.plane, w.top);
        // The fields the steps read, in locals the optimiser keeps in
        // registers across the calls of `step`.
        let (owner, history, users) = (&w.owner[..], self.history, self.users);
        let (mine, pres) = (self.mine, self.pres);
        let (col, y, layer) = w.place[i];
        let on_pin_row = y == 0 || y == top;
        // Steps in the order x - 1, x + 1, layer - 1, layer + 1,
        // y - 1, y + 1 (ties keep the first parent found).
        // A macro, not a closure: six call sites of a closure this size are
        // not inlined, and a call per step costs a fifth of the search.
        macro_rules! try_step {
            ($j:expr, $cost:expr) => {{
                let (j, cost): (usize, u32) = ($j, $cost);
                let o = owner[j];
                if o == 0 || o == mine {
                    let price = cost
                        .saturating_add(history[j])
                        .saturating_add((users[j] as u32).saturating_mul(pres));
                    step(j, j, price);
                }
            }};
        }
        if !on_pin_row {
            if let Some(h) = w.along[(layer - 1) as usize] {
                if col > 0 {
                    try_step!(i - 1, h);
                }
                if (col as usize) + 1 < cols {
                    try_step!(i + 1, h);
                }
            }
            if layer > 1 {
                try_step!(i - plane, 3);
            }
            if layer < w.layers {
                try_step!(i + plane, 3);
            }
        }
        if let Some(v) = w.across[(layer - 1) as usize] {
            if y > 0 && !(on_pin_row && y - 1 == 0) {
                try_step!(i - cols, v);
            }
            if y < top && !(on_pin_row && y + 1 == top) {
                try_step!(i + cols, v);
            }
        }
    }

    #[inline(always)]
    fn extend(d: u32, cost: u32) -> u32 {
        d.saturating_add(cost)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cut_at_random, raw_grids};
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The pieces a net was in before a window was freed, from its pieces
    /// after and the freed cells' joints, against a flood before freeing:
    /// on routed grids cut at random cells (so nets lie in several pieces)
    /// and windows of random width anywhere, edges included.
    #[test]
    fn pieces_before_a_window_is_freed_are_the_flood_before() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(61);
        let (mut checked, mut joined) = (0, 0);
        for (p, mut g) in raw_grids(67, 150) {
            cut_at_random(&mut rng, &mut g, 20);
            let x0 = rng.gen_range(0..g.extent.columns);
            let x1 = (x0 + rng.gen_range(0..12)).min(g.extent.columns - 1);
            let nets: Vec<u32> = (0..p.nets().len() as u32).collect();
            let flood: Vec<usize> = nets.iter().map(|&n| g.count_components(n)).collect();
            let owned = track_cells(&g, x0, x1);
            let joints = window_joints(&g, &owned);
            free_window(&mut g, &owned);
            for &n in &nets {
                let from = joints.partition_point(|j| j.0 < n);
                let to = joints.partition_point(|j| j.0 <= n);
                let pieces = g.label_components(n).len();
                let before = pieces_before(&g, pieces, &joints[from..to]);
                assert_eq!(before, flood[n as usize], "{} net {n}", p.name());
                checked += 1;
                joined += (before < pieces) as usize;
            }
        }
        // Freeing the window must often have split a net.
        assert!(
            checked > 2000 && joined > 300,
            "{checked} nets, {joined} split"
        );
    }
}
