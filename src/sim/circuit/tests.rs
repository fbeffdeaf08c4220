use std::collections::{HashMap, VecDeque};

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::layout::metrics::Delay;
use crate::layout::pyramid::{fat_pyramid, PyramidSpec, Router};

fn timing(delay: Delay) -> Timing {
    Timing {
        switch_delay: 1.0,
        message_bits: 8.0,
        delay,
    }
}

fn pyramid(n: u64) -> (Embedding, PyramidSpec) {
    let spec = PyramidSpec::new(n).unwrap();
    (fat_pyramid(&spec).unwrap().embedding, spec)
}

/// Wire length of a path of nodes.
fn wire(c: &Channels, nodes: &[u32]) -> u64 {
    nodes
        .windows(2)
        .map(|w| c.length[c.between(w[0], w[1]).unwrap() as usize])
        .sum()
}

/// Every path the fat-pyramid rule draws runs over wires and joins its
/// ends; its node levels rise, cross at most two mesh links on one level,
/// and fall; between blocks it turns at `2 beta + h`, `h` the lowest
/// butterfly level whose grid nodes above the two blocks are equal or
/// adjacent (worked out here from the blocks' Z-order positions); and its
/// wire length lies between the best and worst Theorem 18 lengths the
/// layout module's router finds for the pair.
#[test]
fn pyramid_paths_match_the_shortcut_router() {
    use crate::layout::pyramid::z_position;
    for n in [64u64, 256, 1024, 4096, 16384] {
        let (e, spec) = pyramid(n);
        let c = Channels::new(&e).unwrap();
        let rule = PyramidRule::new(spec);
        let points = MeshPoints::by_position(&e).unwrap();
        let router = Router::new(&e, spec);
        let mut rng = ChaCha8Rng::seed_from_u64(n);
        let side = points.side;
        let mut nodes = Vec::new();
        for _ in 0..400 {
            let a = rand::Rng::gen_range(&mut rng, 0..side * side);
            let b = rand::Rng::gen_range(&mut rng, 0..side * side);
            if a == b {
                continue;
            }
            let (sa, sb) = (points.node[a as usize], points.node[b as usize]);
            nodes.clear();
            rule.path(sa, sb, &mut rng, &mut nodes);
            assert_eq!((nodes[0], *nodes.last().unwrap()), (sa, sb));
            let level: Vec<u32> = nodes.iter().map(|&v| e.nodes[v as usize].level).collect();
            let top = *level.iter().max().unwrap();
            let first = level.iter().position(|&l| l == top).unwrap();
            let last = level.iter().rposition(|&l| l == top).unwrap();
            assert!(last - first <= 2, "n {n}: {} mesh links", last - first);
            assert!(level[..=first].windows(2).all(|w| w[1] == w[0] + 1));
            assert!(level[last..].windows(2).all(|w| w[1] + 1 == w[0]));
            let block = spec.block();
            let (qs, qt) = (sa as u64 / block, sb as u64 / block);
            if qs != qt {
                let h = (1..=spec.k())
                    .find(|&h| {
                        let (s, t) = (z_position(qs >> (2 * h)), z_position(qt >> (2 * h)));
                        s.0.abs_diff(t.0) <= 1 && s.1.abs_diff(t.1) <= 1
                    })
                    .unwrap();
                assert_eq!(top, 2 * spec.beta + h, "n {n}: {a}->{b}");
            }
            let len = wire(&c, &nodes);
            let p = router.path((a % side, a / side), (b % side, b / side));
            assert!(
                p.best <= len && len <= p.worst,
                "n {n}: {a}->{b} length {len} outside [{}, {}]",
                p.best,
                p.worst
            );
        }
    }
}

/// Breadth-first distance between two nodes over the channels.
fn bfs(c: &Channels, nodes: usize, a: u32, b: u32) -> usize {
    let mut dist = vec![usize::MAX; nodes];
    dist[a as usize] = 0;
    let mut q = VecDeque::from([a]);
    while let Some(v) = q.pop_front() {
        for &(u, _) in &c.next[c.start[v as usize] as usize..c.start[v as usize + 1] as usize] {
            if dist[u as usize] == usize::MAX {
                dist[u as usize] = dist[v as usize] + 1;
                q.push_back(u);
            }
        }
    }
    dist[b as usize]
}

