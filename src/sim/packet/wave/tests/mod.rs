//! Tests of the engine: worked cases, the slow reference, the invariant
//! checker on many runs, lower bounds, errors, and E4's regression figures.

mod mutations;

use super::reference::reference;
use super::*;
use crate::sim::trial_rng;

/// `k` packets per input of `kind` on `B(n)`, from trial `trial` of `seed`.
fn problem(n: u32, k: u32, kind: PacketTraffic, seed: u64, trial: u64) -> Vec<Packet> {
    kind.packets(n, k, &mut trial_rng(seed, trial))
        .expect("valid problem")
}

fn checked(q: u32, until: Until) -> WaveConfig {
    WaveConfig {
        q,
        checks: Checks::Invariants,
        until,
    }
}

/// One input row: packet `i` leaves at step `2i + 1` and is absorbed at
/// once, whatever `q` (level 1 is the outputs).
#[test]
fn one_level_by_hand() {
    let b = Butterfly::new(1);
    for k in 1..=4u32 {
        for q in 1..=3 {
            let packets = problem(1, k, PacketTraffic::RandomDestinations, 5, k as u64);
            let run = run_waves(&b, &packets, k, &checked(q, Until::Delivered)).expect("runs");
            for (index, &arrival) in run.arrivals.iter().enumerate() {
                assert_eq!(arrival, 2 * (index as u64 % k as u64) + 1);
            }
            assert_eq!(run.routing_time, 2 * k as u64 - 1);
            assert_eq!(run.steps, run.routing_time);
            assert_eq!(run.packet_hops, 2 * k as u64);
            // k - 1 token pairs per input before its last packet.
            assert_eq!(run.token_hops, 4 * (k as u64 - 1));
            assert!(run.queue_peaks.is_empty());
            let drained = run_waves(&b, &packets, k, &checked(q, Until::Drained)).expect("runs");
            assert_eq!(drained.steps, 2 * k as u64);
            assert_eq!(drained.token_hops, 4 * k as u64);
            assert_eq!(drained.arrivals, run.arrivals);
        }
    }
}

/// B(2), one packet per input, the identity. Step 1: input `a` sends its
/// packet straight, into the `a & 1` queue of `<1, a>`. Step 2: the even
/// rows of level 1 (mode 0, packet in the 0-queue) deliver; the odd rows
/// wait (mode 0, empty 0-queue). The inputs' token pairs need room at both
/// targets: with q = 2 all four go at step 2, the odd rows turn to mode 1
/// on the token at step 3 and deliver then; with q = 1 the even inputs'
/// straight targets were full at the start of step 2, so they send at step
/// 3, the odd inputs wait behind the stuck packets, and the odd rows
/// deliver at step 4. A row's own queue peaks at 1, except with q = 2 at
/// the odd rows, whose packet is joined by the token before it leaves.
#[test]
fn two_levels_by_hand() {
    let b = Butterfly::new(2);
    let packets = problem(2, 1, PacketTraffic::Identity, 0, 0);
    let cases = [
        (1, [2, 4, 2, 4], [1, 1, 1, 1]),
        (2, [2, 3, 2, 3], [1, 2, 1, 2]),
    ];
    for (q, want, peaks) in cases {
        let run = run_waves(&b, &packets, 1, &checked(q, Until::Delivered)).expect("runs");
        assert_eq!(run.arrivals, want);
        assert_eq!(run.routing_time, want[1]);
        for row in 0..4u64 {
            let node = Node { level: 1, row };
            let own = if row % 2 == 0 {
                InEdge::Zero
            } else {
                InEdge::One
            };
            let index = run.queue_index(node, own).expect("level 1 has queues");
            assert_eq!(run.queue_peaks[index], peaks[row as usize]);
        }
    }
}

