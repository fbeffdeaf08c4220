//! A routed channel: wires and vias on `L` layers (docs/formats.md section 3).
//!
//! Columns `x = 0 .. C-1`, side exits at `x = -1` and `x = C`; rows `y = 0`
//! (bottom pins), tracks `1 .. W`, `y = W + 1` (top pins); layers `1 .. L`.
//! Wires and vias name nets by their input label.

use std::fmt;

use super::layer_model::{Directions, LayerModel};
use crate::geom::{Dir, Point, Segment};

/// An axis-parallel wire on one layer, ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Wire {
    /// The net's input label.
    pub net: u32,
    /// The layer, `1 .. L`.
    pub layer: u32,
    /// One end point `(x, y)`.
    pub from: Point,
    /// The other end point; shares `x` or `y` with `from`.
    pub to: Point,
}

impl Wire {
    /// The wire as a geometric segment, layer dropped.
    pub fn segment(&self) -> Segment {
        Segment::new(self.from, self.to)
    }
}

/// A via stack at one point joining layers `from ..= to` (in either order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Via {
    /// The net's input label.
    pub net: u32,
    /// The point `(x, y)` of the stack.
    pub at: Point,
    /// One end layer of the stack.
    pub from: u32,
    /// The other end layer of the stack.
    pub to: u32,
}

impl Via {
    /// Number of adjacent-layer contacts in the stack, `|to - from|`.
    pub fn count(&self) -> u64 {
        self.from.abs_diff(self.to) as u64
    }
}

/// The type of a layer group: a layer model of reserved-layer routing, a
/// single-layer B group, or a type a solution file names that fabric does
/// not route (kept as written, so the file reads back as it was).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GroupType {
    /// Reserved-layer routing in one of the models `HV`, `VH`, `HVH`, `VHV`.
    Model(LayerModel),
    /// One layer carrying wires in both directions, `B`.
    B,
    /// Any other type name.
    Other(String),
}

impl GroupType {
    /// The type's name as solution files write it: one letter per layer
    /// for the models, `B`, or the name as read.
    pub fn name(&self) -> &str {
        match self {
            GroupType::Model(m) => m.name(),
            GroupType::B => "B",
            GroupType::Other(s) => s,
        }
    }
}

impl fmt::Display for GroupType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<&str> for GroupType {
    /// The type a name stands for: exactly `HV`, `VH`, `HVH`, `VHV` or `B`
    /// (case matters), else [`GroupType::Other`].
    fn from(name: &str) -> GroupType {
        match name {
            "HV" => GroupType::Model(LayerModel::Hv),
            "VH" => GroupType::Model(LayerModel::Vh),
            "HVH" => GroupType::Model(LayerModel::Hvh),
            "VHV" => GroupType::Model(LayerModel::Vhv),
            "B" => GroupType::B,
            _ => GroupType::Other(name.to_string()),
        }
    }
}

impl From<String> for GroupType {
    /// As `From<&str>`.
    fn from(name: String) -> GroupType {
        GroupType::from(name.as_str())
    }
}

/// How some layers were used: `HV`, `VH`, `HVH`, `B`, ...
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerGroup {
    /// The layer model or group type, one letter per layer: `HV`, `HVH`, `B`.
    pub kind: GroupType,
    /// The layers of the solution the group takes, ascending.
    pub layers: Vec<u32>,
}

/// Figures of a routed channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Metrics {
    /// Tracks strictly between the pin rows.
    pub width: u32,
    /// Unit grid edges covered by wires, per layer, each counted once.
    pub net_length: u64,
    /// Sum of `|to - from|` over the via records.
    pub vias: u64,
    /// Density of the problem routed.
    pub density: u32,
}

/// Unit edges against their layer's direction ([`ChannelSolution::against_direction`]).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct AgainstDirection {
    /// `(layer, unit edges)` for every layer a group gives a direction.
    pub per_layer: Vec<(u32, u64)>,
    /// The first such edge `(layer, lower end, horizontal)`, if any.
    pub first: Option<(u32, Point, bool)>,
}

