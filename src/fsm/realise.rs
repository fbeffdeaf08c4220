//! The PLA realisations of the table below (thesis §8.2 to §8.4), each counted (inputs, outputs, terms, area) for any machine
//! and built as a [`Pla`] on demand.
//!
//! | construction | in | out | terms |
//! |---|---|---|---|
//! | DFA encoded, thesis (§8.2, §8.4) | ⌈lg s⌉+⌈lg k⌉ | ⌈lg s⌉+o | one per specified (state, symbol) |
//! | DFA encoded, this file | i+⌈lg s⌉ | ⌈lg s⌉+o | p, one per row |
//! | DFA decoded symbols (§8.4) | k+⌈lg s⌉ | ⌈lg s⌉+o | one per (state, output bit) some symbol sets |
//! | NFA one-hot, Floyd–Ullman (§8.3) | s+⌈lg k⌉ | s+o | one per specified (state, symbol) |
//! | NFA decoded symbols (§8.4) | k+s | s+o | one per (state, next state) edge and (state, output bit) |
//!
//! Line order: symbol lines first, then state lines; outputs: state lines
//! first, then the machine's outputs. An encoded state `q` is its index in
//! binary, most significant bit on the first line; a symbol is the rank of
//! its minterm among the used ones (thesis constructions) or, decoded, one
//! line per symbol that is 1 for that symbol alone. The decoded PLAs test
//! "not one of the failing symbols" (the paper's complemented symbol
//! lines); the decoder's own area `k·⌈lg k⌉` is added to their total. The
//! machine's `o` outputs ride along in every construction (the table's
//! "(+o)"; the paper's machines have none: acceptance is the state).

use serde::Serialize;

use crate::fsm::analysis::MachineKind;
use crate::fsm::machine::{Machine, Present};
use crate::fsm::pla::{Pla, PlaSize, Term};
use crate::fsm::table::{Table, NONE};
use crate::fsm::{ceil_lg, OutBits};

/// A construction of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Construction {
    /// States and symbols encoded in binary, one term per transition.
    DfaThesis,
    /// The file's rows as terms, its input bits and a binary state code.
    DfaFile,
    /// Symbols decoded, one term per (state, next-state or output bit).
    DfaDecoded,
    /// One line per state (Floyd–Ullman), symbols encoded.
    NfaOneHot,
    /// One line per state, symbols decoded, one term per edge.
    NfaDecoded,
}

impl Construction {
    /// All five, in the table's order.
    pub const ALL: [Construction; 5] = [
        Construction::DfaThesis,
        Construction::DfaFile,
        Construction::DfaDecoded,
        Construction::NfaOneHot,
        Construction::NfaDecoded,
    ];

    /// The machines it realises: a DFA construction needs a DFA; an NFA
    /// construction takes either.
    pub fn machine(self) -> MachineKind {
        match self {
            Construction::DfaThesis | Construction::DfaFile | Construction::DfaDecoded => {
                MachineKind::Dfa
            }
            Construction::NfaOneHot | Construction::NfaDecoded => MachineKind::Nfa,
        }
    }

    /// Its name in tables.
    pub fn label(self) -> &'static str {
        match self {
            Construction::DfaThesis => "DFA encoded (thesis)",
            Construction::DfaFile => "DFA encoded (this file)",
            Construction::DfaDecoded => "DFA decoded symbols",
            Construction::NfaOneHot => "NFA one-hot (Floyd-Ullman)",
            Construction::NfaDecoded => "NFA decoded symbols",
        }
    }

    /// Whether its symbols are decoded (one line each).
    pub fn decoded(self) -> bool {
        matches!(self, Construction::DfaDecoded | Construction::NfaDecoded)
    }

    /// Whether states are one line each.
    pub fn one_hot(self) -> bool {
        self.machine() == MachineKind::Nfa
    }

    /// Whether it applies to a machine of `kind`.
    pub fn applies(self, kind: MachineKind) -> bool {
        self.machine() == MachineKind::Nfa || kind == MachineKind::Dfa
    }
}

/// The figures of one construction for one machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Figures {
    /// The construction.
    pub construction: Construction,
    /// Inputs, outputs, terms.
    #[serde(flatten)]
    pub size: PlaSize,
    /// `terms · (2·in + out)`.
    pub pla_area: u64,
    /// The symbol decoder's `k·⌈lg k⌉` (decoded constructions), else 0.
    pub decoder_area: u64,
    /// PLA and decoder.
    pub area: u64,
}

