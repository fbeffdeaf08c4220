//! Algorithm A of Greenberg and Oh ("Universal Wormhole Routing", section
//! II), with the doubling scheme of Theorem 5 and worms of varying length
//! (section III-A.2).
//!
//! Every worm's path is fixed at its source ([`fixed_path`]: a random
//! shortest path through the lowest common ancestor, its up links drawn
//! from the worm's coins), so the congestion `c` and dilation `d` are known
//! before anything moves. With `eta = min(d, L)`, Algorithm A(k, T) splits
//! time into `ceil(k c eta)` phases of `T` steps; each worm draws its phase
//! uniformly and then runs greedily ([`rules`]: one-flit queues unless
//! told otherwise, the fixed scan, heads served in scan order). A worm is
//! late when its tail arrives after its phase's end. Under the engine's
//! start-of-step occupancy a one-flit queue takes a flit every other step,
//! so a lone worm of `L` flits on `d` links takes `d + 2L - 2` steps.
//!
//! - [`Period::Theorem4`]: one pass with `T = 2d + L ceil(lg P)` (`P` the
//!   worms that leave their source, `ceil(lg P)` taken as at least 1);
//!   late worms are counted.
//! - [`Period::Doubling`]: passes in which `T` starts at `2(d + L)` and
//!   doubles; a pass stops at the end of its first phase with a late worm,
//!   and its late worms and later phases are routed again in the next pass
//!   (with `c`, `d` and `eta` of the worms left, and fresh phases).
//!
//! Phases run in one of two [`Mode`]s: free-running (one engine run,
//! releases at the phase starts) or behind a barrier (each phase its own
//! run). In barrier mode the headline time follows the schedule, with each
//! phase taking `max(its steps, T)`: the processors keep the paper's clock
//! of `T`-step phases and the barrier only stretches a phase that overruns,
//! so a pass with no late worm takes exactly `phases * T`, the figure
//! Theorems 4 and 5 bound. The time had each phase started as soon as the
//! last tail of the one before arrived (empty phases free) is reported
//! beside it, as is the bare schedule `phases * T`.
//!
//! With lengths drawn from a [`LengthLaw`], the longest drawn worm `L_M`
//! stands for `L` in `eta`, the phases and `T`, and the law must spread no
//! wider than `eps` times its mean (`eps < 1`).
//!
//! Times count steps: a run whose last tail arrives in step `t` (the
//! engine's latency) took `t + 1` steps.

mod error;
mod lengths;
mod pass;
mod paths;
#[cfg(test)]
mod tests;

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

pub use error::AlgorithmAError;
pub use lengths::{LengthLaw, LengthSampler, LengthStats, MAX_FLITS};
pub use pass::{rules, Mode, Overruns, PassEnd};
pub use paths::{fixed_path, PathLoad};

use crate::sim::wormhole::{Worm, WormError, WormNet};
use crate::sim::Message;
use pass::{OnLate, Pass};

/// The paper's phase factor, `k = 32 e`.
pub const K_DEFAULT: f64 = 32.0 * std::f64::consts::E;

/// The spread bound used unless told otherwise: the length law's standard
/// deviation at most 0.9 of its mean.
pub const EPS_DEFAULT: f64 = 0.9;

/// How long phases are and what a late worm does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Period {
    /// Theorem 4: one pass, `T = 2d + L ceil(lg P)`; late worms counted.
    Theorem4,
    /// Theorem 5: `T = 2(d + L)`, doubled after every pass a late worm
    /// stopped, for at most `max_passes` passes.
    Doubling {
        /// Passes to try before giving up.
        max_passes: u32,
    },
}

/// The parameters of Algorithm A.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AlgorithmA {
    /// Phases per unit of `c eta`: `ceil(k c eta)` phases.
    pub k: f64,
    /// Flits per worm.
    pub lengths: LengthLaw,
    /// Queue capacity in flits; 2 by default. The theory's worms are
    /// rigid with one-flit queues; under the SYNC step a one-flit queue
    /// accepts only when empty at the step's start, which halves a worm's
    /// streaming rate, so two-flit queues stand for the theory.
    pub queue: u32,
    /// The largest standard deviation allowed, as a fraction of the mean.
    pub eps: f64,
    /// Free-running or behind a barrier.
    pub mode: Mode,
    /// Theorem 4's phases or Theorem 5's doubling.
    pub period: Period,
}

