//! The repair of one conflicting column (a top pin's riser that would
//! cross the bottom pin's), cheapest step first: draw one riser straight
//! and connect both nets by shortest paths through free space in widening
//! windows; connect them in either order; rip up and reroute (paths may
//! take other nets' track cells, whose nets are rejoined in turn); local
//! negotiation of a window of columns ([`super::local`]); last, free the
//! two nets' own track cells near the column and rejoin them.

use super::riser::{draw_riser, Riser};
use super::*;
use crate::channel::grid::PointState;

/// Widest detour (columns either side) a rip-up search looks at.
const STEAL_REACH: i64 = 27;

/// Widest detour (columns either side) a repair searches.
pub(super) const MAX_REACH: i64 = 243;

/// How many columns right of its conflict a repair may read or write: its
/// widest search window and a margin.
pub(super) const SEEN_BEYOND: i64 = MAX_REACH + 4;

/// How many times the repairs of one attempt may start over (per
/// [`RESTART_REACH`] columns).
pub(super) const REPAIR_RESTARTS: usize = 3;

/// When the repairs start over, those made before the first one within this
/// many columns of the failed one are kept (more than twice [`MAX_REACH`]; a
/// channel narrower than this always starts over from its first repair).
pub(super) const RESTART_REACH: i64 = 600;

/// Every net in one piece and on its side exits (a last guard: repairs
/// work on components and must not have lost an exit).
pub(super) fn complete(problem: &ChannelProblem, g: &mut Grid) -> bool {
    let pieces = g.count_all_components();
    problem.net_ids().all(|id| {
        let net = problem.net(id);
        let on_side = |x: i64| {
            (1..=g.extent.layers)
                .any(|l| (1..=g.extent.width).any(|y| g.owner(Cell::new(x, y, l)) == id.0 + 1))
        };
        (!net.left || on_side(-1))
            && (!net.right || on_side(g.extent.columns))
            && pieces[id.index()] == 1
    })
}

/// Join every piece of a net into one component through free space,
/// searching near `x` first and widening.
fn connect_net(
    problem: &ChannelProblem,
    g: &mut Grid,
    preferred: &[Preferred],
    layers: u32,
    net: u32,
    x: i64,
) -> bool {
    connect_within(problem, g, preferred, layers, net, x, 0)
}

/// As [`connect_within`] on every layer of the grid.
fn connect_stealing(
    problem: &ChannelProblem,
    g: &mut Grid,
    preferred: &[Preferred],
    net: u32,
    x: i64,
    depth: u32,
) -> bool {
    let layers = g.extent.layers;
    connect_within(problem, g, preferred, layers, net, x, depth)
}

/// As [`connect_net`], but with `depth > 0` a path may take other nets'
/// track cells at a price; each net that lost cells is then rejoined the
/// same way with `depth - 1`. Paths use layers `1 ..= layers`.
pub(super) fn connect_within(
    problem: &ChannelProblem,
    g: &mut Grid,
    preferred: &[Preferred],
    layers: u32,
    net: u32,
    x: i64,
    depth: u32,
) -> bool {
    let info = problem.net(NetId(net));
    let limit = if depth > 0 { STEAL_REACH } else { MAX_REACH };
    let widest = widest_reach(limit);
    loop {
        let comps = g.label_components(net);
        // Pieces with no cell in the widest window are out of every
        // search's reach: they are other repairs' business (a long net's
        // pin at another conflict, or past the columns drawn so far), and
        // the attempt's last check finds any piece left over.
        let near = |c: &Vec<Cell>| c.iter().map(|k| (k.x - x).abs()).min().unwrap_or(i64::MAX);
        if comps.iter().filter(|c| near(c) <= widest).count() <= 1 {
            return true;
        }
        // Grow the component nearest to x.
        let (si, _) = comps
            .iter()
            .enumerate()
            .min_by_key(|(k, c)| (near(c), *k))
            .expect("two components");
        let sources: Vec<Cell> = comps[si].clone();
        let mut reach = 3i64;
        let mut checked = false;
        let found = loop {
            let search = Search {
                grid: g,
                net,
                preferred,
                costs: Costs::default(),
                window: (x.saturating_sub(reach), x.saturating_add(reach)),
                layers,
                left_side: info.left,
                right_side: info.right,
                steal: (depth > 0).then_some(STEAL_PRICE),
            };
            let window_bound = match search.run(&sources, |_, i| {
                g.owner_at(i) == net + 1 && g.component_at(i).is_some_and(|k| k != si)
            }) {
                Ok(path) => break Some(path),
                Err(e) => e.window_bound,
            };
            // Wider only when the window kept the search from something.
            if reach >= limit || !window_bound {
                break None;
            }
            // Most searches that get this far fail at every width: the
            // other pieces are walled in, while this one floods the open
            // space of ever wider windows. Flooding back from the other
            // pieces in the widest window decides those at once.
            if reach >= WALLED_FROM && !checked {
                checked = true;
                let wide = Search {
                    window: (x.saturating_sub(widest), x.saturating_add(widest)),
                    ..search
                };
                if walled_in(&wide, &comps, si) {
                    break None;
                }
            }
            reach *= 3;
        };
        match found {
            Some(path) => {
                let victims = commit(g, &path, net);
                for v in victims {
                    if !connect_within(problem, g, preferred, layers, v, x, depth.saturating_sub(1))
                    {
                        return false;
                    }
                }
            }
            None => return false,
        }
    }
}

