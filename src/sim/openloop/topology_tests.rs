//! The butterfly, the fat-pyramid and the pruned butterfly: their routes,
//! their terminals, and heavy traffic delivered without deadlock.

use super::engine::Phases;
use super::sweep::{channel_loads, zero_load_pair};
use super::*;
use crate::layout::metrics::Delay;

fn config(rate: f64, pattern: Pattern) -> Config {
    Config {
        vcs: 1,
        depth: 4,
        pattern,
        rate,
        phases: Phases {
            warmup: 200,
            measure: 1000,
            drain: 20000,
        },
        watchdog: 1000,
        seed: 11,
        ..Config::default()
    }
}

#[test]
fn butterfly_terminals_inject_at_inputs_and_eject_at_outputs() {
    let net = OpenNet::build(Topology::Butterfly, 16, LinkMode::Unit, &Delay::Unit).unwrap();
    let g = &net.graph;
    assert_eq!((g.terminals, g.routers), (16, 5 * 16));
    for t in 0..16 {
        assert_eq!(g.eject[t as usize], 4 * 16 + t);
    }
    // Every route crosses the 4 levels: 5 routers, 4 channels, 4 flits.
    let cfg = config(0.01, Pattern::Uniform);
    for src in 0..16 {
        for dst in 0..16 {
            assert_eq!(zero_load_pair(&net, &cfg, src, dst), (5 + 4 + 4) as f64);
        }
    }
    // A lone packet to itself still crosses the butterfly.
    let mut cfg = config(0.004, Pattern::Uniform);
    cfg.phases.measure = 20000;
    let p = simulate(&net, &cfg).unwrap();
    assert!(p.drained && p.delivered == p.measured && p.measured > 20);
    assert!((p.hops - 4.0).abs() < 1e-9, "{}", p.hops);
    assert!(p.samples.iter().any(|s| s.src == s.dst));
    assert!(p.samples.iter().all(|s| s.network >= 13), "{:?}", p.samples);
}

#[test]
fn new_topologies_deliver_every_packet_under_heavy_load() {
    for (topology, size) in [
        (Topology::Butterfly, 32),
        (Topology::FatPyramid, 64),
        (Topology::PrunedButterfly, 64),
    ] {
        for links in [LinkMode::Unit, LinkMode::Layout] {
            let net = OpenNet::build(topology, size, links, &Delay::SquareRoot).unwrap();
            for pattern in [Pattern::Uniform, Pattern::BitReversal, Pattern::HotSpot] {
                // One virtual channel: up*/down* and destination tag need
                // no more to be deadlock free. Three times the channel-load
                // bound: past saturation, but drainable.
                let bound = channel_loads(&net, &config(1.0, pattern)).unwrap().bound;
                let mut cfg = config((3.0 * bound).min(1.0), pattern);
                cfg.phases.drain = 200_000;
                let p = simulate(&net, &cfg)
                    .unwrap_or_else(|e| panic!("{topology:?} {links:?} {pattern:?}: {e}"));
                assert!(p.drained, "{topology:?} {links:?} {pattern:?}");
                assert_eq!(p.delivered, p.measured);
                assert_eq!(p.samples.len() as u64, p.measured);
                assert!(
                    p.accepted > 0.1 * bound,
                    "{topology:?}: {} of bound {bound}",
                    p.accepted
                );
            }
        }
    }
}

#[test]
fn fat_pyramid_routes_on_its_tree_links_only() {
    // 1024 processors: blocks of 64, K = 2, a 2 x 2 mesh at level 1.
    let net = OpenNet::build(Topology::FatPyramid, 1024, LinkMode::Unit, &Delay::Unit).unwrap();
    let g = &net.graph;
    // The layout's own network gives the levels (its processors come
    // first, so router ids are its node ids).
    let options = crate::layout::LayoutOptions {
        capacity: None,
        omega: 1,
        alpha: 1,
        levels: None,
        mesh_capacity: 1,
        dims: None,
    };
    let emb = crate::layout::LayoutKind::FatPyramid
        .construction(1024, &options)
        .unwrap()
        .build()
        .unwrap()
        .embedding;
    let laid = crate::network::Network::from_embedding(&emb).unwrap();
    let level = |r: u32| laid.node(crate::network::NodeId(r)).level;
    let bound = channel_loads(&net, &config(1.0, Pattern::Uniform))
        .unwrap()
        .bound;
    let mut cfg = config(0.5 * bound, Pattern::Uniform);
    cfg.phases = Phases {
        warmup: 100,
        measure: 2000,
        drain: 20000,
    };
    let p = simulate(&net, &cfg).unwrap();
    assert!(p.drained && p.delivered == p.measured);
    let mesh: Vec<usize> = (0..g.channels.len())
        .filter(|&c| level(g.channels[c].from) == level(g.channels[c].to))
        .collect();
    assert!(!mesh.is_empty(), "1024 processors have level meshes");
    assert!(mesh.iter().all(|&c| p.link_flits[c] == 0));
    assert!(p.link_flits.iter().sum::<u64>() > 0);
}
