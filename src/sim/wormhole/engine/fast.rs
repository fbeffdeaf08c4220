//! The engine that looks only at inputs that may move (see the module
//! above): a set of awake sources and a set of awake links (a link stands
//! for the switch input at its far end), per link the inputs sleeping on
//! it, and a timer heap of sources waiting for a release.
//!
//! Every move is applied the moment it is decided. Decisions read the
//! queues as they stood at the start of the step: a link notes its
//! length when it first pops or pushes in a step (a queue pops and pushes
//! at most once a step), and that length stands for the queue until the
//! step ends. A queue's front unit only leaves on its own input's turn,
//! so the front a turn sees is the start-of-step front (a queue empty at
//! the start has none). Releases wait for the end of the step, so a head
//! never takes a link freed in the step it looks.
//!
//! A step first looks at the front unit of every awake link. A body flit
//! moves at once when its link ahead had room at the start of the step:
//! that link is held by its own worm, and only the front of the queue
//! behind it can enter it, so no other unit competes for it and the scan
//! order does not matter. It needs no path lookup: the link ahead is the
//! one its worm's head took from the body flit's link, which each link
//! keeps (no other head leaves a link before the worm in front has left
//! it). A head marks its input at its switch; the switches with marked
//! heads then serve them in scan order.

use std::cmp::Reverse;

use super::links::{flit_of, index, is_tail, pack, popped, slot, worm_of, Links};
use super::{Bits, Draws, Next, Order, Rules, Timers, NONE};
use crate::sim::wormhole::net::{WormNet, MAX_INPUTS};
use crate::sim::wormhole::{Arbitration, PathRule, Scan, Worm, WormError};

mod eject;

/// A processor's ejection queue between worms.
const IDLE: u64 = u64::MAX;

/// The state of one run.
pub(super) struct Engine<'a> {
    net: &'a WormNet,
    rules: Rules,
    worms: &'a [Worm],
    draws: Draws,
    links: Links,
    /// Per worm its path so far, `stride` links each, and its head's hop.
    path: Vec<u32>,
    stride: usize,
    hop: Vec<u32>,
    /// The worms by source processor (`src_start`), each processor's in
    /// release order; per processor the position of the one in front and
    /// its next flit.
    order: Vec<u32>,
    src_start: Vec<u32>,
    src_pos: Vec<u32>,
    src_flit: Vec<u32>,
    /// The sources and the links whose front unit to look at next step,
    /// and the links being looked at this step (walked and emptied word
    /// by word, then swapped with `awake_links`).
    awake_sources: Bits,
    awake_links: Bits,
    scan_links: Bits,
    /// Per switch, the inputs whose front head competes this step (bit
    /// `i`: input `i`), and the switches with any.
    heads: Vec<u8>,
    head_nodes: Bits,
    /// Links with sleepers that were released this step or whose queue
    /// popped while that could end a wait (body flits sleep on it, or
    /// heads do and no worm holds it): their sleepers are looked at once
    /// the step's moves are done.
    touched: Vec<u32>,
    /// Links whose holder's tail crossed them this step.
    released: Vec<u32>,
    timers: Timers,
    /// Processors whose ejection queue holds units.
    ejecting: Bits,
    /// Per processor, the unit (tail flag clear) its ejection queue must
    /// give next, or `IDLE` between worms: the link is held from a worm's
    /// head to its tail, so each worm's flits leave one after another.
    leaving: Vec<u64>,
    /// Per processor, its ejection link.
    ejection: Vec<u32>,
    /// Per worm, whether its tail left.
    whole: Vec<bool>,
    arrival: Vec<u64>,
    crossings: Vec<u32>,
    remaining: usize,
    /// Processors.
    n: u32,
}

