//! Cross-checks of both models against the slow versions of
//! [`super::reference`], and the deterministic facts of section 5.
//! Statistical checks against the exact oracle and the paper are in
//! [`super::stats`].

use super::atom::engine::{run_walk, Fate, Rules};
use super::circuit::lock_walk;
use super::reference::{forward_path, return_path, slow_atom, slow_lock};
use super::walk::Walk;
use super::*;
use crate::sim::packet::butterfly::{Butterfly, Node};
use crate::sim::packet::traffic::{bit_reversal, Packet};
use crate::sim::trial_rng;
use rand::seq::SliceRandom;
use rand::Rng;

/// A random small case: `B(n)`, packets' starts and destinations for a
/// walk, and their node paths.
struct Case {
    n: u32,
    walk: Walk,
    starts: Vec<u64>,
    dests: Vec<u64>,
    paths: Vec<Vec<Node>>,
}

/// Case `i`: `n` in `1 ..= max_n`; a return walk from Ranade's
/// intermediates for a random permutation, or a forward walk with `k` in
/// `1 ..= max_k` packets per input to random destinations or a random
/// permutation.
fn case(i: u64, max_n: u32, max_k: u32, rng: &mut impl Rng) -> Case {
    let n = rng.gen_range(1..=max_n);
    let b = Butterfly::new(n);
    let rows = b.rows();
    let mut pi: Vec<u64> = (0..rows).collect();
    pi.shuffle(rng);
    let (walk, starts, dests) = match i % 3 {
        0 => (Walk::Return, ranade_intermediates(n, rng), pi),
        1 => (Walk::Forward, (0..rows).collect(), pi),
        _ => {
            let k = rng.gen_range(1..=max_k) as u64;
            let starts: Vec<u64> = (0..rows * k).map(|p| p / k).collect();
            let dests = starts.iter().map(|_| rng.gen_range(0..rows)).collect();
            (Walk::Forward, starts, dests)
        }
    };
    let paths = starts
        .iter()
        .zip(&dests)
        .map(|(&s, &d)| match walk {
            Walk::Forward => forward_path(&b, s, d),
            Walk::Return => return_path(&b, s, d),
        })
        .collect();
    Case {
        n,
        walk,
        starts,
        dests,
        paths,
    }
}

/// The fast locking engine keeps exactly the packets the slow per-group
/// lists keep, on 600 random cases of every walk, both capacities,
/// `q <= 3` and `r <= 4`; the cases do drop and do deliver.
#[test]
fn locking_matches_slow_lists() {
    let (mut kept, mut lost) = (0, 0);
    for i in 0..600 {
        let mut rng = trial_rng(0xC1, i);
        let c = case(i, 6, 3, &mut rng);
        let q = rng.gen_range(1..=3);
        let cap = [Capacity::PerEdge, Capacity::PerNode][rng.gen_range(0..2)];
        let prio = Priorities::draw(c.starts.len(), rng.gen_range(1..=4), &mut rng);
        let fast = lock_walk(c.n, c.walk, &c.starts, &c.dests, &prio, q, cap);
        let slow = slow_lock(&c.paths, &prio, q, cap);
        assert_eq!(fast, slow, "case {i}: n {} q {q} {cap:?}", c.n);
        kept += fast.iter().filter(|&&x| x).count();
        lost += fast.iter().filter(|&&x| !x).count();
    }
    assert!(kept > 1000 && lost > 1000, "kept {kept}, lost {lost}");
}

/// The fast model-A engine gives every packet the fate (delivered or
/// dropped, the step and the level) the slow queues give it, and the same
/// run length and fullest buffer, on 600 random cases of every walk,
/// policy and acceptance rule, `q <= 3`, up to 3 packets per input.
#[test]
fn atom_matches_slow_queues() {
    let (mut delivered, mut dropped) = (0, 0);
    for i in 0..600 {
        let mut rng = trial_rng(0xA7, i);
        let c = case(i, 5, 3, &mut rng);
        let rules = Rules {
            q: rng.gen_range(1..=3),
            policy: [DropPolicy::PushOut, DropPolicy::TailDrop][rng.gen_range(0..2)],
            acceptance: [Acceptance::Snapshot, Acceptance::DeparturesFirst][rng.gen_range(0..2)],
        };
        let prio = Priorities::draw(c.starts.len(), rng.gen_range(1..=4), &mut rng);
        let fast = run_walk(c.n, c.walk, &c.starts, &c.dests, &prio, rules);
        let slow = slow_atom(&c.paths, &prio, rules);
        assert_eq!(fast, slow, "case {i}: n {} {rules:?}", c.n);
        for f in &fast.fate {
            match f {
                Fate::Delivered { .. } => delivered += 1,
                Fate::Dropped { .. } => dropped += 1,
            }
        }
    }
    assert!(delivered > 1000 && dropped > 500, "{delivered} {dropped}");
}

