//! A track assignment with no vertical constraint violation at all, found
//! by a budgeted depth-first search: the router's quick path. When it
//! succeeds, every riser is drawn straight and the attempt needs no repair.
//!
//! Each trunk piece (cut at its net's pins) gets a row. Two pieces that
//! overlap (not two pieces of one net meeting end to end) take different
//! rows, and a piece that must lie above another (the piece constraint
//! graph) takes a higher row. The search keeps, for every piece, the rows
//! still open to it: not taken by a placed piece it overlaps, and within
//! its bounds (a piece with `a` pieces above it in a chain lies no higher
//! than `W - a`; placing a piece in row `y` caps the pieces below it at
//! `y - 1` and lifts the pieces above it to `y + 1`, transitively). It
//! places the piece with the fewest open rows next (ties: the longest
//! chain through it), in the open row that takes the least from the pieces
//! it overlaps or constrains; a piece left with no open row is a dead end,
//! and the search backs up to the last choice with another row left. It
//! gives a stream up at the first dead end past its budget and starts over
//! with the ties broken on another random stream, a few times.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::channel::problem::ChannelProblem;
use crate::channel::routers::yacr::assign::{depths, piece_graph, Depths, Item};

mod draw;
#[cfg(test)]
mod tests;
pub use draw::draw;

/// Rows as bits: row `y` is bit `y - 1`.
type Rows = u64;

/// The widest channel the search takes (rows fit one word).
pub const MAX_ROWS: i64 = 64;

/// The most pieces the search takes (a piece's number fits the 12 low bits
/// of its key).
pub const MAX_PIECES: usize = 4096;

/// What a placement changes, for the way back: a piece's open rows before
/// (with their count), or that it was placed.
#[derive(Clone, Copy)]
enum Undo {
    Open(u32, u32, Rows),
    Row(u32),
}

/// One piece's part of the search state.
#[derive(Clone, Copy, Default)]
struct Piece {
    /// The rows open to it, and how many.
    open: Rows,
    count: u32,
    /// Its row once placed (0: not placed).
    row: u32,
    /// Longer chains first, then a random tie-break, then the piece (bits
    /// 20-24, 12-19 and 0-11).
    order: i32,
}

struct State<'a> {
    below: &'a Lists,
    above: &'a Lists,
    /// Pieces each piece overlaps (other nets, or its own not end to end).
    overlaps: &'a Lists,
    pieces: Vec<Piece>,
    /// Each unplaced piece's rank for the next placement (lowest first):
    /// its open rows (bits 25 up), then `order`; `i32::MAX` once placed
    /// (signed: the minimum of signed words is the quicker one).
    key: Vec<i32>,
    trail: Vec<Undo>,
    stack: Vec<u32>,
}

/// The search's path and rows to try (see [`search`]) and the ranking's
/// scratch ([`rank`]), kept from stream to stream.
struct Scratch {
    path: Vec<(u32, usize, usize)>,
    choices: Vec<u32>,
    cost: Vec<u64>,
    ranked: Vec<(u64, u32, u32)>,
}

fn span(lo: u32, hi: u32) -> Rows {
    if lo > hi {
        return 0;
    }
    let upto = if hi >= 64 { Rows::MAX } else { (1 << hi) - 1 };
    upto & !((1 << (lo - 1)) - 1)
}

fn key(p: &Piece) -> i32 {
    (p.count as i32 - 1) << 25 | p.order
}