impl<'a> Engine<'a> {
    pub(super) fn new(net: &'a WormNet, worms: &'a [Worm], rules: Rules, draws: Draws) -> Self {
        let (n, links) = (net.processors(), net.links() as usize);
        let mut arrival = vec![0u64; worms.len()];
        let mut order = Vec::with_capacity(worms.len());
        let mut src_start = vec![0u32; n as usize + 1];
        let mut remaining = 0;
        for (i, w) in worms.iter().enumerate() {
            if w.src != w.dst {
                order.push(i as u32);
                src_start[w.src as usize + 1] += 1;
                arrival[i] = u64::MAX;
                remaining += 1;
            }
        }
        order.sort_unstable_by_key(|&i| {
            let w = &worms[i as usize];
            (w.src, w.release, i)
        });
        for p in 0..n as usize {
            src_start[p + 1] += src_start[p];
        }
        let stride = 2 * net.levels() as usize + 2;
        let mut e = Engine {
            net,
            rules,
            worms,
            draws,
            links: Links::new(net, rules.q as usize),
            path: vec![NONE; worms.len() * stride],
            stride,
            hop: vec![0; worms.len()],
            src_pos: src_start[..n as usize].to_vec(),
            order,
            src_start,
            src_flit: vec![0; n as usize],
            awake_sources: Bits::new(n),
            awake_links: Bits::new(links as u32),
            scan_links: Bits::new(links as u32),
            heads: vec![0; net.nodes() as usize],
            head_nodes: Bits::new(net.nodes()),
            touched: Vec::new(),
            released: Vec::new(),
            timers: Timers::new(),
            ejecting: Bits::new(n),
            leaving: vec![IDLE; n as usize],
            ejection: (0..n).map(|p| net.ejection(p)).collect(),
            whole: vec![false; worms.len()],
            arrival,
            crossings: vec![0; links],
            remaining,
            n,
        };
        for p in 0..n {
            e.arm(p, 0);
        }
        e
    }

    /// The worm in front of processor `p`'s source, if any is left.
    #[inline]
    fn front_worm(&self, p: u32) -> Option<u32> {
        let at = self.src_pos[p as usize];
        (at < self.src_start[p as usize + 1]).then(|| self.order[at as usize])
    }

    /// Schedules processor `p`'s front worm: awake now if released by
    /// step `t`, else on the timer heap.
    fn arm(&mut self, p: u32, t: u64) {
        if let Some(w) = self.front_worm(p) {
            let r = self.worms[w as usize].release;
            if r <= t {
                self.awake_sources.set(p);
            } else {
                self.timers.push(Reverse((r, p)));
            }
        }
    }

    /// Removes the front unit of link `e`, a switch input, in step `t`;
    /// the link's sleepers are looked at once the step ends, and if more
    /// units wait, the input looks again next step.
    #[inline(always)]
    fn pop(&mut self, e: u32, t: u64) -> u64 {
        let u = self.links.pop(e, t);
        let l = &self.links.rec[e as usize];
        if l.len() > 0 {
            self.awake_links.set(e);
        }
        if l.pop_wakes() {
            self.touched.push(e);
        }
        u
    }

    /// Puts `u` onto link `e` in step `t`: a tail releases the link when
    /// the step ends and arrives if `e` is an ejection link; the far input
    /// looks at a new front next step.
    #[inline(always)]
    fn push(&mut self, e: u32, u: u64, t: u64) {
        let was = self.links.push(e, u, t);
        let to = self.links.rec[e as usize].to;
        self.landed(e, to, u, t, was);
    }

    /// The bookkeeping after `u` lands on link `e` (leading to `to`),
    /// which held `was` units: a tail releases the link when the step
    /// ends and arrives if `e` ejects; a link that was empty wakes.
    #[inline(always)]
    fn landed(&mut self, e: u32, to: u32, u: u64, t: u64, was: u32) {
        let tail = is_tail(u);
        if tail {
            self.released.push(e);
        }
        if to < self.n {
            self.ejecting.set(to);
            if tail {
                self.arrival[worm_of(u) as usize] = t;
                self.remaining -= 1;
            }
        } else if was == 0 {
            self.awake_links.set(e);
        }
    }

    /// A head of worm `w` crosses onto link `c` as its hop `hop`.
    #[inline]
    fn record_head(&mut self, w: u32, hop: u32, c: u32) {
        self.hop[w as usize] = hop;
        self.path[w as usize * self.stride + hop as usize] = c;
        self.crossings[c as usize] += 1;
    }