impl Default for AlgorithmA {
    /// `k = 32 e`, worms of 32 flits, two-flit queues, `eps` 0.9,
    /// free-running, Theorem 4.
    fn default() -> Self {
        AlgorithmA {
            k: K_DEFAULT,
            lengths: LengthLaw::Constant(32),
            queue: 2,
            eps: EPS_DEFAULT,
            mode: Mode::FreeRunning,
            period: Period::Theorem4,
        }
    }
}

/// One pass of the algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PassReport {
    /// Worms routed in the pass.
    pub worms: u32,
    /// Their paths' congestion, dilation, longest worm and floor.
    pub load: PathLoad,
    /// `eta = min(d, L_M)` of those worms.
    pub eta: u32,
    /// `ceil(k c eta)`.
    pub phases: u64,
    /// `T`, steps per phase.
    pub period: u64,
    /// Phases holding worms (up to an abort).
    pub busy_phases: u64,
    /// `phases * T`.
    pub schedule: u64,
    /// Steps the pass took (see [`Mode`]; an aborted pass ends with its
    /// failed phase's `T` steps).
    pub time: u64,
    /// Barrier mode: the steps with each phase started as soon as the one
    /// before drained and empty phases skipped.
    pub eager: Option<u64>,
    /// Late worms and phases.
    pub overruns: Overruns,
    /// Whether the pass delivered every worm.
    pub end: PassEnd,
}

/// The paper's bounds next to the measured time, from the figures of the
/// whole worm set (`L` read as `L_M`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Bounds {
    /// Theorem 4: `c d eta + c L eta ceil(lg P)`.
    pub theorem4: u64,
    /// Measured time over `theorem4` (0 when it is 0).
    pub theorem4_ratio: f64,
    /// Theorem 5: `c d L`.
    pub theorem5: u64,
    /// Measured time over `theorem5` (0 when it is 0).
    pub theorem5_ratio: f64,
    /// `c L + d`, the order of every schedule's time.
    pub lower: u64,
    /// [`PathLoad::floor`]: no schedule of the engine delivers the worms
    /// in fewer steps.
    pub floor: u64,
}

/// Everything one run of Algorithm A measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AlgorithmARun {
    /// The parameters.
    pub params: AlgorithmA,
    /// Processors of the network.
    pub processors: u32,
    /// Messages given.
    pub messages: u32,
    /// `P`: messages not addressed to their own source.
    pub routed: u32,
    /// `ceil(lg P)`, at least 1.
    pub lg_p: u32,
    /// The length law's mean, deviation and maximum.
    pub law: LengthStats,
    /// The same figures of the routed worms' drawn lengths.
    pub drawn: LengthStats,
    /// Congestion, dilation, `L_M` and floor of every routed worm.
    pub load: PathLoad,
    /// `eta = min(d, L_M)`.
    pub eta: u32,
    /// The passes, in order (one under [`Period::Theorem4`]).
    pub passes: Vec<PassReport>,
    /// Steps of all passes together.
    pub time: u64,
    /// The paper's bounds beside `time`.
    pub bounds: Bounds,
    /// Per message, the step its tail arrived in, counted from the first
    /// pass's start (0 for a message to its own source).
    pub arrival: Vec<u64>,
}

impl AlgorithmARun {
    /// Late worms over all passes.
    pub fn late_worms(&self) -> u32 {
        self.passes.iter().map(|p| p.overruns.late_worms).sum()
    }

    /// Barrier mode: the eager steps of all passes together (see
    /// [`PassReport::eager`]).
    pub fn eager(&self) -> Option<u64> {
        self.passes.iter().map(|p| p.eager).sum()
    }

