//! The routing algorithms of Kaufmann and Sibeyn (docs/simulation.md), as
//! plans: each packet's color, random intermediates and legs, phase by
//! phase. All are oblivious except queue smearing, whose legs are decided
//! at each barrier from where the packets are ([`smear`]).

mod level;
pub mod nol;
pub mod smear;
#[cfg(test)]
mod tests;

use rand::Rng;

use super::plan::{Leg, Plan};
use super::shape::{Dir, Shape, Topology};
use super::traffic::Problem;
use super::MeshError;

/// A routing algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// NoWrapRoute(d) (sections 7.1 and 7.3): 2d - 1 phases; d - 1
    /// randomizations, then every axis to its destination (3 phases in
    /// 2-D: randomize, row, column).
    #[cfg_attr(feature = "cli", value(name = "nowrap"))]
    #[serde(rename = "nowrap")]
    NoWrap,
    /// WrapRoute(d) (sections 8.1 and 8.3): 2d phases; randomize every
    /// axis, then route every axis to its destination.
    Wrap,
    /// NoWrapRoute without its randomization: every axis straight to its
    /// destination, colors still rotating the axis order (the average-case
    /// remark of section 7.4).
    Direct,
    /// LocalRoute(L) (section 9): randomize one axis within L/2 (torus) or
    /// within its aligned block of L (mesh), then every axis to its
    /// destination.
    Local,
    /// NoLRoute (section 9.2; 2-D torus): L unknown, learnt by flooding
    /// while the packets randomize within 8n/k, then spread to L/2.
    #[cfg_attr(feature = "cli", value(name = "local-unknown"))]
    LocalUnknown,
    /// LevelRoute (section 6; 2-D, k even): k/2 levels in k/2 + 1 passes,
    /// each randomizing one level within its strip of rows and routing
    /// two levels at once.
    Level,
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Algorithm::NoWrap => "nowrap",
            Algorithm::Wrap => "wrap",
            Algorithm::Direct => "direct",
            Algorithm::Local => "local",
            Algorithm::LocalUnknown => "local-unknown",
            Algorithm::Level => "level",
        })
    }
}

impl Algorithm {
    /// The number of phases in `d` dimensions with `k` packets per PU,
    /// smearing aside.
    pub fn phases(self, d: usize, k: u32) -> usize {
        match self {
            Algorithm::NoWrap => 2 * d - 1,
            Algorithm::Wrap => 2 * d,
            Algorithm::Direct => d,
            Algorithm::Local => d + 1,
            Algorithm::LocalUnknown => 4,
            Algorithm::Level => k as usize + 2,
        }
    }
}

/// What a phase does, for the printout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PhaseKind {
    /// Packets move to random intermediate coordinates.
    Randomize,
    /// Packets move to their destination coordinates.
    Route,
    /// LevelRoute's pass: one level randomizes (step a).
    LevelSpread,
    /// LevelRoute's pass: two levels route (step b).
    LevelRoute,
    /// Queue smearing inside blocks before the next phase.
    Smear,
}

/// Parameters some algorithms read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// L, for [`Algorithm::Local`].
    pub locality: u32,
    /// ε, the strip height of [`Algorithm::Level`].
    pub strip: u32,
    /// Smear queues in blocks of this many PUs before every phase after
    /// the first (`None`: no smearing).
    pub smear: Option<u32>,
}

/// A plan with each packet's color and each phase's kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Routing {
    /// The legs.
    pub plan: Plan,
    /// Each packet's color (0 .. d; LevelRoute: 0 or 1).
    pub colors: Vec<u8>,
    /// What each phase does.
    pub kinds: Vec<PhaseKind>,
    /// NoLRoute's flood of L, if it ran.
    pub flood: Option<nol::Flood>,
}

/// The plan of `algorithm` for `problem` on `shape`, random choices from
/// `rng`.
pub fn plan<R: Rng>(
    shape: &Shape,
    problem: &Problem,
    algorithm: Algorithm,
    params: &Params,
    rng: &mut R,
) -> Result<Routing, MeshError> {
    let routing = match algorithm {
        Algorithm::Level => level::plan(shape, problem, params.strip, rng)?,
        Algorithm::LocalUnknown => nol::plan(shape, problem, rng).0,
        _ => axis_plan(shape, problem, algorithm, params.locality, rng)?,
    };
    if algorithm != Algorithm::Level {
        assert!(
            colors_keep_apart(shape, &routing),
            "two colors share an axis in one phase (Lemma 19)"
        );
    }
    Ok(match params.smear {
        Some(_) => smear::interleave(routing),
        None => routing,
    })
}

