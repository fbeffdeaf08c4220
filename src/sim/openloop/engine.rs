//! One offered rate, cycle by cycle.
//!
//! Each cycle: flits and credits due arrive (a flit becomes ready `D`
//! cycles after it enters a buffer); terminals create packets and move at
//! most one flit from their source queue into an injection virtual
//! channel with room; then every router allocates: heads at the front of
//! their input virtual channels are routed and ask for an idle output
//! virtual channel (input-first separable: each input VC picks one, round
//! robin from the port's last grant; each output VC grants one requester,
//! round robin), then each input port offers one ready flit whose output
//! VC has a credit (round robin over its VCs) and each output port takes
//! one offer (round robin over the inputs). Winners cross the switch: a
//! flit onto a channel arrives `l` cycles later, its credit returns to the
//! upstream router `l` cycles after it leaves a buffer; a flit to the
//! ejection port is delivered at the end of the cycle. A tail frees its
//! output VC (wormhole: at once; the next packet queues behind it).

use std::collections::VecDeque;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::length::PacketLength;
use super::net::OpenNet;
use super::routing::UpLinks;
use super::routing::EJECT;
use super::traffic::{Destinations, Pattern};
use super::warmup::{Tracker, Warmup, WarmupEnd, WarmupMode};
use super::{FlowControl, Injection, OpenLoopError};

const NONE: u32 = u32::MAX;
const EJECT_VC: u32 = u32::MAX - 1;

/// Warm-up, measurement and drain, in cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Phases {
    /// Cycles before measuring.
    pub warmup: u64,
    /// Cycles whose packets are measured.
    pub measure: u64,
    /// Most cycles after the measurement to deliver the measured packets.
    pub drain: u64,
}

/// One run's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Virtual channels per port.
    pub vcs: u32,
    /// Flits per virtual channel buffer.
    pub depth: u32,
    /// Flits per packet, the mean when the lengths vary.
    pub packet_flits: u32,
    /// Fixed or varying packet lengths.
    pub lengths: PacketLength,
    /// Cycles from a flit's arrival in a buffer to its earliest departure.
    pub router_delay: u32,
    /// Wormhole or virtual cut-through.
    pub flow: FlowControl,
    /// Bernoulli or periodic packet creation.
    pub injection: Injection,
    /// Where packets go.
    pub pattern: Pattern,
    /// How a head picks among several output ports.
    pub up_links: UpLinks,
    /// Offered rate, flits per terminal per cycle.
    pub rate: f64,
    /// The phases (`warmup` the most cycles when the warm-up converges).
    pub phases: Phases,
    /// How the warm-up ends.
    pub warmup: Warmup,
    /// Cycles without a flit moving, flits in flight, before a deadlock is
    /// reported.
    pub watchdog: u64,
    /// The run's random stream.
    pub seed: u64,
}

impl Default for Config {
    /// The command line's defaults: 2 VCs of 8 flits, fixed 4-flit
    /// packets, a 1-cycle router, wormhole, Bernoulli injection, uniform
    /// traffic, random up-links, phases of 1000 / 5000 / 20000 cycles with a
    /// fixed warm-up, a 10000-cycle watchdog, seed 1, and a rate of 0.1
    /// flits per terminal per cycle (the command line takes a list).
    fn default() -> Config {
        Config {
            vcs: 2,
            depth: 8,
            packet_flits: 4,
            lengths: PacketLength::Fixed,
            router_delay: 1,
            flow: FlowControl::Wormhole,
            injection: Injection::Bernoulli,
            pattern: Pattern::Uniform,
            up_links: UpLinks::Random,
            rate: 0.1,
            phases: Phases {
                warmup: 1000,
                measure: 5000,
                drain: 20000,
            },
            warmup: Warmup::FIXED,
            watchdog: 10000,
            seed: 1,
        }
    }
}

