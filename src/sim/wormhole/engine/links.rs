//! The fast engine's links: per directed link one record (queue ring,
//! holder, successor, far end, sleepers, start-of-step length) so that a move
//! touches one cache line per link, the queues' units, and a pool of
//! sleeper-list entries that is reused for the whole run.

use super::NONE;
use crate::sim::wormhole::net::WormNet;

/// One directed link.
#[derive(Clone, Copy, Debug)]
pub(super) struct Link {
    /// The queue's first slot in the low 16 bits, its length in the high
    /// 16.
    pub(super) ring: u32,
    /// The worm holding the link, or `NONE`.
    pub(super) owner: u32,
    /// The link the head of the worm at the front took from here.
    pub(super) succ: u32,
    /// The node at the far end.
    pub(super) to: u32,
    /// The first entries of the lists of inputs sleeping until the link
    /// is neither held nor full (heads) and until it has room (body
    /// flits), or `NONE`.
    pub(super) heads: u32,
    pub(super) bodies: u32,
    /// The link's position among its far node's inputs.
    pub(super) slot: u32,
    /// The queue's length at the start of step `stamp`, the last step
    /// it popped or pushed in (`u64::MAX`: none).
    pub(super) start: u32,
    pub(super) stamp: u64,
    /// The last step it popped in.
    pub(super) popped: u64,
}

impl Link {
    /// Units in the queue.
    #[inline]
    pub(super) fn len(&self) -> u32 {
        self.ring >> 16
    }

    /// Whether inputs sleep on the link (`NONE` has every bit set, so the
    /// two list heads are both `NONE` exactly when their AND is).
    #[inline]
    pub(super) fn has_sleepers(&self) -> bool {
        self.heads & self.bodies != NONE
    }

    /// Whether a pop may end a sleeper's wait on the link: body flits
    /// sleep on it, or heads do and no worm holds it (a link is released
    /// only when a step ends, and its sleepers are looked at then).
    #[inline]
    pub(super) fn pop_wakes(&self) -> bool {
        self.bodies != NONE || (self.owner == NONE && self.heads != NONE)
    }
}

/// The ring slot `k` places after the front of a queue of `q` slots whose
/// ring (first slot and length, see `Link::ring`) is `ring`, for
/// `k <= q`: the back of the queue for `k` its length, the new front after
/// a pop for `k = 1`. The first slot is below `q <= 2^15`, so nothing
/// overflows.
#[inline(always)]
pub(super) fn slot(ring: u32, k: u32, q: u32) -> u32 {
    let at = (ring & 0xffff).wrapping_add(k);
    if at >= q {
        at.wrapping_sub(q)
    } else {
        at
    }
}

/// The ring of a nonempty queue of `q` slots after its front unit leaves.
#[inline(always)]
pub(super) fn popped(ring: u32, q: u32) -> u32 {
    (ring & !0xffff).wrapping_sub(1 << 16) | slot(ring, 1, q)
}

/// The index in `Links::slots` of link `e`'s ring slot `s` (`s < q`;
/// the slots of every link fit in memory, so nothing overflows).
#[inline(always)]
pub(super) fn index(e: u32, q: usize, s: u32) -> usize {
    (e as usize).wrapping_mul(q).wrapping_add(s as usize)
}

/// A unit's tail flag.
pub(super) const TAIL: u64 = 1 << 16;

/// A unit in a queue: worm in the high 32 bits, the tail flag in bit 16
/// and the flit index in the low 16.
#[inline]
pub(super) fn pack(worm: u32, flit: u32, tail: bool) -> u64 {
    (worm as u64) << 32 | (tail as u64) << 16 | flit as u64
}

/// A unit's worm.
#[inline]
pub(super) fn worm_of(u: u64) -> u32 {
    (u >> 32) as u32
}

/// A unit's flit index (0: its worm's head).
#[inline]
pub(super) fn flit_of(u: u64) -> u32 {
    u as u32 & 0xffff
}

/// Whether a unit is its worm's tail.
#[inline]
pub(super) fn is_tail(u: u64) -> bool {
    u & TAIL != 0
}

