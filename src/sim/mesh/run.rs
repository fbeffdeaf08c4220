//! One trial of a mesh routing setup: the problem, the plan, the run, and
//! the run held against every lower bound.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::algorithm::nol::Flood;
use super::algorithm::{self, smear, Algorithm, Params, PhaseKind};
use super::bounds::{self, Lead, LowerBounds, Setting, Switching};
use super::engine::{self, Config, Outcome};
use super::plan::{Gates, Leg, Phasing, Strategy};
use super::shape::{Pu, Shape, Topology};
use super::traffic::{Problem, Workload};
use super::worm;
use super::MeshError;

/// Everything a trial needs besides its random stream.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// The array.
    pub shape: Shape,
    /// Packets per PU; under cut-through, flits of the one worm per PU.
    pub k: u32,
    /// The problem.
    pub workload: Workload,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// L, ε and smearing.
    pub params: Params,
    /// Who wins a link.
    pub strategy: Strategy,
    /// When phases start.
    pub phasing: Phasing,
    /// Packets or worms.
    pub switching: Switching,
}

impl Setup {
    /// The setting the paper's leading terms depend on.
    pub fn setting(&self) -> Setting {
        Setting {
            shape: self.shape,
            k: self.k,
            algorithm: self.algorithm,
            strategy: self.strategy,
            switching: self.switching,
            locality: self.params.locality,
            strip: self.params.strip,
        }
    }

    /// Refuses a setup that cannot run, before any work: the problem, the
    /// algorithm's parameters, and the phase control.
    pub fn check(&self) -> Result<(), MeshError> {
        let n = self.shape.side;
        let (l, topology) = (self.params.locality, self.shape.topology);
        match self.workload {
            Workload::Ls if n % 2 == 1 => return Err(MeshError::OddShift(n)),
            Workload::Local
                if l == 0 || l > n / 2 || (topology == Topology::Mesh && n % (2 * l) != 0) =>
            {
                return Err(MeshError::Locality { l, n, topology })
            }
            _ => {}
        }
        match self.algorithm {
            Algorithm::Level if self.switching == Switching::CutThrough => {
                return Err(MeshError::LevelWorms)
            }
            Algorithm::Local if l == 0 || l > n => return Err(MeshError::LocalRadius { l, n }),
            Algorithm::LocalUnknown
                if topology != Topology::Torus
                    || self.shape.dims != 2
                    || self.phasing != Phasing::Barrier =>
            {
                return Err(MeshError::NoLSetting)
            }
            Algorithm::Level if self.shape.dims != 2 || self.k % 2 == 1 => {
                return Err(MeshError::LevelShape {
                    dims: self.shape.dims,
                    k: self.k,
                })
            }
            Algorithm::Level if self.params.strip == 0 || self.params.strip > n => {
                return Err(MeshError::Strip {
                    strip: self.params.strip,
                    n,
                })
            }
            _ => {}
        }
        if self.params.smear.is_some() && self.phasing != Phasing::Barrier {
            return Err(MeshError::SmearNeedsBarriers);
        }
        if self.phasing == Phasing::Fixed {
            let phases = self.algorithm.phases(self.shape.dims, self.k);
            if bounds::phase_leads(&self.setting(), phases).is_none() {
                return Err(MeshError::NoPhaseBounds(self.algorithm));
            }
        }
        Ok(())
    }

    /// The leading term, if the paper gives one (the locality algorithms'
    /// only on local traffic, whose L they are stated for).
    pub fn lead(&self) -> Option<Lead> {
        let local = matches!(self.algorithm, Algorithm::Local | Algorithm::LocalUnknown);
        if local && self.workload != Workload::Local {
            return None;
        }
        bounds::lead(&self.setting())
    }

    /// The error-term scale: `sqrt(k n ln n)` for packets, `k sqrt(n ln
    /// n)` for worms.
    pub fn scale(&self) -> f64 {
        let n = f64::from(self.shape.side);
        let k = f64::from(self.k);
        match self.switching {
            Switching::StoreAndForward => (k * n * n.ln()).sqrt(),
            Switching::CutThrough => k * (n * n.ln()).sqrt(),
        }
    }

    /// Fixed phase budgets: each phase's leading term plus twice the
    /// error scale, rounded up; smearing phases get twice their block.
    pub fn budgets(&self, kinds: &[PhaseKind]) -> Result<Vec<u64>, MeshError> {
        let main: Vec<PhaseKind> = kinds
            .iter()
            .copied()
            .filter(|&k| k != PhaseKind::Smear)
            .collect();
        let leads = bounds::phase_leads(&self.setting(), main.len())
            .ok_or(MeshError::NoPhaseBounds(self.algorithm))?;
        let mut leads = leads.into_iter();
        let slack = 2.0 * self.scale();
        Ok(kinds
            .iter()
            .map(|&kind| match kind {
                PhaseKind::Smear => 2 * u64::from(self.params.smear.unwrap_or(1)),
                _ => (leads.next().unwrap_or(0.0) + slack).ceil() as u64,
            })
            .collect())
    }
}