    /// Phases with late worms over all passes.
    pub fn late_phases(&self) -> u64 {
        self.passes.iter().map(|p| p.overruns.late_phases).sum()
    }
}

/// `ceil(lg p)`, taken as at least 1.
pub fn lg_ceil(p: u64) -> u32 {
    p.max(2).next_power_of_two().trailing_zeros()
}

/// `ceil(k c eta)` phases, at least 1.
pub fn phase_count(k: f64, congestion: u32, eta: u32) -> Result<u64, AlgorithmAError> {
    check_k(k)?;
    let x = (k * congestion as f64 * eta as f64).ceil();
    if x >= (1u64 << 52) as f64 {
        return Err(AlgorithmAError::TooManyPhases { phases: x });
    }
    Ok((x as u64).max(1))
}

/// Refuses a phase factor that is not a finite number above 0.
fn check_k(k: f64) -> Result<(), AlgorithmAError> {
    if k.is_finite() && k > 0.0 {
        Ok(())
    } else {
        Err(AlgorithmAError::PhaseFactor { k })
    }
}

/// `a / b`, or 0 when `b` is 0.
fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// The worms of `messages`: lengths drawn from `params.lengths` first,
/// then coins, one each in message order.
fn draw_worms(
    net: &WormNet,
    messages: &[Message],
    params: &AlgorithmA,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Worm>, AlgorithmAError> {
    let n = net.processors();
    if let Some((message, m)) = messages
        .iter()
        .enumerate()
        .find(|(_, m)| m.src >= n || m.dst >= n)
    {
        return Err(AlgorithmAError::Outside {
            message,
            src: m.src,
            dst: m.dst,
            processors: n,
        });
    }
    let sampler = params.lengths.sampler()?;
    let lens: Vec<u32> = messages.iter().map(|_| sampler.draw(rng)).collect();
    Ok(messages
        .iter()
        .zip(lens)
        .map(|(m, len)| Worm {
            src: m.src,
            dst: m.dst,
            len,
            release: 0,
            priority: 0,
            coins: rng.gen(),
        })
        .collect())
}

/// Routes `messages` over `net` with Algorithm A under `params`.
///
/// Draw order from `rng`: every message's length (none for a constant
/// law), every message's coins, then per pass each routed worm's phase in
/// message order; the engine draws nothing under [`rules`]. The same seed
/// gives the same run.
pub fn run_algorithm_a(
    net: &WormNet,
    messages: &[Message],
    params: &AlgorithmA,
    rng: &mut ChaCha8Rng,
) -> Result<AlgorithmARun, AlgorithmAError> {
    check_k(params.k)?;
    if params.queue == 0 {
        return Err(AlgorithmAError::Engine(WormError::ZeroQueue));
    }
    if params.period == (Period::Doubling { max_passes: 0 }) {
        return Err(AlgorithmAError::NoPasses);
    }
    let law = params.lengths.check_spread(params.eps)?;
    let worms = draw_worms(net, messages, params, rng)?;
    let paths = worms
        .iter()
        .map(|w| fixed_path(net, w.src, w.dst, w.coins))
        .collect::<Result<Vec<_>, _>>()?;
    let lens: Vec<u32> = worms.iter().map(|w| w.len).collect();
    let routed: Vec<usize> = (0..worms.len())
        .filter(|&i| worms[i].src != worms[i].dst)
        .collect();
    let load = PathLoad::of(net, &paths, &lens, &routed, params.queue);
    let lg_p = lg_ceil(routed.len() as u64);
    let eta = load.dilation.min(load.longest);
    let mut arrival = vec![0u64; worms.len()];
    let ctx = Context {
        net,
        worms: &worms,
        paths: &paths,
        lens: &lens,
        params,
    };
    let passes = match params.period {
        Period::Theorem4 => {
            let period = 2 * load.dilation as u64 + load.longest as u64 * lg_p as u64;
            vec![
                ctx.pass(&routed, period, OnLate::Report, &mut arrival, 0, rng)?
                    .0,
            ]
        }
        Period::Doubling { max_passes } => {
            ctx.doubling(&routed, &load, max_passes, &mut arrival, rng)?
        }
    };
    let time: u64 = passes.iter().map(|p| p.time).sum();
    let (c, d, l) = (
        load.congestion as u64,
        load.dilation as u64,
        load.longest as u64,
    );
    let theorem4 = c * eta as u64 * (d + l * lg_p as u64);
    let theorem5 = c * d * l;
    Ok(AlgorithmARun {
        params: *params,
        processors: net.processors(),
        messages: messages.len() as u32,
        routed: routed.len() as u32,
        lg_p,
        law,
        drawn: LengthStats::of_sample(&routed.iter().map(|&i| lens[i]).collect::<Vec<_>>()),
        load,
        eta,
        passes,
        time,
        bounds: Bounds {
            theorem4,
            theorem4_ratio: ratio(time, theorem4),
            theorem5,
            theorem5_ratio: ratio(time, theorem5),
            lower: c * l + d,
            floor: load.floor,
        },
        arrival,
    })
}

/// What every pass of one run shares.
struct Context<'a> {
    net: &'a WormNet,
    worms: &'a [Worm],
    paths: &'a [Vec<u32>],
    lens: &'a [u32],
    params: &'a AlgorithmA,
}

