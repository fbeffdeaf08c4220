//! Random members of the family `F_s` (see [`crate::fsm::bounds`]),
//! seeded, written as KISS2: `⌈lg k⌉` input bits carrying the symbol in
//! binary (symbol 0 is all zeros), no outputs (`.o 0`: acceptance is being
//! in the reset state `s0`, the distinguished state), states `s0 ..
//! s{s−1}`. The same seed gives the same text byte for byte; member `n` of
//! a run draws from its own stream, so it does not depend on the count.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::fsm::analysis::MachineKind;
use crate::fsm::bounds::Member;
use crate::fsm::ceil_lg;
use crate::fsm::table::MAX_CELLS;

/// Why a family cannot be generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FamilyError {
    /// `s = 0` or `k < 2`.
    #[error("F_s needs s >= 1 and k >= 2 (symbol 0 is the fixed cycle), not s = {s}, k = {k}")]
    Degenerate {
        /// States.
        s: u32,
        /// Symbols.
        k: u32,
    },
    /// Over the size the reader accepts.
    #[error("s = {s}, k = {k}: {what} over the limit of {limit}")]
    TooLarge {
        /// States.
        s: u32,
        /// Symbols.
        k: u32,
        /// What is counted.
        what: &'static str,
        /// The limit.
        limit: u64,
    },
}

/// Check that `(s, k)` can be generated and read back.
pub fn check_family(s: u32, k: u32, kind: MachineKind) -> Result<(), FamilyError> {
    if s == 0 || k < 2 {
        return Err(FamilyError::Degenerate { s, k });
    }
    let cells = u64::from(s) << ceil_lg(u64::from(k));
    if cells > MAX_CELLS {
        return Err(FamilyError::TooLarge {
            s,
            k,
            what: "s · 2^⌈lg k⌉ cells",
            limit: MAX_CELLS,
        });
    }
    let edges = u64::from(s) * u64::from(s) * u64::from(k - 1);
    if kind == MachineKind::Nfa && edges > MAX_CELLS {
        return Err(FamilyError::TooLarge {
            s,
            k,
            what: "s²(k−1) possible edges",
            limit: MAX_CELLS,
        });
    }
    Ok(())
}

/// Member `index` of the run seeded `seed`: a uniformly random DFA (each
/// free edge to a uniform state) or NFA (each possible free edge present
/// with probability 1/2).
pub fn random_member(s: u32, k: u32, kind: MachineKind, seed: u64, index: u64) -> Member {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    let free = (0..s * (k - 1))
        .map(|_| match kind {
            MachineKind::Dfa => vec![rng.gen_range(0..s)],
            MachineKind::Nfa => (0..s).filter(|_| rng.gen_bool(0.5)).collect(),
        })
        .collect();
    Member { s, k, free }
}

/// `m` as KISS2, opened by `comment` lines.
pub fn member_kiss2(m: &Member, comments: &[String]) -> String {
    let bits = ceil_lg(u64::from(m.k));
    let sym = |a: u32| -> String {
        (0..bits)
            .rev()
            .map(|b| if a >> b & 1 == 1 { '1' } else { '0' })
            .collect()
    };
    let mut rows: Vec<String> = Vec::new();
    for q in 0..m.s {
        rows.push(format!("{} s{q} s{}", sym(0), (q + 1) % m.s));
        for a in 1..m.k {
            for &j in &m.free[(q * (m.k - 1) + a - 1) as usize] {
                rows.push(format!("{} s{q} s{j}", sym(a)));
            }
        }
    }
    let mut o = String::new();
    for c in comments {
        o += &format!("# {c}\n");
    }
    o += &format!(".i {bits}\n.o 0\n.s {}\n.p {}\n.r s0\n", m.s, rows.len());
    for r in rows {
        o += &r;
        o.push('\n');
    }
    o += ".e\n";
    o
}
