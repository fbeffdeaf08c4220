//! One step's sweep over the links with candidates, in index order (see
//! the module doc of [`super`]), specialised per strategy by [`Rule`].

use super::bucket::{self, Entry, Heap, HEAD, TRANSIT};
use super::links::{Link, Links};
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
        // The measure of a packet still in its leg is at least 1.
        word.wrapping_sub(1 << 32)
    }
}

impl Rule for Rising {
    #[inline]
    fn rekey(word: u64, _: u64) -> u64 {
        // The measure stays below `KEY_MAX`: a leg has fewer hops.
        word.wrapping_add(1 << 32)
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

/// A packet arriving at a PU: one more there, one more in transit.
pub(super) const ARRIVAL: u64 = PACKET | 1;

/// The state one step's sweep works on, borrowed from the engine.
pub(super) struct Sweep<'s> {
    /// The links.
    pub links: &'s mut Links,
    /// Per PU: packets there `<< 32 | ` packets there in transit.
    pub cnt: &'s mut [u64],
    /// By the top byte of a word (255 less the phase): the last step a
    /// packet moved in that phase.
    pub ends: &'s mut [u64; 256],
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
}

/// What a sweep counted.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Tally {
    /// The most packets, and packets in transit, seen at a PU.
    pub qmax: u32,
    /// See `qmax`.
    pub qmax_transit: u32,
    /// Packets that moved.
    pub hops: u64,
}

impl Tally {
    /// Folds the counts `c` of a PU into the maxima.
    #[inline]
    fn check(&mut self, c: u64) {
        self.qmax = self.qmax.max((c >> 32) as u32);
        self.qmax_transit = self.qmax_transit.max(c as u32);
    }
}

impl Sweep<'_> {
    /// Serves every link with candidates, in index order: each carries one
    /// packet, which joins the pending slot of the next link of its line
    /// (or [`Sweep::later`]). `tally` starts with the maxima so far.
    pub fn run<R: Rule, const TORUS: bool>(&mut self, mut tally: Tally) -> Tally {
        let sb = self.slot_bits;
        let per_pu = 1u32 << sb;
        let pu_bits = (1u64 << per_pu) - 1;
        let (n, t, seed) = (self.side, self.t, self.seed);
        let mut stride = [0u32; 16];
        for (slot, s) in stride.iter_mut().enumerate().take(2 * self.strides.len()) {
            *s = self.strides[slot >> 1];
        }
        let Links { rec, arena, active, .. } = &mut *self.links;
        let (rec, arena, active) = (&mut rec[..], &mut arena[..], &mut active[..]);
        let (cnt, ends, later) = (&mut *self.cnt, &mut *self.ends, &mut *self.later);
        for w in 0..active.len() {
            let mut from = 0u32;
            while from < 64 {
                let bits = active[w] & (!0u64 << from);
                if bits == 0 {
                    break;
                }
                let first = bits.trailing_zeros() & !(per_pu - 1);
                from = first + per_pu;
                let pu = ((w as u32) << 6 | first) >> sb;
                let mut slots = (active[w] >> first) & pu_bits;
                // No packet arrives at `pu` while it is served but the
                // pending ones of its Up links, counted here.
                let mut c = cnt[pu as usize];
                while slots != 0 {
                    let slot = slots.trailing_zeros();
                    slots &= slots - 1;
                    let b = (pu << sb | slot) as usize;
                    let up = slot & 1 == 0;
                    if up && rec[b].pend.left != 0 {
                        c = c.wrapping_add(ARRIVAL);
                    }
                    let out = take::<R>(&mut rec[b], arena, up, seed, t);
                    if rec[b].len == 0 {
                        active[b >> 6] &= !(1 << (b & 63));
                    }
                    let Some(mut e) = out else {
                        continue;
                    };
                    tally.hops += 1;
                    ends[(e.word >> 56) as usize] = t;
                    c = c.wrapping_sub(PACKET | u64::from(e.transit()));
                    let s = stride[slot as usize];
                    let (q, wrap) = if TORUS {
                        let x = e.x();
                        let (q, x, wrap) = if up {
                            if x + 1 == n {
                                (pu - (n - 1) * s, 0, true)
                            } else {
                                (pu + s, x + 1, false)
                            }
                        } else if x == 0 {
                            (pu + (n - 1) * s, n - 1, true)
                        } else {
                            (pu - s, x - 1, false)
                        };
                        e.xt = x as u16 | TRANSIT;
                        (q, wrap)
                    } else {
                        e.xt |= TRANSIT;
                        (if up { pu.wrapping_add(s) } else { pu.wrapping_sub(s) }, false)
                    };
                    e.left = e.left.wrapping_sub(1);
                    e.word = R::rekey(e.word, t);
                    let to = (q << sb | slot) as usize;
                    if e.left == 0 || wrap {
                        later.push((to as u32, e));
                        continue;
                    }
                    if !up {
                        // `q` was served before `pu`: its departures are
                        // counted by now.
                        let d = &mut cnt[q as usize];
                        *d = d.wrapping_add(ARRIVAL);
                        tally.check(*d);
                    }
                    debug_assert_eq!(rec[to].pend.left, 0, "two arrivals on one link");
                    rec[to].pend = e;
                    active[to >> 6] |= 1 << (to & 63);
                }
                cnt[pu as usize] = c;
                tally.check(c);
            }
        }
        tally
    }
}

/// The packet link `l` carries this step, its pending arrival merged into
/// its candidates: on an Up link the arrival came this step (after the
/// step's candidates were fixed) and joins after the choice; on a Down
/// link it came last step and competes.
#[inline(always)]
fn take<R: Rule>(l: &mut Link, arena: &mut [Entry], up: bool, seed: u64, t: u64) -> Option<Entry> {
    let pend = l.pend;
    let has = pend.left != 0;
    l.pend.left = 0;
    let len = l.len as usize;
    if len == 0 {
        debug_assert!(has, "an active link without candidates");
        if up {
            l.head[0] = pend;
            l.len = 1;
            return None;
        }
        return Some(pend);
    }
    if !R::RANDOM && len == 1 {
        let top = l.head[0];
        if has {
            if !up && pend.word > top.word {
                return Some(pend);
            }
            l.head[0] = pend;
        } else {
            l.len = 0;
        }
        return Some(top);
    }
    let start = l.start as usize;
    let mut h = Heap {
        head: &mut l.head,
        tail: &mut arena[start..start + len.saturating_sub(HEAD)],
        len,
    };
    let mut left = len;
    let out = if R::RANDOM {
        let (i, rate) = h.best_drawn(seed, t);
        if has && !up && bucket::rate(pend, seed, t) > rate {
            return Some(pend);
        }
        if has {
            h.swap(i, pend)
        } else {
            left -= 1;
            h.swap_remove(i)
        }
    } else if has {
        if !up && pend.word > h.head[0].word {
            return Some(pend);
        }
        h.replace_top(pend)
    } else {
        left -= 1;
        h.pop()
    };
    l.len = left as u32;
    Some(out)
}