impl Context<'_> {
    /// One pass over `ids` with `period` steps per phase, its arrivals
    /// written to `arrival` shifted by `offset`; also the worms it left
    /// undelivered.
    fn pass(
        &self,
        ids: &[usize],
        period: u64,
        on_late: OnLate,
        arrival: &mut [u64],
        offset: u64,
        rng: &mut ChaCha8Rng,
    ) -> Result<(PassReport, Vec<usize>), AlgorithmAError> {
        let load = PathLoad::of(self.net, self.paths, self.lens, ids, self.params.queue);
        let eta = load.dilation.min(load.longest);
        let phases = phase_count(self.params.k, load.congestion, eta)?;
        let schedule = phases
            .checked_mul(period)
            .filter(|s| s.checked_add(offset).is_some())
            .ok_or(AlgorithmAError::Overflow { phases, period })?;
        let delta: Vec<u64> = ids.iter().map(|_| rng.gen_range(0..phases)).collect();
        let pass = Pass {
            net: self.net,
            worms: self.worms,
            paths: self.paths,
            ids,
            delta: &delta,
            period,
            phases,
            q: self.params.queue,
        };
        let run = pass.run(self.params.mode, on_late, rng)?;
        let mut left = Vec::new();
        for (&i, a) in ids.iter().zip(&run.arrival) {
            match a {
                Some(a) => arrival[i] = offset + a,
                None => left.push(i),
            }
        }
        let report = PassReport {
            worms: ids.len() as u32,
            load,
            eta,
            phases,
            period,
            busy_phases: run.busy_phases,
            schedule,
            time: run.time,
            eager: run.eager,
            overruns: run.overruns,
            end: run.end,
        };
        Ok((report, left))
    }

    /// Theorem 5: passes with `T = 2(d + L_M)` doubling until every worm
    /// arrives.
    fn doubling(
        &self,
        routed: &[usize],
        load: &PathLoad,
        max_passes: u32,
        arrival: &mut [u64],
        rng: &mut ChaCha8Rng,
    ) -> Result<Vec<PassReport>, AlgorithmAError> {
        let mut period = 2 * (load.dilation as u64 + load.longest as u64);
        let (mut left, mut passes) = (routed.to_vec(), Vec::<PassReport>::new());
        let mut offset = 0u64;
        while !left.is_empty() {
            if passes.len() as u32 == max_passes {
                return Err(AlgorithmAError::Undelivered {
                    passes: max_passes,
                    remaining: left.len() as u32,
                });
            }
            if let Some(last) = passes.last() {
                period = period.checked_mul(2).ok_or(AlgorithmAError::Overflow {
                    phases: last.phases,
                    period,
                })?;
            }
            let (report, next) = self.pass(&left, period, OnLate::Abort, arrival, offset, rng)?;
            offset += report.time;
            passes.push(report);
            left = next;
        }
        Ok(passes)
    }
}
