//! Packet creation at the terminals and injection into their routers.

use rand::Rng;

use super::{Flit, Packet, Sim, NONE};
use crate::sim::openloop::Injection;

impl Sim<'_> {
    /// Create packets and move one flit per terminal into its router.
    pub(super) fn inject(&mut self, t: u64) {
        let l = self.cfg.packet_flits;
        let p_packet = self.cfg.rate / l as f64;
        let window = self.window;
        for src in 0..self.net.graph.terminals {
            let s = src as usize;
            let create = match self.cfg.injection {
                Injection::Bernoulli => self.rng.gen_bool(p_packet),
                Injection::Periodic => {
                    self.acc[s] += p_packet;
                    let due = self.acc[s] >= 1.0;
                    if due {
                        self.acc[s] -= 1.0;
                    }
                    due
                }
            };
            if create {
                let dst = self.dests.draw(src, &mut self.rng);
                let flits = self.cfg.lengths.draw(l, &mut self.rng);
                self.queues[s].push_back(self.packets.len() as u32);
                self.packets.push(Packet {
                    src,
                    dst,
                    created: t,
                    entered: 0,
                    measured: window,
                    ejected: 0,
                    hops: 0,
                    flits,
                });
                if window {
                    self.measured += 1;
                    self.outstanding += 1;
                    self.window_created += u64::from(flits);
                }
            }
            let Some(&pkt) = self.queues[s].front() else {
                continue;
            };
            let base = self.p.in_base[s] << self.sh;
            if self.src_vc[s] == NONE {
                for i in 0..self.v {
                    let vc = super::wrap(self.inj_rr[s] + i, self.v);
                    if self.vcs[(base + vc) as usize].len < self.depth {
                        self.src_vc[s] = vc;
                        self.inj_rr[s] = super::wrap(vc + 1, self.v);
                        break;
                    }
                }
            }
            let vc = self.src_vc[s];
            if vc == NONE || self.vcs[(base + vc) as usize].len >= self.depth {
                continue;
            }
            let seq = self.src_seq[s];
            if seq == 0 {
                self.packets[pkt as usize].entered = t;
            }
            self.push(
                base + vc,
                Flit {
                    pkt,
                    seq,
                    ready: t + self.cfg.router_delay as u64,
                },
            );
            self.router_flits[s] += 1;
            self.last_move = t;
            if seq + 1 == self.packets[pkt as usize].flits {
                self.queues[s].pop_front();
                self.src_seq[s] = 0;
                self.src_vc[s] = NONE;
            } else {
                self.src_seq[s] = seq + 1;
            }
        }
    }
}
