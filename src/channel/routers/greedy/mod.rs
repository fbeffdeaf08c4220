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
//!
//! Here: the knobs, the sweep's result and its drawing, and the search over
//! start widths and knobs; the sweep's frame in `column`, the steps of a
//! column in `steps`.

use crate::channel::analysis::density;
use crate::channel::grid::finish::finish;
use crate::channel::grid::{Cell, Grid};
use crate::channel::layer_model::Directions;
use crate::channel::layer_model::LayerModel;
use crate::channel::problem::{ChannelProblem, Pin, Side};
use crate::channel::router::{model_for, ChannelRouter, RouteError, RouteOptions};
use crate::channel::solution::ChannelSolution;
use crate::graph::UnionFind;

mod column;
mod steps;

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
struct NetInfo<'a> {
    /// The net's pins, sorted by column (the problem's own list: a sweep
    /// that gives up early must not pay for copying every net's pins).
    pins: &'a [Pin],
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
                for l in 1..=g.extent.layers {
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
    nets: Vec<NetInfo<'a>>,
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

/// The greedy (Rivest–Fiduccia) router alone: one left-to-right sweep per
/// start width and knob setting (this module).
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyRouter;

impl ChannelRouter for GreedyRouter {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn route(
        &self,
        problem: &ChannelProblem,
        options: &RouteOptions,
    ) -> Result<ChannelSolution, RouteError> {
        let model = model_for(self.name(), options)?;
        if model == LayerModel::Vhv {
            return Err(RouteError::Layers {
                router: self.name(),
                layers: options.layers,
                supported: "2 (HV, VH) or 3 (HVH)",
            });
        }
        let lower = lower_bound(problem, model);
        match best(problem, model, lower) {
            Some(sw) => Ok(finish(
                problem,
                model,
                options.directions,
                draw(problem, model, &sw),
            )),
            None => Err(RouteError::Unroutable(format!(
                "the greedy router left a net split at the right end of {} at every start width tried",
                problem.name()
            ))),
        }
    }
}

/// One greedy sweep with the given knobs, drawn and cleaned up; `None`
/// when a net stays split at the right end (or for VHV, which the sweep
/// does not route).
pub fn greedy_solution(
    problem: &ChannelProblem,
    model: LayerModel,
    params: Params,
) -> Option<ChannelSolution> {
    let sw = sweep(problem, model, params)?;
    Some(finish(
        problem,
        model,
        Directions::Preferred,
        draw(problem, model, &sw),
    ))
}

/// `ceil(d / H)`: 0 when no net needs a track.
pub fn lower_bound(problem: &ChannelProblem, model: LayerModel) -> i64 {
    let d = density(problem) as i64;
    let h = model.h_layers().len() as i64;
    (d + h - 1) / h
}

#[cfg(test)]
mod tests;
