//! One level's sends in one step.
//!
//! A [`Frame`] holds the level's state as plain slices, split from the
//! engine's arrays for the duration of the sweep, and its tallies as
//! plain counters: the compiler keeps them in registers instead of
//! reloading every vector after every store. The queue model and whether
//! the receivers are switches or the sinks are compile-time parameters, so
//! each loop carries only its own tests.

use super::bank::{Len, View};
use super::step::{Departed, Recorder, GREEDY, HEAD, PER_EDGE, STICKY};
use super::{Engine, Oracle, Protocol, NONE};

/// The receivers are switches.
const SWITCHES: u8 = 0;
/// The receivers are the sinks of level `n`.
const SINKS: u8 = 1;
/// Bitset words whose heads the FIFO sweep reads ahead at once.
const CHUNK: usize = 8;
use rand_chacha::ChaCha8Rng;

/// What a sweep moved.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Tally {
    /// Packets sent (accepted at level `l + 1` or delivered).
    pub(super) sent: u64,
    /// Of those, packets sent across.
    pub(super) across: u64,
    /// Packets delivered to the sinks.
    pub(super) delivered: u64,
    /// Packets sent back to level 0 through the wraparound.
    pub(super) wrapped: u64,
    /// The longest queue an arrival made.
    pub(super) longest: u32,
}

/// Where packets reaching level `n` go: delivered, or, on the first leg of
/// a two-leg run, to level 0 through the wraparound.
pub(super) struct Sinks<'a> {
    pub(super) arrival: &'a mut [u32],
    /// The delivery order from this sweep's first delivery on.
    pub(super) order: &'a mut [u32],
    /// Two-leg runs: each packet's second-leg destination (else empty).
    pub(super) finals: &'a [u64],
    /// Two-leg runs: the step each packet finished its first leg (else
    /// empty).
    pub(super) wrapped: &'a mut [u32],
    /// The packets wrapped this step and their rows, to be queued at
    /// level 0 when the step ends.
    pub(super) pending: &'a mut [(u32, u32)],
    pub(super) delivered: usize,
    pub(super) wraps: usize,
}

impl Sinks<'_> {
    /// The same sinks, borrowed anew (for a loop to hold in locals).
    #[inline(always)]
    fn reborrow(&mut self) -> Sinks<'_> {
        Sinks {
            arrival: &mut *self.arrival,
            order: &mut *self.order,
            finals: self.finals,
            wrapped: &mut *self.wrapped,
            pending: &mut *self.pending,
            delivered: self.delivered,
            wraps: self.wraps,
        }
    }

    /// Packet `id` reaches row `row` of level `n` in step `t`.
    #[inline(always)]
    fn reach(&mut self, id: u32, row: usize, t: u32, dest: &mut [u64]) {
        let i = id as usize;
        if !self.wrapped.is_empty() && self.wrapped[i] == NONE {
            self.wrapped[i] = t;
            dest[i] = self.finals[i];
            self.pending[self.wraps] = (id, row as u32);
            self.wraps += 1;
        } else {
            self.arrival[i] = t;
            self.order[self.delivered] = id;
            self.delivered += 1;
        }
    }
}

/// Level `l`'s senders and level `l + 1`'s receivers during one sweep.
struct Frame<'a, LF, O, R> {
    l: u32,
    t: u32,
    protocol: Protocol,
    cap: u32,
    q: u32,
    /// Level `l`'s queues (`LF`: 32-bit lengths at level 0).
    from: View<'a, LF>,
    from_bits: &'a mut [u64],
    to: View<'a, u16>,
    to_bits: &'a mut [u64],
    /// Model T: the step each receiver last accepted.
    accepted: &'a mut [u32],
    /// Level `l`'s picks (sticky protocols only).
    selected: &'a mut [u32],
    /// Level `l + 1`'s departures this step (all clear when it was not
    /// swept).
    upper_once: &'a [u64],
    upper_twice: &'a [u64],
    current: &'a mut Departed,
    origin: &'a [u64],
    dest: &'a mut [u64],
    sinks: Sinks<'a>,
    rng: &'a mut ChaCha8Rng,
    oracle: &'a mut O,
    rec: &'a mut R,
    tally: Tally,
}

