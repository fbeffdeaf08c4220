//! The engine's step loop.
//!
//! Each step sweeps the levels from `n - 1` down to 0, and each level its
//! occupied rows in increasing order. A receiver at level `l + 1` needs
//! its occupancy at the start of the step: that is its length now plus
//! what it sent this step, and it sent (if at all) in the sweep of level
//! `l + 1` just before, so the sweep keeps a bitset of that level's
//! departures ([`Departed`]) instead of stamping every switch.
//!
//! The sweep is compiled once per way of picking ([`HEAD`], [`STICKY`],
//! [`PER_EDGE`]) and once per [`Recorder`], so a plain FIFO run does no
//! pick bookkeeping and no hashing.

use super::{Bank, Config, Engine, EngineError, Kind, Oracle, Protocol, QueueModel, Run, NONE};
use crate::sim::packet::traffic::Packet;
use rand_chacha::ChaCha8Rng;

/// A nonpredictive FIFO switch without an oracle: the pick is the head,
/// which stays the head until it leaves, so nothing is remembered.
const HEAD: u8 = 0;
/// A nonpredictive switch that remembers its pick until it is sent.
const STICKY: u8 = 1;
/// A per-edge greedy switch: up to one packet on each out-edge.
const PER_EDGE: u8 = 2;

/// What a run keeps of its moves.
pub(super) trait Recorder {
    /// Packet `id` left node `(l, row)` in step `t`, across or straight.
    fn hop(&mut self, t: u32, l: u32, row: usize, cross: usize, id: u32);
}

/// Keeps nothing.
pub(super) struct Untraced;

impl Recorder for Untraced {
    #[inline(always)]
    fn hop(&mut self, _: u32, _: u32, _: usize, _: usize, _: u32) {}
}

/// Folds every move into one 64-bit digest.
pub(super) struct Digest(u64);

impl Digest {
    pub(super) fn new() -> Self {
        Digest(0xcbf2_9ce4_8422_2325)
    }

    pub(super) fn value(&self) -> u64 {
        self.0
    }
}

/// One word folded into the digest.
#[inline]
fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(29)
}

impl Recorder for Digest {
    #[inline]
    fn hop(&mut self, t: u32, l: u32, row: usize, cross: usize, id: u32) {
        let at = ((t as u64) << 40) ^ ((l as u64) << 34) ^ ((row as u64) << 1) ^ cross as u64;
        self.0 = mix(mix(self.0, at), id as u64);
    }
}

/// The departures of one level in the current step: a bit per row for the
/// first packet sent and one for the second (per-edge protocols only).
#[derive(Clone, Debug, Default)]
pub(super) struct Departed {
    once: Vec<u64>,
    twice: Vec<u64>,
}

impl Departed {
    pub(super) fn new(words: usize) -> Self {
        Departed {
            once: vec![0; words],
            twice: vec![0; words],
        }
    }

    /// Packets row `row` sent.
    #[inline(always)]
    fn count<const MODE: u8>(&self, row: usize) -> u32 {
        let (w, b) = (row / 64, row % 64);
        let once = ((self.once[w] >> b) & 1) as u32;
        if MODE == PER_EDGE {
            once + ((self.twice[w] >> b) & 1) as u32
        } else {
            once
        }
    }

    /// Notes one more packet sent from row `row`.
    #[inline(always)]
    fn note<const MODE: u8>(&mut self, row: usize) {
        let (w, bit) = (row / 64, 1u64 << (row % 64));
        if MODE == PER_EDGE && self.once[w] & bit != 0 {
            self.twice[w] |= bit;
        } else {
            self.once[w] |= bit;
        }
    }

    /// Forgets word `w`'s departures.
    #[inline(always)]
    fn clear<const MODE: u8>(&mut self, w: usize) {
        self.once[w] = 0;
        if MODE == PER_EDGE {
            self.twice[w] = 0;
        }
    }
}

