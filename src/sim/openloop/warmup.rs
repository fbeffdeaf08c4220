//! When the warm-up ends: after a fixed number of cycles, or once the
//! network has reached its steady state, judged by the mean latency of the
//! packets delivered in successive windows.

use serde::Serialize;

/// How the warm-up ends.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum WarmupMode {
    /// After `--warmup` cycles.
    #[default]
    Fixed,
    /// At the end of the first window of `--warmup-window` cycles whose
    /// packets' mean total latency differs from the previous window's by at
    /// most `--warmup-tolerance` of it; after `--warmup` cycles at most,
    /// the run then reported as not converged.
    Converge,
}

/// The warm-up rule of a run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Warmup {
    /// Fixed or converging.
    pub mode: WarmupMode,
    /// Cycles per window (converging).
    pub window: u64,
    /// Relative change of the windowed mean below which it has converged.
    pub tolerance: f64,
}

impl Warmup {
    /// The fixed warm-up (window and tolerance unused).
    pub const FIXED: Warmup = Warmup {
        mode: WarmupMode::Fixed,
        window: 1,
        tolerance: 0.0,
    };
}

/// How a run's warm-up ended.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum WarmupOutcome {
    /// After the fixed number of cycles.
    #[default]
    Fixed,
    /// The windowed mean latency settled.
    Converged,
    /// The windowed mean latency had not settled by `--warmup` cycles.
    NotConverged,
}

/// The end of a run's warm-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WarmupEnd {
    /// The cycle the measurement started.
    pub cycles: u64,
    /// Why it ended then.
    pub outcome: WarmupOutcome,
}

/// Watches the deliveries of a run during its warm-up.
#[derive(Clone, Debug)]
pub struct Tracker {
    rule: Warmup,
    most: u64,
    sum: u64,
    count: u64,
    previous: Option<f64>,
    end: Option<WarmupEnd>,
}

impl Tracker {
    /// A warm-up of `rule`, `most` cycles at most (all of them when fixed).
    pub fn new(rule: Warmup, most: u64) -> Tracker {
        let end = match rule.mode {
            WarmupMode::Fixed => Some(WarmupOutcome::Fixed),
            WarmupMode::Converge => (most == 0).then_some(WarmupOutcome::NotConverged),
        };
        Tracker {
            rule,
            most,
            sum: 0,
            count: 0,
            previous: None,
            end: end.map(|outcome| WarmupEnd {
                cycles: most,
                outcome,
            }),
        }
    }

    /// The first measured cycle; `u64::MAX` while warming up.
    pub fn start(&self) -> u64 {
        self.end.map_or(u64::MAX, |e| e.cycles)
    }

    /// How the warm-up ended, once it has.
    pub fn end(&self) -> Option<WarmupEnd> {
        self.end
    }

    /// A packet delivered with total latency `latency`.
    pub fn delivered(&mut self, latency: u64) {
        if self.end.is_none() {
            self.sum += latency;
            self.count += 1;
        }
    }

    /// Cycle `t` is over: close a window at its end, and end the warm-up
    /// when the window's mean is within the tolerance of the previous one
    /// (no deliveries in a window restart the comparison) or the most
    /// cycles have run.
    pub fn after(&mut self, t: u64) {
        if self.end.is_some() {
            return;
        }
        let next = t + 1;
        if next % self.rule.window == 0 {
            let mean = (self.count > 0).then(|| self.sum as f64 / self.count as f64);
            if let (Some(m), Some(p)) = (mean, self.previous) {
                if (m - p).abs() <= self.rule.tolerance * p {
                    self.end = Some(WarmupEnd {
                        cycles: next,
                        outcome: WarmupOutcome::Converged,
                    });
                    return;
                }
            }
            self.previous = mean;
            self.sum = 0;
            self.count = 0;
        }
        if next >= self.most {
            self.end = Some(WarmupEnd {
                cycles: next,
                outcome: WarmupOutcome::NotConverged,
            });
        }
    }
}
