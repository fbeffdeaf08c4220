//! Every directed link's candidates. Links are numbered slot-major, `b =
//! slot * span + pu` with `span` the PUs rounded up to a multiple of 64,
//! so that each slot's links fill whole words of the [`Links::active`]
//! bitset and the links of one line follow each other in memory. A link's
//! record holds the first [`HEAD`] places of its heap (or list) and where
//! the rest live: the slice `arena[start .. start + cap]` of one shared
//! arena. A full slice moves to the arena's end with twice the room; once
//! moved slices leave a third of the arena as garbage, it is rebuilt in
//! link order, so that serving links in order walks memory in order.
//! Memory stays linear in packets plus links.

use super::bucket::{best_drawn, sift_head, Entry, Heap, HEAD};

/// Garbage below this many places is never collected.
const MIN_GARBAGE: usize = 1 << 14;

/// One directed link: its first candidates, where the others live, and
/// the packet arriving over the link before it in the current step.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub(super) struct Link {
    /// Places `0 .. HEAD` of the heap.
    pub head: [Entry; HEAD],
    /// The packet that arrived over the previous link of its line in this
    /// step and joins the candidates once this link has chosen (`left ==
    /// 0`: none).
    pub pend: Entry,
    /// Candidates.
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
    /// Bit `b`: link `b` has a candidate.
    pub active: Vec<u64>,
    /// Links of one slot: the PUs rounded up to a multiple of 64.
    pub span: usize,
    /// Places no link owns.
    garbage: usize,
    /// Places added at the arena's end since it was last laid out, out of
    /// link order.
    appended: usize,
}

impl Links {
    /// No candidates on `slots` links of each of `pus` PUs.
    pub fn new(pus: usize, slots: usize) -> Links {
        let span = pus.div_ceil(64) * 64;
        Links {
            rec: vec![Link::default(); slots * span],
            arena: Vec::new(),
            active: vec![0; slots * span / 64],
            span,
            garbage: 0,
            appended: 0,
        }
    }

    /// The link of `pu` in `slot`.
    #[inline]
    pub fn index(&self, pu: u32, slot: usize) -> usize {
        slot * self.span + pu as usize
    }

    /// The parts a sweep works on.
    pub fn lanes(&mut self) -> Lanes<'_> {
        Lanes {
            rec: &mut self.rec,
            arena: &mut self.arena,
            active: &mut self.active,
        }
    }

    /// Adds `e` to the candidates of link `b` (to its heap, or to its list
    /// if `list`).
    #[inline]
    pub fn push(&mut self, b: usize, e: Entry, list: bool) {
        let l = &mut self.rec[b];
        let len = l.len as usize;
        if len == 0 {
            l.head[0] = e;
            l.len = 1;
            self.active[b >> 6] |= 1 << (b & 63);
            return;
        }
        if len >= HEAD && len - HEAD == l.cap as usize {
            self.grow(b);
        }
        self.rec[b].len += 1;
        let mut h = heap(&mut self.rec[b], &mut self.arena);
        if list {
            h.append(e);
        } else {
            h.push(e);
        }
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
        self.appended += cap as usize;
        let r = &mut self.rec[b];
        r.start = start as u32;
        r.cap = cap;
    }

    /// Rebuilds the arena in link order once a third of it is garbage.
    pub fn collect(&mut self) {
        let n = self.arena.len();
        if self.garbage + self.appended > MIN_GARBAGE
            && (3 * self.garbage > n || 16 * self.appended > n)
        {
            self.rebuild();
        }
    }

    /// Lays the arena out afresh in link order, every link with room for
    /// half as many again as it holds there.
    fn rebuild(&mut self) {
        let room = |l: &Link| {
            let n = (l.len as usize).saturating_sub(HEAD);
            if n == 0 {
                0
            } else {
                (n + n / 2).max(4)
            }
        };
        let size: usize = self.rec.iter().map(room).sum();
        assert!(
            size <= u32::MAX as usize,
            "too many candidates for the link arena"
        );
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
        self.appended = 0;
    }
}

/// The parts of [`Links`] a sweep works on, borrowed apart and held in a
/// local, so that the sweep does not read the vectors' addresses and
/// lengths again from [`Links`] after each store to a record.
pub(super) struct Lanes<'l> {
    /// [`Links::rec`].
    pub rec: &'l mut [Link],
    /// [`Links::arena`].
    pub arena: &'l mut [Entry],
    /// [`Links::active`].
    pub active: &'l mut [u64],
}

