use super::*;
use crate::sim::trial_rng;

fn setup(scheme: Scheme, pattern: Pattern) -> Setup {
    Setup {
        scheme,
        pattern,
        flits: 32,
        queue: None,
        path: PathRule::Random,
        scan: Scan::RoundRobin,
        r: 1,
    }
}

/// The paper's values (docs/simulation.md): many-to-1 is exact, WORM = cL + d - 2 and STORE =
/// (2c + d - 3) L with c = N/2 and d = lg N, for every N of Table I up to
/// 1024 (4096 runs in the CLI's sweep).
#[test]
fn many_to_one_is_exact() {
    for (n, worm, store) in [
        (16u64, 258u64, 544u64),
        (64, 1028, 2144),
        (256, 4102, 8352),
        (1024, 16392, 32992),
    ] {
        let net = WormNet::butterfly_fat_tree(n).expect("a power of 4");
        let c = n / 2;
        let d = n.ilog2() as u64;
        assert_eq!(worm, c * 32 + d - 2);
        assert_eq!(store, (2 * c + d - 3) * 32);
        for seed in 0..2 {
            let w = run_scheme(
                &net,
                &setup(Scheme::Worm, Pattern::ManyToOne),
                &mut trial_rng(seed, 0),
            )
            .expect("runs");
            assert_eq!(w.latency, worm, "WORM N {n}");
            assert_eq!(w.congestion as u64, c);
            assert_eq!(w.dilation as u64, d);
            let s = run_scheme(
                &net,
                &setup(Scheme::Store, Pattern::ManyToOne),
                &mut trial_rng(seed, 0),
            )
            .expect("runs");
            assert_eq!(s.latency, store, "STORE N {n}");
        }
    }
}

/// Table I's WORM random and complement and STORE random at N = 16 and
/// 64, 30 runs each: within the bands of docs/simulation.md (5 % WORM, 10 % STORE).
#[test]
fn table_one_small_sizes() {
    for (n, worm_rand, worm_comp, store_rand) in
        [(16u64, 125.0, 68.0, 269.0), (64, 233.0, 161.0, 534.0)]
    {
        let net = WormNet::butterfly_fat_tree(n).expect("a power of 4");
        let mean = |s: Setup| {
            (0..30)
                .map(|i| {
                    run_scheme(&net, &s, &mut trial_rng(7, i))
                        .expect("runs")
                        .latency as f64
                })
                .sum::<f64>()
                / 30.0
        };
        let w = mean(setup(Scheme::Worm, Pattern::Random));
        assert!(
            (w - worm_rand).abs() <= 0.05 * worm_rand,
            "WORM random N {n}: {w}"
        );
        let w = mean(setup(Scheme::Worm, Pattern::Complement));
        assert!(
            (w - worm_comp).abs() <= 0.05 * worm_comp,
            "WORM complement N {n}: {w}"
        );
        let s = mean(setup(Scheme::Store, Pattern::Random));
        assert!(
            (s - store_rand).abs() <= 0.10 * store_rand,
            "STORE random N {n}: {s}"
        );
    }
}

/// The same seed gives the same run; every scheme and rule delivers.
#[test]
fn runs_are_deterministic_and_deliver() {
    let net = WormNet::butterfly_fat_tree(64).expect("a power of 4");
    for scheme in Scheme::ALL {
        for path in [PathRule::Fixed, PathRule::Random, PathRule::Greedy] {
            for scan in [Scan::Fixed, Scan::RoundRobin, Scan::Farthest] {
                let mut s = setup(scheme, Pattern::Random);
                s.path = path;
                s.scan = scan;
                s.flits = 8;
                s.r = 3;
                let a = run_scheme(&net, &s, &mut trial_rng(3, 1)).expect("runs");
                let b = run_scheme(&net, &s, &mut trial_rng(3, 1)).expect("runs");
                assert_eq!(a, b);
                assert!(a.latency > 0 && a.dilation <= 6);
            }
        }
    }
}

/// Random worms for the cross-check: lengths 1..=`max_len`, releases in
/// 0..`spread`, priorities in 1..=3.
fn random_worms(n: u32, count: usize, max_len: u32, spread: u64, seed: u64) -> Vec<Worm> {
    use rand::Rng;
    let mut rng = trial_rng(seed, 77);
    (0..count)
        .map(|_| Worm {
            src: rng.gen_range(0..n),
            dst: rng.gen_range(0..n),
            len: rng.gen_range(1..=max_len),
            release: rng.gen_range(0..spread),
            priority: rng.gen_range(1..=3),
            coins: rng.gen(),
        })
        .collect()
}

