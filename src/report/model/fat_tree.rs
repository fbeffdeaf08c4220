//! `fabric.simulate.fat_tree`: the report of `fabric simulate fat-tree`
//! (thesis chapter 3). The simulation's parameters, the time model, then
//! one record per rate with the spreads over its trials, the bound it is
//! held against, trial 0's heaviest channel per level and every trial's
//! figures; `--format csv` writes the trials of every rate, one row each.

use schemars::JsonSchema;
use serde::Serialize;

use super::{Header, Report};
use crate::sim::algorithms::{Algorithm, AlgorithmKind};
use crate::sim::bounds::{bound_of, Claim, Source, Verdict};
use crate::sim::traffic::{Traffic, TrafficKind};
use crate::sim::{figure_3_3_region, ChannelLoad, Direction, Policy, SimReport, SimRun};
use crate::sim::{Spread, Trial};

/// The report of `fabric simulate fat-tree`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct FatTreeSimReport {
    /// Schema, its version, and the writer's version.
    #[serde(flatten)]
    pub header: Header,
    /// What was simulated: network, algorithm, policy, traffic, seed.
    pub simulation: Parameters,
    /// How delivery cycles become bit-times.
    pub time_model: TimeModelRecord,
    /// One record per rate, in the order the rates were given.
    pub runs: Vec<RunRecord>,
}

/// The simulation's parameters.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Parameters {
    /// The fabric simulated: `fat-tree` or `butterfly-fat-tree`.
    pub network: String,
    /// Number of processors `n`.
    pub processors: u32,
    /// The capacity function, as a formula.
    pub capacity: String,
    /// Wires per direction above `2^i` processors, `i = 0 .. lg n` (the
    /// last: the root's external channel); `null` for the butterfly
    /// fat-tree, whose every wire is a channel.
    pub capacities: Option<Vec<u32>>,
    /// The fat-tree's congestion parameter `r` (section 3.2); `null` for
    /// the butterfly fat-tree.
    pub congestion_parameter: Option<f64>,
    /// The routing algorithm.
    pub algorithm: AlgorithmKind,
    /// RANDOM's constants; `null` for the other algorithms.
    pub constants: Option<ConstantsRecord>,
    /// What a congested switch keeps.
    pub policy: Policy,
    /// The message sets' pattern.
    pub traffic: TrafficKind,
    /// Processors per block of `local` traffic; `null` for the others.
    pub subtree: Option<u32>,
    /// The seed every trial's random stream derives from.
    pub seed: u64,
    /// Delivery cycles after which a trial is given up as incomplete.
    pub max_cycles: u64,
    /// What the setup warns of (also printed on stderr).
    pub warnings: Vec<String>,
}

/// RANDOM's constants.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ConstantsRecord {
    /// Rounds per unit of the current `lambda`.
    pub k1: f64,
    /// Rounds per unit of `lg n`.
    pub k2: f64,
    /// The congestion parameter of the subset probability `1/(r lambda)`.
    pub r: f64,
    /// Whether a single message is sent alone after every cycle.
    pub interleave: bool,
}

/// The time model.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct TimeModelRecord {
    /// Where the wire lengths came from: a layout file or `built in
    /// memory`.
    pub layout: String,
    /// The wire delay function `w(d)` as given.
    pub wire_delay_function: String,
    /// Layout length of each level's longest wire, from the processors up.
    pub wire_length: Vec<u64>,
    /// Delay in bit-times of each level's slowest wire.
    pub wire_delay: Vec<f64>,
    /// Bit-times a switch takes to pass a message's head.
    pub switch_delay: f64,
    /// Payload bits after the address.
    pub payload_bits: u64,
    /// Bit-times of a delivery cycle sized for the network's longest path:
    /// twice the longest leaf-root-leaf latency plus the message bits.
    pub network_cycle_bit_time: f64,
}

/// One rate's trials.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct RunRecord {
    /// Messages each processor sends (for `greedy_adversary`, the load
    /// factor of `M_n`).
    pub rate: u32,
    /// Trials run.
    pub trials: usize,
    /// Trials that delivered every message.
    pub complete: usize,
    /// Messages per trial.
    pub messages: Spread,
    /// Load factor per trial.
    pub lambda: Spread,
    /// Delivery cycles per trial.
    pub cycles: Spread,
    /// Cycles over the load factor, over the trials with `lambda > 0`;
    /// `null` when there are none.
    pub cycles_per_lambda: Option<Spread>,
    /// Bit-times of one delivery cycle per trial.
    pub cycle_bit_time: Spread,
    /// Total bit-times per trial.
    pub bit_time: Spread,
    /// Figure 3-3's row for the mean load factor (RANDOM's table); `null`
    /// for the other algorithms.
    pub figure_3_3: Option<String>,
    /// The bound the cycles are held against; `null` where the thesis
    /// states none for the algorithm and traffic.
    pub bound: Option<BoundRecord>,
    /// Trial 0's heaviest channel of each level, from the processors up.
    pub levels: Vec<LevelRecord>,
    /// Every trial's figures, in trial order.
    pub per_trial: Vec<TrialRecord>,
}

