//! The routing simulators against an independent slow model, and the
//! measured shapes of thesis chapter 3 (§3, §7.4-5).

use std::collections::BTreeMap;

use fabric::layout::fattree::{Capacity, FatTreeSpec};
use fabric::network::{Network, NodeId};
use fabric::sim::algorithms::{route, Algorithm, RandomConstants};
use fabric::sim::bft::LinkTree;
use fabric::sim::fattree::FatTree;
use fabric::sim::traffic::{generate, greedy_adversary, theorem8_capacities, Traffic};
use fabric::sim::{trial_rng, Fabric, Message, Policy, SINK};

use rand::Rng;

fn fat_tree(n: u32, capacity: &Capacity) -> (FatTree, Network) {
    let spec = FatTreeSpec {
        processors: n as u64,
        capacity: capacity.clone(),
        omega: 1,
        alpha: 1,
    };
    let net = Network::fat_tree(&spec).unwrap();
    let levels = n.trailing_zeros();
    let cap: Vec<u32> = (0..=levels)
        .map(|i| capacity.at_level(i, n as u64, 1).unwrap() as u32)
        .collect();
    (FatTree::new(n, cap).unwrap(), net)
}

/// The slow model: paths found in the network graph (parent = the
/// neighbour one level up), capacities counted as parallel links, and each
/// channel's arrivals sorted explicitly by (input port, wire) keys.
struct Slow {
    parent: Vec<Option<usize>>,
    /// Parallel links from a node to its parent.
    links_up: Vec<u64>,
    /// First processor under each node.
    first: Vec<u32>,
    level: Vec<u32>,
    root: usize,
    root_cap: u64,
}

impl Slow {
    fn new(net: &Network, root_cap: u64) -> Slow {
        let nodes = net.node_count();
        let level: Vec<u32> = (0..nodes)
            .map(|i| net.node(NodeId(i as u32)).level)
            .collect();
        let mut parent = vec![None; nodes];
        let mut links_up = vec![0u64; nodes];
        for v in 0..nodes {
            for &l in net.links_at(NodeId(v as u32)) {
                let u = net.other_end(l, NodeId(v as u32)).0 as usize;
                if level[u] == level[v] + 1 {
                    assert!(parent[v].is_none() || parent[v] == Some(u));
                    parent[v] = Some(u);
                    links_up[v] += 1;
                }
            }
        }
        let mut first: Vec<u32> = (0..nodes as u32).collect();
        let mut order: Vec<usize> = (0..nodes).collect();
        order.sort_by_key(|&v| level[v]);
        let n = net.processors().len();
        for &v in &order {
            if v >= n {
                first[v] = u32::MAX;
            }
        }
        for &v in &order {
            if let Some(p) = parent[v] {
                first[p] = first[p].min(first[v]);
            }
        }
        let root = (0..nodes).find(|&v| parent[v].is_none()).unwrap();
        Slow {
            parent,
            links_up,
            first,
            level,
            root,
            root_cap,
        }
    }

    /// Directed channels of a message: `(node, up)` = the channel between
    /// `node` and its parent (the root's: the external one).
    fn path(&self, m: Message) -> Vec<(usize, bool)> {
        let mut up = vec![m.src as usize];
        if m.dst == SINK {
            while let Some(p) = self.parent[*up.last().unwrap()] {
                up.push(p);
            }
            return up.into_iter().map(|v| (v, true)).collect();
        }
        let mut down = vec![m.dst as usize];
        let ancestors = |mut v: usize| {
            let mut a = vec![v];
            while let Some(p) = self.parent[v] {
                a.push(p);
                v = p;
            }
            a
        };
        let a = ancestors(m.src as usize);
        let b = ancestors(m.dst as usize);
        let lca = *a.iter().find(|v| b.contains(v)).unwrap();
        up = a.into_iter().take_while(|&v| v != lca).collect();
        down = b.into_iter().take_while(|&v| v != lca).collect::<Vec<_>>();
        down.reverse();
        up.into_iter()
            .map(|v| (v, true))
            .chain(down.into_iter().map(|v| (v, false)))
            .collect()
    }