    /// Wakes a sleeper: link `s`'s far input, or the source of processor
    /// `s - links`.
    #[inline]
    fn wake(&mut self, s: u32) {
        let links = self.links.rec.len() as u32;
        if s < links {
            self.awake_links.set(s);
        } else {
            self.awake_sources.set(s - links);
        }
    }

    /// Sleeper `s` waits on link `e` (for room if `body`, else for the
    /// link to be neither held nor full). A link that popped earlier in
    /// step `t` while it had no sleepers is looked at when the step ends.
    #[inline]
    fn enlist(&mut self, e: u32, s: u32, body: bool, t: u64) {
        if self.links.enlist(e, s, body, t) {
            self.touched.push(e);
        }
    }

    /// Wakes every sleeper of the list starting at `entry` and frees its
    /// entries.
    #[inline]
    fn wake_list(&mut self, mut entry: u32) {
        while entry != NONE {
            let (s, next) = self.links.release_entry(entry);
            self.wake(s);
            entry = next;
        }
    }

    /// Releases the links whose holder's tail crossed them this step, then
    /// wakes the sleepers of the links touched this step whose wait is
    /// over: room for body flits, neither held nor full for heads. Only a
    /// pop or a release can end a wait, and a sleeper whose links are all
    /// still blocked would only sleep again, so the others stay asleep
    /// (the random draws do not depend on who looks).
    fn rouse(&mut self) {
        for i in 0..self.released.len() {
            let e = self.released[i];
            let l = &mut self.links.rec[e as usize];
            l.owner = NONE;
            if l.has_sleepers() {
                self.touched.push(e);
            }
        }
        self.released.clear();
        for i in 0..self.touched.len() {
            let l = &mut self.links.rec[self.touched[i] as usize];
            if l.len() >= self.rules.q {
                continue;
            }
            let bodies = std::mem::replace(&mut l.bodies, NONE);
            let heads = if l.owner == NONE {
                std::mem::replace(&mut l.heads, NONE)
            } else {
                NONE
            };
            self.wake_list(bodies);
            self.wake_list(heads);
        }
        self.touched.clear();
    }

    pub(super) fn route(&mut self) -> Result<(), WormError> {
        let mut t = 0u64;
        let (mut sources, mut nodes) = (Vec::new(), Vec::new());
        while self.remaining > 0 {
            while let Some(&Reverse((r, p))) = self.timers.peek() {
                if r > t {
                    break;
                }
                self.timers.pop();
                self.awake_sources.set(p);
            }
            // Only an input's own turn wakes it during the scan below (for
            // the next step), so the sets are emptied up front.
            self.awake_sources.take(&mut sources);
            std::mem::swap(&mut self.awake_links, &mut self.scan_links);
            for &p in &sources {
                self.inject(p, t);
            }
            let mut busy = !sources.is_empty();
            for i in 0..self.scan_links.0.len() {
                let mut b = std::mem::take(&mut self.scan_links.0[i]);
                busy |= b != 0;
                while b != 0 {
                    let e = i as u32 * 64 + b.trailing_zeros();
                    b &= b - 1;
                    self.look(e, t);
                }
            }
            self.head_nodes.take(&mut nodes);
            for &v in &nodes {
                let mask = std::mem::take(&mut self.heads[v as usize]);
                self.switch(v, mask, t);
            }
            busy |= self.eject_all(t);
            if !busy {
                // Nothing could move: wait for the next release.
                match self.timers.peek() {
                    Some(&Reverse((r, _))) => {
                        t = r;
                        continue;
                    }
                    None => {
                        return Err(WormError::Deadlock {
                            step: t,
                            remaining: self.remaining,
                        })
                    }
                }
            }
            self.rouse();
            if self.remaining > 0 {
                t += 1;
            }
        }
        self.drain(t);
        Ok(())
    }

