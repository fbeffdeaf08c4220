//! The engine's step loop.

use super::{Bank, Config, Engine, EngineError, Kind, Oracle, Protocol, QueueModel, Run, NONE};
use crate::sim::packet::traffic::Packet;
use rand_chacha::ChaCha8Rng;

/// One move folded into the trace digest.
#[inline]
fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(29)
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
            selected: vec![NONE; rows * n as usize],
            mark: vec![0; switches],
            occupied,
            words,
            level_count,
            remaining: if n == 0 { 0 } else { packets.len() as u64 },
            t: 0,
            max_switch: 0,
            link_use: vec![[0; 2]; n as usize],
            trace: 0xcbf2_9ce4_8422_2325,
        }
    }

    /// Steps until every packet is delivered.
    pub(super) fn route<O: Oracle>(
        &mut self,
        rng: &mut ChaCha8Rng,
        oracle: &mut O,
    ) -> Result<(), EngineError> {
        while self.remaining > 0 {
            self.t += 1;
            let before = self.hops();
            for l in (0..self.n).rev() {
                if self.level_count[l as usize] == 0 {
                    continue;
                }
                for w in 0..self.words {
                    let mut bits = self.occupied[l as usize * self.words + w];
                    while bits != 0 {
                        let row = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        self.serve(l, row, rng, oracle);
                    }
                }
            }
            if self.hops() == before {
                return Err(EngineError::Deadlock {
                    step: self.t as u64,
                    remaining: self.remaining,
                });
            }
        }
        Ok(())
    }

    fn hops(&self) -> u64 {
        self.link_use.iter().map(|u| u[0] + u[1]).sum()
    }

    /// The queue of node `(l, row)` (levels `0 .. n`).
    #[inline]
    fn queue(&self, l: u32, row: usize) -> &[u32] {
        if l == 0 {
            self.inject.items(row)
        } else {
            self.switch.items((l as usize - 1) * self.rows + row)
        }
    }

    /// Node `(l, row)` sends what its protocol chooses.
    #[inline]
    fn serve<O: Oracle>(&mut self, l: u32, row: usize, rng: &mut ChaCha8Rng, oracle: &mut O) {
        let node = l as usize * self.rows + row;
        match self.config.protocol.kind() {
            Kind::Nonpredictive => {
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
                if self.offer(l, row, id) {
                    self.depart(l, row, at);
                    self.selected[node] = NONE;
                }
            }
            Kind::PerEdge => {
                // The oldest packet wanting each out-edge.
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
                        if self.offer(l, row, id) {
                            sent[e] = Some(i);
                        }
                    }
                }
                // Remove the later position first so the earlier stays put.
                let (a, b) = (sent[0], sent[1]);
                let (hi, lo) = if a > b { (a, b) } else { (b, a) };
                for i in [hi, lo].into_iter().flatten() {
                    self.depart(l, row, i);
                }
            }
        }
    }

    /// Offers packet `id` at node `(l, row)` to its next node; on
    /// acceptance the packet is appended there (or delivered) and `true`
    /// is returned. The caller removes it from its queue.
    #[inline]
    fn offer(&mut self, l: u32, row: usize, id: u32) -> bool {
        let bit = 1usize << l;
        let to = (row & !bit) | (self.dest[id as usize] as usize & bit);
        let cross = (to != row) as usize;
        if l + 1 == self.n {
            self.arrival[id as usize] = self.t;
            self.order.push(id);
            self.remaining -= 1;
        } else {
            let u = l as usize * self.rows + to;
            let mark = self.touch(u);
            let start = ((mark >> 8) & 0xffff) as u32;
            let accept = match self.config.model {
                QueueModel::Greedy => start + ((mark & 0xff) as u32) < self.cap,
                QueueModel::Threshold => start <= self.config.q,
            };
            if !accept {
                return false;
            }
            self.mark[u] = mark + 1;
            self.switch.push(u, id);
            let len = self.switch.len(u) as u32;
            self.max_switch = self.max_switch.max(len);
            let lvl = l as usize + 1;
            self.occupied[lvl * self.words + to / 64] |= 1 << (to % 64);
            self.level_count[lvl] += 1;
        }
        self.link_use[l as usize][cross] += 1;
        self.trace = mix(
            self.trace,
            ((self.t as u64) << 40) ^ ((l as u64) << 34) ^ ((row as u64) << 1) ^ cross as u64,
        );
        self.trace = mix(self.trace, id as u64);
        true
    }

    /// Records switch `u`'s start-of-step occupancy the first time the step
    /// touches it; returns its mark.
    #[inline]
    fn touch(&mut self, u: usize) -> u64 {
        let mark = self.mark[u];
        if (mark >> 32) as u32 == self.t {
            mark
        } else {
            let fresh = ((self.t as u64) << 32) | ((self.switch.len(u) as u64) << 8);
            self.mark[u] = fresh;
            fresh
        }
    }

    /// Removes the packet at position `at` of node `(l, row)`'s queue.
    #[inline]
    fn depart(&mut self, l: u32, row: usize, at: usize) {
        let empty = if l == 0 {
            self.inject.remove(row, at);
            self.inject.len(row) == 0
        } else {
            let u = (l as usize - 1) * self.rows + row;
            self.touch(u);
            self.switch.remove(u, at);
            self.switch.len(u) == 0
        };
        self.level_count[l as usize] -= 1;
        if empty {
            self.occupied[l as usize * self.words + row / 64] &= !(1 << (row % 64));
        }
    }

    pub(super) fn finish(self) -> Run {
        Run {
            steps: self.arrival.iter().map(|&a| a as u64).max().unwrap_or(0),
            max_switch_occupancy: self.max_switch,
            max_injection_occupancy: self.inject.cap() as u32,
            hops: self.hops(),
            arrival: self.arrival,
            delivery_order: self.order,
            destination: self.dest,
            link_use: self.link_use,
            trace: self.trace,
        }
    }
}
