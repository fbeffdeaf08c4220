//! The protocols of section 1.2: which packet a switch sends.
//!
//! A *nonpredictive* protocol picks one packet without looking at any
//! destination and keeps it picked until it has been sent. The engine
//! enforces both halves: `Protocol::select` is given the packets' ids
//! and origins only, never their destinations, and the engine calls it
//! only when the switch has no packet picked, so a refused packet stays
//! picked. A *greedy* protocol may look at destinations; `PerEdgeOldest`
//! does, sending on each out-edge the oldest packet that wants it.

use rand::Rng;

/// A switch's rule for choosing what to send.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Protocol {
    /// Nonpredictive: the oldest packet (the queue's head), one per step.
    Fifo,
    /// Nonpredictive: the newest packet, one per step.
    Lifo,
    /// Nonpredictive: the packet from the lowest-numbered input row (ties:
    /// the oldest), one per step.
    FixedPriority,
    /// Nonpredictive: a packet chosen uniformly by the seeded stream, one
    /// per step.
    RandomPick,
    /// Greedy, predictive: on each out-edge the oldest packet that wants
    /// it, up to two per step.
    PerEdgeOldest,
}

/// Whether a protocol is nonpredictive (picks one packet blind and keeps
/// it) or greedy and predictive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Picks one packet without looking at destinations; sticky.
    Nonpredictive,
    /// Looks at destinations; one packet per out-edge.
    PerEdge,
}

impl Protocol {
    /// Every protocol, in the order reports list them.
    pub const ALL: [Protocol; 5] = [
        Protocol::Fifo,
        Protocol::Lifo,
        Protocol::FixedPriority,
        Protocol::RandomPick,
        Protocol::PerEdgeOldest,
    ];

    /// Nonpredictive or per-edge greedy.
    pub fn kind(self) -> Kind {
        match self {
            Protocol::PerEdgeOldest => Kind::PerEdge,
            _ => Kind::Nonpredictive,
        }
    }

    /// The name the CLI and reports use.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Fifo => "fifo",
            Protocol::Lifo => "lifo",
            Protocol::FixedPriority => "fixed-priority",
            Protocol::RandomPick => "random-pick",
            Protocol::PerEdgeOldest => "per-edge-oldest",
        }
    }

    /// The position in a queue of `len` packets (at least one; `id(i)` the
    /// id of the packet at position `i`, 0 the oldest) of the packet a
    /// nonpredictive protocol picks; `origin[id]` is a packet's input row.
    /// Destinations are not passed: the choice cannot depend on them.
    #[inline]
    pub(crate) fn select(
        self,
        len: usize,
        id: impl Fn(usize) -> u32,
        origin: &[u64],
        rng: &mut impl Rng,
    ) -> usize {
        debug_assert!(len > 0);
        match self {
            Protocol::Fifo | Protocol::PerEdgeOldest => 0,
            Protocol::Lifo => len - 1,
            Protocol::FixedPriority => {
                let mut best = 0;
                for i in 1..len {
                    if origin[id(i) as usize] < origin[id(best) as usize] {
                        best = i;
                    }
                }
                best
            }
            Protocol::RandomPick => rng.gen_range(0..len),
        }
    }
}
