//! Queue control by smearing (section 3 and Theorem 6): before a phase,
//! the packets about to route along an axis are spread evenly inside
//! blocks of `m` PUs of their line. In a block holding `s` of them, the
//! packet of rank `r` (by position, then packet) moves to the block's PU
//! `floor(r m / s)`. The phase that follows routes that axis to its target
//! anyway, so the detour changes no destination; it costs O(m) steps and
//! makes the algorithm non-oblivious.

use super::{PhaseKind, Routing};
use crate::sim::mesh::plan::{Leg, Plan};
use crate::sim::mesh::shape::{Pu, Shape};

/// `routing` with a smearing phase before every phase after the first,
/// along the axis each packet routes next; [`targets`] sets its targets at
/// the barrier.
pub fn interleave(routing: Routing) -> Routing {
    let Routing {
        plan,
        colors,
        kinds,
        flood,
    } = routing;
    let mut out_kinds = Vec::with_capacity(2 * kinds.len());
    let mut phases: Vec<usize> = Vec::new();
    for (j, &kind) in kinds.iter().enumerate() {
        if j > 0 {
            out_kinds.push(PhaseKind::Smear);
            phases.push(usize::MAX);
        }
        out_kinds.push(kind);
        phases.push(j);
    }
    let mut out = Plan::idle(plan.packets, out_kinds.len());
    for (i, &j) in phases.iter().enumerate() {
        if j != usize::MAX {
            out.phase_mut(i)
                .copy_from_slice(&plan.legs[j * plan.packets..(j + 1) * plan.packets]);
        }
    }
    for i in 0..out.phases {
        if out_kinds[i] == PhaseKind::Smear {
            let (head, tail) = out.legs.split_at_mut((i + 1) * plan.packets);
            let smear = &mut head[i * plan.packets..];
            for (s, next) in smear.iter_mut().zip(&tail[..plan.packets]) {
                if !next.is_idle() {
                    *s = Leg::to(usize::from(next.axis), 0);
                }
            }
        }
    }
    Routing {
        plan: out,
        colors,
        kinds: out_kinds,
        flood,
    }
}

/// The smearing targets of one phase's `legs`, from the packets' positions
/// `at`, in blocks of `m` along each leg's axis.
pub fn targets(shape: &Shape, at: &[Pu], legs: &mut [Leg], m: u32) {
    let m = m.clamp(1, shape.side);
    // (line and block, coordinate, packet), sorted: each block's packets
    // in rank order.
    let mut keyed: Vec<(u64, u32, u32)> = legs
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.is_idle())
        .map(|(p, l)| {
            let axis = usize::from(l.axis);
            let x = shape.coord(at[p], axis);
            let line = shape.with_coord(at[p], axis, 0);
            let block = u64::from(line) << 24 | u64::from(x / m) << 4 | axis as u64;
            (block, x, p as u32)
        })
        .collect();
    keyed.sort_unstable();
    let mut i = 0;
    while i < keyed.len() {
        let mut e = i;
        while e < keyed.len() && keyed[e].0 == keyed[i].0 {
            e += 1;
        }
        let s = (e - i) as u64;
        let lo = keyed[i].1 / m * m;
        let width = u64::from(m.min(shape.side - lo));
        for (r, &(_, _, p)) in keyed[i..e].iter().enumerate() {
            let target = lo + (r as u64 * width / s) as u32;
            legs[p as usize].target = target as u16;
        }
        i = e;
    }
}
