//! The figures of a set of dropping trials beside Theorem 5.2's bounds.

use super::{general_bound, theorem_bound, AtomOutcome, LockOutcome};
use crate::sim::Spread;

/// Means over trials of `S` and what section 5 compares it with.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct DropSummary {
    /// `lg N`.
    pub n: u32,
    /// `N`, the rows.
    pub rows: u64,
    /// Packets routed per trial (`N` times the packets per input).
    pub packets: u64,
    /// The capacity `q`.
    pub q: u32,
    /// The rank range `r`.
    pub r: u32,
    /// Trials summarised.
    pub trials: usize,
    /// `S` over the trials.
    pub delivered: Spread,
    /// `E[S]` over the packets: the sample mean of `S / packets`.
    pub fraction: f64,
    /// The standard error of `fraction` (sample deviation over the root
    /// of the trials; 0 with fewer than two trials).
    pub stderr: f64,
    /// The mean of `S (log N)^(1/q) / N`, which Theorem 5.2 bounds away
    /// from 0.
    pub scaled: f64,
    /// The mean fraction of packets delivered with the top rank `r`.
    pub top_fraction: f64,
    /// `(1 - 1/q!) / r`, the theorem's bound as stated.
    pub bound: f64,
    /// `(1 - log N / (q! r^q)) / r`, the proof's bound for this `r`.
    pub general_bound: f64,
}

impl DropSummary {
    /// The summary of trials on `B(n)` with capacity `q`, ranks in
    /// `1 ..= r`, `packets` per trial, and per trial `delivered[i]`
    /// packets delivered of which `top[i]` had rank `r`.
    pub fn new(n: u32, q: u32, r: u32, packets: u64, delivered: &[u64], top: &[u64]) -> Self {
        debug_assert_eq!(delivered.len(), top.len());
        let trials = delivered.len();
        let s: Vec<f64> = delivered.iter().map(|&d| d as f64).collect();
        let spread = Spread::of(&s);
        let per = packets.max(1) as f64;
        let fraction = spread.mean / per;
        let stderr = if trials >= 2 {
            let t = trials as f64;
            spread.stddev * (t / (t - 1.0)).sqrt() / t.sqrt() / per
        } else {
            0.0
        };
        let rows = 1u64 << n;
        let top_mean = top.iter().map(|&d| d as f64).sum::<f64>() / trials.max(1) as f64;
        DropSummary {
            n,
            rows,
            packets,
            q,
            r,
            trials,
            delivered: spread,
            fraction,
            stderr,
            scaled: spread.mean * (n as f64).powf(1.0 / q as f64) / rows as f64,
            top_fraction: top_mean / per,
            bound: theorem_bound(q, r),
            general_bound: general_bound(n, q, r),
        }
    }

    /// The summary of locking trials on `B(n)` with capacity `q`; `None`
    /// for no trials.
    pub fn of_locks(n: u32, q: u32, outcomes: &[LockOutcome]) -> Option<Self> {
        let first = outcomes.first()?;
        let s: Vec<u64> = outcomes.iter().map(|o| o.delivered).collect();
        let top: Vec<u64> = outcomes.iter().map(|o| o.top_delivered).collect();
        Some(Self::new(n, q, first.r, first.rows, &s, &top))
    }

    /// The summary of model-A trials on `B(n)` with capacity `q`; `None`
    /// for no trials.
    pub fn of_atoms(n: u32, q: u32, outcomes: &[AtomOutcome]) -> Option<Self> {
        let first = outcomes.first()?;
        let s: Vec<u64> = outcomes.iter().map(|o| o.delivered).collect();
        let top: Vec<u64> = outcomes.iter().map(|o| o.top_delivered).collect();
        Some(Self::new(n, q, first.r, first.packets, &s, &top))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-computed figures for three trials of N = 16.
    #[test]
    fn figures_by_hand() {
        let s = DropSummary::new(4, 2, 2, 16, &[8, 10, 12], &[4, 5, 6]);
        assert_eq!(s.fraction, 10.0 / 16.0);
        // Sample deviation of 8, 10, 12 is 2; over sqrt(3), over 16.
        assert!((s.stderr - 2.0 / 3f64.sqrt() / 16.0).abs() < 1e-15);
        // (log N)^(1/2) = 2.
        assert!((s.scaled - 10.0 * 2.0 / 16.0).abs() < 1e-15);
        assert_eq!(s.top_fraction, 5.0 / 16.0);
        assert_eq!(s.bound, 0.25);
        assert_eq!(s.general_bound, (1.0 - 4.0 / 8.0) / 2.0);
        let locks: Vec<LockOutcome> = [(8, 4), (10, 5), (12, 6)]
            .map(|(delivered, top_delivered)| LockOutcome {
                rows: 16,
                r: 2,
                delivered,
                top_delivered,
            })
            .to_vec();
        assert_eq!(DropSummary::of_locks(4, 2, &locks), Some(s));
        assert_eq!(DropSummary::of_locks(4, 2, &[]), None);
    }
}
