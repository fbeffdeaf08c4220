//! What each packet does in each phase: a [`Leg`] along one axis to a
//! target coordinate, and how phases start ([`Gates`]) and who wins a
//! link ([`Strategy`]).

use super::shape::Dir;

/// One packet's route in one phase: along `axis` to coordinate `target`,
/// the shorter way on the torus (`tie` when both ways are n/2 long).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leg {
    /// The axis, or [`Leg::IDLE_AXIS`] for a phase the packet sits out.
    pub axis: u8,
    /// The way taken on a torus when both are n/2 long.
    pub tie: Dir,
    /// The coordinate along `axis` the leg ends at.
    pub target: u16,
}

impl Leg {
    /// The axis value of an idle leg.
    pub const IDLE_AXIS: u8 = u8::MAX;

    /// A phase in which the packet does not move.
    pub const IDLE: Leg = Leg {
        axis: Leg::IDLE_AXIS,
        tie: Dir::Up,
        target: 0,
    };

    /// Along `axis` to `target`, ties upwards.
    pub fn to(axis: usize, target: u32) -> Leg {
        Leg::tied(axis, target, Dir::Up)
    }

    /// Along `axis` to `target`, ties towards `tie`.
    pub fn tied(axis: usize, target: u32, tie: Dir) -> Leg {
        Leg {
            axis: axis as u8,
            tie,
            target: target as u16,
        }
    }

    /// Whether the packet sits this phase out.
    pub fn is_idle(&self) -> bool {
        self.axis == Leg::IDLE_AXIS
    }
}

/// Every packet's legs, phase by phase: `legs[phase * packets + packet]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Number of packets.
    pub packets: usize,
    /// Number of phases.
    pub phases: usize,
    /// The legs, phase-major.
    pub legs: Vec<Leg>,
}

impl Plan {
    /// `phases` phases of idle legs for `packets` packets.
    pub fn idle(packets: usize, phases: usize) -> Plan {
        Plan {
            packets,
            phases,
            legs: vec![Leg::IDLE; packets * phases],
        }
    }

    /// The leg of `packet` in `phase`.
    pub fn leg(&self, phase: usize, packet: usize) -> Leg {
        self.legs[phase * self.packets + packet]
    }

    /// The legs of one phase, by packet.
    pub fn phase_mut(&mut self, phase: usize) -> &mut [Leg] {
        &mut self.legs[phase * self.packets..(phase + 1) * self.packets]
    }
}

/// Which candidate a directed link carries when several wait for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// Farthest-destination-first: the most hops left in this phase.
    #[cfg_attr(feature = "cli", value(name = "ff"))]
    #[serde(rename = "ff")]
    FarthestFirst,
    /// Farthest-origin-first: the most hops made in this phase.
    #[cfg_attr(feature = "cli", value(name = "farthest-origin"))]
    #[serde(rename = "farthest_origin")]
    FarthestOrigin,
    /// Farthest-total-first: the most hops left to the destination.
    #[cfg_attr(feature = "cli", value(name = "farthest-total"))]
    #[serde(rename = "farthest_total")]
    FarthestTotal,
    /// Nearest-first: the fewest hops left in this phase.
    #[cfg_attr(feature = "cli", value(name = "nearest"))]
    #[serde(rename = "nearest")]
    NearestFirst,
    /// First in, first out: the one waiting longest for this link.
    Fifo,
    /// A uniformly random candidate, drawn afresh every step.
    Random,
}

impl Strategy {
    /// Every strategy.
    pub const ALL: [Strategy; 6] = [
        Strategy::FarthestFirst,
        Strategy::FarthestOrigin,
        Strategy::FarthestTotal,
        Strategy::NearestFirst,
        Strategy::Fifo,
        Strategy::Random,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::FarthestFirst => "ff",
            Strategy::FarthestOrigin => "farthest-origin",
            Strategy::FarthestTotal => "farthest-total",
            Strategy::NearestFirst => "nearest",
            Strategy::Fifo => "fifo",
            Strategy::Random => "random",
        }
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How phases start, as the command line names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Phasing {
    /// Phase p + 1 starts the step after the last packet finishes phase p.
    Barrier,
    /// A packet starts its next phase as soon as it finishes one; lower
    /// phases win links.
    Coalesced,
    /// Each phase gets a fixed budget of steps; phase p + 1 starts when
    /// phase p's budget is spent, finished or not (lower phases win links).
    Fixed,
}

impl std::fmt::Display for Phasing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phasing::Barrier => "barrier",
            Phasing::Coalesced => "coalesced",
            Phasing::Fixed => "fixed",
        })
    }
}

/// When each phase may start, as the engine runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gates {
    /// [`Phasing::Barrier`].
    Barrier,
    /// [`Phasing::Coalesced`].
    Coalesced,
    /// [`Phasing::Fixed`] with each phase's budget of steps.
    Fixed(Vec<u64>),
}

impl Gates {
    /// The [`Phasing`] these gates realise.
    pub fn phasing(&self) -> Phasing {
        match self {
            Gates::Barrier => Phasing::Barrier,
            Gates::Coalesced => Phasing::Coalesced,
            Gates::Fixed(_) => Phasing::Fixed,
        }
    }

    /// Under fixed budgets, the first step of each phase.
    pub fn fixed_starts(&self, phases: usize) -> Option<Vec<u64>> {
        let Gates::Fixed(budgets) = self else {
            return None;
        };
        let mut starts = Vec::with_capacity(phases);
        let mut at = 1u64;
        for p in 0..phases {
            starts.push(at);
            at += budgets.get(p).copied().unwrap_or(0);
        }
        Some(starts)
    }
}