/// The engine against the slow reference on many small random problems of
/// every kind: every arrival, every queue's peak, the hop counts and the
/// steps agree exactly, stopping at delivery or after draining.
#[test]
fn engine_matches_reference() {
    let kinds = [
        PacketTraffic::RandomDestinations,
        PacketTraffic::RandomPermutation,
        PacketTraffic::BitReversal,
        PacketTraffic::Transpose,
        PacketTraffic::Identity,
    ];
    let mut cases = 0;
    for case in 0..300u64 {
        let mut pick = trial_rng(99, case);
        let n = rand::Rng::gen_range(&mut pick, 1..=5u32);
        let k = rand::Rng::gen_range(&mut pick, 1..=5u32);
        let q = rand::Rng::gen_range(&mut pick, 1..=4u32);
        let kind = kinds[case as usize % kinds.len()];
        if kind == PacketTraffic::Transpose && n % 2 == 1 {
            continue;
        }
        let until = if case % 2 == 0 {
            Until::Delivered
        } else {
            Until::Drained
        };
        let b = Butterfly::new(n);
        let packets = problem(n, k, kind, 3, case);
        let config = WaveConfig {
            q,
            checks: Checks::Off,
            until,
        };
        let run = run_waves(&b, &packets, k, &config).expect("no deadlock");
        let slow = reference(b, &packets, k, q, until).expect("no deadlock");
        let what = format!("case {case}: n={n} k={k} q={q} {kind:?} {until:?}");
        assert_eq!(run.arrivals, slow.arrivals, "{what}");
        assert_eq!(run.steps, slow.steps, "{what}");
        assert_eq!(run.packet_hops, slow.packet_hops, "{what}");
        assert_eq!(run.token_hops, slow.token_hops, "{what}");
        for (&(node, edge), &peak) in &slow.peaks {
            let index = run.queue_index(node, edge).expect("a queue");
            assert_eq!(run.queue_peaks[index] as usize, peak, "{what}");
        }
        assert_eq!(run.queue_peaks.len(), slow.peaks.len(), "{what}");
        cases += 1;
    }
    assert!(cases > 250);
}

/// Invariants I1–I6 hold, checked by the observer, for q in {1, 2, 3, 4,
/// 8}, n up to 10, k = n, several seeds and traffic kinds, run until every
/// token is flushed (so I2 is checked in full). Peaks stay within q, and
/// the unchecked run is the same run.
#[test]
fn invariants_hold() {
    for q in [1, 2, 3, 4, 8] {
        for n in 1..=10u32 {
            let kinds: &[PacketTraffic] = if n <= 8 {
                &[
                    PacketTraffic::RandomDestinations,
                    PacketTraffic::BitReversal,
                ]
            } else {
                &[PacketTraffic::RandomDestinations]
            };
            for &kind in kinds {
                let seeds = if n <= 6 { 0..3 } else { 0..1 };
                for seed in seeds {
                    let b = Butterfly::new(n);
                    let packets = problem(n, n, kind, seed, q as u64);
                    let run = run_waves(&b, &packets, n, &checked(q, Until::Drained))
                        .unwrap_or_else(|e| panic!("n={n} q={q} {kind:?}: {e}"));
                    assert!(run.max_occupancy() <= q);
                    assert_eq!(run.delivered, packets.len() as u64);
                    // k tokens on each of the 2nN edges.
                    assert_eq!(run.token_hops, 2 * n as u64 * b.rows() * n as u64);
                    assert_eq!(run.packet_hops, packets.len() as u64 * n as u64);
                    let plain = run_waves(&b, &packets, n, &WaveConfig::new(q)).expect("runs");
                    assert_eq!(plain.arrivals, run.arrivals);
                    assert_eq!(plain.routing_time, run.routing_time);
                }
            }
        }
    }
}

