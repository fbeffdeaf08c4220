//! The reference engine's queues: a fixed-capacity ring per link of
//! units that carry their worm, flit index, hop and tail flag.

use crate::sim::wormhole::engine::MAX_QUEUE;

/// A unit in a queue: worm, its flit index, its hop along its path, and
/// whether it is its worm's tail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Unit {
    pub(super) worm: u32,
    pub(super) flit: u32,
    pub(super) hop: u32,
    pub(super) tail: bool,
}

/// Where a move takes its unit from.
#[derive(Clone, Copy, Debug)]
pub(super) enum From {
    /// A processor's source buffer.
    Source(u32),
    /// A link's queue.
    Link(u32),
}

/// The most links a path may take (a unit's hop is packed in 15 bits).
const MAX_HOPS: usize = 1 << 15;

/// A fixed-capacity ring per link: units packed in words (worm, flit,
/// tail and hop in 32, 16, 1 and 15 bits), and each ring's head and length
/// in one word.
pub(super) struct Queues {
    q: usize,
    slot: Vec<u64>,
    /// Head in the low 16 bits, length in the high 16.
    ring: Vec<u32>,
}

impl Unit {
    #[inline]
    fn pack(self) -> u64 {
        debug_assert!((self.hop as usize) < MAX_HOPS);
        (self.worm as u64) << 32
            | (self.flit as u64) << 16
            | (self.tail as u64) << 15
            | self.hop as u64
    }

    #[inline]
    fn unpack(x: u64) -> Unit {
        Unit {
            worm: (x >> 32) as u32,
            flit: (x >> 16) as u32 & 0xffff,
            hop: x as u32 & 0x7fff,
            tail: x & 0x8000 != 0,
        }
    }
}

impl Queues {
    pub(super) fn new(links: usize, q: usize) -> Self {
        debug_assert!((1..=MAX_QUEUE as usize).contains(&q));
        Queues {
            q,
            slot: vec![0; links * q],
            ring: vec![0; links],
        }
    }

    #[inline]
    pub(super) fn len(&self, e: u32) -> u32 {
        self.ring[e as usize] >> 16
    }

    #[inline]
    pub(super) fn front(&self, e: u32) -> Unit {
        let head = (self.ring[e as usize] & 0xffff) as usize;
        Unit::unpack(self.slot[e as usize * self.q + head])
    }

    #[inline]
    pub(super) fn pop(&mut self, e: u32) -> Unit {
        let i = e as usize;
        let r = self.ring[i];
        let head = (r & 0xffff) as usize;
        debug_assert!(r >> 16 > 0, "link {e} is empty");
        let u = Unit::unpack(self.slot[i * self.q + head]);
        let next = if head + 1 == self.q {
            0
        } else {
            head as u32 + 1
        };
        self.ring[i] = (r & !0xffff) - (1 << 16) + next;
        u
    }

    #[inline]
    pub(super) fn push(&mut self, e: u32, u: Unit) {
        let i = e as usize;
        let r = self.ring[i];
        let (head, len) = ((r & 0xffff) as usize, (r >> 16) as usize);
        assert!(len < self.q, "link {e} overflows");
        let at = if head + len >= self.q {
            head + len - self.q
        } else {
            head + len
        };
        self.slot[i * self.q + at] = u.pack();
        self.ring[i] = r + (1 << 16);
    }
}
