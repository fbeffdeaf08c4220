//! The fast engine: flat arrays, one ring buffer of capacity `q` per
//! queue, switches visited level by level from `n - 1` down to 0.
//!
//! Visiting the levels downwards makes the snapshot rule cheap: when a
//! switch of level `l` acts, the switches of level `l + 1` have already
//! taken their items for the step (so the start-of-step length of a
//! target queue is its length plus the one item taken from it, if any,
//! which a flag per queue of the level above records), and no item has
//! arrived at level `l` yet (its feeders, on level `l - 1`, come later),
//! so the switch sees its queues as they were at the start of the step.
//! Each queue has one feeder making at most one event per step, so an item
//! appended now is the only arrival of the step.

use super::{Until, WaveConfig, WaveError, WaveRun};
use crate::sim::packet::butterfly::{Butterfly, InEdge, Node, OutEdge};
use crate::sim::packet::traffic::Packet;

use super::Violation;

/// Where a transmitted packet was taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Feed {
    /// An input's initial stream (level 0).
    Input,
    /// The queue at the end of an in-edge (levels `1 .. n`).
    Queue(InEdge),
}

/// One transmission event, as the engine reports it to an observer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Move {
    /// A packet (by its index in the packet list) leaves `from` on `edge`.
    Packet {
        /// The sending switch.
        from: Node,
        /// Where it was.
        feed: Feed,
        /// The packet's index.
        packet: u32,
        /// The out-edge taken.
        edge: OutEdge,
    },
    /// A token pair: one token on each out-edge of `from`.
    Tokens {
        /// The sending switch.
        from: Node,
    },
}

/// Watches a run's transmissions. The engine reports each event of step
/// `t` and then the end of the step.
pub(super) trait Observer {
    /// A transmission in step `step`.
    fn moved(&mut self, step: u64, mv: Move) -> Result<(), Violation>;
    /// The end of step `step`.
    fn step_done(&mut self, step: u64) -> Result<(), Violation>;
}

/// The observer of an unchecked run: does nothing (and compiles away).
pub(super) struct Unwatched;

impl Observer for Unwatched {
    #[inline(always)]
    fn moved(&mut self, _: u64, _: Move) -> Result<(), Violation> {
        Ok(())
    }
    #[inline(always)]
    fn step_done(&mut self, _: u64) -> Result<(), Violation> {
        Ok(())
    }
}

/// The token flag of an item. A packet item is `destination << 32 | id`
/// (both below 2^31); a token item is `TOKEN | wave`.
const TOKEN: u64 = 1 << 63;

/// The width of each field of a queue's header word: head, length, peak.
const FIELD: u32 = 21;
const MASK: u64 = (1 << FIELD) - 1;
/// Queue capacities must fit a header field.
pub(super) const MAX_Q: u32 = (1 << FIELD) - 1;

/// The state of a run.
///
/// Each queue is a block of `q + 1` words: a header (head position,
/// length and peak length, [`FIELD`] bits each) and `q` ring-buffer slots.
/// Queue `2 s + e`, for switch `s = (l - 1) N + c` of level `l` and in-edge
/// `e`, starts at word `(2 s + e) (q + 1)`, so a switch's state is
/// contiguous and the sweep over a level is sequential.
struct Engine<'a> {
    n: u32,
    rows: usize,
    k: u32,
    q: u32,
    packets: &'a [Packet],
    words: Vec<u64>,
    /// The mode (0 or 1) of each switch of levels `1 .. n`.
    modes: Vec<u8>,
    /// Which queues of the level just swept (one above the level being
    /// swept) gave up an item this step, by `2 c + e`: their length at the
    /// start of the step is one more than now.
    taken_above: Vec<bool>,
    /// The same for the level being swept.
    taken_here: Vec<bool>,
    /// The items in the queues of each level: a level that holds none
    /// has nothing to do in the step, and its sweep is skipped.
    held: Vec<u64>,
    /// Each input's position in its stream, `0 ..= 2k`.
    cursor: Vec<u32>,
    /// Inputs whose stream is not yet sent.
    streaming: usize,
    arrivals: Vec<u64>,
    delivered: u64,
    tokens_absorbed: u64,
    packet_hops: u64,
    token_hops: u64,
}

/// The node reached from `<l, c>` on `edge`.
fn next_row(l: u32, c: usize, edge: OutEdge) -> usize {
    match edge {
        OutEdge::Straight => c,
        OutEdge::Cross => c ^ (1 << l),
    }
}

