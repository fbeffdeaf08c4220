//! The fast engine: flat arrays, one ring buffer of capacity `q` per
//! queue, switches visited level by level from `n - 1` down to 0.
//!
//! Visiting the levels downwards makes the snapshot rule cheap: when a
//! switch of level `l` acts, the switches of level `l + 1` have already
//! taken their items for the step (so the start-of-step length of a
//! target queue is its length plus the one item taken from it, if any),
//! and no item has arrived at level `l` yet (its feeders, on level
//! `l - 1`, come later), so the switch sees its queues as they were at the
//! start of the step. Each queue has one feeder making at most one event
//! per step, so an item appended now is the only arrival of the step.

use super::{Until, WaveConfig, WaveError, WaveRun};
use crate::sim::packet::butterfly::{Butterfly, InEdge, Node, OutEdge};
use crate::sim::packet::traffic::Packet;

use super::check::Violation;

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

/// A queue's ring-buffer state: where its head is, how many items it
/// holds, and the last step an item left it.
#[derive(Clone, Copy, Default)]
struct Ring {
    head: u32,
    len: u32,
    taken_at: u64,
}

/// The state of a run.
struct Engine<'a> {
    n: u32,
    rows: usize,
    k: u32,
    q: u32,
    packets: &'a [Packet],
    /// `q` slots per queue; queue `2 s + e` for switch `s = (l - 1) N + c`.
    slots: Vec<u64>,
    rings: Vec<Ring>,
    peaks: Vec<u32>,
    /// The mode (0 or 1) of each switch of levels `1 .. n`.
    modes: Vec<u8>,
    /// Each input's position in its stream, `0 ..= 2k`.
    cursor: Vec<u32>,
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
    /// The queue at the end of the edge from `<l, c>` to `<l + 1, to>`
    /// (`l + 1 < n`): the receiver's in-edge is bit `l` of `c`.
    fn target(&self, l: u32, c: usize, to: usize) -> usize {
        2 * (l as usize * self.rows + to) + ((c >> l) & 1)
    }

    /// Whether the queue at the end of that edge had room at the start of
    /// step `t`; level `n` always has.
    fn room(&self, l: u32, c: usize, to: usize, t: u64) -> bool {
        if l + 1 == self.n {
            return true;
        }
        let r = &self.rings[self.target(l, c, to)];
        r.len + u32::from(r.taken_at == t) < self.q
    }

    fn head(&self, queue: usize) -> Option<u64> {
        let r = &self.rings[queue];
        (r.len > 0).then(|| self.slots[queue * self.q as usize + r.head as usize])
    }

    fn take(&mut self, queue: usize, t: u64) {
        let q = self.q;
        let r = &mut self.rings[queue];
        debug_assert!(r.len > 0);
        r.head = if r.head + 1 == q { 0 } else { r.head + 1 };
        r.len -= 1;
        r.taken_at = t;
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
        let q = self.q;
        let r = &mut self.rings[queue];
        debug_assert!(r.len < q);
        let mut at = r.head + r.len;
        if at >= q {
            at -= q;
        }
        r.len += 1;
        let len = r.len;
        self.slots[queue * q as usize + at as usize] = item;
        let peak = &mut self.peaks[queue];
        *peak = (*peak).max(len);
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
            if !self.room(0, c, to, t) {
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
            if !(self.room(0, c, c, t) && self.room(0, c, cross, t)) {
                return Ok(false);
            }
            self.send(0, c, c, TOKEN | pos as u64, t);
            self.send(0, c, cross, TOKEN | pos as u64, t);
            obs.moved(t, Move::Tokens { from })?;
        }
        self.cursor[c] = pos + 1;
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
                if !self.room(l, c, to, t) {
                    return Ok(false);
                }
                self.take(queue, t);
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
            if !(self.room(l, c, c, t) && self.room(l, c, cross, t)) {
                return Ok(false);
            }
            self.take(2 * s, t);
            self.take(2 * s + 1, t);
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
        slots: vec![0; queues * config.q as usize],
        rings: vec![Ring::default(); queues],
        peaks: vec![0; queues],
        modes: vec![0; queues / 2],
        cursor: vec![0; rows],
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
            for c in 0..rows {
                moved |= e.switch(l, c, t, obs)?;
            }
        }
        for c in 0..rows {
            moved |= e.input(c, t, obs)?;
        }
        if !moved {
            return Err(WaveError::Deadlock {
                step: t,
                undelivered: packets.len() as u64 - e.delivered,
            });
        }
        obs.step_done(t)?;
    }
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
        queue_peaks: e.peaks,
    })
}
