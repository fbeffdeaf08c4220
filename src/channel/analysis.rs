//! Channel measures: density and its profile, the vertical constraint graph
//! (VCG) with its cycles and longest path, crossing pairs of nets (planarity,
//! as the MulCh partitioner needs), and width lower bounds per layer model.
//!
//! Definitions follow the thesis (section 6.2, 6.3.2), with the readings
//! `docs/models.md` (section 4) records where the thesis leaves a choice:
//! - density counts, at each column, the nets that need a track and whose
//!   span (side terminals at `-1` and `C`) contains the column;
//! - the VCG has an edge `A -> B` when some column has `A` on top and `B`
//!   on the bottom, `A != B`;
//! - two nets cross when their terminals interleave around the boundary of
//!   the channel, marched bottom left-to-right, right side bottom-to-top, top
//!   right-to-left, left side top-to-bottom.

use super::layer_model::{candidate_configurations, Configuration};
use super::problem::{ChannelProblem, NetId};
use crate::graph::Digraph;

/// Per-column density: the number of nets needing a track whose span covers
/// each column `0 .. C-1`. Linear time (difference array).
pub fn density_profile(p: &ChannelProblem) -> Vec<u32> {
    let c = p.columns() as i64;
    let mut diff = vec![0i64; c as usize + 1];
    for net in p.nets() {
        if !net.needs_track(p.columns()) {
            continue;
        }
        let (a, b) = net.span(p.columns());
        let (a, b) = (a.max(0), b.min(c - 1));
        if a <= b {
            diff[a as usize] += 1;
            diff[b as usize + 1] -= 1;
        }
    }
    let mut run = 0i64;
    diff[..c as usize]
        .iter()
        .map(|d| {
            run += d;
            run as u32
        })
        .collect()
}

/// The channel density `d` (0 when no net needs a track).
pub fn density(p: &ChannelProblem) -> u32 {
    density_profile(p).into_iter().max().unwrap_or(0)
}

/// The vertical constraint graph on net ids: `a -> b` means `a` must lie
/// above `b` in the column where both have pins (for dogleg-free routing).
pub fn vertical_constraint_graph(p: &ChannelProblem) -> Digraph {
    let mut g = Digraph::new(p.nets().len());
    for (t, b) in p.top().iter().zip(p.bottom()) {
        if let (Some(t), Some(b)) = (t, b) {
            if t != b {
                g.add_edge(t.0, b.0);
            }
        }
    }
    g.dedup();
    g
}

/// The boundary marching order of nets used for crossing detection, with the
/// side terminals ordered to reduce crossings (the side-terminal order of
/// `docs/models.md`, section 4.4).
pub fn marching_order(p: &ChannelProblem) -> Vec<NetId> {
    let c = p.columns() as usize;
    let bottom: Vec<NetId> = p.bottom().iter().flatten().copied().collect();
    let top_rev: Vec<NetId> = p.top().iter().rev().flatten().copied().collect();
    // Index of each pin in the sequence that starts just after the right side:
    // top x = C-1..0 (index C-1-x), the left side (index C), bottom x (C+1+x).
    let right_order = order_side(p, p.right(), |id| {
        let net = p.net(id);
        let mut idx: Vec<usize> = net
            .pins
            .iter()
            .map(|pin| match pin.side {
                super::problem::Side::Top => c - 1 - pin.column as usize,
                super::problem::Side::Bottom => c + 1 + pin.column as usize,
            })
            .collect();
        if net.left {
            idx.push(c);
        }
        idx
    });
    // Just after the left side: bottom x (index x), the right side's slots
    // in their order (C + rank), top x = C-1..0 (C + |right| + C-1-x). The
    // right side is ordered first, so a net exiting on both sides is keyed
    // by its real right slot and feed-throughs do not cross needlessly.
    let right_rank: std::collections::HashMap<NetId, usize> = right_order
        .iter()
        .enumerate()
        .map(|(k, &id)| (id, k))
        .collect();
    let r = right_order.len();
    let left_order = order_side(p, p.left(), |id| {
        let net = p.net(id);
        let mut idx: Vec<usize> = net
            .pins
            .iter()
            .map(|pin| match pin.side {
                super::problem::Side::Bottom => pin.column as usize,
                super::problem::Side::Top => c + r + (c - 1 - pin.column as usize),
            })
            .collect();
        if let Some(&k) = right_rank.get(&id) {
            idx.push(c + k);
        }
        idx
    });
    let mut seq = bottom;
    seq.extend(right_order);
    seq.extend(top_rev);
    seq.extend(left_order);
    seq
}

