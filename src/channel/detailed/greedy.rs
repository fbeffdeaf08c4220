//! A greedy channel router after Rivest and Fiduccia: one sweep from left to
//! right, deciding each column's verticals from the tracks as they arrive.
//!
//! Per column: (1) bring the pins in, each to its own net's track or the
//! nearest free one, never letting the two pins' verticals overlap (when they
//! must, the channel gets a new track between them, inserted into every
//! column already routed); (2) collapse split nets with the heaviest set of
//! jogs on disjoint rows (tracks freed, plus one per net finished); (3) pull
//! the outer tracks of nets still split towards each other; (4) move nets whose next pin is on one side towards
//! that side; (5) extend the surviving tracks to the next column.
//!
//! Tracks are slots `(row, horizontal layer)`: one per row in HV and VH, two
//! per row in HVH, where both horizontal layers share the vertical layer.
//! Unlike the original the channel has no extra columns on the right: a net
//! still split after the last column fails the sweep, and the caller tries
//! a wider start.
//!
//! A sweep is linear in `columns x tracks` (plus the rare track insertions,
//! each linear in what is routed so far).

use super::grid::{Cell, Grid};
use super::LayerModel;
use crate::channel::problem::{ChannelProblem, Side};
use crate::graph::UnionFind;

/// The greedy router's knobs (Rivest and Fiduccia's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Tracks at the start; insertions may add more.
    pub initial_width: i64,
    /// Shortest jog (in rows) made to move a net towards its next pin.
    pub min_jog: i64,
    /// A net is rising (falling) when its next pin is on the top (bottom)
    /// and its next pin on the other side is at least this many columns
    /// further on.
    pub steady: i64,
    /// Extra vertical length a pin accepts to reach its own net's track
    /// rather than start a new track nearer to it.
    pub own_bias: i64,
    /// Stop (no result) once insertions reach this many tracks: the caller
    /// already has a sweep this narrow.
    pub give_up_at: i64,
}

/// A vertical wire on the vertical layer of column `x`, from row id `lo`
/// to row id `hi` (ids stay fixed when rows are inserted; [`BOTTOM`] and
/// [`TOP`] are the pin rows).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Vert {
    x: i64,
    net: u32,
    lo: u32,
    hi: u32,
}

/// Row ids of the pin rows.
const BOTTOM: u32 = u32::MAX - 1;
const TOP: u32 = u32::MAX;

/// A via between the vertical layer and slot id `slot`'s layer.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ViaRec {
    x: i64,
    slot: usize,
    net: u32,
}

/// The routed sweep: the track occupancy leaving every column and the
/// verticals and vias of every column.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// Slots per row (1 or 2).
    k: usize,
    /// Rows of tracks.
    pub rows: i64,
    /// Position (row - 1) of each row id.
    pos: Vec<usize>,
    /// Snapshot `x + 1` (for `x = -1 ..= C - 1`) is `hist[start[x + 1] ..
    /// start[x + 2]]`: by slot id, net + 1 whose track leaves column `x`
    /// towards `x + 1`, 0 when empty; ids past the end are empty (rows
    /// inserted later).
    hist: Vec<u32>,
    start: Vec<usize>,
    verts: Vec<Vert>,
    vias: Vec<ViaRec>,
}

impl Sweep {
    /// Vertical wires plus vias: a rough size of the routing, used to pick
    /// among sweeps of equal width.
    pub fn pieces(&self) -> usize {
        self.verts.len() + self.vias.len()
    }
}

/// The slots the top and bottom pins of a column go to (`None`: no pin,
/// or nothing to connect).
type PinPair = (Option<usize>, Option<usize>);

/// Per-net facts the sweep looks up.
struct NetInfo {
    /// Pins sorted by column, as `(column, side)`.
    pins: Vec<(i64, Side)>,
    last: i64,
    right: bool,
    /// First pin with column > the current column.
    cursor: usize,
}

/// The greedy sweep for one set of knobs; `None` when a net stays split at
/// the right end.
pub fn sweep(problem: &ChannelProblem, model: LayerModel, params: Params) -> Option<Sweep> {
    let k = match model {
        LayerModel::Hv | LayerModel::Vh => 1,
        LayerModel::Hvh => 2,
        LayerModel::Vhv => return None,
    };
    let mut s = State::new(problem, k, params);
    s.run()?;
    let mut pos = vec![0; s.order.len()];
    for (p, &id) in s.order.iter().enumerate() {
        pos[id as usize] = p;
    }
    s.start.push(s.hist.len());
    Some(Sweep {
        k,
        rows: s.rows,
        pos,
        hist: s.hist,
        start: s.start,
        verts: s.verts,
        vias: s.vias,
    })
}

