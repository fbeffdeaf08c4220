//! The SYNC step (docs/simulation.md, wormhole routing): flits (or whole packets, as one-unit
//! worms) move between flit queues at the far ends of directed links.
//!
//! Step `t = 0, 1, ...`:
//! 1. every node looks at the front unit of each nonempty input, in its
//!    scan order ([`Scan`]); a head takes the first candidate link that no
//!    worm holds, that no unit has taken this step, and whose queue held
//!    fewer than `q` units at the start of the step, and the worm holds the
//!    link from then on; any other unit follows its head's link when it is
//!    unused this step and its queue had room;
//! 2. every processor whose ejection queue held a unit at the start of the
//!    step removes one;
//! 3. the moves are applied; a tail crossing a link releases it (for the
//!    next step, so the next worm's head follows with no bubble), and a
//!    tail entering its destination's ejection queue arrives at `t`.
//!
//! The latency is the step the last tail arrives.
//!
//! Most units wait most steps, so the engine does not look at them: an
//! input whose front unit is blocked by a link some worm holds or whose
//! queue is full sleeps on that link (on all its candidates, if every one
//! is blocked so) and wakes at the end of a step in which the link's
//! queue popped or the link was released, if that left it open (a head
//! needs it neither held nor full, a body flit needs room; a sleeper woken
//! while every link it waits on is still blocked would only sleep again,
//! and a pure draw is the same whoever looks; a link a head takes is
//! held from that moment, so a head that lost to another one sleeps too);
//! an input whose random up link was blocked while another was open tries
//! again next step. The random choices are
//! pure functions of the step and the place (module `draw`), so this gives
//! the same run as visiting every input every step (the tests compare the
//! two on every scheme and rule).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rand_chacha::ChaCha8Rng;

use super::draw::Draws;
use super::net::{WormNet, MAX_INPUTS};
use super::{Arbitration, PathRule, Scan, Worm, WormError};

pub(super) const NONE: u32 = u32::MAX;

/// The largest queue, in units.
pub const MAX_QUEUE: u32 = (1 << 15) - 1;

/// What the engine runs with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Queue capacity in units (flits, or packets for one-unit worms).
    pub q: u32,
    /// How a head chooses among up links.
    pub path: PathRule,
    /// The order a switch serves its inputs in.
    pub scan: Scan,
    /// Whether heads compete in scan order or by priority.
    pub arbitration: Arbitration,
}

/// The outcome of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The step the last tail entered its ejection queue (0 when every
    /// worm is its own destination).
    pub latency: u64,
    /// Per worm, the step its tail entered its ejection queue (0 for a
    /// worm to its own source).
    pub arrival: Vec<u64>,
    /// Realized congestion: the most worms whose heads crossed one
    /// directed link (injection and ejection links included).
    pub congestion: u32,
    /// Dilation: the longest path taken, in links.
    pub dilation: u32,
    /// Link crossings of all units.
    pub unit_hops: u64,
    /// Per worm, the links its head took.
    pub paths: Vec<Vec<u32>>,
}

impl Outcome {
    /// The outcome from an engine's final state: per worm its path
    /// (`stride` links each, `NONE` past its end) and its arrival, per link
    /// the heads that crossed it, and the unit-hops.
    pub(super) fn assemble(
        path: &[u32],
        stride: usize,
        arrival: Vec<u64>,
        crossings: &[u32],
        unit_hops: u64,
    ) -> Outcome {
        let paths: Vec<Vec<u32>> = path
            .chunks(stride)
            .map(|p| p[..p.iter().take_while(|&&e| e != NONE).count()].to_vec())
            .collect();
        Outcome {
            latency: arrival.iter().copied().max().unwrap_or(0),
            congestion: crossings.iter().copied().max().unwrap_or(0),
            dilation: paths.iter().map(|p| p.len() as u32).max().unwrap_or(0),
            arrival,
            unit_hops,
            paths,
        }
    }
}

/// A set of small integers as a bitset, walked in increasing order.
pub(super) struct Bits(Vec<u64>);

impl Bits {
    pub(super) fn new(size: u32) -> Self {
        Bits(vec![0; (size as usize).div_ceil(64)])
    }

    #[inline]
    pub(super) fn set(&mut self, i: u32) {
        self.0[i as usize / 64] |= 1 << (i % 64);
    }

    #[inline]
    pub(super) fn clear(&mut self, i: u32) {
        self.0[i as usize / 64] &= !(1 << (i % 64));
    }

    /// The members, in increasing order, into `out`, leaving the set
    /// empty.
    pub(super) fn take(&mut self, out: &mut Vec<u32>) {
        out.clear();
        for (w, word) in self.0.iter_mut().enumerate() {
            let mut b = std::mem::take(word);
            while b != 0 {
                out.push(w as u32 * 64 + b.trailing_zeros());
                b &= b - 1;
            }
        }
    }

    /// The members, in increasing order, into `out`.
    pub(super) fn collect(&self, out: &mut Vec<u32>) {
        out.clear();
        for (w, &word) in self.0.iter().enumerate() {
            let mut b = word;
            while b != 0 {
                out.push(w as u32 * 64 + b.trailing_zeros());
                b &= b - 1;
            }
        }
    }
}

/// Refuses runs that cannot start.
pub(super) fn check(net: &WormNet, worms: &[Worm], rules: Rules) -> Result<(), WormError> {
    if rules.q == 0 {
        return Err(WormError::ZeroQueue);
    }
    if rules.q > MAX_QUEUE {
        return Err(WormError::QueueTooLarge {
            q: rules.q,
            max: MAX_QUEUE,
        });
    }
    let n = net.processors();
    for (i, w) in worms.iter().enumerate() {
        if w.src >= n || w.dst >= n {
            return Err(WormError::Outside {
                worm: i,
                src: w.src,
                dst: w.dst,
                processors: n,
            });
        }
        if w.len == 0 || w.len > u16::MAX as u32 {
            return Err(WormError::Length {
                worm: i,
                len: w.len,
            });
        }
    }
    Ok(())
}

/// What an input does after its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// It moved, or may move next step: look again.
    Retry,
    /// Every candidate link is held or full: wait until one is neither.
    Sleep,
    /// A body flit whose link ahead is full: wait until it has room.
    Room,
}

mod fast;
mod links;

/// Routes `worms` over `net` under `rules`; `rng` gives the run's key for
/// the round-robin offsets and random up links.
pub fn run(
    net: &WormNet,
    worms: &[Worm],
    rules: Rules,
    rng: &mut ChaCha8Rng,
) -> Result<Outcome, WormError> {
    check(net, worms, rules)?;
    let mut e = fast::Engine::new(net, worms, rules, Draws::new(rng));
    e.route()?;
    Ok(e.finish())
}

/// The worms waiting for their release, earliest first.
type Timers = BinaryHeap<Reverse<(u64, u32)>>;

/// The scan of one node's awake inputs: `(key, position, input index)`.
type Order = [(u64, usize, usize); MAX_INPUTS];