/// On trees the rules take the one simple path: as many hops as the
/// breadth-first distance. On the tree of meshes every path runs over
/// wires, joins its ends and repeats no node.
#[test]
fn tree_paths_are_valid_and_trees_shortest() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for n in [16u64, 64] {
        let e = crate::layout::fattree::fat_tree(&crate::layout::fattree::FatTreeSpec {
            processors: n,
            capacity: crate::layout::fattree::Capacity::Doubling,
            omega: 1,
            alpha: 1,
        })
        .unwrap()
        .0;
        let c = Channels::new(&e).unwrap();
        let rule = FatTreeRule { n };
        let mut nodes = Vec::new();
        for a in 0..n as u32 {
            for b in 0..n as u32 {
                nodes.clear();
                rule.path(a, b, &mut rng, &mut nodes);
                assert_eq!(nodes.len() - 1, bfs(&c, e.nodes.len(), a, b));
            }
        }
    }
    for (side, levels, dims) in [
        (4u64, 4u32, 2u32),
        (8, 6, 2),
        (8, 3, 2),
        (4, 6, 3),
        (4, 4, 3),
    ] {
        let e = if dims == 2 {
            crate::layout::tree_of_meshes::tree_of_meshes(side, Some(levels)).unwrap()
        } else {
            crate::layout::LayoutKind::TreeOfMeshes3d
                .construction(
                    side,
                    &crate::layout::construction::LayoutOptions {
                        capacity: None,
                        omega: 1,
                        alpha: 1,
                        levels: Some(levels),
                        mesh_capacity: 1,
                        dims: None,
                    },
                )
                .unwrap()
                .build()
                .unwrap()
                .embedding
        };
        let c = Channels::new(&e).unwrap();
        let rule = TreeOfMeshesRule {
            n: side,
            levels,
            dims,
        };
        let points = MeshPoints::tree_of_meshes(&rule);
        let mut nodes = Vec::new();
        for &a in &points.node {
            for &b in &points.node {
                nodes.clear();
                rule.path(a, b, &mut rng, &mut nodes);
                assert_eq!((nodes[0], *nodes.last().unwrap()), (a, b));
                let mut seen = nodes.clone();
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), nodes.len(), "{a}->{b} repeats a node");
                for w in nodes.windows(2) {
                    c.between(w[0], w[1]).unwrap();
                }
            }
        }
    }
}

/// The engine, written the slow obvious way: a map of channel use per
/// round, messages in the same drawn order, hop by hop.
fn reference(
    c: &Channels,
    rule: &dyn PathRule,
    messages: &[(u32, u32)],
    t: &Timing,
    rng: &mut ChaCha8Rng,
) -> Outcome {
    let mut deliveries = vec![
        Delivery {
            round: 0,
            time: 0.0,
            path_time: 0.0,
            path_wires: 0.0,
            hops: 0
        };
        messages.len()
    ];
    let mut pending: Vec<u32> = (0..messages.len() as u32).collect();
    let (mut rounds, mut sync) = (0, 0.0f64);
    while !pending.is_empty() {
        rounds += 1;
        pending.shuffle(rng);
        let paths: Vec<Vec<u32>> = pending
            .iter()
            .map(|&m| {
                let mut nodes = Vec::new();
                rule.path(
                    messages[m as usize].0,
                    messages[m as usize].1,
                    rng,
                    &mut nodes,
                );
                nodes
                    .windows(2)
                    .map(|w| c.between(w[0], w[1]).unwrap())
                    .collect()
            })
            .collect();
        let mut use_of: HashMap<u32, u32> = HashMap::new();
        let mut stop: Vec<Option<usize>> = vec![None; pending.len()];
        for j in 0..paths.iter().map(Vec::len).max().unwrap_or(0) {
            for (i, p) in paths.iter().enumerate() {
                if stop[i].is_none() && j < p.len() {
                    let u = use_of.entry(p[j]).or_default();
                    if *u < c.capacity[p[j] as usize] {
                        *u += 1;
                    } else {
                        stop[i] = Some(j);
                    }
                }
            }
        }
        let c_len = |ch: &u32| c.length[*ch as usize];
        let hop = |ch: &u32| t.switch_delay + t.delay.of(c_len(ch));
        let mut worst = 0.0f64;
        let mut next = Vec::new();
        for (i, &m) in pending.iter().enumerate() {
            let d = &mut deliveries[m as usize];
            let attempt = match stop[i] {
                Some(j) => {
                    next.push(m);
                    2.0 * (paths[i][..j].iter().map(hop).sum::<f64>() + t.switch_delay)
                }
                None => {
                    let a = 2.0 * paths[i].iter().map(hop).sum::<f64>() + t.message_bits;
                    *d = Delivery {
                        round: rounds,
                        time: d.time,
                        path_time: a,
                        path_wires: paths[i].iter().map(|c| t.delay.of(c_len(c))).sum(),
                        hops: paths[i].len() as u32,
                    };
                    a
                }
            };
            d.time += attempt;
            worst = worst.max(attempt);
        }
        sync += worst;
        pending = next;
    }
    Outcome {
        deliveries,
        rounds,
        synchronous_time: sync,
    }
}

