//! The butterfly `B(n)` of Maggs and Sitaraman (section 1.1) on the grid,
//! in the standard layout of area `Θ(N^2)`.
//!
//! Network: `N = 2^n` rows, levels `0 ..= n`, node `<l, c>` (row `c` an
//! integer whose bit `i` is `c_i`). Between levels `l` and `l + 1` the
//! straight edge joins `<l, c>` to `<l + 1, c>` and the cross edge joins
//! `<l, c>` to `<l + 1, c ^ 2^l>`. There are `(n + 1) N` nodes and `2 n N`
//! edges. This is the network of `crate::sim::packet::butterfly`; the
//! layout module builds its own twin ([`Network::butterfly`]) because the
//! layout engine imports nothing from the simulators.
//!
//! Layout:
//! - **Nodes.** Level `l` is the column `X_l`, row `c` the three grid rows
//!   `3c .. 3c + 2`: node `<l, c>` is the box `{X_l} x [3c, 3c + 2]`.
//!   Inside it, row `3c + 1` carries the straight edges, row `3c + 2` the
//!   cross edge leaving to the right and row `3c` the cross edge arriving
//!   from the left.
//! - **Channels.** Between `X_l` and `X_{l+1}` lies channel `l` of
//!   `T_l = 2^(l+1)` vertical tracks, so `X_{l+1} = X_l + 2^(l+1) + 1`. The
//!   cross edges of channel `l` pair row `c` with row `c ^ 2^l`, inside
//!   blocks of `2^(l+1)` consecutive rows; the cross edge leaving row `c`
//!   takes track `c mod 2^(l+1)` of its block. Blocks span disjoint rows, so
//!   they reuse the tracks; within a block all `2^(l+1)` cross edges pass
//!   the cut between its two halves, so the channel can be no narrower.
//! - **Wires.** A straight edge runs along row `3c + 1` from `X_l` to
//!   `X_{l+1}`. A cross edge leaves `<l, c>` along row `3c + 2`, turns onto
//!   its track, runs to row `3c'` (`c' = c ^ 2^l`) and turns again into
//!   `<l + 1, c'>`.
//!
//! Legality (the checker's rules 4 to 6): each row of a channel holds one
//! horizontal segment (a straight edge, one leaving cross edge or one
//! arriving cross edge), and each track of a block one vertical segment.
//! A cross edge turns only at the two ends of its track, on rows that no
//! other wire of the channel uses at that column. Wires meet only where a
//! vertical segment passes straight across a horizontal one: crossings,
//! no knock-knees.
//!
//! Closed forms ([`Forms`]):
//! - width `X_n + 1 = n + 1 + Σ_{l<n} 2^(l+1) = 2N + n - 1`, height `3N`,
//!   area `3N (2N + n - 1)`, so area / `N^2` tends to 6. Every layout of a
//!   butterfly takes `Ω(N^2)` area, its bisection width being `Θ(N)`
//!   (Thompson's bound), so the area is `Θ(N^2)`.
//! - Straight wires of channel `l` are `2^(l+1) + 1` long. A cross wire
//!   runs `2^(l+1) + 1` across and `3·2^l - 2` up (`c_l = 0`) or
//!   `3·2^l + 2` down (`c_l = 1`), so the longest is `5·2^l + 3`, and over
//!   all channels `5N/2 + 3`: `Θ(N)`.
//! - Total wire length: channel `l` has `2N` wires of `2^(l+1) + 1` across
//!   and `N` vertical runs averaging `3·2^l`, `N (7·2^l + 2)` in all, and
//!   `7N (N - 1) + 2nN` over the channels.
//! - Crossings: in a block of channel `l` (`h = 2^l`, local rows `r`), the
//!   track of the cross edge leaving row `r` crosses `2 (h - 1) + r` wires
//!   going up (`r < h`: the straight and leaving rows of the `h - 1` rows it
//!   passes, and the arriving rows whose track lies left of its own) and
//!   `r + 2` going down; a block has `4h^2 - h`, channel `l` has
//!   `2^(l+1) N - N/2`, and the layout `2N^2 - (n + 4) N / 2`.

mod network;

pub(crate) use network::intended;
pub use network::{link_lengths_by_level, LinkKind};

use std::collections::BTreeMap;

use super::check::MAX_POINTS;
use super::construction::{ClosedForms, Construction, Laid, LayoutError, Measured};
use super::{Edge, Embedding, NetworkName, Node, SpecError, P3};
use crate::network::Network;

