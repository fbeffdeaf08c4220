//! Experiments on `B(n)`: one choice of model, protocol, traffic and
//! routing, run for trials at each size and queue size of a sweep, with
//! the paper's bound beside every measurement (the experiments E1 to E5
//! of `docs/simulation.md`).
//!
//! Trials run in parallel on rayon; trial `i` draws its problem and its
//! protocol's choices from `trial_rng(seed, i)`, so a report does not
//! depend on the number of threads.

use super::adversary::{self, Adversary, AdversaryError, Replay, SplitRule};
use super::butterfly::Butterfly;
use super::delay_tree::{self, DelayTreeError};
use super::dropping::{
    self, AtomConfig, Capacity, CircuitConfig, DropError, DropPolicy, DropSummary, Problem,
    RankRange, Variant,
};
use super::engine::{self, Config, EngineError, Protocol, QueueModel};
use super::traffic::{PacketTraffic, TrafficError};
use super::valiant;
use super::wave::{self, WaveConfig, WaveError};
use crate::sim::{seeded_trials, trial_rng};
use rand_chacha::ChaCha8Rng;

pub mod bound;
#[cfg(test)]
mod tests;

pub use bound::Bound;

/// The queue model of a run: each section of the paper has its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Model {
    /// Section 2: one queue of capacity q per switch, greedy protocols.
    G,
    /// Section 3: one queue per switch with threshold q (at most q + 2).
    T,
    /// Section 4: two queues of capacity q per switch, the wave/token
    /// algorithm (its own rule: no protocol).
    W,
    /// Section 5: circuit locking, q paths per edge (or node); packets
    /// beyond q are dropped.
    C,
    /// Section 5: ATOM store-and-forward, one buffer of q per switch,
    /// overflow dropped.
    A,
}

impl Model {
    /// Every model, in the order of the paper's sections.
    pub const ALL: [Model; 5] = [Model::G, Model::T, Model::W, Model::C, Model::A];

    /// The model's name as `--model` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Model::G => "g",
            Model::T => "t",
            Model::W => "w",
            Model::C => "c",
            Model::A => "a",
        }
    }

    /// Whether the model's switches follow a `--protocol`.
    pub fn takes_protocol(self) -> bool {
        matches!(self, Model::G | Model::T)
    }

    /// Whether the model drops packets (section 5).
    pub fn drops(self) -> bool {
        matches!(self, Model::C | Model::A)
    }
}

/// The routing problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Workload {
    /// Each packet to an independent uniform output.
    RandomDestinations,
    /// Each round a uniform permutation.
    RandomPermutation,
    /// Input `a` to `a`'s bits reversed.
    BitReversal,
    /// Input `a` to `a`'s halves swapped (even lg N).
    Transpose,
    /// Input `a` to output `a`.
    Identity,
    /// Theorem 3.1's permutation, built against the protocol (model T).
    Adversary,
}

impl Workload {
    /// Every workload, in declaration order.
    pub const ALL: [Workload; 6] = [
        Workload::RandomDestinations,
        Workload::RandomPermutation,
        Workload::BitReversal,
        Workload::Transpose,
        Workload::Identity,
        Workload::Adversary,
    ];

    /// The workload's name as `--traffic` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Workload::RandomDestinations => "random-destinations",
            Workload::RandomPermutation => "random-permutation",
            Workload::BitReversal => "bit-reversal",
            Workload::Transpose => "transpose",
            Workload::Identity => "identity",
            Workload::Adversary => "adversary",
        }
    }

    /// The traffic generator, for every workload but the adversary.
    pub fn traffic(self) -> Option<PacketTraffic> {
        Some(match self {
            Workload::RandomDestinations => PacketTraffic::RandomDestinations,
            Workload::RandomPermutation => PacketTraffic::RandomPermutation,
            Workload::BitReversal => PacketTraffic::BitReversal,
            Workload::Transpose => PacketTraffic::Transpose,
            Workload::Identity => PacketTraffic::Identity,
            Workload::Adversary => return None,
        })
    }
}

/// Direct routing or Valiant's two phases through the wraparound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Routing {
    /// Each packet on its unique path.
    Direct,
    /// To a random intermediate, then on (section 2.2), with a barrier.
    TwoPhase,
    /// Two phases without the barrier: a packet goes on through the
    /// wraparound as soon as it reaches its intermediate.
    TwoPhasePipelined,
}

