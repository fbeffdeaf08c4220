use super::*;
use crate::sim::packet::engine::run;
use crate::sim::packet::traffic::PacketTraffic;
use crate::sim::trial_rng;

/// The regression table of E3 (`docs/simulation.md`), FIFO, model T: (q, n, rho, d,
/// LB, T_adv paper rule, T_adv half rule, T_bitrev).
/// One row: (q, n, rho, d), then (LB, T paper, T half, T bit-reversal).
type Row = ((u32, u32, u32, u32), (u64, u64, u64, u64));

const TABLE: [Row; 6] = [
    ((0, 16, 5, 6), (1152, 2629, 3082, 398)),
    ((1, 16, 6, 4), (784, 870, 944, 271)),
    ((2, 12, 5, 2), (80, 115, 127, 75)),
    ((2, 14, 6, 2), (208, 245, 257, 141)),
    ((2, 16, 6, 4), (704, 811, 895, 271)),
    ((4, 16, 6, 4), (544, 665, 801, 271)),
];

/// The construction is deterministic, so the table is reproduced exactly;
/// the permutation is one (asserted inside `build`), the replay is
/// identical, T >= LB and occupancy <= q + 2.
#[test]
fn the_reference_table_is_reproduced() {
    for ((q, n, rho, d), (lb, paper, half, bitrev)) in TABLE {
        let adv = Adversary::new(n, q).expect("large enough");
        assert_eq!((adv.rho, adv.d, adv.bound), (rho, d, lb), "q {q} n {n}");
        for (rule, expect) in [(SplitRule::Paper, paper), (SplitRule::Half, half)] {
            let r = build(n, q, Protocol::Fifo, rule, &trial_rng(0, 0)).expect("builds");
            assert_eq!(r.run.steps, expect, "q {q} n {n} {rule:?}");
            assert_eq!(r.replay, Replay::Identical);
            assert!(r.run.steps >= adv.bound && adv.bound >= adv.sound_bound());
            assert!(r.run.max_switch_occupancy <= q + 2);
        }
        let p = PacketTraffic::BitReversal
            .packets(n, 1, &mut trial_rng(0, 0))
            .expect("valid");
        let config = Config {
            model: QueueModel::Threshold,
            protocol: Protocol::Fifo,
            q,
        };
        let r = run(n, &p, config, &mut trial_rng(0, 0)).expect("runs");
        assert_eq!(r.steps, bitrev, "bit-reversal q {q} n {n}");
    }
}

/// Every nonpredictive protocol yields a permutation, an identical replay
/// and T >= LB; the maximiser beats every other rho; the predictive
/// protocol is refused.
#[test]
fn every_nonpredictive_protocol_is_beaten() {
    for n in [8u32, 10, 12] {
        for q in [0u32, 1, 2, 4] {
            let Ok(adv) = Adversary::new(n, q) else {
                continue;
            };
            for rho in 1..=n / 2 {
                assert!(bound(n, q, rho) <= adv.bound as i128);
            }
            for protocol in [
                Protocol::Fifo,
                Protocol::Lifo,
                Protocol::FixedPriority,
                Protocol::RandomPick,
            ] {
                for rule in [SplitRule::Paper, SplitRule::Half] {
                    let r = build(n, q, protocol, rule, &trial_rng(3, n as u64)).expect("builds");
                    assert_eq!(r.replay, Replay::Identical, "{protocol:?} n {n} q {q}");
                    assert!(r.run.steps >= adv.bound, "{protocol:?} n {n} q {q}");
                    let mut sorted = r.permutation.clone();
                    sorted.sort_unstable();
                    assert!(sorted.iter().enumerate().all(|(i, &d)| d == i as u64));
                }
            }
        }
    }
    assert!(matches!(
        build(
            10,
            2,
            Protocol::PerEdgeOldest,
            SplitRule::Paper,
            &trial_rng(0, 0)
        ),
        Err(AdversaryError::Predictive { .. })
    ));
    assert_eq!(
        Adversary::new(4, 2),
        Err(AdversaryError::TooSmall { n: 4, q: 2 })
    );
}

/// A predictive rule would be caught: the replay compares whole traces, so
/// a run whose picks depended on a destination bit differs. Here the
/// "protocol" is the oracle run itself with one destination bit changed
/// afterwards, which the replay must notice.
#[test]
fn the_replay_can_fail() {
    let r = build(10, 2, Protocol::Fifo, SplitRule::Paper, &trial_rng(0, 0)).expect("builds");
    let (packets, _) = r.adversary.packets();
    let mut fixed: Vec<Packet> = packets
        .iter()
        .zip(&r.permutation)
        .map(|(p, &d)| Packet {
            source: p.source,
            destination: d,
        })
        .collect();
    // Swap two busy packets' destinations: still a permutation.
    let (a, b) = (0, 1);
    let (da, db) = (fixed[a].destination, fixed[b].destination);
    fixed[a].destination = db;
    fixed[b].destination = da;
    let config = Config {
        model: QueueModel::Threshold,
        protocol: Protocol::Fifo,
        q: 2,
    };
    let again = run_traced(10, &fixed, config, &mut trial_rng(0, 0)).expect("runs");
    assert_ne!(again, r.run);
}