/// Draw a sweep on the router's grid (pins claimed on every layer, as the
/// other routers do).
pub fn draw(problem: &ChannelProblem, model: LayerModel, sw: &Sweep) -> Grid {
    let h = model.h_layers();
    let v = model.v_layers()[0];
    let layer_of = |id: usize| h[id % sw.k];
    let row_of = |id: usize| sw.pos[id / sw.k] as i64 + 1;
    let y_of = |id: u32| match id {
        BOTTOM => 0,
        TOP => sw.rows + 1,
        r => sw.pos[r as usize] as i64 + 1,
    };
    let columns = problem.columns() as i64;
    let mut g = Grid::new(
        problem.columns(),
        sw.rows as u32,
        model.layers(),
        problem.nets().len(),
    );
    let top = g.top_row();
    for x in 0..columns as usize {
        for (net, y) in [(problem.bottom()[x], 0), (problem.top()[x], top)] {
            if let Some(id) = net {
                for l in 1..=g.layers {
                    g.claim(Cell::new(x as i64, y, l), id.0);
                }
            }
        }
    }
    let slots = sw.k * sw.rows as usize;
    let at = |x: i64, s: usize| -> u32 {
        if (-1..columns).contains(&x) {
            let (a, b) = (sw.start[(x + 1) as usize], sw.start[(x + 2) as usize]);
            if a + s < b {
                sw.hist[a + s]
            } else {
                0
            }
        } else {
            0
        }
    };
    for x in -1..=columns {
        for s in 0..slots {
            let (left, right) = (at(x - 1, s), at(x, s));
            let c = Cell::new(x, row_of(s), layer_of(s));
            for n in [left, right] {
                if n != 0 {
                    let ok = g.claim(c, n - 1);
                    debug_assert!(ok, "greedy track clash at {c:?}");
                }
            }
            if right != 0 {
                g.connect(c, Cell::new(x + 1, c.y, c.layer));
            }
        }
    }
    for vt in &sw.verts {
        let (lo, hi) = (y_of(vt.lo), y_of(vt.hi));
        let ok = g.run(Cell::new(vt.x, lo, v), Cell::new(vt.x, hi, v), vt.net);
        debug_assert!(ok, "greedy vertical clash at column {}", vt.x);
    }
    for via in &sw.vias {
        let ok = g.via(via.x, row_of(via.slot), layer_of(via.slot), v, via.net);
        debug_assert!(ok, "greedy via clash at column {}", via.x);
    }
    g
}

struct State<'a> {
    problem: &'a ChannelProblem,
    k: usize,
    params: Params,
    rows: i64,
    /// Row ids by position.
    order: Vec<u32>,
    /// Whether every row id is still its position (no row inserted below
    /// another).
    in_order: bool,
    hist: Vec<u32>,
    start: Vec<usize>,
    verts: Vec<Vert>,
    vias: Vec<ViaRec>,
    nets: Vec<NetInfo>,
    /// Slot owners (by position) leaving the previous column.
    carry: Vec<u32>,
    /// Slot owners in the current column (net + 1).
    state: Vec<u32>,
    /// Owners of the vertical layer in the current column, rows `0 ..= W+1`.
    vcol: Vec<u32>,
    /// Union-find over the current column's slots.
    sets: UnionFind,
    /// Whether a slot's track goes on to the next column.
    keep: Vec<bool>,
    /// By net: `(stamp, components)` from the last [`State::count_pieces`];
    /// entries with an older stamp count none.
    pieces: Vec<(u64, u32)>,
    /// The stamp of the last count.
    stamp: u64,
    /// The nets in more than one component at the last count.
    split: Vec<u32>,
    /// By root slot: `(size, slots seen so far)` of its component
    /// ([`State::choose_kept`]).
    comp: Vec<(u32, u32)>,
    /// Buffers of [`State::collapse`].
    joins: Joins,
    /// Buffer of [`State::move_to_pins`]: `(next pin, slot, net, bias)`.
    movers: Vec<(i64, usize, u32, i64)>,
}

/// The buffers [`State::collapse`] reuses from column to column.
#[derive(Default)]
struct Joins {
    /// One net's slots, ascending, with their roots.
    group: Vec<(usize, usize)>,
    /// Candidate chains, as `(hi, lo, weight, net)`.
    chains: Vec<(i64, i64, u32, u32)>,
    /// The dynamic programme over the rows: best weight and chain chosen.
    best: Vec<u32>,
    pick: Vec<Option<usize>>,
}