    fn cap(&self, v: usize) -> u64 {
        if v == self.root {
            self.root_cap
        } else {
            self.links_up[v]
        }
    }

    /// One delivery cycle for a deterministic policy: the delivered ids.
    fn cycle(&self, msgs: &[Message], sent: &[u32], policy: Policy, cycle: u64) -> Vec<u32> {
        let paths: Vec<Vec<(usize, bool)>> = sent
            .iter()
            .map(|&id| self.path(msgs[id as usize]))
            .collect();
        // Stage order: up channels by level from the processors, then down
        // channels from the top.
        let top = self.level[self.root];
        let stages: Vec<(u32, bool)> = (0..=top)
            .map(|l| (l, true))
            .chain((0..top).rev().map(|l| (l, false)))
            .collect();
        // Per sent message: alive, position in the path, (port, rank) key.
        let mut alive = vec![true; sent.len()];
        let mut pos = vec![0usize; sent.len()];
        let mut rank: Vec<u64> = (0..sent.len() as u64).collect();
        let mut came_up = vec![true; sent.len()];
        for &(l, dir) in &stages {
            let mut at: BTreeMap<usize, Vec<(u64, u64, usize)>> = BTreeMap::new();
            for k in 0..sent.len() {
                if !alive[k] || pos[k] >= paths[k].len() {
                    continue;
                }
                let (v, up) = paths[k][pos[k]];
                if up != dir || self.level[v] != l {
                    continue;
                }
                // Input port: up channels take the left child (lower
                // processors) first; down channels take from above first.
                let port = if up {
                    if pos[k] == 0 {
                        0
                    } else {
                        let (child, _) = paths[k][pos[k] - 1];
                        let siblings_first = self.first[v];
                        u64::from(self.first[child] != siblings_first)
                    }
                } else {
                    u64::from(came_up[k])
                };
                at.entry(v).or_default().push((port, rank[k], k));
            }
            for (v, mut arrivals) in at {
                let rotate = policy == Policy::Rotating && cycle % 2 == 1;
                arrivals.sort_by_key(|&(port, r, _)| (if rotate { 1 - port } else { port }, r));
                let cap = self.cap(v) as usize;
                let keep = if policy == Policy::DropAll && arrivals.len() > cap {
                    0
                } else {
                    arrivals.len().min(cap)
                };
                for (j, &(_, _, k)) in arrivals.iter().enumerate() {
                    if j < keep {
                        rank[k] = j as u64;
                        came_up[k] = dir;
                        pos[k] += 1;
                    } else {
                        alive[k] = false;
                    }
                }
            }
        }
        let mut out: Vec<u32> = (0..sent.len())
            .filter(|&k| alive[k] && pos[k] == paths[k].len())
            .map(|k| sent[k])
            .collect();
        out.sort_unstable();
        out
    }

    /// Load factor over the directed channels.
    fn lambda(&self, msgs: &[Message]) -> f64 {
        let mut load: BTreeMap<(usize, bool), u64> = BTreeMap::new();
        for &m in msgs {
            for c in self.path(m) {
                *load.entry(c).or_default() += 1;
            }
        }
        load.iter()
            .map(|(&(v, _), &l)| l as f64 / self.cap(v) as f64)
            .fold(0.0, f64::max)
    }
}

fn random_messages(n: u32, count: usize, sink: bool, rng: &mut impl Rng) -> Vec<Message> {
    let mut msgs: Vec<Message> = (0..count)
        .map(|_| Message {
            src: rng.gen_range(0..n),
            dst: if sink && rng.gen_bool(0.2) {
                SINK
            } else {
                rng.gen_range(0..n)
            },
        })
        .collect();
    msgs.sort_by_key(|m| m.src);
    msgs
}