impl Routing {
    /// Every routing, in declaration order.
    pub const ALL: [Routing; 3] = [
        Routing::Direct,
        Routing::TwoPhase,
        Routing::TwoPhasePipelined,
    ];

    /// The routing's name as `--routing` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Routing::Direct => "direct",
            Routing::TwoPhase => "two-phase",
            Routing::TwoPhasePipelined => "two-phase-pipelined",
        }
    }
}

/// The choices of section 5's dropping models (C and A).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dropping {
    /// The routing problem: back-to-back, Koch's random one, or direct.
    pub scheme: Variant,
    /// What q limits (model C).
    pub capacity: Capacity,
    /// Which packets an overflowing buffer drops (model A).
    pub policy: DropPolicy,
    /// The rank range r.
    pub ranks: RankRange,
}

/// What an experiment fixes; sizes and queue sizes vary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Experiment {
    /// The queue model.
    pub model: Model,
    /// The switches' protocol.
    pub protocol: Protocol,
    /// The routing problem.
    pub workload: Workload,
    /// Direct or two-phase.
    pub routing: Routing,
    /// The adversary's split rule.
    pub split: SplitRule,
    /// Packets per input.
    pub k: u32,
    /// Models C and A.
    pub dropping: Dropping,
    /// Trials per cell.
    pub trials: u64,
    /// The seed.
    pub seed: u64,
}

