//! Building one layout for `fabric layout`: the chosen network's
//! embedding at one size, checked by the independent checker, measured,
//! and held against its recurrence and closed forms.

use super::*;
use crate::layout::LayoutKind;

/// A fat-pyramid's spec, tile pitch and tracks per band.
type PyramidFigures = (crate::layout::pyramid::PyramidSpec, (i64, i64), (i64, i64));

/// One layout built, checked against the checker and its recurrence, and
/// measured: the embedding, its metrics and check, the recurrence side, its
/// closed form, and the closed-form longest wire.
pub(super) struct Built {
    pub(super) embedding: crate::layout::Embedding,
    pub(super) metrics: crate::layout::metrics::LayoutMetrics,
    pub(super) crossings: u64,
    pub(super) side: u64,
    /// The closed form's width (the side, unless the layout is not square).
    pub(super) width: u64,
    /// Fat-pyramid: its spec, tile pitch and tracks per band.
    pub(super) pyramid: Option<PyramidFigures>,
    pub(super) closed: u64,
    /// The closed-form longest wire, for constructions that have one.
    pub(super) formula_max_wire: Option<u64>,
    pub(super) seconds: f64,
}

/// The capacity function asked for, or the kind's default.
pub(super) fn capacity_name(args: &LayoutArgs) -> &str {
    args.capacity
        .as_deref()
        .unwrap_or(if args.kind == LayoutKind::FatTree3d {
            "two-thirds-over-lg"
        } else {
            "sqrt-over-lg"
        })
}

pub(super) fn fattree_capacity(args: &LayoutArgs) -> Result<crate::layout::fattree::Capacity> {
    crate::layout::fattree::Capacity::parse(capacity_name(args)).map_err(Error::Usage)
}

