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
pub(super) const HEAD: u8 = 0;
/// A nonpredictive switch that remembers its pick until it is sent.
pub(super) const STICKY: u8 = 1;
/// A per-edge greedy switch: up to one packet on each out-edge.
pub(super) const PER_EDGE: u8 = 2;

/// Model G: capacity `q`.
pub(super) const GREEDY: u8 = 0;
/// Model T: threshold `q`.
pub(super) const THRESHOLD: u8 = 1;

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
    pub(super) once: Vec<u64>,
    pub(super) twice: Vec<u64>,
}

impl Departed {
    pub(super) fn new(words: usize) -> Self {
        Departed {
            once: vec![0; words],
            twice: vec![0; words],
        }
    }

    /// Notes one more packet sent from row `row`.
    #[inline(always)]
    pub(super) fn note<const MODE: u8>(&mut self, row: usize) {
        let (w, bit) = (row / 64, 1u64 << (row % 64));
        if MODE == PER_EDGE && self.once[w] & bit != 0 {
            self.twice[w] |= bit;
        } else {
            self.once[w] |= bit;
        }
    }

    /// Forgets word `w`'s departures.
    #[inline(always)]
    pub(super) fn clear<const MODE: u8>(&mut self, w: usize) {
        self.once[w] = 0;
        if MODE == PER_EDGE {
            self.twice[w] = 0;
        }
    }
}

impl Engine {
    /// The starting state; with `via`, packet `i` first goes to row
    /// `via[i]` of level `n` and through the wraparound on to its
    /// destination.
    pub(super) fn new(n: u32, packets: &[Packet], via: Option<&[u64]>, config: Config) -> Self {
        let rows = 1usize << n;
        let mut per_input = vec![0usize; rows];
        for p in packets {
            per_input[p.source as usize] += 1;
        }
        let k0 = per_input.iter().copied().max().unwrap_or(0);
        // An input's queue holds its own packets and, on two-leg runs, at
        // most those whose first leg ends at its row.
        let mut room = per_input.clone();
        for &x in via.unwrap_or(&[]) {
            room[x as usize] += 1;
        }
        let mut inject = Bank::new(rows, room.into_iter().max().unwrap_or(0));
        let mut queues = inject.view();
        for (i, p) in packets.iter().enumerate() {
            queues.push(p.source as usize, i as u32);
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
            dest: match via {
                Some(via) => via.to_vec(),
                None => packets.iter().map(|p| p.destination).collect(),
            },
            finals: match via {
                Some(_) => packets.iter().map(|p| p.destination).collect(),
                None => Vec::new(),
            },
            wrapped: match via {
                Some(_) if n == 0 => vec![0; packets.len()],
                Some(_) => vec![NONE; packets.len()],
                None => Vec::new(),
            },
            pending: match via {
                Some(_) => vec![(NONE, NONE); packets.len()],
                None => Vec::new(),
            },
            waiting: 0,
            max_inject: k0 as u32,
            arrival,
            order: if n == 0 {
                (0..packets.len() as u32).collect()
            } else {
                vec![NONE; packets.len()]
            },
            delivered: 0,
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
            clear: Departed::new(words),
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
        match self.config.model {
            QueueModel::Greedy => self.route_model::<GREEDY, O, R>(rng, oracle, rec),
            QueueModel::Threshold => self.route_model::<THRESHOLD, O, R>(rng, oracle, rec),
        }
    }

    fn route_model<const MODEL: u8, O: Oracle, R: Recorder>(
        &mut self,
        rng: &mut ChaCha8Rng,
        oracle: &mut O,
        rec: &mut R,
    ) -> Result<(), EngineError> {
        match self.config.protocol.kind() {
            Kind::PerEdge => self.route_as::<PER_EDGE, MODEL, O, R>(rng, oracle, rec),
            Kind::Nonpredictive if self.config.protocol == Protocol::Fifo && !O::WATCHES => {
                self.route_as::<HEAD, MODEL, O, R>(rng, oracle, rec)
            }
            Kind::Nonpredictive => {
                self.selected = vec![NONE; self.rows * self.n as usize];
                self.route_as::<STICKY, MODEL, O, R>(rng, oracle, rec)
            }
        }
    }

    fn route_as<const MODE: u8, const MODEL: u8, O: Oracle, R: Recorder>(
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
                let tally = self.sweep::<MODE, MODEL, O, R>(l, above, rng, oracle, rec);
                let (lu, sent) = (l as usize, tally.sent);
                self.link_use[lu][0] += sent - tally.across;
                self.link_use[lu][1] += tally.across;
                self.level_count[lu] -= sent;
                self.level_count[lu + 1] += sent - tally.delivered - tally.wrapped;
                self.waiting += tally.wrapped as usize;
                self.remaining -= tally.delivered;
                self.delivered += tally.delivered as usize;
                self.max_switch = self.max_switch.max(tally.longest);
                moved += sent;
                std::mem::swap(&mut self.upper, &mut self.current);
                above = true;
            }
            self.requeue();
            if moved == 0 {
                return Err(EngineError::Deadlock {
                    step: self.t as u64,
                    remaining: self.remaining,
                });
            }
        }
        Ok(())
    }

    /// Queues this step's wrapped packets at level 0, in the order they
    /// reached level `n`, once every level has sent: a packet moves at most
    /// one edge per step.
    fn requeue(&mut self) {
        let mut queues = self.inject.view();
        for &(id, row) in &self.pending[..self.waiting] {
            let row = row as usize;
            let len = queues.push(row, id);
            self.max_inject = self.max_inject.max(len);
            self.occupied[row / 64] |= 1 << (row % 64);
        }
        self.level_count[0] += self.waiting as u64;
        self.waiting = 0;
    }

    pub(super) fn finish(self, trace: Option<u64>) -> Run {
        Run {
            steps: self.arrival.iter().map(|&a| a as u64).max().unwrap_or(0),
            max_switch_occupancy: self.max_switch,
            max_injection_occupancy: self.max_inject,
            first_leg: self.wrapped,
            hops: self.link_use.iter().map(|u| u[0] + u[1]).sum(),
            arrival: self.arrival,
            delivery_order: self.order,
            destination: self.dest,
            link_use: self.link_use,
            trace,
        }
    }
}
