//! One step's sweep over the links with candidates, in index order (see
//! the module doc of [`super`]), specialised per strategy by [`Rule`].

use super::bucket::{self, Entry, TRANSIT};
use super::links::Links;
use super::KEY_MAX;

/// How a strategy keys its candidates, as far as the sweep needs it.
pub(super) trait Rule {
    /// Candidates are an unordered list drawn from afresh each step.
    const RANDOM: bool = false;
    /// The word of a packet that has just made a hop of step `t`.
    fn rekey(word: u64, t: u64) -> u64;
}

/// The measure falls by one a hop: farthest-first (hops left in the leg)
/// and farthest-total (hops left to the destination, which never reach
/// [`KEY_MAX`]: at most 255 legs of at most `2^15 - 1` hops).
pub(super) struct Falling;

/// The measure rises by one a hop: nearest-first (`KEY_MAX` less the hops
/// left) and farthest-origin (hops made).
pub(super) struct Rising;

/// First in, first out: the measure is `KEY_MAX` less the step from which
/// the packet waits.
pub(super) struct Fifo;

/// Random: no measure, a fresh draw every step.
pub(super) struct Random;

impl Rule for Falling {
    #[inline]
    fn rekey(word: u64, _: u64) -> u64 {
        word - (1 << 32)
    }
}

impl Rule for Rising {
    #[inline]
    fn rekey(word: u64, _: u64) -> u64 {
        word + (1 << 32)
    }
}

impl Rule for Fifo {
    #[inline]
    fn rekey(word: u64, t: u64) -> u64 {
        let since = (t + 1).min(u64::from(KEY_MAX));
        word & 0xff00_0000_ffff_ffff | (u64::from(KEY_MAX) - since) << 32
    }
}

impl Rule for Random {
    const RANDOM: bool = true;
    #[inline]
    fn rekey(word: u64, _: u64) -> u64 {
        word
    }
}

/// A packet at a PU, in the high half of a [`Sweep::cnt`] word.
pub(super) const PACKET: u64 = 1 << 32;

/// The state one step's sweep works on, borrowed from the engine.
pub(super) struct Sweep<'s> {
    /// The links.
    pub links: &'s mut Links,
    /// Per PU: packets there `<< 32 | ` packets there in transit.
    pub cnt: &'s mut [u64],
    /// Per phase: the last step a packet moved in it.
    pub phase_end: &'s mut [u64],
    /// Hops that end a leg or wrap around a torus, with the link (or, for
    /// a leg's end, any link of the PU) they arrive at: the engine
    /// finishes them after the sweep.
    pub later: &'s mut Vec<(u32, Entry)>,
    /// n^axis per axis.
    pub strides: &'s [u32],
    /// n.
    pub side: u32,
    /// Links per PU: `1 << slot_bits`.
    pub slot_bits: u32,
    /// The step.
    pub t: u64,
    /// The random strategy's seed.
    pub seed: u64,
    /// The most packets, and packets in transit, seen at a PU.
    pub qmax: u32,
    /// See `qmax`.
    pub qmax_transit: u32,
    /// Packets that moved.
    pub hops: u64,
    /// Packets that joined a pending slot.
    pub pended: usize,
}

impl Sweep<'_> {
    /// Serves every link with candidates, in index order: each carries one
    /// packet, which joins the pending slot of the next link of its line
    /// (or [`Sweep::later`]).
    pub fn run<R: Rule>(&mut self) {
        let per_pu = 1u32 << self.slot_bits;
        let pu_bits = (1u64 << per_pu) - 1;
        for w in 0..self.links.active.len() {
            let mut from = 0u32;
            while from < 64 {
                let bits = self.links.active[w] & (!0u64 << from);
                if bits == 0 {
                    break;
                }
                let first = bits.trailing_zeros() & !(per_pu - 1);
                let pu = ((w as u32) << 6 | first) >> self.slot_bits;
                let mut slots = (self.links.active[w] >> first) & pu_bits;
                while slots != 0 {
                    let slot = slots.trailing_zeros();
                    slots &= slots - 1;
                    self.serve::<R>(pu, slot);
                }
                // Every packet leaving `pu` and every one arriving over an
                // Up link are counted by now; arrivals over Down links
                // come later and check themselves.
                self.check(pu as usize);
                from = first + per_pu;
            }
        }
    }

    /// Folds the counts of `pu` into the maxima.
    #[inline]
    fn check(&mut self, pu: usize) {
        let c = self.cnt[pu];
        self.qmax = self.qmax.max((c >> 32) as u32);
        self.qmax_transit = self.qmax_transit.max(c as u32);
    }

    /// Serves link `slot` of `pu` and moves the packet it carries.
    #[inline]
    fn serve<R: Rule>(&mut self, pu: u32, slot: u32) {
        let b = (pu << self.slot_bits | slot) as usize;
        let up = slot & 1 == 0;
        let Some(mut e) = self.take::<R>(b, up) else {
            return;
        };
        self.hops += 1;
        self.phase_end[e.phase()] = self.t;
        self.cnt[pu as usize] -= PACKET | u64::from(e.transit());
        let stride = self.strides[(slot >> 1) as usize];
        let n = self.side;
        let x = e.x();
        let (q, x, wrap) = if up {
            if x + 1 == n {
                (pu - (n - 1) * stride, 0, true)
            } else {
                (pu + stride, x + 1, false)
            }
        } else if x == 0 {
            (pu + (n - 1) * stride, n - 1, true)
        } else {
            (pu - stride, x - 1, false)
        };
        e.left -= 1;
        e.xt = x as u16 | TRANSIT;
        e.word = R::rekey(e.word, self.t);
        let to = q << self.slot_bits | slot;
        if e.left == 0 || wrap {
            self.later.push((to, e));
            return;
        }
        self.cnt[q as usize] += PACKET | 1;
        let l = &mut self.links.rec[to as usize];
        debug_assert_eq!(l.pend.left, 0, "two arrivals on one link");
        l.pend = e;
        self.links.activate(to as usize);
        self.pended += 1;
        if !up {
            // `q` was served before `pu`: its departures are counted.
            self.check(q as usize);
        }
    }

    /// The packet link `b` carries this step, its pending arrival merged
    /// into its candidates: on an Up link the arrival came this step (after
    /// the step's candidates were fixed) and joins after the choice; on a
    /// Down link it came last step and competes.
    #[inline]
    fn take<R: Rule>(&mut self, b: usize, up: bool) -> Option<Entry> {
        let links = &mut *self.links;
        let l = &mut links.rec[b];
        let pend = l.pend;
        let has = pend.left != 0;
        l.pend.left = 0;
        let len = l.len as usize;
        if len == 0 {
            debug_assert!(has, "an active link without candidates");
            if up {
                links.push(b, pend, true);
                return None;
            }
            links.deactivate(b);
            return Some(pend);
        }
        let start = l.start as usize;
        let h = &mut links.arena[start..start + len];
        let out = if R::RANDOM {
            let (i, rate) = bucket::best_drawn(h, self.seed, self.t);
            if has && !up && bucket::rate(pend, self.seed, self.t) > rate {
                return Some(pend);
            }
            let out = h[i];
            if has {
                h[i] = pend;
            } else {
                h[i] = h[len - 1];
                l.len -= 1;
            }
            out
        } else if has {
            if !up && pend.word > h[0].word {
                return Some(pend);
            }
            bucket::replace_top(h, pend)
        } else {
            l.len -= 1;
            bucket::pop(h)
        };
        if l.len == 0 {
            links.deactivate(b);
        }
        Some(out)
    }
}