/// The links of a run.
pub(super) struct Links {
    pub(super) rec: Vec<Link>,
    q: usize,
    /// The queues' units, `q` slots per link.
    pub(super) slots: Vec<u64>,
    /// Sleeper-list entries `(sleeper, next entry)`, and the first free
    /// one.
    pool: Vec<(u32, u32)>,
    free: u32,
}

impl Links {
    pub(super) fn new(net: &WormNet, q: usize) -> Self {
        let links = net.links() as usize;
        let mut rec: Vec<Link> = (0..links as u32)
            .map(|e| Link {
                ring: 0,
                owner: NONE,
                succ: NONE,
                to: net.head_of(e),
                heads: NONE,
                bodies: NONE,
                slot: 0,
                start: 0,
                stamp: u64::MAX,
                popped: u64::MAX,
            })
            .collect();
        for v in net.processors()..net.nodes() {
            for (i, &e) in net.inputs(v).iter().enumerate() {
                rec[e as usize].slot = i as u32;
            }
        }
        Links {
            rec,
            q,
            slots: vec![0; links * q],
            pool: Vec::new(),
            free: NONE,
        }
    }

    /// Link `e`'s queue length at the start of step `t`.
    #[inline(always)]
    pub(super) fn start_len(&self, e: u32, t: u64) -> u32 {
        let l = &self.rec[e as usize];
        if l.stamp == t {
            l.start
        } else {
            l.len()
        }
    }

    /// Link `e`'s front unit.
    #[inline(always)]
    pub(super) fn front(&self, e: u32) -> u64 {
        self.slots[index(e, self.q, self.rec[e as usize].ring & 0xffff)]
    }

    /// Removes link `e`'s front unit in step `t`.
    #[inline(always)]
    pub(super) fn pop(&mut self, e: u32, t: u64) -> u64 {
        let q = self.q;
        let l = &mut self.rec[e as usize];
        if l.stamp != t {
            l.stamp = t;
            l.start = l.len();
        }
        let ring = l.ring;
        debug_assert!(l.len() > 0, "link {e} is empty");
        let u = self.slots[index(e, q, ring & 0xffff)];
        l.ring = popped(ring, q as u32);
        l.popped = t;
        u
    }

    /// Puts `u` at the back of link `e`'s queue in step `t`; returns the
    /// length before.
    #[inline(always)]
    pub(super) fn push(&mut self, e: u32, u: u64, t: u64) -> u32 {
        let q = self.q;
        let l = &mut self.rec[e as usize];
        if l.stamp != t {
            l.stamp = t;
            l.start = l.len();
        }
        let (ring, len) = (l.ring, l.len());
        assert!(len < q as u32, "link {e} overflows");
        self.slots[index(e, q, slot(ring, len, q as u32))] = u;
        l.ring = ring.wrapping_add(1 << 16);
        len
    }

    /// Sleeper `s` waits on link `e`, for room if `body`, else for the
    /// link to be neither held nor full. Returns whether the link popped
    /// in step `t` and no pop or sleeper since has had it looked at (see
    /// `Link::pop_wakes`; then its new sleepers must be looked at when
    /// the step ends).
    #[inline]
    pub(super) fn enlist(&mut self, e: u32, s: u32, body: bool, t: u64) -> bool {
        let entry = if self.free != NONE {
            let f = self.free;
            self.free = self.pool[f as usize].1;
            f
        } else {
            self.pool.push((0, NONE));
            self.pool.len() as u32 - 1
        };
        let l = &mut self.rec[e as usize];
        let missed = l.popped == t && !l.pop_wakes();
        let first = if body { &mut l.bodies } else { &mut l.heads };
        self.pool[entry as usize] = (s, *first);
        *first = entry;
        missed
    }

    /// The sleeper of list entry `entry` and the next entry; frees the
    /// entry.
    #[inline]
    pub(super) fn release_entry(&mut self, entry: u32) -> (u32, u32) {
        let (s, next) = self.pool[entry as usize];
        self.pool[entry as usize].1 = self.free;
        self.free = entry;
        (s, next)
    }
}