    /// Whether at the start of step `t` a worm held link `e` or its queue
    /// was full: only an event on `e` changes that. A link taken this step
    /// is held (a head takes it for its worm; a body flit follows onto a
    /// link its worm holds), so this also says whether a head may take it.
    #[inline]
    fn blocked(&self, e: u32, t: u64) -> bool {
        self.links.rec[e as usize].owner != NONE || self.links.start_len(e, t) >= self.rules.q
    }

    /// Whether a body flit may follow onto link `e`, which its worm holds:
    /// no other unit can enter it this step.
    #[inline]
    fn room(&self, e: u32, t: u64) -> bool {
        self.links.start_len(e, t) < self.rules.q
    }

    /// Input `s` (a sleeper id, see [`Engine::wake`]) sleeps on `links`,
    /// or tries again next step.
    #[inline]
    fn settle(&mut self, s: u32, next: Next, links: &[u32], t: u64) {
        match next {
            Next::Retry => self.wake(s),
            Next::Sleep => {
                for &e in links {
                    self.enlist(e, s, false, t);
                }
            }
            Next::Room => {
                for &e in links {
                    self.enlist(e, s, true, t);
                }
            }
        }
    }

    /// Processor `p` offers the next flit of the worm in front of its
    /// source.
    fn inject(&mut self, p: u32, t: u64) {
        let Some(w) = self.front_worm(p) else {
            return;
        };
        let x = &self.worms[w as usize];
        if x.release > t {
            self.timers.push(Reverse((x.release, p)));
            return;
        }
        let len = x.len;
        let e = self.net.injection(p);
        let flit = self.src_flit[p as usize];
        let head = flit == 0;
        let ok = if head {
            !self.blocked(e, t)
        } else {
            self.room(e, t)
        };
        if !ok {
            let sleeper = self.links.rec.len() as u32 + p;
            let next = if head { Next::Sleep } else { Next::Room };
            self.settle(sleeper, next, &[e], t);
            return;
        }
        let tail = flit + 1 == len;
        if head {
            self.links.rec[e as usize].owner = w;
            self.record_head(w, 0, e);
        }
        if tail {
            self.src_pos[p as usize] += 1;
            self.src_flit[p as usize] = 0;
            self.arm(p, t + 1);
        } else {
            self.src_flit[p as usize] += 1;
            self.awake_sources.set(p);
        }
        self.push(e, pack(w, flit, tail), t);
    }

    /// The front unit of link `e` (if the queue held one at the start of
    /// step `t`): a body flit follows its head's link if that had room, a
    /// head is marked for its switch's scan. The body flit's hop is
    /// [`Engine::pop`] and [`Engine::push`] written out on the link
    /// records and queue slots borrowed once.
    #[inline(always)]
    fn look(&mut self, e: u32, t: u64) {
        let q = self.rules.q;
        let rec = &mut self.links.rec[..];
        let slots = &mut self.links.slots[..];
        let qs = q as usize;
        let l = &rec[e as usize];
        let ring = l.ring;
        let len = ring >> 16;
        if (if l.stamp == t { l.start } else { len }) == 0 {
            return;
        }
        let u = slots[index(e, qs, ring & 0xffff)];
        if flit_of(u) == 0 {
            let v = l.to;
            self.heads[v as usize] |= 1 << l.slot;
            self.head_nodes.set(v);
            return;
        }
        let next = l.succ;
        let d = &rec[next as usize];
        let was = d.ring >> 16;
        if (if d.stamp == t { d.start } else { was }) >= q {
            self.enlist(next, e, true, t);
            return;
        }
        let l = &mut rec[e as usize];
        if l.stamp != t {
            l.stamp = t;
            l.start = len;
        }
        l.ring = popped(ring, q);
        l.popped = t;
        if len > 1 {
            self.awake_links.set(e);
        }
        if l.pop_wakes() {
            self.touched.push(e);
        }
        let d = &mut rec[next as usize];
        if d.stamp != t {
            d.stamp = t;
            d.start = was;
        }
        assert!(was < q, "link {next} overflows");
        slots[index(next, qs, slot(d.ring, was, q))] = u;
        d.ring = d.ring.wrapping_add(1 << 16);
        let to = d.to;
        self.landed(next, to, u, t, was);
    }