impl AgainstDirection {
    /// All of them.
    pub fn total(&self) -> u64 {
        self.per_layer.iter().map(|e| e.1).sum()
    }

    /// `layer 1: 34, layer 2: 55`.
    pub fn per_layer_text(&self) -> String {
        self.per_layer
            .iter()
            .map(|(l, n)| format!("layer {l}: {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A routed channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelSolution {
    /// The routed problem's name.
    pub name: String,
    /// Number of layers `L`.
    pub layers: u32,
    /// Number of tracks `W` strictly between the pin rows.
    pub width: u32,
    /// Number of columns `C`.
    pub columns: u32,
    /// How the layers were used, one entry per group.
    pub groups: Vec<LayerGroup>,
    /// Every wire.
    pub wires: Vec<Wire>,
    /// Every via stack.
    pub vias: Vec<Via>,
}

impl ChannelSolution {
    /// This routing in a channel `width` rows wide (at least its own): the
    /// `width - W` extra rows go in at the row boundary that the fewest
    /// vertical wires cross (the top one on ties, just under the top pin
    /// row); everything from there up moves up and the crossing wires
    /// stretch. Legal routings stay legal: no point changes owner, and the
    /// inserted rows hold only stretched verticals.
    ///
    /// # Panics
    /// If `width` is less than the routing's own width.
    pub fn widened(&self, width: u32) -> ChannelSolution {
        assert!(
            width >= self.width,
            "widening a routing of width {} to {width}",
            self.width
        );
        let lift = (width - self.width) as i64;
        if lift == 0 {
            return self.clone();
        }
        let rows = self.width as i64;
        let verticals: Vec<(i64, i64)> = self
            .wires
            .iter()
            .filter(|w| w.from.x == w.to.x && w.from.y != w.to.y)
            .map(|w| (w.from.y.min(w.to.y), w.from.y.max(w.to.y)))
            .collect();
        // Rows from `at` up move; a wire with lo < at <= hi stretches.
        let at = (1..=rows + 1)
            .rev()
            .min_by_key(|&p| {
                verticals
                    .iter()
                    .filter(|&&(lo, hi)| lo < p && p <= hi)
                    .count()
            })
            .expect("at least one boundary");
        let map = |p: Point| -> Point {
            if p.y >= at {
                Point::new(p.x, p.y + lift)
            } else {
                p
            }
        };
        ChannelSolution {
            width,
            wires: self
                .wires
                .iter()
                .map(|w| Wire {
                    from: map(w.from),
                    to: map(w.to),
                    ..*w
                })
                .collect(),
            vias: self
                .vias
                .iter()
                .map(|v| Via {
                    at: map(v.at),
                    ..*v
                })
                .collect(),
            ..self.clone()
        }
    }

    /// Total wire length: per net, layer and grid line the union of the wire
    /// intervals, so overlapping wires count once.
    pub fn net_length(&self) -> u64 {
        // Key: (net, layer, horizontal, the line's fixed coordinate); the
        // spans sorted by key and then by start, so each line's spans are a
        // run, in order.
        type Line = (u32, u32, bool, i64);
        let mut spans: Vec<(Line, i64, i64)> = Vec::with_capacity(self.wires.len());
        for w in &self.wires {
            let seg = w.segment();
            let (horizontal, line, lo, hi) = match seg.dir() {
                Some(Dir::Horizontal) => {
                    (true, w.from.y, w.from.x.min(w.to.x), w.from.x.max(w.to.x))
                }
                Some(Dir::Vertical) => {
                    (false, w.from.x, w.from.y.min(w.to.y), w.from.y.max(w.to.y))
                }
                None => continue,
            };
            if lo < hi {
                spans.push(((w.net, w.layer, horizontal, line), lo, hi));
            }
        }
        spans.sort_unstable();
        let mut total = 0u64;
        for run in spans.chunk_by(|a, b| a.0 == b.0) {
            let (_, mut lo, mut hi) = run[0];
            for &(_, a, b) in &run[1..] {
                if a < hi {
                    hi = hi.max(b);
                } else {
                    total += (hi - lo) as u64;
                    (lo, hi) = (a, b);
                }
            }
            total += (hi - lo) as u64;
        }
        total
    }

    /// Adjacent-layer contacts over all stacks: the sum of [`Via::count`].
    pub fn via_count(&self) -> u64 {
        self.vias.iter().map(Via::count).sum()
    }

    /// The metrics of this routing of a problem of the given density.
    pub fn metrics(&self, density: u32) -> Metrics {
        Metrics {
            width: self.width,
            net_length: self.net_length(),
            vias: self.via_count(),
            density,
        }
    }

    /// The direction each layer's group gives it: `H` and `V` letters of
    /// the layer models; B groups and unknown types give none.
    pub fn layer_directions(&self) -> std::collections::BTreeMap<u32, Dir> {
        let mut wanted = std::collections::BTreeMap::new();
        for g in &self.groups {
            if let GroupType::Model(m) = &g.kind {
                for (letter, &layer) in m.name().chars().zip(&g.layers) {
                    let dir = if letter == 'H' {
                        Dir::Horizontal
                    } else {
                        Dir::Vertical
                    };
                    wanted.insert(layer, dir);
                }
            }
        }
        wanted
    }

    /// Whether this routing keeps a direction rule: always
    /// [`Directions::Preferred`]; [`Directions::Reserved`] when no unit
    /// edge runs against its layer's direction.
    pub fn keeps(&self, directions: Directions) -> bool {
        match directions {
            Directions::Preferred => true,
            Directions::Reserved => self.against_direction().total() == 0,
        }
    }

    /// Vias in the classic convention, where pins lie on the vertical
    /// layer: the via records' contacts ([`ChannelSolution::via_count`])
    /// plus one contact for every pin point a wire enters on a horizontal
    /// layer that no via stack at that point reaches. `fabric`'s own model
    /// lets a pin connect on every layer, so those entries cost no via
    /// there; routers of the reserved-layer literature count them.
    pub fn classic_via_count(&self) -> u64 {
        let dirs = self.layer_directions();
        let top = self.width as i64 + 1;
        // (x, y, layer) of every pin-row point a horizontal-layer wire
        // covers: a vertical wire's ends, a horizontal run's every point.
        let mut entries: Vec<(i64, i64, u32)> = Vec::new();
        for w in self
            .wires
            .iter()
            .filter(|w| dirs.get(&w.layer) == Some(&Dir::Horizontal))
        {
            let (lo, hi) = (w.from.min(w.to), w.from.max(w.to));
            if lo.y == hi.y {
                if lo.y == 0 || lo.y == top {
                    let xs = lo.x.max(0)..=hi.x.min(self.columns as i64 - 1);
                    entries.extend(xs.map(|x| (x, lo.y, w.layer)));
                }
            } else {
                let ends = [(lo.y == 0).then_some(0), (hi.y == top).then_some(top)];
                let x = lo.x;
                if x >= 0 && x < self.columns as i64 {
                    entries.extend(ends.into_iter().flatten().map(|y| (x, y, w.layer)));
                }
            }
        }
        entries.sort_unstable();
        entries.dedup();
        // Via stacks as (x, y, lower layer, upper layer), sorted by point.
        let mut stacks: Vec<(i64, i64, u32, u32)> = self
            .vias
            .iter()
            .map(|v| (v.at.x, v.at.y, v.from.min(v.to), v.from.max(v.to)))
            .collect();
        stacks.sort_unstable();
        let reached = |x: i64, y: i64, layer: u32| {
            let first = stacks.partition_point(|s| (s.0, s.1) < (x, y));
            stacks[first..]
                .iter()
                .take_while(|s| (s.0, s.1) == (x, y))
                .any(|s| s.2 <= layer && layer <= s.3)
        };
        let extra = entries
            .iter()
            .filter(|&&(x, y, l)| !reached(x, y, l))
            .count() as u64;
        self.via_count() + extra
    }

    /// The unit edges that run against their layer's direction: a vertical
    /// edge on a layer its group types `H`, a horizontal one on a `V` layer
    /// (B groups and types fabric does not know have no direction). Each
    /// unit edge counts once per layer, however many wires cover it.
    pub fn against_direction(&self) -> AgainstDirection {
        let wanted = self.layer_directions();
        // Unit edges as (layer, lower end, direction), deduplicated.
        let mut edges: Vec<(u32, Point, bool)> = Vec::new();
        for w in &self.wires {
            let Some(&dir) = wanted.get(&w.layer) else {
                continue;
            };
            let horizontal = w.from.y == w.to.y && w.from.x != w.to.x;
            let vertical = w.from.x == w.to.x && w.from.y != w.to.y;
            let against = match dir {
                Dir::Horizontal => vertical,
                Dir::Vertical => horizontal,
            };
            if !against {
                continue;
            }
            let (lo, hi) = (w.from, w.to);
            if horizontal {
                for x in lo.x.min(hi.x)..lo.x.max(hi.x) {
                    edges.push((w.layer, Point { x, y: lo.y }, true));
                }
            } else {
                for y in lo.y.min(hi.y)..lo.y.max(hi.y) {
                    edges.push((w.layer, Point { x: lo.x, y }, false));
                }
            }
        }
        edges.sort_unstable_by_key(|&(l, p, h)| (l, p.x, p.y, h));
        edges.dedup();
        let mut per_layer: Vec<(u32, u64)> = wanted.keys().map(|&l| (l, 0)).collect();
        for &(layer, _, _) in &edges {
            if let Some(e) = per_layer.iter_mut().find(|e| e.0 == layer) {
                e.1 += 1;
            }
        }
        AgainstDirection {
            per_layer,
            first: edges
                .first()
                .map(|&(layer, at, horizontal)| (layer, at, horizontal)),
        }
    }

    /// Layers that carry horizontal wires according to the groups: one per
    /// `H` in a group's type, one per B group. 0 when no groups are given.
    pub fn horizontal_layers(&self) -> u32 {
        self.groups
            .iter()
            .map(|g| {
                if g.kind == GroupType::B {
                    g.layers.len() as u32
                } else {
                    g.kind.name().chars().filter(|&c| c == 'H').count() as u32
                }
            })
            .sum()
    }

    /// Sort wires and vias so that output is canonical (on a large
    /// routing and a pool of more than one thread, the wires and the vias
    /// in parallel).
    pub fn canonicalize(&mut self) {
        let large = self.wires.len() + self.vias.len() >= SPLIT_SORT;
        let (wires, vias) = (&mut self.wires, &mut self.vias);
        crate::parallel::join(
            large,
            || {
                sort_by_net(wires, |w| w.net);
                wires.dedup();
            },
            || {
                sort_by_net(vias, |v| v.net);
                vias.dedup();
            },
        );
    }
}

/// Routings with fewer wires and vias are sorted on one thread.
const SPLIT_SORT: usize = 1 << 16;

/// Sort `items`, whose order begins with their net (`net`), as
/// `sort_unstable` would: by net first on plain integer keys, then each
/// net's few items in full. A long channel has hundreds of thousands of
/// wires and vias, and comparing whole records cost some 60 % more.
fn sort_by_net<T: Ord + Copy>(items: &mut Vec<T>, net: impl Fn(&T) -> u32) {
    if items.len() > u32::MAX as usize {
        items.sort_unstable();
        return;
    }
    let mut keys: Vec<u64> = items
        .iter()
        .enumerate()
        .map(|(k, t)| (net(t) as u64) << 32 | k as u64)
        .collect();
    keys.sort_unstable();
    *items = keys
        .iter()
        .map(|&key| items[(key & u32::MAX as u64) as usize])
        .collect();
    for one_net in items.chunk_by_mut(|a, b| net(a) == net(b)) {
        one_net.sort_unstable();
    }
}

#[cfg(test)]
#[path = "solution_tests.rs"]
mod tests;