const CAPACITIES: [&str; 5] = [
    "one",
    "doubling",
    "sqrt",
    "sqrt-over-lg",
    "table:2,2,3,3,5,5,9,9,16",
];

#[test]
fn delivery_cycles_match_the_slow_model() {
    let mut rng = trial_rng(11, 0);
    let mut checked = 0;
    for cap_name in CAPACITIES {
        let capacity = Capacity::parse(cap_name).unwrap();
        for n in [4u32, 16, 64, 256] {
            if let Capacity::Table(t) = &capacity {
                if t.len() < n.trailing_zeros() as usize + 1 {
                    continue;
                }
            }
            let (tree, net) = fat_tree(n, &capacity);
            let slow = Slow::new(&net, tree.cap[tree.levels as usize] as u64);
            for round in 0..40 {
                let count = rng.gen_range(1..4 * n as usize);
                let msgs = random_messages(n, count, round % 2 == 0, &mut rng);
                let sent: Vec<u32> = (0..msgs.len() as u32)
                    .filter(|_| rng.gen_bool(0.7))
                    .collect();
                for policy in [Policy::Priority, Policy::Rotating, Policy::DropAll] {
                    for cycle in 0..2 {
                        let mut work = Default::default();
                        let mut got = Vec::new();
                        tree.cycle(&msgs, &sent, policy, cycle, &mut rng, &mut work, &mut got);
                        got.sort_unstable();
                        let want = slow.cycle(&msgs, &sent, policy, cycle);
                        assert_eq!(got, want, "{cap_name} n {n} {policy:?} cycle {cycle}");
                        checked += 1;
                    }
                }
                // Load factor against the slow count.
                let lf = tree.load_factor(&msgs);
                assert!((lf.lambda - slow.lambda(&msgs)).abs() < 1e-12);
                if let Some(c) = lf.channel {
                    assert_eq!(c.load as f64 / c.capacity as f64, lf.lambda);
                } else {
                    assert!(msgs.iter().all(|m| m.src == m.dst));
                }
                // Ideal random concentrators: every channel keeps at most its
                // capacity, and a set within every capacity is delivered whole.
                let mut work = Default::default();
                let mut got = Vec::new();
                tree.cycle(
                    &msgs,
                    &sent,
                    Policy::IdealRandom,
                    0,
                    &mut rng,
                    &mut work,
                    &mut got,
                );
                let delivered: Vec<Message> = got.iter().map(|&id| msgs[id as usize]).collect();
                assert!(slow.lambda(&delivered) <= 1.0);
                let sent_msgs: Vec<Message> = sent.iter().map(|&id| msgs[id as usize]).collect();
                if slow.lambda(&sent_msgs) <= 1.0 {
                    assert_eq!(got.len(), sent.len());
                }
            }
        }
    }
    assert!(checked > 4000, "{checked}");
}

fn doubling(n: u32) -> FatTree {
    fat_tree(n, &Capacity::Doubling).0
}

#[test]
fn every_algorithm_delivers_everything_and_never_beats_lambda() {
    let n = 64;
    let tree = doubling(n);
    for traffic in [
        Traffic::Permutation,
        Traffic::Random,
        Traffic::Local { subtree: 8 },
        Traffic::ManyToOne,
        Traffic::Mesh,
    ] {
        for (algorithm, policy) in [
            (
                Algorithm::Random(RandomConstants {
                    k1: 1.0,
                    k2: 1.0,
                    r: 1.0,
                    interleave: false,
                }),
                Policy::IdealRandom,
            ),
            (
                Algorithm::Random(RandomConstants {
                    k1: 2.0,
                    k2: 1.0,
                    r: 2.0,
                    interleave: false,
                }),
                Policy::DropAll,
            ),
            (Algorithm::RandomPrime, Policy::IdealRandom),
            (Algorithm::RandomPrime, Policy::DropAll),
            (Algorithm::Greedy, Policy::Priority),
            (Algorithm::Greedy, Policy::IdealRandom),
        ] {
            for seed in 0..3 {
                let mut rng = trial_rng(seed, 0);
                let msgs = generate(traffic, n, 3, policy, &mut rng).unwrap();
                let lambda = tree.load_factor(&msgs).lambda;
                let out = route(&tree, &msgs, &algorithm, policy, 1_000_000, &mut rng);
                assert!(out.complete, "{traffic:?} {algorithm:?} {policy:?}");
                assert_eq!(out.delivered, msgs.len());
                assert!(
                    out.cycles as f64 >= lambda.ceil(),
                    "{traffic:?} {algorithm:?}: {} cycles below lambda {lambda}",
                    out.cycles
                );
            }
        }
    }
}