impl<'a> State<'a> {
    fn new(problem: &'a ChannelProblem, k: usize, params: Params) -> Self {
        let nets = problem
            .net_ids()
            .map(|id| {
                let n = problem.net(id);
                NetInfo {
                    pins: n.pins.iter().map(|p| (p.column as i64, p.side)).collect(),
                    last: n.last_pin().map_or(-1, |c| c as i64),
                    right: n.right,
                    cursor: 0,
                }
            })
            .collect();
        let rows = params.initial_width.max(0);
        let net_count = problem.nets().len();
        State {
            problem,
            k,
            params,
            rows,
            order: Vec::new(),
            in_order: true,
            hist: Vec::new(),
            start: Vec::new(),
            carry: Vec::new(),
            verts: Vec::new(),
            vias: Vec::new(),
            nets,
            state: Vec::new(),
            vcol: Vec::new(),
            sets: UnionFind::default(),
            keep: Vec::new(),
            pieces: vec![(0, 0); net_count],
            stamp: 0,
            split: Vec::new(),
            comp: Vec::new(),
            joins: Joins::default(),
            movers: Vec::new(),
        }
    }

    fn slots(&self) -> usize {
        self.k * self.rows as usize
    }

    /// The id of the row at `y` (0 and `W + 1` are the pin rows).
    fn row_id(&self, y: i64) -> u32 {
        if y == 0 {
            BOTTOM
        } else if y == self.rows + 1 {
            TOP
        } else {
            self.order[y as usize - 1]
        }
    }

    /// Record the tracks leaving the current column, `carry` (by
    /// position), in `hist` by slot id.
    fn snapshot(&mut self) {
        let base = self.hist.len();
        self.start.push(base);
        if self.in_order {
            self.hist.extend_from_slice(&self.carry);
            return;
        }
        self.hist.resize(base + self.carry.len(), 0);
        let k = self.k;
        for (owners, &id) in self.carry.chunks_exact(k).zip(&self.order) {
            let at = base + id as usize * k;
            self.hist[at..at + k].copy_from_slice(owners);
        }
    }

    fn row(&self, s: usize) -> i64 {
        (s / self.k) as i64 + 1
    }

    fn run(&mut self) -> Option<()> {
        let columns = self.problem.columns() as i64;
        // Column -1: the left side terminals, nets whose first pin is on the
        // top placed high.
        let mut left: Vec<(u32, i64)> = self
            .problem
            .left()
            .iter()
            .map(|&id| (id.0, self.side_bias(id.0, -1)))
            .collect();
        left.sort_by_key(|&(n, b)| (b, n));
        while (left.len() as i64) > self.rows * self.k as i64 {
            self.rows += 1;
        }
        self.order = (0..self.rows as u32).collect();
        let mut first = vec![0u32; self.slots()];
        // Bottom-bound nets from the bottom slot up, top-bound from the top
        // down, steady ones in the middle.
        let n = left.len();
        let lows: Vec<_> = left.iter().filter(|e| e.1 < 0).collect();
        let highs: Vec<_> = left.iter().rev().filter(|e| e.1 > 0).collect();
        let mids: Vec<_> = left.iter().filter(|e| e.1 == 0).collect();
        let mut free: Vec<usize> = (0..self.slots()).collect();
        for e in &lows {
            let s = free.remove(0);
            first[s] = e.0 + 1;
        }
        for e in &highs {
            let s = free.pop().expect("enough slots");
            first[s] = e.0 + 1;
        }
        let start = free.len().saturating_sub(mids.len()) / 2;
        for (i, e) in mids.iter().enumerate() {
            first[free[start + i]] = e.0 + 1;
        }
        debug_assert_eq!(first.iter().filter(|&&o| o != 0).count(), n);
        self.carry = first;
        self.snapshot();
        for x in 0..columns {
            self.column(x);
            if self.rows >= self.params.give_up_at {
                return None;
            }
        }
        self.finish()
    }

