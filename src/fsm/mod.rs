//! Area of finite-state machines (thesis chapter 8): a KISS2 machine read
//! and checked, analysed (states, symbols, determinism, completeness,
//! reachability, minimisation), realised as PLAs from above (the table of
//! five constructions in `docs/fsm.md`, each simulated against the machine) and bounded from
//! below by the counting argument over the family `F_s`.
//!
//! - [`kiss`]: the KISS2 reader and its typed errors ([`kiss::KissError`]).
//! - [`machine`]: the machine as read ([`Machine`]) and its symbol table
//!   ([`table::Table`]), with the figures of [`analysis::Analysis`].
//! - [`minimise`]: Hopcroft's partition refinement and the slow Moore
//!   refinement it is tested against.
//! - [`pla`]: a PLA (AND and OR planes), its evaluation and the Berkeley
//!   `.pla` text; [`realise`]: the five constructions and the check that
//!   simulates a PLA against the machine on every (state, input) pair.
//! - [`bounds`]: `B_DFA`, `B_NFA`, the family `F_s`, the distinguishing
//!   words and their signatures; [`family`]: seeded random members of
//!   `F_s` written as KISS2.
//!
//! Nothing here reads files or prints; the command line is `fabric fsm`.

#![warn(missing_docs)]

pub mod analysis;
pub mod bounds;
pub mod check;
pub mod family;
pub mod kiss;
pub mod machine;
pub mod minimise;
pub mod pla;
pub mod realise;
pub mod table;

#[cfg(test)]
mod tests;

pub use machine::{Machine, Present, Row};

/// A state of a machine: its index in [`Machine::states`] (order of first
/// appearance in the file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StateId(pub u32);

impl StateId {
    /// The index as a `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An input cube over at most [`kiss::MAX_INPUTS`] inputs: bit `b` of
/// `care` set when column `b` (counted from the right, the last column is
/// bit 0) is `0` or `1`, and then `value` holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cube {
    /// The specified columns.
    pub care: u32,
    /// Their values (zero where not cared for).
    pub value: u32,
}

impl Cube {
    /// Whether the minterm `x` lies in the cube.
    pub fn contains(self, x: u32) -> bool {
        x & self.care == self.value
    }

    /// Every minterm of the cube over `width` inputs, in increasing order.
    pub fn minterms(self, width: u32) -> impl Iterator<Item = u32> {
        let full = if width >= 32 {
            u32::MAX
        } else {
            (1u32 << width) - 1
        };
        let free = full & !self.care;
        let value = self.value;
        // Every subset of `free`, smallest first.
        let mut next = Some(0u32);
        std::iter::from_fn(move || {
            let sub = next?;
            next = if sub == free {
                None
            } else {
                Some(sub.wrapping_sub(free) & free)
            };
            Some(value | sub)
        })
    }
}

/// The outputs of a transition over at most [`kiss::MAX_OUTPUTS`] outputs:
/// `care` bit set for a `0` or `1`, `ones` the ones (a `-` is neither).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OutBits {
    /// The specified outputs.
    pub care: u64,
    /// The ones among them.
    pub ones: u64,
}

impl OutBits {
    /// Whether `self` and `other` give a 0 and a 1 to the same output.
    pub fn conflicts(self, other: OutBits) -> bool {
        (self.care & other.care) & (self.ones ^ other.ones) != 0
    }

    /// Both sets of specified outputs together (they must not conflict).
    pub fn merge(self, other: OutBits) -> OutBits {
        OutBits {
            care: self.care | other.care,
            ones: self.ones | other.ones,
        }
    }
}

/// `⌈lg n⌉`, with `⌈lg 1⌉ = 0` (and `0` for `n = 0`).
pub fn ceil_lg(n: u64) -> u32 {
    if n <= 1 {
        0
    } else {
        64 - (n - 1).leading_zeros()
    }
}