#[test]
fn same_seed_same_outcome() {
    let tree = doubling(256);
    let run = |seed| {
        let mut rng = trial_rng(seed, 3);
        let msgs = generate(Traffic::Random, 256, 4, Policy::IdealRandom, &mut rng).unwrap();
        let alg = Algorithm::Random(RandomConstants {
            k1: 1.0,
            k2: 1.0,
            r: 1.0,
            interleave: false,
        });
        route(&tree, &msgs, &alg, Policy::IdealRandom, 1_000_000, &mut rng)
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5).sent, run(6).sent);
}

/// Cycles over lambda for one algorithm at several load factors.
fn ratios(tree: &FatTree, algorithm: Algorithm, policy: Policy, rates: &[u32]) -> Vec<(f64, f64)> {
    let n = tree.processors();
    rates
        .iter()
        .map(|&rate| {
            let mut rng = trial_rng(rate as u64, 1);
            let msgs = generate(Traffic::Random, n, rate, policy, &mut rng).unwrap();
            let lambda = tree.load_factor(&msgs).lambda;
            let out = route(tree, &msgs, &algorithm, policy, 10_000_000, &mut rng);
            assert!(out.complete);
            (lambda, out.cycles as f64 / lambda)
        })
        .collect()
}

#[test]
fn figure_3_3_cycles_per_lambda_stay_bounded() {
    // Reference ranges (n = 256, lambda 14-128): RANDOM (1,1,1) with
    // ideal concentrators 1.5-2.6 and drop-all RANDOM (2,1,2) 2.8-5.1 on
    // doubling capacities; RANDOM', meant for capacities Omega(lg n), about
    // 2.5 (ideal) and 3.5-5.3 (drop-all) with c = max(8, ceil(sqrt p)).
    // Bounded as lambda grows: the ratio at the largest load is at most
    // twice the smallest load's.
    let doubling_tree = doubling(256);
    let wide = FatTree::new(
        256,
        (0..=8u32)
            .map(|i| 8u32.max((((1u64 << i) as f64).sqrt().ceil()) as u32))
            .collect(),
    )
    .unwrap();
    let rates = [2, 4, 16];
    let random = |k1, r| {
        Algorithm::Random(RandomConstants {
            k1,
            k2: 1.0,
            r,
            interleave: false,
        })
    };
    let cases = [
        (random(1.0, 1.0), Policy::IdealRandom, 3.0, &doubling_tree),
        (random(2.0, 2.0), Policy::DropAll, 6.0, &doubling_tree),
        (Algorithm::RandomPrime, Policy::IdealRandom, 3.0, &wide),
        (Algorithm::RandomPrime, Policy::DropAll, 6.0, &wide),
    ];
    for (algorithm, policy, limit, tree) in cases {
        let r = ratios(tree, algorithm, policy, &rates);
        eprintln!("{} {}: {:?}", algorithm.name(), policy.name(), r);
        assert!(r[2].0 >= 4.0 * r[0].0, "load factors {r:?}");
        for &(lambda, ratio) in &r {
            assert!(
                ratio <= limit,
                "{algorithm:?} {policy:?}: lambda {lambda}, ratio {ratio}"
            );
        }
        assert!(r[2].1 <= 2.0 * r[0].1, "{r:?}");
    }
}

