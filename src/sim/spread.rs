//! Mean, extremes and deviation of a sample over trials.

/// Mean, smallest, largest and standard deviation of a sample.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Spread {
    /// Arithmetic mean.
    pub mean: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Population standard deviation (divided by the count, not count - 1).
    pub stddev: f64,
}

impl Spread {
    /// The figures of `values`; all 0 for an empty sample.
    pub fn of(values: &[f64]) -> Spread {
        if values.is_empty() {
            return Spread {
                mean: 0.0,
                min: 0.0,
                max: 0.0,
                stddev: 0.0,
            };
        }
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
        Spread {
            mean,
            min: values.iter().cloned().fold(f64::INFINITY, f64::min),
            max: values.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
            stddev: var.sqrt(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_figures() {
        let s = Spread::of(&[1.0, 3.0]);
        assert_eq!((s.mean, s.min, s.max, s.stddev), (2.0, 1.0, 3.0, 1.0));
    }
}
