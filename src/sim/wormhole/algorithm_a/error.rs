//! Why Algorithm A refuses its parameters or could not deliver.

use crate::sim::wormhole::WormError;

/// Why [`run_algorithm_a`](super::run_algorithm_a) (or one of its parts)
/// refused its input or could not deliver every worm.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AlgorithmAError {
    /// The phase factor `k` must be a finite number above 0.
    #[error("the phase factor k = {k} must be finite and above 0")]
    PhaseFactor {
        /// The factor given.
        k: f64,
    },
    /// Worms have at least one flit.
    #[error("a worm of 0 flits cannot carry a head")]
    ZeroLength,
    /// The engine carries worms of at most 65,535 flits.
    #[error("worms of up to {len} flits: the engine takes at most {max}")]
    TooLong {
        /// The longest length the law allows.
        len: u32,
        /// The engine's limit.
        max: u32,
    },
    /// A uniform law needs `lo <= hi`.
    #[error("uniform lengths {lo} ..= {hi}: lo exceeds hi")]
    EmptyRange {
        /// Lower end.
        lo: u32,
        /// Upper end.
        hi: u32,
    },
    /// A geometric law's mean is finite and at least 1 flit.
    #[error("geometric mean {mean} must be finite and at least 1")]
    GeometricMean {
        /// The mean given.
        mean: f64,
    },
    /// The spread bound `eps` lies in `0 .. 1`.
    #[error("the spread bound eps = {eps} must lie in 0 .. 1")]
    SpreadBound {
        /// The bound given.
        eps: f64,
    },
    /// The length law spreads wider than `eps` times its mean.
    #[error("length deviation {sigma:.3} exceeds eps {eps} times the mean {mean:.3}")]
    Spread {
        /// The law's standard deviation.
        sigma: f64,
        /// The law's mean.
        mean: f64,
        /// The bound.
        eps: f64,
    },
    /// A message's ends are not processors of the network.
    #[error("message {message} runs from {src} to {dst}, outside the {processors} processors")]
    Outside {
        /// The message's index.
        message: usize,
        /// Its source.
        src: u32,
        /// Its destination.
        dst: u32,
        /// Processors of the network.
        processors: u32,
    },
    /// A path end is not a processor of the network.
    #[error("node {node} is not one of the {processors} processors")]
    NotProcessor {
        /// The node.
        node: u32,
        /// Processors of the network.
        processors: u32,
    },
    /// `ceil(k c eta)` is too large to count phases exactly.
    #[error("k c eta = {phases} phases: too many to count")]
    TooManyPhases {
        /// `k c eta`.
        phases: f64,
    },
    /// The schedule does not fit in 64-bit steps.
    #[error("{phases} phases of {period} steps overflow the step counter")]
    Overflow {
        /// Phases of the pass.
        phases: u64,
        /// Steps per phase.
        period: u64,
    },
    /// Doubling needs at least one pass.
    #[error("the doubling scheme needs at least one pass")]
    NoPasses,
    /// The doubling scheme ran out of passes with worms undelivered.
    #[error("{remaining} worms undelivered after {passes} passes")]
    Undelivered {
        /// Passes run.
        passes: u32,
        /// Worms still undelivered.
        remaining: u32,
    },
    /// The engine took another path than the one fixed at the source.
    #[error("worm {worm} left its precomputed path")]
    PathMismatch {
        /// The message's index.
        worm: usize,
    },
    /// The engine refused or failed a run.
    #[error(transparent)]
    Engine(#[from] WormError),
}
