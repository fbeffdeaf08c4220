//! Arrivals of flits and credits, and the input buffers: a ring of flits
//! per input virtual channel, with the channel's allocation state.

use super::{wrap, Flit, Sim, EJECT_VC, NONE};

impl Sim<'_> {
    /// Flits and credits due in cycle `t` arrive.
    pub(super) fn arrivals(&mut self, t: u64) {
        let slot = t as usize & self.wmask;
        let mut credits = std::mem::take(&mut self.cwheel[slot]);
        for &ovc in &credits {
            self.credit(ovc);
        }
        credits.clear();
        self.cwheel[slot] = credits;
        let mut flits = std::mem::take(&mut self.fwheel[slot]);
        let ready = t + self.cfg.router_delay as u64;
        for &(ivc, pkt, seq) in &flits {
            self.push(ivc, Flit { pkt, seq, ready });
            let r = self.in_router[(ivc >> self.sh) as usize];
            self.router_flits[r as usize] += 1;
        }
        self.on_links -= flits.len() as u64;
        flits.clear();
        self.fwheel[slot] = flits;
    }

    /// A credit returns to output VC `ovc`: its holder may move again.
    #[inline]
    fn credit(&mut self, ovc: u32) {
        let c = &mut self.ocred[ovc as usize];
        *c += 1;
        if *c == 1 {
            let g = self.owner[ovc as usize];
            if g != NONE && self.vcs[g as usize].len > 0 {
                self.sa_mask[(g >> self.sh) as usize] |= 1 << (g & self.mask);
            }
        }
    }

    /// Whether the holder of output VC `ov` may offer its front flit (once
    /// ready): ejection, or a credit left.
    #[inline]
    pub(super) fn can_send(&self, ov: u32) -> bool {
        ov == EJECT_VC || self.ocred[ov as usize] > 0
    }

    #[inline]
    pub(super) fn push(&mut self, ivc: u32, f: Flit) {
        self.buffered += 1;
        let d = self.depth;
        let g = ivc as usize;
        let vc = &mut self.vcs[g];
        let len = vc.len;
        assert!(len < d, "a credit guards every buffer slot");
        let slot = wrap(vc.head + len, d);
        vc.len = len + 1;
        if len == 0 {
            vc.ready = f.ready;
            let ov = vc.ovc;
            if ov == NONE {
                let r = self.in_router[(ivc >> self.sh) as usize];
                self.va_list[r as usize].push(ivc);
            } else if self.can_send(ov) {
                self.sa_mask[(ivc >> self.sh) as usize] |= 1 << (ivc & self.mask);
            }
        }
        self.buf[g * d as usize + slot as usize] = f;
    }

    #[inline]
    pub(super) fn front(&self, ivc: u32) -> Flit {
        self.buf[ivc as usize * self.depth as usize + self.vcs[ivc as usize].head as usize]
    }

    #[inline]
    pub(super) fn pop(&mut self, ivc: u32) -> Flit {
        let f = self.front(ivc);
        self.buffered -= 1;
        let d = self.depth;
        let g = ivc as usize;
        let vc = &mut self.vcs[g];
        vc.head = wrap(vc.head + 1, d);
        vc.len -= 1;
        if vc.len == 0 {
            self.sa_mask[(ivc >> self.sh) as usize] &= !(1 << (ivc & self.mask));
        } else {
            let h = vc.head as usize;
            vc.ready = self.buf[g * d as usize + h].ready;
        }
        f
    }
}
