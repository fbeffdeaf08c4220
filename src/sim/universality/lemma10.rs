//! Lemma 10's geometric mapping, computed level by level: a competing mesh
//! of area `A` (or volume `V`) is bisected recursively, each cut
//! perpendicular to the longest side (the lowest axis, x, on ties), until
//! every piece holds one processor; the pieces at `2^i` processors are the
//! subtrees of `2^i` leaves of a fat-tree with `c(p) = ceil(sqrt(p alpha) /
//! lg(A/alpha))` (2-D) or `ceil(p^(2/3) / lg V)` (3-D, thesis section 5.3).
//!
//! The competitor is the densest mesh of its area: processors of side
//! `alpha^(1/D)` in a grid, and across every unit of side two neighbours
//! share, one wire carrying one message each way in one unit of time (with
//! `alpha = 1`: each processor sends one message to each of its 4, or 6,
//! neighbours). A piece's channel then carries, each way, as many messages
//! as the piece has unit boundary edges (faces in 3-D) shared with the rest
//! of the mesh. A piece is a box `e_x x e_y (x e_z)` of processors; along an
//! axis with `m = side / e` pieces it has two neighbours when `m >= 3`, one
//! when `m = 2`, none when `m = 1`, and an interior piece has them all at
//! once, so each level's largest load is a sum over axes.
//! [`mesh_load`] computes that closed form in `O(lg^2 A)`; the tests hold it
//! against a count over every mesh edge.

use schemars::JsonSchema;
use serde::Serialize;

use super::{Dimensions, UniversalityError};
use crate::layout::fattree::Capacity;

/// One level of channels: those above subtrees of `2^level` processors.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct LevelLoad {
    /// Binary level `i`: each channel is above `2^i` processors.
    pub level: u32,
    /// `2^i`.
    pub processors: u64,
    /// The piece of the competitor the subtree holds, in processors per
    /// axis (x, y, and z in 3-D).
    pub piece: Vec<u64>,
    /// Channels at this level, each way (pieces).
    pub channels: u64,
    /// The most messages any channel of the level carries one way in one
    /// unit of time: the piece's unit boundary shared with the mesh.
    pub load: u64,
    /// The channel capacity `c(2^i)`.
    pub capacity: u64,
    /// `load / capacity`.
    pub ratio: f64,
}

/// Lemma 10 (2-D) or its section 5.3 analogue (3-D) on the mesh competitor.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct MeshLoad {
    /// The competitor's space.
    pub dims: Dimensions,
    /// Area `A` (2-D) or volume `V` (3-D).
    pub area: u64,
    /// Processor area (volume) `alpha`.
    pub processor_area: u64,
    /// Processors `n = A / alpha`: the fat-tree's leaves.
    pub processors: u64,
    /// `lg(A / alpha)`, the `lg` of the capacity function.
    pub lg: f64,
    /// The capacity function, as reports write it.
    pub capacity: String,
    /// Levels `0 .. lg n - 1` (the root has no channel above it).
    pub levels: Vec<LevelLoad>,
    /// The load factor: the largest `load / capacity`.
    pub lambda: f64,
    /// The first level attaining it.
    pub at_level: u32,
    /// `lambda / lg(A / alpha)`.
    pub per_lg: f64,
    /// The constant of the derived bound: `3 sqrt 2` in 2-D (a `2 x 1`
    /// piece has boundary `3 sqrt(2p)`), `2^(8/3)` in 3-D (a `2 x 2 x 1`
    /// piece has boundary `2^(8/3) p^(2/3)`).
    pub bound_factor: f64,
    /// `bound_factor lg(A / alpha)`.
    pub bound: f64,
}

/// How many of a piece's two sides along an axis face the rest of the mesh
/// at most, with `m` pieces along that axis.
fn sides(m: u64) -> u64 {
    m.min(3) - 1
}

/// The extents of the pieces at each level `0 ..= k`, `k = lg n`: halve
/// the longest extent (the lowest axis on ties) `k - i` times.
pub fn piece_extents(dims: Dimensions, side: u64) -> Vec<Vec<u64>> {
    let d = dims.count();
    let k = side.trailing_zeros() * d as u32;
    let mut e = vec![side; d];
    let mut out = vec![e.clone()];
    for _ in 0..k {
        let axis = longest(&e);
        e[axis] /= 2;
        out.push(e.clone());
    }
    out.reverse();
    out
}

/// The axis of the longest extent, the lowest on ties.
pub(crate) fn longest(e: &[u64]) -> usize {
    let mut best = 0;
    for (a, &x) in e.iter().enumerate() {
        if x > e[best] {
            best = a;
        }
    }
    best
}

/// The largest one-way boundary load of a piece `e` in a mesh of `side`
/// processors per axis, with `unit` wires per processor side (face).
pub(crate) fn boundary_load(e: &[u64], side: u64, unit: u64) -> u64 {
    (0..e.len())
        .map(|a| {
            let cross: u64 = (0..e.len()).filter(|&b| b != a).map(|b| e[b]).product();
            sides(side / e[a]) * cross * unit
        })
        .sum()
}

/// `c(2^i)` of the capacity family of `dims`.
pub(crate) fn capacity(dims: Dimensions, i: u32, n: u64, alpha: u64) -> u64 {
    let family = match dims {
        Dimensions::Two => Capacity::SqrtOverLg,
        Dimensions::Three => Capacity::TwoThirdsOverLg,
    };
    family
        .at_level(i, n, alpha)
        .expect("closed capacity families have every level")
}

