//! Local negotiated rip-up and reroute: free every track cell in a window of
//! columns and let the nets that lost cells (and the nets of a conflict)
//! negotiate the window's space, PathFinder style, with everything outside
//! the window fixed. It repairs the conflicts that single-net searches
//! cannot, such as chains of nets swapping sides in neighbouring columns.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::grid::{Cell, Grid, BLOCKED};
use super::maze::Preferred;

const ROUNDS: usize = 24;

/// Reroute the window `x0 ..= x1` (clamped to the columns); `extra` nets
/// take part even if they own no cell there. On failure the grid is as it
/// was.
pub fn negotiate(g: &mut Grid, preferred: &[Preferred], x0: i64, x1: i64, extra: &[u32]) -> bool {
    let (x0, x1) = (x0.max(0), x1.min(g.columns - 1));
    if x0 > x1 {
        return false;
    }
    let mark = g.mark();
    // Rip up the window; remember how many pieces each net was in.
    let mut before: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    for layer in 1..=g.layers {
        for y in 1..=g.width {
            for x in x0..=x1 {
                let o = g.owner(Cell::new(x, y, layer));
                if o != 0 && o != BLOCKED {
                    before.entry(o - 1).or_insert(0);
                }
            }
        }
    }
    for &n in extra {
        before.entry(n).or_insert(0);
    }
    let keys: Vec<u32> = before.keys().copied().collect();
    for n in keys {
        let k = g.count_components(n);
        before.insert(n, k);
    }
    let mut nets: Vec<u32> = extra.to_vec();
    for layer in 1..=g.layers {
        for y in 1..=g.width {
            for x in x0..=x1 {
                let c = Cell::new(x, y, layer);
                let o = g.owner(c);
                if o != 0 && o != BLOCKED {
                    nets.push(o - 1);
                    g.release(c);
                }
            }
        }
    }
    nets.sort_unstable();
    nets.dedup();
    let cols = (x1 - x0 + 1) as usize;
    let rows = (g.width + 2) as usize;
    let size = cols * rows * g.layers as usize;
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
    let mut paths: Vec<Vec<Vec<usize>>> = vec![Vec::new(); nets.len()];
    let mut pres = 1u32;
    let mut todo: Vec<usize> = (0..nets.len()).collect();
    // The pieces of each net do not change while the rounds negotiate (the
    // paths are claimed only at the end): find them once.
    let pieces: Vec<Pieces> = nets
        .iter()
        .map(|&n| pieces_of(g, n, (x0, x1), size, &local))
        .collect();
    for _ in 0..ROUNDS {
        for &k in &todo {
            for i in used_cells(&paths[k]) {
                users[i] -= 1;
            }
            paths[k].clear();
            let Some(found) = route_net(
                g,
                preferred,
                nets[k],
                &pieces[k],
                (x0, x1),
                &users,
                &history,
                pres,
                &local,
                &unlocal,
            ) else {
                g.rollback(mark);
                return false;
            };
            for i in used_cells(&found) {
                users[i] += 1;
            }
            paths[k] = found;
        }
        let over: Vec<usize> = (0..size).filter(|&i| users[i] > 1).collect();
        if over.is_empty() {
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
                                && c.y <= g.width
                            {
                                g.connect(c, n);
                            }
                        }
                    }
                }
            }
            // Every net is in no more pieces than before (the pieces that do
            // not reach the window are other repairs' business).
            let ok = nets.iter().all(|&n| g.count_components(n) <= before[&n]);
            if ok {
                g.commit_trial(mark);
                return true;
            }
            g.rollback(mark);
            return false;
        }
        let mut hot = vec![false; size];
        for &i in &over {
            history[i] += 1;
            hot[i] = true;
        }
        todo = (0..nets.len())
            .filter(|&k| paths[k].iter().flatten().any(|&i| hot[i]))
            .collect();
        pres = pres * 2 + 1;
    }
    g.rollback(mark);
    false
}

