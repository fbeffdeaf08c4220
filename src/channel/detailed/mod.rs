//! Reserved-layer detailed channel routing in two layers (HV, VH) and three
//! layers (HVH, VHV) after YACR2 (thesis section 6.4 uses it for MulCh's HV and
//! HVH groups; design in spec note 003 part 2, section 4):
//!
//! 1. start at the lower bound `W = ceil(d / H)`;
//! 2. assign every net's trunk to a slot (row, horizontal layer) with few
//!    vertical constraint violations ([`assign`]);
//! 3. draw trunks and the straight pin stubs that do not collide;
//! 4. connect each remaining pin to its net by a shortest path through free
//!    space on any layer ([`maze`]), trying either net of a violating column
//!    first, each in a widening window of columns;
//! 5. if a pin stays unconnected, insert an empty row at each position in
//!    turn and retry, then assign afresh with one more row, and so on. `W`
//!    is bounded (`d + nets + 2`), so the router always stops.
//!
//! VHV has two vertical layers, so top pins come down on one and bottom pins
//! go up on the other and no column ever conflicts: it reaches density.

pub mod assign;
pub mod grid;
pub mod maze;

use crate::channel::analysis::{density, vertical_constraint_graph};
use crate::channel::problem::{ChannelProblem, NetId};
use crate::channel::router::{ChannelRouter, RouteError, RouteOptions};
use crate::channel::solution::{ChannelSolution, LayerGroup};

use assign::{assign, depths, Depths, Slot};
use grid::{Cell, Grid};
use maze::{commit, Costs, Preferred, Search};

/// The layer models of reserved-layer routing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerModel {
    Hv,
    Vh,
    Hvh,
    Vhv,
}

impl LayerModel {
    pub fn name(self) -> &'static str {
        match self {
            LayerModel::Hv => "HV",
            LayerModel::Vh => "VH",
            LayerModel::Hvh => "HVH",
            LayerModel::Vhv => "VHV",
        }
    }

    pub fn parse(s: &str) -> Option<LayerModel> {
        match s.to_ascii_uppercase().as_str() {
            "HV" => Some(LayerModel::Hv),
            "VH" => Some(LayerModel::Vh),
            "HVH" => Some(LayerModel::Hvh),
            "VHV" => Some(LayerModel::Vhv),
            _ => None,
        }
    }

    /// The model used for a layer count when none is asked for.
    pub fn default_for(layers: u32) -> Option<LayerModel> {
        match layers {
            2 => Some(LayerModel::Hv),
            3 => Some(LayerModel::Hvh),
            _ => None,
        }
    }

    pub fn layers(self) -> u32 {
        self.name().len() as u32
    }

    fn preferred(self) -> Vec<Preferred> {
        self.name()
            .chars()
            .map(|c| {
                if c == 'H' {
                    Preferred::Horizontal
                } else {
                    Preferred::Vertical
                }
            })
            .collect()
    }

    fn h_layers(self) -> Vec<u32> {
        (1..=self.layers())
            .filter(|&l| self.name().as_bytes()[(l - 1) as usize] == b'H')
            .collect()
    }

    fn v_layers(self) -> Vec<u32> {
        (1..=self.layers())
            .filter(|&l| self.name().as_bytes()[(l - 1) as usize] == b'V')
            .collect()
    }
}

/// The YACR2-style reserved-layer router.
#[derive(Clone, Copy, Debug, Default)]
pub struct DetailedRouter;

impl ChannelRouter for DetailedRouter {
    fn name(&self) -> &'static str {
        "yacr"
    }

    fn route(
        &self,
        problem: &ChannelProblem,
        options: &RouteOptions,
    ) -> Result<ChannelSolution, RouteError> {
        let model = match options.model.as_deref() {
            Some(m) => LayerModel::parse(m).ok_or_else(|| RouteError::Layers {
                router: self.name(),
                layers: options.layers,
                supported: "2 (HV, VH) or 3 (HVH, VHV)",
            })?,
            None => LayerModel::default_for(options.layers).ok_or(RouteError::Layers {
                router: self.name(),
                layers: options.layers,
                supported: "2 (HV, VH) or 3 (HVH, VHV)",
            })?,
        };
        if model.layers() != options.layers {
            return Err(RouteError::Layers {
                router: self.name(),
                layers: options.layers,
                supported: if model.layers() == 2 {
                    "2 for HV and VH"
                } else {
                    "3 for HVH and VHV"
                },
            });
        }
        route_model(problem, model)
    }
}