impl State<'_> {
    fn undo_to(&mut self, mark: usize) {
        while self.trail.len() > mark {
            match self.trail.pop().expect("above the mark") {
                Undo::Open(k, count, r) => {
                    let p = &mut self.pieces[k as usize];
                    (p.open, p.count) = (r, count);
                    if p.row == 0 {
                        self.key[k as usize] = key(p);
                    }
                }
                Undo::Row(k) => {
                    let p = &mut self.pieces[k as usize];
                    p.row = 0;
                    self.key[k as usize] = key(p);
                }
            }
        }
    }

    /// Keep only rows `keep` open to piece `k`: whether any is left, and
    /// whether any was taken.
    fn restrict(&mut self, k: u32, keep: Rows) -> (bool, bool) {
        let p = &mut self.pieces[k as usize];
        let old = p.open;
        let new = old & keep;
        if new != old {
            self.trail.push(Undo::Open(k, p.count, old));
            p.open = new;
            p.count = new.count_ones();
            if p.row == 0 {
                self.key[k as usize] = key(p);
            }
        }
        (new != 0, new != old)
    }

    /// Place piece `k` in row `y`; `false` on a dead end (the caller
    /// undoes).
    fn place(&mut self, k: u32, y: u32) -> bool {
        self.trail.push(Undo::Row(k));
        self.pieces[k as usize].row = y;
        self.key[k as usize] = i32::MAX;
        let bit = 1 << (y - 1);
        if !self.restrict(k, bit).0 {
            return false;
        }
        // A placed piece it overlaps has another row: no change there.
        let overlaps = self.overlaps;
        for &j in overlaps.of(k) {
            if self.pieces[j as usize].open & bit != 0 && !self.restrict(j, !bit).0 {
                return false;
            }
        }
        // Pieces below: under the highest row left to the piece above;
        // pieces above: over the lowest row left to the piece below.
        for (graph, down) in [(self.below, true), (self.above, false)] {
            self.stack.clear();
            self.stack.push(k);
            while let Some(v) = self.stack.pop() {
                let open = self.pieces[v as usize].open;
                let keep = if down {
                    span(1, (64 - open.leading_zeros()).saturating_sub(1))
                } else {
                    span(open.trailing_zeros() + 2, 64)
                };
                for &w in graph.of(v) {
                    match self.restrict(w, keep) {
                        (false, _) => return false,
                        (true, true) => self.stack.push(w),
                        (true, false) => {}
                    }
                }
            }
        }
        true
    }
}

/// Lists of pieces, one per piece, in one block.
struct Lists {
    start: Vec<u32>,
    list: Vec<u32>,
}

impl Lists {
    /// The lists of `n` pieces holding `pairs` (`(k, j)`: `j` on `k`'s
    /// list), each list in the order of `pairs`.
    fn new(n: usize, pairs: &[(u32, u32)]) -> Self {
        let mut start = vec![0u32; n + 1];
        for &(k, _) in pairs {
            start[k as usize + 1] += 1;
        }
        for k in 0..n {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut list = vec![0u32; pairs.len()];
        for &(k, j) in pairs {
            list[fill[k as usize] as usize] = j;
            fill[k as usize] += 1;
        }
        Lists { start, list }
    }

    fn of(&self, k: u32) -> &[u32] {
        &self.list[self.start[k as usize] as usize..self.start[k as usize + 1] as usize]
    }
}

/// The pieces each piece overlaps: another net's piece sharing a column,
/// or its own net's piece sharing more than an end column.
fn overlaps(items: &[Item]) -> Lists {
    let n = items.len();
    let mut by_lo: Vec<usize> = (0..n).collect();
    by_lo.sort_by_key(|&k| (items[k].lo, k));
    let mut pairs = Vec::new();
    // Sweep: pieces still open at each left end.
    let mut active: Vec<usize> = Vec::new();
    for &k in &by_lo {
        let it = items[k];
        active.retain(|&a| items[a].hi >= it.lo);
        for &a in &active {
            let o = items[a];
            let end_to_end = o.net == it.net && (o.hi == it.lo || it.hi == o.lo);
            if !end_to_end {
                pairs.push((k as u32, a as u32));
                pairs.push((a as u32, k as u32));
            }
        }
        active.push(k);
    }
    Lists::new(n, &pairs)
}

/// What the search needs of one set of pieces, made once: their constraint
/// graph both ways, its depths, and which pieces overlap.
pub struct ConflictFree {
    below: Lists,
    above: Lists,
    depths: Depths,
    overlaps: Lists,
    /// Whether the constraint graph has no cycle (else nothing is
    /// conflict-free).
    acyclic: bool,
}

impl ConflictFree {
    /// The search's view of `items`, at most [`MAX_PIECES`] of them.
    pub fn new(problem: &ChannelProblem, items: &[Item]) -> Self {
        assert!(
            items.len() <= MAX_PIECES,
            "more pieces than the search takes"
        );
        let graph = piece_graph(problem, items);
        let n = items.len();
        let edges: Vec<(u32, u32)> = graph.edges().collect();
        let up: Vec<(u32, u32)> = edges.iter().map(|&(a, b)| (b, a)).collect();
        ConflictFree {
            acyclic: graph.topological_order().is_some(),
            depths: depths(&graph),
            below: Lists::new(n, &edges),
            above: Lists::new(n, &up),
            overlaps: overlaps(items),
        }
    }

