//! The lower bound of section 3 (Theorem 3.1): for a deterministic
//! nonpredictive protocol with threshold queues (model T), a permutation
//! that needs `Omega(N / (q log N))` steps, built while the protocol runs.
//!
//! Construction (section 3's, with `r` the power of 2 that maximises the
//! bound rather than the paper's `2 (q + 2)(n + 1)`):
//! 1. `rho` maximises `LB = 2^d (2^rho - (q + 2)(d + 1))` with
//!    `d = n - 2 rho`, `1 <= rho <= n / 2`; `r = 2^rho`.
//! 2. The *busy sub-butterfly* spans levels `rho ..= n - rho` on the rows
//!    whose low `rho` bits and high `rho` bits are 0 (`alpha = beta = 0`).
//! 3. The busy packets start at the `N / r` inputs whose high `rho` bits
//!    are 0; their low `rho` destination bits are 0, so each busy input
//!    tree of `r` sources drains through one input of the sub-butterfly.
//!    Their other destination bits are left open.
//! 4. The other packets go, in increasing order of source, to the outputs
//!    whose low `rho` bits are not all 0, in increasing order: they never
//!    meet a busy switch.
//! 5. The protocol runs with a lazy-destination oracle: when a switch on
//!    level `l >= rho` first picks a busy packet, the oracle fixes bit `l`
//!    of its destination. A nonpredictive switch cannot have looked at it
//!    before. In the sub-butterfly (local level `j = l - rho`,
//!    `r_j = r - j (q + 2)`, `h = max(0, (r_j - (q + 2)) / 2)`) the
//!    paper's rule sends the `i`-th pick to 0 for `i <= h`, to 1 for
//!    `i <= 2h`, then to 0 while fewer than `r / 2` went to 0; the half
//!    rule sends the first `r / 2` to 0. In the output trees (`M =
//!    r >> (l - (n - rho))` packets per switch) the first `M / 2` go to 0.
//!
//! Every busy switch then sees exactly `r` packets and every output one:
//! the destinations form a permutation (asserted). Replaying the protocol
//! on that fixed permutation without the oracle must give the same trace,
//! which checks that the protocol is deterministic and nonpredictive.
//!
//! The paper assumes `q` even ("WLOG r, q even"). `LB` here uses `q` as
//! given, as the regression table of E3 does; for odd `q` the bound the
//! proof supports is `LB` with `q + 1`, which is smaller
//! ([`Adversary::sound_bound`]).

use super::engine::{run_traced, run_with, Config, EngineError, Oracle, Protocol, QueueModel, Run};
use super::traffic::Packet;
use rand_chacha::ChaCha8Rng;

/// How the oracle splits a sub-butterfly switch's packets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum SplitRule {
    /// The paper's: `h` to 0, `h` to 1, then 0 until half went to 0.
    Paper,
    /// The first half to 0, the rest to 1.
    Half,
}

/// Why no adversary can be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AdversaryError {
    /// No `rho` gives a positive bound.
    #[error(
        "lg N = {n} is too small for the section-3 adversary with q = {q}: no rho gives LB > 0"
    )]
    TooSmall {
        /// `lg N`.
        n: u32,
        /// The threshold.
        q: u32,
    },
    /// The oracle needs a switch to pick without seeing destinations.
    #[error("the adversary needs a nonpredictive protocol, not {protocol}")]
    Predictive {
        /// The protocol given.
        protocol: &'static str,
    },
    /// The engine refused or deadlocked.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// The parameters of the construction for `(n, q)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Adversary {
    /// `lg N`.
    pub n: u32,
    /// The threshold.
    pub q: u32,
    /// `lg r`.
    pub rho: u32,
    /// The depth `n - 2 rho` of the busy sub-butterfly.
    pub d: u32,
    /// `2^d (2^rho - (q + 2)(d + 1))`.
    pub bound: u64,
}

fn bound(n: u32, q: u32, rho: u32) -> i128 {
    let d = n - 2 * rho;
    (1i128 << d) * ((1i128 << rho) - (q as i128 + 2) * (d as i128 + 1))
}

impl Adversary {
    /// The `rho` maximising the bound (the smallest on ties).
    pub fn new(n: u32, q: u32) -> Result<Self, AdversaryError> {
        let best = (1..=n / 2)
            .map(|rho| (bound(n, q, rho), rho))
            .filter(|&(b, _)| b > 0)
            .max_by_key(|&(b, rho)| (b, std::cmp::Reverse(rho)));
        let (b, rho) = best.ok_or(AdversaryError::TooSmall { n, q })?;
        Ok(Adversary {
            n,
            q,
            rho,
            d: n - 2 * rho,
            bound: b as u64,
        })
    }

    /// The bound the proof supports for odd `q` (computed with `q + 1`, at
    /// the same `rho`); `bound` for even `q`.
    pub fn sound_bound(&self) -> u64 {
        if self.q % 2 == 0 {
            self.bound
        } else {
            bound(self.n, self.q + 1, self.rho).max(0) as u64
        }
    }