/// The reach of the widest window [`connect_within`] searches when its
/// windows may grow up to `limit` (3, 9, 27, ... until `limit` is met).
fn widest_reach(limit: i64) -> i64 {
    let mut widest = 3i64;
    while widest < limit {
        widest *= 3;
    }
    widest
}

/// The window reach from which a failing search first checks whether the
/// other pieces are walled in ([`walled_in`]).
const WALLED_FROM: i64 = 3;

/// Cells a flood back from the other pieces may enter before giving up.
const WALLED_BUDGET: usize = 1024;

/// Whether the pieces of the search's net other than `comps[si]` surely
/// cannot reach it within the search's window (the widest
/// [`connect_within`] would search), by a flood back from them that gives
/// up after [`WALLED_BUDGET`] cells. Exact by the symmetry of the moves
/// ([`Search::reaches`]), so it is used only when every piece lies inside
/// the grid's columns and the search's layers.
fn walled_in(search: &Search, comps: &[Vec<Cell>], si: usize) -> bool {
    let g = search.grid;
    let inside = |c: &Cell| c.x >= 0 && c.x < g.extent.columns && c.layer <= search.layers;
    if !comps.iter().flatten().all(inside) {
        return false;
    }
    let others = maze::other_pieces(comps, si);
    let mine = search.net + 1;
    let back = search.reaches(
        &others,
        |_, i| g.owner_at(i) == mine && g.component_at(i) == Some(si),
        WALLED_BUDGET,
    );
    back == Some(false)
}

/// Repair a column where the top net's riser would cross the bottom net's:
/// the steps of the ladder ([`ladder`]) in turn, each a trial, until one
/// succeeds. The costlier steps are skipped once the attempt is abandoned.
#[allow(clippy::too_many_arguments)]
pub(super) fn repair(
    problem: &ChannelProblem,
    g: &mut Grid,
    preferred: &[Preferred],
    own: u32,
    x: i64,
    lower: &Riser,
    upper: &Riser,
    abandoned: &dyn Fn() -> bool,
) -> bool {
    let conflict = Conflict { x, lower, upper };
    for step in ladder(own, g.extent.layers) {
        if step.checks_abandoned() && abandoned() {
            return false;
        }
        if step.apply(problem, g, preferred, &conflict) {
            return true;
        }
    }
    false
}

/// What is in conflict in a column: the bottom pin's riser and the top
/// pin's, which would cross.
pub(super) struct Conflict<'r> {
    /// The column.
    pub(super) x: i64,
    /// The bottom pin's riser.
    pub(super) lower: &'r Riser,
    /// The top pin's riser.
    pub(super) upper: &'r Riser,
}

impl Conflict<'_> {
    /// The risers in the order `first` names.
    fn ordered(&self, first: Which) -> (&Riser, &Riser) {
        match first {
            Which::Lower => (self.lower, self.upper),
            Which::Upper => (self.upper, self.lower),
        }
    }
}

/// One of the two risers of a [`Conflict`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Which {
    /// The bottom pin's.
    Lower,
    /// The top pin's.
    Upper,
}

/// A step of the repair ladder, cheapest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RepairStep {
    /// Draw one riser straight and join both nets (its own first) by
    /// shortest paths through free space on layers `1 ..= layers`.
    Straight { layers: u32, straight: Which },
    /// Join both nets by shortest paths, `first` first.
    Maze { layers: u32, first: Which },
    /// Rip up and reroute: the nets may take other nets' track cells, and
    /// the nets that lose cells are rejoined in turn.
    Steal { first: Which },
    /// Negotiate the window of `reach` columns either side among every net
    /// in it ([`local::negotiate`]).
    Negotiate { reach: i64 },
    /// Move the two nets' own trunk ends: free their track cells within
    /// `reach` columns and rejoin them (with rip-up of others).
    Release { reach: i64, first: Which },
}

