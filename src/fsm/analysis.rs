//! The figures of a machine: s, i, o, k, p, determinism, completeness,
//! reachable states, and (for a DFA) the minimised state count beside the
//! input's.

use serde::Serialize;

use crate::fsm::machine::Machine;
use crate::fsm::minimise::{hopcroft, Dfa};
use crate::fsm::table::Table;

/// Deterministic or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum MachineKind {
    /// At most one next state per state and input.
    Dfa,
    /// Some state and input with two or more next states.
    Nfa,
}

/// The minimised machine's size (DFAs only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Minimised {
    /// Classes of equivalent states among all states (the unspecified
    /// transitions treated as one more behaviour, `-` outputs as a third
    /// value: the machine minimised exactly as specified).
    pub classes: u32,
    /// Classes among the states reachable from the reset state: the
    /// minimal machine's states.
    pub minimal: u32,
}

/// What `fabric fsm` reports of a machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Analysis {
    /// `s`: states.
    pub states: u32,
    /// `i`: input bits.
    pub inputs: u32,
    /// `o`: output bits.
    pub outputs: u32,
    /// `k`: symbols, the input minterms some row covers. One could take
    /// `k = 2^i` when the i input bits are fully specified; the thesis'
    /// `k` (§8.4) is the size of the machine's alphabet. This follows the
    /// thesis: minterms no row mentions are not symbols of the machine
    /// (the two agree when the rows cover every input).
    pub symbols: u64,
    /// `p`: rows.
    pub rows: u64,
    /// DFA or NFA.
    pub kind: MachineKind,
    /// Cells (state, minterm) with two or more next states.
    pub nondeterministic_cells: u64,
    /// Whether every state has a transition on every one of the `2^i`
    /// minterms.
    pub complete: bool,
    /// Cells without a transition.
    pub unspecified_cells: u64,
    /// States the reset state reaches.
    pub reachable: u32,
    /// The minimised DFA (`None` for an NFA).
    pub minimised: Option<Minimised>,
}

/// Analyse `m` through its table `t`.
pub fn analyse(m: &Machine, t: &Table) -> Analysis {
    let reach = t.reachable();
    let kind = if t.deterministic() {
        MachineKind::Dfa
    } else {
        MachineKind::Nfa
    };
    let minimised = (kind == MachineKind::Dfa).then(|| {
        let classes = hopcroft(&Dfa::of_table(t));
        let s = t.states as usize;
        let count = |keep: &dyn Fn(usize) -> bool| {
            let mut seen: Vec<bool> = vec![false; s + 1];
            (0..s)
                .filter(|&q| keep(q) && !std::mem::replace(&mut seen[classes[q] as usize], true))
                .count() as u32
        };
        Minimised {
            classes: count(&|_| true),
            minimal: count(&|q| reach[q]),
        }
    });
    let unspecified = t.unspecified();
    Analysis {
        states: t.states,
        inputs: t.inputs,
        outputs: t.outputs,
        symbols: t.symbols.len() as u64,
        rows: m.rows.len() as u64,
        kind,
        nondeterministic_cells: t.nondet.len() as u64,
        complete: unspecified == 0,
        unspecified_cells: unspecified,
        reachable: reach.iter().filter(|&&r| r).count() as u32,
        minimised,
    }
}