#[test]
fn theorem_8_greedy_pays_lg_n_and_random_does_not() {
    let random = Algorithm::Random(RandomConstants {
        k1: 1.0,
        k2: 1.0,
        r: 1.0,
        interleave: false,
    });
    for lambda in [12u32, 48] {
        let mut rows = Vec::new();
        for k in 1..=6u32 {
            let n = 1u32 << (2 * k);
            let tree = FatTree::new(n, theorem8_capacities(n)).unwrap();
            let lg = (n as f64).log2();
            let mut rng = trial_rng(8, k as u64);
            // Against fixed-priority switches.
            let msgs = greedy_adversary(n, lambda, Policy::Priority, &mut rng).unwrap();
            let lf = tree.load_factor(&msgs).lambda;
            assert!(lf <= lambda as f64, "property 1: lambda {lf}");
            let g = route(
                &tree,
                &msgs,
                &Algorithm::Greedy,
                Policy::Priority,
                1_000_000,
                &mut rng,
            );
            assert!(g.complete);
            // Property 3: at least lambda/6 + (lambda/12) lg n cycles;
            // the construction gives exactly lambda (1 + lg n / 6).
            let bound = lambda as f64 / 6.0 + lambda as f64 / 12.0 * lg;
            assert!(g.cycles as f64 >= bound, "n {n}: {} < {bound}", g.cycles);
            assert_eq!(g.cycles, (lambda * (6 + 2 * k) / 6) as u64, "n {n}");
            // Rotating priority is admissible too, yet its M_n costs GREEDY
            // only about 5 lambda / 3 for every n: the proof's gap (docs/simulation.md,
            // "Bounds in the report").
            let rot = greedy_adversary(n, lambda, Policy::Rotating, &mut rng).unwrap();
            let gr = route(
                &tree,
                &rot,
                &Algorithm::Greedy,
                Policy::Rotating,
                1_000_000,
                &mut rng,
            );
            assert!(gr.complete);
            assert!(
                gr.cycles as f64 <= 5.0 * lambda as f64 / 3.0,
                "n {n}: {}",
                gr.cycles
            );
            let r = route(
                &tree,
                &msgs,
                &random,
                Policy::IdealRandom,
                1_000_000,
                &mut rng,
            );
            assert!(r.complete);
            eprintln!(
                "lambda {lambda}, n {n}: greedy {} (bound {bound}), rotating {}, random {}",
                g.cycles, gr.cycles, r.cycles
            );
            rows.push(r.cycles as f64 / lambda as f64);
        }
        // RANDOM needs no lg n factor: within a few lambda at every size
        // (plus its additive lg n lg lg n, small here).
        assert!(rows.iter().all(|&x| x <= 4.0), "{rows:?}");
    }
}

#[test]
fn lemma_10_mesh_load_factor_is_order_lg_a() {
    // A level's piece of the mesh sends at most one message
    // out per boundary grid edge, so lambda <= 3 sqrt 2 lg A (about 4.24 lg A)
    // on c(p) = ceil(sqrt(p)/lg A). The reference range is 3.2-4.15 for
    // A = 4^3 .. 4^10; here the small meshes stay lower (their pieces touch
    // the border and the ceilings dominate: A = 64 gives 10 / 6), from
    // A = 4^5 on the range holds.
    for k in 3..=9u32 {
        let n = 1u32 << (2 * k);
        let (tree, _) = fat_tree(n, &Capacity::SqrtOverLg);
        let mut rng = trial_rng(0, 0);
        let msgs = generate(Traffic::Mesh, n, 1, Policy::Priority, &mut rng).unwrap();
        let ratio = tree.load_factor(&msgs).lambda / (n as f64).log2();
        eprintln!("A = {n}: lambda / lg A = {ratio:.3}");
        assert!(ratio <= 3.0 * 2f64.sqrt(), "A = {n}: {ratio}");
        assert!(ratio >= if k >= 5 { 3.2 } else { 1.5 }, "A = {n}: {ratio}");
    }
}