    /// +1 when the net's next pin after column `x` is on the top (and its
    /// next bottom pin is `steady` columns further or absent), -1 for the
    /// mirror case, 0 otherwise.
    fn side_bias(&self, net: u32, x: i64) -> i64 {
        let pins = &self.nets[net as usize].pins;
        let rest = &pins[pins.partition_point(|p| p.0 <= x)..];
        let mut next: Option<(i64, Side)> = None;
        let mut other_at: Option<i64> = None;
        for &(c, side) in rest {
            match next {
                None => next = Some((c, side)),
                Some((_, s0)) => {
                    if side != s0 {
                        other_at = Some(c);
                        break;
                    }
                }
            }
        }
        match next {
            None => 0,
            Some((c, side)) => {
                if other_at.is_some_and(|o| o - c < self.params.steady) {
                    return 0;
                }
                match side {
                    Side::Top => 1,
                    Side::Bottom => -1,
                }
            }
        }
    }

    /// The next pin column after `x` of a net, by its cursor.
    fn next_pin(&mut self, net: u32, x: i64) -> Option<i64> {
        let info = &mut self.nets[net as usize];
        while info.cursor < info.pins.len() && info.pins[info.cursor].0 <= x {
            info.cursor += 1;
        }
        info.pins.get(info.cursor).map(|p| p.0)
    }

    fn reset_parent(&mut self) {
        let n = self.slots();
        self.sets.reset(n);
    }

    fn find(&mut self, s: usize) -> usize {
        self.sets.find(s)
    }

    fn union(&mut self, a: usize, b: usize) {
        self.sets.union(a, b);
    }

    /// Insert an empty row so that it becomes row `p` (rows `>= p` move
    /// up), in every column routed so far and in the current one.
    fn insert_row(&mut self, p: i64) {
        let at = (p as usize - 1) * self.k;
        for _ in 0..self.k {
            self.state.insert(at, 0);
            self.carry.insert(at, 0);
        }
        let id = self.order.len() as u32;
        self.order.insert(p as usize - 1, id);
        self.in_order &= p == self.rows + 1;
        let span = self.vcol[(p - 1) as usize] != 0
            && self.vcol[(p - 1) as usize] == self.vcol[p as usize];
        let fill = if span { self.vcol[p as usize] } else { 0 };
        self.vcol.insert(p as usize, fill);
        self.rows += 1;
    }

    /// Whether the vertical layer is free for `net` on rows `a ..= b`.
    fn v_free(&self, net: u32, a: i64, b: i64) -> bool {
        let (lo, hi) = (a.min(b), a.max(b));
        self.vcol[lo as usize..=hi as usize]
            .iter()
            .all(|&o| o == 0 || o == net + 1)
    }

    /// Put a vertical of `net` on rows `lo ..= hi` with vias to every slot
    /// of the net it passes (which joins them).
    fn vertical(&mut self, x: i64, net: u32, lo: i64, hi: i64) {
        for y in lo..=hi {
            self.vcol[y as usize] = net + 1;
        }
        let (lo_id, hi_id) = (self.row_id(lo), self.row_id(hi));
        self.verts.push(Vert {
            x,
            net,
            lo: lo_id,
            hi: hi_id,
        });
        let mut joined: Option<usize> = None;
        for y in lo.max(1)..=hi.min(self.rows) {
            for j in 0..self.k {
                let s = (y as usize - 1) * self.k + j;
                if self.state[s] == net + 1 {
                    let slot = self.order[y as usize - 1] as usize * self.k + j;
                    self.vias.push(ViaRec { x, slot, net });
                    if let Some(o) = joined {
                        self.union(o, s);
                    }
                    joined = Some(s);
                }
            }
        }
    }

    /// The slot a pin of `net` on `side` reaches first going inwards that is
    /// empty or the net's own, then the net's own slot nearest the pin when
    /// that is another slot (so the second is `None` whenever the first is).
    fn pin_candidates(&self, net: u32, side: Side) -> [Option<usize>; 2] {
        let n = self.slots();
        let mut nearest = None;
        let mut own = None;
        for i in 0..n {
            let s = match side {
                Side::Top => n - 1 - i,
                Side::Bottom => i,
            };
            let o = self.state[s];
            if nearest.is_none() && (o == 0 || o == net + 1) {
                nearest = Some(s);
            }
            if own.is_none() && o == net + 1 {
                own = Some(s);
            }
            if nearest.is_some() && own.is_some() {
                break;
            }
        }
        [nearest, own.filter(|&o| Some(o) != nearest)]
    }

    /// Whether a net with a pin in column `x` still needs a track after it.
    fn continues(&self, net: u32, x: i64) -> bool {
        let info = &self.nets[net as usize];
        info.right || info.last > x
    }