impl Engine {
    /// Every occupied node of level `l` sends what its protocol chooses.
    /// `above` says whether level `l + 1` was swept this step.
    pub(super) fn sweep<const MODE: u8, const MODEL: u8, O: Oracle, R: Recorder>(
        &mut self,
        l: u32,
        above: bool,
        rng: &mut ChaCha8Rng,
        oracle: &mut O,
        rec: &mut R,
    ) -> Tally {
        let (rows, words, lu) = (self.rows, self.words, l as usize);
        let last = l + 1 == self.n;
        let (lower, higher) = self.occupied.split_at_mut((lu + 1) * words);
        let from_bits = &mut lower[lu * words..];
        let to_bits = &mut higher[..if last { 0 } else { words }];
        // Switch queues: level `j` (from 1) is `(j - 1) N .. j N`.
        let hi = if last { lu * rows } else { (lu + 1) * rows };
        let accepted = if self.accepted.is_empty() || last {
            &mut [][..]
        } else {
            &mut self.accepted[lu * rows..(lu + 1) * rows]
        };
        let selected = if self.selected.is_empty() {
            &mut [][..]
        } else {
            &mut self.selected[lu * rows..(lu + 1) * rows]
        };
        let upper = if above { &self.upper } else { &self.clear };
        // The frame over `from` and `to`: level 0's queues and the
        // switches' differ in the width of their lengths.
        macro_rules! frame {
            ($from:expr, $to:expr) => {
                Frame {
                    l,
                    t: self.t,
                    protocol: self.config.protocol,
                    cap: self.cap,
                    q: self.config.q,
                    from: $from,
                    from_bits,
                    to: $to,
                    to_bits,
                    accepted,
                    selected,
                    upper_once: &upper.once,
                    upper_twice: &upper.twice,
                    current: &mut self.current,
                    origin: &self.origin,
                    dest: &mut self.dest,
                    sinks: Sinks {
                        arrival: &mut self.arrival,
                        order: &mut self.order[self.delivered..],
                        finals: &self.finals,
                        wrapped: &mut self.wrapped,
                        pending: &mut self.pending,
                        delivered: 0,
                        wraps: 0,
                    },
                    rng,
                    oracle,
                    rec,
                    tally: Tally::default(),
                }
            };
        }
        if l == 0 {
            let to = self.switch.split(0, 0, hi).1;
            frame!(self.inject.view(), to).run::<MODE, MODEL>(last, words)
        } else {
            let (from, to) = self.switch.split((lu - 1) * rows, lu * rows, hi);
            frame!(from, to).run::<MODE, MODEL>(last, words)
        }
    }
}

