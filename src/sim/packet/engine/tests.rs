use super::*;
use crate::sim::packet::traffic::{bit_reversal, PacketTraffic};
use crate::sim::trial_rng;

fn config(model: QueueModel, protocol: Protocol, q: u32) -> Config {
    Config { model, protocol, q }
}

fn packets(kind: PacketTraffic, n: u32, k: u32, seed: u64) -> Vec<Packet> {
    kind.packets(n, k, &mut trial_rng(seed, 0))
        .expect("valid traffic")
}

/// A lone packet is never delayed: it reaches level n at step n.
#[test]
fn a_lone_packet_takes_n_steps() {
    for n in 1..=8 {
        for d in [0, (1u64 << n) - 1, 5 % (1u64 << n)] {
            let p = [Packet {
                source: 1 % (1 << n),
                destination: d,
            }];
            for protocol in Protocol::ALL {
                let r = run(
                    n,
                    &p,
                    config(QueueModel::Greedy, protocol, 1),
                    &mut trial_rng(0, 0),
                )
                .expect("runs");
                assert_eq!(r.steps, n as u64);
                assert_eq!(r.hops, n as u64);
            }
        }
    }
}

/// The identity sends every packet straight with no contention: T = n.
#[test]
fn identity_is_undelayed() {
    for n in 1..=10 {
        let p = packets(PacketTraffic::Identity, n, 1, 0);
        let r = run(
            n,
            &p,
            config(QueueModel::Greedy, Protocol::Fifo, 1),
            &mut trial_rng(0, 0),
        )
        .expect("runs");
        assert_eq!(r.steps, n as u64);
        assert!(r.arrival.iter().all(|&a| a == n));
        assert_eq!(r.link_use.iter().map(|u| u[1]).sum::<u64>(), 0);
    }
}

/// E2 (`docs/simulation.md`): direct bit-reversal under FIFO takes sqrt(N) + lg N - 1
/// steps exactly, for q = 2 and 4 (the sqrt(N) packets through the middle
/// switch leave it one per step).
#[test]
fn bit_reversal_takes_sqrt_n_plus_log_n_minus_1() {
    for n in [4u32, 6, 8, 10, 12] {
        let p = packets(PacketTraffic::BitReversal, n, 1, 0);
        assert!(p.iter().all(|x| x.destination == bit_reversal(x.source, n)));
        for q in [2, 4] {
            let r = run(
                n,
                &p,
                config(QueueModel::Greedy, Protocol::Fifo, q),
                &mut trial_rng(0, 0),
            )
            .expect("runs");
            assert_eq!(r.steps, (1u64 << (n / 2)) + n as u64 - 1, "n {n} q {q}");
        }
    }
}

/// Every packet is delivered to its destination, each crossing n edges;
/// occupancies stay within the model's bound; the same seed gives the same
/// trace.
#[test]
fn conservation_and_occupancy() {
    for seed in 0..6u64 {
        for n in [1u32, 3, 5, 7] {
            for k in [1u32, 3] {
                let p = packets(PacketTraffic::RandomDestinations, n, k, seed);
                for model in [QueueModel::Greedy, QueueModel::Threshold] {
                    for q in [1u32, 2, 4] {
                        for protocol in Protocol::ALL {
                            let c = config(model, protocol, q);
                            let r = run(n, &p, c, &mut trial_rng(seed, 1)).expect("runs");
                            assert_eq!(r.hops, p.len() as u64 * n as u64);
                            assert!(r.arrival.iter().all(|&a| a >= n && a as u64 <= r.steps));
                            let bound = match model {
                                QueueModel::Greedy => q,
                                QueueModel::Threshold => q + 2,
                            };
                            assert!(r.max_switch_occupancy <= bound);
                            let again = run(n, &p, c, &mut trial_rng(seed, 1)).expect("runs");
                            assert_eq!(again, r);
                        }
                    }
                }
            }
        }
    }
}

/// Bad configurations are refused before any work.
#[test]
fn bad_configurations_are_refused() {
    let p = [Packet {
        source: 0,
        destination: 9,
    }];
    let c = config(QueueModel::Greedy, Protocol::Fifo, 0);
    assert_eq!(
        run(3, &p, c, &mut trial_rng(0, 0)),
        Err(EngineError::ZeroCapacity)
    );
    let c = config(QueueModel::Threshold, Protocol::Fifo, 0);
    assert!(matches!(
        run(3, &p, c, &mut trial_rng(0, 0)),
        Err(EngineError::RowOutside { index: 0, .. })
    ));
    assert_eq!(
        run(MAX_N + 1, &p, c, &mut trial_rng(0, 0)),
        Err(EngineError::TooManyRows { n: MAX_N + 1 })
    );
}

