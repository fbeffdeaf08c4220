//! The experiments E2 .. E10 of `docs/simulation.md` (k-k routing on
//! meshes and tori) as
//! presets: each is one or more sweeps, the cartesian product of its
//! lists.

use crate::sim::mesh::algorithm::Algorithm;
use crate::sim::mesh::bounds::Switching;
use crate::sim::mesh::traffic::Workload;
use crate::sim::mesh::{Phasing, Strategy, Topology};

/// `--smear`: queue smearing before every phase after the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SmearArg {
    /// No smearing.
    Off,
    /// Blocks of `ceil(k lg n)` PUs (Theorem 6), at most n.
    Auto,
    /// Blocks of this many PUs.
    Block(u32),
}

impl SmearArg {
    /// The block size for `k` packets per PU on side `n`.
    pub fn block(self, k: u32, n: u32) -> Option<u32> {
        match self {
            SmearArg::Off => None,
            SmearArg::Auto => {
                Some(((f64::from(k) * f64::from(n).log2()).ceil() as u32).clamp(1, n))
            }
            SmearArg::Block(m) => Some(m.min(n)),
        }
    }

    /// As the report names it.
    pub fn text(self) -> String {
        match self {
            SmearArg::Off => "off".to_string(),
            SmearArg::Auto => "auto".to_string(),
            SmearArg::Block(m) => m.to_string(),
        }
    }
}

/// A preset experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Experiment {
    /// NoWrapRoute on the mesh: n 32 .. 128, k 1 .. 32, LS, PR, random.
    E2,
    /// WrapRoute on the torus and the mesh, NoWrapRoute on the torus.
    E3,
    /// The conflict strategies under NoWrapRoute and WrapRoute.
    E4,
    /// Cut-through worms of k flits.
    E5,
    /// Barrier, coalesced and fixed phases, k = 6 included.
    E6,
    /// Queues against k, with and without smearing.
    E7,
    /// Three dimensions.
    E8,
    /// Locality L on the torus, known (LocalRoute) and unknown (NoLRoute).
    E9,
    /// LevelRoute against its strip height.
    E10,
}

impl Experiment {
    /// Trials per cell unless `--trials` says otherwise.
    pub fn trials(self) -> u64 {
        match self {
            Experiment::E2 => 10,
            _ => 5,
        }
    }
}

/// One cartesian product of lists.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// Algorithms.
    pub algorithm: Vec<Algorithm>,
    /// Topologies.
    pub topology: Vec<Topology>,
    /// Sides.
    pub size: Vec<u32>,
    /// Dimension.
    pub dims: u32,
    /// Packets per PU.
    pub k: Vec<u32>,
    /// Problems.
    pub traffic: Vec<Workload>,
    /// Strategies.
    pub strategy: Vec<Strategy>,
    /// Phase controls.
    pub phases: Vec<Phasing>,
    /// Packets or worms.
    pub switching: Switching,
    /// L values.
    pub locality: Vec<u32>,
    /// ε values.
    pub strip: Vec<u32>,
    /// Smearing.
    pub smear: Vec<SmearArg>,
}

impl Sweep {
    fn base(algorithm: Algorithm, topology: Topology) -> Sweep {
        Sweep {
            algorithm: vec![algorithm],
            topology: vec![topology],
            size: vec![64],
            dims: 2,
            k: vec![8],
            traffic: vec![Workload::Ls],
            strategy: vec![Strategy::FarthestFirst],
            phases: vec![Phasing::Barrier],
            switching: Switching::StoreAndForward,
            locality: vec![8],
            strip: vec![8],
            smear: vec![SmearArg::Off],
        }
    }
}

/// The sweeps of `e`.
pub fn sweeps(e: Experiment) -> Vec<Sweep> {
    use Algorithm::*;
    use Topology::*;
    let b = Sweep::base;
    match e {
        Experiment::E2 => vec![Sweep {
            size: vec![32, 64, 128],
            k: vec![1, 2, 4, 6, 8, 16, 32],
            traffic: vec![Workload::Ls, Workload::Pr, Workload::Random],
            ..b(NoWrap, Mesh)
        }],
        Experiment::E3 => vec![
            Sweep {
                topology: vec![Torus, Mesh],
                size: vec![32, 64, 128],
                k: vec![1, 4, 8, 16, 32],
                traffic: vec![Workload::Ls, Workload::Random],
                ..b(Wrap, Torus)
            },
            Sweep {
                size: vec![32, 64, 128],
                k: vec![1, 4, 8, 16, 32],
                traffic: vec![Workload::Ls, Workload::Random],
                ..b(NoWrap, Torus)
            },
        ],
        Experiment::E4 => [b(NoWrap, Mesh), b(Wrap, Torus)]
            .into_iter()
            .map(|s| Sweep {
                k: vec![4, 8, 16],
                strategy: vec![
                    Strategy::FarthestFirst,
                    Strategy::FarthestOrigin,
                    Strategy::NearestFirst,
                    Strategy::Fifo,
                    Strategy::Random,
                ],
                ..s
            })
            .collect(),
        Experiment::E5 => [b(NoWrap, Mesh), b(Wrap, Torus)]
            .into_iter()
            .map(|s| Sweep {
                size: vec![32, 64, 128],
                k: vec![2, 4, 8, 16],
                traffic: vec![Workload::Ls, Workload::Random],
                switching: Switching::CutThrough,
                ..s
            })
            .collect(),
        Experiment::E6 => vec![Sweep {
            size: vec![64, 128],
            k: vec![2, 4, 6, 8, 16],
            phases: vec![Phasing::Barrier, Phasing::Coalesced, Phasing::Fixed],
            ..b(NoWrap, Mesh)
        }],
        Experiment::E7 => vec![Sweep {
            k: vec![2, 4, 8, 16, 32],
            traffic: vec![Workload::Random],
            smear: vec![SmearArg::Off, SmearArg::Auto],
            ..b(NoWrap, Mesh)
        }],
        Experiment::E8 => [b(NoWrap, Mesh), b(Wrap, Torus)]
            .into_iter()
            .map(|s| Sweep {
                size: vec![16, 32],
                dims: 3,
                k: vec![4, 12, 24],
                traffic: vec![Workload::Ls, Workload::Random],
                ..s
            })
            .collect(),
        Experiment::E9 => vec![Sweep {
            algorithm: vec![Local, LocalUnknown],
            size: vec![128],
            k: vec![8, 16],
            traffic: vec![Workload::Local],
            locality: vec![8, 16, 32],
            ..b(Local, Torus)
        }],
        Experiment::E10 => vec![Sweep {
            k: vec![2, 4, 6, 8],
            traffic: vec![Workload::Ls, Workload::Pr],
            strip: vec![4, 8, 16],
            ..b(Level, Mesh)
        }],
    }
}