/// Route a channel in one layer model.
pub fn route_model(
    problem: &ChannelProblem,
    model: LayerModel,
) -> Result<ChannelSolution, RouteError> {
    let d = density(problem) as i64;
    let h = model.h_layers();
    let start = (d + h.len() as i64 - 1) / h.len() as i64;
    let vcg = vertical_constraint_graph(problem);
    let depths = depths(problem, &vcg);
    let spans: Vec<Option<(i64, i64)>> = problem
        .nets()
        .iter()
        .map(|n| {
            n.needs_track(problem.columns())
                .then(|| n.span(problem.columns()))
        })
        .collect();
    let limit = start.max(1) + problem.nets().len() as i64 + 2;
    let mut rows = start;
    while rows <= limit {
        let slots = assign(problem, &spans, rows, &h, &depths);
        if let Some(grid) = attempt(problem, model, rows, &slots, &spans, &depths) {
            return Ok(finish(problem, model, grid));
        }
        // Keep the assignment and open an empty row at each place in turn.
        for f in 1..=rows + 1 {
            let shifted: Vec<Option<Slot>> = slots
                .iter()
                .map(|s| {
                    s.map(|s| Slot {
                        y: if s.y >= f { s.y + 1 } else { s.y },
                        ..s
                    })
                })
                .collect();
            if let Some(grid) = attempt(problem, model, rows + 1, &shifted, &spans, &depths) {
                return Ok(finish(problem, model, grid));
            }
        }
        rows += 1;
    }
    Err(RouteError::Unroutable(format!(
        "the yacr router found no {} routing of {} within {limit} tracks",
        model.name(),
        problem.name()
    )))
}

/// One try at a fixed width and assignment: the grid when every pin is
/// connected.
fn attempt(
    problem: &ChannelProblem,
    model: LayerModel,
    rows: i64,
    slots: &[Option<Slot>],
    spans: &[Option<(i64, i64)>],
    _depths: &Depths,
) -> Option<Grid> {
    let mut g = Grid::new(problem.columns(), rows as u32, model.layers());
    let top = g.top_row();
    let v = model.v_layers();
    // Pins are contacts through all layers.
    for x in 0..problem.columns() as usize {
        for (net, y) in [(problem.bottom()[x], 0), (problem.top()[x], top)] {
            if let Some(id) = net {
                for l in 1..=g.layers {
                    g.claim(Cell::new(x as i64, y, l), id.0);
                }
            }
        }
    }
    // Trunks.
    for (id, (slot, span)) in slots.iter().zip(spans).enumerate() {
        if let (Some(s), Some((lo, hi))) = (slot, span) {
            if !g.run(
                Cell::new(*lo, s.y, s.layer),
                Cell::new(*hi, s.y, s.layer),
                id as u32,
            ) {
                return None;
            }
        }
    }
    // Straight stubs; collect the pins whose stub is blocked.
    // Top stubs use the last V layer, bottom stubs the first (the same one
    // unless the model is VHV).
    let (v_bottom, v_top) = (v[0], *v.last().expect("a model has a V layer"));
    let mut pending: Vec<(i64, bool, u32)> = Vec::new(); // (column, top?, net)
    for x in 0..problem.columns() as i64 {
        let t = problem.top()[x as usize];
        let b = problem.bottom()[x as usize];
        let t_row = t.and_then(|id| slots[id.index()].map(|s| s.y));
        let b_row = b.and_then(|id| slots[id.index()].map(|s| s.y));
        if let (Some(tn), Some(bn)) = (t, b) {
            if tn == bn {
                // One net on both rows: a straight vertical through the
                // column, joined to its trunk if it has one.
                let layer = v_bottom;
                if stub_free(&g, x, 0, top, layer, tn.0) {
                    g.run(Cell::new(x, 0, layer), Cell::new(x, top, layer), tn.0);
                    if let Some(s) = slots[tn.index()] {
                        g.via(x, s.y, s.layer, layer, tn.0);
                    }
                } else {
                    pending.push((x, false, tn.0));
                    pending.push((x, true, tn.0));
                }
                continue;
            }
        }
        let conflict = v_bottom == v_top && matches!((t_row, b_row), (Some(a), Some(b)) if a <= b);
        if conflict {
            pending.push((x, true, t.unwrap().0));
            pending.push((x, false, b.unwrap().0));
            continue;
        }
        if let (Some(tn), Some(y)) = (t, t_row) {
            if !straight_stub(&mut g, slots, x, top, y, v_top, tn) {
                pending.push((x, true, tn.0));
            }
        } else if let Some(tn) = t {
            pending.push((x, true, tn.0));
        }
        if let (Some(bn), Some(y)) = (b, b_row) {
            if !straight_stub(&mut g, slots, x, 0, y, v_bottom, bn) {
                pending.push((x, false, bn.0));
            }
        } else if let Some(bn) = b {
            pending.push((x, false, bn.0));
        }
    }
    // Repair: pairs of pins in one column first, either one bent.
    let preferred = model.preferred();
    let mut k = 0;
    while k < pending.len() {
        let (x, _, _) = pending[k];
        let pair = k + 1 < pending.len() && pending[k + 1].0 == x;
        if pair {
            let (a, b) = (pending[k], pending[k + 1]);
            if !repair_pair(problem, &mut g, slots, &preferred, v_top, v_bottom, a, b) {
                return None;
            }
            k += 2;
        } else {
            let (x, is_top, net) = pending[k];
            if !connect_pin(problem, &mut g, &preferred, x, is_top, net) {
                return None;
            }
            k += 1;
        }
    }
    // Nets with no trunk and no pin pair in one column (single-column nets
    // were handled above); side-only nets always have trunks.
    Some(g)
}