impl Config {
    /// Refuse values the engine cannot run.
    pub fn check(&self, net: &OpenNet) -> Result<(), OpenLoopError> {
        let bad = |s: String| Err(OpenLoopError::Config(s));
        if self.vcs < net.routing.min_vcs() || self.vcs > 64 {
            return bad(format!(
                "{} needs 1 ..= 64 virtual channels, at least {}; got {}",
                net.topology.name(),
                net.routing.min_vcs(),
                self.vcs
            ));
        }
        if self.depth == 0 || self.packet_flits == 0 || self.router_delay == 0 {
            return bad("--vc-depth, --packet-flits and --router-delay must be at least 1".into());
        }
        let longest = self.lengths.longest(self.packet_flits);
        if self.flow == FlowControl::VirtualCutThrough && self.depth < longest {
            return bad(format!(
                "virtual cut-through needs --vc-depth ({}) >= the longest packet ({longest} flits)",
                self.depth
            ));
        }
        if !(self.rate > 0.0 && self.rate <= 1.0) {
            return bad(format!(
                "offered rate {} outside (0, 1] flits/terminal/cycle",
                self.rate
            ));
        }
        let w = self.warmup;
        if w.mode == WarmupMode::Converge
            && (w.window == 0 || !(w.tolerance >= 0.0 && w.tolerance.is_finite()))
        {
            return bad(format!(
                "a converging warm-up needs a window of at least 1 cycle and a tolerance >= 0; got {} and {}",
                w.window, w.tolerance
            ));
        }
        if self.phases.measure == 0 || self.watchdog == 0 {
            return bad("the measurement and the watchdog need at least 1 cycle".into());
        }
        Ok(())
    }
}

/// Average, median, 99th percentile and maximum of a sample (nearest
/// rank), in cycles; all 0 for an empty sample.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Latency {
    /// Mean.
    pub avg: f64,
    /// Median.
    pub median: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Maximum.
    pub max: u64,
}

impl Latency {
    /// The figures of `v` (sorted in place).
    pub fn of(v: &mut [u64]) -> Latency {
        if v.is_empty() {
            return Latency::default();
        }
        v.sort_unstable();
        let rank = |q: f64| v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1];
        Latency {
            avg: v.iter().sum::<u64>() as f64 / v.len() as f64,
            median: rank(0.5),
            p99: rank(0.99),
            max: v[v.len() - 1],
        }
    }
}

/// What one rate measured.
#[derive(Clone, Debug, PartialEq)]
pub struct PointResult {
    /// Offered rate asked for.
    pub rate: f64,
    /// Flits created per terminal per cycle of the measurement.
    pub offered: f64,
    /// Flits delivered per terminal per cycle of the measurement.
    pub accepted: f64,
    /// Whether every measured packet was delivered within the drain.
    pub drained: bool,
    /// When and why the warm-up ended.
    pub warmup: WarmupEnd,
    /// Packets created during the measurement.
    pub measured: u64,
    /// Of them, delivered.
    pub delivered: u64,
    /// Head entering the network to tail delivered.
    pub network: Latency,
    /// Creation to tail delivered (source queueing included).
    pub total: Latency,
    /// Mean channels a measured packet crossed.
    pub hops: f64,
    /// Flits onto each channel during the measurement.
    pub link_flits: Vec<u64>,
    /// Every delivered measured packet, in delivery order.
    pub samples: Vec<Sample>,
    /// Cycles run.
    pub cycles: u64,
    /// Flits through a switch (onto a channel or out to a terminal), whole
    /// run.
    pub flit_hops: u64,
}

/// One delivered measured packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Its source terminal.
    pub src: u32,
    /// Its destination terminal.
    pub dst: u32,
    /// Cycles from its head entering the network to its tail delivered.
    pub network: u64,
    /// Its length in flits.
    pub flits: u32,
}

#[derive(Clone, Copy, Debug, Default)]
struct Flit {
    pkt: u32,
    seq: u32,
    ready: u64,
}

