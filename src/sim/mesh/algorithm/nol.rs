//! NoLRoute (section 9.2): locality L unknown, 2-D torus. Every PU learns
//! `L' = 2^floor(lg L)`, L the largest one-axis move of any packet, by
//! flooding info packets, while the packets randomize within `8n/k` of
//! their row (1b); after step n, if `L'/2 > 8n/k` they spread their offset
//! to radius `L'/2` (1d); then row to the destination column and column to
//! the destination row. Blue packets do the same transposed.
//!
//! The flood (docs/simulation.md, k-k routing, "Readings where the paper
//! is open"): each PU rounds its own value
//! to a power of two before flooding and forwards any strictly larger one
//! in all four directions, so every PU agrees on `L'` exactly. It is
//! simulated on its own ([`flood`]); its info packets (at most lg n per
//! link, which [`Flood`] reports) are not taken from the data packets'
//! link capacity, which could delay phase 1b by at most that many steps
//! per link.

use rand::Rng;

use super::{coin, PhaseKind, Routing};
use crate::sim::mesh::plan::{Leg, Plan};
use crate::sim::mesh::shape::{Dir, Pu, Shape};
use crate::sim::mesh::traffic::Problem;

/// What the flood of `L'` cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Flood {
    /// The value every PU agreed on, `2^floor(lg L)`.
    pub agreed: u32,
    /// Steps until every PU knew `L'` (the last step a value rose).
    pub steps: u64,
    /// The most info packets one directed link carried.
    pub most_per_link: u32,
}

/// The largest one-axis move of the packets at each PU.
fn moves(shape: &Shape, problem: &Problem) -> Vec<u32> {
    let mut m = vec![0u32; shape.pus()];
    for (&s, &t) in problem.source.iter().zip(&problem.dest) {
        let most = (0..shape.dims)
            .map(|a| shape.line_distance(shape.coord(s, a), shape.coord(t, a)))
            .max()
            .unwrap_or(0);
        m[s as usize] = m[s as usize].max(most);
    }
    m
}

/// Floods every PU's rounded value: in each step a PU whose value rose
/// in the last step (or, in step 1, every PU with a value) sends it on its
/// 2d links; a PU keeps the largest value it receives.
pub fn flood(shape: &Shape, problem: &Problem) -> Flood {
    let round = |v: u32| if v == 0 { 0 } else { 1 << v.ilog2() };
    let mut value: Vec<u32> = moves(shape, problem).into_iter().map(round).collect();
    let mut sent = vec![0u32; shape.pus() * shape.slots()];
    let mut fresh: Vec<Pu> = (0..shape.pus() as Pu)
        .filter(|&u| value[u as usize] > 0)
        .collect();
    let (mut step, mut steps) = (0, 0);
    while !fresh.is_empty() {
        step += 1;
        let mut next = Vec::new();
        let mut marked = vec![false; shape.pus()];
        let mut incoming: Vec<(Pu, u32)> = Vec::new();
        for &u in &fresh {
            for axis in 0..shape.dims {
                for dir in [Dir::Up, Dir::Down] {
                    sent[shape.link(u, axis, dir)] += 1;
                    incoming.push((shape.neighbour(u, axis, dir), value[u as usize]));
                }
            }
        }
        for (v, x) in incoming {
            if x > value[v as usize] {
                if !marked[v as usize] {
                    marked[v as usize] = true;
                    next.push(v);
                }
                value[v as usize] = x;
            }
        }
        if !next.is_empty() {
            steps = step;
        }
        fresh = next;
    }
    let agreed = value.iter().copied().max().unwrap_or(0);
    assert!(
        value.iter().all(|&v| v == agreed),
        "the flood did not agree"
    );
    Flood {
        agreed,
        steps,
        most_per_link: sent.into_iter().max().unwrap_or(0),
    }
}

/// NoLRoute's plan: phases 1b, 1d, row, column.
pub(super) fn plan<R: Rng>(shape: &Shape, problem: &Problem, rng: &mut R) -> (Routing, Flood) {
    let n = shape.side as i64;
    let f = flood(shape, problem);
    let r = (8 * n / i64::from(problem.k.max(1))).clamp(1, n / 2);
    let spread = i64::from(f.agreed) / 2 > r;
    let packets = problem.len();
    let mut plan = Plan::idle(packets, 4);
    let mut colors = vec![0u8; packets];
    for (p, c) in colors.iter_mut().enumerate() {
        let l = rng.gen_range(0..2usize);
        *c = l as u8;
        let (s, t) = (problem.source[p], problem.dest[p]);
        let i = i64::from(shape.coord(s, l));
        let x = rng.gen_range(-r..=r);
        plan.phase_mut(0)[p] = Leg::tied(l, (i + x).rem_euclid(n) as u32, coin(rng));
        if spread {
            let y = x * i64::from(f.agreed) / (2 * r);
            plan.phase_mut(1)[p] = Leg::tied(l, (i + y).rem_euclid(n) as u32, coin(rng));
        }
        plan.phase_mut(2)[p] = Leg::tied(1 - l, shape.coord(t, 1 - l), coin(rng));
        plan.phase_mut(3)[p] = Leg::tied(l, shape.coord(t, l), coin(rng));
    }
    let kinds = vec![
        PhaseKind::Randomize,
        PhaseKind::Randomize,
        PhaseKind::Route,
        PhaseKind::Route,
    ];
    (
        Routing {
            plan,
            colors,
            kinds,
            flood: Some(f),
        },
        f,
    )
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::sim::mesh::shape::Topology;
    use crate::sim::mesh::traffic::Workload;

    /// The flood agrees on the rounded largest move within n steps, with
    /// at most lg n info packets a link.
    #[test]
    fn the_flood_agrees_within_n_steps() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for n in [4u32, 8, 16, 33, 64] {
            let shape = Shape::new(n, 2, Topology::Torus).unwrap();
            for l in [1, 3, n / 4, n / 2] {
                if l == 0 || l > n / 2 {
                    continue;
                }
                let p = Problem::generate(&shape, 2, Workload::Local, l, &mut rng).unwrap();
                let f = flood(&shape, &p);
                assert_eq!(f.agreed, 1 << l.ilog2(), "n = {n}, L = {l}");
                assert!(f.steps <= u64::from(n), "n = {n}: {} steps", f.steps);
                assert!(
                    f.most_per_link <= n.ilog2() + 1,
                    "n = {n}: {}",
                    f.most_per_link
                );
            }
        }
    }
}