/// The butterfly `B(n)` to lay out: `N = 2^n` rows, `N >= 2`, small enough
/// for the legality checker's raster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ButterflyNetSpec {
    n: u32,
}

impl ButterflyNetSpec {
    /// The butterfly of `rows` rows (`fabric layout butterfly --size`):
    /// refused unless `rows` is a power of 2 of at least 2 whose layout the
    /// checker can rasterise ([`MAX_POINTS`] grid points), before anything
    /// is built.
    pub fn new(rows: u64) -> Result<ButterflyNetSpec, SpecError> {
        if rows < 2 || !rows.is_power_of_two() {
            return Err(SpecError::ButterflyRows(rows));
        }
        let n = rows.trailing_zeros();
        let (width, height) = (
            rows.saturating_mul(2).saturating_add(n as u64 - 1),
            rows.saturating_mul(3),
        );
        if width.saturating_mul(height) > MAX_POINTS {
            return Err(SpecError::AreaBeyondChecker {
                width,
                height,
                max_points: MAX_POINTS,
            });
        }
        Ok(ButterflyNetSpec { n })
    }

    /// `n = lg N`, the number of edge levels (channels).
    pub fn n(&self) -> u32 {
        self.n
    }

    /// `N = 2^n`, the number of rows (inputs, outputs).
    pub fn rows(&self) -> u64 {
        1 << self.n
    }
}

/// The closed forms of the layout of `B(n)` (module comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forms {
    /// `2N + n - 1` grid columns.
    pub width: u64,
    /// `3N` grid rows.
    pub height: u64,
    /// `3N (2N + n - 1)`.
    pub area: u64,
    /// `5N/2 + 3`, a cross wire of the last channel going down.
    pub longest_wire: u64,
    /// `7N (N - 1) + 2nN`.
    pub total_wire_length: u64,
    /// `2N^2 - (n + 4) N / 2` wires crossing straight through each other.
    pub crossings: u64,
}

impl ButterflyNetSpec {
    /// The closed forms of this butterfly's layout (a spec's layout fits
    /// the checker's raster, so every figure fits in `u64`).
    pub fn forms(&self) -> Forms {
        let (big_n, n64) = (self.rows(), self.n as u64);
        let width = 2 * big_n + n64 - 1;
        let height = 3 * big_n;
        Forms {
            width,
            height,
            area: width * height,
            longest_wire: longest_wire(big_n),
            total_wire_length: 7 * big_n * (big_n - 1) + 2 * n64 * big_n,
            crossings: 2 * big_n * big_n - (n64 + 4) * big_n / 2,
        }
    }
}

/// The longest wire of the layout of a butterfly of `rows` rows (a power
/// of 2, at least 2), `5N/2 + 3`: a cross wire of the last channel going
/// down. Defined for any size, beyond what the checker can rasterise.
pub fn longest_wire(rows: u64) -> u64 {
    5 * rows / 2 + 3
}

/// Tracks of channel `l` (between levels `l` and `l + 1`): `2^(l+1)`, one
/// per cross edge of a block of `2^(l+1)` rows.
pub fn channel_tracks(l: u32) -> u64 {
    2u64 << l
}

/// The columns `X_0 .. X_n` of the levels, by the recurrence
/// `X_0 = 0`, `X_{l+1} = X_l + T_l + 1`.
pub fn level_columns(n: u32) -> Vec<i64> {
    let mut x = vec![0i64];
    for l in 0..n {
        x.push(x[l as usize] + channel_tracks(l) as i64 + 1);
    }
    x
}

/// Node id of `<l, c>` in `B(n)`: `l N + c` (levels in order, rows in
/// order within a level).
pub fn node_id(n: u32, l: u32, c: u64) -> u32 {
    ((l as u64) << n | c) as u32
}

/// Edge id of the straight (`LinkKind::Straight`) or cross edge leaving
/// `<l, c>`: `2 (l N + c)`, plus 1 for the cross edge.
pub fn edge_id(n: u32, l: u32, c: u64, kind: LinkKind) -> u32 {
    2 * node_id(n, l, c) + kind as u32
}