/// An input virtual channel: its buffer ring, the ready cycle of its front
/// flit, and the route and output VC of the packet at its front.
#[derive(Clone, Copy, Debug)]
struct Vc {
    /// Cycle the front flit may leave (meaningful when `len > 0`).
    ready: u64,
    head: u32,
    len: u32,
    /// Output port in the router once routed, `NONE` before.
    route: u32,
    /// Output VC held (global), `EJECT_VC`, or `NONE`.
    ovc: u32,
}

#[derive(Clone, Copy, Debug)]
struct Packet {
    src: u32,
    dst: u32,
    created: u64,
    entered: u64,
    measured: bool,
    ejected: u32,
    hops: u32,
    flits: u32,
}

/// `x mod m` for `x < 2 m`.
#[inline]
fn wrap(x: u32, m: u32) -> u32 {
    if x >= m {
        x - m
    } else {
        x
    }
}

/// The static wiring of the ports, by global index.
struct Ports {
    in_base: Vec<u32>,
    out_base: Vec<u32>,
    /// Upstream channel of each input port (`NONE` for injection).
    in_chan: Vec<u32>,
    /// Channel of each output port (`NONE` for ejection).
    out_chan: Vec<u32>,
    /// Each channel's input port and output port, global.
    chan_in: Vec<u32>,
    chan_out: Vec<u32>,
    latency: Vec<u32>,
}

impl Ports {
    fn new(net: &OpenNet) -> Ports {
        let g = &net.graph;
        let (mut in_base, mut out_base) = (Vec::new(), Vec::new());
        let (mut in_chan, mut out_chan) = (Vec::new(), Vec::new());
        for r in 0..g.routers {
            in_base.push(in_chan.len() as u32);
            out_base.push(out_chan.len() as u32);
            in_chan.push(NONE);
            in_chan.extend_from_slice(g.ins(r));
            out_chan.push(NONE);
            out_chan.extend_from_slice(g.outs(r));
        }
        in_base.push(in_chan.len() as u32);
        out_base.push(out_chan.len() as u32);
        let chan_in = (0..g.channels.len())
            .map(|c| in_base[g.channels[c].to as usize] + g.in_port[c])
            .collect();
        let chan_out = (0..g.channels.len())
            .map(|c| out_base[g.channels[c].from as usize] + g.out_port[c])
            .collect();
        let latency = g.channels.iter().map(|c| c.latency).collect();
        Ports {
            in_base,
            out_base,
            in_chan,
            out_chan,
            chan_in,
            chan_out,
            latency,
        }
    }
}

