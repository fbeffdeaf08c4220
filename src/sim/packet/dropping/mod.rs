//! Routing algorithms that drop packets: section 5 of Maggs and Sitaraman
//! (models C and A).
//!
//! # The models
//!
//! - **Model C, circuit locking** (the BBN Butterfly, [`circuit`]): every
//!   packet tries to lock a whole path at once; the packets advance level
//!   by level in lockstep, and where more than `q` of them want the same
//!   edge ([`Capacity::PerEdge`], the paper's "each edge of the butterfly
//!   can sustain up to q such paths") or enter the same node
//!   ([`Capacity::PerNode`]), the `q` of highest priority go on and the
//!   others are dropped for good. `S` counts the packets that locked a
//!   full path.
//! - **Model A, the ATOM switch** ([`atom`]): store and forward with one
//!   FIFO buffer of capacity `q` per switch; each step each switch forwards
//!   its head packet, and a buffer that would hold more than `q` drops
//!   packets ([`DropPolicy`]). `S` counts the delivered packets.
//!
//! Each model routes three problems ([`Variant`]): the back-to-back
//! butterfly (a fixed permutation `pi`, stage 1 to Ranade's constrained
//! random intermediates of [`ranade`], stage 2 from the intermediate down
//! copy 2 to the destination, the only stage that can drop), the Koch
//! random problem (one butterfly, independent uniform destinations) and
//! direct routing of a fixed `pi` on one butterfly. [`koch`] computes the
//! Koch problem's `E[S] / N` exactly for model C, the oracle the
//! simulation is tested against.
//!
//! # Theorem 5.2
//!
//! Each packet draws a rank uniform in `1 ..= r`; where packets must be
//! dropped, those of least rank go. Theorem 5.2: with `r = (log N)^(1/q)`,
//! `E[S] >= (1 - 1/q!) N / r`, i.e. `Omega(N / (log N)^(1/q))`, for any
//! fixed permutation routed back to back, and likewise for the Koch
//! problem. The proof follows a packet `p` of the top rank `r` (probability
//! `1/r`): it is dropped only if `q` other packets of rank `r` pass a node
//! of its path; a level-`l` node is passed by a given `q`-tuple with
//! probability at most `2^(-lq)` (Lemma 5.1), so the expected number of
//! such tuples on the path is at most `log N / (q! r^q)`. For any `r` this
//! gives `E[S] >= N (1 - log N / (q! r^q)) / r` ([`general_bound`]); the
//! `(1 - 1/q!) / r` form ([`theorem_bound`]) needs `r^q >= log N` and is
//! vacuous for `q = 1`, where the paper asks for "a slightly larger" `r`.
//!
//! Ranks break ties by an independent uniform 64-bit key, so the order of
//! priorities they induce is a uniformly random total order whatever `r`
//! is (but for equal rank and key, probability below `N^2 / 2^65`, which
//! falls back on the input order). Both models use priorities only
//! through that order, so the distribution of `S` does not depend on `r`
//! (in the spirit of Koch's remark that any rule ignoring destinations
//! gives the same mean). What `r` changes is the proof's count, the
//! delivered packets of rank `r` ([`LockOutcome::top_delivered`]), whose
//! mean the proof bounds below by the general form.
//!
//! # Readings where the paper is open
//!
//! (All listed in `docs/simulation.md`, "Readings where the paper is
//! open".)
//!
//! - Stage 1 flips one coin per 2x2 cell (nodes `u` and `u ^ 2^l` of
//!   level `l`), since each node holds one packet.
//! - The paper's `r = (log N)^(1/q)` is not an integer;
//!   [`RankRange::Auto`] takes `max(2, round((log N)^(1/q)))` for `q >= 2`
//!   and `max(2, 2 log N)` for `q = 1` (where `r ~ log N` makes the bound
//!   vacuous); [`RankRange::Fixed`] sets any `r >= 1`.
//! - Per-edge capacity is the default (the paper's "each edge of the
//!   butterfly can sustain up to `q` such paths"), per-node the option.
//! - Model A decides space from the start-of-step occupancy
//!   by default ([`Acceptance::Snapshot`]), with departures-first as the
//!   option; see [`atom`] for which of them the theorem's argument needs.

pub mod atom;
pub mod circuit;
pub mod koch;
pub mod ranade;
mod rank;
mod summary;
mod walk;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod stats;
#[cfg(test)]
mod tests;

pub use atom::{
    atom_back_to_back, atom_direct, atom_koch_random, atom_trials, Acceptance, AtomConfig,
    AtomOutcome, DropPolicy,
};
pub use circuit::{
    lock_back_to_back, lock_direct, lock_koch_random, lock_trials, CircuitConfig, LockOutcome,
};
pub use koch::{koch_distribution, koch_exact};
pub use ranade::ranade_intermediates;
pub(crate) use rank::Priorities;
pub use rank::{general_bound, theorem_bound, RankRange};
pub use summary::DropSummary;

use super::traffic::{PacketTraffic, TrafficError};
use rand_chacha::ChaCha8Rng;

/// The largest `lg N` the simulators accept: `2^24` packets already take
/// hundreds of megabytes per trial.
pub const MAX_N: u32 = 24;

/// The most packets model A simulates in one trial.
pub const MAX_PACKETS: u64 = 1 << 26;

