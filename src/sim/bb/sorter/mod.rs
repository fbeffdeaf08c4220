//! The `(b, s, l)` flexible sorter of Bay and Bilardi (Theorem 2,
//! Corollary 2, Lemmas 8 and 9, Fig. 4).
//!
//! The circuit holds up to `l` words of `b` bits in `s` cycles of `l/s`
//! cells joined by an Omega network, next to a column sorter for `s`
//! words (Lemma 9, a black box here). `r` words are shifted into the
//! rightmost `ceil(r/s)` columns, the cycles close at
//! `w = 2^ceil(lg ceil(r/s))`, and the sorter alternates sorting the `w`
//! columns with fixed permutations, following a recursive Columnsort
//! [`Plan`] (Lemma 8). Cells past the `r` words hold `+∞` keys (the
//! paper leaves them unspecified).
//!
//! This module gives the plan and its execution (`plan`), and the
//! bit-step time, control-register sizes and grid-unit area of the
//! circuit (`model`).
//!
//! Every formula used here is the paper's. The register sizes checked
//! against Fig. 4 are the paper's sums evaluated; the paper's "even label
//! between `2^(m−1)` and `2^m`" is read as the half-open `(2^(m−1), 2^m]`,
//! the only reading under which a cell labelled `c` stores fields for
//! exactly the `w ≥ c` (the paper: "each cell with an even label between 1
//! and `w` needs `2 lg w` control bits").

mod error;
mod model;
mod plan;

#[cfg(test)]
mod tests;

pub use error::SorterError;
pub use model::{AreaModel, CostModel, Extent};
pub use plan::{
    block_height, execute, lemma8_depth, lemma8_phases, padded_size, phase_count, plan, plan_depth,
    Plan, TagRule, MAX_POSITIONS,
};

/// The largest capacity `l` a [`Sorter`] accepts (keeps every bit count
/// of the models inside `u64`).
pub const MAX_CAPACITY: u32 = 1 << 30;

/// A `(b, s, l)` flexible sorter: `b`-bit words, `s` cycles (the column
/// height and the circuit's height), capacity `l` words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sorter {
    b: u32,
    s: u32,
    l: u32,
}

/// The widest word a sorter takes. Its time and area models take any
/// width; [`Sorter::sort`] sorts `u64` keys, whatever `b` (words wider
/// than 64 bits carry their key in the low 64).
pub const MAX_WORD_BITS: u32 = 4096;

impl Sorter {
    /// A sorter for `b`-bit words (`1..=`[`MAX_WORD_BITS`]), `s` cycles (a power of two,
    /// at least 2) and capacity `l` (a power of two, `s ≤ l ≤`
    /// [`MAX_CAPACITY`]). The paper assumes powers of two "to simplify the
    /// presentation"; the permuter closes its cycles at power-of-two
    /// lengths, so they are required here.
    pub fn new(b: u32, s: u32, l: u32) -> Result<Sorter, SorterError> {
        if !(1..=MAX_WORD_BITS).contains(&b) {
            return Err(SorterError::BadWordWidth { b });
        }
        if s < 2 || !s.is_power_of_two() {
            return Err(SorterError::BadColumnHeight { s: u64::from(s) });
        }
        if !l.is_power_of_two() {
            return Err(SorterError::CapacityNotPowerOfTwo { l });
        }
        if l < s {
            return Err(SorterError::CapacityBelowColumn { l, s });
        }
        if l > MAX_CAPACITY {
            return Err(SorterError::CapacityTooLarge {
                l,
                max: MAX_CAPACITY,
            });
        }
        Ok(Sorter { b, s, l })
    }

    /// Word width `b` in bits.
    pub fn b(&self) -> u32 {
        self.b
    }

    /// Cycles `s`: the column height.
    pub fn s(&self) -> u32 {
        self.s
    }

    /// Capacity `l` in words.
    pub fn l(&self) -> u32 {
        self.l
    }

    /// Cells per cycle, `l/s`.
    pub fn cells(&self) -> u32 {
        self.l / self.s
    }

    /// `w = 2^ceil(lg ceil(r/s))` (at least 1): the cycle length for `r`
    /// words.
    pub fn columns(&self, r: u64) -> Result<u64, SorterError> {
        self.check_words(r)?;
        Ok(r.div_ceil(u64::from(self.s)).max(1).next_power_of_two())
    }

    fn check_words(&self, r: u64) -> Result<(), SorterError> {
        if r > u64::from(self.l) {
            return Err(SorterError::TooManyWords { r, l: self.l });
        }
        Ok(())
    }

    /// The Columnsort plan this sorter runs on `r ≤ l` words.
    pub fn plan(&self, r: usize) -> Result<Plan, SorterError> {
        self.check_words(r as u64)?;
        plan(r, self.s as usize)
    }

    /// The phase count `P = 4^depth` for `r ≤ l` words.
    pub fn phases(&self, r: u64) -> Result<u64, SorterError> {
        let w = self.columns(r)?;
        phase_count((w * u64::from(self.s)) as usize, self.s as usize)
    }

    /// `β`: the most permuting steps the sorter needs for any valid `w`
    /// (a power of two up to `l/s`), the number of permutations whose
    /// control bits each register field stores.
    pub fn beta(&self) -> u64 {
        let s = u64::from(self.s);
        let mut beta = 1;
        let mut w = 1u64;
        while w <= u64::from(self.cells()) {
            let depth = plan::padded_depth((w * s) as usize, self.s as usize);
            beta = beta.max(4u64.pow(depth));
            w *= 2;
        }
        beta
    }

    /// Sorts `keys` (at most `l`, each below `2^b`) ascending with this
    /// sorter's plan.
    pub fn sort(&self, keys: &mut [u64]) -> Result<(), SorterError> {
        self.check_words(keys.len() as u64)?;
        if self.b < 64 {
            if let Some(&key) = keys.iter().find(|&&k| k >> self.b != 0) {
                return Err(SorterError::KeyTooWide { key, b: self.b });
            }
        }
        let p = self.plan(keys.len())?;
        execute(&p, keys)
    }
}
