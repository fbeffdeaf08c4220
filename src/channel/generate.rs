//! Seeded random channel problems for tests and benchmarks.
//!
//! Nets are local, as in real channels: each net draws a span of bounded
//! length and places two to five pins at free pin positions inside it; nets
//! near an end may also get a side terminal. With `acyclic`, the pins of each
//! column are swapped between top and bottom so that every vertical
//! constraint points from a lower to a higher random rank, which makes the VCG
//! acyclic while keeping the same pin columns.

use rand::seq::SliceRandom;
use rand::Rng;

use super::problem::ChannelProblem;
use super::separation::Terminals;

/// Shape of a random channel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChannelShape {
    /// Number of columns `C`.
    pub columns: u32,
    /// Fraction of the `2 C` pin positions to try to fill (0..1).
    pub fill: f64,
    /// Longest span of a net, in columns.
    pub max_span: u32,
    /// Probability that a net touching the first or last `max_span` columns
    /// also gets a side terminal on that side.
    pub side_probability: f64,
    /// Make the vertical constraint graph acyclic.
    pub acyclic: bool,
}

impl ChannelShape {
    /// `columns` columns, 80% fill, spans of at most 12 columns (fewer in a
    /// narrower channel), no side terminals, constraint cycles allowed.
    pub fn new(columns: u32) -> Self {
        ChannelShape {
            columns,
            fill: 0.8,
            max_span: 12.min(columns.max(2)),
            side_probability: 0.0,
            acyclic: false,
        }
    }
}

/// A random valid channel of the given shape (always at least one net).
pub fn random_channel<R: Rng>(rng: &mut R, shape: &ChannelShape) -> ChannelProblem {
    let c = shape.columns.max(2) as usize;
    let mut top = vec![0u32; c];
    let mut bottom = vec![0u32; c];
    let mut left = Vec::new();
    let mut right = Vec::new();
    let target = ((2 * c) as f64 * shape.fill.clamp(0.0, 1.0)) as usize;
    let mut placed = 0usize;
    let mut next_label = 1u32;
    let mut failures = 0;
    while placed < target && failures < 4 * c {
        let span = rng.gen_range(1..=shape.max_span.max(1) as usize).min(c - 1);
        let start = rng.gen_range(0..c - span);
        let mut free: Vec<(usize, bool)> = (start..=start + span)
            .flat_map(|x| [(x, true), (x, false)])
            .filter(|&(x, is_top)| if is_top { top[x] == 0 } else { bottom[x] == 0 })
            .collect();
        let want = rng.gen_range(2..=5usize);
        if free.len() < 2 {
            failures += 1;
            continue;
        }
        free.shuffle(rng);
        let label = next_label;
        next_label += 1;
        for &(x, is_top) in free.iter().take(want) {
            if is_top {
                top[x] = label;
            } else {
                bottom[x] = label;
            }
            placed += 1;
        }
        if start < shape.max_span as usize && rng.gen_bool(shape.side_probability) {
            left.push(label);
        }
        if start + span + (shape.max_span as usize) >= c && rng.gen_bool(shape.side_probability) {
            right.push(label);
        }
    }
    if next_label == 1 {
        top[0] = 1;
        bottom[c - 1] = 1;
        next_label = 2;
    }
    if shape.acyclic {
        let mut rank: Vec<u32> = (0..next_label).collect();
        rank.shuffle(rng);
        for x in 0..c {
            let (t, b) = (top[x], bottom[x]);
            if t != 0 && b != 0 && rank[t as usize] > rank[b as usize] {
                top[x] = b;
                bottom[x] = t;
            }
        }
    }
    ChannelProblem::from_rows("random", &top, &bottom, &left, &right)
        .expect("every generated net has at least two terminals")
}