/// Packet `p` of wave `2i` cannot reach level n before step `n - 1 + m`,
/// where `m` is, over the switches `v` on its path below level n, the
/// number of events `v` makes up to and including `p`: by I4 these are
/// the packets through `v` of rank at most `p`'s and the `i` token pairs of
/// lower waves. (`v` on level `l` acts first at step `l + 1`, once per
/// step, and `p` then needs `n - l - 1` more hops.) At the inputs `m =
/// 2i + 1`, so `T >= n + 2k - 2`.
#[test]
fn arrivals_respect_the_rank_bound() {
    for (n, k, q) in [(3, 4, 1), (5, 5, 2), (6, 6, 4), (7, 3, 8), (8, 8, 3)] {
        for seed in 0..3 {
            let b = Butterfly::new(n);
            let packets = problem(n, k, PacketTraffic::RandomDestinations, seed, 0);
            let run = run_waves(&b, &packets, k, &WaveConfig::new(q)).expect("runs");
            // through[(level, row)]: ranks of the packets through the node.
            let mut through = std::collections::HashMap::<(u32, u64), Vec<(u32, u64)>>::new();
            for (id, p) in packets.iter().enumerate() {
                let rank = (2 * (id as u32 % k), p.source);
                for v in b.path(p.source, p.destination).take(n as usize) {
                    through.entry((v.level, v.row)).or_default().push(rank);
                }
            }
            let mut tight = 0;
            for (id, p) in packets.iter().enumerate() {
                let i = id as u32 % k;
                let rank = (2 * i, p.source);
                let m = b
                    .path(p.source, p.destination)
                    .take(n as usize)
                    .map(|v| {
                        let before = through[&(v.level, v.row)]
                            .iter()
                            .filter(|&&r| r <= rank)
                            .count();
                        before as u64 + i as u64
                    })
                    .max()
                    .expect("n >= 1");
                assert!(run.arrivals[id] >= n as u64 - 1 + m, "packet {id}");
                tight += (run.arrivals[id] == n as u64 - 1 + m) as u32;
            }
            assert!(run.routing_time >= (n + 2 * k - 2) as u64);
            // The bound is met exactly by some packets (the first wave's
            // lucky ones), so it is not vacuous.
            assert!(tight > 0);
        }
    }
}

/// Bad parameters are refused, with the reason, before any step.
#[test]
fn bad_parameters_are_errors() {
    let b = Butterfly::new(3);
    let packets = problem(3, 2, PacketTraffic::RandomDestinations, 0, 0);
    assert_eq!(
        run_waves(&b, &packets, 2, &WaveConfig::new(0)),
        Err(WaveError::ZeroCapacity)
    );
    assert!(matches!(
        run_waves(&b, &packets, 2, &WaveConfig::new(u32::MAX)),
        Err(WaveError::CapacityTooLarge { .. })
    ));
    assert_eq!(
        run_waves(&b, &[], 0, &WaveConfig::new(2)),
        Err(WaveError::NoPackets)
    );
    assert_eq!(
        run_waves(&b, &packets[1..], 2, &WaveConfig::new(2)),
        Err(WaveError::PacketCount {
            expected: 16,
            got: 15,
            k: 2
        })
    );
    let mut swapped = packets.clone();
    swapped.swap(1, 2);
    assert!(matches!(
        run_waves(&b, &swapped, 2, &WaveConfig::new(2)),
        Err(WaveError::Misplaced { index: 1, .. })
    ));
    let mut far = packets.clone();
    far[5].destination = 8;
    assert!(matches!(
        run_waves(&b, &far, 2, &WaveConfig::new(2)),
        Err(WaveError::DestinationOutOfRange { index: 5, .. })
    ));
    let config = WaveConfig::new(2);
    let odd = run_wave_trials(3, 1, PacketTraffic::Transpose, &config, 0, 1);
    assert!(matches!(odd, Err(WaveError::Traffic(_))));
    let huge = run_wave_trials(40, 1, PacketTraffic::Identity, &config, 0, 1);
    assert!(matches!(huge, Err(WaveError::TooLarge { n: 40, .. })));
}

/// With n = 0 the inputs are the outputs: nothing moves, T = 0.
#[test]
fn zero_levels_route_nothing() {
    let b = Butterfly::new(0);
    let packets = problem(0, 3, PacketTraffic::Identity, 0, 0);
    let run = run_waves(&b, &packets, 3, &checked(1, Until::Drained)).expect("runs");
    assert_eq!(run.routing_time, 0);
    assert_eq!(run.arrivals, [0, 0, 0]);
    assert_eq!(run.delivered, 3);
    assert_eq!(run.item_hops(), 0);
}

/// Trials are seeded: in parallel or one by one, the same runs.
#[test]
fn trials_are_deterministic() {
    let config = WaveConfig::new(2);
    let kind = PacketTraffic::RandomDestinations;
    let par = run_wave_trials(6, 6, kind, &config, 11, 8).expect("runs");
    let b = Butterfly::new(6);
    for (i, run) in par.iter().enumerate() {
        let packets = problem(6, 6, kind, 11, i as u64);
        assert_eq!(run_waves(&b, &packets, 6, &config).as_ref(), Ok(run));
    }
    assert_ne!(par[0].arrivals, par[1].arrivals);
}

