//! The integer recursive Columnsort plan (Lemma 8 made integral by this
//! project) and
//! its execution.
//!
//! Positions `0..R` are an `s × (R/s)` array in column-major order: the
//! column of position `p` is `p / s`, its row `p % s`. A plan is a list of
//! phases; each phase sorts every column (the black-box column sorter of
//! Lemma 9) and then moves the element at position `p` to `perm[p]`.
//!
//! `plan(R, s)` for `R` a power-of-two multiple of `s`:
//! - `R ≤ s`: one column sort;
//! - otherwise Leighton's Columnsort on an `H × C` array of *virtual
//!   columns*: blocks of `H` consecutive positions, `C = R/H`. `H` is the
//!   smallest power of two `≥ s` with `C | H` and `H ≥ 2(C−1)²` (Leighton's
//!   exact condition; with `H = s` this is plain Columnsort on the real
//!   columns). Its eight steps are sort, transpose, sort, untranspose,
//!   sort, shift by `H/2`, sort, unshift; each "sort" is `plan(H, s)`
//!   applied to every block at once, and the permutation ending one leaf
//!   phase is composed with the Columnsort step that follows it.
//!
//! The phase count is `4^depth`. Lemma 8 treats `2^(1/3) r^(2/3)` as an
//! integer ("suitable adjustments could make the analysis rigorous"); the
//! integer rule above is that adjustment, so its counts differ from the
//! real formula [`lemma8_phases`], which is asymptotic only.
//!
//! **Shift step without an extra column.** Leighton's shift step uses
//! `C + 1` columns padded with `−∞`/`+∞`. Here the shift is the rotation
//! `p ↦ (p + H/2) mod R`, so the first block holds the last `H/2`
//! elements (top half) and the first `H/2` (bottom half), which must not
//! be merged. Each element carries a tag word sorted ahead of its key:
//! before the shift-step sort, the bottom half of the wrap block gets tag
//! bit `d` (the recursion depth of this Columnsort), so each half is
//! sorted in place; the unshift puts both back and clears the bit. Deeper
//! Columnsorts use higher bits, so an inner tag dominates an outer one
//! (the inner plan sorts the outer `(tag, key)` as its key). In hardware
//! the column sorter compares `b + depth` bits.

use super::error::SorterError;

/// The largest padded size `R` a plan may have: its permutation tables
/// hold `R` positions per distinct permutation.
pub const MAX_POSITIONS: usize = 1 << 22;

/// The tag bit set, before a shift-step sort, on the bottom half of every
/// wrap block of one Columnsort level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TagRule {
    /// The bit: the recursion depth of the Columnsort (0 = outermost).
    pub bit: u32,
    /// Positions per instance of that Columnsort (it runs on every aligned
    /// run of `span` positions at once).
    pub span: usize,
    /// Its virtual column height `H`; the wrap block is the first `H`
    /// positions of each span.
    pub height: usize,
}

impl TagRule {
    /// Whether position `p` is in the bottom half of a wrap block.
    pub fn applies(&self, p: usize) -> bool {
        let q = p % self.span;
        q >= self.height / 2 && q < self.height
    }
}

/// One phase: sort every column by `(tag, key)`, move the element at `p`
/// to `perm[p]`, clear the `clear` tag bits, then set the tags of `set`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Phase {
    /// Index into [`Plan`]'s permutation table.
    perm: usize,
    clear: u64,
    set: Vec<TagRule>,
}

/// A recursive Columnsort plan for `r` words on columns of height `s`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    r: usize,
    padded: usize,
    s: usize,
    depth: u32,
    phases: Vec<Phase>,
    perms: Vec<Vec<u32>>,
}

impl Plan {
    /// The words it sorts.
    pub fn r(&self) -> usize {
        self.r
    }

    /// `R = s·w`, `w = 2^ceil(lg ceil(r/s))` (at least 1): the positions it
    /// permutes. The `R − r` extra positions hold `+∞` keys.
    pub fn padded(&self) -> usize {
        self.padded
    }

    /// The column height `s`.
    pub fn s(&self) -> usize {
        self.s
    }

    /// `w = R/s`: the columns (the length the permuter's cycles close at).
    pub fn columns(&self) -> usize {
        self.padded / self.s
    }

    /// Recursion depth: 0 for one column sort, 1 for plain Columnsort.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Phases, `4^depth`.
    pub fn phases(&self) -> usize {
        self.phases.len()
    }

    /// The permutation ending phase `i` (`perm[p]` is where the element at
    /// `p` goes), or `None` past the last phase.
    pub fn permutation(&self, i: usize) -> Option<&[u32]> {
        self.phases.get(i).map(|ph| self.perms[ph.perm].as_slice())
    }