/// The distinct cells of a net's paths (paths may share their end cells).
fn used_cells(paths: &[Vec<usize>]) -> Vec<usize> {
    let mut cells: Vec<usize> = paths.iter().flatten().copied().collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// Where a net's pieces can be entered inside a window: `group[i]` is the
/// piece a window cell joins (`usize::MAX` for none), `entries[k]` the cells
/// of piece `k`.
struct Pieces {
    group: Vec<usize>,
    entries: Vec<Vec<usize>>,
}

/// The window cells through which each piece of a net can be entered: its
/// own cells inside (pins) and the free cells next to its cells outside.
fn pieces_of(
    g: &mut Grid,
    net: u32,
    (x0, x1): (i64, i64),
    size: usize,
    local: &dyn Fn(Cell) -> usize,
) -> Pieces {
    let comps = g.label_components(net);
    let inside = |c: Cell| c.x >= x0 && c.x <= x1;
    let mut group = vec![usize::MAX; size];
    let mut entries: Vec<Vec<usize>> = vec![Vec::new(); comps.len()];
    if comps.len() <= 1 {
        return Pieces { group, entries };
    }
    for (k, comp) in comps.iter().enumerate() {
        for &c in comp {
            if inside(c) {
                group[local(c)] = k;
            } else if c.y > 0 && c.y <= g.width {
                for dx in [-1, 1] {
                    let n = Cell::new(c.x + dx, c.y, c.layer);
                    if inside(n) && g.owner(n) == 0 {
                        group[local(n)] = k;
                    }
                }
            }
        }
    }
    // A cell next to two pieces belongs to the last one marked; list the
    // cells each piece finally owns.
    for (i, &k) in group.iter().enumerate() {
        if k != usize::MAX {
            entries[k].push(i);
        }
    }
    Pieces { group, entries }
}

/// Connect every piece of a net through the window: paths as lists of
/// window-local indices. `None` if some piece cannot be reached at all.
#[allow(clippy::too_many_arguments)]
fn route_net(
    g: &Grid,
    preferred: &[Preferred],
    net: u32,
    pieces: &Pieces,
    (x0, x1): (i64, i64),
    users: &[u16],
    history: &[u32],
    pres: u32,
    local: &dyn Fn(Cell) -> usize,
    unlocal: &dyn Fn(usize) -> Cell,
) -> Option<Vec<Vec<usize>>> {
    let Pieces { group, entries } = pieces;
    if entries.len() <= 1 {
        return Some(Vec::new());
    }
    let size = users.len();
    let inside = |c: Cell| c.x >= x0 && c.x <= x1;
    // Pieces that cannot enter the window are left alone.
    let mut joined: Vec<bool> = entries.iter().map(Vec::is_empty).collect();
    let Some(start) = (0..entries.len()).find(|&k| !joined[k]) else {
        return Some(Vec::new());
    };
    joined[start] = true;
    let mut tree: Vec<usize> = entries[start].clone();
    let mut paths = Vec::new();
    let top = g.width + 1;
    let mut dist = vec![u32::MAX; size];
    let mut parent = vec![usize::MAX; size];
    let mut touched: Vec<usize> = Vec::new();
    let mut heap = BinaryHeap::new();
    loop {
        if joined.iter().all(|&j| j) {
            return Some(paths);
        }
        for &i in &touched {
            dist[i] = u32::MAX;
            parent[i] = usize::MAX;
        }
        touched.clear();
        heap.clear();
        for &i in &tree {
            dist[i] = 0;
            touched.push(i);
            heap.push(Reverse((0u32, i)));
        }
        let mut reached = None;
        while let Some(Reverse((d, i))) = heap.pop() {
            if d > dist[i] {
                continue;
            }
            if group[i] != usize::MAX && !joined[group[i]] {
                reached = Some(i);
                break;
            }
            let c = unlocal(i);
            let pref = preferred[(c.layer - 1) as usize];
            let on_pin_row = c.y == 0 || c.y == top;
            let mut next = Steps::default();
            if !on_pin_row {
                let h = 1 + if pref == Preferred::Vertical { 4 } else { 0 };
                next.push((Cell::new(c.x - 1, c.y, c.layer), h));
                next.push((Cell::new(c.x + 1, c.y, c.layer), h));
                if c.layer > 1 {
                    next.push((Cell::new(c.x, c.y, c.layer - 1), 3));
                }
                if c.layer < g.layers {
                    next.push((Cell::new(c.x, c.y, c.layer + 1), 3));
                }
            }
            let v = 1 + if pref == Preferred::Horizontal { 4 } else { 0 };
            for dy in [-1, 1] {
                let y = c.y + dy;
                if (0..=top).contains(&y) && !(on_pin_row && (y == 0 || y == top)) {
                    next.push((Cell::new(c.x, y, c.layer), v));
                }
            }
            for &(n, step) in next.as_slice() {
                if !inside(n) {
                    continue;
                }
                let o = g.owner(n);
                if o != 0 && o != net + 1 {
                    continue;
                }
                if (n.y == 0 || n.y == top) && o != net + 1 {
                    continue;
                }
                let j = local(n);
                let nd = d + step + history[j] + users[j] as u32 * pres;
                if nd < dist[j] {
                    if dist[j] == u32::MAX {
                        touched.push(j);
                    }
                    dist[j] = nd;
                    parent[j] = i;
                    heap.push(Reverse((nd, j)));
                }
            }
        }
        let end = reached?;
        let k = group[end];
        let mut path = vec![end];
        let mut j = end;
        while parent[j] != usize::MAX {
            j = parent[j];
            path.push(j);
        }
        path.reverse();
        joined[k] = true;
        tree.extend(entries[k].iter().copied());
        tree.extend(path.iter().copied());
        paths.push(path);
    }
}

/// At most six grid steps out of a cell, without allocating.
#[derive(Default)]
struct Steps {
    items: [(Cell, u32); 6],
    len: usize,
}

impl Steps {
    fn push(&mut self, step: (Cell, u32)) {
        self.items[self.len] = step;
        self.len += 1;
    }

    fn as_slice(&self) -> &[(Cell, u32)] {
        &self.items[..self.len]
    }
}
