//! Lower bounds by counting (thesis §8.1 to §8.4): a chip of area `A` is
//! specified by `Θ(A)` bits (Lemma 29), about `b0 = 6` bits per unit
//! square in the thesis' CMOS example, so a family of `2^B` machines that
//! all behave differently needs `A >= B / b0` for some member.
//!
//! The family `F_s` over `k` symbols: states `0..s`, state 0 the start
//! state and the distinguished (accepting) one; symbol 0 takes `i` to
//! `i + 1 mod s`; each of the other `k − 1` symbols goes anywhere (a DFA:
//! `s^{s(k−1)}` members, `B_DFA = s(k−1)·lg s`, Theorem 32) or to any set
//! of states (an NFA: `2^{s²(k−1)}` members, `B_NFA = s²(k−1)`, Theorem
//! 33). The members differ in behaviour: the word `0^i σ 0^{(s−j) mod s}`
//! is accepted iff the edge `i → j` on `σ` exists. The thesis writes
//! `0^{s−j}`; with `j = 0` that is `0^s`, which returns to the same state,
//! so reading it mod `s` accepts the same words; this code takes that
//! shorter word.
//!
//! These bounds are existential: the worst case over the machines with
//! the given `(s, k)`, not a bound for any one machine.

use serde::Serialize;

use crate::fsm::analysis::MachineKind;

/// The label every lower bound carries.
pub const WORST_CASE: &str = "worst case over (s, k) machines";

/// `B_DFA = s(k−1)·lg s` bits: `lg |F_s|` for the DFAs.
pub fn b_dfa(s: u64, k: u64) -> f64 {
    s as f64 * k.saturating_sub(1) as f64 * (s as f64).log2()
}

/// `B_NFA = s²(k−1)` bits: `lg |F_s|` for the NFAs.
pub fn b_nfa(s: u64, k: u64) -> f64 {
    (s as f64) * (s as f64) * k.saturating_sub(1) as f64
}

/// The lower bound of one kind of machine with `(s, k)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LowerBound {
    /// DFA or NFA.
    pub kind: MachineKind,
    /// `B`, bits to tell the family's members apart.
    pub bits: f64,
    /// `B / b0`, unit squares.
    pub area: f64,
}

/// Both lower bounds for `(s, k)` at `b0` bits per unit square.
pub fn lower_bounds(s: u64, k: u64, b0: f64) -> [LowerBound; 2] {
    let dfa = b_dfa(s, k);
    let nfa = b_nfa(s, k);
    [
        LowerBound {
            kind: MachineKind::Dfa,
            bits: dfa,
            area: dfa / b0,
        },
        LowerBound {
            kind: MachineKind::Nfa,
            bits: nfa,
            area: nfa / b0,
        },
    ]
}

/// A member of `F_s`: `free[q·(k−1) + σ − 1]` the targets of state `q` on
/// symbol `σ >= 1` (one target for a DFA, any set for an NFA).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// States.
    pub s: u32,
    /// Symbols.
    pub k: u32,
    /// The free edges.
    pub free: Vec<Vec<u32>>,
}

impl Member {
    /// The states after reading `word` from the start state 0.
    pub fn run(&self, word: &[u32]) -> Vec<bool> {
        let s = self.s as usize;
        let mut cur = vec![false; s];
        cur[0] = true;
        for &a in word {
            let mut next = vec![false; s];
            for q in (0..s).filter(|&q| cur[q]) {
                if a == 0 {
                    next[(q + 1) % s] = true;
                } else {
                    for &j in &self.free[q * (self.k as usize - 1) + a as usize - 1] {
                        next[j as usize] = true;
                    }
                }
            }
            cur = next;
        }
        cur
    }

    /// Whether `word` can end in the distinguished state 0.
    pub fn accepts(&self, word: &[u32]) -> bool {
        self.run(word)[0]
    }
}

/// The word that tests for the edge `i → j` on `sigma`:
/// `0^i sigma 0^{(s−j) mod s}`.
pub fn distinguishing_word(s: u32, i: u32, sigma: u32, j: u32) -> Vec<u32> {
    let mut w = vec![0u32; i as usize];
    w.push(sigma);
    w.extend(std::iter::repeat_n(0, ((s - j) % s) as usize));
    w
}

/// A member's answers to every distinguishing word, in the order
/// `(i, σ, j)`: what an experimenter who sees only the output learns.
pub fn signature(m: &Member) -> Vec<bool> {
    let mut sig = Vec::new();
    for i in 0..m.s {
        for sigma in 1..m.k {
            for j in 0..m.s {
                sig.push(m.accepts(&distinguishing_word(m.s, i, sigma, j)));
            }
        }
    }
    sig
}

/// Every DFA member of `F_s` with `k` symbols (`s^{s(k−1)}` of them; for
/// small `s` and `k` only).
pub fn all_dfas(s: u32, k: u32) -> Vec<Member> {
    let slots = (s * (k - 1)) as usize;
    let count = (s as u64).pow(slots as u32);
    (0..count)
        .map(|mut code| {
            let free = (0..slots)
                .map(|_| {
                    let j = (code % u64::from(s)) as u32;
                    code /= u64::from(s);
                    vec![j]
                })
                .collect();
            Member { s, k, free }
        })
        .collect()
}

/// Every NFA member of `F_s` with `k` symbols (`2^{s²(k−1)}` of them).
pub fn all_nfas(s: u32, k: u32) -> Vec<Member> {
    let slots = (s * (k - 1)) as usize;
    let count = 1u64 << (slots as u32 * s);
    (0..count)
        .map(|code| {
            let free = (0..slots)
                .map(|slot| {
                    (0..s)
                        .filter(|&j| code >> (slot as u32 * s + j) & 1 == 1)
                        .collect()
                })
                .collect();
            Member { s, k, free }
        })
        .collect()
}
