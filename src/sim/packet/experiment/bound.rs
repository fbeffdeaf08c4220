//! The paper's bound for each kind of cell, printed beside the measurement.

use super::{Cell, Experiment, ExperimentError, Model, Routing, Workload};
use crate::sim::packet::adversary::Adversary;
use crate::sim::packet::dropping::DropSummary;

/// What the paper proves for a cell.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Bound {
    /// Theorems 2.1 and 2.5 (greedy, model G): every packet arrives by
    /// D(p), the load of its full delay tree; with random destinations
    /// T <= gamma lg N with high probability (gamma not numeric: the
    /// measured T / lg N is the constant).
    Greedy,
    /// Theorem 2.6: two-phase routing of any permutation in O(lg N);
    /// T >= 2 lg N always (two legs of lg N edges).
    TwoPhase,
    /// Theorem 3.1: the adversary's permutation needs at least LB steps.
    Adversary {
        /// The construction.
        adversary: Adversary,
    },
    /// Theorem 4.3: the wave algorithm routes k packets per input in
    /// O(k + lg N) steps with high probability (constant not numeric: the
    /// measured T / (k + lg N) is it); T >= lg N + 2k - 2 always (one
    /// event per switch per step, a token between successive packets).
    Waves {
        /// `k + lg N`.
        k_plus_lg: u64,
    },
    /// Theorem 5.2: `E[S] >= (1 - 1/q!) N / r` for locking with ranks in
    /// 1 ..= r; the proof gives (1 - lg N / (q! r^q)) / r for any r. For
    /// Koch's random problem under model C, the exact `E[S] / N`.
    Locking {
        /// The trials' summary with both bounds.
        summary: DropSummary,
        /// The exact `E[S] / N` (Koch's problem, model C).
        exact: Option<f64>,
    },
    /// Any run without a theorem of its own (model T on ordinary traffic):
    /// T >= lg N, the length of a path.
    PathLength,
}

/// Whether a cell's measurement respects its bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every trial respects the bound.
    Holds,
    /// Some trial does not.
    Violated,
    /// The bound is asymptotic; the figure is reported, not judged.
    Reported,
}

impl Bound {
    /// The bound for a cell of `e` at `(n, q)`.
    pub fn of(e: &Experiment, n: u32, q: u32) -> Result<Bound, ExperimentError> {
        Ok(match (e.model, e.workload, e.routing) {
            (Model::C | Model::A, _, _) => {
                return Err(ExperimentError::Combination(
                    "the dropping models' bound comes with their trials",
                ))
            }
            (Model::W, _, _) => Bound::Waves {
                k_plus_lg: e.k as u64 + n as u64,
            },
            (_, Workload::Adversary, _) => Bound::Adversary {
                adversary: Adversary::new(n, q)?,
            },
            (_, _, Routing::TwoPhase | Routing::TwoPhasePipelined) => Bound::TwoPhase,
            (Model::G, _, Routing::Direct) => Bound::Greedy,
            (Model::T, _, Routing::Direct) => Bound::PathLength,
        })
    }

    /// The bound as a number of steps, where the theorem gives one.
    pub fn steps(&self, n: u32) -> Option<u64> {
        match self {
            Bound::Adversary { adversary } => Some(adversary.bound),
            Bound::PathLength | Bound::Greedy => Some(n as u64),
            Bound::TwoPhase => Some(2 * n as u64),
            Bound::Waves { k_plus_lg } => {
                Some((k_plus_lg + k_plus_lg).saturating_sub(n as u64 + 2))
            }
            Bound::Locking { .. } => None,
        }
    }

    /// Judges `cell`: lower bounds must be met by every trial; Theorem
    /// 2.1 by every packet (its ratio at most 1 where it was checked).
    pub fn verdict(&self, cell: &Cell) -> Verdict {
        if let Bound::Locking { summary, exact } = self {
            // Three standard errors of slack, and a floor for few trials.
            let slack = 3.0 * summary.stderr + 1e-9;
            let below = summary.fraction + slack < summary.general_bound;
            let off = exact.is_some_and(|x| (summary.fraction - x).abs() > slack.max(1e-3));
            return if below || off {
                Verdict::Violated
            } else {
                Verdict::Holds
            };
        }
        let lower = self.steps(cell.n).unwrap_or(0);
        let under = cell.trials.iter().any(|t| t.steps < lower);
        let tree = cell
            .trials
            .iter()
            .any(|t| t.delay_tree_ratio.is_some_and(|r| r > 1.0));
        if under || tree {
            Verdict::Violated
        } else {
            match self {
                Bound::Adversary { .. } | Bound::PathLength | Bound::Locking { .. } => {
                    Verdict::Holds
                }
                Bound::Greedy if cell.trials.iter().all(|t| t.delay_tree_ratio.is_some()) => {
                    Verdict::Holds
                }
                Bound::Greedy | Bound::TwoPhase | Bound::Waves { .. } => Verdict::Reported,
            }
        }
    }

    /// The statement, for tables and reports.
    pub fn statement(&self) -> String {
        match self {
            Bound::Greedy => "Thm 2.1: arrival <= D(p); Thm 2.5: T <= gamma lg N w.h.p.".into(),
            Bound::TwoPhase => {
                "Thm 2.6: T = O(lg N) w.h.p. for any permutation; T >= 2 lg N".into()
            }
            Bound::Adversary { adversary } => format!(
                "Thm 3.1: T >= LB = {} (rho {}, d {})",
                adversary.bound, adversary.rho, adversary.d
            ),
            Bound::PathLength => "T >= lg N (path length)".into(),
            Bound::Locking { summary, exact } => {
                let mut t = format!(
                    "Thm 5.2: E[S]/N = {:.4} +- {:.4} >= (1 - lg N/(q! r^q))/r = {:.4}; (1 - 1/q!)/r = {:.4}, r = {}",
                    summary.fraction, summary.stderr, summary.general_bound, summary.bound, summary.r
                );
                if let Some(x) = exact {
                    t += &format!("; exact (Koch) {x:.4}");
                }
                t
            }
            Bound::Waves { k_plus_lg } => format!(
                "Thm 4.3: T = O(k + lg N) w.h.p., k + lg N = {k_plus_lg}; T >= lg N + 2k - 2"
            ),
        }
    }
}