    fn column(&mut self, x: i64) {
        self.state.clone_from(&self.carry);
        self.vcol.clear();
        self.vcol.resize(self.rows as usize + 2, 0);
        let t = self.problem.top()[x as usize].map(|id| id.0);
        let b = self.problem.bottom()[x as usize].map(|id| id.0);
        self.pins(x, t, b);
        let slots = self.slots();
        self.collapse(x);
        self.keep.clear();
        self.keep.resize(slots, false);
        self.choose_kept(x);
        self.reduce_ranges(x);
        self.move_to_pins(x);
        self.carry.clear();
        let kept = self.state.iter().zip(&self.keep);
        self.carry
            .extend(kept.map(|(&o, &keep)| if keep { o } else { 0 }));
        self.snapshot();
    }

    /// Step 1: the column's pins.
    fn pins(&mut self, x: i64, t: Option<u32>, b: Option<u32>) {
        self.reset_parent();
        match (t, b) {
            (Some(t), Some(b)) if t == b => {
                // One net on both pins: a full vertical; a new track when
                // the net goes on and has none.
                if self.continues(t, x) && !self.state.contains(&(t + 1)) {
                    let bias = self.side_bias(t, x);
                    if !self.state.contains(&0) {
                        let p = if bias < 0 { 1 } else { self.rows + 1 };
                        self.insert_row(p);
                    }
                    let s = self.empty_towards(bias);
                    self.state[s] = t + 1;
                }
                self.reset_parent();
                let top = self.rows + 1;
                self.vertical(x, t, 0, top);
            }
            _ => {
                let need = |s: &Self, n: Option<u32>| {
                    n.filter(|&n| s.continues(n, x) || s.state.contains(&(n + 1)))
                };
                let (t, b) = (need(self, t), need(self, b));
                let (ct, cb) = loop {
                    if let Some(pair) = self.pin_pair(t, b) {
                        break pair;
                    }
                    self.make_room(t, b);
                };
                self.reset_parent();
                let top = self.rows + 1;
                if let (Some(t), Some(s)) = (t, ct) {
                    self.state[s] = t + 1;
                    let r = self.row(s);
                    self.vertical(x, t, r, top);
                }
                if let (Some(b), Some(s)) = (b, cb) {
                    self.state[s] = b + 1;
                    let r = self.row(s);
                    self.vertical(x, b, 0, r);
                }
            }
        }
    }

    /// An empty slot, as high as possible for `bias > 0`, as low as
    /// possible for `bias < 0`, nearest the middle otherwise.
    fn empty_towards(&self, bias: i64) -> usize {
        let n = self.slots();
        let empties = (0..n).filter(|&s| self.state[s] == 0);
        match bias.signum() {
            1 => empties.max().expect("an empty slot"),
            -1 => empties.min().expect("an empty slot"),
            _ => empties
                .min_by_key(|&s| (2 * s as i64 - n as i64 + 1).abs())
                .expect("an empty slot"),
        }
    }

