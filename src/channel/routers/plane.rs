//! The single-layer ("plane") router of MulCh's B groups (thesis section
//! 6.4; the exact reference model).
//!
//! Between columns `x` and `x + 1` a net present there has one horizontal
//! run at row `h(n, x)`. In each column the present nets keep the order
//! they must have in one layer: the bottom pin's net lowest, the nets that
//! entered from the bottom nearest above it, then those that entered from
//! the top (the earliest lowest), the top pin's net highest. Consecutive
//! nets' runs next to the column must be one row apart at least; the runs
//! then sit at `1 + (longest chain of such constraints below them)`, the
//! smallest rows possible, and the width is the highest run. For planar
//! channels this width equals the minimum separation plus one (`docs/models.md`, section 7),
//! which the tests check against [`crate::channel::separation`].
//!
//! Everything lies on layer 1; there are no vias.

use crate::channel::analysis::crossing_pairs;
use crate::channel::problem::{ChannelProblem, Side};
use crate::channel::router::{ChannelRouter, RouteError, RouteOptions};
use crate::channel::solution::{ChannelSolution, GroupType, LayerGroup, Wire};
use crate::geom::Point;
use crate::graph::Digraph;

/// The single-layer router.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlaneRouter;

impl ChannelRouter for PlaneRouter {
    fn name(&self) -> &'static str {
        "plane"
    }

    fn route(
        &self,
        problem: &ChannelProblem,
        options: &RouteOptions,
    ) -> Result<ChannelSolution, RouteError> {
        if options.layers != 1 {
            return Err(RouteError::Layers {
                router: self.name(),
                layers: options.layers,
                supported: "1",
            });
        }
        route_plane(problem)
    }
}

/// Passes of the final optimisation: on the 100,000-column bench, passes 5
/// to 8 save 1.9 % more net length for twice the time.
const SMOOTH_PASSES: usize = 4;

/// The final optimisation of the plane router at fixed width: net by net, with the
/// other nets held, choose each run's row inside its window (above every run
/// that must lie below it, below every run that must lie above it) by dynamic
/// programming along the net, minimising vertical wire plus two per dogleg;
/// repeat while anything changes, at most [`SMOOTH_PASSES`] passes. Runs of
/// one net never constrain each other, so every choice stays legal.
fn smooth(problem: &ChannelProblem, base: &[usize], graph: &Digraph, h: &mut [i64], width: i64) {
    let nets = problem.nets();
    // Predecessors of each run (the runs that must lie below it).
    let mut below: Vec<Vec<u32>> = vec![Vec::new(); h.len()];
    for (a, b) in graph.edges() {
        below[b as usize].push(a);
    }
    let top_row = width + 1;
    for _ in 0..SMOOTH_PASSES {
        let mut changed = false;
        for (k, n) in nets.iter().enumerate() {
            let (Some(f), Some(l)) = (n.first_pin(), n.last_pin()) else {
                continue;
            };
            let (f, l) = (f as usize, l as usize);
            if f == l {
                continue;
            }
            let len = l - f;
            let window = |r: usize, h: &[i64]| -> (i64, i64) {
                let lo = below[r]
                    .iter()
                    .map(|&p| h[p as usize] + 1)
                    .max()
                    .unwrap_or(1);
                let hi = graph
                    .successors(r as u32)
                    .iter()
                    .map(|&s| h[s as usize] - 1)
                    .min()
                    .unwrap_or(width);
                (lo, hi)
            };
            // Pin rows at each column of the net, as (lowest, highest).
            let mut pins: Vec<Option<(i64, i64)>> = vec![None; len + 1];
            for p in &n.pins {
                let y = if p.side == Side::Bottom { 0 } else { top_row };
                let e = &mut pins[p.column as usize - f];
                *e = Some(e.map_or((y, y), |(a, b)| (a.min(y), b.max(y))));
            }
            // Vertical wire in a column: the span of its pins and rows.
            let span = |x: usize, a: i64, b: i64| -> i64 {
                let (mut lo, mut hi) = (a.min(b), a.max(b));
                if let Some((p, q)) = pins[x - f] {
                    lo = lo.min(p);
                    hi = hi.max(q);
                }
                hi - lo
            };
            // cost[i][y]: best cost of runs f..=f+i with run f+i at row y.
            let windows: Vec<(i64, i64)> = (0..len).map(|i| window(base[k] + i, h)).collect();
            let mut cost: Vec<Vec<i64>> = Vec::with_capacity(len);
            let mut from: Vec<Vec<i64>> = Vec::with_capacity(len);
            let (lo0, hi0) = windows[0];
            cost.push((lo0..=hi0).map(|y| span(f, y, y)).collect());
            from.push(vec![0; (hi0 - lo0 + 1).max(0) as usize]);
            for i in 1..len {
                let (lo, hi) = windows[i];
                let (plo, phi) = windows[i - 1];
                let mut row_cost = Vec::new();
                let mut row_from = Vec::new();
                for y in lo..=hi {
                    let mut best = (i64::MAX, plo);
                    for py in plo..=phi {
                        let prev = cost[i - 1][(py - plo) as usize];
                        let c = prev + span(f + i, py, y) + 2 * (py != y) as i64;
                        if c < best.0 {
                            best = (c, py);
                        }
                    }
                    row_cost.push(best.0);
                    row_from.push(best.1);
                }
                cost.push(row_cost);
                from.push(row_from);
            }
            let (llo, lhi) = windows[len - 1];
            let mut best = (i64::MAX, llo);
            for y in llo..=lhi {
                let c = cost[len - 1][(y - llo) as usize] + span(l, y, y);
                if c < best.0 {
                    best = (c, y);
                }
            }
            // Walk back; keep the current rows on ties (the DP is exact, so
            // only a strictly better total moves anything).
            let run = |i: usize| h[base[k] + i];
            let current: i64 = span(f, run(0), run(0))
                + (1..len)
                    .map(|i| span(f + i, run(i - 1), run(i)))
                    .sum::<i64>()
                + span(l, run(len - 1), run(len - 1))
                + 2 * (1..len).filter(|&i| run(i - 1) != run(i)).count() as i64;
            if best.0 >= current {
                continue;
            }
            let mut y = best.1;
            for i in (0..len).rev() {
                h[base[k] + i] = y;
                if i > 0 {
                    y = from[i][(y - windows[i].0) as usize];
                }
            }
            changed = true;
        }
        if !changed {
            break;
        }
    }
}

