//! Every directed link's candidates: a 64-byte record per link, in link
//! order, holding the first [`HEAD`] places of its heap (or list), its
//! pending arrival (the one packet that comes over the link before it
//! along the same line, see the module doc of [`super`]) and where the
//! rest of its candidates live: the slice `arena[start .. start + cap]`
//! of one shared arena. Most links hold few candidates and never touch the
//! arena. A full slice moves to the arena's end with twice the room; once
//! moved slices leave a third of the arena as garbage, it is rebuilt in
//! link order, so that serving links in order walks memory in order.
//! Memory stays linear in packets plus links.

use super::bucket::{Entry, Heap, HEAD};

/// Garbage below this many places is never collected.
const MIN_GARBAGE: usize = 1 << 14;

/// One directed link: its first candidates, its pending arrival, and where
/// the others live. One cache line.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub(super) struct Link {
    /// The packet that arrived over the previous link of its line and has
    /// yet to join the candidates (`left == 0`: none).
    pub pend: Entry,
    /// Places `0 .. HEAD` of the heap.
    pub head: [Entry; HEAD],
    /// Candidates in the heap.
    pub len: u32,
    /// First place of its arena slice.
    pub start: u32,
    /// Places in its arena slice.
    pub cap: u32,
}

/// The links' candidates and which links have any.
pub(super) struct Links {
    /// By link index.
    pub rec: Vec<Link>,
    /// The arena slices of all links.
    pub arena: Vec<Entry>,
    /// Bit `b`: link `b` has a candidate (in its heap or pending).
    pub active: Vec<u64>,
    /// Places no link owns.
    garbage: usize,
}

impl Links {
    /// No candidates on `links` links.
    pub fn new(links: usize) -> Links {
        Links {
            rec: vec![Link::default(); links],
            arena: Vec::new(),
            active: vec![0; links.div_ceil(64)],
            garbage: 0,
        }
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

    /// The candidates of link `b` and its record.
    #[inline]
    pub fn heap(&mut self, b: usize) -> (Heap<'_>, &mut Entry) {
        let l = &mut self.rec[b];
        let len = l.len as usize;
        let start = l.start as usize;
        let tail = &mut self.arena[start..start + len.saturating_sub(HEAD)];
        (
            Heap {
                head: &mut l.head,
                tail,
                len,
            },
            &mut l.pend,
        )
    }

    /// Adds `e` to the candidates of link `b` (to its heap, or to its list
    /// if `list`).
    #[inline]
    pub fn push(&mut self, b: usize, e: Entry, list: bool) {
        let l = &mut self.rec[b];
        if l.len as usize >= HEAD && l.len as usize - HEAD == l.cap as usize {
            self.grow(b);
        }
        self.rec[b].len += 1;
        let (mut h, _) = self.heap(b);
        if list {
            let last = h.len - 1;
            h.swap(last, e);
        } else {
            h.push(e);
        }
        self.activate(b);
    }

    /// Moves the arena slice of link `b` to the arena's end with twice the
    /// room.
    #[cold]
    fn grow(&mut self, b: usize) {
        let l = self.rec[b];
        let cap = (2 * l.cap).max(4);
        let start = self.arena.len();
        assert!(
            start + cap as usize <= u32::MAX as usize,
            "too many candidates for the link arena"
        );
        let from = l.start as usize;
        self.arena.extend_from_within(from..from + l.cap as usize);
        self.arena.resize(start + cap as usize, Entry::default());
        self.garbage += l.cap as usize;
        let r = &mut self.rec[b];
        r.start = start as u32;
        r.cap = cap;
    }

    /// Rebuilds the arena in link order once a third of it is garbage.
    pub fn collect(&mut self) {
        if self.garbage > MIN_GARBAGE && 3 * self.garbage > self.arena.len() {
            self.rebuild();
        }
    }

    /// Lays the arena out afresh in link order, every link with room for
    /// half as many again as it holds there.
    fn rebuild(&mut self) {
        let room = |l: &Link| {
            let n = (l.len as usize).saturating_sub(HEAD);
            if n == 0 { 0 } else { (n + n / 2).max(4) }
        };
        let size: usize = self.rec.iter().map(room).sum();
        assert!(size <= u32::MAX as usize, "too many candidates for the link arena");
        let mut arena = Vec::with_capacity(size + size / 2);
        for l in &mut self.rec {
            let cap = room(l);
            let from = l.start as usize;
            let start = arena.len();
            let n = (l.len as usize).saturating_sub(HEAD);
            arena.extend_from_slice(&self.arena[from..from + n]);
            arena.resize(start + cap, Entry::default());
            l.start = start as u32;
            l.cap = cap as u32;
        }
        self.arena = arena;
        self.garbage = 0;
    }
}