/// One trial's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    /// The run.
    pub outcome: Outcome,
    /// The instance's lower bounds.
    pub bounds: LowerBounds,
    /// What each phase did.
    pub kinds: Vec<PhaseKind>,
    /// NoLRoute's flood, if it ran.
    pub flood: Option<Flood>,
}

/// Runs trial `rng` of `setup`: draws the problem and the plan, routes it,
/// and asserts that T meets every lower bound that holds for the run.
pub fn run_trial(setup: &Setup, rng: &mut ChaCha8Rng) -> Result<Trial, MeshError> {
    setup.check()?;
    let shape = &setup.shape;
    // Worms: one per PU, its k flits sharing a destination.
    let (per_pu, flits) = match setup.switching {
        Switching::StoreAndForward => (setup.k, 1),
        Switching::CutThrough => (1, setup.k),
    };
    let problem = Problem::generate(shape, per_pu, setup.workload, setup.params.locality, rng)?;
    let routing = algorithm::plan(shape, &problem, setup.algorithm, &setup.params, rng)?;
    let flood = routing.flood;
    let gates = match setup.phasing {
        Phasing::Barrier => Gates::Barrier,
        Phasing::Coalesced => Gates::Coalesced,
        Phasing::Fixed => Gates::Fixed(setup.budgets(&routing.kinds)?),
    };
    let config = Config {
        strategy: setup.strategy,
        gates,
        seed: rng.gen(),
    };
    let kinds = routing.kinds.clone();
    let mut plan = routing.plan;
    let m = setup.params.smear.unwrap_or(1);
    let mut hook = |j: usize, at: &[Pu], legs: &mut [Leg]| {
        if kinds[j] == PhaseKind::Smear {
            smear::targets(shape, at, legs, m);
        }
    };
    let outcome = match setup.switching {
        Switching::StoreAndForward => {
            engine::route_with(shape, &problem.source, &mut plan, &config, &mut hook)
        }
        Switching::CutThrough => {
            worm::route_with(shape, &problem.source, flits, &mut plan, &config, &mut hook)
        }
    };
    let mut outcome = outcome;
    if let Some(f) = flood {
        wait_for_step_n(&mut outcome, u64::from(shape.side), f.steps);
    }
    let bounds = LowerBounds::of(shape, &problem.with_flits(flits), flits);
    check_bounds(setup, &outcome, &bounds);
    assert_eq!(
        outcome.positions, problem.dest,
        "packets end at their destinations"
    );
    Ok(Trial {
        outcome,
        bounds,
        kinds,
        flood,
    })
}

/// T meets the distance, bisection and connection bounds always, and the
/// direction bound where it holds: on the mesh, and on the torus for
/// algorithms whose packets cover each axis the shorter way.
fn check_bounds(setup: &Setup, outcome: &Outcome, b: &LowerBounds) {
    let t = outcome.steps;
    assert!(
        t >= b.distance,
        "T = {t} below the distance bound {}",
        b.distance
    );
    assert!(
        t >= b.bisection,
        "T = {t} below the bisection bound {}",
        b.bisection
    );
    assert!(
        t >= b.connection,
        "T = {t} below connection availability {}",
        b.connection
    );
    if direction_bound_holds(setup) {
        assert!(
            t >= b.direction,
            "T = {t} below the direction bound {}",
            b.direction
        );
    }
}

/// Whether the direction bound binds the run: always on the mesh; on the
/// torus when every packet's moves along each axis net the shorter way.
pub fn direction_bound_holds(setup: &Setup) -> bool {
    setup.shape.topology == Topology::Mesh
        || matches!(setup.algorithm, Algorithm::Direct)
        || (setup.algorithm == Algorithm::Local && setup.workload == Workload::Local)
}

/// NoLRoute's first phase ends at step n, when every PU has learnt L
/// (the flood takes `flood_steps`, at most n on the torus, asserted):
/// under barriers the later phases start then, shifted unchanged.
fn wait_for_step_n(outcome: &mut Outcome, n: u64, flood_steps: u64) {
    assert!(
        flood_steps <= n,
        "the flood of L took {flood_steps} steps, more than n = {n}"
    );
    let pad = n.saturating_sub(outcome.phase_steps[0]);
    if pad == 0 {
        return;
    }
    outcome.phase_steps[0] += pad;
    outcome.phase_end[0] = outcome.phase_open[0] + outcome.phase_steps[0] - 1;
    for j in 1..outcome.phase_steps.len() {
        outcome.phase_open[j] += pad;
        if outcome.phase_end[j] > 0 {
            outcome.phase_end[j] += pad;
        }
    }
    outcome.steps += pad;
}