    /// The best compatible choice of slots for the top and bottom pins.
    fn pin_pair(&self, t: Option<u32>, b: Option<u32>) -> Option<PinPair> {
        // The choices for one pin, as the slots and how many of them are
        // choices (no pin: the one choice `None`).
        let cands = |n: Option<u32>, side| -> Option<([Option<usize>; 2], usize)> {
            match n {
                None => Some(([None, None], 1)),
                Some(n) => {
                    let c = self.pin_candidates(n, side);
                    c[0]?;
                    Some((c, 1 + usize::from(c[1].is_some())))
                }
            }
        };
        let (tops, nt) = cands(t, Side::Top)?;
        let (bottoms, nb) = cands(b, Side::Bottom)?;
        let top_row = self.rows + 1;
        let mut best: Option<(i64, PinPair)> = None;
        for &ct in &tops[..nt] {
            for &cb in &bottoms[..nb] {
                let rt = ct.map_or(top_row + 1, |s| self.row(s));
                let rb = cb.map_or(-1, |s| self.row(s));
                if rb >= rt {
                    continue;
                }
                let mut cost = 0;
                if let (Some(n), Some(s)) = (t, ct) {
                    cost += top_row - rt;
                    if self.state[s] != n + 1 {
                        cost += self.params.own_bias;
                    }
                }
                if let (Some(n), Some(s)) = (b, cb) {
                    cost += rb;
                    if self.state[s] != n + 1 {
                        cost += self.params.own_bias;
                    }
                }
                if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                    best = Some((cost, (ct, cb)));
                }
            }
        }
        best.map(|(_, p)| p)
    }

    /// No compatible choice: add a row where the pin with the longer reach
    /// can get in (the other pin keeps its nearest slot).
    fn make_room(&mut self, t: Option<u32>, b: Option<u32>) {
        let top_row = self.rows + 1;
        let nearest = |n: Option<u32>, side| n.and_then(|n| self.pin_candidates(n, side)[0]);
        let rt = nearest(t, Side::Top).map(|s| self.row(s));
        let rb = nearest(b, Side::Bottom).map(|s| self.row(s));
        match (rt, rb) {
            (Some(rt), Some(rb)) => {
                if top_row - rt <= rb {
                    // The top pin keeps its slot; the bottom one gets a new
                    // row just below it.
                    self.insert_row(rt);
                } else {
                    self.insert_row(rb + 1);
                }
            }
            // A pin with no empty or own slot at all: a new row on its side.
            (None, _) if t.is_some() => self.insert_row(self.rows + 1),
            _ => self.insert_row(1),
        }
    }

    /// Count the components of every net among the current column's slots
    /// into `pieces`, and list in `split` the nets in more than one.
    fn count_pieces(&mut self) {
        self.stamp += 1;
        self.split.clear();
        for s in 0..self.slots() {
            let o = self.state[s];
            // A component holds one net's slots and its root is one of
            // them: each root a net owns is one of its components.
            if o != 0 && self.sets.is_root(s) {
                let entry = &mut self.pieces[(o - 1) as usize];
                if entry.0 != self.stamp {
                    *entry = (self.stamp, 0);
                }
                entry.1 += 1;
                if entry.1 == 2 {
                    self.split.push(o - 1);
                }
            }
        }
    }

    /// A net's components at the last [`State::count_pieces`].
    fn pieces_of(&self, net: u32) -> u32 {
        let (stamp, n) = self.pieces[net as usize];
        if stamp == self.stamp {
            n
        } else {
            0
        }
    }

    /// Step 2: join split nets. Candidates are chains of a net's slots
    /// (rows `lo ..= hi` on the vertical layer, free of other nets); a chain
    /// is worth the tracks it frees (its components less one), plus one when
    /// it joins the whole net and the net ends here (the spec note's
    /// weighting after Rivest and Fiduccia). The heaviest set of chains on
    /// disjoint rows is chosen by dynamic programming over the rows.
    fn collapse(&mut self, x: i64) {
        self.count_pieces();
        if self.split.is_empty() {
            return;
        }
        let slots = self.slots();
        let mut joins = std::mem::take(&mut self.joins);
        joins.chains.clear();
        for i in 0..self.split.len() {
            let net = self.split[i];
            joins.group.clear();
            for s in 0..slots {
                if self.state[s] == net + 1 {
                    joins.group.push((s, self.find(s)));
                }
            }
            let roots = self.pieces_of(net);
            let ends = !self.continues(net, x);
            let group = &joins.group;
            for a in 0..group.len() {
                let lo = self.row(group[a].0);
                // The components among `group[a ..= b]`.
                let mut seen = 1;
                for b in a + 1..group.len() {
                    let hi = self.row(group[b].0);
                    if !self.v_free(net, lo, hi) {
                        break;
                    }
                    let root = group[b].1;
                    if group[a..b].iter().all(|g| g.1 != root) {
                        seen += 1;
                    }
                    if seen < 2 {
                        continue;
                    }
                    let whole = seen == roots;
                    let w = seen - 1 + u32::from(whole && ends);
                    joins.chains.push((hi, lo, w, net));
                }
            }
        }
        if !joins.chains.is_empty() {
            let chains = &mut joins.chains;
            chains.sort_unstable();
            // best[y + 1]: the heaviest choice among chains with hi <= y.
            let top = self.rows as usize + 1;
            let (best, pick) = (&mut joins.best, &mut joins.pick);
            best.clear();
            best.resize(top + 2, 0);
            pick.clear();
            pick.resize(top + 2, None);
            let mut c = 0;
            for y in 0..=top {
                best[y + 1] = best[y];
                while c < chains.len() && chains[c].0 as usize == y {
                    let (_, lo, w, _) = chains[c];
                    let v = best[lo as usize] + w;
                    if v > best[y + 1] {
                        best[y + 1] = v;
                        pick[y + 1] = Some(c);
                    }
                    c += 1;
                }
            }
            let mut y = top + 1;
            while y > 0 {
                match pick[y] {
                    Some(c) => {
                        let (hi, lo, _, net) = chains[c];
                        self.vertical(x, net, lo, hi);
                        y = lo as usize;
                    }
                    _ => y -= 1,
                }
            }
        }
        self.joins = joins;
    }

    /// After the joins: which slot each component of each net keeps (the
    /// one nearest the side of its next pin); nets that end here keep none.
    fn choose_kept(&mut self, x: i64) {
        let slots = self.slots();
        self.count_pieces();
        self.comp.clear();
        self.comp.resize(slots, (0, 0));
        for s in 0..slots {
            if self.state[s] != 0 {
                let r = self.find(s);
                self.comp[r].0 += 1;
            }
        }
        // Slots in ascending order: each component's slots come by rank.
        for s in 0..slots {
            let o = self.state[s];
            if o == 0 {
                continue;
            }
            let net = o - 1;
            if self.pieces_of(net) == 1 && !self.continues(net, x) {
                continue; // the net ends here
            }
            let r = self.find(s);
            let (size, rank) = self.comp[r];
            self.comp[r].1 += 1;
            let kept_rank = if size == 1 {
                0
            } else {
                match self.side_bias(net, x).signum() {
                    -1 => 0,
                    1 => size - 1,
                    _ => (size - 1) / 2,
                }
            };
            if rank == kept_rank {
                self.keep[s] = true;
            }
        }
    }

    /// Move a kept track of `net` from slot `from` to the empty slot `to`
    /// with a jog.
    fn jog(&mut self, x: i64, net: u32, from: usize, to: usize) {
        let (a, b) = (self.row(from), self.row(to));
        self.state[to] = net + 1;
        self.keep[from] = false;
        self.keep[to] = true;
        self.vertical(x, net, a.min(b), a.max(b));
    }

    /// The farthest empty slot from `s` in the direction `dir` (+1 up, -1
    /// down) reachable on the free vertical layer, not beyond row `limit`.
    fn reach(&self, net: u32, s: usize, dir: i64, limit: i64) -> Option<usize> {
        let mut best = None;
        let mut y = self.row(s);
        let own = self.vcol[y as usize];
        if own != 0 && own != net + 1 {
            return None;
        }
        loop {
            y += dir;
            if y < 1 || y > self.rows || (dir > 0 && y > limit) || (dir < 0 && y < limit) {
                break;
            }
            let o = self.vcol[y as usize];
            if o != 0 && o != net + 1 {
                break;
            }
            for j in 0..self.k {
                let t = (y as usize - 1) * self.k + j;
                if self.state[t] == 0 {
                    best = Some(t);
                    break;
                }
            }
        }
        best
    }

    /// The lowest two and the highest two slots kept by a net that keeps
    /// at least two, as `[lo, lo2, hi2, hi]`.
    fn kept_ends(&self, net: u32) -> [usize; 4] {
        let (mut lo, mut lo2, mut hi2, mut hi) = (None, None, None, None);
        for s in 0..self.slots() {
            if self.keep[s] && self.state[s] == net + 1 {
                if lo.is_none() {
                    lo = Some(s);
                } else if lo2.is_none() {
                    lo2 = Some(s);
                }
                hi2 = hi;
                hi = Some(s);
            }
        }
        [lo, lo2, hi2, hi].map(|s| s.expect("a net keeping two slots"))
    }

    /// Step 3: pull the outermost tracks of nets still split inwards, by
    /// net (the nets [`State::choose_kept`] found split, which keep one
    /// slot per component).
    fn reduce_ranges(&mut self, x: i64) {
        self.split.sort_unstable();
        for i in 0..self.split.len() {
            let net = self.split[i];
            let [lo, lo2, hi2, hi] = self.kept_ends(net);
            if let Some(to) = self.reach(net, hi, -1, self.row(hi2) + 1) {
                if self.row(hi) - self.row(to) >= self.params.min_jog {
                    self.jog(x, net, hi, to);
                }
            }
            if let Some(to) = self.reach(net, lo, 1, self.row(lo2) - 1) {
                if self.row(to) - self.row(lo) >= self.params.min_jog {
                    self.jog(x, net, lo, to);
                }
            }
        }
    }

    /// Step 4: nets in one piece whose next pin is on one side move towards
    /// it, nearest next pin first.
    fn move_to_pins(&mut self, x: i64) {
        let mut movers = std::mem::take(&mut self.movers);
        movers.clear();
        for s in 0..self.slots() {
            if !self.keep[s] {
                continue;
            }
            let net = self.state[s] - 1;
            // As counted by `choose_kept`: the jogs since only move kept slots.
            if self.pieces_of(net) > 1 {
                continue; // split nets do not move here
            }
            let bias = self.side_bias(net, x);
            if bias == 0 {
                continue;
            }
            let next = self.next_pin(net, x).unwrap_or(i64::MAX);
            movers.push((next, s, net, bias));
        }
        movers.sort_unstable();
        for &(_, s, net, bias) in &movers {
            let limit = if bias > 0 { self.rows } else { 1 };
            if let Some(to) = self.reach(net, s, bias, limit) {
                if (self.row(to) - self.row(s)).abs() >= self.params.min_jog {
                    self.jog(x, net, s, to);
                }
            }
        }
        self.movers = movers;
    }

    /// After the last column: every net done except right-side nets, each
    /// in one piece on one track (the side column is no place for jogs:
    /// the strict boundary rule keeps wires out of it but for the exits).
    fn finish(&mut self) -> Option<()> {
        let mut alive: Vec<u32> = self.carry.iter().copied().filter(|&o| o != 0).collect();
        if alive.iter().any(|&o| !self.nets[(o - 1) as usize].right) {
            return None;
        }
        alive.sort_unstable();
        let before = alive.len();
        alive.dedup();
        (alive.len() == before).then_some(())
    }
}

