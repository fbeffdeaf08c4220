//! One pass of Algorithm A: worms with their phases drawn, routed greedily
//! ([`rules`]: small queues, fixed scan, fixed paths, heads served in scan
//! order)
//! either as one run with releases at the phase starts or phase after
//! phase behind a barrier.
//!
//! Times count steps: a run whose last tail arrives in step `t` took
//! `t + 1` steps. Phase `i` owns steps `i T .. (i + 1) T`; a worm is late
//! when its tail arrives in step `(i + 1) T` or later (in barrier mode,
//! when its phase's run needs more than `T` steps up to its tail).

use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::error::AlgorithmAError;
use crate::sim::wormhole::engine::{run, Rules};
use crate::sim::wormhole::{Arbitration, PathRule, Scan, Worm, WormNet};

/// The engine rules of Algorithm A: queues of `q` flits, the fixed scan,
/// paths fixed at the source, heads served in scan order. The engine draws
/// nothing under them.
pub fn rules(q: u32) -> Rules {
    Rules {
        q,
        path: PathRule::Fixed,
        scan: Scan::Fixed,
        arbitration: Arbitration::Scan,
    }
}

/// How phases follow one another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// One engine run: each worm is released at the start of its phase
    /// and nothing waits for a late phase (what a machine with a clock and
    /// no barrier does). A pass's time is the step after its last tail.
    FreeRunning,
    /// Phase `i + 1` starts once every worm of phase `i` has arrived: each
    /// phase with worms is its own engine run from an empty network. A
    /// pass's time follows the schedule stretched by the barrier: every
    /// phase costs `max(its steps, T)` and an empty phase `T`.
    Barrier,
}

/// What a late worm does to its pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnLate {
    /// Counted; the pass runs on (Theorem 4).
    Report,
    /// The pass stops at the end of the first phase with a late worm; the
    /// late worms and every later phase stay undelivered (Theorem 5).
    Abort,
}

/// How a pass ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PassEnd {
    /// Every worm of the pass arrived.
    Completed,
    /// A worm of `phase` was late and the pass stopped at that phase's end.
    Aborted {
        /// The first phase with a late worm.
        phase: u64,
    },
}

/// Phases that ran past their `T` steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Overruns {
    /// Worms whose tails arrived after their phase's end.
    pub late_worms: u32,
    /// Phases with a late worm.
    pub late_phases: u64,
    /// The most steps a phase took, from its start to its last tail.
    pub longest_phase: u64,
}

/// Overruns gathered worm by worm, the worms grouped by phase.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    overruns: Overruns,
    busy: u64,
    last: Option<u64>,
    last_late: bool,
}

impl Tally {
    /// A worm of `phase` that took `steps` from the phase's start.
    fn add(&mut self, phase: u64, steps: u64, period: u64) {
        if self.last != Some(phase) {
            self.busy += 1;
            self.last = Some(phase);
            self.last_late = false;
        }
        let o = &mut self.overruns;
        o.longest_phase = o.longest_phase.max(steps);
        if steps > period {
            o.late_worms += 1;
            if !self.last_late {
                o.late_phases += 1;
                self.last_late = true;
            }
        }
    }
}

/// The worms of one pass and their phases.
#[derive(Clone, Copy, Debug)]
pub struct Pass<'a> {
    /// The network.
    pub net: &'a WormNet,
    /// Every message's worm (its release is ignored).
    pub worms: &'a [Worm],
    /// Every message's fixed path.
    pub paths: &'a [Vec<u32>],
    /// The messages this pass routes, in increasing order.
    pub ids: &'a [usize],
    /// Each routed worm's phase, `0 .. phases`.
    pub delta: &'a [u64],
    /// `T`, steps per phase.
    pub period: u64,
    /// Phases of the pass.
    pub phases: u64,
    /// Queue capacity in flits.
    pub q: u32,
}

/// What a pass did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassRun {
    /// Per routed worm, the step (from the pass's start) its tail arrived
    /// in; `None` when an abort left it undelivered.
    pub arrival: Vec<Option<u64>>,
    /// Steps the pass took.
    pub time: u64,
    /// Barrier mode: the steps had each phase started as soon as the last
    /// tail of the one before arrived (empty phases free).
    pub eager: Option<u64>,
    /// Phases holding worms (up to the abort).
    pub busy_phases: u64,
    /// Late worms and phases (up to the abort).
    pub overruns: Overruns,
    /// Whether every worm arrived.
    pub end: PassEnd,
}

