//! Worm lengths (Greenberg and Oh, section III-A.2): a law to draw each
//! worm's flits from, its mean, standard deviation and maximum, and the
//! spread test `sigma <= eps * mean` with `eps < 1`.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::error::AlgorithmAError;

/// The longest worm the engine carries, in flits.
pub const MAX_FLITS: u32 = u16::MAX as u32;

/// How many flits each worm has.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LengthLaw {
    /// Every worm `L` flits.
    Constant(u32),
    /// Uniform on `lo ..= hi` flits.
    Uniform {
        /// Shortest.
        lo: u32,
        /// Longest.
        hi: u32,
    },
    /// A geometric law on `1, 2, ...` with the given mean (success
    /// probability `1 / mean`), conditioned on at most `max` flits; the
    /// conditioned law's mean is below `mean`.
    TruncatedGeometric {
        /// Mean of the untruncated law, at least 1.
        mean: f64,
        /// Longest.
        max: u32,
    },
}

/// Mean, standard deviation and maximum of a set of lengths or of a law.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LengthStats {
    /// Mean, in flits.
    pub mean: f64,
    /// Standard deviation (of the population), in flits.
    pub std_dev: f64,
    /// Longest, in flits.
    pub max: u32,
}

impl LengthStats {
    /// The figures of `lens` (all zero when empty).
    pub fn of_sample(lens: &[u32]) -> LengthStats {
        if lens.is_empty() {
            return LengthStats {
                mean: 0.0,
                std_dev: 0.0,
                max: 0,
            };
        }
        let n = lens.len() as f64;
        let mean = lens.iter().map(|&l| l as f64).sum::<f64>() / n;
        let var = lens.iter().map(|&l| (l as f64 - mean).powi(2)).sum::<f64>() / n;
        LengthStats {
            mean,
            std_dev: var.sqrt(),
            max: lens.iter().copied().max().unwrap_or(0),
        }
    }

    /// `sigma / mean` (0 for an empty set).
    pub fn spread(&self) -> f64 {
        if self.mean > 0.0 {
            self.std_dev / self.mean
        } else {
            0.0
        }
    }
}

/// Weights of lengths `1 ..= max` under a geometric law of mean `mean`.
fn geometric_weights(mean: f64, max: u32) -> impl Iterator<Item = (u32, f64)> {
    let q = 1.0 - 1.0 / mean;
    let mut w = 1.0;
    (1..=max).map(move |j| {
        let here = w;
        w *= q;
        (j, here)
    })
}

impl LengthLaw {
    /// Refuses a law with no lengths, lengths of 0 flits, or lengths the
    /// engine cannot carry.
    pub fn validate(&self) -> Result<(), AlgorithmAError> {
        let (lo, hi) = match *self {
            LengthLaw::Constant(l) => (l, l),
            LengthLaw::Uniform { lo, hi } if lo > hi => {
                return Err(AlgorithmAError::EmptyRange { lo, hi })
            }
            LengthLaw::Uniform { lo, hi } => (lo, hi),
            LengthLaw::TruncatedGeometric { mean, .. } if !(mean.is_finite() && mean >= 1.0) => {
                return Err(AlgorithmAError::GeometricMean { mean })
            }
            LengthLaw::TruncatedGeometric { max, .. } => (1.min(max), max),
        };
        if lo == 0 {
            return Err(AlgorithmAError::ZeroLength);
        }
        if hi > MAX_FLITS {
            return Err(AlgorithmAError::TooLong {
                len: hi,
                max: MAX_FLITS,
            });
        }
        Ok(())
    }

    /// The law's own mean, standard deviation and maximum, once it is
    /// valid.
    pub fn stats(&self) -> Result<LengthStats, AlgorithmAError> {
        self.validate()?;
        Ok(match *self {
            LengthLaw::Constant(l) => LengthStats {
                mean: l as f64,
                std_dev: 0.0,
                max: l,
            },
            LengthLaw::Uniform { lo, hi } => {
                let span = (hi - lo) as f64 + 1.0;
                LengthStats {
                    mean: (lo as f64 + hi as f64) / 2.0,
                    std_dev: ((span * span - 1.0) / 12.0).sqrt(),
                    max: hi,
                }
            }
            LengthLaw::TruncatedGeometric { mean, max } => {
                let (mut s0, mut s1, mut s2) = (0.0, 0.0, 0.0);
                for (j, w) in geometric_weights(mean, max) {
                    let j = j as f64;
                    s0 += w;
                    s1 += w * j;
                    s2 += w * j * j;
                }
                let m = s1 / s0;
                LengthStats {
                    mean: m,
                    std_dev: (s2 / s0 - m * m).max(0.0).sqrt(),
                    max,
                }
            }
        })
    }

    /// The law's figures, once its standard deviation is at most `eps`
    /// times its mean, with `eps` in `0 .. 1`.
    pub fn check_spread(&self, eps: f64) -> Result<LengthStats, AlgorithmAError> {
        if !(0.0..1.0).contains(&eps) {
            return Err(AlgorithmAError::SpreadBound { eps });
        }
        let s = self.stats()?;
        if s.std_dev > eps * s.mean {
            return Err(AlgorithmAError::Spread {
                sigma: s.std_dev,
                mean: s.mean,
                eps,
            });
        }
        Ok(s)
    }

    /// A sampler of the law, once it is valid.
    pub fn sampler(&self) -> Result<LengthSampler, AlgorithmAError> {
        self.validate()?;
        let cumulative = match *self {
            LengthLaw::TruncatedGeometric { mean, max } => geometric_weights(mean, max)
                .scan(0.0, |acc, (_, w)| {
                    *acc += w;
                    Some(*acc)
                })
                .collect(),
            _ => Vec::new(),
        };
        Ok(LengthSampler {
            law: *self,
            cumulative,
        })
    }
}

/// Draws lengths from a valid [`LengthLaw`].
#[derive(Clone, Debug)]
pub struct LengthSampler {
    law: LengthLaw,
    /// Truncated geometric: the running sums of the weights of `1 ..= max`.
    cumulative: Vec<f64>,
}

impl LengthSampler {
    /// One length; a constant law draws nothing from `rng`, the others one
    /// number each.
    pub fn draw(&self, rng: &mut ChaCha8Rng) -> u32 {
        match self.law {
            LengthLaw::Constant(l) => l,
            LengthLaw::Uniform { lo, hi } => rng.gen_range(lo..=hi),
            LengthLaw::TruncatedGeometric { .. } => {
                let total = self.cumulative.last().copied().unwrap_or(0.0);
                let u = rng.gen::<f64>() * total;
                let i = self.cumulative.partition_point(|&c| c <= u);
                i.min(self.cumulative.len() - 1) as u32 + 1
            }
        }
    }
}
