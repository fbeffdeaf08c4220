//! Baseline two-layer (HV) router: the constrained left-edge algorithm with
//! doglegs at pin columns (Deutsch's dogleg router).
//!
//! Each net is cut at its pin columns into subnets (a side terminal is an end
//! at `-1` or `C`). A subnet must lie above another when, in a column both end
//! at, the first belongs to the top pin's net and the second to the bottom
//! pin's net. Tracks are filled from the top: each track takes, left to right,
//! every subnet that does not overlap the previous one on the track and whose
//! constraining subnets all lie on tracks above. This terminates whenever the
//! subnet constraint graph is acyclic, which holds for every acyclic VCG (a
//! subnet cycle projects onto a net cycle); a channel whose subnet graph is
//! cyclic is refused, naming the cycle.
//!
//! Layer 1 carries horizontal wires, layer 2 vertical ones.
//! Time O(T · S) for T tracks and S subnets.

use std::ops::Range;

use crate::channel::layer_model::LayerModel;
use crate::channel::problem::{ChannelProblem, NetId};
use crate::channel::router::{ChannelRouter, RouteError, RouteOptions};
use crate::channel::solution::{ChannelSolution, GroupType, LayerGroup, Via, Wire};
use crate::geom::Point;
use crate::graph::Digraph;

/// The constrained left-edge router with doglegs.
#[derive(Clone, Copy, Debug, Default)]
pub struct LeftEdgeRouter;

#[derive(Clone, Copy, Debug)]
struct Subnet {
    net: NetId,
    lo: i64,
    hi: i64,
}

const H_LAYER: u32 = 1;
const V_LAYER: u32 = 2;

impl ChannelRouter for LeftEdgeRouter {
    fn name(&self) -> &'static str {
        "left-edge"
    }

    fn route(
        &self,
        problem: &ChannelProblem,
        options: &RouteOptions,
    ) -> Result<ChannelSolution, RouteError> {
        if options.layers != 2 {
            return Err(RouteError::Layers {
                router: self.name(),
                layers: options.layers,
                supported: "2",
            });
        }
        let subs = Subnets::new(problem);
        let graph = subs.constraints(problem);
        let track_of = assign_tracks(&subs.subnets, &graph).map_err(|cycle| {
            let mut labels: Vec<u32> = cycle
                .iter()
                .map(|&s| problem.label(subs.subnets[s as usize].net))
                .collect();
            labels.dedup();
            if labels.len() > 1 && labels.first() == labels.last() {
                labels.pop();
            }
            RouteError::Cyclic {
                router: self.name(),
                cycle: labels,
            }
        })?;
        let width = track_of.iter().map(|&k| k + 1).max().unwrap_or(0);
        let rows: Vec<i64> = track_of.iter().map(|&t| (width - t) as i64).collect();
        let mut wires = subs.horizontal_wires(problem, &rows);
        let mut vias = Vec::new();
        subs.vertical_wires(problem, &rows, width as i64 + 1, &mut wires, &mut vias);
        let mut solution = ChannelSolution {
            name: problem.name().to_string(),
            layers: 2,
            width,
            columns: problem.columns(),
            groups: vec![LayerGroup {
                kind: GroupType::Model(LayerModel::Hv),
                layers: vec![H_LAYER, V_LAYER],
            }],
            wires,
            vias,
        };
        solution.canonicalize();
        Ok(solution)
    }
}

/// The subnets of a channel's nets and where they end.
struct Subnets {
    /// Every subnet, net by net, left to right within a net.
    subnets: Vec<Subnet>,
    /// The subnets of each net (by net id), a range of `subnets`.
    of_net: Vec<Range<usize>>,
    /// The subnets ending at each column.
    at_column: Vec<Vec<usize>>,
}

impl Subnets {
    /// Cut every net that needs a track at its breakpoints.
    fn new(problem: &ChannelProblem) -> Self {
        let c = problem.columns() as i64;
        let mut subnets: Vec<Subnet> = Vec::new();
        let mut of_net: Vec<Range<usize>> = Vec::new();
        for id in problem.net_ids() {
            let net = problem.net(id);
            let start = subnets.len();
            if net.needs_track(problem.columns()) {
                for pair in net.breakpoints(problem.columns()).windows(2) {
                    subnets.push(Subnet {
                        net: id,
                        lo: pair[0],
                        hi: pair[1],
                    });
                }
            }
            of_net.push(start..subnets.len());
        }
        let mut at_column: Vec<Vec<usize>> = vec![Vec::new(); c as usize];
        for (s, sub) in subnets.iter().enumerate() {
            for x in [sub.lo, sub.hi] {
                if (0..c).contains(&x) {
                    at_column[x as usize].push(s);
                }
            }
        }
        Subnets {
            subnets,
            of_net,
            at_column,
        }
    }

