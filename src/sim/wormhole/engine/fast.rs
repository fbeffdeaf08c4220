//! The engine that looks only at inputs that may move (see the module
//! above): a set of awake sources and a set of awake links (a link stands
//! for the switch input at its far end), per link the inputs sleeping on
//! it, and a timer heap of sources waiting for a release.
//!
//! A step first looks at the front unit of every awake link. A body flit
//! moves at once when its link ahead had room at the start of the step:
//! that link is held by its own worm, and only the front of the queue
//! behind it can enter it, so no other unit competes for it and the scan
//! order does not matter. A head marks its input at its switch; the
//! switches with marked heads then serve them in scan order.

use std::cmp::Reverse;

use super::{Bits, Draws, From, Next, Order, Outcome, Queues, Rules, Timers, Unit, MAX_HOPS, NONE};
use crate::sim::wormhole::net::{WormNet, MAX_INPUTS};
use crate::sim::wormhole::{Arbitration, PathRule, Scan, Worm, WormError};

/// The state of one run.
pub(super) struct Engine<'a> {
    net: &'a WormNet,
    rules: Rules,
    worms: &'a [Worm],
    draws: Draws,
    queues: Queues,
    /// The worm holding each link, or `NONE`.
    owner: Vec<u32>,
    /// Per worm its path so far, `stride` links each.
    path: Vec<u32>,
    stride: usize,
    /// Per processor, its worms in release order, and the position and
    /// next flit of the one in front.
    source: Vec<Vec<u32>>,
    src_pos: Vec<u32>,
    src_flit: Vec<u32>,
    /// The sources and the links whose front unit to look at next step.
    awake_sources: Bits,
    awake_links: Bits,
    /// Per switch, the inputs whose front head competes this step (bit
    /// `i`: input `i`), and the switches with any.
    heads: Vec<u8>,
    head_nodes: Bits,
    /// Per link, the inputs sleeping until it is neither held nor full
    /// (heads) and until it has room (body flits): a link stands for the
    /// input at its far end, `links + p` for processor `p`'s source.
    heads_waiting: Vec<Vec<u32>>,
    bodies_waiting: Vec<Vec<u32>>,
    /// Links with sleepers whose queue popped or that were released this
    /// step: their sleepers are looked at once the step's moves are done.
    touched: Vec<u32>,
    timers: Timers,
    /// Per link, its position among its far node's inputs.
    slot: Vec<u8>,
    /// Processors whose ejection queue holds units.
    ejecting: Bits,
    /// Per worm, flits ejected so far (they must leave in order).
    ejected: Vec<u32>,
    arrival: Vec<u64>,
    crossings: Vec<u32>,
    remaining: usize,
    unit_hops: u64,
    moves: Vec<(From, u32)>,
}

impl<'a> Engine<'a> {
    pub(super) fn new(net: &'a WormNet, worms: &'a [Worm], rules: Rules, draws: Draws) -> Self {
        let (n, links) = (net.processors(), net.links() as usize);
        let mut source = vec![Vec::new(); n as usize];
        let mut arrival = vec![0u64; worms.len()];
        let mut remaining = 0;
        for (i, w) in worms.iter().enumerate() {
            if w.src != w.dst {
                source[w.src as usize].push(i as u32);
                arrival[i] = u64::MAX;
                remaining += 1;
            }
        }
        for s in &mut source {
            s.sort_by_key(|&i| (worms[i as usize].release, i));
        }
        let mut slot = vec![0u8; links];
        for v in n..net.nodes() {
            for (i, &e) in net.inputs(v).iter().enumerate() {
                slot[e as usize] = i as u8;
            }
        }
        let stride = 2 * net.levels() as usize + 2;
        assert!(stride <= MAX_HOPS, "paths of {stride} links");
        let mut e = Engine {
            net,
            rules,
            worms,
            draws,
            queues: Queues::new(links, rules.q as usize),
            owner: vec![NONE; links],
            path: vec![NONE; worms.len() * stride],
            stride,
            source,
            src_pos: vec![0; n as usize],
            src_flit: vec![0; n as usize],
            awake_sources: Bits::new(n),
            awake_links: Bits::new(links as u32),
            heads: vec![0; net.nodes() as usize],
            head_nodes: Bits::new(net.nodes()),
            heads_waiting: vec![Vec::new(); links],
            bodies_waiting: vec![Vec::new(); links],
            touched: Vec::new(),
            timers: Timers::new(),
            slot,
            ejecting: Bits::new(n),
            ejected: vec![0; worms.len()],
            arrival,
            crossings: vec![0; links],
            remaining,
            unit_hops: 0,
            moves: Vec::new(),
        };
        for p in 0..n {
            e.arm(p, 0);
        }
        e
    }

    /// Schedules processor `p`'s front worm: awake now if released by
    /// step `t`, else on the timer heap.
    fn arm(&mut self, p: u32, t: u64) {
        if let Some(&w) = self.source[p as usize].get(self.src_pos[p as usize] as usize) {
            let r = self.worms[w as usize].release;
            if r <= t {
                self.awake_sources.set(p);
            } else {
                self.timers.push(Reverse((r, p)));
            }
        }
    }