/// A random planar channel: terminals placed in boundary-marching order
/// (bottom left to right, then top right to left) with a stack of open nets,
/// pins going only to the innermost open net, so no two nets interleave.
pub fn random_planar_terminals(rng: &mut impl Rng, columns: usize) -> Terminals {
    let slots = 2 * columns;
    let mut net_at: Vec<Option<u32>> = vec![None; slots];
    let mut stack: Vec<u32> = Vec::new();
    let mut next = 1u32;
    for slot in net_at.iter_mut() {
        let r: f64 = rng.gen();
        if r < 0.25 {
            continue;
        }
        if r < 0.6 && !stack.is_empty() {
            *slot = stack.last().copied();
            if rng.gen_bool(0.5) {
                stack.pop();
            }
        } else {
            stack.push(next);
            *slot = Some(next);
            next += 1;
        }
    }
    // Drop nets with a single terminal (removing terminals keeps planarity).
    let mut count = std::collections::HashMap::new();
    for n in net_at.iter().flatten() {
        *count.entry(*n).or_insert(0) += 1;
    }
    for slot in net_at.iter_mut() {
        if slot.is_some_and(|n| count[&n] < 2) {
            *slot = None;
        }
    }
    let mut x = Vec::new();
    let mut top = Vec::new();
    let mut bottom = Vec::new();
    for c in 0..columns {
        let b = net_at[c];
        let t = net_at[slots - 1 - c];
        if b.is_some() || t.is_some() {
            x.push(c as i64);
            top.push(t);
            bottom.push(b);
        }
    }
    Terminals { x, top, bottom }
}

/// A random valid channel that exercises side terminals: nets with one to
/// five pins anywhere in the channel (cyclic vertical constraints allowed),
/// side terminals on any net whatever its span, and feed-throughs (nets
/// with side terminals and no pin). The side lists come in random order.
pub fn random_side_channel<R: Rng>(rng: &mut R, columns: u32) -> ChannelProblem {
    let c = columns.max(1) as usize;
    let mut top = vec![0u32; c];
    let mut bottom = vec![0u32; c];
    let mut slots: Vec<(usize, bool)> = (0..c).flat_map(|x| [(x, true), (x, false)]).collect();
    slots.shuffle(rng);
    slots.retain(|_| rng.gen_bool(0.85));
    let (mut left, mut right) = (Vec::new(), Vec::new());
    let mut label = 0u32;
    let mut next = slots.into_iter().peekable();
    while next.peek().is_some() {
        label += 1;
        let pins = rng.gen_range(1..=5usize);
        for (x, is_top) in next.by_ref().take(pins) {
            if is_top {
                top[x] = label;
            } else {
                bottom[x] = label;
            }
        }
        let count = top.iter().chain(&bottom).filter(|&&l| l == label).count();
        let (mut l, mut r) = (rng.gen_bool(0.2), rng.gen_bool(0.2));
        if count < 2 && !l && !r {
            if rng.gen_bool(0.5) {
                l = true;
            } else {
                r = true;
            }
        }
        if l {
            left.push(label);
        }
        if r {
            right.push(label);
        }
    }
    // Feed-throughs: side terminals only, on both sides.
    for _ in 0..rng.gen_range(0..=2) {
        label += 1;
        left.push(label);
        right.push(label);
    }
    if label == 0 {
        top[0] = 1;
        left.push(1);
    }
    left.shuffle(rng);
    right.shuffle(rng);
    ChannelProblem::from_rows("random-sides", &top, &bottom, &left, &right)
        .expect("every generated net has at least two terminals")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::analysis::vertical_constraint_graph;
    use rand::SeedableRng;

    #[test]
    fn same_seed_same_channel() {
        let shape = ChannelShape::new(40);
        let a = random_channel(&mut rand_chacha::ChaCha8Rng::seed_from_u64(3), &shape);
        let b = random_channel(&mut rand_chacha::ChaCha8Rng::seed_from_u64(3), &shape);
        assert_eq!(a, b);
    }

    #[test]
    fn acyclic_shape_gives_acyclic_vcg() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for columns in [2, 5, 30, 200] {
            let shape = ChannelShape {
                acyclic: true,
                side_probability: 0.3,
                ..ChannelShape::new(columns)
            };
            let p = random_channel(&mut rng, &shape);
            assert!(vertical_constraint_graph(&p).topological_order().is_some());
            assert_eq!(p.columns(), columns);
        }
    }
}
