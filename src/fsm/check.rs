//! The check of a realisation: its PLA simulated against the machine on
//! (state, input) pairs, every pair when `i + ⌈lg s⌉ <= 16`, else
//! [`SAMPLES`] pairs drawn with a seed. A pair without a transition is a
//! don't care; otherwise the next state must come out exactly (its code,
//! or its one-hot lines: every successor and nothing else), and every
//! specified output bit as specified (for an NFA, an output is 1 when some
//! transition gives 1, 0 when every transition gives 0).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::fsm::ceil_lg;
use crate::fsm::machine::Machine;
use crate::fsm::pla::{Pla, Term};
use crate::fsm::realise::{lines, Construction, Lines};
use crate::fsm::table::Table;

/// Pairs drawn when the machine is too large to check exhaustively.
pub const SAMPLES: u64 = 1 << 16;
/// Exhaustive up to `i + ⌈lg s⌉` of this many bits.
pub const EXHAUSTIVE_BITS: u32 = 16;

/// How the pairs were chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Coverage {
    /// Every (state, input) pair.
    Exhaustive,
    /// [`SAMPLES`] pairs drawn with this seed.
    Sampled {
        /// The seed.
        seed: u64,
    },
}

/// A passed check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CheckReport {
    /// What was checked.
    pub construction: Construction,
    /// How the pairs were chosen.
    pub coverage: Coverage,
    /// Pairs simulated.
    pub pairs: u64,
    /// Of them, pairs with a transition (the rest are don't cares).
    pub specified: u64,
}

/// A PLA disagreeing with its machine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{construction:?} PLA disagrees with the machine in state `{state}` on input {input}: output line `{line}` is {got}, should be {want}")]
pub struct Mismatch {
    /// The construction.
    pub construction: Construction,
    /// The state.
    pub state: String,
    /// The input minterm, as bits.
    pub input: String,
    /// The output line's name.
    pub line: String,
    /// The PLA's value.
    pub got: bool,
    /// The machine's.
    pub want: bool,
}

/// The PLA's terms bucketed by the state their literals fix (terms that
/// fix none are tried for every state).
struct Index {
    by_state: Vec<Vec<u32>>,
    wild: Vec<u32>,
}

impl Index {
    fn new(c: Construction, l: Lines, pla: &Pla, states: u32) -> Index {
        let mut by_state = vec![Vec::new(); states as usize];
        let mut wild = Vec::new();
        let (lo, hi) = (l.symbol, l.symbol + l.state);
        for (i, t) in pla.terms.iter().enumerate() {
            let key = if c.one_hot() {
                t.lits
                    .iter()
                    .find(|&&(line, v)| v && (lo..hi).contains(&line))
                    .map(|&(line, _)| line - lo)
            } else {
                let fixed: Vec<&(u32, bool)> = t
                    .lits
                    .iter()
                    .filter(|(line, _)| (lo..hi).contains(line))
                    .collect();
                (fixed.len() as u32 == l.state).then(|| {
                    fixed
                        .iter()
                        .fold(0u32, |q, &&(line, v)| q | u32::from(v) << (hi - 1 - line))
                })
            };
            match key.filter(|&q| q < states) {
                Some(q) => by_state[q as usize].push(i as u32),
                None => wild.push(i as u32),
            }
        }
        Index { by_state, wild }
    }

    fn terms<'a>(&'a self, pla: &'a Pla, q: u32) -> impl Iterator<Item = &'a Term> {
        self.by_state[q as usize]
            .iter()
            .chain(&self.wild)
            .map(|&i| &pla.terms[i as usize])
    }
}

fn set(x: &mut [u64], line: u32) {
    x[line as usize / 64] |= 1 << (line % 64);
}

fn get(x: &[u64], line: u32) -> bool {
    x[line as usize / 64] >> (line % 64) & 1 == 1
}

/// The PLA's input bits for state `q` on minterm `x`.
fn encode(c: Construction, l: Lines, t: &Table, q: u32, x: u32, width: usize) -> Vec<u64> {
    let mut v = vec![0u64; width.div_ceil(64).max(1)];
    let rank = t.symbols.binary_search(&x).ok().map(|r| r as u32);
    match c {
        Construction::DfaFile => (0..l.symbol)
            .filter(|j| x >> (l.symbol - 1 - j) & 1 == 1)
            .for_each(|j| set(&mut v, j)),
        _ if c.decoded() => rank.into_iter().for_each(|r| set(&mut v, r)),
        _ => {
            if let Some(r) = rank {
                (0..l.symbol)
                    .filter(|j| r >> (l.symbol - 1 - j) & 1 == 1)
                    .for_each(|j| set(&mut v, j));
            }
        }
    }
    if c.one_hot() {
        set(&mut v, l.symbol + q);
    } else {
        (0..l.state)
            .filter(|j| q >> (l.state - 1 - j) & 1 == 1)
            .for_each(|j| set(&mut v, l.symbol + j));
    }
    v
}

/// Simulate `pla`, built by `c` for `m`, against `t` (see the module
/// doc); `seed` draws the sampled pairs.
pub fn check(
    c: Construction,
    pla: &Pla,
    m: &Machine,
    t: &Table,
    seed: u64,
) -> Result<CheckReport, Mismatch> {
    let l = lines(c, t);
    let index = Index::new(c, l, pla, t.states);
    let width = pla.input_labels.len();
    let bits = t.inputs + ceil_lg(u64::from(t.states));
    let mut report = CheckReport {
        construction: c,
        coverage: Coverage::Exhaustive,
        pairs: 0,
        specified: 0,
    };
    let one = |q: u32, x: u32, report: &mut CheckReport| -> Result<(), Mismatch> {
        report.pairs += 1;
        let ts = t.transitions(q, x);
        if ts.is_empty() {
            return Ok(());
        }
        report.specified += 1;
        let got = pla.eval_terms(index.terms(pla, q), &encode(c, l, t, q, x, width));
        let o = t.outputs;
        for line in 0..l.state + o {
            let want: Option<bool> = if line < l.state {
                Some(ts.iter().any(|tr| {
                    if c.one_hot() {
                        tr.next == line
                    } else {
                        tr.next >> (l.state - 1 - line) & 1 == 1
                    }
                }))
            } else {
                let bit = 1u64 << (o - 1 - (line - l.state));
                if ts.iter().any(|tr| tr.out.ones & bit != 0) {
                    Some(true)
                } else if ts.iter().all(|tr| tr.out.care & bit != 0) {
                    Some(false)
                } else {
                    None
                }
            };
            if let Some(want) = want.filter(|&w| w != get(&got, line)) {
                return Err(Mismatch {
                    construction: c,
                    state: m.states[q as usize].clone(),
                    input: (0..t.inputs)
                        .rev()
                        .map(|b| if x >> b & 1 == 1 { '1' } else { '0' })
                        .collect(),
                    line: pla.output_labels[line as usize].clone(),
                    got: !want,
                    want,
                });
            }
        }
        Ok(())
    };
    if bits <= EXHAUSTIVE_BITS {
        for q in 0..t.states {
            for x in 0..1u32 << t.inputs {
                one(q, x, &mut report)?;
            }
        }
    } else {
        report.coverage = Coverage::Sampled { seed };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..SAMPLES {
            let q = rng.gen_range(0..t.states);
            let x = rng.gen_range(0..1u32 << t.inputs);
            one(q, x, &mut report)?;
        }
    }
    Ok(report)
}