/// Route a planar channel in one layer.
///
/// Floating side terminals are handled by the switchbox reduction
/// ([`crate::channel::switchbox`]): the channel is extended with the side terminals
/// on the bottom row beyond its ends, routed, and cut back.
pub fn route_plane(problem: &ChannelProblem) -> Result<ChannelSolution, RouteError> {
    route_plane_at(problem, 0)
}

/// As [`route_plane`], at a width of at least `at_least` rows: the final
/// optimisation then has the extra rows to pull nets towards
/// their pins. MulCh uses it for B groups narrower than the stacked channel
/// (B groups re-run it at the larger width).
pub fn route_plane_at(
    problem: &ChannelProblem,
    at_least: u32,
) -> Result<ChannelSolution, RouteError> {
    if let Some(&(a, b)) = crossing_pairs(problem).first() {
        return Err(RouteError::Unroutable(format!(
            "nets {} and {} cross: no routing in one layer",
            problem.label(a),
            problem.label(b)
        )));
    }
    if !problem.left().is_empty() || !problem.right().is_empty() {
        let ext = crate::channel::side_extension::extend_floating_sides(problem)
            .map_err(|e| RouteError::Unroutable(e.message))?;
        let routed = route_plane_at(&ext.problem, at_least)?;
        // Cutting back deletes rows that only verticals pass through; the
        // caller asked for at least `at_least` rows, so they go back in.
        let cut = ext.truncate(&routed);
        let rows = cut.width.max(at_least);
        return Ok(cut.widened(rows));
    }
    route_pins_only(problem, at_least as i64)
}

/// The plane router proper, for a planar channel without side terminals
/// (the caller has checked planarity).
fn route_pins_only(problem: &ChannelProblem, at_least: i64) -> Result<ChannelSolution, RouteError> {
    let runs = Runs::new(problem);
    let graph = Digraph::from_edges(runs.count, order_constraints(problem, &runs));
    let order = graph.topological_order().ok_or_else(|| {
        RouteError::Unroutable("the one-layer order constraints are cyclic (not planar)".into())
    })?;
    let mut h = vec![1i64; runs.count];
    for &v in &order {
        for &w in graph.successors(v) {
            h[w as usize] = h[w as usize].max(h[v as usize] + 1);
        }
    }
    let width = h.iter().copied().max().unwrap_or(0).max(at_least);
    smooth(problem, &runs.base, &graph, &mut h, width);
    let mut s = ChannelSolution {
        name: problem.name().to_string(),
        layers: 1,
        width: width as u32,
        columns: problem.columns(),
        groups: vec![LayerGroup {
            kind: GroupType::B,
            layers: vec![1],
        }],
        wires: plane_wires(problem, &runs.base, &h, width + 1),
        vias: Vec::new(),
    };
    s.canonicalize();
    Ok(s)
}

/// The horizontal runs of a channel's nets: net `n` has one run for each
/// `x` in `[first pin, last pin)`, numbered `base[n] + (x - first)`.
struct Runs<'a> {
    problem: &'a ChannelProblem,
    /// The number of net `n`'s first run.
    base: Vec<usize>,
    /// Runs in all.
    count: usize,
}

impl<'a> Runs<'a> {
    fn new(problem: &'a ChannelProblem) -> Self {
        let nets = problem.nets();
        let mut base = vec![0usize; nets.len()];
        let mut count = 0usize;
        for (k, n) in nets.iter().enumerate() {
            base[k] = count;
            let (f, l) = (n.first_pin().unwrap_or(0), n.last_pin().unwrap_or(0));
            count += (l - f) as usize;
        }
        Runs {
            problem,
            base,
            count,
        }
    }