    /// Switch `v` serves the heads at its inputs `mask` in scan order.
    fn switch(&mut self, v: u32, mask: u8, t: u64) {
        let net = self.net;
        let inputs = net.inputs(v);
        let k = inputs.len();
        let full = (1u32 << k) - 1;
        let mask = mask as u32 & full;
        // The scan starts at input r: 0 for FO, a fresh offset for RR and
        // for the ties of FF and priorities (the body flits' moves do not
        // depend on the order, so only the heads are ranked).
        let r = match self.rules.scan {
            Scan::Fixed => 0,
            _ if mask & (mask - 1) == 0 => 0,
            _ => self.draws.offset(t, v, k),
        };
        let keyed =
            self.rules.arbitration == Arbitration::Priority || self.rules.scan == Scan::Farthest;
        // The heads from r on, then those before r.
        let mut rotated = ((mask >> r) | (mask << (k - r))) & full;
        if !keyed {
            while rotated != 0 {
                let j = rotated.trailing_zeros() as usize;
                rotated &= rotated - 1;
                let i = if j + r >= k { j + r - k } else { j + r };
                self.head(v, inputs[i], t);
            }
            return;
        }
        let mut order: Order = [(0, 0, 0); MAX_INPUTS];
        let mut m = 0;
        while rotated != 0 {
            let j = rotated.trailing_zeros() as usize;
            rotated &= rotated - 1;
            let i = if j + r >= k { j + r - k } else { j + r };
            order[m] = (0, j, i);
            m += 1;
        }
        let order = &mut order[..m];
        if m > 1 {
            for o in order.iter_mut() {
                let x = &self.worms[worm_of(self.links.front(inputs[o.2])) as usize];
                o.0 = match self.rules.arbitration {
                    Arbitration::Priority => x.priority as u64,
                    Arbitration::Scan => u64::MAX - net.apex(x.src, x.dst) as u64,
                };
            }
            order.sort_unstable_by_key(|o| (o.0, o.1));
        }
        for &(_, _, i) in order.iter() {
            self.head(v, inputs[i], t);
        }
    }

    /// The head at the front of link `e`, an input of switch `v`, tries to
    /// move.
    fn head(&mut self, v: u32, e: u32, t: u64) {
        let u = self.links.front(e);
        let w = worm_of(u);
        let x = &self.worms[w as usize];
        let hop = self.hop[w as usize];
        let net = self.net;
        let down;
        let candidates: &[u32] = if net.covers(v, x.dst) {
            down = [net.down_towards(v, x.dst)];
            &down
        } else {
            net.ups(v)
        };
        let pick = match self.rules.path {
            _ if candidates.len() == 1 => Some(candidates[0]).filter(|&c| !self.blocked(c, t)),
            PathRule::Fixed => {
                let c = candidates[((x.coins >> ((hop + 1) % 64)) as usize) % candidates.len()];
                Some(c).filter(|&c| !self.blocked(c, t))
            }
            PathRule::Random => {
                let c = candidates[self.draws.up(t, w, candidates.len())];
                Some(c).filter(|&c| !self.blocked(c, t))
            }
            PathRule::Greedy => candidates.iter().copied().find(|&c| !self.blocked(c, t)),
        };
        match pick {
            Some(c) => {
                self.links.rec[c as usize].owner = w;
                self.links.rec[e as usize].succ = c;
                self.record_head(w, hop + 1, c);
                self.pop(e, t);
                self.push(c, u, t);
            }
            None => {
                // FP waits on its one link; RP and GP sleep only when no
                // candidate could open before an event.
                let watched: &[u32] = match self.rules.path {
                    PathRule::Fixed if candidates.len() > 1 => {
                        let c = ((x.coins >> ((hop + 1) % 64)) as usize) % candidates.len();
                        &candidates[c..=c]
                    }
                    _ => candidates,
                };
                let next = if watched.iter().all(|&c| self.blocked(c, t)) {
                    Next::Sleep
                } else {
                    Next::Retry
                };
                self.settle(e, next, watched, t);
            }
        }
    }
}