/// The engine agrees with the reference on many seeded message sets over
/// the fat-pyramid (random parents, capacity-1 channels) and a fat-tree
/// (parallel wires), local and global, under unit and linear delay.
#[test]
fn engine_agrees_with_the_slow_reference() {
    let (e, _) = pyramid(256);
    let pyr = Routable::new(&e).unwrap();
    assert_eq!(pyr.network, crate::layout::NetworkName::FatPyramid);
    let ft = crate::layout::fattree::fat_tree(&crate::layout::fattree::FatTreeSpec {
        processors: 256,
        capacity: crate::layout::fattree::Capacity::SqrtOverLg,
        omega: 1,
        alpha: 1,
    })
    .unwrap()
    .0;
    let ft = Routable::new(&ft).unwrap();
    let (big, _) = pyramid(4096);
    let big = Routable::new(&big).unwrap();
    for seed in 0..3u64 {
        let t = timing(Delay::Linear);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let msgs = exchange(&big.points, Exchange::Local { radius: 1 + seed }, &mut rng);
        let pairs: Vec<(u32, u32)> = msgs.iter().map(|m| (m.0, m.1)).collect();
        let mut r1 = ChaCha8Rng::seed_from_u64(seed);
        let mut r2 = r1.clone();
        let fast = route(
            &big.channels,
            big.rule.as_ref(),
            &pairs,
            &t,
            &mut r1,
            10_000,
        )
        .unwrap();
        let slow = reference(&big.channels, big.rule.as_ref(), &pairs, &t, &mut r2);
        assert_eq!(fast, slow, "pyramid 4096 seed {seed}");
    }
    for laid in [&pyr, &ft] {
        for seed in 0..12u64 {
            let how = if seed % 2 == 0 {
                Exchange::Global
            } else {
                Exchange::Local { radius: seed }
            };
            let t = timing(if seed % 3 == 0 {
                Delay::Unit
            } else {
                Delay::Linear
            });
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let msgs = exchange(&laid.points, how, &mut rng);
            let pairs: Vec<(u32, u32)> = msgs.iter().map(|m| (m.0, m.1)).collect();
            let mut r1 = ChaCha8Rng::seed_from_u64(seed + 100);
            let mut r2 = r1.clone();
            let fast = route(
                &laid.channels,
                laid.rule.as_ref(),
                &pairs,
                &t,
                &mut r1,
                10_000,
            )
            .unwrap();
            let slow = reference(&laid.channels, laid.rule.as_ref(), &pairs, &t, &mut r2);
            assert_eq!(fast, slow, "{} seed {seed}", laid.network);
            assert!(fast
                .deliveries
                .iter()
                .all(|d| d.round >= 1 && d.time >= d.path_time));
        }
    }
}

/// A lengthened wire changes times, never rounds.
#[test]
fn a_longer_wire_changes_times_not_rounds() {
    let (e, _) = pyramid(256);
    let base = Routable::new(&e).unwrap();
    // The engine reads the lengths of the channels and nothing else.
    let mut long = Routable::new(&e).unwrap();
    for l in long.channels.length.iter_mut() {
        if *l > 8 {
            *l *= 3;
        }
    }
    let t = timing(Delay::Linear);
    let mut r1 = ChaCha8Rng::seed_from_u64(9);
    let mut r2 = r1.clone();
    let a = trial(&base, Exchange::Global, &t, &mut r1, 10_000).unwrap();
    let b = trial(&long, Exchange::Global, &t, &mut r2, 10_000).unwrap();
    assert_eq!(a.rounds, b.rounds);
    assert!(b.max_time > a.max_time, "{} vs {}", b.max_time, a.max_time);
}

/// Measured on the paths taken, Delta delta never exceeds the layout's
/// bound from the longest wire of each level (`pyramid::delta_delta`), for
/// linear, sqrt and log delay, local and global traffic.
#[test]
fn measured_delta_delta_within_the_layout_bound() {
    for n in [256u64, 4096] {
        let (e, spec) = pyramid(n);
        let laid = Routable::new(&e).unwrap();
        for delay in [Delay::Linear, Delay::SquareRoot, Delay::Logarithmic] {
            let bound = crate::layout::pyramid::delta_delta(&e, spec, &delay).max;
            for how in [Exchange::Local { radius: 3 }, Exchange::Global] {
                let mut rng = ChaCha8Rng::seed_from_u64(n);
                let f = trial(&laid, how, &timing(delay.clone()), &mut rng, 100_000).unwrap();
                assert!(f.delta_delta > 0.0);
                assert!(
                    f.delta_delta <= bound + 1e-9,
                    "n {n} {delay:?}: measured {} over the bound {bound}",
                    f.delta_delta
                );
            }
        }
    }
}
