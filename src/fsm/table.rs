//! The symbol table of a machine: every (state, input minterm) cell with
//! its next states and outputs, expanded from the rows. Overlapping rows
//! are merged here: the same next state with compatible outputs is one
//! transition; the same next state with an output 0 in one row and 1 in
//! the other is refused ([`KissErrorKind::Contradiction`]); different next
//! states make the cell nondeterministic, and the machine an NFA (each
//! transition keeps its own outputs).

use std::collections::BTreeMap;

use crate::fsm::kiss::{KissError, KissErrorKind};
use crate::fsm::machine::{Machine, Present};
use crate::fsm::OutBits;

/// No transition in a cell.
pub const NONE: u32 = u32::MAX;
/// The most cells (`s · 2^i`) a table may have.
pub const MAX_CELLS: u64 = 1 << 24;
/// The most cells the rows may expand to, counting overlaps.
pub const MAX_EXPANSION: u64 = 1 << 26;

/// One transition of a cell: next state, outputs, and the line of the
/// first row giving it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transition {
    /// The next state.
    pub next: u32,
    /// The outputs (merged over the rows giving this transition).
    pub out: OutBits,
    /// The first row's line.
    pub line: usize,
}

/// The expanded machine. Cell `q · 2^i + x` is state `q` on minterm `x`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// `s`.
    pub states: u32,
    /// `i`.
    pub inputs: u32,
    /// `o`.
    pub outputs: u32,
    /// The reset state.
    pub reset: u32,
    /// Per cell the first transition, or `next == NONE`.
    pub first: Vec<Transition>,
    /// The cells with two or more next states: all their transitions.
    pub nondet: BTreeMap<u32, Vec<Transition>>,
    /// The minterms some row covers: the machine's `k` symbols, in
    /// increasing order.
    pub symbols: Vec<u32>,
}

fn bits(x: u64, width: u32) -> String {
    (0..width)
        .rev()
        .map(|b| if x >> b & 1 == 1 { '1' } else { '0' })
        .collect()
}

impl Table {
    /// Expand `m`, merging overlapping rows; refuses contradictions and
    /// machines over [`MAX_CELLS`] or [`MAX_EXPANSION`].
    pub fn build(m: &Machine) -> Result<Table, KissError> {
        let err = |line, kind| KissError {
            file: m.file.clone(),
            line,
            column: 0,
            kind: Box::new(kind),
        };
        let s = u64::from(m.state_count());
        let cells = s << m.inputs;
        if cells > MAX_CELLS {
            return Err(err(
                0,
                KissErrorKind::TooLarge {
                    what: format!("{s} states x 2^{} inputs = {cells} cells", m.inputs),
                    limit: MAX_CELLS,
                },
            ));
        }
        let full = (1u64 << m.inputs) - 1;
        let work: u64 = m
            .rows
            .iter()
            .map(|r| {
                let free = u64::from((full as u32) & !r.input.care).count_ones();
                let states = match r.present {
                    Present::Any => s,
                    Present::State(_) => 1,
                };
                states << free
            })
            .fold(0u64, u64::saturating_add);
        if work > MAX_EXPANSION {
            return Err(err(
                0,
                KissErrorKind::TooLarge {
                    what: format!("the rows cover {work} cells (with overlaps)"),
                    limit: MAX_EXPANSION,
                },
            ));
        }
        let empty = Transition {
            next: NONE,
            out: OutBits::default(),
            line: 0,
        };
        let mut t = Table {
            states: s as u32,
            inputs: m.inputs,
            outputs: m.outputs,
            reset: m.reset.0,
            first: vec![empty; cells as usize],
            nondet: BTreeMap::new(),
            symbols: Vec::new(),
        };
        let mut used = vec![false; 1usize << m.inputs];
        for r in &m.rows {
            let (lo, hi) = match r.present {
                Present::Any => (0, s as u32),
                Present::State(q) => (q.0, q.0 + 1),
            };
            for x in r.input.minterms(m.inputs) {
                used[x as usize] = true;
                for q in lo..hi {
                    let add = Transition {
                        next: r.next.0,
                        out: r.out,
                        line: r.line,
                    };
                    t.add(q, x, add).map_err(|(other, output)| {
                        err(
                            r.line,
                            KissErrorKind::Contradiction {
                                other,
                                state: m.states[q as usize].clone(),
                                input: bits(u64::from(x), m.inputs),
                                next: m.states[r.next.index()].clone(),
                                output,
                            },
                        )
                    })?;
                }
            }
        }
        t.symbols = (0..used.len() as u32)
            .filter(|&x| used[x as usize])
            .collect();
        Ok(t)
    }

    /// The cell of state `q` on minterm `x`.
    pub fn cell(&self, q: u32, x: u32) -> usize {
        ((q as usize) << self.inputs) | x as usize
    }

    /// Merge one transition into a cell; on a contradiction the earlier
    /// row's line and the output column.
    fn add(&mut self, q: u32, x: u32, add: Transition) -> Result<(), (usize, u32)> {
        let c = self.cell(q, x);
        let o = self.outputs;
        let clash = |a: OutBits, b: OutBits| {
            let bad = (a.care & b.care) & (a.ones ^ b.ones);
            o - 1 - (63 - bad.leading_zeros())
        };
        let cur = self.first[c];
        if cur.next == NONE {
            self.first[c] = add;
            return Ok(());
        }
        if let Some(list) = self.nondet.get_mut(&(c as u32)) {
            match list.iter_mut().find(|t| t.next == add.next) {
                Some(t) if t.out.conflicts(add.out) => return Err((t.line, clash(t.out, add.out))),
                Some(t) => t.out = t.out.merge(add.out),
                None => list.push(add),
            }
            self.first[c] = list[0];
            return Ok(());
        }
        if cur.next == add.next {
            if cur.out.conflicts(add.out) {
                return Err((cur.line, clash(cur.out, add.out)));
            }
            self.first[c].out = cur.out.merge(add.out);
        } else {
            self.nondet.insert(c as u32, vec![cur, add]);
        }
        Ok(())
    }

    /// Every transition of state `q` on minterm `x`.
    pub fn transitions(&self, q: u32, x: u32) -> &[Transition] {
        let c = self.cell(q, x);
        match self.nondet.get(&(c as u32)) {
            Some(list) => list,
            None if self.first[c].next == NONE => &[],
            None => std::slice::from_ref(&self.first[c]),
        }
    }

    /// Whether no cell has two next states.
    pub fn deterministic(&self) -> bool {
        self.nondet.is_empty()
    }

    /// Cells without a transition (over all `2^i` minterms).
    pub fn unspecified(&self) -> u64 {
        self.first.iter().filter(|t| t.next == NONE).count() as u64
    }

    /// Per state, whether the reset state reaches it.
    pub fn reachable(&self) -> Vec<bool> {
        let mut seen = vec![false; self.states as usize];
        let mut stack = vec![self.reset];
        seen[self.reset as usize] = true;
        while let Some(q) = stack.pop() {
            for &x in &self.symbols {
                for t in self.transitions(q, x) {
                    if !seen[t.next as usize] {
                        seen[t.next as usize] = true;
                        stack.push(t.next);
                    }
                }
            }
        }
        seen
    }
}