    /// A conflict-free assignment in the narrowest of `widths` that the
    /// search reaches: the width and a row for each piece. Each width gets
    /// `restarts` random streams of `seed`, each given up at its first dead
    /// end past `budget`; `None` when none succeeds. One thread: a stream
    /// on DDE's size takes tens of microseconds, about what starting a
    /// second thread costs (measured: spare-core speculation over the
    /// streams was no faster).
    pub fn assign(
        &self,
        widths: std::ops::Range<i64>,
        seed: u64,
        restarts: u64,
        budget: u64,
    ) -> Option<(i64, Vec<i64>)> {
        let widths: Vec<(i64, Vec<Rows>)> = widths
            .filter_map(|w| Some((w, self.open_rows(w)?)))
            .collect();
        let per = restarts as usize;
        let mut st = State {
            below: &self.below,
            above: &self.above,
            overlaps: &self.overlaps,
            pieces: Vec::new(),
            key: Vec::new(),
            trail: Vec::new(),
            stack: Vec::new(),
        };
        let mut scratch = Scratch {
            path: Vec::new(),
            choices: Vec::new(),
            cost: vec![0; MAX_ROWS as usize + 1],
            ranked: Vec::new(),
        };
        (0..widths.len() * per).find_map(|k| {
            let (w, open) = &widths[k / per];
            let stream = (k % per) as u64;
            let ys = self.search_stream(&mut st, &mut scratch, open, seed, stream, budget)?;
            Some((*w, ys))
        })
    }

    /// The rows open to each piece in `rows` rows before any is placed:
    /// its chains above and below fit under and over it. `None` when a
    /// chain is too long (or the graph has a cycle).
    fn open_rows(&self, rows: i64) -> Option<Vec<Rows>> {
        if !self.acyclic || !(1..=MAX_ROWS).contains(&rows) {
            return None;
        }
        let w = rows as u32;
        (0..self.depths.above.len())
            .map(|k| {
                let (a, b) = (self.depths.above[k], self.depths.below[k]);
                (a + b < w).then(|| span(b + 1, w - a))
            })
            .collect()
    }

