//! The plain SYNC engine for tests: every node visits every nonempty input
//! every step, exactly as the SYNC step of docs/simulation.md reads. The fast engine
//! ([`super::engine`]) must give the same run, move for move.

use rand_chacha::ChaCha8Rng;

use super::draw::Draws;
use super::engine::{check, Bits, Outcome, Rules, NONE};
use super::net::{WormNet, MAX_INPUTS};
use super::{Arbitration, PathRule, Scan, Worm, WormError};
use queues::{From, Queues, Unit};

mod queues;

/// The state of one run.
struct Engine<'a> {
    net: &'a WormNet,
    rules: Rules,
    worms: &'a [Worm],
    queues: Queues,
    /// The worm holding each link, or `NONE`.
    owner: Vec<u32>,
    /// `t + 1` for a link taken in step `t`.
    used: Vec<u64>,
    /// Per worm its path so far, `stride` links each.
    path: Vec<u32>,
    stride: usize,
    /// Per processor, its worms in release order, and the position and
    /// next flit of the one in front.
    source: Vec<Vec<u32>>,
    src_pos: Vec<u32>,
    src_flit: Vec<u32>,
    /// Units waiting at each node's inputs (its source for a processor).
    load: Vec<u32>,
    active: Bits,
    /// Processors whose ejection queue holds units.
    ejecting: Bits,
    /// Per worm, flits ejected so far (they must leave in order).
    ejected: Vec<u32>,
    arrival: Vec<u64>,
    crossings: Vec<u32>,
    in_links: u64,
    remaining: usize,
    unit_hops: u64,
    /// Whether a random up link was blocked this step while another was
    /// open (then a step without moves is no deadlock).
    hopeful: bool,
}

/// Routes `worms` over `net` under `rules`, visiting every input every
/// step; `rng` gives the run's key for [`Draws`].
pub(super) fn run(
    net: &WormNet,
    worms: &[Worm],
    rules: Rules,
    rng: &mut ChaCha8Rng,
) -> Result<Outcome, WormError> {
    check(net, worms, rules)?;
    let mut e = Engine::new(net, worms, rules);
    e.route(&Draws::new(rng))?;
    Ok(e.finish())
}

impl<'a> Engine<'a> {
    fn new(net: &'a WormNet, worms: &'a [Worm], rules: Rules) -> Self {
        let (n, links) = (net.processors(), net.links() as usize);
        let mut source = vec![Vec::new(); n as usize];
        let mut arrival = vec![0u64; worms.len()];
        let mut load = vec![0u32; net.nodes() as usize];
        let mut active = Bits::new(net.nodes());
        let mut remaining = 0;
        for (i, w) in worms.iter().enumerate() {
            if w.src != w.dst {
                source[w.src as usize].push(i as u32);
                load[w.src as usize] += w.len;
                active.set(w.src);
                arrival[i] = u64::MAX;
                remaining += 1;
            }
        }
        for s in &mut source {
            s.sort_by_key(|&i| (worms[i as usize].release, i));
        }
        let stride = 2 * net.levels() as usize + 2;
        Engine {
            net,
            rules,
            worms,
            queues: Queues::new(links, rules.q as usize),
            owner: vec![NONE; links],
            used: vec![0; links],
            path: vec![NONE; worms.len() * stride],
            stride,
            source,
            src_pos: vec![0; n as usize],
            src_flit: vec![0; n as usize],
            load,
            active,
            ejecting: Bits::new(n),
            ejected: vec![0; worms.len()],
            arrival,
            crossings: vec![0; links],
            in_links: 0,
            remaining,
            unit_hops: 0,
            hopeful: false,
        }
    }

