//! LevelRoute (section 6): in 2-D with k even, every packet draws a level
//! `1 ..= k/2` and a color. Pass `l = 1 ..= k/2 + 1` has two phases: (a)
//! green level-`l` packets randomize their row within their aligned strip
//! of ε rows; (b) green level-`l` packets route along their row to the
//! destination column while green level-`(l-1)` packets route along their
//! column to the destination row. Blue packets do the same transposed.

use rand::Rng;

use super::{coin, PhaseKind, Routing};
use crate::sim::mesh::plan::{Leg, Plan};
use crate::sim::mesh::shape::Shape;
use crate::sim::mesh::traffic::Problem;
use crate::sim::mesh::MeshError;

/// LevelRoute's plan with strips of `strip` rows.
pub(super) fn plan<R: Rng>(
    shape: &Shape,
    problem: &Problem,
    strip: u32,
    rng: &mut R,
) -> Result<Routing, MeshError> {
    let k = problem.k;
    let n = shape.side;
    if shape.dims != 2 || k % 2 == 1 || k == 0 {
        return Err(MeshError::LevelShape {
            dims: shape.dims,
            k,
        });
    }
    if strip == 0 || strip > n {
        return Err(MeshError::Strip { strip, n });
    }
    let levels = (k / 2) as usize;
    let phases = 2 * (levels + 1);
    let packets = problem.len();
    let mut plan = Plan::idle(packets, phases);
    let mut colors = vec![0u8; packets];
    for (p, c) in colors.iter_mut().enumerate() {
        let level = rng.gen_range(0..levels);
        let color = rng.gen_range(0..2usize);
        *c = color as u8;
        // Green spreads along axis 0 (rows) and routes axis 1 first.
        let (spread, first) = (color, 1 - color);
        let src = problem.source[p];
        let x = shape.coord(src, spread);
        let lo = x / strip * strip;
        let target = rng.gen_range(lo..(lo + strip).min(n));
        plan.phase_mut(2 * level)[p] = Leg::tied(spread, target, coin(rng));
        let dest = problem.dest[p];
        plan.phase_mut(2 * level + 1)[p] = Leg::to(first, shape.coord(dest, first));
        plan.phase_mut(2 * level + 3)[p] = Leg::to(spread, shape.coord(dest, spread));
    }
    let kinds = (0..phases)
        .map(|j| {
            if j % 2 == 0 {
                PhaseKind::LevelSpread
            } else {
                PhaseKind::LevelRoute
            }
        })
        .collect();
    Ok(Routing {
        plan,
        colors,
        kinds,
        flood: None,
    })
}
