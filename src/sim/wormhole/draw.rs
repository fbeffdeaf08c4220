//! The engine's random choices as pure functions of (run key, step,
//! place): a round-robin offset per switch and step, an up link per worm
//! and step. A choice does not depend on which other choices were made
//! before it, so an engine that skips blocked inputs draws exactly what
//! an engine visiting every input every step draws, and the two can be
//! compared run for run.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The run's key, drawn once from its seeded stream.
#[derive(Clone, Copy, Debug)]
pub(super) struct Draws {
    key: u64,
}

/// SplitMix64's finaliser: a bijection of 64-bit words with good
/// avalanche.
#[inline]
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A uniform index below `k` from a hash (multiply-shift on the high
/// half; the bias is below 2^-29 for `k <= 8`).
#[inline]
fn below(h: u64, k: usize) -> usize {
    (((h >> 32) * k as u64) >> 32) as usize
}

impl Draws {
    pub(super) fn new(rng: &mut ChaCha8Rng) -> Self {
        Draws { key: rng.gen() }
    }

    /// The round-robin start at `node` in step `t`, below `k`.
    #[inline]
    pub(super) fn offset(&self, t: u64, node: u32, k: usize) -> usize {
        below(mix(mix(self.key ^ t) ^ ((node as u64) << 1)), k)
    }

    /// The up link (below `k`) `worm`'s head tries in step `t`.
    #[inline]
    pub(super) fn up(&self, t: u64, worm: u32, k: usize) -> usize {
        below(mix(mix(self.key ^ t) ^ ((worm as u64) << 1 | 1)), k)
    }
}