    /// The subnet constraint graph: an edge `s -> u` when, in a column both
    /// end at, `s` is the top pin's net and `u` the bottom pin's.
    fn constraints(&self, problem: &ChannelProblem) -> Digraph {
        let subnets = &self.subnets;
        let mut graph = Digraph::new(subnets.len());
        for (x, ends) in self.at_column.iter().enumerate() {
            if let (Some(t), Some(b)) = (problem.top()[x], problem.bottom()[x]) {
                if t == b {
                    continue;
                }
                for &s in ends {
                    for &u in ends {
                        if subnets[s].net == t && subnets[u].net == b {
                            graph.add_edge(s as u32, u as u32);
                        }
                    }
                }
            }
        }
        graph.dedup();
        graph
    }

    /// Horizontal wires at each subnet's row: consecutive subnets of a net
    /// on one track merge.
    fn horizontal_wires(&self, problem: &ChannelProblem, rows: &[i64]) -> Vec<Wire> {
        let mut wires = Vec::new();
        for (id, range) in problem.net_ids().zip(&self.of_net) {
            let label = problem.label(id);
            let mut run: Option<(i64, i64, i64)> = None; // (lo, hi, y)
            for s in range.clone() {
                let (lo, hi, y) = (self.subnets[s].lo, self.subnets[s].hi, rows[s]);
                run = match run {
                    Some((a, b, ry)) if ry == y && b == lo => Some((a, hi, y)),
                    Some((a, b, ry)) => {
                        wires.push(h_wire(label, a, b, ry));
                        Some((lo, hi, y))
                    }
                    None => Some((lo, hi, y)),
                };
            }
            if let Some((a, b, y)) = run {
                wires.push(h_wire(label, a, b, y));
            }
        }
        wires
    }

    /// Vertical wires: in each column, each net joins its pins and the
    /// tracks of its subnets ending there (a via at each track).
    fn vertical_wires(
        &self,
        problem: &ChannelProblem,
        rows: &[i64],
        top_row: i64,
        wires: &mut Vec<Wire>,
        vias: &mut Vec<Via>,
    ) {
        for (x, ends) in self.at_column.iter().enumerate() {
            let mut nets: Vec<NetId> = Vec::with_capacity(2);
            nets.extend(problem.bottom()[x]);
            nets.extend(problem.top()[x]);
            nets.dedup();
            for id in nets {
                let label = problem.label(id);
                let mut ys: Vec<i64> = Vec::new();
                if problem.bottom()[x] == Some(id) {
                    ys.push(0);
                }
                if problem.top()[x] == Some(id) {
                    ys.push(top_row);
                }
                for &s in ends {
                    if self.subnets[s].net == id {
                        let y = rows[s];
                        if !ys.contains(&y) {
                            ys.push(y);
                            vias.push(Via {
                                net: label,
                                at: Point::new(x as i64, y),
                                from: H_LAYER,
                                to: V_LAYER,
                            });
                        }
                    }
                }
                let (lo, hi) = (*ys.iter().min().unwrap(), *ys.iter().max().unwrap());
                if lo < hi {
                    wires.push(Wire {
                        net: label,
                        layer: V_LAYER,
                        from: Point::new(x as i64, lo),
                        to: Point::new(x as i64, hi),
                    });
                }
            }
        }
    }
}

fn h_wire(net: u32, lo: i64, hi: i64, y: i64) -> Wire {
    Wire {
        net,
        layer: H_LAYER,
        from: Point::new(lo, y),
        to: Point::new(hi, y),
    }
}

/// Track index (0 = top) of every subnet, or a cycle of subnets.
fn assign_tracks(subnets: &[Subnet], graph: &Digraph) -> Result<Vec<u32>, Vec<u32>> {
    if let Some(cycle) = graph.find_cycle() {
        return Err(cycle);
    }
    let mut unplaced_above = vec![0u32; subnets.len()];
    for (_, to) in graph.edges() {
        unplaced_above[to as usize] += 1;
    }
    let mut order: Vec<usize> = (0..subnets.len()).collect();
    order.sort_by_key(|&s| (subnets[s].lo, subnets[s].hi, subnets[s].net));
    let mut track_of = vec![u32::MAX; subnets.len()];
    let mut track = 0u32;
    while !order.is_empty() {
        let mut placed = Vec::new();
        let mut last: Option<(i64, NetId)> = None;
        order.retain(|&s| {
            let sub = subnets[s];
            let fits = match last {
                None => true,
                Some((hi, net)) => hi < sub.lo || (hi == sub.lo && net == sub.net),
            };
            if fits && unplaced_above[s] == 0 {
                track_of[s] = track;
                last = Some((sub.hi, sub.net));
                placed.push(s);
                false
            } else {
                true
            }
        });
        assert!(
            !placed.is_empty(),
            "an acyclic constraint graph always has a ready subnet"
        );
        for s in placed {
            for &t in graph.successors(s as u32) {
                unplaced_above[t as usize] -= 1;
            }
        }
        track += 1;
    }
    Ok(track_of)
}