    /// Wakes a sleeper: link `s`'s far input, or the source of processor
    /// `s - links`.
    #[inline]
    fn wake(&mut self, s: u32) {
        let links = self.owner.len() as u32;
        if s < links {
            self.awake_links.set(s);
        } else {
            self.awake_sources.set(s - links);
        }
    }

    /// Link `e`'s queue popped or it was released: its sleepers are
    /// looked at when the step ends.
    #[inline]
    fn event(&mut self, e: u32) {
        let i = e as usize;
        if !self.heads_waiting[i].is_empty() || !self.bodies_waiting[i].is_empty() {
            self.touched.push(e);
        }
    }

    /// Wakes the sleepers of the links touched this step whose wait is
    /// over at its end: room for body flits, neither held nor full for
    /// heads. Only a pop or a release can end a wait, and a sleeper whose
    /// links are all still blocked would only sleep again, so the others
    /// stay asleep (the random draws do not depend on who looks).
    fn rouse(&mut self) {
        let mut touched = std::mem::take(&mut self.touched);
        for &e in &touched {
            let i = e as usize;
            if self.queues.len(e) >= self.rules.q {
                continue;
            }
            let bodies = std::mem::take(&mut self.bodies_waiting[i]);
            self.bodies_waiting[i] = self.wake_each(bodies);
            if self.owner[i] == NONE {
                let heads = std::mem::take(&mut self.heads_waiting[i]);
                self.heads_waiting[i] = self.wake_each(heads);
            }
        }
        touched.clear();
        self.touched = touched;
    }

    /// Wakes every sleeper of `list` and hands the list back empty (its
    /// allocation kept for the link's next sleepers).
    #[inline]
    fn wake_each(&mut self, mut list: Vec<u32>) -> Vec<u32> {
        for &s in &list {
            self.wake(s);
        }
        list.clear();
        list
    }

    pub(super) fn route(&mut self) -> Result<(), WormError> {
        let mut t = 0u64;
        let (mut sources, mut links, mut nodes, mut eject) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
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
            self.awake_links.take(&mut links);
            self.ejecting.collect(&mut eject);
            if sources.is_empty() && links.is_empty() && eject.is_empty() {
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
            self.moves.clear();
            for &p in &sources {
                self.inject(p, t);
            }
            for &e in &links {
                self.look(e);
            }
            self.head_nodes.take(&mut nodes);
            for &v in &nodes {
                let mask = std::mem::take(&mut self.heads[v as usize]);
                self.switch(v, mask, t);
            }
            for &p in &eject {
                self.eject(p);
            }
            let moves = std::mem::take(&mut self.moves);
            for &(from, to) in &moves {
                self.apply(from, to, t);
            }
            self.unit_hops += moves.len() as u64;
            self.rouse();
            self.moves = moves;
            if self.remaining > 0 {
                t += 1;
            }
        }
        self.drain();
        Ok(())
    }

    /// Whether a worm holds link `e` or its queue is full: only an event
    /// on `e` changes that. A link taken this step is held (a head takes
    /// it for its worm; a body flit follows onto a link its worm holds),
    /// so this also says whether a head may take it.
    #[inline]
    fn blocked(&self, e: u32) -> bool {
        self.owner[e as usize] != NONE || self.queues.len(e) >= self.rules.q
    }

    /// Whether a body flit may follow onto link `e`, which its worm holds:
    /// no other unit can enter it this step.
    #[inline]
    fn room(&self, e: u32) -> bool {
        self.queues.len(e) < self.rules.q
    }

    /// Input `s` (a sleeper id, see [`Engine::wake`]) sleeps on `links`,
    /// or tries again next step.
    #[inline]
    fn settle(&mut self, s: u32, next: Next, links: &[u32]) {
        match next {
            Next::Retry => self.wake(s),
            Next::Sleep => {
                for &e in links {
                    self.heads_waiting[e as usize].push(s);
                }
            }
            Next::Room => {
                for &e in links {
                    self.bodies_waiting[e as usize].push(s);
                }
            }
        }
    }

    /// Processor `p` offers the next flit of the worm in front of its
    /// source.
    fn inject(&mut self, p: u32, t: u64) {
        let Some(&w) = self.source[p as usize].get(self.src_pos[p as usize] as usize) else {
            return;
        };
        if self.worms[w as usize].release > t {
            self.timers
                .push(Reverse((self.worms[w as usize].release, p)));
            return;
        }
        let e = self.net.injection(p);
        let head = self.src_flit[p as usize] == 0;
        let ok = if head { !self.blocked(e) } else { self.room(e) };
        let sleeper = self.owner.len() as u32 + p;
        if ok {
            if head {
                self.owner[e as usize] = w;
            }
            self.moves.push((From::Source(p), e));
        } else if head {
            self.settle(sleeper, Next::Sleep, &[e]);
        } else {
            self.settle(sleeper, Next::Room, &[e]);
        }
    }