/// A leg's way at a torus tie: a fair coin (docs/simulation.md, k-k
/// routing, "Readings where the paper is open").
fn coin<R: Rng>(rng: &mut R) -> Dir {
    if rng.gen_bool(0.5) {
        Dir::Up
    } else {
        Dir::Down
    }
}

/// NoWrapRoute(d), WrapRoute(d), Direct and LocalRoute: each packet a
/// color `l`, and a sequence of axes offset by `l`.
fn axis_plan<R: Rng>(
    shape: &Shape,
    problem: &Problem,
    algorithm: Algorithm,
    locality: u32,
    rng: &mut R,
) -> Result<Routing, MeshError> {
    let d = shape.dims;
    let n = shape.side;
    // (axis offset, randomize?) per phase.
    let steps: Vec<(usize, PhaseKind)> = match algorithm {
        Algorithm::NoWrap => (0..d - 1)
            .map(|t| (t, PhaseKind::Randomize))
            .chain((0..d).map(|t| ((d - 1 + t) % d, PhaseKind::Route)))
            .collect(),
        Algorithm::Wrap => (0..d)
            .map(|t| (t, PhaseKind::Randomize))
            .chain((0..d).map(|t| (t, PhaseKind::Route)))
            .collect(),
        Algorithm::Direct => (0..d)
            .map(|t| ((d - 1 + t) % d, PhaseKind::Route))
            .collect(),
        Algorithm::Local => {
            if locality == 0 || locality > n {
                return Err(MeshError::LocalRadius { l: locality, n });
            }
            std::iter::once((0, PhaseKind::Randomize))
                .chain((1..=d).map(|t| (t % d, PhaseKind::Route)))
                .collect()
        }
        Algorithm::Level | Algorithm::LocalUnknown => unreachable!("{algorithm} has its own plan"),
    };
    let packets = problem.len();
    let mut plan = Plan::idle(packets, steps.len());
    let mut colors = vec![0u8; packets];
    for (p, c) in colors.iter_mut().enumerate() {
        let l = rng.gen_range(0..d);
        *c = l as u8;
        let mut at = problem.source[p];
        for (j, &(offset, kind)) in steps.iter().enumerate() {
            let axis = (l + offset) % d;
            let x = shape.coord(at, axis);
            let target = match kind {
                PhaseKind::Randomize if algorithm == Algorithm::Local => {
                    local_draw(shape, x, locality, rng)
                }
                PhaseKind::Randomize => rng.gen_range(0..n),
                _ => shape.coord(problem.dest[p], axis),
            };
            let tie = coin(rng);
            plan.phase_mut(j)[p] = Leg::tied(axis, target, tie);
            at = shape.with_coord(at, axis, target);
        }
    }
    Ok(Routing {
        plan,
        colors,
        kinds: steps.iter().map(|&(_, k)| k).collect(),
        flood: None,
    })
}

/// LocalRoute's intermediate from coordinate `x`: within `floor(L/2)` on
/// the torus (the shorter way is the move), uniform in `x`'s aligned block
/// of L on the mesh.
fn local_draw<R: Rng>(shape: &Shape, x: u32, l: u32, rng: &mut R) -> u32 {
    let n = shape.side;
    match shape.topology {
        Topology::Torus => {
            let r = (l / 2) as i64;
            let dx = rng.gen_range(-r..=r);
            (x as i64 + dx).rem_euclid(n as i64) as u32
        }
        Topology::Mesh => {
            let lo = x / l * l;
            rng.gen_range(lo..(lo + l).min(n))
        }
    }
}

/// Lemma 19's premise: in every phase, each axis carries packets of one
/// color only, so colors never share a link under barriers.
pub fn colors_keep_apart(shape: &Shape, routing: &Routing) -> bool {
    let plan = &routing.plan;
    (0..plan.phases).all(|j| {
        let mut owner = vec![u8::MAX; shape.dims];
        (0..plan.packets).all(|p| {
            let leg = plan.leg(j, p);
            if leg.is_idle() {
                return true;
            }
            let o = &mut owner[usize::from(leg.axis)];
            if *o == u8::MAX {
                *o = routing.colors[p];
            }
            *o == routing.colors[p]
        })
    })
}