pub(super) fn build_layout(args: &LayoutArgs, size: u64) -> Result<Built> {
    use crate::layout::{check, fattree, metrics, tree_of_meshes};
    let start = Instant::now();
    // Width when the layout is not square (the H-tree of 2·4^k leaves).
    let mut wide: Option<u64> = None;
    // 3-D fold-and-squash: bounds on the side and the longest wire.
    let mut three_d: Option<(u64, u64)> = None;
    // Fat-pyramid: bounds on width and height (the last bands' outer tracks
    // may go unused), and its figures.
    let mut pyramid: Option<(u64, u64)> = None;
    let mut pyramid_info = None;
    // H-trees of 2·4^k leaves (and sizes that are not powers of 2, which
    // `htree` refuses with the right message).
    let odd_htree = args.kind == LayoutKind::Htree
        && !(size.is_power_of_two() && size.trailing_zeros() % 2 == 0);
    let (embedding, side, closed, formula_max_wire) = if odd_htree {
        // Two H-trees of size / 2 leaves, turned towards a root between them.
        let e = fattree::htree(size).map_err(Error::Usage)?;
        let k = size.trailing_zeros() / 2;
        let s = (1u64 << (k + 1)) - 1;
        wide = Some(2 * s + 1);
        (e, s, (1u64 << (k + 1)) - 1, Some(1u64 << k))
    } else if args.kind == LayoutKind::ScalableFatTree {
        let capacity = fattree::Capacity::parse(capacity_name(args)).map_err(Error::Usage)?;
        let e =
            crate::layout::butterfly::scalable_fat_tree(size, &capacity).map_err(Error::Usage)?;
        let c =
            crate::layout::butterfly::scalable_capacities(size, &capacity).map_err(Error::Usage)?;
        // S_j = 2 S_{j-1} + 4 c_{j-1} + 1, S_0 = 1; closed form
        // 2^k + sum_j 2^(k-j) (4 c_{j-1} + 1).
        let k = c.len() - 1;
        let mut s = 1u64;
        let mut closed = 1u64 << k;
        for j in 1..=k {
            s = 2 * s + 4 * c[j - 1] + 1;
            closed += (1u64 << (k - j)) * (4 * c[j - 1] + 1);
        }
        (e, s, closed, None)
    } else if args.kind == LayoutKind::ButterflyFatTree {
        let e = crate::layout::butterfly::butterfly_fat_tree(size).map_err(Error::Usage)?;
        let k = size.trailing_zeros() / 2;
        let s = *crate::layout::butterfly::sides(k)
            .last()
            .expect("k + 1 sides");
        (e, s, crate::layout::butterfly::closed_form_side(k), None)
    } else if args.kind == LayoutKind::FoldedTreeOfMeshes {
        let full = 2 * size.trailing_zeros();
        let e = crate::layout::folded::fold_and_squash_2d(size, args.levels.unwrap_or(full))
            .map_err(Error::Usage)?;
        let l = args.levels.unwrap_or(full);
        let (w, h) = crate::layout::folded::extent_2d(size, l);
        if w != h {
            wide = Some(w);
        }
        (e, h, h, Some(crate::layout::folded::max_wire_2d(l)))
    } else if args.kind == LayoutKind::FatPyramid {
        let spec = crate::layout::pyramid::PyramidSpec {
            mesh_capacity: args.mesh_capacity,
            ..crate::layout::pyramid::PyramidSpec::new(size).map_err(Error::Usage)?
        };
        let p = crate::layout::pyramid::fat_pyramid(&spec).map_err(Error::Usage)?;
        let tiles = 1u64 << spec.k();
        let (w, h) = (tiles * p.pitch.0 as u64, tiles * p.pitch.1 as u64);
        pyramid = Some((w, h));
        pyramid_info = Some((spec, p.pitch, p.tracks));
        wide = Some(w);
        (p.embedding, h, h, None)
    } else if args.kind == LayoutKind::FatTree3d {
        if args.alpha != 1 {
            return Err(Error::Usage(
                "--alpha applies to 2-D fat-trees; fat-tree-3d has unit processors".into(),
            ));
        }
        let capacity = fattree::Capacity::parse(capacity_name(args)).map_err(Error::Usage)?;
        let spec = crate::layout::fattree3d::FatTree3dSpec {
            processors: size,
            capacity,
            omega: args.omega,
        };
        let (e, plan) = crate::layout::fattree3d::fat_tree_3d(&spec).map_err(Error::Usage)?;
        let k = plan.sides.len() - 1;
        // Closed form of S_j = 2 S_(j-1) + h_j: 2^k s0 + sum 2^(k-j) h_j.
        let closed = (plan.sides[0] << k) + (1..=k).map(|j| plan.gaps[j] << (k - j)).sum::<u64>();
        let side = *plan.sides.last().expect("k + 1 sides");
        (
            e,
            side,
            closed,
            Some(crate::layout::fattree3d::longest_wire(&plan)),
        )
    } else if args.kind == LayoutKind::TreeOfMeshes3d {
        let full = 3 * size.trailing_zeros();
        let l = args.levels.unwrap_or(full);
        let e = crate::layout::folded::fold_and_squash_3d(size, l).map_err(Error::Usage)?;
        let q = crate::layout::folded::cubie(l).0 as u64;
        // Bounds, not exact: the extreme auxiliary planes may go unused.
        three_d = Some((4 * size * q, 8 * q - 4));
        (e, 4 * size * q, 4 * size * q, None)
    } else if args.kind == LayoutKind::TreeOfMeshes {
        let e = tree_of_meshes::tree_of_meshes(size, args.levels).map_err(Error::Usage)?;
        let l: u32 = e.parameters["levels"]
            .parse()
            .expect("written by the builder");
        let (w, h) = tree_of_meshes::extent(size, l);
        let longest = tree_of_meshes::longest_wire(size, l);
        let closed = if l % 2 == 1 {
            size * (l as u64 + 1) / 2
        } else {
            size * (l as u64 / 2 + 1)
        };
        if w != h {
            wide = Some(w);
        }
        (e, h, closed, Some(longest))
    } else {
        let capacity = if args.kind == LayoutKind::Htree {
            if !matches!(
                args.capacity.as_deref(),
                None | Some("sqrt-over-lg") | Some("one")
            ) {
                return Err(Error::Usage(
                    "an htree has capacity 1; use `fat-tree` for --capacity".into(),
                ));
            }
            fattree::Capacity::One
        } else {
            fattree::Capacity::parse(capacity_name(args)).map_err(Error::Usage)?
        };
        let spec = fattree::FatTreeSpec {
            processors: size,
            capacity,
            omega: args.omega,
            alpha: args.alpha,
        };
        let (e, rec) = fattree::fat_tree(&spec).map_err(Error::Usage)?;
        let k = rec.sides.len() - 1;
        // Bundle wires of F_j are S_{j-2} + 1 long; at j = 1 the half-node
        // to root wires are s1 - t(1) + 1.
        let mut longest = if k >= 1 {
            (rec.leaf_side - rec.tracks[0] + 1).max(1)
        } else {
            0
        };
        if k >= 2 {
            longest = longest.max(rec.sides[k - 2] + 1);
        }
        (
            e,
            *rec.sides.last().expect("k + 1 sides"),
            fattree::closed_form_side(&rec),
            Some(longest),
        )
    };
    let verdict = check::check(&embedding);
    if let Some(v) = verdict.too_large() {
        return Err(Error::Usage(format!(
            "{} --size {size}: {v}; nothing was written",
            args.kind
        )));
    }
    if !verdict.is_legal() {
        return Err(Error::Failed(format!(
            "the {} construction produced an illegal layout ({} violations); nothing was written:\n  {}",
            args.kind,
            verdict.total,
            verdict
                .violations
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n  ")
        )));
    }
    let m = metrics::measure(&embedding);
    if let Some((w, h)) = pyramid {
        if m.width > w || m.height > h {
            return Err(Error::Failed(format!(
                "the layout is {} x {}, beyond its tiles' {w} x {h}",
                m.width, m.height
            )));
        }
    } else if let Some((bound, wire)) = three_d {
        if m.width.max(m.height).max(m.depth) > bound || m.max_wire_length > wire {
            return Err(Error::Failed(format!(
                "the layout is {} x {} x {} with wires up to {} long, beyond the bounds 4nq = {bound} and 8q - 4 = {wire}",
                m.width, m.height, m.depth, m.max_wire_length
            )));
        }
    } else if m.width != wide.unwrap_or(side)
        || m.height != side
        || (embedding.dimensions == 3 && m.depth != side)
        || closed != side
        || formula_max_wire.is_some_and(|w| w != m.max_wire_length)
    {
        return Err(Error::Failed(format!(
            "the layout is {} x {} with wires up to {} long, but the recurrence gives side {side} (closed form {closed}) and wires up to {formula_max_wire:?}",
            m.width, m.height, m.max_wire_length
        )));
    }
    crate::network::Network::realised_by(&embedding)
        .map_err(|e| Error::Failed(format!("the layout does not realise its network: {e}")))?;
    Ok(Built {
        embedding,
        metrics: m,
        crossings: verdict.crossings,
        side,
        width: wide.unwrap_or(side),
        pyramid: pyramid_info,
        closed,
        formula_max_wire,
        seconds: start.elapsed().as_secs_f64(),
    })
}