    /// The tag rules applied after phase `i`'s permutation.
    pub fn tag_rules(&self, i: usize) -> Option<&[TagRule]> {
        self.phases.get(i).map(|ph| ph.set.as_slice())
    }

    /// The tag bits cleared after phase `i`'s permutation.
    pub fn cleared_tags(&self, i: usize) -> Option<u64> {
        self.phases.get(i).map(|ph| ph.clear)
    }

    /// The same plan with every tag rule dropped (to show the tags matter).
    #[cfg(test)]
    pub(super) fn without_tags(mut self) -> Plan {
        for ph in &mut self.phases {
            ph.set.clear();
        }
        self
    }

    /// Distinct permutations the plan uses (the permuter stores control
    /// bits per permuting step, but the steps repeat few patterns).
    pub fn distinct_permutations(&self) -> usize {
        self.perms.len()
    }
}

/// `R = s·w` for `r` words: `w = 2^ceil(lg ceil(r/s))`, at least 1.
pub fn padded_size(r: usize, s: usize) -> Option<usize> {
    r.div_ceil(s)
        .max(1)
        .checked_next_power_of_two()?
        .checked_mul(s)
}

fn check_height(s: usize) -> Result<(), SorterError> {
    if s < 2 || !s.is_power_of_two() {
        return Err(SorterError::BadColumnHeight { s: s as u64 });
    }
    Ok(())
}

/// The virtual column height of Columnsort on `r > s` positions: the
/// smallest power of two `h ≥ s` with `c = r/h` dividing `h` and
/// `h ≥ 2(c−1)²`. `h = r/2` (`c = 2`) always qualifies since `r ≥ 2s ≥ 4`.
pub fn block_height(r: usize, s: usize) -> usize {
    let mut h = s;
    while h < r / 2 {
        let c = r / h;
        if h % c == 0 && h >= 2 * (c - 1) * (c - 1) {
            return h;
        }
        h *= 2;
    }
    r / 2
}

/// The recursion depth of `plan(r, s)` without building it (`r` padded as
/// in [`padded_size`]).
pub fn plan_depth(r: usize, s: usize) -> Result<u32, SorterError> {
    check_height(s)?;
    let big = padded_size(r, s).ok_or(SorterError::PlanTooLarge {
        r: r as u64,
        max: MAX_POSITIONS,
    })?;
    Ok(padded_depth(big, s))
}

/// The depth of `plan(big, s)` for `big` already a power-of-two multiple
/// of `s`.
pub(super) fn padded_depth(mut big: usize, s: usize) -> u32 {
    let mut depth = 0;
    while big > s {
        big = block_height(big, s);
        depth += 1;
    }
    depth
}

/// The phase count `4^depth` of `plan(r, s)`.
pub fn phase_count(r: usize, s: usize) -> Result<u64, SorterError> {
    Ok(4u64.pow(plan_depth(r, s)?))
}

/// Lemma 8's real-valued phase count `(lg r / lg(s/2))^(2/lg(3/2))`
/// (infinite for `s = 2`). It ignores integrality, so it only tracks the
/// integer plan's `4^depth` asymptotically.
pub fn lemma8_phases(r: f64, s: f64) -> f64 {
    (r.log2() / (s / 2.0).log2()).powf(2.0 / 1.5f64.log2())
}

/// Lemma 8's real recursion depth `k* = lg(lg r / lg(s/2)) / lg(3/2)`.
pub fn lemma8_depth(r: f64, s: f64) -> f64 {
    (r.log2() / (s / 2.0).log2()).log2() / 1.5f64.log2()
}

/// The recursive Columnsort plan for `r` words on columns of height `s`,
/// padded to `R = s·2^ceil(lg ceil(r/s))` positions with `+∞` keys.
pub fn plan(r: usize, s: usize) -> Result<Plan, SorterError> {
    check_height(s)?;
    let big =
        padded_size(r, s)
            .filter(|&n| n <= MAX_POSITIONS)
            .ok_or(SorterError::PlanTooLarge {
                r: r as u64,
                max: MAX_POSITIONS,
            })?;
    let mut p = build(big, s);
    p.r = r;
    compact(&mut p);
    Ok(p)
}