/// Sort a side's nets by decreasing (max index, min index) of their other
/// terminals, ties by label; the result fills the side's slots in marching order.
fn order_side(
    p: &ChannelProblem,
    side: &[NetId],
    indices: impl Fn(NetId) -> Vec<usize>,
) -> Vec<NetId> {
    let mut keyed: Vec<(usize, usize, u32, NetId)> = side
        .iter()
        .map(|&id| {
            let idx = indices(id);
            let max = idx.iter().copied().max().unwrap_or(0);
            let min = idx.iter().copied().min().unwrap_or(0);
            (max, min, p.label(id), id)
        })
        .collect();
    keyed.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    keyed.into_iter().map(|k| k.3).collect()
}

/// Pairs of nets that cross (their terminals interleave cyclically in
/// [`marching_order`]), each pair `(a, b)` with `a < b`, sorted.
///
/// The boundary-marching stack algorithm: O(terminals + crossing events).
pub fn crossing_pairs(p: &ChannelProblem) -> Vec<(NetId, NetId)> {
    crossing_pairs_of_sequence(&marching_order(p), p.nets().len())
}

/// Crossing pairs of any cyclic sequence of net ids below `nets`.
///
/// Each crossing event (a net's occurrence closing over a net opened after
/// its previous one) is one pair, found again as often as the two nets'
/// terminals alternate; pairs are kept once as they are found, so memory is
/// linear in the distinct pairs, and time in the events
/// ([`crossing_events_of_sequence`] counts them first, cheaply).
pub fn crossing_pairs_of_sequence(seq: &[NetId], nets: usize) -> Vec<(NetId, NetId)> {
    let (first, last) = ends(seq, nets);
    let mut stack: Vec<NetId> = Vec::new();
    let mut seen = PairSet::new(nets);
    for (i, &n) in seq.iter().enumerate() {
        if i != first[n.index()] {
            // Everything above n's previous occurrence was opened after it and
            // is still open: those nets interleave with n.
            let mut k = stack.len();
            loop {
                k -= 1;
                let m = stack[k];
                if m == n {
                    break;
                }
                seen.insert(if m < n { (m, n) } else { (n, m) });
            }
            stack.remove(k);
        }
        if i != last[n.index()] {
            stack.push(n);
        }
    }
    seen.into_sorted()
}

/// Distinct pairs of nets: a bit matrix while it takes at most 64 MiB
/// (up to about 23,000 nets), else a hash set.
enum PairSet {
    Bits { nets: usize, bits: Vec<u64> },
    Hashed(std::collections::HashSet<(NetId, NetId)>),
}

impl PairSet {
    fn new(nets: usize) -> PairSet {
        let cells = (nets as u64).saturating_mul(nets as u64);
        if cells <= 1 << 29 {
            PairSet::Bits {
                nets,
                bits: vec![0; (cells as usize).div_ceil(64)],
            }
        } else {
            PairSet::Hashed(Default::default())
        }
    }

    /// Add `(a, b)` with `a < b`.
    fn insert(&mut self, pair: (NetId, NetId)) {
        match self {
            PairSet::Bits { nets, bits } => {
                let k = pair.0.index() * *nets + pair.1.index();
                bits[k / 64] |= 1 << (k % 64);
            }
            PairSet::Hashed(set) => {
                set.insert(pair);
            }
        }
    }

