use super::*;
use crate::cli::parse_delay;
use crate::sim::trial_rng;
use crate::sim::wormhole::{PathRule, Pattern, Scan};

fn args(network: WormNetwork) -> WormholeArgs {
    WormholeArgs {
        scheme: vec![Scheme::Worm],
        path: vec![PathRule::Random],
        scan: vec![Scan::RoundRobin],
        traffic: vec![Pattern::Random],
        size: None,
        flits: 8,
        queue: None,
        priorities: args::PrioritiesArg::Fixed(1),
        runs: 2,
        seed: 1,
        network,
        layout: None,
        delay: parse_delay("linear").expect("a delay"),
        output: None,
        format: crate::cli::FormatArgs::default(),
        plot: None,
    }
}

/// The butterfly fat-tree laid out in memory routes exactly as the
/// library's own (the paper's comparisons hold for both), and its step
/// waits for the longest wire.
#[test]
fn laid_out_butterfly_fat_tree_routes_as_the_library_net() {
    let a = args(WormNetwork::ButterflyFatTree);
    let sized = Wires::InMemory.build(64, &a).expect("builds");
    let own = WormNet::butterfly_fat_tree(64).expect("a power of 4");
    assert_eq!(sized.net.links(), own.links());
    assert_eq!(sized.step.longest_wire, 56);
    assert_eq!(sized.step.bit_times_per_step, 57.0);
    for scheme in Scheme::ALL {
        for path in [PathRule::Fixed, PathRule::Random, PathRule::Greedy] {
            for scan in [Scan::Fixed, Scan::RoundRobin, Scan::Farthest] {
                let setup = Setup {
                    scheme,
                    pattern: Pattern::Random,
                    flits: 4,
                    queue: None,
                    path,
                    scan,
                    r: 2,
                };
                for seed in 0..3 {
                    let x = run_scheme(&sized.net, &setup, &mut trial_rng(seed, 0));
                    let y = run_scheme(&own, &setup, &mut trial_rng(seed, 0));
                    assert_eq!(x, y, "{scheme:?} {path:?} {scan:?} seed {seed}");
                }
            }
        }
    }
}

/// The universal fat-tree builds at every size and delivers, its paths no
/// longer than lg N links.
#[test]
fn universal_fat_tree_builds_and_delivers() {
    let a = args(WormNetwork::UniversalFatTree);
    for n in [16u32, 64, 256] {
        let sized = Wires::InMemory.build(n, &a).expect("builds");
        let setup = Setup {
            scheme: Scheme::Worm,
            pattern: Pattern::Random,
            flits: 8,
            queue: None,
            path: PathRule::Random,
            scan: Scan::RoundRobin,
            r: 1,
        };
        let run = run_scheme(&sized.net, &setup, &mut trial_rng(1, 0)).expect("delivers");
        assert!(run.dilation <= n.ilog2() && run.latency > 0, "N {n}");
    }
}

/// Cells are the product of the lists, sizes innermost, each with its own
/// seed; `lg` priorities follow the size.
#[test]
fn cells_are_the_product_with_their_own_seeds() {
    let mut a = args(WormNetwork::ButterflyFatTree);
    a.scheme = vec![Scheme::Store, Scheme::Univ];
    a.traffic = vec![Pattern::Random, Pattern::ManyToOne];
    a.priorities = args::PrioritiesArg::LgN;
    let nets: Vec<Sized> = [16, 64]
        .iter()
        .map(|&n| Wires::InMemory.build(n, &a).expect("builds"))
        .collect();
    let c = cells(&a, &nets);
    assert_eq!(c.len(), 8);
    assert_eq!(
        c.iter().map(|c| c.setup.r).collect::<Vec<_>>(),
        [4, 6, 4, 6, 4, 6, 4, 6]
    );
    assert_eq!(c[5].setup.scheme, Scheme::Univ);
    assert_eq!(c[5].setup.pattern, Pattern::Random);
    let mut seeds: Vec<u64> = c.iter().map(|c| c.seed).collect();
    seeds.dedup();
    assert_eq!(seeds.len(), 8);
}