/// `plan(r, s)` for `r` a power-of-two multiple of `s` (no padding).
fn build(r: usize, s: usize) -> Plan {
    if r <= s {
        let phase = Phase {
            perm: 0,
            clear: 0,
            set: Vec::new(),
        };
        return Plan {
            r,
            padded: r,
            s,
            depth: 0,
            phases: vec![phase],
            perms: vec![(0..r as u32).collect()],
        };
    }
    let h = block_height(r, s);
    let c = r / h;
    let sub = build(h, s);
    let mut perms: Vec<Vec<u32>> = sub.perms.iter().map(|p| lift(p, r)).collect();
    let last = sub.phases.last().map_or(0, |ph| ph.perm);
    let steps = [
        transpose(h, c),
        inverse(&transpose(h, c)),
        rotate(r, h / 2),
        rotate(r, r - h / 2),
    ];
    let base = perms.len();
    for step in &steps {
        let composed = compose(&perms[last], step);
        perms.push(composed);
    }
    let mut phases = Vec::with_capacity(4 * sub.phases.len());
    for k in 0..4 {
        for (j, ph) in sub.phases.iter().enumerate() {
            let mut set: Vec<TagRule> = ph
                .set
                .iter()
                .map(|t| TagRule {
                    bit: t.bit + 1,
                    ..*t
                })
                .collect();
            let mut clear = ph.clear << 1;
            let mut perm = ph.perm;
            if j + 1 == sub.phases.len() {
                perm = base + k;
                if k == 2 {
                    // After the shift: tag the wrap block's bottom half.
                    set.push(TagRule {
                        bit: 0,
                        span: r,
                        height: h,
                    });
                } else if k == 3 {
                    clear |= 1;
                }
            }
            phases.push(Phase { perm, clear, set });
        }
    }
    Plan {
        r,
        padded: r,
        s,
        depth: sub.depth + 1,
        phases,
        perms,
    }
}

/// Drops permutations no phase uses (the lifted last permutation of each
/// sub-plan is only used composed).
fn compact(p: &mut Plan) {
    let mut new_index = vec![usize::MAX; p.perms.len()];
    let mut kept = Vec::new();
    for ph in &mut p.phases {
        if new_index[ph.perm] == usize::MAX {
            new_index[ph.perm] = kept.len();
            kept.push(std::mem::take(&mut p.perms[ph.perm]));
        }
        ph.perm = new_index[ph.perm];
    }
    p.perms = kept;
}

/// A permutation of `h` positions applied to every block of `h` in `r`.
fn lift(p: &[u32], r: usize) -> Vec<u32> {
    let h = p.len();
    (0..r)
        .map(|x| (x - x % h + p[x % h] as usize) as u32)
        .collect()
}

/// Columnsort's transpose of an `h × c` column-major array: the `p`-th
/// element in column-major order is laid down at row-major index `p`.
fn transpose(h: usize, c: usize) -> Vec<u32> {
    (0..h * c).map(|p| ((p % c) * h + p / c) as u32).collect()
}

fn inverse(p: &[u32]) -> Vec<u32> {
    let mut inv = vec![0; p.len()];
    for (x, &y) in p.iter().enumerate() {
        inv[y as usize] = x as u32;
    }
    inv
}

/// `p ↦ (p + by) mod r`.
fn rotate(r: usize, by: usize) -> Vec<u32> {
    (0..r).map(|p| ((p + by) % r) as u32).collect()
}

/// First `a`, then `b`.
fn compose(a: &[u32], b: &[u32]) -> Vec<u32> {
    a.iter().map(|&x| b[x as usize]).collect()
}

/// Sorts `keys` by running `plan` on them: pads to `R` with `+∞`
/// (`u64::MAX`), then per phase sorts every column of `s` by `(tag, key)`
/// (a slice sort stands in for the Lemma 9 column sorter, a black box),
/// permutes, and updates the tags. Padding keys equal to a real `u64::MAX`
/// key are indistinguishable from it, so the first `r` outputs are the
/// sorted keys either way.
pub fn execute(plan: &Plan, keys: &mut [u64]) -> Result<(), SorterError> {
    if keys.len() != plan.r {
        return Err(SorterError::LengthMismatch {
            expected: plan.r,
            got: keys.len(),
        });
    }
    let mut cur: Vec<(u64, u64)> = keys.iter().map(|&k| (0, k)).collect();
    cur.resize(plan.padded, (0, u64::MAX));
    let mut next = vec![(0, 0); plan.padded];
    for ph in &plan.phases {
        for col in cur.chunks_mut(plan.s) {
            col.sort_unstable();
        }
        for (&e, &to) in cur.iter().zip(&plan.perms[ph.perm]) {
            next[to as usize] = e;
        }
        std::mem::swap(&mut cur, &mut next);
        if ph.clear != 0 || !ph.set.is_empty() {
            for (p, e) in cur.iter_mut().enumerate() {
                e.0 &= !ph.clear;
                for t in ph.set.iter().filter(|t| t.applies(p)) {
                    e.0 |= 1 << t.bit;
                }
            }
        }
    }
    for (k, e) in keys.iter_mut().zip(&cur) {
        *k = e.1;
    }
    Ok(())
}