/// A rate's bound and whether it held.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct BoundRecord {
    /// Where the bound comes from.
    pub source: Source,
    /// The bound in cycles, as a formula.
    pub formula: String,
    /// What the bound claims of the cycles.
    pub claim: Claim,
    /// The bound's value in cycles per trial (a shape's value is its
    /// expression without a constant).
    pub value: Spread,
    /// Cycles over the bound's value per trial; `null` when a trial's
    /// value is 0 (a message set that loads no channel).
    pub ratio: Option<Spread>,
    /// Whether the trials kept to the bound.
    pub verdict: VerdictRecord,
    /// Trials under the forced cycles (`forced_at_least` claims); `null`
    /// for a shape.
    pub below_the_bound: Option<usize>,
}

/// Whether a rate's trials kept to its bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VerdictRecord {
    /// Every trial took at least the forced number of cycles.
    Held,
    /// Some trials took fewer cycles than the adversary forces.
    BelowTheBound,
    /// A shape without a constant: no verdict.
    ShapeOnly,
}

/// The heaviest channel of one level.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct LevelRecord {
    /// The level, from the processors up.
    pub level: u32,
    /// The channel's load over its capacity; 0 for an idle level.
    pub lambda: f64,
    /// The channel; `null` for an idle level.
    pub channel: Option<ChannelRecord>,
}

/// A channel and its load.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ChannelRecord {
    /// Level of the channel (above a subtree at this level).
    pub level: u32,
    /// The subtree's first processor.
    pub first_processor: u32,
    /// Leaving the subtree (`up`) or entering it (`down`).
    pub direction: Direction,
    /// Messages crossing the channel that way.
    pub load: u64,
    /// Wires of the channel that way.
    pub capacity: u64,
}

impl From<&ChannelLoad> for ChannelRecord {
    fn from(c: &ChannelLoad) -> Self {
        ChannelRecord {
            level: c.level,
            first_processor: c.first_processor,
            direction: c.direction,
            load: c.load,
            capacity: c.capacity,
        }
    }
}

/// One trial's figures.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct TrialRecord {
    /// The trial's number, which picks its random stream.
    pub trial: u64,
    /// Size of the message set.
    pub messages: usize,
    /// The message set's load factor.
    pub lambda: f64,
    /// Delivery cycles run.
    pub cycles: u64,
    /// Messages delivered.
    pub delivered: usize,
    /// Whether every message was delivered within `max_cycles`.
    pub complete: bool,
    /// Messages sent, summed over the cycles.
    pub sent: u64,
    /// Message-channel steps simulated.
    pub steps: u64,
    /// Bit-times of one delivery cycle for this message set.
    pub cycle_bit_time: f64,
    /// Total bit-times: `cycle_bit_time` times the cycles.
    pub bit_time: f64,
    /// The first channel attaining `lambda`; `null` when none is loaded.
    pub channel: Option<ChannelRecord>,
}

/// A row of the CSV: one trial of one rate, its channel flattened.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct TrialRow {
    rate: u32,
    trial: u64,
    messages: usize,
    lambda: f64,
    cycles: u64,
    delivered: usize,
    complete: bool,
    sent: u64,
    steps: u64,
    cycle_bit_time: f64,
    bit_time: f64,
    channel_level: Option<u32>,
    channel_first_processor: Option<u32>,
    channel_direction: Option<Direction>,
    channel_load: Option<u64>,
    channel_capacity: Option<u64>,
}

impl Report for FatTreeSimReport {
    const SCHEMA: &'static str = "fabric.simulate.fat_tree";
    const VERSION: u32 = 2;
    const TABLE: Option<&'static str> = Some("per_trial");

    fn csv(&self) -> Option<Result<String, csv::Error>> {
        let rows: Vec<TrialRow> = self
            .runs
            .iter()
            .flat_map(|run| {
                run.per_trial.iter().map(move |t| {
                    let c = t.channel.as_ref();
                    TrialRow {
                        rate: run.rate,
                        trial: t.trial,
                        messages: t.messages,
                        lambda: t.lambda,
                        cycles: t.cycles,
                        delivered: t.delivered,
                        complete: t.complete,
                        sent: t.sent,
                        steps: t.steps,
                        cycle_bit_time: t.cycle_bit_time,
                        bit_time: t.bit_time,
                        channel_level: c.map(|c| c.level),
                        channel_first_processor: c.map(|c| c.first_processor),
                        channel_direction: c.map(|c| c.direction),
                        channel_load: c.map(|c| c.load),
                        channel_capacity: c.map(|c| c.capacity),
                    }
                })
            })
            .collect();
        Some(super::csv_rows(&rows))
    }
}