impl Engine {
    pub(super) fn new(n: u32, packets: &[Packet], config: Config) -> Self {
        let rows = 1usize << n;
        let mut per_input = vec![0usize; rows];
        for p in packets {
            per_input[p.source as usize] += 1;
        }
        let k0 = per_input.iter().copied().max().unwrap_or(0);
        let mut inject = Bank::new(rows, k0);
        for (i, p) in packets.iter().enumerate() {
            inject.push(p.source as usize, i as u32);
        }
        let cap = match config.model {
            QueueModel::Greedy => config.q,
            QueueModel::Threshold => config.q + 2,
        };
        let switches = rows * n.saturating_sub(1) as usize;
        let words = rows.div_ceil(64);
        let mut occupied = vec![0u64; words * n as usize];
        let mut level_count = vec![0u64; n as usize + 1];
        if n > 0 {
            for (row, &c) in per_input.iter().enumerate() {
                if c > 0 {
                    occupied[row / 64] |= 1 << (row % 64);
                }
            }
            level_count[0] = packets.len() as u64;
        }
        let mut arrival = vec![NONE; packets.len()];
        if n == 0 {
            arrival.iter_mut().for_each(|a| *a = 0);
        }
        Engine {
            n,
            rows,
            config,
            cap,
            origin: packets.iter().map(|p| p.source).collect(),
            dest: packets.iter().map(|p| p.destination).collect(),
            arrival,
            order: if n == 0 {
                (0..packets.len() as u32).collect()
            } else {
                Vec::with_capacity(packets.len())
            },
            inject,
            switch: Bank::new(switches, cap as usize),
            selected: Vec::new(),
            accepted: match config.model {
                QueueModel::Greedy => Vec::new(),
                QueueModel::Threshold => vec![0; switches],
            },
            occupied,
            words,
            upper: Departed::new(words),
            current: Departed::new(words),
            level_count,
            remaining: if n == 0 { 0 } else { packets.len() as u64 },
            t: 0,
            max_switch: 0,
            link_use: vec![[0; 2]; n as usize],
        }
    }

    /// Steps until every packet is delivered.
    pub(super) fn route<O: Oracle, R: Recorder>(
        &mut self,
        rng: &mut ChaCha8Rng,
        oracle: &mut O,
        rec: &mut R,
    ) -> Result<(), EngineError> {
        match self.config.protocol.kind() {
            Kind::PerEdge => self.route_as::<PER_EDGE, O, R>(rng, oracle, rec),
            Kind::Nonpredictive if self.config.protocol == Protocol::Fifo && !O::WATCHES => {
                self.route_as::<HEAD, O, R>(rng, oracle, rec)
            }
            Kind::Nonpredictive => {
                self.selected = vec![NONE; self.rows * self.n as usize];
                self.route_as::<STICKY, O, R>(rng, oracle, rec)
            }
        }
    }

    fn route_as<const MODE: u8, O: Oracle, R: Recorder>(
        &mut self,
        rng: &mut ChaCha8Rng,
        oracle: &mut O,
        rec: &mut R,
    ) -> Result<(), EngineError> {
        while self.remaining > 0 {
            self.t += 1;
            let mut moved = 0;
            // Whether `upper` holds this step's departures of level l + 1.
            let mut above = false;
            for l in (0..self.n).rev() {
                if self.level_count[l as usize] == 0 {
                    above = false;
                    continue;
                }
                moved += self.sweep::<MODE, O, R>(l, above, rng, oracle, rec);
                std::mem::swap(&mut self.upper, &mut self.current);
                above = true;
            }
            if moved == 0 {
                return Err(EngineError::Deadlock {
                    step: self.t as u64,
                    remaining: self.remaining,
                });
            }
        }
        Ok(())
    }

    /// Every occupied node of level `l` sends; returns the packets moved.
    /// `above` says whether level `l + 1` was swept this step.
    #[inline(always)]
    fn sweep<const MODE: u8, O: Oracle, R: Recorder>(
        &mut self,
        l: u32,
        above: bool,
        rng: &mut ChaCha8Rng,
        oracle: &mut O,
        rec: &mut R,
    ) -> u64 {
        let mut used = [0u64; 2];
        let base = l as usize * self.words;
        for w in 0..self.words {
            self.current.clear::<MODE>(w);
            // Arrivals at level l come later in the step; departures only
            // clear bits of this copy's rows.
            let mut bits = self.occupied[base + w];
            while bits != 0 {
                let row = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                match MODE {
                    HEAD => {
                        let id = self.head(l, row);
                        if let Some(cross) = self.offer::<MODE, R>(l, row, id, above, rec) {
                            used[cross] += 1;
                            self.depart::<MODE>(l, row, 0);
                        }
                    }
                    STICKY => self.serve_sticky(l, row, above, &mut used, rng, oracle, rec),
                    _ => self.serve_per_edge(l, row, above, &mut used, rec),
                }
            }
        }
        let u = &mut self.link_use[l as usize];
        u[0] += used[0];
        u[1] += used[1];
        used[0] + used[1]
    }

    /// The oldest packet of node `(l, row)`, which holds some.
    #[inline(always)]
    fn head(&self, l: u32, row: usize) -> u32 {
        self.queue(l, row)[0]
    }

    /// The queue of node `(l, row)` (levels `0 .. n`).
    #[inline(always)]
    fn queue(&self, l: u32, row: usize) -> &[u32] {
        if l == 0 {
            self.inject.items(row)
        } else {
            self.switch.items((l as usize - 1) * self.rows + row)
        }
    }

