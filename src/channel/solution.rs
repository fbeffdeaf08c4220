//! A routed channel: wires and vias on `L` layers (FORMATS.md section 3).
//!
//! Columns `x = 0 .. C-1`, side exits at `x = -1` and `x = C`; rows `y = 0`
//! (bottom pins), tracks `1 .. W`, `y = W + 1` (top pins); layers `1 .. L`.
//! Wires and vias name nets by their input label.

use crate::geom::{Dir, Point, Segment};

/// An axis-parallel wire on one layer, ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Wire {
    pub net: u32,
    pub layer: u32,
    pub from: Point,
    pub to: Point,
}

impl Wire {
    pub fn segment(&self) -> Segment {
        Segment::new(self.from, self.to)
    }
}

/// A via stack at one point joining layers `from ..= to` (in either order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Via {
    pub net: u32,
    pub at: Point,
    pub from: u32,
    pub to: u32,
}

impl Via {
    /// Number of adjacent-layer contacts in the stack, `|to - from|`.
    pub fn count(&self) -> u64 {
        self.from.abs_diff(self.to) as u64
    }
}

/// How some layers were used: `HV`, `VH`, `HVH`, `B`, ...
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerGroup {
    pub kind: String,
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

/// A routed channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelSolution {
    pub name: String,
    pub layers: u32,
    pub width: u32,
    pub columns: u32,
    pub groups: Vec<LayerGroup>,
    pub wires: Vec<Wire>,
    pub vias: Vec<Via>,
}

impl ChannelSolution {
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

    /// Layers that carry horizontal wires according to the groups: one per
    /// `H` in a group's type, one per B group. 0 when no groups are given.
    pub fn horizontal_layers(&self) -> u32 {
        self.groups
            .iter()
            .map(|g| {
                if g.kind == "B" {
                    g.layers.len() as u32
                } else {
                    g.kind.chars().filter(|&c| c == 'H').count() as u32
                }
            })
            .sum()
    }

    /// Sort wires and vias so that output is canonical.
    pub fn canonicalize(&mut self) {
        self.wires.sort_unstable();
        self.wires.dedup();
        self.vias.sort_unstable();
        self.vias.dedup();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wire(net: u32, layer: u32, a: (i64, i64), b: (i64, i64)) -> Wire {
        Wire {
            net,
            layer,
            from: Point::new(a.0, a.1),
            to: Point::new(b.0, b.1),
        }
    }

    #[test]
    fn overlapping_wires_count_once() {
        let s = ChannelSolution {
            name: "t".into(),
            layers: 2,
            width: 3,
            columns: 10,
            groups: vec![],
            wires: vec![
                wire(1, 1, (0, 2), (5, 2)),
                wire(1, 1, (3, 2), (8, 2)),
                wire(1, 1, (8, 2), (9, 2)),
                wire(1, 2, (0, 2), (5, 2)),
                wire(1, 2, (4, 0), (4, 4)),
                wire(2, 1, (0, 1), (0, 1)),
            ],
            vias: vec![Via {
                net: 1,
                at: Point::new(4, 2),
                from: 2,
                to: 1,
            }],
        };
        assert_eq!(s.net_length(), 9 + 5 + 4);
        assert_eq!(s.via_count(), 1);
    }
}