/// The repair ladder of a grid of `layers` layers for a model of `own`:
/// the maze steps on the model's own layers first and then with a borrowed
/// layer above them, if the grid has one (the thesis's search of B-layer
/// free space before a track is added), each keeping one riser straight
/// (either) and then neither; rip-up and reroute; local negotiation in
/// widening windows; last, the nets' own trunk ends freed in widening
/// windows.
pub(super) fn ladder(own: u32, layers: u32) -> impl Iterator<Item = RepairStep> {
    use RepairStep::*;
    use Which::*;
    let reach: &'static [bool] = if layers > own {
        &[false, true]
    } else {
        &[false]
    };
    let maze = reach.iter().flat_map(move |&borrowed| {
        let layers = if borrowed { layers } else { own };
        [
            Straight {
                layers,
                straight: Lower,
            },
            Straight {
                layers,
                straight: Upper,
            },
            Maze {
                layers,
                first: Upper,
            },
            Maze {
                layers,
                first: Lower,
            },
        ]
    });
    let steal = [Steal { first: Upper }, Steal { first: Lower }];
    let negotiate = [2, 4, 8].map(|reach| Negotiate { reach });
    let release = [1, 2, 4]
        .into_iter()
        .flat_map(|reach| [Upper, Lower].map(|first| Release { reach, first }));
    maze.chain(steal).chain(negotiate).chain(release)
}

impl RepairStep {
    /// Whether the step is skipped once the attempt is abandoned (checked
    /// before rip-up, before each window of negotiation and before each
    /// window of freed trunk ends).
    fn checks_abandoned(self) -> bool {
        matches!(
            self,
            RepairStep::Steal {
                first: Which::Upper
            } | RepairStep::Negotiate { .. }
                | RepairStep::Release {
                    first: Which::Upper,
                    ..
                }
        )
    }

    /// Try the step on a conflict: whether it repaired it (else the grid
    /// is as it was).
    fn apply(
        self,
        problem: &ChannelProblem,
        g: &mut Grid,
        preferred: &[Preferred],
        c: &Conflict,
    ) -> bool {
        let x = c.x;
        match self {
            RepairStep::Straight { layers, straight } => {
                let (straight, bent) = c.ordered(straight);
                g.trial(|g| {
                    draw_riser(g, x, straight)
                        && connect_net(problem, g, preferred, layers, straight.net, x)
                        && connect_net(problem, g, preferred, layers, bent.net, x)
                })
            }
            RepairStep::Maze { layers, first } => {
                let (first, second) = c.ordered(first);
                g.trial(|g| {
                    connect_net(problem, g, preferred, layers, first.net, x)
                        && connect_net(problem, g, preferred, layers, second.net, x)
                })
            }
            RepairStep::Steal { first } => {
                let (first, second) = c.ordered(first);
                g.trial(|g| {
                    connect_stealing(problem, g, preferred, first.net, x, STEAL_DEPTH)
                        && connect_stealing(problem, g, preferred, second.net, x, STEAL_DEPTH)
                })
            }
            RepairStep::Negotiate { reach: r } => {
                local::negotiate(g, preferred, x - r, x + r, &[c.lower.net, c.upper.net])
            }
            RepairStep::Release { reach: r, first } => {
                let (first, second) = c.ordered(first);
                g.trial(|g| {
                    release_near(g, &[first.net, second.net], x - r, x + r);
                    connect_stealing(problem, g, preferred, first.net, x, STEAL_DEPTH)
                        && connect_stealing(problem, g, preferred, second.net, x, STEAL_DEPTH)
                })
            }
        }
    }
}

/// Free the track cells (rows `1 ..= W`, side exits kept) of some nets in
/// columns `x0 ..= x1`.
fn release_near(g: &mut Grid, nets: &[u32], x0: i64, x1: i64) {
    for layer in 1..=g.extent.layers {
        for y in 1..=g.extent.width {
            for x in x0.max(0)..=x1.min(g.extent.columns - 1) {
                let c = Cell::new(x, y, layer);
                if matches!(g.state(c), PointState::Net(net) if nets.contains(&net)) {
                    g.release(c);
                }
            }
        }
    }
}

/// Extra cost of taking a cell from another net during rip-up and reroute.
const STEAL_PRICE: u32 = 12;
/// How many generations of nets may lose cells in one repair.
const STEAL_DEPTH: u32 = 2;