impl FatTreeSimReport {
    /// The report of a simulation.
    pub fn new(r: &SimReport) -> FatTreeSimReport {
        let constants = match r.algorithm {
            Algorithm::Random(c) => Some(ConstantsRecord {
                k1: c.k1,
                k2: c.k2,
                r: c.r,
                interleave: c.interleave,
            }),
            Algorithm::RandomPrime | Algorithm::Greedy | Algorithm::ButterflyFatTree => None,
        };
        let subtree = match r.traffic {
            Traffic::Local { subtree } => Some(subtree),
            _ => None,
        };
        FatTreeSimReport {
            header: Self::header(),
            simulation: Parameters {
                network: r.network.clone(),
                processors: r.processors,
                capacity: r.capacity.clone(),
                capacities: (!r.capacities.is_empty()).then(|| r.capacities.clone()),
                congestion_parameter: r.congestion_parameter,
                algorithm: r.algorithm.kind(),
                constants,
                policy: r.policy,
                traffic: r.traffic.kind(),
                subtree,
                seed: r.seed,
                max_cycles: r.max_cycles,
                warnings: r.warnings.iter().map(|w| w.message()).collect(),
            },
            time_model: TimeModelRecord {
                layout: r.layout.clone(),
                wire_delay_function: r.delay.clone(),
                wire_length: r.wire_length.clone(),
                wire_delay: r.wire_delay.clone(),
                switch_delay: r.time.switch_delay,
                payload_bits: r.time.payload_bits,
                network_cycle_bit_time: r.network_cycle_bit_time,
            },
            runs: r.runs.iter().map(|run| run_record(r, run)).collect(),
        }
    }
}

/// The spread of the defined values, `None` when there are none.
fn spread_of_some(values: impl Iterator<Item = Option<f64>>) -> Option<Spread> {
    let v: Vec<f64> = values.flatten().collect();
    (!v.is_empty()).then(|| Spread::of(&v))
}

/// One rate's record.
fn run_record(r: &SimReport, run: &SimRun) -> RunRecord {
    let t = &run.trials;
    let pick = |g: &dyn Fn(&Trial) -> f64| Spread::of(&t.iter().map(g).collect::<Vec<_>>());
    let lambda = pick(&|x| x.load.lambda);
    let bound = bound_of(r, run).map(|b| {
        let (verdict, below) = match b.verdict {
            Verdict::Held => (VerdictRecord::Held, Some(0)),
            Verdict::BelowTheBound { trials } => (VerdictRecord::BelowTheBound, Some(trials)),
            Verdict::ShapeOnly => (VerdictRecord::ShapeOnly, None),
        };
        BoundRecord {
            source: b.source,
            formula: b.source.formula().to_string(),
            claim: b.source.claim(),
            value: b.value,
            ratio: b.ratio.mean.is_finite().then_some(b.ratio),
            verdict,
            below_the_bound: below,
        }
    });
    RunRecord {
        rate: run.rate,
        trials: t.len(),
        complete: t.iter().filter(|x| x.outcome.complete).count(),
        messages: pick(&|x| x.messages as f64),
        lambda,
        cycles: pick(&|x| x.outcome.cycles as f64),
        cycles_per_lambda: spread_of_some(
            t.iter()
                .map(|x| (x.load.lambda > 0.0).then(|| x.outcome.cycles as f64 / x.load.lambda)),
        ),
        cycle_bit_time: pick(&|x| x.cycle_bit_time),
        bit_time: pick(&|x| x.bit_time()),
        figure_3_3: matches!(r.algorithm, Algorithm::Random(_))
            .then(|| figure_3_3_region(lambda.mean, r.processors).to_string()),
        bound,
        levels: run
            .levels
            .iter()
            .enumerate()
            .map(|(l, c)| LevelRecord {
                level: l as u32,
                lambda: c.as_ref().map_or(0.0, ChannelLoad::factor),
                channel: c.as_ref().map(ChannelRecord::from),
            })
            .collect(),
        per_trial: t
            .iter()
            .map(|x| TrialRecord {
                trial: x.index,
                messages: x.messages,
                lambda: x.load.lambda,
                cycles: x.outcome.cycles,
                delivered: x.outcome.delivered,
                complete: x.outcome.complete,
                sent: x.outcome.sent,
                steps: x.outcome.steps,
                cycle_bit_time: x.cycle_bit_time,
                bit_time: x.bit_time(),
                channel: x.load.channel.as_ref().map(ChannelRecord::from),
            })
            .collect(),
    }
}