#[test]
#[ignore]
fn e1_print() {
    for protocol in [Protocol::Fifo, Protocol::PerEdgeOldest] {
        for q in [1u32, 2, 3, 4, 8] {
            let mut line = format!("{:?} q={q}:", protocol);
            for n in [6u32, 8, 10, 12, 14] {
                let trials = if n <= 10 { 100 } else { 20 };
                let mut sum = 0.0;
                for t in 0..trials {
                    let p = PacketTraffic::RandomDestinations
                        .packets(n, 1, &mut trial_rng(1, t))
                        .unwrap();
                    let r = run(
                        n,
                        &p,
                        config(QueueModel::Greedy, protocol, q),
                        &mut trial_rng(2, t),
                    )
                    .unwrap();
                    sum += r.per_log(n);
                }
                line += &format!(" {:.3}", sum / trials as f64);
            }
            println!("{line}");
        }
    }
}

#[test]
#[ignore]
fn speed_print() {
    for n in [std::env::var("SPEED_N").map_or(16, |v| v.parse().unwrap())] {
        let p = PacketTraffic::RandomDestinations
            .packets(n, 1, &mut trial_rng(1, 0))
            .unwrap();
        let t0 = std::time::Instant::now();
        let mut hops = 0;
        let reps = if n == 16 { 10 } else { 1 };
        for _ in 0..reps {
            let r = run(
                n,
                &p,
                config(QueueModel::Greedy, Protocol::Fifo, 4),
                &mut trial_rng(2, 0),
            )
            .unwrap();
            hops += r.hops;
        }
        let s = t0.elapsed().as_secs_f64();
        println!(
            "n={n}: {hops} hops in {s:.3}s = {:.1} M/s",
            hops as f64 / s / 1e6
        );
    }
}

/// The engine against the plain reference simulator: identical arrivals
/// for FIFO and PerEdgeOldest under model G on 2,688 random problems, and
/// every run within Theorem 2.1's bound (with the reference's own 576, over
/// the 3,000 runs E1 calls for).
#[test]
fn engine_matches_the_reference() {
    use crate::sim::packet::delay_tree;
    use crate::sim::packet::reference::{run_greedy, RefProtocol};
    let mut compared = 0;
    for seed in 0..16u64 {
        for n in 1..=7u32 {
            for k in [1u32, 2, 3] {
                let p = packets(
                    PacketTraffic::RandomDestinations,
                    n,
                    k,
                    seed * 31 + n as u64,
                );
                for q in 1..=4 {
                    for (protocol, reference) in [
                        (Protocol::Fifo, RefProtocol::Fifo),
                        (Protocol::PerEdgeOldest, RefProtocol::PerEdgeOldest),
                    ] {
                        let r = run(
                            n,
                            &p,
                            config(QueueModel::Greedy, protocol, q),
                            &mut trial_rng(0, 0),
                        )
                        .expect("runs");
                        let slow = run_greedy(n, &p, q, reference);
                        let fast: Vec<u64> = r.arrival.iter().map(|&a| a as u64).collect();
                        assert_eq!(fast, slow, "{protocol:?} n {n} k {k} q {q} seed {seed}");
                        let check = delay_tree::check(
                            &crate::sim::packet::butterfly::Butterfly::new(n),
                            &p,
                            &fast,
                            q,
                        )
                        .expect("in range");
                        assert!(
                            check.holds(),
                            "Theorem 2.1 fails: {:?}",
                            check.violations.first()
                        );
                        compared += 1;
                    }
                }
            }
        }
    }
    assert_eq!(compared, 16 * 7 * 3 * 4 * 2);
}

/// Watches nothing but says it does, so FIFO runs through the sticky-pick
/// path instead of the head-only sweep.
struct Watching;

impl Oracle for Watching {
    fn on_select(&mut self, _: u32, _: u64, _: u32, _: &mut [u64]) {}
}

/// FIFO's head-only sweep against the general sticky-pick path: the same
/// run, move for move, under both queue models, on 2,232 problems.
#[test]
fn fifo_head_sweep_matches_the_sticky_path() {
    let mut compared = 0;
    for seed in 0..6u64 {
        for n in 1..=9u32 {
            for k in [1u32, 2, 4] {
                for kind in [
                    PacketTraffic::RandomDestinations,
                    PacketTraffic::RandomPermutation,
                    PacketTraffic::BitReversal,
                    PacketTraffic::Transpose,
                ] {
                    let Ok(p) = kind.packets(n, k, &mut trial_rng(seed, n as u64)) else {
                        continue;
                    };
                    for (model, q) in [
                        (QueueModel::Greedy, 1),
                        (QueueModel::Greedy, 3),
                        (QueueModel::Threshold, 0),
                        (QueueModel::Threshold, 2),
                    ] {
                        let c = config(model, Protocol::Fifo, q);
                        let head = run_traced(n, &p, c, &mut trial_rng(seed, 1)).expect("runs");
                        let sticky = run_with(n, &p, c, &mut trial_rng(seed, 1), &mut Watching)
                            .expect("runs");
                        assert_eq!(head, sticky, "{kind:?} n {n} k {k} {model:?} q {q}");
                        assert!(head.trace.is_some());
                        compared += 1;
                    }
                }
            }
        }
    }
    assert_eq!(compared, 2_232);
}