impl Engine<'_> {
    /// The first word of queue `queue`.
    fn base(&self, queue: usize) -> usize {
        queue * (self.q as usize + 1)
    }

    fn len(&self, queue: usize) -> u32 {
        ((self.words[self.base(queue)] >> FIELD) & MASK) as u32
    }

    /// The queue at the end of the edge from `<l, c>` to `<l + 1, to>`
    /// (`l + 1 < n`): the receiver's in-edge is bit `l` of `c`.
    fn target(&self, l: u32, c: usize, to: usize) -> usize {
        2 * (l as usize * self.rows + to) + ((c >> l) & 1)
    }

    /// Whether the queue at the end of that edge had room at the start of
    /// the step; level `n` always has.
    fn room(&self, l: u32, c: usize, to: usize) -> bool {
        if l + 1 == self.n {
            return true;
        }
        let queue = self.target(l, c, to);
        let taken = self.taken_above[2 * to + ((c >> l) & 1)];
        self.len(queue) + u32::from(taken) < self.q
    }

    fn head(&self, queue: usize) -> Option<u64> {
        let base = self.base(queue);
        let word = self.words[base];
        ((word >> FIELD) & MASK > 0).then(|| self.words[base + 1 + (word & MASK) as usize])
    }

    /// Removes the head of `queue`, the `e`-queue of row `c` of the level
    /// being swept.
    fn take(&mut self, l: u32, queue: usize, c: usize, e: usize) {
        self.held[l as usize] -= 1;
        let base = self.base(queue);
        let word = self.words[base];
        let (head, len) = (word & MASK, (word >> FIELD) & MASK);
        debug_assert!(len > 0);
        let head = if head + 1 == self.q as u64 {
            0
        } else {
            head + 1
        };
        self.words[base] = (word & !(MASK | MASK << FIELD)) | head | (len - 1) << FIELD;
        self.taken_here[2 * c + e] = true;
    }

    /// Hands `item` from `<l, c>` to `<l + 1, to>`: appended to a queue, or
    /// absorbed at level `n`.
    fn send(&mut self, l: u32, c: usize, to: usize, item: u64, t: u64) {
        if item & TOKEN == 0 {
            self.packet_hops += 1;
        } else {
            self.token_hops += 1;
        }
        if l + 1 == self.n {
            if item & TOKEN == 0 {
                self.arrivals[(item & 0xffff_ffff) as usize] = t;
                self.delivered += 1;
            } else {
                self.tokens_absorbed += 1;
            }
            return;
        }
        let queue = self.target(l, c, to);
        let base = self.base(queue);
        let word = self.words[base];
        let (head, len, peak) = (word & MASK, (word >> FIELD) & MASK, word >> (2 * FIELD));
        debug_assert!(len < self.q as u64);
        let mut at = head + len;
        if at >= self.q as u64 {
            at -= self.q as u64;
        }
        self.words[base + 1 + at as usize] = item;
        let len = len + 1;
        self.held[l as usize + 1] += 1;
        self.words[base] = head | len << FIELD | peak.max(len) << (2 * FIELD);
    }

    /// Step `t` at input `c`: the next item of its stream, if the targets
    /// have room. Returns whether it transmitted.
    fn input<O: Observer>(&mut self, c: usize, t: u64, obs: &mut O) -> Result<bool, Violation> {
        let pos = self.cursor[c];
        if pos == 2 * self.k {
            return Ok(false);
        }
        let from = Node {
            level: 0,
            row: c as u64,
        };
        if pos % 2 == 0 {
            let id = c * self.k as usize + (pos / 2) as usize;
            let dest = self.packets[id].destination;
            let edge = Butterfly::toward(from, dest);
            let to = next_row(0, c, edge);
            if !self.room(0, c, to) {
                return Ok(false);
            }
            self.send(0, c, to, dest << 32 | id as u64, t);
            obs.moved(
                t,
                Move::Packet {
                    from,
                    feed: Feed::Input,
                    packet: id as u32,
                    edge,
                },
            )?;
        } else {
            let cross = c ^ 1;
            if !(self.room(0, c, c) && self.room(0, c, cross)) {
                return Ok(false);
            }
            self.send(0, c, c, TOKEN | pos as u64, t);
            self.send(0, c, cross, TOKEN | pos as u64, t);
            obs.moved(t, Move::Tokens { from })?;
        }
        self.cursor[c] = pos + 1;
        if pos + 1 == 2 * self.k {
            self.streaming -= 1;
        }
        Ok(true)
    }

    /// Step `t` at switch `<l, c>`, `1 <= l < n`: the mode rules of section
    /// 4 with instantaneous mode changes. Returns whether it transmitted.
    fn switch<O: Observer>(
        &mut self,
        l: u32,
        c: usize,
        t: u64,
        obs: &mut O,
    ) -> Result<bool, Violation> {
        let s = (l as usize - 1) * self.rows + c;
        let mut mode = self.modes[s];
        let from = Node {
            level: l,
            row: c as u64,
        };
        loop {
            let queue = 2 * s + mode as usize;
            let Some(item) = self.head(queue) else {
                self.modes[s] = mode;
                return Ok(false);
            };
            if item & TOKEN == 0 {
                self.modes[s] = mode;
                let dest = item >> 32;
                let edge = Butterfly::toward(from, dest);
                let to = next_row(l, c, edge);
                if !self.room(l, c, to) {
                    return Ok(false);
                }
                self.take(l, queue, c, mode as usize);
                self.send(l, c, to, item, t);
                let feed = Feed::Queue(if mode == 0 { InEdge::Zero } else { InEdge::One });
                let packet = (item & 0xffff_ffff) as u32;
                obs.moved(
                    t,
                    Move::Packet {
                        from,
                        feed,
                        packet,
                        edge,
                    },
                )?;
                return Ok(true);
            }
            if mode == 0 {
                mode = 1;
                continue;
            }
            // Mode 1 with a token at the head of the 1-queue: the 0-queue's
            // head is the token that turned the mode, of the same wave.
            debug_assert_eq!(self.head(2 * s), Some(item));
            self.modes[s] = 1;
            let cross = c ^ (1 << l);
            if !(self.room(l, c, c) && self.room(l, c, cross)) {
                return Ok(false);
            }
            self.take(l, 2 * s, c, 0);
            self.take(l, 2 * s + 1, c, 1);
            self.send(l, c, c, item, t);
            self.send(l, c, cross, item, t);
            self.modes[s] = 0;
            obs.moved(t, Move::Tokens { from })?;
            return Ok(true);
        }
    }

    fn done(&self, until: Until) -> bool {
        let all = self.rows as u64 * self.k as u64;
        match until {
            Until::Delivered => self.delivered == all,
            // Every one of the 2N edges into level n carries k tokens.
            Until::Drained => self.delivered == all && self.tokens_absorbed == 2 * all,
        }
    }
}