    fn into_sorted(self) -> Vec<(NetId, NetId)> {
        match self {
            PairSet::Bits { nets, bits } => {
                let mut out = Vec::new();
                for (w, &word) in bits.iter().enumerate() {
                    let mut word = word;
                    while word != 0 {
                        let k = w * 64 + word.trailing_zeros() as usize;
                        out.push((NetId((k / nets) as u32), NetId((k % nets) as u32)));
                        word &= word - 1;
                    }
                }
                out
            }
            PairSet::Hashed(set) => {
                let mut out: Vec<(NetId, NetId)> = set.into_iter().collect();
                out.sort_unstable();
                out
            }
        }
    }
}

/// Each net's first and last position in `seq`.
fn ends(seq: &[NetId], nets: usize) -> (Vec<usize>, Vec<usize>) {
    let mut first = vec![usize::MAX; nets];
    let mut last = vec![0usize; nets];
    for (i, n) in seq.iter().enumerate() {
        let k = n.index();
        if first[k] == usize::MAX {
            first[k] = i;
        }
        last[k] = i;
    }
    (first, last)
}

/// The crossing events [`crossing_pairs`] would walk for this channel.
pub fn crossing_events(p: &ChannelProblem) -> u64 {
    crossing_events_of_sequence(&marching_order(p), p.nets().len())
}

/// The crossing events of [`crossing_pairs_of_sequence`], counted without
/// walking them: the open entries pushed after a net's own are counted in a
/// Fenwick tree over push positions. O(T log T) for T terminals.
pub fn crossing_events_of_sequence(seq: &[NetId], nets: usize) -> u64 {
    let (first, last) = ends(seq, nets);
    let t = seq.len();
    let mut tree = vec![0i64; t + 1];
    let add = |tree: &mut Vec<i64>, at: usize, v: i64| {
        let mut i = at + 1;
        while i <= t {
            tree[i] += v;
            i += i & i.wrapping_neg();
        }
    };
    let upto = |tree: &Vec<i64>, at: usize| -> i64 {
        let mut i = at + 1;
        let mut sum = 0;
        while i > 0 {
            sum += tree[i];
            i -= i & i.wrapping_neg();
        }
        sum
    };
    let mut pushed_at = vec![usize::MAX; nets];
    let (mut open, mut events) = (0i64, 0u64);
    for (i, &n) in seq.iter().enumerate() {
        let k = n.index();
        if i != first[k] {
            let at = pushed_at[k];
            events += (open - upto(&tree, at)) as u64;
            add(&mut tree, at, -1);
            open -= 1;
        }
        if i != last[k] {
            pushed_at[k] = i;
            add(&mut tree, i, 1);
            open += 1;
        }
    }
    events
}

/// Width lower bounds for one layer count, per candidate configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerBounds {
    /// The layer count `L` the bounds are for.
    pub layers: u32,
    /// Each candidate configuration MulCh tries, with `ceil(d / H(b))`.
    pub configurations: Vec<(Configuration, u32)>,
    /// The smallest bound over the configurations: no L-layer routing in these
    /// layer models is narrower.
    pub width_lower_bound: u32,
}

/// Lower bounds for `layers`: `ceil(d / H)` for each configuration (an all-B
/// configuration is only realisable when the nets split into that many planar
/// groups; for one layer, only when the channel is planar).
pub fn layer_bounds(density: u32, layers: u32) -> LayerBounds {
    let configurations: Vec<(Configuration, u32)> = candidate_configurations(layers)
        .into_iter()
        .map(|c| (c, c.width_lower_bound(density)))
        .collect();
    let width_lower_bound = configurations.iter().map(|c| c.1).min().unwrap_or(0);
    LayerBounds {
        layers,
        configurations,
        width_lower_bound,
    }
}