/// Two legs through the wraparound against the reference simulator:
/// identical first-leg and final arrivals for FIFO and PerEdgeOldest under
/// model G, each packet crossing 2n edges.
#[test]
fn two_legs_match_the_reference() {
    use crate::sim::packet::reference::{run_greedy_via, RefProtocol};
    use rand::Rng;
    let mut compared = 0;
    for seed in 0..8u64 {
        for n in 1..=7u32 {
            for k in [1u32, 2] {
                let p = packets(PacketTraffic::RandomPermutation, n, k, seed + 40 * n as u64);
                let mut rng = trial_rng(seed, 9);
                let via: Vec<u64> = p.iter().map(|_| rng.gen_range(0..1u64 << n)).collect();
                for q in 1..=3 {
                    for (protocol, reference) in [
                        (Protocol::Fifo, RefProtocol::Fifo),
                        (Protocol::PerEdgeOldest, RefProtocol::PerEdgeOldest),
                    ] {
                        let c = config(QueueModel::Greedy, protocol, q);
                        let r = run_through(n, &p, &via, c, &mut trial_rng(0, 0)).expect("runs");
                        let (arrival, first) = run_greedy_via(n, &p, Some(&via), q, reference);
                        let fast: Vec<u64> = r.arrival.iter().map(|&a| a as u64).collect();
                        let wrap: Vec<u64> = r.first_leg.iter().map(|&a| a as u64).collect();
                        assert_eq!(wrap, first, "{protocol:?} n {n} k {k} q {q} seed {seed}");
                        assert_eq!(fast, arrival, "{protocol:?} n {n} k {k} q {q} seed {seed}");
                        assert_eq!(r.hops, 2 * n as u64 * p.len() as u64);
                        let dest: Vec<u64> = p.iter().map(|x| x.destination).collect();
                        assert_eq!(r.destination, dest);
                        compared += 1;
                    }
                }
            }
        }
    }
    assert_eq!(compared, 8 * 7 * 2 * 3 * 2);
}

/// Bad intermediates are refused before any work.
#[test]
fn bad_intermediates_are_refused() {
    let p = packets(PacketTraffic::Identity, 3, 1, 0);
    let c = config(QueueModel::Greedy, Protocol::Fifo, 2);
    assert_eq!(
        run_through(3, &p, &[0; 7], c, &mut trial_rng(0, 0)),
        Err(EngineError::ViaCount { via: 7, packets: 8 })
    );
    let mut via = vec![0; 8];
    via[5] = 8;
    assert_eq!(
        run_through(3, &p, &via, c, &mut trial_rng(0, 0)),
        Err(EngineError::ViaOutside {
            index: 5,
            row: 8,
            rows: 8
        })
    );
}

/// Both queue models and every deterministic protocol against the plain
/// reference simulator: identical arrivals on 3,360 random problems
/// (model G q = 1..3, model T q = 0..2; FIFO, LIFO, FixedPriority,
/// PerEdgeOldest).
#[test]
fn both_models_match_the_reference() {
    use crate::sim::packet::reference::{run_model, RefModel, RefProtocol};
    let mut compared = 0;
    for seed in 0..10u64 {
        for n in 1..=7u32 {
            for k in [1u32, 2] {
                let p = packets(
                    PacketTraffic::RandomDestinations,
                    n,
                    k,
                    seed * 17 + n as u64,
                );
                for (model, reference, qs) in [
                    (QueueModel::Greedy, RefModel::Greedy, 1..=3),
                    (QueueModel::Threshold, RefModel::Threshold, 0..=2),
                ] {
                    for q in qs {
                        for (protocol, rp) in [
                            (Protocol::Fifo, RefProtocol::Fifo),
                            (Protocol::Lifo, RefProtocol::Lifo),
                            (Protocol::FixedPriority, RefProtocol::FixedPriority),
                            (Protocol::PerEdgeOldest, RefProtocol::PerEdgeOldest),
                        ] {
                            let r = run(n, &p, config(model, protocol, q), &mut trial_rng(0, 0))
                                .expect("runs");
                            let fast: Vec<u64> = r.arrival.iter().map(|&a| a as u64).collect();
                            let slow = run_model(n, &p, reference, q, rp);
                            assert_eq!(fast, slow, "{model:?} {protocol:?} n {n} k {k} q {q}");
                            compared += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(compared, 10 * 7 * 2 * 2 * 3 * 4);
}
