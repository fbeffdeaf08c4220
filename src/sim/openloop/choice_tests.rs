//! Adaptive up links and packet-length distributions.

use super::engine::Phases;
use super::sweep::{self, find_saturation, run_rates, zero_load, zero_load_pair};
use super::*;
use crate::layout::metrics::Delay;

fn config(up_links: UpLinks, lengths: PacketLength) -> Config {
    Config {
        lengths,
        up_links,
        phases: Phases {
            warmup: 1000,
            measure: 3000,
            drain: 6000,
        },
        watchdog: 2000,
        seed: 5,
        ..Config::default()
    }
}

/// The saturation bracket and the accepted throughput at rate 1 of `net`
/// under uniform traffic with `up` links.
fn saturation(net: &OpenNet, up: UpLinks) -> (sweep::Saturation, f64) {
    let cfg = config(up, PacketLength::Fixed);
    let z = zero_load(net, &cfg).unwrap();
    let sat = find_saturation(net, &cfg, z).unwrap();
    let top = run_rates(net, &cfg, &[1.0]).unwrap().remove(0);
    (sat, top.accepted)
}

#[test]
fn adaptive_up_links_saturate_no_lower_than_random_on_fat_trees() {
    // The butterfly fat-tree of 64 processors: two parents per switch.
    let net = OpenNet::build(Topology::ButterflyFatTree, 64, LinkMode::Unit, &Delay::Unit).unwrap();
    let (random, random_top) = saturation(&net, UpLinks::Random);
    let (adaptive, adaptive_top) = saturation(&net, UpLinks::Adaptive);
    assert!(random.below > 0.0, "{random:?}");
    assert!(
        adaptive.below >= random.below,
        "adaptive {adaptive:?} random {random:?}"
    );
    assert!(
        adaptive_top >= random_top,
        "accepted at rate 1: adaptive {adaptive_top} random {random_top}"
    );
    // The fat-tree of 64 processors with the default capacities
    // ceil(sqrt(p) / lg n) has one link per channel: no choice to make, so
    // adaptive must change nothing.
    let net = OpenNet::build(Topology::FatTree, 64, LinkMode::Unit, &Delay::Unit).unwrap();
    assert_eq!(
        saturation(&net, UpLinks::Random),
        saturation(&net, UpLinks::Adaptive)
    );
}

#[test]
fn adaptive_runs_are_thread_count_independent() {
    let net = OpenNet::build(
        Topology::ButterflyFatTree,
        64,
        LinkMode::Layout,
        &Delay::Linear,
    )
    .unwrap();
    let cfg = config(UpLinks::Adaptive, PacketLength::Bimodal);
    let rates = [0.2, 0.5, 0.8];
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let a = one.install(|| run_rates(&net, &cfg, &rates)).unwrap();
    let b = run_rates(&net, &cfg, &rates).unwrap();
    assert_eq!(a, b);
    // Adaptive choices differ from random ones under load.
    let random = run_rates(
        &net,
        &config(UpLinks::Random, PacketLength::Bimodal),
        &rates,
    )
    .unwrap();
    assert_ne!(a, random);
}

#[test]
fn varying_lengths_keep_the_zero_load_latency_and_the_mean() {
    for topology in [Topology::Mesh, Topology::FatTree, Topology::Butterfly] {
        let size = if topology == Topology::Mesh { 4 } else { 16 };
        let net = OpenNet::build(topology, size, LinkMode::Layout, &Delay::Linear).unwrap();
        let max_lat = net.graph.channels.iter().map(|c| c.latency).max().unwrap();
        for lengths in [PacketLength::Uniform, PacketLength::Bimodal] {
            let mut cfg = config(UpLinks::Random, lengths);
            cfg.rate = 0.004;
            cfg.depth = 2 * max_lat + 2;
            cfg.phases.measure = 60000;
            let p = simulate(&net, &cfg).unwrap();
            assert!(p.drained && p.delivered == p.measured && p.samples.len() > 100);
            let l = f64::from(cfg.packet_flits);
            // Each packet: the analytic latency with its own length.
            let measured: f64 = p.samples.iter().map(|s| s.network as f64).sum();
            let ideal: f64 = p
                .samples
                .iter()
                .map(|s| zero_load_pair(&net, &cfg, s.src, s.dst) - l + f64::from(s.flits))
                .sum();
            let err = (measured - ideal).abs() / ideal;
            assert!(
                err < 0.01,
                "{topology:?} {lengths:?}: {measured} vs {ideal}"
            );
            // The lengths' mean is L (4 sigma) and their range 1 ..= 2L - 1.
            let n = p.samples.len() as f64;
            let mean = p.samples.iter().map(|s| f64::from(s.flits)).sum::<f64>() / n;
            let sd = match lengths {
                PacketLength::Bimodal => l - 1.0,
                _ => ((4.0 * l * l - 4.0 * l) / 12.0).sqrt(),
            };
            assert!(
                (mean - l).abs() < 4.0 * sd / n.sqrt(),
                "{lengths:?}: mean {mean}"
            );
            assert!(p
                .samples
                .iter()
                .all(|s| (1..2 * cfg.packet_flits).contains(&s.flits)));
            assert!(p.samples.iter().any(|s| s.flits == 1));
            assert!(p
                .samples
                .iter()
                .any(|s| s.flits == 2 * cfg.packet_flits - 1));
            // With the mean length L for every packet: within 1 % and the
            // lengths' sampling error (4 sigma).
            let with_mean: f64 = p
                .samples
                .iter()
                .map(|s| zero_load_pair(&net, &cfg, s.src, s.dst))
                .sum::<f64>()
                / n;
            let avg = measured / n;
            assert!(
                (avg - with_mean).abs() < 0.01 * with_mean + 4.0 * sd / n.sqrt(),
                "{topology:?} {lengths:?}: average {avg}, analytic {with_mean}"
            );
            assert!(zero_load(&net, &cfg).unwrap() > l);
        }
    }
}

#[test]
fn virtual_cut_through_needs_room_for_the_longest_packet() {
    let net = OpenNet::build(Topology::Mesh, 4, LinkMode::Unit, &Delay::Unit).unwrap();
    let mut cfg = config(UpLinks::Random, PacketLength::Bimodal);
    cfg.flow = FlowControl::VirtualCutThrough;
    cfg.depth = 4;
    assert!(matches!(
        simulate(&net, &cfg),
        Err(OpenLoopError::Config(_))
    ));
    cfg.depth = 7;
    let p = simulate(&net, &cfg).unwrap();
    assert!(p.drained && p.delivered == p.measured);
}