#[test]
fn butterfly_fat_tree_routes_permutations_in_about_two_lambda() {
    // About 2 lambda on random permutations (n <= 256), and
    // GREEDY with random parents about the same.
    for k in 2..=4u32 {
        let n = 1u32 << (2 * k);
        let net = Network::butterfly_fat_tree(n as u64).unwrap();
        let tree = LinkTree::new(&net, None, &fabric::layout::metrics::Delay::Unit).unwrap();
        let mut rng = trial_rng(3, k as u64);
        for rate in [1u32, 4] {
            let msgs =
                generate(Traffic::Permutation, n, rate, Policy::IdealRandom, &mut rng).unwrap();
            // Every level's channels: 2^l wires above 4^l leaves.
            for c in tree.level_loads(&msgs).into_iter().flatten() {
                assert_eq!(c.capacity, 1u64 << c.level, "{c:?}");
            }
            let lf = tree.load_factor(&msgs);
            let lg = (n as f64).log2();
            for alg in [Algorithm::ButterflyFatTree, Algorithm::Greedy] {
                let out = route(&tree, &msgs, &alg, Policy::IdealRandom, 1_000_000, &mut rng);
                assert!(out.complete);
                assert!(out.cycles as f64 >= lf.lambda.ceil());
                assert!(
                    out.cycles as f64 <= 3.0 * lf.lambda + lg,
                    "n {n} {alg:?}: {} cycles, lambda {}",
                    out.cycles,
                    lf.lambda
                );
                eprintln!(
                    "BFT n {n} rate {rate} {}: lambda {}, cycles {}",
                    alg.name(),
                    lf.lambda,
                    out.cycles
                );
            }
        }
    }
}

/// A fabric that delivers nothing and records what was sent: the
/// algorithms' schedules laid bare.
struct Nothing {
    n: u32,
    sent: std::sync::Mutex<Vec<usize>>,
}

impl Fabric for Nothing {
    type Work = ();
    fn processors(&self) -> u32 {
        self.n
    }
    fn cycle(
        &self,
        _: &[Message],
        sent: &[u32],
        _: Policy,
        _: u64,
        _: &mut rand_chacha::ChaCha8Rng,
        _: &mut (),
        _: &mut Vec<u32>,
    ) -> u64 {
        self.sent.lock().unwrap().push(sent.len());
        0
    }
    fn latency(&self, _: Message, _: &fabric::sim::TimeModel) -> f64 {
        0.0
    }
    fn address_bits(&self) -> u64 {
        0
    }
    fn worst_latency(&self, _: &fabric::sim::TimeModel) -> f64 {
        0.0
    }
}