/// Knob settings tried at each start width: (shortest jog, steady-net
/// constant, own-track bias).
const KNOBS: &[(i64, i64, i64)] = &[
    (1, 10, 100),
    (3, 20, 100),
    (2, 10, 10),
    (1, 1, 10),
    (3, 20, 0),
    (2, 10, 4),
];

/// How many start widths above the lower bound are tried.
const STARTS: i64 = 4;

/// The best sweep (fewest tracks, then fewest pieces) over a few start
/// widths from `lower` up and the knob settings; stops at the first start
/// width that some setting routes without insertions.
pub fn best(problem: &ChannelProblem, model: LayerModel, lower: i64) -> Option<Sweep> {
    best_within(problem, model, lower, i64::MAX)
}

/// [`best`] when it needs at most `cap` tracks, else `None`, found without
/// finishing the sweeps that need more: they give up once they pass `cap`,
/// and start widths above it are not tried. (A sweep's tracks never drop
/// below its start width, and a sweep that stays within its give-up width
/// runs as it would without one, so the sweeps within `cap` are the same
/// sweeps in the same order as in [`best`].)
pub fn best_within(
    problem: &ChannelProblem,
    model: LayerModel,
    lower: i64,
    cap: i64,
) -> Option<Sweep> {
    let mut best: Option<Sweep> = None;
    for extra in 0..STARTS {
        if lower + extra > cap {
            break;
        }
        for &(min_jog, steady, own_bias) in KNOBS {
            if best.as_ref().is_some_and(|b| b.rows <= lower + extra) {
                // This start width cannot beat what we have.
                break;
            }
            let params = Params {
                initial_width: lower + extra,
                min_jog,
                steady,
                own_bias,
                give_up_at: best.as_ref().map_or(cap.saturating_add(1), |b| b.rows),
            };
            if let Some(sw) = sweep(problem, model, params) {
                if best
                    .as_ref()
                    .is_none_or(|b| (sw.rows, sw.pieces()) < (b.rows, b.pieces()))
                {
                    best = Some(sw);
                }
            }
        }
        if best.as_ref().is_some_and(|b| b.rows <= lower + extra) {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_case;
    use super::*;
    use rand::SeedableRng;

    /// `best_within` against `best`: the same sweep when that needs at most
    /// the cap, else none, for caps below, at and above its width.
    #[test]
    fn best_within_a_cap_is_best_when_that_fits() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
        let (mut fits, mut not) = (0, 0);
        for _ in 0..150 {
            let (p, model) = random_case(&mut rng, 6..120, 0.4..1.0, 2..30, 0.0..0.3);
            let h = model.h_layers().len() as i64;
            let lower = (crate::channel::analysis::density(&p) as i64 + h - 1) / h;
            let lower = lower.max(1);
            let full = best(&p, model, lower);
            let width = full.as_ref().map_or(lower + 8, |sw| sw.rows);
            for cap in (lower - 1).max(0)..=width + 1 {
                let within = best_within(&p, model, lower, cap);
                match &full {
                    Some(sw) if sw.rows <= cap => {
                        assert_eq!(within.as_ref(), Some(sw), "{} cap {cap}", p.name());
                        fits += 1;
                    }
                    _ => {
                        assert!(within.is_none(), "{} cap {cap}", p.name());
                        not += 1;
                    }
                }
            }
        }
        assert!(fits > 100 && not > 100, "both cases seen: {fits} / {not}");
    }
}
