//! A slow, obvious model of the engine for the tests: nested vectors and
//! queues, every virtual channel scanned every cycle, events in one list.
//! It follows the same rules (module comment of [`super::engine`]) and
//! draws the same random numbers, so on the same configuration it must
//! give the same result, packet for packet.

use std::collections::VecDeque;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::engine::{Config, Latency, PointResult, Sample};
use super::net::OpenNet;
use super::routing::{route_key, Choice, Step, EJECT};
use super::traffic::Destinations;
use super::warmup::{Tracker, WarmupEnd, WarmupOutcome};
use super::{FlowControl, Injection};

#[derive(Clone, Copy, PartialEq)]
enum Out {
    Eject,
    Vc(u32, u32),
}

struct Ivc {
    q: VecDeque<(u32, u32, u64)>,
    route: Option<(u32, u32, u32)>,
    out: Option<Out>,
}

struct Router {
    ivc: Vec<Vec<Ivc>>,
    busy: Vec<Vec<bool>>,
    credits: Vec<Vec<u32>>,
    in_rr: Vec<u32>,
    out_rr: Vec<u32>,
    vc_rr: Vec<u32>,
    ovc_rr: Vec<Vec<u32>>,
}

enum Ev {
    Flit(u32, u32, u32, (u32, u32)),
    Credit(u32, u32, u32),
}

/// A packet: source, destination, created, entered, measured, flits
/// ejected, channels crossed, length.
type Pk = (u32, u32, u64, u64, bool, u32, u32, u32);

struct Model<'a> {
    net: &'a OpenNet,
    cfg: &'a Config,
    routers: Vec<Router>,
    dests: Destinations,
    rng: ChaCha8Rng,
    acc: Vec<f64>,
    pk: Vec<Pk>,
    queues: Vec<VecDeque<u32>>,
    seq: Vec<u32>,
    svc: Vec<Option<u32>>,
    inj_rr: Vec<u32>,
    events: Vec<(u64, Ev)>,
    res: PointResult,
    created: u64,
    ejected: u64,
    outstanding: u64,
    hop_sum: u64,
    net_lat: Vec<u64>,
    tot_lat: Vec<u64>,
    warm: Tracker,
}

/// Run `cfg` on `net` the slow way.
pub fn reference(net: &OpenNet, cfg: &Config) -> PointResult {
    let mut m = Model::new(net, cfg);
    let ms = cfg.phases.measure;
    let mut t = 0;
    loop {
        let w = m.warm.start();
        if t >= w.saturating_add(ms) && m.outstanding == 0 {
            m.res.drained = true;
            break;
        }
        if t >= w.saturating_add(ms + cfg.phases.drain) {
            break;
        }
        m.arrivals(t);
        m.inject(t);
        for r in 0..net.graph.routers {
            m.allocate_vcs(r, t);
            m.allocate_switch(r, t);
        }
        m.warm.after(t);
        t += 1;
    }
    m.res.warmup = m.warm.end().unwrap();
    let per = (ms * net.graph.terminals as u64) as f64;
    let mut res = m.res;
    res.offered = m.created as f64 / per;
    res.accepted = m.ejected as f64 / per;
    res.delivered = m.net_lat.len() as u64;
    res.hops = m.hop_sum as f64 / res.delivered.max(1) as f64;
    res.network = Latency::of(&mut m.net_lat);
    res.total = Latency::of(&mut m.tot_lat);
    res.cycles = t;
    res
}