/// Model A's outcomes conserve packets (delivered + dropped = packets),
/// never hold more than `q` in a buffer, and deliver nothing before step
/// `n` (stage 1's `n` steps plus `n` more back to back).
#[test]
fn atom_conserves_and_respects_capacity() {
    let mut any_drop = false;
    for i in 0..120u64 {
        let mut rng = trial_rng(0xA8, i);
        let n = rng.gen_range(1..=7);
        let q = rng.gen_range(1..=4);
        let k = rng.gen_range(1..=3);
        let mut cfg = AtomConfig::new(q);
        cfg.policy = [DropPolicy::PushOut, DropPolicy::TailDrop][i as usize % 2];
        cfg.acceptance = [Acceptance::Snapshot, Acceptance::DeparturesFirst][i as usize / 2 % 2];
        let (o, first) = match i % 3 {
            0 => {
                let mut pi: Vec<u64> = (0..1u64 << n).collect();
                pi.shuffle(&mut rng);
                (atom_back_to_back(n, &pi, cfg, &mut rng), 2 * n as u64)
            }
            1 => (atom_koch_random(n, k, cfg, &mut rng), n as u64),
            _ => {
                let packets = PacketTraffic::BitReversal.packets(n, k, &mut rng);
                let packets = packets.expect("k >= 1");
                (atom_direct(n, &packets, cfg, &mut rng), n as u64)
            }
        };
        let o = o.expect("valid parameters");
        assert_eq!(o.delivered + o.dropped, o.packets);
        assert!(o.max_occupancy <= q);
        assert!(o.top_delivered <= o.delivered);
        assert!(o.delivered == 0 || o.last_arrival >= first);
        assert!(o.last_arrival <= o.steps);
        any_drop |= o.dropped > 0;
    }
    assert!(any_drop);
}

/// Identity through back to back: stage 2 retraces stage 1's rows, where
/// every node held one packet, so nobody is dropped, in either model,
/// whatever the capacity and the coins.
#[test]
fn identity_back_to_back_delivers_everything() {
    for n in 0..=10 {
        let id: Vec<u64> = (0..1u64 << n).collect();
        for q in 1..=3 {
            for cap in [Capacity::PerEdge, Capacity::PerNode] {
                let cfg = CircuitConfig {
                    capacity: cap,
                    ..CircuitConfig::new(q)
                };
                for seed in 0..3 {
                    let mut rng = trial_rng(seed, n as u64);
                    let o = lock_back_to_back(n, &id, cfg, &mut rng).expect("a permutation");
                    assert_eq!(o.delivered, 1 << n);
                    let a = atom_back_to_back(n, &id, AtomConfig::new(q), &mut rng);
                    let a = a.expect("a permutation");
                    assert_eq!((a.delivered, a.steps), (1 << n, 2 * n as u64));
                }
            }
        }
    }
}

/// Direct bit-reversal, even `n`: up to the middle level all `2^l`
/// packets at a node leave on one edge, so each edge keeps `min(q, 2^l)`
/// and the `sqrt(N)` middle nodes hold `min(2q, sqrt(N))` each (per edge;
/// `min(q, sqrt(N))` per node), split evenly and never dropped again.
/// Per edge `S = 2q sqrt(N)` (E5) when `2q <= sqrt(N)`.
#[test]
fn direct_bit_reversal_is_exact() {
    for n in (0..=12).step_by(2) {
        let root = 1u64 << (n / 2);
        let pi: Vec<u64> = (0..1u64 << n).map(|a| bit_reversal(a, n)).collect();
        for q in 1..=4u32 {
            for (cap, meet) in [(Capacity::PerEdge, 2 * q), (Capacity::PerNode, q)] {
                let cfg = CircuitConfig {
                    capacity: cap,
                    ..CircuitConfig::new(q)
                };
                let o = lock_direct(n, &pi, cfg, &mut trial_rng(5, n as u64)).expect("valid");
                assert_eq!(
                    o.delivered,
                    root * root.min(meet as u64),
                    "n {n} q {q} {cap:?}"
                );
                if cap == Capacity::PerEdge && 2 * q as u64 <= root {
                    assert_eq!(o.delivered, 2 * q as u64 * root);
                }
            }
        }
    }
}