/// How the lines of a construction are laid out for a machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lines {
    /// Symbol input lines (`⌈lg k⌉`, `i` or `k`).
    pub symbol: u32,
    /// State input lines (and state output lines): `⌈lg s⌉` or `s`.
    pub state: u32,
}

/// The symbol and state lines of `c` on `t`.
pub fn lines(c: Construction, t: &Table) -> Lines {
    let k = t.symbols.len() as u64;
    let symbol = match c {
        Construction::DfaFile => t.inputs,
        _ if c.decoded() => k as u32,
        _ => ceil_lg(k),
    };
    let state = if c.one_hot() {
        t.states
    } else {
        ceil_lg(u64::from(t.states))
    };
    Lines { symbol, state }
}

/// The output bits a transition drives in an encoded construction, as a
/// mask over `bits + o` lines (line 0 the high bit of the state code).
fn encoded_outs(next: u32, out: OutBits, bits: u32, o: u32) -> u128 {
    let mut m = 0u128;
    for j in 0..bits {
        if next >> (bits - 1 - j) & 1 == 1 {
            m |= 1 << j;
        }
    }
    for c in 0..o {
        if out.ones >> (o - 1 - c) & 1 == 1 {
            m |= 1 << (bits + c);
        }
    }
    m
}

/// The output columns some transition of a cell drives (bit `c` for
/// column `c` from the left).
fn output_ones(ts: &[crate::fsm::table::Transition], o: u32) -> u64 {
    let ones = ts.iter().fold(0u64, |a, t| a | t.out.ones);
    (0..o)
        .filter(|c| ones >> (o - 1 - c) & 1 == 1)
        .fold(0, |m, c| m | 1 << c)
}

/// Terms of `c` on `t` (`rows` the file's p).
fn terms(c: Construction, t: &Table, rows: u64) -> u64 {
    let (s, o) = (t.states, t.outputs);
    let specified = || t.first.iter().filter(|x| x.next != NONE).count() as u64;
    match c {
        Construction::DfaThesis | Construction::NfaOneHot => specified(),
        Construction::DfaFile => rows,
        Construction::DfaDecoded => {
            let bits = ceil_lg(u64::from(s));
            (0..s)
                .map(|q| {
                    let m = t.symbols.iter().fold(0u128, |m, &x| {
                        let tr = t.first[t.cell(q, x)];
                        if tr.next == NONE {
                            m
                        } else {
                            m | encoded_outs(tr.next, tr.out, bits, o)
                        }
                    });
                    u64::from(m.count_ones())
                })
                .sum()
        }
        Construction::NfaDecoded => {
            let mut stamp = vec![u32::MAX; s as usize];
            (0..s)
                .map(|q| {
                    let mut edges = 0u64;
                    let mut ones = 0u64;
                    for &x in &t.symbols {
                        let ts = t.transitions(q, x);
                        ones |= output_ones(ts, o);
                        for tr in ts {
                            if stamp[tr.next as usize] != q {
                                stamp[tr.next as usize] = q;
                                edges += 1;
                            }
                        }
                    }
                    edges + u64::from(ones.count_ones())
                })
                .sum()
        }
    }
}

/// The figures of `c` on machine `m` with table `t`, or `None` when `c`
/// does not apply (a DFA construction on an NFA).
pub fn figures(c: Construction, m: &Machine, t: &Table) -> Option<Figures> {
    let kind = if t.deterministic() {
        MachineKind::Dfa
    } else {
        MachineKind::Nfa
    };
    if !c.applies(kind) {
        return None;
    }
    let l = lines(c, t);
    let size = PlaSize {
        inputs: u64::from(l.symbol) + u64::from(l.state),
        outputs: u64::from(l.state) + u64::from(t.outputs),
        terms: terms(c, t, m.rows.len() as u64),
    };
    let k = t.symbols.len() as u64;
    let decoder_area = if c.decoded() {
        k * u64::from(ceil_lg(k))
    } else {
        0
    };
    Some(Figures {
        construction: c,
        size,
        pla_area: size.area(),
        decoder_area,
        area: size.area().saturating_add(decoder_area),
    })
}

/// The literals putting state `q` on the state lines from `first`.
fn state_lits(c: Construction, l: Lines, first: u32, q: u32) -> Vec<(u32, bool)> {
    if c.one_hot() {
        vec![(first + q, true)]
    } else {
        (0..l.state)
            .map(|j| (first + j, q >> (l.state - 1 - j) & 1 == 1))
            .collect()
    }
}

