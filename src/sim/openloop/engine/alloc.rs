//! A router's allocation in one cycle: routing and virtual-channel
//! allocation of waiting heads, switch allocation, and the traversal of
//! the winners.

use super::{wrap, Flit, Sim, EJECT_VC, NONE};
use crate::sim::openloop::routing::{route_key, Choice, Step};
use crate::sim::openloop::FlowControl;

impl Sim<'_> {
    /// Route the ready heads of router `r` and give them output virtual
    /// channels: each input VC asks for one idle output VC of its allowed
    /// range (round robin per output port), each output VC grants the
    /// first requester round robin from its last grant.
    pub(super) fn allocate_vcs(&mut self, r: u32, t: u64) {
        let (v, sh, m) = (self.v, self.sh, self.mask);
        let (ib, ie) = (self.p.in_base[r as usize], self.p.in_base[r as usize + 1]);
        let local_ivcs = (ie - ib) << sh;
        let ob = self.p.out_base[r as usize];
        let mut list = std::mem::take(&mut self.va_list[r as usize]);
        if list.is_empty() {
            self.va_list[r as usize] = list;
            return;
        }
        // In VC order, so that the allocation does not depend on the order
        // the heads arrived in.
        list.sort_unstable();
        self.requests.clear();
        for &g in &list {
            let gi = g as usize;
            debug_assert!(self.vcs[gi].len > 0 && self.vcs[gi].ovc == NONE);
            if self.vcs[gi].ready > t {
                continue;
            }
            let f = self.front(g);
            debug_assert_eq!(f.seq, 0, "an unallocated VC's front flit is a head");
            if self.vcs[gi].route == NONE {
                let dst = self.packets[f.pkt as usize].dst;
                let ocred = &self.ocred;
                let choice = Choice {
                    key: route_key(self.cfg.seed, f.pkt, r),
                    up_links: self.cfg.up_links,
                    free: |p: u32, st: Step| -> u32 {
                        let base = ((ob + p) << sh) as usize;
                        ocred[base + st.vc_lo as usize..base + st.vc_hi as usize]
                            .iter()
                            .sum()
                    },
                };
                let (port, step) = self.net.routing.route(r, dst, v, &mut self.ports, choice);
                self.vcs[gi].route = port;
                self.ivc_lo[gi] = step.vc_lo;
                self.ivc_hi[gi] = step.vc_hi;
            }
            let port = self.vcs[gi].route;
            let l = self.packets[f.pkt as usize].flits;
            if port == super::EJECT {
                self.vcs[gi].ovc = EJECT_VC;
                self.sa_mask[(g >> sh) as usize] |= 1 << (g & m);
                continue;
            }
            let o = ob + port;
            let (lo, hi) = (self.ivc_lo[gi], self.ivc_hi[gi]);
            let span = hi - lo;
            let first = self.vc_rr[o as usize] % span;
            for i in 0..span {
                let vc = lo + wrap(first + i, span);
                let ov = o << sh | vc;
                let ok = self.owner[ov as usize] == NONE
                    && match self.cfg.flow {
                        FlowControl::Wormhole => true,
                        FlowControl::VirtualCutThrough => self.ocred[ov as usize] >= l,
                    };
                if ok {
                    let pri = wrap(
                        g - (ib << sh) + local_ivcs - self.ovc_rr[ov as usize],
                        local_ivcs,
                    );
                    self.requests.push((ov, g, pri));
                    let o = ov as usize;
                    if self.grant_stamp[o] != t || pri < self.grant_pri[o] {
                        self.grant_stamp[o] = t;
                        self.grant_pri[o] = pri;
                        self.grant_who[o] = g;
                    }
                    break;
                }
            }
        }
        for i in 0..self.requests.len() {
            let (ov, g, _) = self.requests[i];
            let o = ov as usize;
            if self.grant_who[o] == g && self.grant_stamp[o] == t {
                self.owner[o] = g;
                self.vcs[g as usize].ovc = ov;
                if self.ocred[o] > 0 {
                    self.sa_mask[(g >> sh) as usize] |= 1 << (g & m);
                }
                self.ovc_rr[o] = wrap(g - (ib << sh) + 1, local_ivcs);
                self.vc_rr[(ov >> sh) as usize] = (ov & m) + 1;
            }
        }
        list.retain(|&g| self.vcs[g as usize].ovc == NONE);
        self.va_list[r as usize] = list;
    }

    /// Each input port offers one ready flit with somewhere to go, round
    /// robin over its VCs; each output port takes one offer, round robin
    /// over its inputs; the winners cross.
    pub(super) fn allocate_switch(&mut self, r: u32, t: u64) {
        let (v, sh) = (self.v, self.sh);
        let (ib, ie) = (self.p.in_base[r as usize], self.p.in_base[r as usize + 1]);
        let ob = self.p.out_base[r as usize];
        let nin = ie - ib;
        self.sa_in.clear();
        for ip in ib..ie {
            let mask = self.sa_mask[ip as usize];
            if mask == 0 {
                continue;
            }
            // The port's VCs from its pointer on, then the ones before it
            // (no bit at or above `v`, so the rotation keeps that order).
            let start = self.in_rr[ip as usize];
            let mut bits = mask.rotate_right(start);
            while bits != 0 {
                let vc = (bits.trailing_zeros() + start) & 63;
                bits &= bits - 1;
                let g = ip << sh | vc;
                let q = &self.vcs[g as usize];
                debug_assert!(q.len > 0 && self.can_send(q.ovc));
                if q.ready <= t {
                    self.sa_in.push((g, ob + q.route));
                    break;
                }
            }
        }
        // Output arbitration: the offer nearest after the port's pointer.
        for i in 0..self.sa_in.len() {
            let (g, o) = self.sa_in[i];
            let ip = (g >> sh) - ib;
            let pri = wrap(ip + nin - self.out_rr[o as usize], nin);
            let best = &mut self.sa_best[o as usize];
            if best.0 != t || pri < best.1 {
                *best = (t, pri, g);
            }
        }
        for i in 0..self.sa_in.len() {
            let (g, o) = self.sa_in[i];
            if self.sa_best[o as usize].2 != g {
                continue;
            }
            let ip = g >> sh;
            self.out_rr[o as usize] = wrap(ip - ib + 1, nin);
            self.in_rr[ip as usize] = wrap((g & self.mask) + 1, v);
            self.traverse(r, g, o, t);
        }
    }

    /// Flit at the front of input VC `g` of router `r` crosses to output
    /// port `o` (global) in cycle `t`.
    fn traverse(&mut self, r: u32, g: u32, o: u32, t: u64) {
        let (sh, m) = (self.sh, self.mask);
        let f = self.pop(g);
        self.router_flits[r as usize] -= 1;
        self.flit_hops += 1;
        self.last_move = t;
        let ip = g >> sh;
        let bit = 1u64 << (g & m);
        let (up, lat) = self.credit_to[ip as usize];
        if up != NONE {
            let at = t + lat as u64;
            self.cwheel[at as usize & self.wmask].push(up | (g & m));
        }
        let tail = f.seq + 1 == self.packets[f.pkt as usize].flits;
        let ov = self.vcs[g as usize].ovc;
        if ov == EJECT_VC {
            self.eject(f, t);
        } else {
            let cred = &mut self.ocred[ov as usize];
            *cred -= 1;
            if *cred == 0 {
                self.sa_mask[ip as usize] &= !bit;
            }
            let (c, down, lat) = self.flit_to[o as usize];
            let ivc = down | (ov & m);
            let at = t + lat as u64;
            self.fwheel[at as usize & self.wmask].push((ivc, f.pkt, f.seq));
            self.on_links += 1;
            if self.window {
                self.link_flits[c as usize] += 1;
            }
            if f.seq == 0 {
                self.packets[f.pkt as usize].hops += 1;
            }
            if tail {
                self.owner[ov as usize] = NONE;
            }
        }
        if tail {
            let q = &mut self.vcs[g as usize];
            q.ovc = NONE;
            q.route = NONE;
            self.sa_mask[ip as usize] &= !bit;
            if q.len > 0 {
                self.va_list[r as usize].push(g);
            }
        }
    }

    /// A flit leaves the network in cycle `t` (delivered at its end).
    fn eject(&mut self, f: Flit, t: u64) {
        if self.window {
            self.window_ejected += 1;
        }
        let p = &mut self.packets[f.pkt as usize];
        let l = p.flits;
        assert_eq!(
            p.ejected, f.seq,
            "flits of a packet are delivered once, in order"
        );
        p.ejected += 1;
        if p.ejected == l {
            self.warm.delivered(t + 1 - p.created);
        }
        if p.ejected == l && p.measured {
            let done = t + 1;
            self.net_lat.push(done - p.entered);
            self.samples.push(super::Sample {
                src: p.src,
                dst: p.dst,
                network: done - p.entered,
                flits: l,
            });
            self.tot_lat.push(done - p.created);
            self.hop_sum += p.hops as u64;
            self.outstanding -= 1;
        }
    }
}