/// Runs the validated problem under `obs`.
pub(super) fn run<O: Observer>(
    bfly: &Butterfly,
    packets: &[Packet],
    k: u32,
    config: &WaveConfig,
    obs: &mut O,
) -> Result<WaveRun, WaveError> {
    let n = bfly.n;
    let rows = bfly.rows() as usize;
    let queues = 2 * rows * n.saturating_sub(1) as usize;
    let mut e = Engine {
        n,
        rows,
        k,
        q: config.q,
        packets,
        words: vec![0; queues * (config.q as usize + 1)],
        modes: vec![0; queues / 2],
        taken_above: vec![false; 2 * rows],
        taken_here: vec![false; 2 * rows],
        held: vec![0; n as usize],
        cursor: vec![0; rows],
        streaming: rows,
        arrivals: vec![0; packets.len()],
        delivered: 0,
        tokens_absorbed: 0,
        packet_hops: 0,
        token_hops: 0,
    };
    let mut t = 0u64;
    // With n = 0 the inputs are the outputs: everything has arrived at 0.
    while n > 0 && !e.done(config.until) {
        t += 1;
        let mut moved = false;
        for l in (1..n).rev() {
            e.taken_here.fill(false);
            if e.held[l as usize] > 0 {
                for c in 0..rows {
                    moved |= e.switch(l, c, t, obs)?;
                }
            }
            std::mem::swap(&mut e.taken_here, &mut e.taken_above);
        }
        if e.streaming > 0 {
            for c in 0..rows {
                moved |= e.input(c, t, obs)?;
            }
        }
        if !moved {
            return Err(WaveError::Deadlock {
                step: t,
                undelivered: packets.len() as u64 - e.delivered,
            });
        }
        obs.step_done(t)?;
    }
    let queue_peaks = (0..queues)
        .map(|queue| (e.words[e.base(queue)] >> (2 * FIELD)) as u32)
        .collect();
    Ok(WaveRun {
        n,
        k,
        q: config.q,
        routing_time: e.arrivals.iter().copied().max().unwrap_or(0),
        delivered: if n == 0 {
            packets.len() as u64
        } else {
            e.delivered
        },
        arrivals: e.arrivals,
        packet_hops: e.packet_hops,
        token_hops: e.token_hops,
        steps: t,
        queue_peaks,
    })
}