    /// The run of net `k` between columns `x` and `x + 1`, if it has one.
    fn of(&self, k: usize, x: usize) -> Option<usize> {
        let n = &self.problem.nets()[k];
        let (f, l) = (n.first_pin()? as usize, n.last_pin()? as usize);
        (f <= x && x < l).then(|| self.base[k] + x - f)
    }
}

/// The order constraints between runs, column by column: an edge `(a, b)`
/// when run `a` must lie at least one row below run `b`.
fn order_constraints(problem: &ChannelProblem, runs: &Runs) -> Vec<(u32, u32)> {
    let c = problem.columns() as usize;
    let nets = problem.nets();
    // Present nets per column, by span.
    let mut starts: Vec<Vec<usize>> = vec![Vec::new(); c + 1];
    for (k, n) in nets.iter().enumerate() {
        if let (Some(f), Some(l)) = (n.first_pin(), n.last_pin()) {
            starts[f as usize].push(k);
            starts[l as usize + 1].push(usize::MAX - k);
        }
    }
    // Key of a net at x: its most recent bottom pin before x (distance), or
    // else its earliest top pin before x (offset by BIG).
    const BIG: u64 = 1 << 40;
    let mut key: Vec<u64> = vec![u64::MAX; nets.len()];
    let mut present: Vec<usize> = Vec::new();
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut order: Vec<usize> = Vec::new();
    let mut earliest_top: Vec<Option<usize>> = vec![None; nets.len()];
    let mut latest_bottom: Vec<Option<usize>> = vec![None; nets.len()];
    for (x, changes) in starts.iter().enumerate().take(c) {
        for &k in changes {
            if k > nets.len() {
                let gone = usize::MAX - k;
                present.retain(|&p| p != gone);
            } else {
                present.push(k);
            }
        }
        let top = problem.top()[x].map(|id| id.index());
        let bottom = problem.bottom()[x].map(|id| id.index());
        for &k in &present {
            key[k] = match (latest_bottom[k], earliest_top[k]) {
                (Some(b), _) => (x - b) as u64,
                (None, Some(t)) => BIG + t as u64,
                (None, None) => 0,
            };
        }
        // Bottom to top: the bottom pin's net, the others by key, the top
        // pin's net.
        order.clear();
        order.extend(bottom);
        let middle = order.len();
        order.extend(
            present
                .iter()
                .copied()
                .filter(|&k| Some(k) != top && Some(k) != bottom),
        );
        order[middle..].sort_by_key(|&k| (key[k], k));
        if let Some(t) = top {
            if Some(t) != bottom {
                order.push(t);
            }
        }
        let next_to = |k: usize| [x.checked_sub(1).and_then(|p| runs.of(k, p)), runs.of(k, x)];
        for w in order.windows(2) {
            for a in next_to(w[0]).into_iter().flatten() {
                for b in next_to(w[1]).into_iter().flatten() {
                    edges.push((a as u32, b as u32));
                }
            }
        }
        if let Some(b) = bottom {
            latest_bottom[b] = Some(x);
        }
        if let Some(t) = top {
            earliest_top[t].get_or_insert(x);
        }
    }
    edges
}

/// The wires of every net on layer 1: its runs at rows `h` (merged along
/// equal rows) and the verticals joining pins and runs in each column.
fn plane_wires(problem: &ChannelProblem, base: &[usize], h: &[i64], top_row: i64) -> Vec<Wire> {
    let mut wires = Vec::new();
    for (k, n) in problem.nets().iter().enumerate() {
        let label = n.label;
        let (Some(f), Some(l)) = (n.first_pin(), n.last_pin()) else {
            continue;
        };
        let (f, l) = (f as usize, l as usize);
        // Horizontal runs, merged along equal rows.
        let mut x = f;
        while x < l {
            let y = h[base[k] + x - f];
            let start = x;
            while x < l && h[base[k] + x - f] == y {
                x += 1;
            }
            wires.push(Wire {
                net: label,
                layer: 1,
                from: Point::new(start as i64, y),
                to: Point::new(x as i64, y),
            });
        }
        // Verticals: pins and the runs next to each column.
        for x in f..=l {
            let mut rows: Vec<i64> = Vec::new();
            for pin in n.pins.iter().filter(|p| p.column as usize == x) {
                rows.push(if pin.side == Side::Bottom { 0 } else { top_row });
            }
            if x > f {
                rows.push(h[base[k] + x - 1 - f]);
            }
            if x < l {
                rows.push(h[base[k] + x - f]);
            }
            let (lo, hi) = (*rows.iter().min().unwrap(), *rows.iter().max().unwrap());
            if lo < hi {
                wires.push(Wire {
                    net: label,
                    layer: 1,
                    from: Point::new(x as i64, lo),
                    to: Point::new(x as i64, hi),
                });
            }
        }
    }
    wires
}