    /// A nonpredictive node sends the packet it picked, picking one first
    /// if it holds none.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn serve_sticky<O: Oracle, R: Recorder>(
        &mut self,
        l: u32,
        row: usize,
        above: bool,
        used: &mut [u64; 2],
        rng: &mut ChaCha8Rng,
        oracle: &mut O,
        rec: &mut R,
    ) {
        let node = l as usize * self.rows + row;
        let held = self.selected[node];
        let (at, id) = if held == NONE {
            let queue = self.queue(l, row);
            let at = self.config.protocol.select(queue, &self.origin, rng);
            let id = queue[at];
            self.selected[node] = id;
            oracle.on_select(l, row as u64, id, &mut self.dest);
            (at, id)
        } else if self.config.protocol == Protocol::Fifo {
            // Only the picked packet leaves, so it stays the head.
            (0, held)
        } else {
            let at = self.queue(l, row).iter().position(|&x| x == held);
            let at = at.unwrap_or_else(|| {
                unreachable!("the picked packet {held} left node ({l}, {row}) unsent")
            });
            (at, held)
        };
        debug_assert_eq!(self.queue(l, row)[at], id);
        if let Some(cross) = self.offer::<STICKY, R>(l, row, id, above, rec) {
            used[cross] += 1;
            self.depart::<STICKY>(l, row, at);
            self.selected[node] = NONE;
        }
    }

    /// A per-edge node sends on each out-edge the oldest packet wanting it.
    #[inline(always)]
    fn serve_per_edge<R: Recorder>(
        &mut self,
        l: u32,
        row: usize,
        above: bool,
        used: &mut [u64; 2],
        rec: &mut R,
    ) {
        let bit = 1u64 << l;
        let queue = self.queue(l, row);
        let mut first = [None, None];
        for (i, &id) in queue.iter().enumerate() {
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
                if self.offer::<PER_EDGE, R>(l, row, id, above, rec).is_some() {
                    used[e] += 1;
                    sent[e] = Some(i);
                }
            }
        }
        // Remove the later position first so the earlier stays put.
        let (a, b) = (sent[0], sent[1]);
        let (hi, lo) = if a > b { (a, b) } else { (b, a) };
        for i in [hi, lo].into_iter().flatten() {
            self.depart::<PER_EDGE>(l, row, i);
        }
    }

    /// Offers packet `id` at node `(l, row)` to its next node; on
    /// acceptance the packet is appended there (or delivered) and the edge
    /// it took (0 straight, 1 across) is returned. The caller removes it
    /// from its queue. `above` says whether level `l + 1` sent this step.
    #[inline(always)]
    fn offer<const MODE: u8, R: Recorder>(
        &mut self,
        l: u32,
        row: usize,
        id: u32,
        above: bool,
        rec: &mut R,
    ) -> Option<usize> {
        let bit = 1usize << l;
        let to = (row & !bit) | (self.dest[id as usize] as usize & bit);
        let cross = (to != row) as usize;
        if l + 1 == self.n {
            self.arrival[id as usize] = self.t;
            self.order.push(id);
            self.remaining -= 1;
        } else {
            let u = l as usize * self.rows + to;
            let len = self.switch.len(u) as u32;
            // What `to` held at the start of the step, plus what it has
            // accepted since (model G's test counts both).
            let sent = if above {
                self.upper.count::<MODE>(to)
            } else {
                0
            };
            match self.config.model {
                QueueModel::Greedy => {
                    if len + sent >= self.cap {
                        return None;
                    }
                }
                QueueModel::Threshold => {
                    let took = (self.accepted[u] == self.t) as u32;
                    if len - took + sent > self.config.q {
                        return None;
                    }
                    self.accepted[u] = self.t;
                }
            }
            let len = self.switch.push(u, id);
            self.max_switch = self.max_switch.max(len);
            let lvl = l as usize + 1;
            self.occupied[lvl * self.words + to / 64] |= 1 << (to % 64);
            self.level_count[lvl] += 1;
        }
        rec.hop(self.t, l, row, cross, id);
        Some(cross)
    }

    /// Removes the packet at position `at` of node `(l, row)`'s queue.
    #[inline(always)]
    fn depart<const MODE: u8>(&mut self, l: u32, row: usize, at: usize) {
        let left = if l == 0 {
            self.inject.remove(row, at)
        } else {
            self.switch.remove((l as usize - 1) * self.rows + row, at)
        };
        self.current.note::<MODE>(row);
        self.level_count[l as usize] -= 1;
        if left == 0 {
            self.occupied[l as usize * self.words + row / 64] &= !(1 << (row % 64));
        }
    }

    pub(super) fn finish(self, trace: Option<u64>) -> Run {
        Run {
            steps: self.arrival.iter().map(|&a| a as u64).max().unwrap_or(0),
            max_switch_occupancy: self.max_switch,
            max_injection_occupancy: self.inject.cap() as u32,
            hops: self.link_use.iter().map(|u| u[0] + u[1]).sum(),
            arrival: self.arrival,
            delivery_order: self.order,
            destination: self.dest,
            link_use: self.link_use,
            trace,
        }
    }
}
