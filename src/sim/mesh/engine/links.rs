//! Every directed link's candidates in one arena: link `b` owns the slice
//! `arena[start .. start + cap]`, of which the first `len` places hold its
//! heap (or list), and a pending slot for the one packet that arrives over
//! the link before it along the same line (see the module doc of
//! [`super`]). A full slice moves to the arena's end with twice the room;
//! once moved slices leave as much garbage as there is live room, the arena
//! is rebuilt in link order, so that serving links in order walks memory in
//! order. Memory stays linear in packets plus links.

use super::bucket::{self, Entry};

/// The room every existing link gets when the arena is laid out.
const MIN_CAP: u32 = 4;

/// Garbage below this many places is never collected.
const MIN_GARBAGE: usize = 1 << 14;

/// One directed link: where its candidates live, and its pending arrival.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Link {
    /// First place of its slice.
    pub start: u32,
    /// Candidates in the heap.
    pub len: u32,
    /// Places in its slice.
    pub cap: u32,
    /// The packet that arrived over the previous link of its line and has
    /// yet to join the heap (`left == 0`: none).
    pub pend: Entry,
}

/// The links' candidates and which links have any.
pub(super) struct Links {
    /// By link index.
    pub rec: Vec<Link>,
    /// The slices of all links.
    pub arena: Vec<Entry>,
    /// Bit `b`: link `b` has a candidate (in its heap or pending).
    pub active: Vec<u64>,
    /// Places no link owns.
    garbage: usize,
    /// Links per PU (a power of two) and how many of them exist.
    slot_bits: u32,
    slots: u32,
}

impl Links {
    /// No candidates on `pus << slot_bits` links, of which the first
    /// `slots` of every PU exist.
    pub fn new(pus: usize, slot_bits: u32, slots: u32) -> Links {
        let n = pus << slot_bits;
        let mut links = Links {
            rec: vec![Link::default(); n],
            arena: Vec::new(),
            active: vec![0; n.div_ceil(64)],
            garbage: 0,
            slot_bits,
            slots,
        };
        links.rebuild();
        links
    }

    /// Marks link `b` as having candidates.
    #[inline]
    pub fn activate(&mut self, b: usize) {
        self.active[b >> 6] |= 1 << (b & 63);
    }

    /// Marks link `b` as having none.
    #[inline]
    pub fn deactivate(&mut self, b: usize) {
        self.active[b >> 6] &= !(1 << (b & 63));
    }

    /// Adds `e` to the candidates of link `b` (to its heap, or to its list
    /// if `list`).
    #[inline]
    pub fn push(&mut self, b: usize, e: Entry, list: bool) {
        if self.rec[b].len == self.rec[b].cap {
            self.grow(b);
        }
        let l = &mut self.rec[b];
        let start = l.start as usize;
        l.len += 1;
        let h = &mut self.arena[start..start + l.len as usize];
        if list {
            h[h.len() - 1] = e;
        } else {
            bucket::push(h, e);
        }
        self.activate(b);
    }

    /// Moves the slice of link `b` to the arena's end with twice the room.
    #[cold]
    fn grow(&mut self, b: usize) {
        let l = self.rec[b];
        let cap = (2 * l.cap).max(MIN_CAP);
        let start = self.arena.len();
        assert!(
            start + cap as usize <= u32::MAX as usize,
            "too many candidates for the link arena"
        );
        let from = l.start as usize;
        self.arena
            .extend_from_within(from..from + l.len as usize);
        self.arena.resize(start + cap as usize, Entry::default());
        self.garbage += l.cap as usize;
        let r = &mut self.rec[b];
        r.start = start as u32;
        r.cap = cap;
    }

    /// Rebuilds the arena in link order if garbage outweighs live room.
    pub fn collect(&mut self) {
        if self.garbage > MIN_GARBAGE && 3 * self.garbage > self.arena.len() {
            self.rebuild();
        }
    }

    /// Lays the arena out afresh in link order: every existing link gets
    /// room for half as many again as it holds, and at least
    /// [`MIN_CAP`] places.
    fn rebuild(&mut self) {
        let mask = (1usize << self.slot_bits) - 1;
        let mut size = 0usize;
        for (b, l) in self.rec.iter().enumerate() {
            if (b & mask) < self.slots as usize {
                size += room(l.len) as usize;
            }
        }
        assert!(size <= u32::MAX as usize, "too many candidates for the link arena");
        let mut arena = Vec::with_capacity(size + size / 2);
        for (b, l) in self.rec.iter_mut().enumerate() {
            let cap = if (b & mask) < self.slots as usize {
                room(l.len)
            } else {
                0
            };
            let from = l.start as usize;
            let start = arena.len();
            arena.extend_from_slice(&self.arena[from..from + l.len as usize]);
            arena.resize(start + cap as usize, Entry::default());
            l.start = start as u32;
            l.cap = cap;
        }
        self.arena = arena;
        self.garbage = 0;
    }
}

/// The room a link holding `len` candidates gets in a rebuilt arena.
fn room(len: u32) -> u32 {
    (len + len / 2).max(MIN_CAP)
}
