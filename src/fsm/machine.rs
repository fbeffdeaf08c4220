//! The machine as a KISS2 file gives it: inputs, outputs, named states, the
//! reset state and the rows (cubes), before any expansion.

use crate::fsm::{ceil_lg, Cube, OutBits, StateId};

/// The present-state field of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Present {
    /// One state.
    State(StateId),
    /// `*`: the row applies in every state.
    Any,
}

/// One row (product term) of the file: in `present`, on an input in
/// `input`, go to `next` and give `out`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The 1-based line of the row in its file.
    pub line: usize,
    /// The input cube.
    pub input: Cube,
    /// The present state.
    pub present: Present,
    /// The next state.
    pub next: StateId,
    /// The outputs.
    pub out: OutBits,
}

/// A machine as read from KISS2: every field checked, nothing expanded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    /// The file name, as the reader was given it (for errors).
    pub file: String,
    /// `.i`: input bits.
    pub inputs: u32,
    /// `.o`: output bits.
    pub outputs: u32,
    /// State names in order of first appearance in the rows (present
    /// state, then next state, row by row).
    pub states: Vec<String>,
    /// `.r`, or the present state of the first row.
    pub reset: StateId,
    /// The rows, in file order.
    pub rows: Vec<Row>,
    /// `.ilb`: input names, when given.
    pub input_labels: Option<Vec<String>>,
    /// `.ob`: output names, when given.
    pub output_labels: Option<Vec<String>>,
}

impl Machine {
    /// `s`: the number of states.
    pub fn state_count(&self) -> u32 {
        self.states.len() as u32
    }

    /// `⌈lg s⌉`: bits of an encoded state.
    pub fn state_bits(&self) -> u32 {
        ceil_lg(u64::from(self.state_count()))
    }

    /// `2^i`: input minterms.
    pub fn minterms(&self) -> u64 {
        1u64 << self.inputs
    }

    /// The name of input `b` (column `b` from the left).
    pub fn input_label(&self, b: u32) -> String {
        self.input_labels
            .as_ref()
            .and_then(|l| l.get(b as usize).cloned())
            .unwrap_or_else(|| format!("x{b}"))
    }

    /// The name of output `b` (column `b` from the left).
    pub fn output_label(&self, b: u32) -> String {
        self.output_labels
            .as_ref()
            .and_then(|l| l.get(b as usize).cloned())
            .unwrap_or_else(|| format!("z{b}"))
    }
}