#[test]
fn try_guess_schedule_and_subset_probabilities() {
    // n = 16 (lg n = 4), k1 = k2 = r = 1: send all; TRY-GUESS(2): 4 rounds of
    // p = 1/2, send all; the guess 4 ends phase one (4 < 4 fails); then
    // TRY-GUESS(lg n lg lg n = 8): 8 rounds of 1/8, 4 of 1/4, 4 of 1/2, all;
    // then TRY-GUESS(16): 16 of 1/16, 8 of 1/8, 4 of 1/4, 4 of 1/2, all.
    let m = 200_000usize;
    let msgs: Vec<Message> = (0..m)
        .map(|i| Message {
            src: (i % 16) as u32,
            dst: 0,
        })
        .collect();
    let mut msgs = msgs;
    msgs.sort_by_key(|x| x.src);
    let f = Nothing {
        n: 16,
        sent: Default::default(),
    };
    let mut want: Vec<f64> = vec![1.0];
    want.extend([0.5; 4]);
    want.push(1.0);
    for (count, p) in [(8, 0.125), (4, 0.25), (4, 0.5)] {
        want.extend(std::iter::repeat_n(p, count));
    }
    want.push(1.0);
    for (count, p) in [(16, 1.0 / 16.0), (8, 0.125), (4, 0.25), (4, 0.5)] {
        want.extend(std::iter::repeat_n(p, count));
    }
    want.push(1.0);
    let alg = Algorithm::Random(RandomConstants {
        k1: 1.0,
        k2: 1.0,
        r: 1.0,
        interleave: false,
    });
    let out = route(
        &f,
        &msgs,
        &alg,
        Policy::IdealRandom,
        want.len() as u64,
        &mut trial_rng(4, 0),
    );
    assert!(!out.complete);
    let sent = f.sent.lock().unwrap().clone();
    assert_eq!(sent.len(), want.len());
    for (k, (&got, &p)) in sent.iter().zip(&want).enumerate() {
        // A p-subset of 200,000: within 6 standard deviations.
        let sd = (m as f64 * p * (1.0 - p)).sqrt();
        assert!(
            (got as f64 - p * m as f64).abs() <= 6.0 * sd + 1e-9,
            "cycle {k}: sent {got}, want p = {p}"
        );
    }
    // RANDOM' runs passes of 1, 2, 4, ... slots, empty ones included; the
    // butterfly algorithm repeats each pass (k + 1) lg n times (k = 2 here:
    // 200,000 messages on 16 processors is about n^4.4, k = 5).
    let f = Nothing {
        n: 16,
        sent: Default::default(),
    };
    route(
        &f,
        &msgs,
        &Algorithm::RandomPrime,
        Policy::IdealRandom,
        7,
        &mut trial_rng(4, 1),
    );
    let sent = f.sent.lock().unwrap().clone();
    assert_eq!(sent.len(), 7);
    assert_eq!(sent[0], m);
    assert_eq!(sent[1] + sent[2], m);
    assert_eq!(sent[3..7].iter().sum::<usize>(), m);
    let f = Nothing {
        n: 16,
        sent: Default::default(),
    };
    let k = ((m as f64).ln() / 16f64.ln()).ceil();
    let repeats = ((k + 1.0) * 4.0) as usize;
    route(
        &f,
        &msgs,
        &Algorithm::ButterflyFatTree,
        Policy::IdealRandom,
        (repeats + 2) as u64,
        &mut trial_rng(4, 2),
    );
    let sent = f.sent.lock().unwrap().clone();
    assert!(sent[..repeats].iter().all(|&x| x == m), "{sent:?}");
    assert_eq!(sent[repeats] + sent[repeats + 1], m);
}

#[test]
fn the_guaranteed_finite_variant_interleaves_lone_messages() {
    // On a fabric that delivers nothing, every RANDOM cycle is followed by
    // one that sends a single message.
    let m = 1000usize;
    let mut msgs: Vec<Message> = (0..m)
        .map(|i| Message {
            src: (i % 16) as u32,
            dst: 0,
        })
        .collect();
    msgs.sort_by_key(|x| x.src);
    let f = Nothing {
        n: 16,
        sent: Default::default(),
    };
    let alg = Algorithm::Random(RandomConstants {
        k1: 1.0,
        k2: 1.0,
        r: 1.0,
        interleave: true,
    });
    route(&f, &msgs, &alg, Policy::DropAll, 40, &mut trial_rng(6, 0));
    let sent = f.sent.lock().unwrap().clone();
    assert_eq!(sent.len(), 40);
    assert_eq!(sent[0], m);
    assert!(sent.iter().skip(1).step_by(2).all(|&x| x == 1), "{sent:?}");
    // On a real fat-tree with drop-all switches it always finishes, and the
    // lone cycles deliver at least one message each.
    let tree = doubling(64);
    for seed in 0..5 {
        let mut rng = trial_rng(seed, 9);
        let msgs = generate(Traffic::Random, 64, 4, Policy::DropAll, &mut rng).unwrap();
        let out = route(&tree, &msgs, &alg, Policy::DropAll, 1_000_000, &mut rng);
        assert!(out.complete);
        assert!(out.cycles as f64 >= tree.load_factor(&msgs).lambda.ceil());
    }
}