    /// The front unit of link `e` (if any): a body flit follows its head's
    /// link if that had room, a head is marked for its switch's scan.
    #[inline]
    fn look(&mut self, e: u32) {
        if self.queues.len(e) == 0 {
            return;
        }
        let u = self.queues.front(e);
        if u.flit == 0 {
            let v = self.net.head_of(e);
            self.heads[v as usize] |= 1 << self.slot[e as usize];
            self.head_nodes.set(v);
            return;
        }
        let next = self.path[u.worm as usize * self.stride + u.hop as usize + 1];
        if self.room(next) {
            self.moves.push((From::Link(e), next));
        } else {
            self.bodies_waiting[next as usize].push(e);
        }
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
                let x = &self.worms[self.queues.front(inputs[o.2]).worm as usize];
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
        let u = self.queues.front(e);
        let x = self.worms[u.worm as usize];
        let net = self.net;
        let down;
        let candidates: &[u32] = if net.covers(v, x.dst) {
            down = [net.down_towards(v, x.dst)];
            &down
        } else {
            net.ups(v)
        };
        let pick = match self.rules.path {
            _ if candidates.len() == 1 => Some(candidates[0]).filter(|&c| !self.blocked(c)),
            PathRule::Fixed => {
                let c = candidates[((x.coins >> ((u.hop + 1) % 64)) as usize) % candidates.len()];
                Some(c).filter(|&c| !self.blocked(c))
            }
            PathRule::Random => {
                let c = candidates[self.draws.up(t, u.worm, candidates.len())];
                Some(c).filter(|&c| !self.blocked(c))
            }
            PathRule::Greedy => candidates.iter().copied().find(|&c| !self.blocked(c)),
        };
        match pick {
            Some(c) => {
                self.owner[c as usize] = u.worm;
                self.moves.push((From::Link(e), c));
            }
            None => {
                // FP waits on its one link; RP and GP sleep only when no
                // candidate could open before an event.
                let watched: &[u32] = match self.rules.path {
                    PathRule::Fixed if candidates.len() > 1 => {
                        let c = ((x.coins >> ((u.hop + 1) % 64)) as usize) % candidates.len();
                        &candidates[c..=c]
                    }
                    _ => candidates,
                };
                let next = if watched.iter().all(|&c| self.blocked(c)) {
                    Next::Sleep
                } else {
                    Next::Retry
                };
                self.settle(e, next, watched);
            }
        }
    }
    /// Processor `p` removes the front of its ejection queue.
    #[inline]
    fn eject(&mut self, p: u32) {
        let e = self.net.ejection(p);
        let u = self.queues.pop(e);
        let w = u.worm as usize;
        assert_eq!(u.flit, self.ejected[w], "worm {w}'s flits leave in order");
        assert_eq!(self.worms[w].dst, p, "worm {w} leaves at its destination");
        self.ejected[w] += 1;
        if self.queues.len(e) == 0 {
            self.ejecting.clear(p);
        }
        self.event(e);
    }

    /// Moves a unit from `from` onto link `to` in step `t`.
    fn apply(&mut self, from: From, to: u32, t: u64) {
        let u = match from {
            From::Source(p) => {
                let pi = p as usize;
                let w = self.source[pi][self.src_pos[pi] as usize];
                let flit = self.src_flit[pi];
                let tail = flit + 1 == self.worms[w as usize].len;
                if tail {
                    self.src_pos[pi] += 1;
                    self.src_flit[pi] = 0;
                    self.arm(p, t + 1);
                } else {
                    self.src_flit[pi] += 1;
                    self.awake_sources.set(p);
                }
                Unit {
                    worm: w,
                    flit,
                    hop: 0,
                    tail,
                }
            }
            From::Link(e) => {
                let mut u = self.queues.pop(e);
                if self.queues.len(e) > 0 {
                    self.awake_links.set(e);
                }
                self.event(e);
                u.hop += 1;
                u
            }
        };
        let w = u.worm as usize;
        if u.flit == 0 {
            self.path[w * self.stride + u.hop as usize] = to;
            self.crossings[to as usize] += 1;
        }
        let tail = u.tail;
        if tail {
            self.owner[to as usize] = NONE;
            self.event(to);
        }
        let was_empty = self.queues.len(to) == 0;
        self.queues.push(to, u);
        let at = self.net.head_of(to);
        if at < self.net.processors() {
            self.ejecting.set(at);
            if tail {
                self.arrival[w] = t;
                self.remaining -= 1;
            }
        } else if was_empty {
            self.awake_links.set(to);
        }
    }

    /// Ejects what is left in the ejection queues, checking every worm
    /// left whole and in order.
    fn drain(&mut self) {
        let mut eject = Vec::new();
        self.ejecting.collect(&mut eject);
        for &p in &eject {
            while self.queues.len(self.net.ejection(p)) > 0 {
                self.eject(p);
            }
        }
        for (w, x) in self.worms.iter().enumerate() {
            if x.src != x.dst {
                assert_eq!(self.ejected[w], x.len, "worm {w} arrived whole");
            }
        }
    }

    pub(super) fn finish(self) -> Outcome {
        Outcome::assemble(
            &self.path,
            self.stride,
            self.arrival,
            &self.crossings,
            self.unit_hops,
        )
    }
}