    fn route(&mut self, draws: &Draws) -> Result<(), WormError> {
        let mut t = 0u64;
        let (mut nodes, mut eject) = (Vec::new(), Vec::new());
        let mut moves: Vec<(From, u32)> = Vec::new();
        while self.remaining > 0 {
            if self.in_links == 0 {
                // Nothing in flight: skip to the next release.
                t = t.max(self.next_release());
            }
            moves.clear();
            self.hopeful = false;
            self.active.collect(&mut nodes);
            for &v in &nodes {
                if v < self.net.processors() {
                    self.inject(v, t, &mut moves);
                } else {
                    self.switch(v, t, draws, &mut moves);
                }
            }
            self.ejecting.collect(&mut eject);
            for &p in &eject {
                self.eject(p);
            }
            for &(from, to) in &moves {
                self.apply(from, to, t);
            }
            let stuck = !self.hopeful && (self.in_links > 0 || self.next_release() <= t);
            if moves.is_empty() && eject.is_empty() && stuck {
                return Err(WormError::Deadlock {
                    step: t,
                    remaining: self.remaining,
                });
            }
            if self.remaining > 0 {
                t += 1;
            }
        }
        self.drain();
        Ok(())
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

    /// The earliest release among the worms waiting at their sources.
    fn next_release(&self) -> u64 {
        (0..self.net.processors())
            .filter_map(|p| self.source[p as usize].get(self.src_pos[p as usize] as usize))
            .map(|&w| self.worms[w as usize].release)
            .min()
            .unwrap_or(0)
    }

    /// Whether a head may take link `e` in step `t`.
    #[inline]
    fn free(&self, e: u32, t: u64) -> bool {
        self.owner[e as usize] == NONE
            && self.used[e as usize] != t + 1
            && self.queues.len(e) < self.rules.q
    }

    /// Whether a body flit may follow onto link `e` in step `t`.
    #[inline]
    fn room(&self, e: u32, t: u64) -> bool {
        self.used[e as usize] != t + 1 && self.queues.len(e) < self.rules.q
    }

    #[inline]
    fn take(&mut self, e: u32, t: u64, worm: u32, head: bool) {
        self.used[e as usize] = t + 1;
        if head {
            self.owner[e as usize] = worm;
        }
    }

    /// Processor `p` offers the next flit of the worm in front of its
    /// source, once that worm is released.
    fn inject(&mut self, p: u32, t: u64, moves: &mut Vec<(From, u32)>) {
        let Some(&w) = self.source[p as usize].get(self.src_pos[p as usize] as usize) else {
            return;
        };
        if self.worms[w as usize].release > t {
            return;
        }
        let e = self.net.injection(p);
        let head = self.src_flit[p as usize] == 0;
        let ok = if head {
            self.free(e, t)
        } else {
            self.room(e, t)
        };
        if ok {
            self.take(e, t, w, head);
            moves.push((From::Source(p), e));
        }
    }

    /// Switch `v` serves its nonempty inputs in scan order.
    fn switch(&mut self, v: u32, t: u64, draws: &Draws, moves: &mut Vec<(From, u32)>) {
        let inputs = self.net.inputs(v);
        let k = inputs.len();
        // (sort key, scan position, link) of the nonempty inputs.
        let mut order = [(0u64, 0usize, 0u32); MAX_INPUTS];
        let mut m = 0;
        for (i, &e) in inputs.iter().enumerate() {
            if self.queues.len(e) > 0 {
                order[m] = (0, i, e);
                m += 1;
            }
        }
        let order = &mut order[..m];
        if m > 1 && self.rules.scan != Scan::Fixed {
            let r = draws.offset(t, v, k);
            for o in order.iter_mut() {
                o.1 = (o.1 + k - r) % k;
            }
        }
        for o in order.iter_mut() {
            let w = self.queues.front(o.2).worm as usize;
            o.0 = match (self.rules.arbitration, self.rules.scan) {
                (Arbitration::Priority, _) => self.worms[w].priority as u64,
                (Arbitration::Scan, Scan::Farthest) => {
                    let x = &self.worms[w];
                    u64::MAX - self.net.apex(x.src, x.dst) as u64
                }
                _ => 0,
            };
        }
        order.sort_unstable_by_key(|o| (o.0, o.1));
        for &(_, _, e) in order.iter() {
            let u = self.queues.front(e);
            if u.flit == 0 {
                if let Some(next) = self.choose(v, u.worm, t, draws) {
                    self.take(next, t, u.worm, true);
                    moves.push((From::Link(e), next));
                }
            } else {
                let next = self.path[u.worm as usize * self.stride + u.hop as usize + 1];
                if self.room(next, t) {
                    self.take(next, t, u.worm, false);
                    moves.push((From::Link(e), next));
                }
            }
        }
    }

    /// The link the head of `worm`, at switch `v`, takes this step.
    fn choose(&mut self, v: u32, worm: u32, t: u64, draws: &Draws) -> Option<u32> {
        let x = &self.worms[worm as usize];
        if self.net.covers(v, x.dst) {
            let e = self.net.down_towards(v, x.dst);
            return self.free(e, t).then_some(e);
        }
        let ups = self.net.ups(v);
        match self.rules.path {
            PathRule::Fixed => {
                let level = self.path_len(worm) as u32;
                let e = ups[((x.coins >> (level % 64)) as usize) % ups.len()];
                self.free(e, t).then_some(e)
            }
            PathRule::Random => {
                let e = ups[draws.up(t, worm, ups.len())];
                let pick = self.free(e, t).then_some(e);
                self.hopeful |= pick.is_none() && ups.iter().any(|&o| self.free(o, t));
                pick
            }
            PathRule::Greedy => ups.iter().copied().find(|&e| self.free(e, t)),
        }
    }

    /// Links the head of `worm` has crossed.
    fn path_len(&self, worm: u32) -> usize {
        let p = &self.path[worm as usize * self.stride..(worm as usize + 1) * self.stride];
        p.iter().take_while(|&&e| e != NONE).count()
    }

    /// Processor `p` removes the front of its ejection queue.
    fn eject(&mut self, p: u32) {
        let e = self.net.ejection(p);
        let u = self.queues.pop(e);
        self.in_links -= 1;
        let w = u.worm as usize;
        assert_eq!(u.flit, self.ejected[w], "worm {w}'s flits leave in order");
        assert_eq!(self.worms[w].dst, p, "worm {w} leaves at its destination");
        self.ejected[w] += 1;
        if self.queues.len(e) == 0 {
            self.ejecting.clear(p);
        }
    }

    /// Moves a unit from `from` onto link `to` in step `t`.
    fn apply(&mut self, from: From, to: u32, t: u64) {
        let u = match from {
            From::Source(p) => {
                let pi = p as usize;
                let w = self.source[pi][self.src_pos[pi] as usize];
                let flit = self.src_flit[pi];
                if flit + 1 == self.worms[w as usize].len {
                    self.src_pos[pi] += 1;
                    self.src_flit[pi] = 0;
                } else {
                    self.src_flit[pi] += 1;
                }
                self.unload(p);
                Unit {
                    worm: w,
                    flit,
                    hop: 0,
                    tail: flit + 1 == self.worms[w as usize].len,
                }
            }
            From::Link(e) => {
                let mut u = self.queues.pop(e);
                self.in_links -= 1;
                self.unload(self.net.head_of(e));
                u.hop += 1;
                u
            }
        };
        let w = u.worm as usize;
        let x = &self.worms[w];
        if u.flit == 0 {
            self.path[w * self.stride + u.hop as usize] = to;
            self.crossings[to as usize] += 1;
        }
        debug_assert_eq!(self.path[w * self.stride + u.hop as usize], to);
        let tail = u.flit + 1 == x.len;
        if tail {
            self.owner[to as usize] = NONE;
        }
        self.queues.push(to, u);
        self.in_links += 1;
        self.unit_hops += 1;
        let at = self.net.head_of(to);
        if at < self.net.processors() {
            self.ejecting.set(at);
            if tail {
                self.arrival[w] = t;
                self.remaining -= 1;
            }
        } else {
            self.load[at as usize] += 1;
            self.active.set(at);
        }
    }

    /// One unit fewer waits at node `v`.
    fn unload(&mut self, v: u32) {
        self.load[v as usize] -= 1;
        if self.load[v as usize] == 0 {
            self.active.clear(v);
        }
    }

    fn finish(self) -> Outcome {
        Outcome::assemble(
            &self.path,
            self.stride,
            self.arrival,
            &self.crossings,
            self.unit_hops,
        )
    }
}
