//! Why a flexible sorter, a Columnsort plan or a sort request is refused.

use thiserror::Error;

/// A flexible sorter, plan or request that cannot be built or run.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SorterError {
    /// The column height `s` must be a power of two of at least 2 (with
    /// `s = 1` Columnsort has no block height that satisfies its condition).
    #[error("column height s = {s}: need a power of two, at least 2")]
    BadColumnHeight {
        /// The height asked for.
        s: u64,
    },
    /// The capacity `l` must be a power of two.
    #[error("capacity l = {l}: need a power of two")]
    CapacityNotPowerOfTwo {
        /// The capacity asked for.
        l: u32,
    },
    /// The capacity `l` must hold at least one full column.
    #[error("capacity l = {l} is below the column height s = {s}")]
    CapacityBelowColumn {
        /// The capacity asked for.
        l: u32,
        /// The column height.
        s: u32,
    },
    /// The capacity is over [`MAX_CAPACITY`](super::MAX_CAPACITY).
    #[error("capacity l = {l} is over the supported {max}")]
    CapacityTooLarge {
        /// The capacity asked for.
        l: u32,
        /// The largest supported capacity.
        max: u32,
    },
    /// Words must have between 1 and [`super::MAX_WORD_BITS`] bits.
    #[error("word width b = {b}: need 1..=4096 bits")]
    BadWordWidth {
        /// The width asked for.
        b: u32,
    },
    /// More words than the sorter holds.
    #[error("{r} words for a sorter of capacity {l}")]
    TooManyWords {
        /// The words given.
        r: u64,
        /// The sorter's capacity.
        l: u32,
    },
    /// A plan over more positions than
    /// [`MAX_POSITIONS`](super::MAX_POSITIONS) (its permutation tables
    /// would not fit in memory).
    #[error("{r} words pad to more than the {max} positions a plan may have")]
    PlanTooLarge {
        /// The words asked for.
        r: u64,
        /// The largest padded size.
        max: usize,
    },
    /// A key that does not fit in the sorter's `b`-bit words.
    #[error("key {key:#x} does not fit in {b} bits")]
    KeyTooWide {
        /// The key.
        key: u64,
        /// The word width.
        b: u32,
    },
    /// `execute` was given a different number of keys than the plan sorts.
    #[error("plan sorts {expected} keys, got {got}")]
    LengthMismatch {
        /// The plan's `r`.
        expected: usize,
        /// The keys given.
        got: usize,
    },
    /// A cell label outside `1..=l/s`.
    #[error("cell label {label}: cells are labelled 1..={cells}")]
    BadCellLabel {
        /// The label asked for.
        label: u32,
        /// Cells per cycle, `l/s`.
        cells: u32,
    },
}