impl Lanes<'_> {
    /// Asks the memory system, ahead of the sweep, for the record of link
    /// `far` and, if link `near` keeps candidates in the arena, for the
    /// first places of its slice (read from its record, asked for earlier).
    /// At large sizes the records and the arena far exceed the caches and
    /// serving a link waits mostly on these loads. Indices out of range
    /// ask for nothing useful but are harmless.
    #[inline(always)]
    pub fn prefetch(&self, far: usize, near: usize) {
        prefetch(self.rec.as_ptr().wrapping_add(far));
        if let Some(l) = self.rec.get(near) {
            if l.len as usize > HEAD {
                let p = self.arena.as_ptr().wrapping_add(l.start as usize);
                prefetch(p);
                // The next line: the tail's second level (places 4 to 11)
                // starts 48 bytes in.
                prefetch(p.wrapping_add(5));
            }
        }
    }

    /// Serves link `b` in step `t`: takes the candidate it carries, if it
    /// had any at the step's start, and adds its pending arrival to its
    /// candidates.
    #[inline(always)]
    pub fn take(&mut self, b: usize, list: bool, seed: u64, t: u64) -> Option<Entry> {
        let l = &mut self.rec[b];
        let pend = l.pend;
        let len = l.len as usize;
        let top = l.head[0];
        if pend.left() != 0 && len.wrapping_sub(1) < HEAD && !list {
            // An arrival into a heap within the record: the common case.
            l.pend.aux = 0;
            sift_head(&mut l.head, len, pend);
            return Some(top);
        }
        take_rest(
            &mut *self.rec,
            &mut *self.arena,
            &mut *self.active,
            b,
            list,
            seed,
            t,
        )
    }
}

/// [`Lanes::take`] but for an arrival into a heap within the record.
#[inline]
fn take_rest(
    rec: &mut [Link],
    arena: &mut [Entry],
    active: &mut [u64],
    b: usize,
    list: bool,
    seed: u64,
    t: u64,
) -> Option<Entry> {
    let l = &mut rec[b];
    let pend = l.pend;
    let len = l.len as usize;
    if list && len > 1 {
        return Some(take_drawn(&mut rec[b], arena, seed, t));
    }
    let top = l.head[0];
    // What fills the place the top leaves: the arrival, or the last.
    let e = if pend.left() != 0 {
        l.pend.aux = 0;
        if len == 0 {
            l.head[0] = pend;
            l.len = 1;
            return None;
        }
        pend
    } else {
        l.len -= 1;
        if len == 1 {
            active[b >> 6] &= !(1 << (b & 63));
            return Some(top);
        }
        if len <= HEAD {
            l.head[len - 1]
        } else {
            arena[l.start as usize + len - 1 - HEAD]
        }
    };
    let len = l.len as usize;
    if len <= HEAD {
        sift_head(&mut l.head, len, e);
    } else {
        heap(l, arena).replace_top(e);
    }
    Some(top)
}

/// [`Lanes::take`] for the random strategy's list of more than one.
#[cold]
fn take_drawn(l: &mut Link, arena: &mut [Entry], seed: u64, t: u64) -> Entry {
    let pend = l.pend;
    l.pend.aux = 0;
    let mut h = heap(l, arena);
    let (i, _) = best_drawn(&h, seed, t);
    if pend.left() != 0 {
        return h.swap(i, pend);
    }
    let out = h.swap_remove(i);
    l.len -= 1;
    out
}

/// The candidates of the link of record `l`.
#[inline]
fn heap<'h>(l: &'h mut Link, arena: &'h mut [Entry]) -> Heap<'h> {
    let len = l.len as usize;
    let start = l.start as usize;
    let tail = &mut arena[start..start + len.saturating_sub(HEAD)];
    Heap {
        head: &mut l.head,
        tail,
        len,
    }
}

/// Hints that the cache line holding `p` will soon be read. A hint only:
/// `p` is never dereferenced, so any address will do.
#[inline(always)]
pub(super) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program can see and never
    // faults, whatever the address; SSE is part of the x86_64 baseline.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
