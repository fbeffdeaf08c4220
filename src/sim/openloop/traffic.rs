//! Destination patterns of open-loop traffic over `n` terminals. Bit
//! patterns act on the `b = lg n` bits of a terminal's number (`n` a power
//! of 2); grid patterns on its coordinates `(x, y)`, `t = x + s y`, in the
//! `s x s` square of terminals (`n` a square).

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::OpenLoopError;

/// A traffic pattern.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// Every terminal (itself included) equally likely, each packet anew.
    Uniform,
    /// A random permutation, fixed for the run by the seed.
    Permutation,
    /// The bits reversed.
    BitReversal,
    /// `(x, y)` to `(y, x)`.
    Transpose,
    /// Every bit complemented: `t` to `n - 1 - t`.
    BitComplement,
    /// The bits rotated left by one (the perfect shuffle).
    Shuffle,
    /// `(x, y)` to `(x + ceil(s/2) - 1, y + ceil(s/2) - 1)` mod `s`.
    Tornado,
    /// `(x, y)` to `(x + 1, y + 1)` mod `s`.
    Neighbour,
    /// Terminal 0 with probability 1/8, else uniform.
    HotSpot,
}

/// The share of hot-spot packets bound for the hot terminal.
pub const HOT_FRACTION: f64 = 0.125;

impl Pattern {
    /// Every pattern.
    pub const ALL: [Pattern; 9] = [
        Pattern::Uniform,
        Pattern::Permutation,
        Pattern::BitReversal,
        Pattern::Transpose,
        Pattern::BitComplement,
        Pattern::Shuffle,
        Pattern::Tornado,
        Pattern::Neighbour,
        Pattern::HotSpot,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Pattern::Uniform => "uniform",
            Pattern::Permutation => "permutation",
            Pattern::BitReversal => "bit-reversal",
            Pattern::Transpose => "transpose",
            Pattern::BitComplement => "bit-complement",
            Pattern::Shuffle => "shuffle",
            Pattern::Tornado => "tornado",
            Pattern::Neighbour => "neighbour",
            Pattern::HotSpot => "hot-spot",
        }
    }
}

/// A pattern ready to draw destinations over `n` terminals.
#[derive(Clone, Debug)]
pub struct Destinations {
    pattern: Pattern,
    n: u32,
    /// The fixed destination of each source (deterministic patterns).
    fixed: Vec<u32>,
}

impl Destinations {
    /// The pattern over `n` terminals; the permutation drawn from `seed`.
    pub fn new(pattern: Pattern, n: u32, seed: u64) -> Result<Destinations, OpenLoopError> {
        let bits = n.trailing_zeros();
        let need_pow2 = || {
            if n.is_power_of_two() && n >= 2 {
                Ok(())
            } else {
                Err(OpenLoopError::Pattern {
                    pattern: pattern.name(),
                    need: "a power of 2 terminals",
                    terminals: n,
                })
            }
        };
        let s = (n as f64).sqrt().round() as u32;
        let need_square = || {
            if s * s == n && s >= 2 {
                Ok(())
            } else {
                Err(OpenLoopError::Pattern {
                    pattern: pattern.name(),
                    need: "a square number of terminals",
                    terminals: n,
                })
            }
        };
        let grid = |f: &dyn Fn(u32) -> u32| -> Vec<u32> {
            (0..n).map(|t| f(t % s) + s * f(t / s)).collect()
        };
        let fixed: Vec<u32> = match pattern {
            Pattern::Uniform | Pattern::HotSpot => Vec::new(),
            Pattern::Permutation => {
                let mut p: Vec<u32> = (0..n).collect();
                p.shuffle(&mut ChaCha8Rng::seed_from_u64(seed ^ 0x7065_726d));
                p
            }
            Pattern::BitReversal => {
                need_pow2()?;
                (0..n).map(|t| t.reverse_bits() >> (32 - bits)).collect()
            }
            Pattern::Shuffle => {
                need_pow2()?;
                (0..n)
                    .map(|t| ((t << 1) | (t >> (bits - 1))) & (n - 1))
                    .collect()
            }
            Pattern::BitComplement => (0..n).map(|t| n - 1 - t).collect(),
            Pattern::Transpose => {
                need_square()?;
                (0..n).map(|t| t / s + s * (t % s)).collect()
            }
            Pattern::Tornado => {
                need_square()?;
                grid(&|x| (x + s.div_ceil(2) - 1) % s)
            }
            Pattern::Neighbour => {
                need_square()?;
                grid(&|x| (x + 1) % s)
            }
        };
        Ok(Destinations { pattern, n, fixed })
    }

    /// A destination for a packet from `src`.
    pub fn draw(&self, src: u32, rng: &mut ChaCha8Rng) -> u32 {
        match self.pattern {
            Pattern::Uniform => rng.gen_range(0..self.n),
            Pattern::HotSpot => {
                if rng.gen_bool(HOT_FRACTION) {
                    0
                } else {
                    rng.gen_range(0..self.n)
                }
            }
            _ => self.fixed[src as usize],
        }
    }

    /// Each destination's probability for a packet from `src`, as
    /// `(destination, probability)` pairs.
    pub fn distribution(&self, src: u32) -> Vec<(u32, f64)> {
        let n = self.n;
        match self.pattern {
            Pattern::Uniform => (0..n).map(|d| (d, 1.0 / n as f64)).collect(),
            Pattern::HotSpot => (0..n)
                .map(|d| {
                    let hot = if d == 0 { HOT_FRACTION } else { 0.0 };
                    (d, hot + (1.0 - HOT_FRACTION) / n as f64)
                })
                .collect(),
            _ => vec![(self.fixed[src as usize], 1.0)],
        }
    }
}
