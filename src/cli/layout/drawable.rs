//! Whether `fabric layout --svg` can draw a layout, settled from its
//! parameters before anything is built.

use crate::error::{Error, Result};
use crate::layout::{LayoutError, LayoutKind, LayoutOptions};

/// The planes a 3-D layout of `kind` at `size` takes at most (its depth),
/// from the parameters alone; `None` for a 2-D layout.
pub(super) fn planes(kind: LayoutKind, size: u64, o: &LayoutOptions) -> Result<Option<u64>> {
    let usage = |e: LayoutError| Error::Usage(e.to_string());
    let dims = o.dims.unwrap_or_default();
    if !kind.is_3d(dims) {
        return Ok(None);
    }
    Ok(Some(match kind {
        LayoutKind::Mesh => size,
        LayoutKind::Torus => size.saturating_mul(crate::layout::mesh::TORUS_PITCH),
        LayoutKind::TreeOfMeshes3d => {
            let spec = crate::layout::folded::Folded3dSpec::from_options(size, o);
            // The cube's side is 4 n q(l) (the extreme planes may go unused).
            let q = crate::layout::folded::cubie(spec.levels).0 as u64;
            size.saturating_mul(4).saturating_mul(q)
        }
        LayoutKind::FatTree3d => {
            let spec =
                crate::layout::fattree3d::FatTree3dSpec::from_options(size, o).map_err(usage)?;
            let plan = spec.plan().map_err(|e| usage(e.into()))?;
            plan.sides.last().copied().unwrap_or(0)
        }
        _ => return Ok(None),
    }))
}

/// Refuse a 3-D layout with more planes than an SVG draws, before it is
/// built.
pub(super) fn check_planes(kind: LayoutKind, size: u64, o: &LayoutOptions) -> Result<()> {
    let limit = crate::report::svg::LAYOUT_SVG_PLANES;
    match planes(kind, size, o)? {
        Some(depth) if depth > limit as u64 => Err(Error::Usage(format!(
            "{kind} --size {size}: a 3-D layout up to {depth} planes deep is too deep to draw as SVG \
             (one panel per plane, at most {limit}), so nothing was built: drop --svg, \
             use --html FILE (the viewer shows any plane) or lay out a smaller one"
        ))),
        _ => Ok(()),
    }
}