/// Lemma 10 on the mesh competitor of `area` with processors of
/// `processor_area`, checked as [`super::Setting::check`] does.
pub fn mesh_load(
    dims: Dimensions,
    area: u64,
    processor_area: u64,
) -> Result<MeshLoad, UniversalityError> {
    super::check_area(dims, area, processor_area)?;
    let n = area / processor_area;
    let d = dims.count() as u32;
    let side = 1u64 << (n.trailing_zeros() / d);
    // Unit wires along a processor's side (2-D) or face (3-D).
    let unit = match dims {
        Dimensions::Two => 1u64 << (processor_area.trailing_zeros() / 2),
        Dimensions::Three => 1,
    };
    let lg = (n as f64).log2();
    let extents = piece_extents(dims, side);
    let k = n.trailing_zeros();
    let levels: Vec<LevelLoad> = (0..k)
        .map(|i| {
            let e = &extents[i as usize];
            let load = boundary_load(e, side, unit);
            let capacity = capacity(dims, i, n, processor_area);
            LevelLoad {
                level: i,
                processors: 1 << i,
                piece: e.clone(),
                channels: n >> i,
                load,
                capacity,
                ratio: load as f64 / capacity as f64,
            }
        })
        .collect();
    let (mut lambda, mut at_level) = (0.0, 0);
    for l in &levels {
        if l.ratio > lambda {
            lambda = l.ratio;
            at_level = l.level;
        }
    }
    let bound_factor = match dims {
        Dimensions::Two => 3.0 * 2f64.sqrt(),
        Dimensions::Three => 2f64.powf(8.0 / 3.0),
    };
    let capacity = match dims {
        Dimensions::Two => Capacity::SqrtOverLg.describe(),
        Dimensions::Three => Capacity::TwoThirdsOverLg.describe(),
    };
    Ok(MeshLoad {
        dims,
        area,
        processor_area,
        processors: n,
        lg,
        capacity,
        levels,
        lambda,
        at_level,
        per_lg: lambda / lg,
        bound_factor,
        bound: bound_factor * lg,
    })
}

#[cfg(test)]
mod tests {
    use super::super::slow::loads_by_edges;
    use super::*;

    #[test]
    fn closed_form_matches_every_edge_2d() {
        for k in 1..=6u32 {
            for a in 0..k {
                let (area, alpha) = (1u64 << (2 * k), 1u64 << (2 * a));
                let fast = mesh_load(Dimensions::Two, area, alpha).unwrap();
                let slow = loads_by_edges(Dimensions::Two, area, alpha);
                let loads: Vec<u64> = fast.levels.iter().map(|l| l.load).collect();
                assert_eq!(loads, slow, "A {area}, alpha {alpha}");
            }
        }
    }

    #[test]
    fn closed_form_matches_every_edge_3d() {
        for k in 1..=5u32 {
            let v = 1u64 << (3 * k);
            let fast = mesh_load(Dimensions::Three, v, 1).unwrap();
            let loads: Vec<u64> = fast.levels.iter().map(|l| l.load).collect();
            assert_eq!(loads, loads_by_edges(Dimensions::Three, v, 1), "V {v}");
        }
    }

    #[test]
    fn closed_form_matches_the_simulators_mesh_traffic() {
        // The simulator's own `mesh` message set and channel loads (up and
        // down, every channel): the same per-level maxima.
        use crate::sim::fattree::FatTree;
        use crate::sim::traffic::{generate, Traffic};
        use crate::sim::Policy;
        for k in 1..=5u32 {
            let n = 1u32 << (2 * k);
            let mut rng = crate::sim::trial_rng(1, 0);
            let msgs = generate(Traffic::Mesh, n, 1, Policy::Priority, &mut rng).unwrap();
            let tree = FatTree::new(n, vec![1; 2 * k as usize + 1]).unwrap();
            let (up, down) = tree.loads(&msgs);
            let fast = mesh_load(Dimensions::Two, n as u64, 1).unwrap();
            for l in &fast.levels {
                let i = l.level as usize;
                let max = up[i].iter().chain(&down[i]).max().copied().unwrap();
                assert_eq!(max, l.load, "n {n}, level {i}");
            }
        }
    }

    #[test]
    fn never_over_the_derived_bound() {
        for k in 1..=20u32 {
            for a in [0, k / 2, k - 1] {
                let m = mesh_load(Dimensions::Two, 1 << (2 * k), 1 << (2 * a)).unwrap();
                assert!(m.lambda <= m.bound, "4^{k}, alpha 4^{a}: {m:?}");
            }
        }
        for k in 1..=13u32 {
            let m = mesh_load(Dimensions::Three, 1 << (3 * k), 1).unwrap();
            assert!(m.lambda <= m.bound, "8^{k}: {m:?}");
            // Every level's load factor is O(lg V): within the bound.
            assert!(m.levels.iter().all(|l| l.ratio <= m.bound));
        }
    }

    #[test]
    fn pieces_are_square_or_two_to_one() {
        for e in piece_extents(Dimensions::Two, 64) {
            assert!(e[0] == e[1] || e[1] == 2 * e[0], "{e:?}");
        }
        for e in piece_extents(Dimensions::Three, 32) {
            let (lo, hi) = (e.iter().min().unwrap(), e.iter().max().unwrap());
            assert!(hi / lo <= 2, "{e:?}");
        }
    }
}