/// The simulation state.
struct Sim<'a> {
    net: &'a OpenNet,
    cfg: &'a Config,
    p: Ports,
    /// Virtual channels per port.
    v: u32,
    /// Port `p`'s virtual channel `c` is number `p << sh | c` (global)
    /// or `(p - base) << sh | c` (in its router): `2^sh >= v`, so ports
    /// and channels split with shifts and masks instead of divisions.
    sh: u32,
    /// `2^sh - 1`.
    mask: u32,
    depth: u32,
    buf: Vec<Flit>,
    vcs: Vec<Vc>,
    ivc_lo: Vec<u32>,
    ivc_hi: Vec<u32>,
    /// Input VC holding each output VC (`NONE`: idle).
    owner: Vec<u32>,
    ocred: Vec<u32>,
    in_rr: Vec<u32>,
    out_rr: Vec<u32>,
    vc_rr: Vec<u32>,
    ovc_rr: Vec<u32>,
    router_flits: Vec<u32>,
    /// Per router, the input VCs whose front flit is a head without an
    /// output VC.
    va_list: Vec<Vec<u32>>,
    /// Per global input port, the VCs holding flits with an output VC
    /// that has a credit (or is the ejection port).
    sa_mask: Vec<u64>,
    /// Router of each global input port.
    in_router: Vec<u32>,
    /// Per global input port, the upstream output VC of its VC 0 and the
    /// channel's latency, for credits (`NONE` for injection ports).
    credit_to: Vec<(u32, u32)>,
    /// Per global output port, its channel, the downstream input VC of its
    /// VC 0 and the channel's latency (`NONE` for ejection ports).
    flit_to: Vec<(u32, u32, u32)>,
    /// Flits in buffers, all routers.
    buffered: u64,
    on_links: u64,
    /// Flits (input VC, packet, sequence) and credits (output VC) due,
    /// by cycle modulo the wheel's length.
    fwheel: Vec<Vec<(u32, u32, u32)>>,
    cwheel: Vec<Vec<u32>>,
    /// The wheels' length minus 1.
    wmask: usize,
    /// Whether the current cycle is in the measurement window.
    window: bool,
    packets: Vec<Packet>,
    queues: Vec<VecDeque<u32>>,
    src_seq: Vec<u32>,
    src_vc: Vec<u32>,
    inj_rr: Vec<u32>,
    acc: Vec<f64>,
    dests: Destinations,
    rng: ChaCha8Rng,
    ports: Vec<u32>,
    // Scratch of an allocation.
    requests: Vec<(u32, u32, u32)>,
    grant_stamp: Vec<u64>,
    grant_who: Vec<u32>,
    grant_pri: Vec<u32>,
    sa_in: Vec<(u32, u32)>,
    /// Per output port: cycle, priority and input VC of its best offer.
    sa_best: Vec<(u64, u32, u32)>,
    // Figures.
    last_move: u64,
    flit_hops: u64,
    link_flits: Vec<u64>,
    window_created: u64,
    window_ejected: u64,
    net_lat: Vec<u64>,
    tot_lat: Vec<u64>,
    samples: Vec<Sample>,
    hop_sum: u64,
    measured: u64,
    outstanding: u64,
    warm: Tracker,
}

/// Run `cfg` on `net`: warm-up, measurement, then drain until every
/// measured packet is delivered or the drain runs out.
pub fn simulate(net: &OpenNet, cfg: &Config) -> Result<PointResult, OpenLoopError> {
    cfg.check(net)?;
    let mut s = Sim::new(net, cfg)?;
    let m = cfg.phases.measure;
    let mut t = 0u64;
    let drained = loop {
        let measured_end = s.warm.start().saturating_add(m);
        if t >= measured_end && s.outstanding == 0 {
            break true;
        }
        if t >= measured_end.saturating_add(cfg.phases.drain) {
            break false;
        }
        s.cycle(t);
        let in_flight = s.buffered + s.on_links;
        if in_flight > 0 && t - s.last_move >= cfg.watchdog {
            return Err(OpenLoopError::Deadlock {
                since: s.last_move,
                cycle: t,
                in_flight,
            });
        }
        s.warm.after(t);
        t += 1;
    };
    if drained {
        assert_eq!(
            s.net_lat.len() as u64,
            s.measured,
            "every measured packet is delivered once"
        );
    }
    let per = (m * net.graph.terminals as u64) as f64;
    let delivered = s.net_lat.len() as u64;
    Ok(PointResult {
        rate: cfg.rate,
        offered: s.window_created as f64 / per,
        accepted: s.window_ejected as f64 / per,
        drained,
        warmup: s.warm.end().expect("the measurement ran after the warm-up"),
        measured: s.measured,
        delivered,
        network: Latency::of(&mut s.net_lat),
        total: Latency::of(&mut s.tot_lat),
        hops: s.hop_sum as f64 / delivered.max(1) as f64,
        link_flits: s.link_flits,
        samples: s.samples,
        cycles: t,
        flit_hops: s.flit_hops,
    })
}