fn stub_free(g: &Grid, x: i64, y0: i64, y1: i64, layer: u32, net: u32) -> bool {
    (y0.min(y1)..=y0.max(y1)).all(|y| g.is_free_for(Cell::new(x, y, layer), net))
}

/// The straight stub of a pin at `(x, pin_y)` to its trunk at row `y`.
fn straight_stub(
    g: &mut Grid,
    slots: &[Option<Slot>],
    x: i64,
    pin_y: i64,
    y: i64,
    layer: u32,
    net: NetId,
) -> bool {
    if !stub_free(g, x, pin_y, y, layer, net.0) {
        return false;
    }
    let s = slots[net.index()].expect("a net with a row has a slot");
    let via_free =
        (s.layer.min(layer)..=s.layer.max(layer)).all(|l| g.is_free_for(Cell::new(x, y, l), net.0));
    if !via_free {
        return false;
    }
    g.run(Cell::new(x, pin_y, layer), Cell::new(x, y, layer), net.0);
    g.via(x, y, s.layer, layer, net.0);
    true
}

/// Whether a cell belongs to the connected tree of a net: a cell the net
/// owns that carries an edge (trunk, stub or path), not a lone pin.
fn in_tree(g: &Grid, c: Cell, net: u32) -> bool {
    if g.owner(c) != net + 1 {
        return false;
    }
    if g.flags(c) != 0 {
        return true;
    }
    // Edges are stored on the lower/left end: look at the neighbours too.
    let left = Cell::new(c.x - 1, c.y, c.layer);
    let down = Cell::new(c.x, c.y - 1, c.layer);
    (g.contains(left) && g.flags(left) & grid::RIGHT != 0)
        || (g.contains(down) && g.flags(down) & grid::UP != 0)
        || (c.layer > 1 && g.flags(Cell::new(c.x, c.y, c.layer - 1)) & grid::VIA != 0)
}

/// Connect one pin to its net's tree with the maze search, widening the
/// window of columns. A net with no trunk (a single-column net whose stub was
/// blocked) connects to its pin on the other row instead.
fn connect_pin(
    problem: &ChannelProblem,
    g: &mut Grid,
    preferred: &[Preferred],
    x: i64,
    is_top: bool,
    net: u32,
) -> bool {
    let top = g.top_row();
    let y = if is_top { top } else { 0 };
    let sources: Vec<Cell> = (1..=g.layers).map(|l| Cell::new(x, y, l)).collect();
    if sources.iter().any(|&c| in_tree(g, c, net)) {
        return true;
    }
    let info = problem.net(NetId(net));
    let trunkless = !info.needs_track(problem.columns());
    let mut reach = 3i64;
    loop {
        let search = Search {
            grid: g,
            net,
            preferred,
            costs: Costs::default(),
            window: (x.saturating_sub(reach), x.saturating_add(reach)),
            left_side: info.left,
            right_side: info.right,
        };
        let found = search.run(&sources, |c| {
            in_tree(g, c, net) || (trunkless && c.x == x && c.y == top - y && g.owner(c) == net + 1)
        });
        if let Some(path) = found {
            commit(g, &path, net);
            return true;
        }
        if reach > g.columns + 2 {
            return false;
        }
        reach *= 3;
    }
}

/// Repair a column whose two pins collide: try bending one and keeping the
/// other straight, in both orders; then both through the maze.
#[allow(clippy::too_many_arguments)]
fn repair_pair(
    problem: &ChannelProblem,
    g: &mut Grid,
    slots: &[Option<Slot>],
    preferred: &[Preferred],
    v_top: u32,
    v_bottom: u32,
    a: (i64, bool, u32),
    b: (i64, bool, u32),
) -> bool {
    let top = g.top_row();
    for (straight, bent) in [(b, a), (a, b)] {
        let mut trial = g.clone();
        let (x, is_top, net) = straight;
        let ok = match slots[net as usize] {
            Some(s) => straight_stub(
                &mut trial,
                slots,
                x,
                if is_top { top } else { 0 },
                s.y,
                if is_top { v_top } else { v_bottom },
                NetId(net),
            ),
            None => false,
        };
        if ok && connect_pin(problem, &mut trial, preferred, bent.0, bent.1, bent.2) {
            *g = trial;
            return true;
        }
    }
    for (first, second) in [(a, b), (b, a)] {
        let mut trial = g.clone();
        if connect_pin(problem, &mut trial, preferred, first.0, first.1, first.2)
            && connect_pin(problem, &mut trial, preferred, second.0, second.1, second.2)
        {
            *g = trial;
            return true;
        }
    }
    false
}

/// Turn a routed grid into a solution.
fn finish(problem: &ChannelProblem, model: LayerModel, g: Grid) -> ChannelSolution {
    let (wires, vias) = g.geometry(|id| problem.label(NetId(id)));
    let mut s = ChannelSolution {
        name: problem.name().to_string(),
        layers: model.layers(),
        width: g.width as u32,
        columns: problem.columns(),
        groups: vec![LayerGroup {
            kind: model.name().to_string(),
            layers: (1..=model.layers()).collect(),
        }],
        wires,
        vias,
    };
    s.canonicalize();
    s
}