impl<'a> Model<'a> {
    fn new(net: &'a OpenNet, cfg: &'a Config) -> Model<'a> {
        let g = &net.graph;
        let v = cfg.vcs;
        let n = g.terminals as usize;
        let routers = (0..g.routers)
            .map(|r| {
                let (no, ni) = g.ports(r);
                let ivcs = |_| {
                    (0..v)
                        .map(|_| Ivc {
                            q: VecDeque::new(),
                            route: None,
                            out: None,
                        })
                        .collect()
                };
                Router {
                    ivc: (0..ni).map(ivcs).collect(),
                    busy: vec![vec![false; v as usize]; no as usize],
                    credits: (0..no)
                        .map(|p| vec![if p == 0 { 0 } else { cfg.depth }; v as usize])
                        .collect(),
                    in_rr: vec![0; ni as usize],
                    out_rr: vec![0; no as usize],
                    vc_rr: vec![0; no as usize],
                    ovc_rr: vec![vec![0; v as usize]; no as usize],
                }
            })
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
        let acc = (0..n).map(|_| rng.gen::<f64>()).collect();
        Model {
            net,
            cfg,
            routers,
            dests: Destinations::new(cfg.pattern, g.terminals, cfg.seed).unwrap(),
            rng,
            acc,
            pk: Vec::new(),
            queues: vec![VecDeque::new(); n],
            seq: vec![0; n],
            svc: vec![None; n],
            inj_rr: vec![0; n],
            events: Vec::new(),
            res: PointResult {
                rate: cfg.rate,
                offered: 0.0,
                accepted: 0.0,
                drained: false,
                // Set when the run ends.
                warmup: WarmupEnd {
                    cycles: 0,
                    outcome: WarmupOutcome::Fixed,
                },
                measured: 0,
                delivered: 0,
                network: Latency::default(),
                total: Latency::default(),
                hops: 0.0,
                link_flits: vec![0; g.channels.len()],
                samples: Vec::new(),
                cycles: 0,
                flit_hops: 0,
            },
            created: 0,
            ejected: 0,
            outstanding: 0,
            hop_sum: 0,
            net_lat: Vec::new(),
            tot_lat: Vec::new(),
            warm: Tracker::new(cfg.warmup, cfg.phases.warmup),
        }
    }

    fn window(&self, t: u64) -> bool {
        let w = self.warm.start();
        t >= w && t < w.saturating_add(self.cfg.phases.measure)
    }

    /// Events due now, in the order they were sent.
    fn arrivals(&mut self, t: u64) {
        let d = self.cfg.router_delay as u64;
        let (due, later): (Vec<_>, Vec<_>) = std::mem::take(&mut self.events)
            .into_iter()
            .partition(|e| e.0 == t);
        self.events = later;
        for (_, e) in due {
            match e {
                Ev::Flit(r, p, vc, (pkt, s)) => self.routers[r as usize].ivc[p as usize]
                    [vc as usize]
                    .q
                    .push_back((pkt, s, t + d)),
                Ev::Credit(r, p, vc) => {
                    self.routers[r as usize].credits[p as usize][vc as usize] += 1
                }
            }
        }
    }

    fn inject(&mut self, t: u64) {
        let (v, l) = (self.cfg.vcs, self.cfg.packet_flits);
        let d = self.cfg.router_delay as u64;
        for src in 0..self.queues.len() {
            let p = self.cfg.rate / l as f64;
            let create = match self.cfg.injection {
                Injection::Bernoulli => self.rng.gen_bool(p),
                Injection::Periodic => {
                    self.acc[src] += p;
                    let due = self.acc[src] >= 1.0;
                    if due {
                        self.acc[src] -= 1.0;
                    }
                    due
                }
            };
            if create {
                let dst = self.dests.draw(src as u32, &mut self.rng);
                let flits = self.cfg.lengths.draw(l, &mut self.rng);
                self.queues[src].push_back(self.pk.len() as u32);
                let w = self.window(t);
                self.pk.push((src as u32, dst, t, 0, w, 0, 0, flits));
                if w {
                    self.res.measured += 1;
                    self.outstanding += 1;
                    self.created += flits as u64;
                }
            }
            let Some(&pkt) = self.queues[src].front() else {
                continue;
            };
            let inj = &mut self.routers[src].ivc[0];
            let depth = self.cfg.depth;
            if self.svc[src].is_none() {
                let start = self.inj_rr[src];
                self.svc[src] = (0..v)
                    .map(|i| (start + i) % v)
                    .find(|&c| (inj[c as usize].q.len() as u32) < depth);
                if let Some(c) = self.svc[src] {
                    self.inj_rr[src] = (c + 1) % v;
                }
            }
            let Some(c) = self.svc[src] else { continue };
            if inj[c as usize].q.len() as u32 >= depth {
                continue;
            }
            if self.seq[src] == 0 {
                self.pk[pkt as usize].3 = t;
            }
            inj[c as usize].q.push_back((pkt, self.seq[src], t + d));
            self.seq[src] += 1;
            if self.seq[src] == self.pk[pkt as usize].7 {
                self.queues[src].pop_front();
                self.seq[src] = 0;
                self.svc[src] = None;
            }
        }
    }

    fn allocate_vcs(&mut self, r: u32, t: u64) {
        let v = self.cfg.vcs;
        let ro = &mut self.routers[r as usize];
        let ni = ro.ivc.len() as u32;
        let locals = ni * v;
        let mut reqs: Vec<(u32, u32, u32, u32)> = Vec::new();
        for p in 0..ni {
            for vc in 0..v {
                let iv = &mut ro.ivc[p as usize][vc as usize];
                let Some(&(pkt, s, ready)) = iv.q.front() else {
                    continue;
                };
                if iv.out.is_some() || ready > t {
                    continue;
                }
                assert_eq!(s, 0);
                if iv.route.is_none() {
                    let dst = self.pk[pkt as usize].1;
                    let credits = &ro.credits;
                    let choice = Choice {
                        key: route_key(self.cfg.seed, pkt, r),
                        up_links: self.cfg.up_links,
                        free: |p: u32, st: Step| -> u32 {
                            (st.vc_lo..st.vc_hi)
                                .map(|c| credits[p as usize][c as usize])
                                .sum()
                        },
                    };
                    let (port, st) = self.net.routing.route(r, dst, v, &mut Vec::new(), choice);
                    iv.route = Some((port, st.vc_lo, st.vc_hi));
                }
                let (port, lo, hi) = iv.route.unwrap();
                if port == EJECT {
                    iv.out = Some(Out::Eject);
                    continue;
                }
                let span = hi - lo;
                let cand = (0..span)
                    .map(|i| lo + (ro.vc_rr[port as usize] + i) % span)
                    .find(|&c| {
                        !ro.busy[port as usize][c as usize]
                            && (self.cfg.flow == FlowControl::Wormhole
                                || ro.credits[port as usize][c as usize] >= self.pk[pkt as usize].7)
                    });
                if let Some(c) = cand {
                    reqs.push((p, vc, port, c));
                }
            }
        }
        let pri = |ro: &Router, (p, vc, o, c): (u32, u32, u32, u32)| {
            (p * v + vc + locals - ro.ovc_rr[o as usize][c as usize]) % locals
        };
        let winners: Vec<_> = reqs
            .iter()
            .filter(|&&a| {
                reqs.iter()
                    .filter(|x| x.2 == a.2 && x.3 == a.3)
                    .all(|&x| pri(ro, a) <= pri(ro, x))
            })
            .copied()
            .collect();
        for (p, vc, o, c) in winners {
            ro.busy[o as usize][c as usize] = true;
            ro.ivc[p as usize][vc as usize].out = Some(Out::Vc(o, c));
            ro.ovc_rr[o as usize][c as usize] = (p * v + vc + 1) % locals;
            ro.vc_rr[o as usize] = c + 1;
        }
    }

    fn allocate_switch(&mut self, r: u32, t: u64) {
        let v = self.cfg.vcs;
        let ro = &self.routers[r as usize];
        let ni = ro.ivc.len() as u32;
        let mut offers: Vec<(u32, u32, u32)> = Vec::new();
        for p in 0..ni {
            for i in 0..v {
                let vc = (ro.in_rr[p as usize] + i) % v;
                let iv = &ro.ivc[p as usize][vc as usize];
                let (Some(&(_, _, ready)), Some(out)) = (iv.q.front(), iv.out) else {
                    continue;
                };
                let ok = match out {
                    Out::Eject => true,
                    Out::Vc(o, c) => ro.credits[o as usize][c as usize] > 0,
                };
                if ready <= t && ok {
                    offers.push((p, vc, iv.route.unwrap().0));
                    break;
                }
            }
        }
        let opri = |p: u32, o: u32| (p + ni - ro.out_rr[o as usize]) % ni;
        let grants: Vec<_> = offers
            .iter()
            .filter(|&&(p, _, o)| {
                offers
                    .iter()
                    .filter(|x| x.2 == o)
                    .all(|x| opri(p, o) <= opri(x.0, o))
            })
            .copied()
            .collect();
        for (p, vc, o) in grants {
            self.traverse(r, p, vc, o, t);
        }
    }

    fn traverse(&mut self, r: u32, p: u32, vc: u32, o: u32, t: u64) {
        let g = &self.net.graph;
        let v = self.cfg.vcs;
        let window = self.window(t);
        let ro = &mut self.routers[r as usize];
        let ni = ro.ivc.len() as u32;
        ro.out_rr[o as usize] = (p + 1) % ni;
        ro.in_rr[p as usize] = (vc + 1) % v;
        let iv = &mut ro.ivc[p as usize][vc as usize];
        let (pkt, s, _) = iv.q.pop_front().unwrap();
        let out = iv.out.unwrap();
        let tail = s + 1 == self.pk[pkt as usize].7;
        if tail {
            iv.out = None;
            iv.route = None;
        }
        self.res.flit_hops += 1;
        if p > 0 {
            let c = g.ins(r)[p as usize - 1] as usize;
            let ch = g.channels[c];
            let credit = Ev::Credit(ch.from, g.out_port[c], vc);
            self.events.push((t + ch.latency as u64, credit));
        }
        match out {
            Out::Eject => {
                if window {
                    self.ejected += 1;
                }
                let e = &mut self.pk[pkt as usize];
                assert_eq!(e.5, s);
                e.5 += 1;
                if e.5 == e.7 {
                    self.warm.delivered(t + 1 - e.2);
                }
                if e.5 == e.7 && e.4 {
                    self.net_lat.push(t + 1 - e.3);
                    self.tot_lat.push(t + 1 - e.2);
                    self.res.samples.push(Sample {
                        src: e.0,
                        dst: e.1,
                        network: t + 1 - e.3,
                        flits: e.7,
                    });
                    self.hop_sum += e.6 as u64;
                    self.outstanding -= 1;
                }
            }
            Out::Vc(o, c) => {
                ro.credits[o as usize][c as usize] -= 1;
                if tail {
                    ro.busy[o as usize][c as usize] = false;
                }
                let ch_id = g.channel_at(r, o) as usize;
                let ch = g.channels[ch_id];
                let flit = Ev::Flit(ch.to, g.in_port[ch_id], c, (pkt, s));
                self.events.push((t + ch.latency as u64, flit));
                if window {
                    self.res.link_flits[ch_id] += 1;
                }
                if s == 0 {
                    self.pk[pkt as usize].6 += 1;
                }
            }
        }
    }
}