impl<'a> Sim<'a> {
    fn new(net: &'a OpenNet, cfg: &'a Config) -> Result<Sim<'a>, OpenLoopError> {
        let g = &net.graph;
        let p = Ports::new(net);
        let v = cfg.vcs;
        let sh = v.next_power_of_two().trailing_zeros();
        let nin = p.in_chan.len();
        let nout = p.out_chan.len();
        let ivcs = nin << sh;
        let ovcs = nout << sh;
        // A power of two above the longest latency: slots by mask.
        let wheel = (p.latency.iter().copied().max().unwrap_or(1) as usize + 1).next_power_of_two();
        let dests = Destinations::new(cfg.pattern, g.terminals, cfg.seed)?;
        let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
        let n = g.terminals as usize;
        let acc = (0..n).map(|_| rng.gen::<f64>()).collect();
        let mut ocred = vec![0; ovcs];
        for (o, &c) in p.out_chan.iter().enumerate() {
            if c != NONE {
                ocred[o << sh..(o << sh) + v as usize].fill(cfg.depth);
            }
        }
        Ok(Sim {
            net,
            cfg,
            v,
            sh,
            mask: (1 << sh) - 1,
            depth: cfg.depth,
            buf: vec![Flit::default(); ivcs * cfg.depth as usize],
            vcs: vec![
                Vc {
                    ready: 0,
                    head: 0,
                    len: 0,
                    route: NONE,
                    ovc: NONE,
                };
                ivcs
            ],
            ivc_lo: vec![0; ivcs],
            ivc_hi: vec![0; ivcs],
            owner: vec![NONE; ovcs],
            ocred,
            in_rr: vec![0; nin],
            out_rr: vec![0; nout],
            vc_rr: vec![0; nout],
            ovc_rr: vec![0; ovcs],
            router_flits: vec![0; g.routers as usize],
            va_list: vec![Vec::new(); g.routers as usize],
            sa_mask: vec![0; nin],
            in_router: (0..g.routers)
                .flat_map(|r| {
                    let n = p.in_base[r as usize + 1] - p.in_base[r as usize];
                    std::iter::repeat_n(r, n as usize)
                })
                .collect(),
            credit_to: p
                .in_chan
                .iter()
                .map(|&c| match c {
                    NONE => (NONE, 0),
                    c => (p.chan_out[c as usize] << sh, p.latency[c as usize]),
                })
                .collect(),
            flit_to: p
                .out_chan
                .iter()
                .map(|&c| match c {
                    NONE => (NONE, NONE, 0),
                    c => (c, p.chan_in[c as usize] << sh, p.latency[c as usize]),
                })
                .collect(),
            buffered: 0,
            on_links: 0,
            fwheel: vec![Vec::new(); wheel],
            cwheel: vec![Vec::new(); wheel],
            wmask: wheel - 1,
            window: false,
            packets: Vec::new(),
            queues: vec![VecDeque::new(); n],
            src_seq: vec![0; n],
            src_vc: vec![NONE; n],
            inj_rr: vec![0; n],
            acc,
            dests,
            rng,
            ports: Vec::new(),
            requests: Vec::new(),
            grant_stamp: vec![u64::MAX; ovcs],
            grant_who: vec![0; ovcs],
            grant_pri: vec![0; ovcs],
            sa_in: Vec::new(),
            sa_best: vec![(u64::MAX, 0, 0); nout],
            last_move: 0,
            flit_hops: 0,
            link_flits: vec![0; g.channels.len()],
            window_created: 0,
            window_ejected: 0,
            net_lat: Vec::new(),
            tot_lat: Vec::new(),
            samples: Vec::new(),
            hop_sum: 0,
            measured: 0,
            outstanding: 0,
            warm: Tracker::new(cfg.warmup, cfg.phases.warmup),
            p,
        })
    }

    fn in_window(&self, t: u64) -> bool {
        let w = self.warm.start();
        t >= w && t < w.saturating_add(self.cfg.phases.measure)
    }

    fn cycle(&mut self, t: u64) {
        self.window = self.in_window(t);
        self.arrivals(t);
        self.inject(t);
        for r in 0..self.net.graph.routers {
            if self.router_flits[r as usize] > 0 {
                if !self.va_list[r as usize].is_empty() {
                    self.allocate_vcs(r, t);
                }
                self.allocate_switch(r, t);
            }
        }
    }
}

mod alloc;
mod buffers;
mod inject;