/// Mean `T / (k + n)` with `k = n` over E4's trial counts (20 for
/// n <= 8, 5 above), random destinations.
fn e4_mean(n: u32, q: u32, seed: u64) -> f64 {
    let trials = if n <= 8 { 20 } else { 5 };
    let runs = run_wave_trials(
        n,
        n,
        PacketTraffic::RandomDestinations,
        &WaveConfig::new(q),
        seed,
        trials,
    )
    .expect("runs");
    runs.iter().map(WaveRun::time_ratio).sum::<f64>() / trials as f64
}

/// E4 (`docs/simulation.md`): mean `T / (k + n)` at n = 6, 8, 10 within 5%
/// of the regression figures (q = 4: 2.33, 2.56, 2.67; q = 2: 2.92, 3.35,
/// 3.80).
#[test]
fn e4_matches_the_regression_figures() {
    let table = [
        (4, [(6, 2.33), (8, 2.56), (10, 2.67)]),
        (2, [(6, 2.92), (8, 3.35), (10, 3.80)]),
    ];
    for (q, row) in table {
        for (n, want) in row {
            let mean = e4_mean(n, q, 2024);
            let off = (mean - want).abs() / want;
            assert!(off <= 0.05, "q={q} n={n}: {mean:.3} vs {want} ({off:.3})");
        }
    }
}

/// E4's control: with q = 1 a full queue takes an item only every other
/// step, and the mean ratio grows strictly from n = 4 to n = 10 (the
/// regression figures: 5.4 at n = 4, 8.2 at n = 6).
#[test]
fn e4_q1_grows() {
    let means: Vec<f64> = (4..=10).map(|n| e4_mean(n, 1, 2024)).collect();
    for pair in means.windows(2) {
        assert!(pair[0] < pair[1], "{means:?}");
    }
    assert!((means[0] - 5.4).abs() / 5.4 <= 0.05, "{means:?}");
    assert!((means[2] - 8.2).abs() / 8.2 <= 0.05, "{means:?}");
}

/// The whole E4 table (n = 4 .. 14, q in {1, 2, 3, 4, 8}) and the k sweep
/// at fixed n (k = 1, n, 4n: mean T, expected about a k + b n); printed,
/// not asserted (the asserted sizes are above).
#[test]
#[ignore]
fn e4_sweep() {
    for q in [1, 2, 3, 4, 8] {
        let row: Vec<String> = (4..=14)
            .step_by(2)
            .map(|n| format!("{:.2}", e4_mean(n, q, 2024)))
            .collect();
        println!("q={q}: {}", row.join(" "));
    }
    for q in [2, 4] {
        for n in [8, 12] {
            let means: Vec<String> = [1, n, 4 * n]
                .iter()
                .map(|&k| {
                    let kind = PacketTraffic::RandomDestinations;
                    let runs =
                        run_wave_trials(n, k, kind, &WaveConfig::new(q), 2024, 10).expect("runs");
                    let sum: u64 = runs.iter().map(|r| r.routing_time).sum();
                    format!("k={k}: T={:.1}", sum as f64 / 10.0)
                })
                .collect();
            println!("q={q} n={n}: {}", means.join("  "));
        }
    }
}

/// The engine's speed in item-hops per second with k = n, q = 4, at
/// n = 10 (state in cache) and n = 14; printed, not asserted (wall-clock
/// figures depend on the machine and its load).
#[test]
#[ignore]
fn wave_speed() {
    for (n, repeat) in [(10, 40), (14, 3)] {
        let b = Butterfly::new(n);
        let packets = problem(n, n, PacketTraffic::RandomDestinations, 1, 0);
        let start = std::time::Instant::now();
        let mut hops = 0;
        for _ in 0..repeat {
            hops += run_waves(&b, &packets, n, &WaveConfig::new(4))
                .expect("runs")
                .item_hops();
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "n={n} k={n} q=4: {hops} item-hops in {secs:.3}s = {:.1} M/s",
            hops as f64 / secs / 1e6
        );
    }
}