/// Everything `fabric analyze` reports about a channel.
#[derive(Clone, Debug)]
pub struct ChannelAnalysis {
    /// Number of columns `C`.
    pub columns: u32,
    /// Columns with no pin on either row.
    pub empty_columns: u32,
    /// Number of nets.
    pub nets: usize,
    /// Pins on the top and bottom rows together.
    pub pins: usize,
    /// Entries of the left side list.
    pub left_terminals: usize,
    /// Entries of the right side list.
    pub right_terminals: usize,
    /// Nets whose terminals all lie in one column (no track needed).
    pub single_column_nets: usize,
    /// The channel density `d`: the most nets needing a track over one column.
    pub density: u32,
    /// Density of each column `0 .. C-1` (see [`density_profile`]).
    pub density_profile: Vec<u32>,
    /// Columns where the density is reached.
    pub max_density_columns: Vec<u32>,
    /// Distinct edges of the vertical constraint graph.
    pub vcg_edges: usize,
    /// Strongly connected components with two or more nets.
    pub cyclic_components: Vec<Vec<NetId>>,
    /// One cycle of the VCG, in edge order, when there is one.
    pub example_cycle: Option<Vec<NetId>>,
    /// Longest VCG path counted in nets, when the VCG is acyclic.
    pub longest_path: Option<u32>,
    /// Pairs of nets that cross (see [`crossing_pairs`]); empty when planar.
    pub crossing_pairs: Vec<(NetId, NetId)>,
    /// `max(d, LP)`: the width lower bound of dogleg-free two-layer HV routing.
    pub no_dogleg_bound: Option<u32>,
    /// Width lower bounds for each layer count `1 ..= max_layers`.
    pub layer_bounds: Vec<LayerBounds>,
}

impl ChannelAnalysis {
    /// Whether the vertical constraint graph has no cycle.
    pub fn is_acyclic(&self) -> bool {
        self.cyclic_components.is_empty()
    }

    /// Whether no two nets cross, so one layer may route the channel.
    pub fn is_planar(&self) -> bool {
        self.crossing_pairs.is_empty()
    }
}

/// Analyse a channel, with lower bounds for `1 ..= max_layers` layers.
pub fn analyze(p: &ChannelProblem, max_layers: u32) -> ChannelAnalysis {
    let profile = density_profile(p);
    let d = profile.iter().copied().max().unwrap_or(0);
    let vcg = vertical_constraint_graph(p);
    let to_ids = |v: Vec<u32>| v.into_iter().map(NetId).collect::<Vec<_>>();
    let cyclic_components: Vec<Vec<NetId>> = vcg
        .strongly_connected_components()
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(to_ids)
        .collect();
    let longest_path = vcg.longest_path_nodes();
    let example_cycle = vcg.find_cycle().map(to_ids);
    let empty_columns = p
        .top()
        .iter()
        .zip(p.bottom())
        .filter(|(t, b)| t.is_none() && b.is_none())
        .count() as u32;
    let single_column_nets = p
        .nets()
        .iter()
        .filter(|n| !n.needs_track(p.columns()))
        .count();
    ChannelAnalysis {
        columns: p.columns(),
        empty_columns,
        nets: p.nets().len(),
        pins: p.pin_count(),
        left_terminals: p.left().len(),
        right_terminals: p.right().len(),
        single_column_nets,
        density: d,
        max_density_columns: profile
            .iter()
            .enumerate()
            .filter(|(_, &v)| v == d && d > 0)
            .map(|(i, _)| i as u32)
            .collect(),
        density_profile: profile,
        vcg_edges: vcg.edge_count(),
        cyclic_components,
        example_cycle,
        longest_path,
        crossing_pairs: crossing_pairs(p),
        // Nets that need no track have no VCG edges, so they only matter to
        // the longest path when no net needs a track at all.
        no_dogleg_bound: longest_path.map(|lp| if d == 0 { 0 } else { lp.max(d) }),
        layer_bounds: (1..=max_layers).map(|l| layer_bounds(d, l)).collect(),
    }
}

#[cfg(test)]
mod tests;