/// The layout of the butterfly of `spec` (module comment), nodes and edges
/// in id order.
pub fn butterfly_layout(spec: ButterflyNetSpec) -> Embedding {
    let (n, rows) = (spec.n, spec.rows());
    let x = level_columns(n);
    let mut nodes = Vec::with_capacity(((n as u64 + 1) * rows) as usize);
    for (l, &xl) in x.iter().enumerate() {
        for c in 0..rows {
            let y = 3 * c as i64;
            nodes.push(Node {
                id: node_id(n, l as u32, c),
                kind: "switch".into(),
                level: l as u32,
                min: P3::xy(xl, y),
                max: P3::xy(xl, y + 2),
            });
        }
    }
    let mut edges = Vec::with_capacity((2 * n as u64 * rows) as usize);
    for l in 0..n {
        let (from_x, to_x) = (x[l as usize], x[l as usize + 1]);
        let block = channel_tracks(l);
        for c in 0..rows {
            let y = 3 * c as i64;
            edges.push(Edge {
                id: edge_id(n, l, c, LinkKind::Straight),
                from: node_id(n, l, c),
                to: node_id(n, l + 1, c),
                path: vec![P3::xy(from_x, y + 1), P3::xy(to_x, y + 1)],
            });
            let other = c ^ (1 << l);
            let track = from_x + 1 + (c % block) as i64;
            let arrive = 3 * other as i64;
            edges.push(Edge {
                id: edge_id(n, l, c, LinkKind::Cross),
                from: node_id(n, l, c),
                to: node_id(n, l + 1, other),
                path: vec![
                    P3::xy(from_x, y + 2),
                    P3::xy(track, y + 2),
                    P3::xy(track, arrive),
                    P3::xy(to_x, arrive),
                ],
            });
        }
    }
    let mut parameters = BTreeMap::new();
    parameters.insert("rows".to_string(), rows.to_string());
    Embedding {
        network: NetworkName::Butterfly,
        parameters,
        dimensions: 2,
        nodes,
        edges,
    }
}

impl Construction for ButterflyNetSpec {
    fn build(&self) -> Result<Laid, LayoutError> {
        let embedding = butterfly_layout(*self);
        let forms = self.forms();
        // The width by the recurrence of the columns; the height is three
        // grid rows per butterfly row.
        let width = *level_columns(self.n).last().expect("n + 1 columns") as u64 + 1;
        let height = 3 * self.rows();
        Ok(Laid {
            embedding,
            forms: ClosedForms {
                side: height,
                width,
                closed: forms.height,
                max_wire: Some(forms.longest_wire),
                bound: super::construction::Bound::Exact,
            },
        })
    }

    fn network(&self) -> Result<Network, LayoutError> {
        Ok(Network::butterfly(self.rows())?)
    }

    fn figures(&self, m: &Measured) -> Vec<String> {
        figures(*self, m)
    }
}

/// The butterfly's lines for `fabric layout butterfly --size N`: extents
/// against their closed forms, area against `Θ(N^2)` and the longest wire
/// against `Θ(N)`.
fn figures(spec: ButterflyNetSpec, m: &Measured) -> Vec<String> {
    let (n, rows) = (spec.n, spec.rows());
    let f = spec.forms();
    let metrics = m.metrics;
    let big_n = rows as f64;
    let agree = |measured: u64, closed: u64| {
        if measured == closed {
            "="
        } else {
            "!="
        }
    };
    vec![
        format!(
            "  B({n}): {rows} rows, {} levels; width {} {} closed form 2N + n - 1 = {} (X_(l+1) = X_l + 2^(l+1) + 1), height {} {} 3N = {}; verified legal ({} crossings {} 2N^2 - (n + 4) N/2 = {}), realises its network; {:.3} ms",
            n + 1,
            metrics.width,
            agree(metrics.width, f.width),
            f.width,
            metrics.height,
            agree(metrics.height, f.height),
            f.height,
            m.crossings,
            agree(m.crossings, f.crossings),
            f.crossings,
            m.seconds * 1e3
        ),
        format!(
            "  area {} {} 3N (2N + n - 1) = {}; area / N^2 = {:.3} (Θ(N^2), the butterfly's bound: its bisection width is Θ(N); this layout tends to 6)",
            metrics.area,
            agree(metrics.area, f.area),
            f.area,
            metrics.area as f64 / (big_n * big_n)
        ),
        format!(
            "  longest wire {} {} 5N/2 + 3 = {}; longest / N = {:.3} (Θ(N)); total wire length {} {} 7N (N - 1) + 2nN = {}",
            metrics.max_wire_length,
            agree(metrics.max_wire_length, f.longest_wire),
            f.longest_wire,
            metrics.max_wire_length as f64 / big_n,
            metrics.total_wire_length,
            agree(metrics.total_wire_length, f.total_wire_length),
            f.total_wire_length
        ),
    ]
}

#[cfg(test)]
mod tests;