impl<LF: Len, O: Oracle, R: Recorder> Frame<'_, LF, O, R> {
    /// Sweeps the level (into the sinks if it is the last) and returns
    /// what moved.
    fn run<const MODE: u8, const MODEL: u8>(mut self, last: bool, words: usize) -> Tally {
        if last {
            self.rows::<MODE, MODEL, SINKS>(words);
        } else {
            self.rows::<MODE, MODEL, SWITCHES>(words);
        }
        self.tally.delivered = self.sinks.delivered as u64;
        self.tally.wrapped = self.sinks.wraps as u64;
        self.tally
    }

    /// Walks the occupied rows of the level's `words` bitset words.
    #[inline(always)]
    fn rows<const MODE: u8, const MODEL: u8, const TO: u8>(&mut self, words: usize) {
        if MODE == HEAD {
            return self.heads::<MODEL, TO>(words);
        }
        for w in 0..words {
            self.current.clear::<MODE>(w);
            // Arrivals at level l come later in the step; departures clear
            // bits of rows this copy has passed.
            let mut bits = self.from_bits[w];
            while bits != 0 {
                let row = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                match MODE {
                    STICKY => self.serve_sticky::<MODEL, TO>(row),
                    _ => self.serve_per_edge::<MODEL, TO>(row),
                }
            }
        }
    }

    /// The sweep of FIFO without an oracle, where a node's pick is its
    /// head: the same moves as [`Self::offer`] and [`Self::depart`] give
    /// under [`STICKY`] (the tests compare the two), written with the
    /// frame's fields in locals and each bitset word updated once per word
    /// rather than once per packet, as this is the loop the throughput
    /// target is measured on.
    #[inline(never)]
    fn heads<const MODEL: u8, const TO: u8>(&mut self, words: usize) {
        let (l, t, cap, q) = (self.l, self.t, self.cap as usize, self.q as usize);
        let bit = 1usize << l;
        // Locals, not fields: stores through one slice cannot change
        // another's pointer, so none is reloaded inside the loop.
        let dest: &mut [u64] = self.dest;
        let upper: &[u64] = self.upper_once;
        let to_bits: &mut [u64] = self.to_bits;
        let from_bits: &mut [u64] = self.from_bits;
        let gone_bits: &mut [u64] = &mut self.current.once;
        let mut sinks = self.sinks.reborrow();
        let accepted: &mut [u32] = self.accepted;
        let mut from = self.from.reborrow();
        let mut to = self.to.reborrow();
        let rec = &mut *self.rec;
        // Counts below the number of packets (< 2^32): no overflow.
        let (mut sent, mut across, mut longest) = (0usize, 0usize, 0u32);
        // The heads of a chunk of words and their next rows, read before
        // any of the chunk moves: the loads do not wait on each other, so
        // their cache misses overlap. Nothing a move of level `l` changes
        // is read here (a node's head changes only when it sends, and
        // arrivals at level `l` come in a later sweep).
        let mut ahead = [(0u32, 0u32, 0u32); 64 * CHUNK];
        let (mut held, mut gone) = ([0u64; CHUNK], [0u64; CHUNK]);
        for w0 in (0..words).step_by(CHUNK) {
            let w1 = (w0 + CHUNK).min(words);
            let mut k = 0;
            for w in w0..w1 {
                let mut rest = from_bits[w];
                held[w - w0] = rest;
                gone[w - w0] = 0;
                while rest != 0 {
                    let row = w * 64 + rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let id = from.head(row);
                    let target = (row & !bit) | (dest[id as usize] as usize & bit);
                    // Rows are below 2^31 (`MAX_N`).
                    ahead[k] = (id, target as u32, row as u32);
                    k += 1;
                }
            }
            for &(id, target, row) in &ahead[..k] {
                let (target, row) = (target as usize, row as usize);
                if TO == SINKS {
                    sinks.reach(id, target, t, dest);
                } else {
                    let len = to.len(target);
                    let (tw, tb) = (target / 64, target % 64);
                    let left = ((upper[tw] >> tb) & 1) as usize;
                    if MODEL == GREEDY {
                        if len + left >= cap {
                            continue;
                        }
                    } else {
                        let took = (accepted[target] == t) as usize;
                        if len - took + left > q {
                            continue;
                        }
                        accepted[target] = t;
                    }
                    let len = to.push(target, id);
                    longest = longest.max(len);
                    if len == 1 {
                        to_bits[tw] |= 1 << tb;
                    }
                }
                let cross = (target != row) as usize;
                sent = sent.wrapping_add(1);
                across = across.wrapping_add(cross);
                rec.hop(t, l, row, cross, id);
                let (rw, rb) = (row / 64 - w0, row % 64);
                if from.pop_front(row) == 0 {
                    held[rw] &= !(1 << rb);
                }
                gone[rw] |= 1 << rb;
            }
            from_bits[w0..w1].copy_from_slice(&held[..w1 - w0]);
            gone_bits[w0..w1].copy_from_slice(&gone[..w1 - w0]);
        }
        let (delivered, wraps) = (sinks.delivered, sinks.wraps);
        self.sinks.delivered = delivered;
        self.sinks.wraps = wraps;
        self.tally = Tally {
            sent: sent as u64,
            across: across as u64,
            longest,
            ..Tally::default()
        };
    }

    /// A nonpredictive node sends the packet it picked, picking one first
    /// if it holds none.
    #[inline(always)]
    fn serve_sticky<const MODEL: u8, const TO: u8>(&mut self, row: usize) {
        let held = self.selected[row];
        let (at, id) = if held == NONE {
            let from = &self.from;
            let len = from.len(row);
            let at = self
                .protocol
                .select(len, |i| from.get(row, i), self.origin, self.rng);
            let id = from.get(row, at);
            self.selected[row] = id;
            self.oracle.on_select(self.l, row as u64, id, self.dest);
            (at, id)
        } else if self.protocol == Protocol::Fifo {
            // Only the picked packet leaves, so it stays the head.
            (0, held)
        } else {
            let at = self.from.items(row).position(|x| x == held);
            let at = at.unwrap_or_else(|| {
                unreachable!(
                    "the picked packet {held} left node ({}, {row}) unsent",
                    self.l
                )
            });
            (at, held)
        };
        debug_assert_eq!(self.from.get(row, at), id);
        if self.offer::<STICKY, MODEL, TO>(row, id) {
            self.depart::<STICKY>(row, at);
            self.selected[row] = NONE;
        }
    }

    /// A per-edge node sends on each out-edge the oldest packet wanting it.
    #[inline(always)]
    fn serve_per_edge<const MODEL: u8, const TO: u8>(&mut self, row: usize) {
        let bit = 1u64 << self.l;
        let mut first = [None, None];
        for (i, id) in self.from.items(row).enumerate() {
            let cross = ((self.dest[id as usize] ^ row as u64) & bit != 0) as usize;
            if first[cross].is_none() {
                first[cross] = Some((i, id));
                if first[1 - cross].is_some() {
                    break;
                }
            }
        }
        let mut sent = [None, None];
        for (e, f) in first.iter().enumerate() {
            if let Some((i, id)) = *f {
                if self.offer::<PER_EDGE, MODEL, TO>(row, id) {
                    sent[e] = Some(i);
                }
            }
        }
        // Remove the later position first so the earlier stays put.
        let (a, b) = (sent[0], sent[1]);
        let (hi, lo) = if a > b { (a, b) } else { (b, a) };
        for i in [hi, lo].into_iter().flatten() {
            self.depart::<PER_EDGE>(row, i);
        }
    }

    /// Offers packet `id` at row `row` to its next node; on acceptance the
    /// packet is appended there (or delivered) and `true` is returned. The
    /// caller removes it from its queue.
    #[inline(always)]
    fn offer<const MODE: u8, const MODEL: u8, const TO: u8>(
        &mut self,
        row: usize,
        id: u32,
    ) -> bool {
        let bit = 1usize << self.l;
        let to = (row & !bit) | (self.dest[id as usize] as usize & bit);
        let cross = (to != row) as usize;
        if TO == SINKS {
            self.sinks.reach(id, to, self.t, self.dest);
        } else {
            let len = self.to.len(to) as u32;
            // What `to` held at the start of the step, plus what it has
            // accepted since (model G's test counts both).
            let (w, b) = (to / 64, to % 64);
            let mut sent = ((self.upper_once[w] >> b) & 1) as u32;
            if MODE == PER_EDGE {
                sent += ((self.upper_twice[w] >> b) & 1) as u32;
            }
            if MODEL == GREEDY {
                if len + sent >= self.cap {
                    return false;
                }
            } else {
                let took = (self.accepted[to] == self.t) as u32;
                if len - took + sent > self.q {
                    return false;
                }
                self.accepted[to] = self.t;
            }
            let len = self.to.push(to, id);
            self.tally.longest = self.tally.longest.max(len);
            if len == 1 {
                self.to_bits[w] |= 1 << b;
            }
        }
        self.tally.sent += 1;
        self.tally.across += cross as u64;
        self.rec.hop(self.t, self.l, row, cross, id);
        true
    }

    /// Removes the packet at position `at` of row `row`'s queue.
    #[inline(always)]
    fn depart<const MODE: u8>(&mut self, row: usize, at: usize) {
        if self.from.remove(row, at) == 0 {
            self.from_bits[row / 64] &= !(1 << (row % 64));
        }
        self.current.note::<MODE>(row);
    }
}