/// The output lines a set of transitions drives: the next states (code
/// bits or one-hot lines) and the machine's output ones.
fn drives(c: Construction, l: Lines, ts: &[crate::fsm::table::Transition], o: u32) -> Vec<u32> {
    let mut outs: Vec<u32> = Vec::new();
    for tr in ts {
        if c.one_hot() {
            outs.push(tr.next);
        } else {
            outs.extend((0..l.state).filter(|j| tr.next >> (l.state - 1 - j) & 1 == 1));
        }
    }
    let ones = output_ones(ts, o);
    outs.extend((0..o).filter(|b| ones >> b & 1 == 1).map(|b| l.state + b));
    outs.sort_unstable();
    outs.dedup();
    outs
}

/// Build the PLA of `c` for `m` (table `t`); `None` when `c` does not
/// apply. Call [`figures`] first: the decoded PLAs hold `k` literals a
/// term.
pub fn build(c: Construction, m: &Machine, t: &Table) -> Option<Pla> {
    figures(c, m, t)?;
    let l = lines(c, t);
    let o = t.outputs;
    let mut terms: Vec<Term> = Vec::new();
    let sym_lits = |r: u32| -> Vec<(u32, bool)> {
        (0..l.symbol)
            .map(|j| (j, r >> (l.symbol - 1 - j) & 1 == 1))
            .collect()
    };
    match c {
        Construction::DfaFile => {
            for r in &m.rows {
                let mut lits: Vec<(u32, bool)> = (0..l.symbol)
                    .filter(|j| r.input.care >> (l.symbol - 1 - j) & 1 == 1)
                    .map(|j| (j, r.input.value >> (l.symbol - 1 - j) & 1 == 1))
                    .collect();
                if let Present::State(q) = r.present {
                    lits.extend(state_lits(c, l, l.symbol, q.0));
                }
                let tr = crate::fsm::table::Transition {
                    next: r.next.0,
                    out: r.out,
                    line: r.line,
                };
                let dc = (0..o)
                    .filter(|b| r.out.care >> (o - 1 - b) & 1 == 0)
                    .map(|b| l.state + b)
                    .collect();
                terms.push(Term {
                    lits,
                    outs: drives(c, l, &[tr], o),
                    dc,
                });
            }
        }
        Construction::DfaThesis | Construction::NfaOneHot => {
            for q in 0..t.states {
                for (r, &x) in t.symbols.iter().enumerate() {
                    let ts = t.transitions(q, x);
                    if ts.is_empty() {
                        continue;
                    }
                    let mut lits = sym_lits(r as u32);
                    lits.extend(state_lits(c, l, l.symbol, q));
                    terms.push(Term {
                        lits,
                        outs: drives(c, l, ts, o),
                        dc: Vec::new(),
                    });
                }
            }
        }
        Construction::DfaDecoded | Construction::NfaDecoded => {
            for q in 0..t.states {
                // Per output line, the symbols on which it is driven.
                let mut on: std::collections::BTreeMap<u32, Vec<bool>> = Default::default();
                for (r, &x) in t.symbols.iter().enumerate() {
                    for line in drives(c, l, t.transitions(q, x), o) {
                        on.entry(line)
                            .or_insert_with(|| vec![false; t.symbols.len()])[r] = true;
                    }
                }
                for (line, syms) in on {
                    let mut lits: Vec<(u32, bool)> = (0..l.symbol)
                        .filter(|&r| !syms[r as usize])
                        .map(|r| (r, false))
                        .collect();
                    lits.extend(state_lits(c, l, l.symbol, q));
                    terms.push(Term {
                        lits,
                        outs: vec![line],
                        dc: Vec::new(),
                    });
                }
            }
        }
    }
    let mut input_labels: Vec<String> = match c {
        Construction::DfaFile => (0..t.inputs).map(|b| m.input_label(b)).collect(),
        _ if c.decoded() => t.symbols.iter().map(|&x| format!("sym{x}")).collect(),
        _ => (0..l.symbol).map(|j| format!("sym_b{j}")).collect(),
    };
    let state_name = |j: u32| {
        if c.one_hot() {
            m.states[j as usize].clone()
        } else {
            format!("q{j}")
        }
    };
    input_labels.extend((0..l.state).map(state_name));
    let mut output_labels: Vec<String> = (0..l.state)
        .map(|j| format!("next_{}", state_name(j)))
        .collect();
    output_labels.extend((0..o).map(|b| m.output_label(b)));
    Some(Pla {
        input_labels,
        output_labels,
        terms,
    })
}