impl Pass<'_> {
    /// Routes the pass in `mode`.
    pub fn run(
        &self,
        mode: Mode,
        on_late: OnLate,
        rng: &mut ChaCha8Rng,
    ) -> Result<PassRun, AlgorithmAError> {
        match mode {
            Mode::FreeRunning => self.free_running(on_late, rng),
            Mode::Barrier => self.barrier(on_late, rng),
        }
    }

    /// The engine's run of routed worms `group` (indices into `ids`),
    /// released at `release(j)`, with every path checked.
    fn route(
        &self,
        group: &[usize],
        release: impl Fn(usize) -> u64,
        rng: &mut ChaCha8Rng,
    ) -> Result<Vec<u64>, AlgorithmAError> {
        let batch: Vec<Worm> = group
            .iter()
            .map(|&j| Worm {
                release: release(j),
                ..self.worms[self.ids[j]]
            })
            .collect();
        let out = run(self.net, &batch, rules(self.q), rng)?;
        for (x, &j) in group.iter().enumerate() {
            if out.paths[x] != self.paths[self.ids[j]] {
                return Err(AlgorithmAError::PathMismatch { worm: self.ids[j] });
            }
        }
        Ok(out.arrival)
    }

    /// One run with releases at the phase starts.
    fn free_running(
        &self,
        on_late: OnLate,
        rng: &mut ChaCha8Rng,
    ) -> Result<PassRun, AlgorithmAError> {
        let (t, delta) = (self.period, self.delta);
        let all: Vec<usize> = (0..self.ids.len()).collect();
        let arrival = self.route(&all, |j| delta[j] * t, rng)?;
        let steps = |j: usize| arrival[j] + 1 - delta[j] * t;
        let first_late = all
            .iter()
            .filter(|&&j| steps(j) > t)
            .map(|&j| delta[j])
            .min();
        let cut = match on_late {
            OnLate::Abort => first_late,
            OnLate::Report => None,
        };
        let mut order: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&j| cut.is_none_or(|p| delta[j] <= p))
            .collect();
        order.sort_by_key(|&j| (delta[j], j));
        let mut tally = Tally::default();
        for &j in &order {
            tally.add(delta[j], steps(j), t);
        }
        let (time, end) = match cut {
            Some(p) => ((p + 1) * t, PassEnd::Aborted { phase: p }),
            None => (
                arrival.iter().map(|&a| a + 1).max().unwrap_or(0),
                PassEnd::Completed,
            ),
        };
        Ok(PassRun {
            arrival: arrival.iter().map(|&a| (a < time).then_some(a)).collect(),
            time,
            eager: None,
            busy_phases: tally.busy,
            overruns: tally.overruns,
            end,
        })
    }

    /// Phase after phase, each from an empty network.
    fn barrier(&self, on_late: OnLate, rng: &mut ChaCha8Rng) -> Result<PassRun, AlgorithmAError> {
        let (t, delta) = (self.period, self.delta);
        let mut order: Vec<usize> = (0..self.ids.len()).collect();
        order.sort_by_key(|&j| (delta[j], j));
        let mut arrival = vec![None; self.ids.len()];
        let mut tally = Tally::default();
        let (mut clock, mut eager, mut next) = (0u64, 0u64, 0u64);
        for group in order.chunk_by(|&a, &b| delta[a] == delta[b]) {
            let phase = delta[group[0]];
            clock += (phase - next) * t;
            let at = self.route(group, |_| 0, rng)?;
            let steps = at.iter().map(|&a| a + 1).max().unwrap_or(0);
            for (x, &j) in group.iter().enumerate() {
                tally.add(phase, at[x] + 1, t);
                arrival[j] = (at[x] < t || on_late == OnLate::Report).then_some(clock + at[x]);
            }
            if steps > t && on_late == OnLate::Abort {
                return Ok(PassRun {
                    arrival,
                    time: clock + t,
                    eager: Some(eager + t),
                    busy_phases: tally.busy,
                    overruns: tally.overruns,
                    end: PassEnd::Aborted { phase },
                });
            }
            clock += steps.max(t);
            eager += steps;
            next = phase + 1;
        }
        Ok(PassRun {
            arrival,
            time: clock + (self.phases - next) * t,
            eager: Some(eager),
            busy_phases: tally.busy,
            overruns: tally.overruns,
            end: PassEnd::Completed,
        })
    }
}
