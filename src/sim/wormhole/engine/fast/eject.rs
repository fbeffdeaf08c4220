//! The fast engine's last move of a step, the ejections, with the checks
//! that every worm leaves whole and in order at its destination, and the
//! outcome of a finished run.

use super::super::links::{flit_of, is_tail, worm_of, TAIL};
use super::super::Outcome;
use super::{Engine, IDLE, NONE};

impl Engine<'_> {
    /// Every processor whose ejection queue held a unit at the start of
    /// step `t` removes one (units that entered this step wait); returns
    /// whether any did.
    pub(super) fn eject_all(&mut self, t: u64) -> bool {
        let mut any = false;
        for i in 0..self.ejecting.0.len() {
            let mut b = self.ejecting.0[i];
            while b != 0 {
                let p = i as u32 * 64 + b.trailing_zeros();
                b &= b - 1;
                let e = self.ejection[p as usize];
                if self.links.start_len(e, t) > 0 {
                    self.eject(p, e, t);
                    any = true;
                }
            }
        }
        any
    }

    /// Processor `p` removes the front of its ejection queue `e` in step
    /// `t`, checking that each worm's flits leave at its destination, in
    /// order, one worm after another, and its tail once.
    #[inline]
    fn eject(&mut self, p: u32, e: u32, t: u64) {
        let u = self.links.pop(e, t);
        let l = &self.links.rec[e as usize];
        if l.pop_wakes() {
            self.touched.push(e);
        }
        if l.len() == 0 {
            self.ejecting.clear(p);
        }
        let w = worm_of(u) as usize;
        let unit = u & !TAIL;
        let next = &mut self.leaving[p as usize];
        if flit_of(u) == 0 {
            assert!(
                *next == IDLE,
                "worm {w} enters processor {p} inside another"
            );
            assert_eq!(self.worms[w].dst, p, "worm {w} leaves at its destination");
        } else {
            assert!(unit == *next, "worm {w}'s flits leave in order");
        }
        *next = if is_tail(u) {
            assert!(!self.whole[w], "worm {w}'s tail leaves once");
            self.whole[w] = true;
            IDLE
        } else {
            unit + 1
        };
    }

    /// Ejects what is left in the ejection queues after the last step
    /// `t`, checking every worm left whole and in order.
    pub(super) fn drain(&mut self, t: u64) {
        let mut eject = Vec::new();
        self.ejecting.collect(&mut eject);
        for &p in &eject {
            let e = self.net.ejection(p);
            while self.links.rec[e as usize].len() > 0 {
                self.eject(p, e, t + 1);
            }
        }
        for (w, x) in self.worms.iter().enumerate() {
            if x.src != x.dst {
                assert!(self.whole[w], "worm {w} arrived whole");
            }
        }
    }

    /// The outcome of a finished run. Every unit of a worm crosses the
    /// links its head took, so the unit-hops are counted from the paths.
    pub(in crate::sim::wormhole::engine) fn finish(self) -> Outcome {
        let unit_hops = self
            .path
            .chunks(self.stride)
            .zip(self.worms)
            .map(|(p, x)| x.len as u64 * p.iter().take_while(|&&e| e != NONE).count() as u64)
            .sum();
        Outcome::assemble(
            &self.path,
            self.stride,
            self.arrival,
            &self.crossings,
            unit_hops,
        )
    }
}