/// What a capacity of `q` limits (section 5; per edge by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Capacity {
    /// At most `q` packets on any edge (the paper's "each edge of the
    /// butterfly can sustain up to q such paths").
    #[default]
    PerEdge,
    /// At most `q` packets enter any node: the wires of the equivalent
    /// network of 2x2 switches.
    PerNode,
}

/// Which routing problem a trial solves (the command-line choice; see
/// [`Problem`] for the one with its permutation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Variant {
    /// A fixed permutation through back-to-back butterflies: Ranade's
    /// stage 1 to random intermediates, then stage 2 down copy 2.
    BackToBack,
    /// One butterfly, level 0 to `n`, independent uniform destinations.
    KochRandom,
    /// A fixed permutation (or any destinations) on one butterfly.
    Direct,
}

/// A routing problem with the traffic its destinations are drawn from
/// (once per trial, from the trial's stream, before the algorithm's own
/// draws).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Problem {
    /// [`Variant::BackToBack`] for a permutation of this traffic.
    BackToBack(PacketTraffic),
    /// [`Variant::KochRandom`].
    KochRandom,
    /// [`Variant::Direct`] for the destinations of this traffic.
    Direct(PacketTraffic),
}

impl Problem {
    /// The problem's variant.
    pub fn variant(self) -> Variant {
        match self {
            Problem::BackToBack(_) => Variant::BackToBack,
            Problem::KochRandom => Variant::KochRandom,
            Problem::Direct(_) => Variant::Direct,
        }
    }
}

/// Why a dropping simulation cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DropError {
    /// A capacity of 0 drops everything.
    #[error("a capacity of q = 0 carries no packet; need q >= 1")]
    ZeroCapacity,
    /// Ranks are drawn from `1 ..= r`.
    #[error("ranks are drawn from 1 ..= r; need r >= 1")]
    ZeroRankRange,
    /// The butterfly is too large to simulate.
    #[error("lg N = {n} is beyond the largest supported, {max}")]
    TooLarge {
        /// `lg N` asked for.
        n: u32,
        /// The largest accepted.
        max: u32,
    },
    /// The exact oracle's distributions live on `0 ..= 2q`.
    #[error("the exact oracle supports q <= {max}, not {q}")]
    OracleCapacity {
        /// The capacity asked for.
        q: u32,
        /// The largest accepted.
        max: u32,
    },
    /// A permutation or destination list of the wrong length.
    #[error("{len} destinations for {rows} inputs")]
    WrongLength {
        /// Destinations given.
        len: usize,
        /// `N`.
        rows: u64,
    },
    /// A row outside `0 .. N`.
    #[error("row {row} is not in 0 .. {rows}")]
    RowOutOfRange {
        /// The row given (a source or a destination).
        row: u64,
        /// `N`.
        rows: u64,
    },
    /// The back-to-back scheme routes a permutation.
    #[error(
        "output {destination} is the destination of two inputs; back to back routes a permutation"
    )]
    NotAPermutation {
        /// An output named twice.
        destination: u64,
    },
    /// Back to back routes a permutation; this traffic does not make one.
    #[error("back to back routes a permutation; {0:?} traffic is not one")]
    NeedsPermutation(PacketTraffic),
    /// Stage 1 holds one packet per input.
    #[error("back to back routes one packet per input, not {k}")]
    OnePerInput {
        /// Packets per input asked for.
        k: u32,
    },
    /// Too many packets to simulate.
    #[error("{packets} packets are beyond the largest supported, {max}")]
    TooManyPackets {
        /// Packets asked for.
        packets: u64,
        /// The largest accepted.
        max: u64,
    },
    /// The traffic could not be made.
    #[error(transparent)]
    Traffic(#[from] TrafficError),
}

/// Refuses `q = 0` and butterflies beyond [`MAX_N`].
fn check_size(n: u32, q: u32) -> Result<(), DropError> {
    if q == 0 {
        return Err(DropError::ZeroCapacity);
    }
    if n > MAX_N {
        return Err(DropError::TooLarge { n, max: MAX_N });
    }
    Ok(())
}

/// Checks that `destinations` has one entry per input, each an output.
fn check_destinations(n: u32, destinations: &[u64]) -> Result<(), DropError> {
    let rows = 1u64 << n;
    if destinations.len() as u64 != rows {
        return Err(DropError::WrongLength {
            len: destinations.len(),
            rows,
        });
    }
    match destinations.iter().find(|&&d| d >= rows) {
        Some(&row) => Err(DropError::RowOutOfRange { row, rows }),
        None => Ok(()),
    }
}

/// Checks that `pi` is a permutation of the `2^n` rows.
fn check_permutation(n: u32, pi: &[u64]) -> Result<(), DropError> {
    check_destinations(n, pi)?;
    let mut seen = vec![false; pi.len()];
    for &d in pi {
        if std::mem::replace(&mut seen[d as usize], true) {
            return Err(DropError::NotAPermutation { destination: d });
        }
    }
    Ok(())
}

/// Refuses a traffic that does not make permutations.
pub(crate) fn require_permutation(traffic: PacketTraffic) -> Result<(), DropError> {
    if traffic.is_permutation() {
        Ok(())
    } else {
        Err(DropError::NeedsPermutation(traffic))
    }
}

/// The destination of each input's single packet under `traffic`.
fn draw_destinations(
    traffic: PacketTraffic,
    n: u32,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<u64>, DropError> {
    Ok(traffic
        .packets(n, 1, rng)?
        .into_iter()
        .map(|p| p.destination)
        .collect())
}