/// The trials are the same whatever the number of threads and come back
/// in trial order (trial `i` alone equals element `i`); a different seed
/// gives different trials.
#[test]
fn trials_are_seeded_and_thread_independent() {
    let problem = Problem::BackToBack(PacketTraffic::RandomPermutation);
    let run = || lock_trials(problem, 7, CircuitConfig::new(2), 16, 99);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool")
        .install(run)
        .expect("valid");
    assert_eq!(run().expect("valid"), one);
    let mut rng = trial_rng(99, 5);
    let pi: Vec<u64> = PacketTraffic::RandomPermutation
        .packets(7, 1, &mut rng)
        .expect("k = 1")
        .iter()
        .map(|p| p.destination)
        .collect();
    let fifth = lock_back_to_back(7, &pi, CircuitConfig::new(2), &mut rng).expect("valid");
    assert_eq!(one[5], fifth);
    assert_ne!(
        lock_trials(problem, 7, CircuitConfig::new(2), 16, 98),
        Ok(one)
    );
    let cfg = AtomConfig::new(2);
    let atom = || atom_trials(Problem::KochRandom, 6, 2, cfg, 8, 4);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool")
        .install(atom);
    assert_eq!(atom(), one);
}

/// Bad parameters are refused with the reason, never a panic.
#[test]
fn bad_parameters_are_refused() {
    let mut rng = trial_rng(0, 0);
    let id: Vec<u64> = (0..16).collect();
    let c1 = CircuitConfig::new(1);
    assert_eq!(
        lock_direct(4, &id, CircuitConfig::new(0), &mut rng),
        Err(DropError::ZeroCapacity)
    );
    let r0 = CircuitConfig {
        ranks: RankRange::Fixed(0),
        ..c1
    };
    assert_eq!(
        lock_koch_random(4, r0, &mut rng),
        Err(DropError::ZeroRankRange)
    );
    assert_eq!(
        lock_koch_random(MAX_N + 1, c1, &mut rng),
        Err(DropError::TooLarge { n: 25, max: 24 })
    );
    assert_eq!(
        lock_direct(5, &id, c1, &mut rng),
        Err(DropError::WrongLength { len: 16, rows: 32 })
    );
    let mut bad = id.clone();
    bad[3] = 16;
    assert_eq!(
        lock_direct(4, &bad, c1, &mut rng),
        Err(DropError::RowOutOfRange { row: 16, rows: 16 })
    );
    bad[3] = 2;
    assert_eq!(
        lock_back_to_back(4, &bad, c1, &mut rng),
        Err(DropError::NotAPermutation { destination: 2 })
    );
    let random = Problem::BackToBack(PacketTraffic::RandomDestinations);
    assert_eq!(
        lock_trials(random, 4, c1, 1, 0),
        Err(DropError::NeedsPermutation(
            PacketTraffic::RandomDestinations
        ))
    );
    let transpose = Problem::Direct(PacketTraffic::Transpose);
    assert!(matches!(
        lock_trials(transpose, 5, c1, 2, 0),
        Err(DropError::Traffic(_))
    ));
    let a1 = AtomConfig::new(1);
    let identity = Problem::BackToBack(PacketTraffic::Identity);
    assert_eq!(
        atom_trials(identity, 4, 2, a1, 1, 0),
        Err(DropError::OnePerInput { k: 2 })
    );
    assert!(matches!(
        atom_trials(Problem::KochRandom, 4, 0, a1, 1, 0),
        Err(DropError::Traffic(_))
    ));
    assert_eq!(
        atom_koch_random(20, 1 << 10, a1, &mut rng),
        Err(DropError::TooManyPackets {
            packets: 1 << 30,
            max: MAX_PACKETS
        })
    );
    let stray = [Packet {
        source: 0,
        destination: 9,
    }];
    assert_eq!(
        atom_direct(3, &stray, a1, &mut rng),
        Err(DropError::RowOutOfRange { row: 9, rows: 8 })
    );
}
