//! One step's sweep over the links with candidates, in index order (see
//! the module doc of [`super`]), specialised per strategy by [`Rule`].

use super::bucket::{Entry, TRANSIT};
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

/// How many links ahead of the one served the sweep asks for a link's
/// arena slice ([`NEAR`]) and for its record ([`FAR`], early enough that
/// the record is there when [`NEAR`] reads where the slice lives). Most
/// links of a busy slot have candidates, so links ahead in index order
/// are mostly links the sweep is about to serve.
const NEAR: usize = 8;

/// See [`NEAR`].
const FAR: usize = 16;

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
    /// Hops that end a leg or wrap around a torus, with the link (or, for
    /// a leg's end, any link of the PU) they arrive at: the engine
    /// finishes them after the sweep.
    pub later: &'s mut Vec<(u32, Entry)>,
    /// n^axis per axis.
    pub strides: &'s [u32],
    /// n.
    pub side: u32,
    /// The step.
    pub t: u64,
    /// The random strategy's seed.
    pub seed: u64,
}

impl Sweep<'_> {
    /// Serves every link with candidates, slot by slot, each in the
    /// direction its packets travel: a packet leaving a link becomes the
    /// pending arrival of the next link of its line, served later in the
    /// same sweep. Returns the packets that moved.
    pub fn run<R: Rule, const TORUS: bool>(&mut self) -> u64 {
        let mut hops = 0;
        for slot in 0..2 * self.strides.len() {
            hops += if slot & 1 == 0 {
                self.slot::<R, TORUS, true>(slot)
            } else {
                self.slot::<R, TORUS, false>(slot)
            };
        }
        hops
    }

    /// Serves the links of `slot`, Up ones (in increasing order) if `UP`,
    /// else Down ones (in decreasing order).
    fn slot<R: Rule, const TORUS: bool, const UP: bool>(&mut self, slot: usize) -> u64 {
        let span = self.links.span;
        let s = self.strides[slot >> 1];
        let (n, t, seed) = (self.side, self.t, self.seed);
        let first = slot * span / 64;
        let base = slot * span;
        let mut hops = 0u64;
        let mut lanes = self.links.lanes();
        let cnt = &mut *self.cnt;
        for k in 0..span / 64 {
            let w = if UP {
                first + k
            } else {
                first + span / 64 - 1 - k
            };
            let mut bits = lanes.active[w];
            while bits != 0 {
                let i = if UP {
                    bits.trailing_zeros()
                } else {
                    63 - bits.leading_zeros()
                };
                bits &= !(1 << i);
                let b = w * 64 + i as usize;
                let pu = b.wrapping_sub(base) as u32;
                if UP {
                    lanes.prefetch(b.wrapping_add(FAR), b.wrapping_add(NEAR));
                } else {
                    lanes.prefetch(b.wrapping_sub(FAR), b.wrapping_sub(NEAR));
                }
                let Some(mut e) = lanes.take(b, R::RANDOM, seed, t) else {
                    continue;
                };
                hops = hops.wrapping_add(1);
                let c = &mut cnt[pu as usize];
                *c = c.wrapping_sub(PACKET | u64::from(e.transit()));
                let (q, wrap) = if TORUS {
                    let x = e.x();
                    let (q, x, wrap) = if UP {
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
                    e.aux = (e.aux & 0xffff) | x << 16 | TRANSIT;
                    (q, wrap)
                } else {
                    e.aux |= TRANSIT;
                    (
                        if UP {
                            pu.wrapping_add(s)
                        } else {
                            pu.wrapping_sub(s)
                        },
                        false,
                    )
                };
                // Still in its leg: at least one hop left.
                e.aux = e.aux.wrapping_sub(1);
                e.word = R::rekey(e.word, t);
                let to = base.wrapping_add(q as usize);
                if e.left() == 0 || wrap {
                    self.later.push((to as u32, e));
                    continue;
                }
                let c = &mut cnt[q as usize];
                *c = c.wrapping_add(ARRIVAL);
                debug_assert_eq!(lanes.rec[to].pend.left(), 0, "two arrivals on one link");
                lanes.rec[to].pend = e;
                let bit = 1 << (to & 63);
                lanes.active[to >> 6] |= bit;
                if to >> 6 == w {
                    bits |= bit;
                }
            }
        }
        hops
    }
}

/// Folds into `qmax` and `qmax_transit` the counts of every PU with a link
/// holding candidates: every PU a packet reached in the step (but those
/// whose legs ended there, which the engine checks itself), and others,
/// whose counts only fell since they were last reached.
pub(super) fn check(
    links: &Links,
    cnt: &[u64],
    slots: usize,
    qmax: &mut u32,
    qmax_transit: &mut u32,
) {
    let words = links.span / 64;
    for k in 0..words {
        let mut bits = (0..slots).fold(0, |m, slot| m | links.active[slot * words + k]);
        while bits != 0 {
            let c = cnt[k * 64 + bits.trailing_zeros() as usize];
            bits &= bits - 1;
            *qmax = (*qmax).max((c >> 32) as u32);
            *qmax_transit = (*qmax_transit).max(c as u32);
        }
    }
}