/// The fast engine against the plain one on 1,296 random instances (every
/// path rule, scan and arbitration; queues of 1 to 3; worms of 1 to 12
/// flits, several per source, staggered releases): the same run, arrival
/// for arrival and path for path.
#[test]
fn fast_engine_matches_the_reference() {
    let mut compared = 0;
    for n in [16u64, 64] {
        let net = WormNet::butterfly_fat_tree(n).expect("a power of 4");
        for seed in 0..6u64 {
            for (max_len, spread) in [(1u32, 1u64), (4, 1), (12, 40)] {
                let worms = random_worms(n as u32, 2 * n as usize, max_len, spread, seed);
                for q in 1..=3 {
                    for path in [PathRule::Fixed, PathRule::Random, PathRule::Greedy] {
                        for (scan, arbitration) in [
                            (Scan::Fixed, Arbitration::Scan),
                            (Scan::RoundRobin, Arbitration::Scan),
                            (Scan::Farthest, Arbitration::Scan),
                            (Scan::RoundRobin, Arbitration::Priority),
                        ] {
                            let rules = Rules {
                                q,
                                path,
                                scan,
                                arbitration,
                            };
                            let fast = engine::run(&net, &worms, rules, &mut trial_rng(seed, 3))
                                .expect("runs");
                            let slow = reference::run(&net, &worms, rules, &mut trial_rng(seed, 3))
                                .expect("runs");
                            assert_eq!(fast, slow, "N {n} seed {seed} L {max_len} q {q} {rules:?}");
                            compared += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(compared, 2 * 6 * 3 * 3 * 3 * 4);
}

/// The fast engine against the plain one on the benchmark's shape: worms
/// of up to 32 flits on N = 256 under RR, so long bodies stream through
/// queues while heads sleep on links other worms hold.
#[test]
fn fast_engine_matches_the_reference_on_long_worms() {
    let net = WormNet::butterfly_fat_tree(256).expect("a power of 4");
    for seed in 0..4u64 {
        let worms = random_worms(256, 256, 32, 300, seed);
        for q in [1, 2, 4] {
            for path in [PathRule::Fixed, PathRule::Random, PathRule::Greedy] {
                let rules = Rules {
                    q,
                    path,
                    scan: Scan::RoundRobin,
                    arbitration: Arbitration::Scan,
                };
                let fast = engine::run(&net, &worms, rules, &mut trial_rng(seed, 5)).expect("runs");
                let slow =
                    reference::run(&net, &worms, rules, &mut trial_rng(seed, 5)).expect("runs");
                assert_eq!(fast, slow, "seed {seed} q {q} {rules:?}");
            }
        }
    }
}

/// A link packs its queue's first slot and length into 16 bits each, so a
/// queue above `MAX_QUEUE` units is refused with an error that names the
/// limit (both engines), never truncated; one at the limit runs, and the
/// two engines agree on it.
#[test]
fn queues_too_large_for_a_link_are_refused() {
    let net = WormNet::butterfly_fat_tree(16).expect("a power of 4");
    let worms = random_worms(16, 32, 12, 5, 1);
    let rules = |q| Rules {
        q,
        path: PathRule::Random,
        scan: Scan::RoundRobin,
        arbitration: Arbitration::Scan,
    };
    let max = engine::MAX_QUEUE;
    assert!(max < 1 << 16, "a length of up to {max} fits in 16 bits");
    for q in [max + 1, 1 << 16, (1 << 16) + 2, u32::MAX] {
        let refused = WormError::QueueTooLarge { q, max };
        let fast = engine::run(&net, &worms, rules(q), &mut trial_rng(1, 3));
        assert_eq!(fast, Err(refused.clone()), "q {q}");
        let slow = reference::run(&net, &worms, rules(q), &mut trial_rng(1, 3));
        assert_eq!(slow, Err(refused.clone()), "q {q}");
        assert_eq!(
            refused.to_string(),
            format!("a queue of {q} units: at most {max}")
        );
        let mut s = setup(Scheme::Worm, Pattern::Random);
        s.queue = Some(q);
        assert_eq!(run_scheme(&net, &s, &mut trial_rng(1, 0)), Err(refused));
    }
    let fast = engine::run(&net, &worms, rules(max), &mut trial_rng(1, 3)).expect("runs");
    let slow = reference::run(&net, &worms, rules(max), &mut trial_rng(1, 3)).expect("runs");
    assert_eq!(fast, slow);
    assert!(fast.latency > 0);
}