    /// One stream's search from the rows `open0`, on the memory of `st`
    /// and `scratch`.
    fn search_stream(
        &self,
        st: &mut State,
        scratch: &mut Scratch,
        open0: &[Rows],
        seed: u64,
        stream: u64,
        budget: u64,
    ) -> Option<Vec<i64>> {
        let n = open0.len();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(stream);
        st.pieces.clear();
        st.pieces.extend((0..n).map(|k| {
            let chain = (self.depths.above[k] + self.depths.below[k]).min(31) as i32;
            Piece {
                open: open0[k],
                count: open0[k].count_ones(),
                row: 0,
                order: (31 - chain) << 20 | i32::from(rng.gen::<u8>()) << 12 | k as i32,
            }
        }));
        st.key.clear();
        st.key.extend(st.pieces.iter().map(key));
        st.trail.clear();
        search(st, scratch, &mut rng, budget).map(|rows| rows.into_iter().map(i64::from).collect())
    }
}

/// One depth-first search from `st`: every piece's row, or `None` when
/// it meets more than `budget` dead ends or runs out of choices.
fn search(
    st: &mut State,
    scratch: &mut Scratch,
    rng: &mut ChaCha8Rng,
    budget: u64,
) -> Option<Vec<u32>> {
    let n = st.pieces.len();
    // Per depth (`path`): the piece, the trail mark and where its rows to
    // try start on `choices` (they run to the next depth's start, or the
    // end for the deepest; the last is tried first).
    let Scratch {
        path,
        choices,
        cost,
        ranked,
    } = scratch;
    path.clear();
    choices.clear();
    let mut spent = 0u64;
    let mut fresh = true;
    loop {
        if fresh {
            if path.len() == n {
                return Some(st.pieces.iter().map(|p| p.row).collect());
            }
            // The unplaced piece with the fewest open rows, then by `order`.
            let best = st.key.iter().copied().min().unwrap_or(i32::MAX);
            let k = (best & 0xfff) as u32;
            path.push((k, st.trail.len(), choices.len()));
            rank(st, k, rng, cost, ranked);
            choices.extend(ranked.iter().map(|r| r.2));
        }
        let &(k, mark, from) = path.last()?;
        st.undo_to(mark);
        if choices.len() > from {
            let y = choices.pop().expect("a row to try");
            fresh = st.place(k, y);
            if !fresh {
                spent += 1;
                if spent > budget {
                    return None;
                }
            }
        } else {
            path.pop();
            fresh = false;
        }
    }
}

/// What a row taken from a piece with `n` open rows costs: `720 / n` (720
/// = 6!, so the first six divide it evenly).
const WEIGHT: [u64; 65] = {
    let mut w = [720u64; 65];
    let mut n = 1;
    while n < 65 {
        w[n] = 720 / n as u64;
        n += 1;
    }
    w
};

/// The open rows of piece `k` into `out`, in reverse order of preference:
/// the row that takes the fewest open rows from the unplaced pieces it
/// overlaps (weighted by how few they have) and narrows the pieces it
/// constrains least, then at random. `cost` is scratch, a word per row.
fn rank(
    st: &State,
    k: u32,
    rng: &mut ChaCha8Rng,
    cost: &mut [u64],
    out: &mut Vec<(u64, u32, u32)>,
) {
    let mine = st.pieces[k as usize].open;
    out.clear();
    // One row: nothing to rank.
    if mine.count_ones() == 1 {
        out.push((0, 0, mine.trailing_zeros() + 1));
        return;
    }
    let mut open = mine;
    while open != 0 {
        cost[open.trailing_zeros() as usize + 1] = 0;
        open &= open - 1;
    }
    // (A placed piece it overlaps holds a row no longer open to `k`.)
    for &j in st.overlaps.of(k) {
        let p = &st.pieces[j as usize];
        let mut both = p.open & mine;
        let w = WEIGHT[p.count as usize];
        while both != 0 {
            cost[both.trailing_zeros() as usize + 1] += w;
            both &= both - 1;
        }
    }
    // A piece below `k` loses its rows from `y` up; one above, from `y`
    // down.
    for (graph, below) in [(st.below, true), (st.above, false)] {
        for &j in graph.of(k) {
            let p = &st.pieces[j as usize];
            if p.row != 0 {
                continue;
            }
            let (o, w) = (p.open, WEIGHT[p.count as usize]);
            let mut open = mine;
            while open != 0 {
                let y = open.trailing_zeros() + 1;
                open &= open - 1;
                let lost = if below {
                    o & !span(1, y - 1)
                } else {
                    o & !span(y + 1, 64)
                };
                cost[y as usize] += w * u64::from(lost.count_ones());
            }
        }
    }
    let mut open = mine;
    while open != 0 {
        let y = open.trailing_zeros() + 1;
        open &= open - 1;
        out.push((cost[y as usize], rng.gen(), y));
    }
    out.sort_unstable_by(|a, b| b.cmp(a));
}