    /// The packets, one per input in input order, with the busy packets'
    /// open destination bits 0, and a flag per packet: busy or not.
    pub fn packets(&self) -> (Vec<Packet>, Vec<bool>) {
        let n = self.n;
        let rows = 1u64 << n;
        let low = (1u64 << self.rho) - 1;
        let busy_inputs = 1u64 << (n - self.rho);
        let mut free_outputs = (0..rows).filter(|d| d & low != 0);
        let mut busy = Vec::with_capacity(rows as usize);
        let packets = (0..rows)
            .map(|a| {
                let is_busy = a < busy_inputs;
                busy.push(is_busy);
                let destination = if is_busy {
                    0
                } else {
                    free_outputs.next().unwrap_or_else(|| {
                        unreachable!("as many non-busy inputs as outputs off alpha")
                    })
                };
                Packet {
                    source: a,
                    destination,
                }
            })
            .collect();
        (packets, busy)
    }
}

/// The lazy-destination oracle.
struct Lazy<'a> {
    adv: Adversary,
    rule: SplitRule,
    busy: &'a [bool],
    /// Per busy switch (level, row >> rho): picks so far and 0s given.
    picks: Vec<u32>,
    zeros: Vec<u32>,
}

impl Oracle for Lazy<'_> {
    fn on_select(&mut self, level: u32, row: u64, packet: u32, dest: &mut [u64]) {
        let (n, rho, q) = (self.adv.n, self.adv.rho, self.adv.q as i64);
        if level < rho || level >= n || !self.busy[packet as usize] {
            return;
        }
        let r = 1i64 << rho;
        let slot = ((level - rho) as usize) << (n - rho) | (row >> rho) as usize;
        self.picks[slot] += 1;
        let i = self.picks[slot] as i64;
        let zero = if level < n - rho {
            match self.rule {
                SplitRule::Paper => {
                    let rj = r - (level - rho) as i64 * (q + 2);
                    let h = ((rj - (q + 2)) / 2).max(0);
                    if i <= h {
                        true
                    } else if i <= 2 * h {
                        false
                    } else {
                        (self.zeros[slot] as i64) < r / 2
                    }
                }
                SplitRule::Half => i <= r / 2,
            }
        } else {
            let m = r >> (level - (n - rho));
            i <= m / 2
        };
        if zero {
            self.zeros[slot] += 1;
        } else {
            dest[packet as usize] |= 1 << level;
        }
    }
}

/// The adversary's run and its replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdversaryRun {
    /// The construction's parameters.
    pub adversary: Adversary,
    /// The permutation built: `permutation[a]` is input `a`'s output.
    pub permutation: Vec<u64>,
    /// The run under the oracle.
    pub run: Run,
    /// Whether the replay on the fixed permutation gave the same trace.
    pub replay: Replay,
}

/// The replay's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Replay {
    /// Same arrivals and same trace digest.
    Identical,
    /// The protocol behaved differently once destinations were fixed.
    Differs,
}

/// Builds the adversarial permutation for `protocol` under model T with
/// threshold `q`, and replays it.
pub fn build(
    n: u32,
    q: u32,
    protocol: Protocol,
    rule: SplitRule,
    seed_rng: &ChaCha8Rng,
) -> Result<AdversaryRun, AdversaryError> {
    if protocol.kind() != super::engine::protocol::Kind::Nonpredictive {
        return Err(AdversaryError::Predictive {
            protocol: protocol.name(),
        });
    }
    let adversary = Adversary::new(n, q)?;
    let (packets, busy) = adversary.packets();
    let config = Config {
        model: QueueModel::Threshold,
        protocol,
        q,
    };
    let slots = (n - adversary.rho) as usize * (1usize << (n - adversary.rho));
    let mut oracle = Lazy {
        adv: adversary,
        rule,
        busy: &busy,
        picks: vec![0; slots],
        zeros: vec![0; slots],
    };
    let first = run_with(n, &packets, config, &mut seed_rng.clone(), &mut oracle)?;
    let permutation = first.destination.clone();
    let mut seen = vec![false; permutation.len()];
    for &d in &permutation {
        assert!(
            !seen[d as usize],
            "the adversary sent two packets to output {d}"
        );
        seen[d as usize] = true;
    }
    let fixed: Vec<Packet> = packets
        .iter()
        .zip(&permutation)
        .map(|(p, &d)| Packet {
            source: p.source,
            destination: d,
        })
        .collect();
    let again = run_traced(n, &fixed, config, &mut seed_rng.clone())?;
    let replay = if again == first {
        Replay::Identical
    } else {
        Replay::Differs
    };
    Ok(AdversaryRun {
        adversary,
        permutation,
        run: first,
        replay,
    })
}

#[cfg(test)]
mod tests;
