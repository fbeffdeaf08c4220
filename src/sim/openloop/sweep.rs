//! Rates in parallel, the zero-load latency and the channel-load bound of
//! a pattern under a routing function, and the saturation search.
//!
//! Saturation criterion: a rate is *saturated* when its measured packets
//! are not all delivered within the drain, or the accepted throughput is
//! below 0.95 of the offered one (both measured over the measurement
//! window), or the average total latency exceeds 3 times the analytic
//! zero-load latency. The search brackets the least saturated rate in
//! `(0, 1]` by rounds of three probes run in parallel (a fixed number, so
//! the result does not depend on the thread count), each round quartering
//! the bracket.

use rayon::prelude::*;

use super::engine::{simulate, Config, PointResult};
use super::net::OpenNet;
use super::traffic::Destinations;
use super::OpenLoopError;

/// Accepted over offered below which a rate is saturated.
pub const ACCEPT_FRACTION: f64 = 0.95;
/// Average latency over zero-load latency above which a rate is saturated.
pub const LATENCY_FACTOR: f64 = 3.0;
/// Rounds of the saturation search.
pub const SEARCH_ROUNDS: u32 = 5;

/// The random stream of the point at `rate` under `seed`: the same
/// whatever else runs.
pub fn point_seed(seed: u64, rate: f64) -> u64 {
    let mut z = seed ^ rate.to_bits().rotate_left(17) ^ 0x9e37_79b9_7f4a_7c15;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Run `base` at every rate, in parallel; results in rate order.
pub fn run_rates(
    net: &OpenNet,
    base: &Config,
    rates: &[f64],
) -> Result<Vec<PointResult>, OpenLoopError> {
    rates
        .par_iter()
        .map(|&rate| {
            let cfg = Config {
                rate,
                seed: point_seed(base.seed, rate),
                ..base.clone()
            };
            simulate(net, &cfg)
        })
        .collect()
}

/// The expected zero-load latency in cycles of a packet from `src` to
/// `dst` (random choices averaged): `sum over routers of D + sum of channel
/// latencies + L`.
pub fn zero_load_pair(net: &OpenNet, cfg: &Config, src: u32, dst: u32) -> f64 {
    fn walk(net: &OpenNet, cfg: &Config, r: u32, dst: u32, ports: &mut Vec<u32>) -> f64 {
        let d = cfg.router_delay as f64;
        net.routing.options(r, dst, cfg.vcs, ports);
        if ports[0] == super::routing::EJECT {
            return d;
        }
        let options = ports.clone();
        let sum: f64 = options
            .iter()
            .map(|&p| {
                let c = net.graph.channel_at(r, p);
                let ch = net.graph.channels[c as usize];
                ch.latency as f64 + walk(net, cfg, ch.to, dst, ports)
            })
            .sum();
        d + sum / options.len() as f64
    }
    walk(net, cfg, src, dst, &mut Vec::new()) + cfg.packet_flits as f64
}

/// The analytic zero-load latency of `cfg`'s pattern: the mean over
/// sources of the expected pair latency.
pub fn zero_load(net: &OpenNet, cfg: &Config) -> Result<f64, OpenLoopError> {
    let n = net.graph.terminals;
    let dests = Destinations::new(cfg.pattern, n, cfg.seed)?;
    let mut total = 0.0;
    for s in 0..n {
        for (d, p) in dests.distribution(s) {
            total += p * zero_load_pair(net, cfg, s, d);
        }
    }
    Ok(total / n as f64)
}

/// Channel loads per unit offered rate, and the bound they set.
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelLoads {
    /// Expected flits per cycle on each channel when every terminal offers
    /// one flit per cycle.
    pub channel: Vec<f64>,
    /// The same for each terminal's ejection port.
    pub ejection: Vec<f64>,
    /// `1 / max load` (injection ports count 1): the highest offered rate
    /// no channel exceeds its capacity at, flits/terminal/cycle.
    pub bound: f64,
}

/// The loads of `cfg`'s pattern under the routing, random choices split
/// evenly.
pub fn channel_loads(net: &OpenNet, cfg: &Config) -> Result<ChannelLoads, OpenLoopError> {
    let g = &net.graph;
    let dests = Destinations::new(cfg.pattern, g.terminals, cfg.seed)?;
    let mut channel = vec![0.0; g.channels.len()];
    let mut ejection = vec![0.0; g.terminals as usize];
    let mut ports = Vec::new();
    let mut stack: Vec<(u32, f64)> = Vec::new();
    for s in 0..g.terminals {
        for (d, p) in dests.distribution(s) {
            stack.push((s, p));
            while let Some((r, mass)) = stack.pop() {
                net.routing.options(r, d, cfg.vcs, &mut ports);
                if ports[0] == super::routing::EJECT {
                    ejection[d as usize] += mass;
                    continue;
                }
                let share = mass / ports.len() as f64;
                for &port in &ports {
                    let c = g.channel_at(r, port);
                    channel[c as usize] += share;
                    stack.push((g.channels[c as usize].to, share));
                }
            }
        }
    }
    let worst = channel
        .iter()
        .chain(&ejection)
        .fold(1.0f64, |a, &b| a.max(b));
    Ok(ChannelLoads {
        channel,
        ejection,
        bound: 1.0 / worst,
    })
}

/// Whether a point is past saturation (module comment).
pub fn saturated(p: &PointResult, zero_load: f64) -> bool {
    !p.drained
        || p.accepted < ACCEPT_FRACTION * p.offered
        || p.total.avg > LATENCY_FACTOR * zero_load
}

/// The bracket the search ends with.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Saturation {
    /// The highest rate probed that is not saturated (0 if none).
    pub below: f64,
    /// The lowest rate probed that is saturated (1 when even 1 is not).
    pub above: f64,
    /// Accepted throughput at `below`.
    pub accepted_below: f64,
    /// Accepted throughput at `above`.
    pub accepted_above: f64,
    /// Probes run.
    pub probes: u32,
}

/// Search `(0, 1]` for the saturation rate of `base`.
pub fn find_saturation(
    net: &OpenNet,
    base: &Config,
    zero_load: f64,
) -> Result<Saturation, OpenLoopError> {
    let top = run_rates(net, base, &[1.0])?.remove(0);
    let mut s = Saturation {
        below: 0.0,
        above: 1.0,
        accepted_below: 0.0,
        accepted_above: top.accepted,
        probes: 1,
    };
    if !saturated(&top, zero_load) {
        s.below = 1.0;
        s.accepted_below = top.accepted;
        return Ok(s);
    }
    for _ in 0..SEARCH_ROUNDS {
        let width = s.above - s.below;
        let probes: Vec<f64> = (1..=3).map(|i| s.below + width * i as f64 / 4.0).collect();
        let results = run_rates(net, base, &probes)?;
        s.probes += 3;
        for (rate, r) in probes.iter().zip(&results) {
            if saturated(r, zero_load) {
                s.above = *rate;
                s.accepted_above = r.accepted;
                break;
            }
            s.below = *rate;
            s.accepted_below = r.accepted;
        }
    }
    Ok(s)
}