/// Why an experiment cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExperimentError {
    /// The traffic cannot be made.
    #[error(transparent)]
    Traffic(#[from] TrafficError),
    /// The engine refused.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The adversary cannot be built.
    #[error(transparent)]
    Adversary(#[from] AdversaryError),
    /// A combination the paper does not define.
    #[error("{0}")]
    Combination(&'static str),
    /// Theorem 2.1's checker refused the run.
    #[error(transparent)]
    DelayTree(#[from] DelayTreeError),
    /// The wave algorithm refused or failed.
    #[error(transparent)]
    Wave(#[from] WaveError),
    /// A dropping model refused.
    #[error(transparent)]
    Drop(#[from] DropError),
    /// Over the memory budget.
    #[error(transparent)]
    Limit(#[from] crate::limits::LimitError),
}

/// One trial's figures; the optional ones are those its model records.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Trial {
    /// The routing time T (both phases for two-phase routing).
    pub steps: u64,
    /// Two-phase routing: T_A and T_B.
    pub phases: Option<(u64, u64)>,
    /// The most packets a switch held.
    pub max_occupancy: u32,
    /// Packet-hops.
    pub hops: u64,
    /// Packets routed.
    pub packets: u64,
    /// Packets delivered.
    pub delivered: u64,
    /// Theorem 2.1: the largest arrival / D(p) over the packets (model G,
    /// direct routing).
    pub delay_tree_ratio: Option<f64>,
    /// The adversary's replay verdict.
    pub replay: Option<Replay>,
    /// Per edge level: packets sent straight and across (models G and T,
    /// direct routing).
    pub link_use: Option<Vec<[u64; 2]>>,
}

/// The trials at one size and queue size.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Cell {
    /// `lg N`.
    pub n: u32,
    /// The queue size.
    pub q: u32,
    /// The trials, in trial order.
    pub trials: Vec<Trial>,
    /// The paper's bound for this cell.
    pub bound: Bound,
}

/// Bytes one trial of `B(n)` needs: switch queues, per-node state and
/// per-packet state, doubled.
pub fn trial_bytes(n: u32, q: u32, k: u32) -> u64 {
    let rows = 1u64 << n;
    let nodes = rows * (n as u64 + 1);
    let packets = rows * k as u64;
    2 * (nodes * (4 * (q as u64 + 2) + 12) + packets * 40)
}

impl Experiment {
    /// Checks a cell's parameters before any work.
    pub fn check(&self, n: u32, q: u32) -> Result<(), ExperimentError> {
        if self.model == Model::G && q == 0 {
            return Err(EngineError::ZeroCapacity.into());
        }
        if self.model.drops() {
            if q == 0 {
                return Err(DropError::ZeroCapacity.into());
            }
            if self.routing != Routing::Direct {
                return Err(ExperimentError::Combination(
                    "section 5's schemes choose their own paths (--scheme), not --routing",
                ));
            }
            self.problem()?;
            self.dropping.ranks.resolve(n, q)?;
            if n > dropping::MAX_N {
                return Err(DropError::TooLarge {
                    n,
                    max: dropping::MAX_N,
                }
                .into());
            }
            if self.model == Model::C && self.k != 1 {
                return Err(DropError::OnePerInput { k: self.k }.into());
            }
        }
        if self.model == Model::W {
            if q == 0 {
                return Err(WaveError::ZeroCapacity.into());
            }
            if self.routing != Routing::Direct {
                return Err(ExperimentError::Combination(
                    "the wave algorithm routes directly (--routing direct)",
                ));
            }
        }
        if q > engine::MAX_Q {
            return Err(EngineError::QueueTooLarge { q }.into());
        }
        if let Some(t) = self.workload.traffic() {
            t.packets(0, self.k, &mut trial_rng(0, 0))?;
            if t == PacketTraffic::Transpose && n % 2 == 1 {
                return Err(TrafficError::OddTranspose { n }.into());
            }
        } else {
            if self.model != Model::T {
                return Err(ExperimentError::Combination(
                    "the section-3 adversary runs under model T (--model t)",
                ));
            }
            if self.routing != Routing::Direct || self.k != 1 {
                return Err(ExperimentError::Combination(
                    "the section-3 adversary is one packet per input, routed directly",
                ));
            }
            if self.protocol.kind() != engine::protocol::Kind::Nonpredictive {
                return Err(AdversaryError::Predictive {
                    protocol: self.protocol.name(),
                }
                .into());
            }
            Adversary::new(n, q)?;
        }
        let threads = rayon::current_num_threads()
            .min(self.trials as usize)
            .max(1) as u64;
        crate::limits::check(
            || {
                format!(
                    "{threads} parallel trials on B({n}) with q = {q}, k = {}",
                    self.k
                )
            },
            trial_bytes(n, q, self.k).saturating_mul(threads),
        )?;
        Ok(())
    }

    fn config(&self, q: u32) -> Config {
        Config {
            model: match self.model {
                Model::G | Model::W | Model::C | Model::A => QueueModel::Greedy,
                Model::T => QueueModel::Threshold,
            },
            protocol: self.protocol,
            q,
        }
    }

    /// Section 5's problem for this experiment's scheme and traffic.
    fn problem(&self) -> Result<Problem, ExperimentError> {
        let traffic = self.workload.traffic();
        Ok(match (self.dropping.scheme, traffic) {
            (Variant::KochRandom, Some(PacketTraffic::RandomDestinations)) => Problem::KochRandom,
            (Variant::KochRandom, _) => {
                return Err(ExperimentError::Combination(
                    "Koch's problem has random destinations (--traffic random-destinations)",
                ))
            }
            (_, None) => {
                return Err(ExperimentError::Combination(
                    "the section-3 adversary runs under model T (--model t)",
                ))
            }
            (Variant::BackToBack, Some(t)) => {
                dropping::require_permutation(t)?;
                Problem::BackToBack(t)
            }
            (Variant::Direct, Some(t)) => Problem::Direct(t),
        })
    }

    /// The trials of a dropping cell (models C and A) and their summary.
    fn dropping_cell(&self, n: u32, q: u32) -> Result<Cell, ExperimentError> {
        let problem = self.problem()?;
        let d = self.dropping;
        let (trials, summary) = if self.model == Model::C {
            let cfg = CircuitConfig {
                q,
                ranks: d.ranks,
                capacity: d.capacity,
            };
            let out = dropping::lock_trials(problem, n, cfg, self.trials, self.seed)?;
            let length = match problem {
                Problem::BackToBack(_) => 2 * n as u64,
                Problem::KochRandom | Problem::Direct(_) => n as u64,
            };
            let trials = out
                .iter()
                .map(|o| Trial {
                    steps: length,
                    max_occupancy: q,
                    hops: o.delivered * length,
                    packets: o.rows,
                    delivered: o.delivered,
                    ..Trial::default()
                })
                .collect();
            (trials, DropSummary::of_locks(n, q, &out))
        } else {
            let cfg = AtomConfig {
                policy: d.policy,
                ranks: d.ranks,
                ..AtomConfig::new(q)
            };
            let out = dropping::atom_trials(problem, n, self.k, cfg, self.trials, self.seed)?;
            let trials = out
                .iter()
                .map(|o| Trial {
                    steps: o.steps,
                    max_occupancy: o.max_occupancy,
                    hops: 0,
                    packets: o.packets,
                    delivered: o.delivered,
                    ..Trial::default()
                })
                .collect();
            (trials, DropSummary::of_atoms(n, q, &out))
        };
        let exact = match (self.model, problem) {
            (Model::C, Problem::KochRandom) => Some(dropping::koch_exact(n, q, d.capacity)?),
            _ => None,
        };
        Ok(Cell {
            n,
            q,
            trials,
            bound: Bound::Locking {
                summary: summary.ok_or(ExperimentError::Combination("no trials"))?,
                exact,
            },
        })
    }

    /// Runs the trials of one cell.
    pub fn cell(&self, n: u32, q: u32) -> Result<Cell, ExperimentError> {
        self.check(n, q)?;
        if self.model.drops() {
            return self.dropping_cell(n, q);
        }
        let trials = seeded_trials(self.trials, self.seed, |_, rng| self.trial_on(n, q, rng))?;
        Ok(Cell {
            n,
            q,
            trials,
            bound: Bound::of(self, n, q)?,
        })
    }

    /// Trial `index` of a cell, as [`Experiment::cell`] runs it.
    pub fn trial(&self, n: u32, q: u32, index: u64) -> Result<Trial, ExperimentError> {
        self.trial_on(n, q, &mut trial_rng(self.seed, index))
    }

    /// One trial on its stream.
    fn trial_on(&self, n: u32, q: u32, rng: &mut ChaCha8Rng) -> Result<Trial, ExperimentError> {
        let config = self.config(q);
        let Some(traffic) = self.workload.traffic() else {
            let r = adversary::build(n, q, self.protocol, self.split, rng)?;
            return Ok(Trial {
                steps: r.run.steps,
                max_occupancy: r.run.max_switch_occupancy,
                hops: r.run.hops,
                packets: r.run.arrival.len() as u64,
                delivered: r.run.arrival.len() as u64,
                replay: Some(r.replay),
                link_use: Some(r.run.link_use),
                ..Trial::default()
            });
        };
        let packets = traffic.packets(n, self.k, rng)?;
        if self.model == Model::W {
            let checks = if cfg!(debug_assertions) {
                wave::Checks::Invariants
            } else {
                wave::Checks::Off
            };
            let config = WaveConfig {
                checks,
                ..WaveConfig::new(q)
            };
            let r = wave::run_waves(&Butterfly::new(n), &packets, self.k, &config)?;
            return Ok(Trial {
                steps: r.routing_time,
                max_occupancy: r.max_occupancy(),
                hops: r.item_hops(),
                packets: packets.len() as u64,
                delivered: r.delivered,
                ..Trial::default()
            });
        }
        Ok(match self.routing {
            Routing::Direct => {
                let r = engine::run(n, &packets, config, rng)?;
                // Theorem 2.1 holds for greedy protocols under model G.
                let delay_tree_ratio = if self.model == Model::G && n <= delay_tree::MAX_N {
                    let arrivals: Vec<u64> = r.arrival.iter().map(|&a| a as u64).collect();
                    let check = delay_tree::check(&Butterfly::new(n), &packets, &arrivals, q)?;
                    Some(check.worst_ratio)
                } else {
                    None
                };
                Trial {
                    steps: r.steps,
                    max_occupancy: r.max_switch_occupancy,
                    hops: r.hops,
                    packets: packets.len() as u64,
                    delivered: r.arrival.len() as u64,
                    delay_tree_ratio,
                    link_use: Some(r.link_use),
                    ..Trial::default()
                }
            }
            Routing::TwoPhase | Routing::TwoPhasePipelined => {
                let r = if self.routing == Routing::TwoPhase {
                    valiant::route(n, &packets, config, rng)?
                } else {
                    valiant::route_pipelined(n, &packets, config, rng)?
                };
                Trial {
                    steps: r.total(),
                    phases: Some((r.phase_a, r.phase_b)),
                    max_occupancy: r.max_switch_occupancy,
                    hops: r.hops,
                    packets: packets.len() as u64,
                    delivered: packets.len() as u64,
                    ..Trial::default()
                }
            }
        })
    }
}
