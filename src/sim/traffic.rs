//! Message sets: random traffic generators, the unit-time message set of a
//! competing mesh mapped geometrically (Lemma 10), and the adversarial set
//! `M_n` of Theorem 8 built concretely against a switch policy. Every set
//! comes back sorted by source (stably), as the fabrics expect.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::{concentrate, Message, Policy, SimError, SINK};

/// A traffic pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Traffic {
    /// `rate` independent uniform random permutations.
    Permutation,
    /// Each processor sends `rate` messages to uniform random other
    /// processors.
    Random,
    /// Each processor sends `rate` messages to uniform random other
    /// processors of its own aligned block of `subtree` processors.
    Local {
        /// Processors per block: destinations stay inside the sender's block.
        subtree: u32,
    },
    /// Every processor but one sends `rate` messages to that one (chosen at
    /// random).
    ManyToOne,
    /// A mesh of the same area (`sqrt n x sqrt n` unit processors), each
    /// sending `rate` messages to each of its neighbours, mapped by
    /// recursive bisection (Lemma 10).
    Mesh,
    /// Theorem 8's `M_n` with load factor `rate` (a multiple of 12), all
    /// messages leaving through the root; on the 4-ary tree of
    /// [`theorem8_capacities`].
    GreedyAdversary,
}

/// Traffic names as the command line spells them.
/// The message sets by name, as the command line gives them (`local`
/// takes its block size apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum TrafficKind {
    /// Permutations.
    Permutation,
    /// Random destinations.
    Random,
    /// Destinations inside subtrees of a given number of processors.
    Local,
    /// Every message to one processor.
    ManyToOne,
    /// A mesh of the same area mapped geometrically (Lemma 10).
    Mesh,
    /// Theorem 8's M_n, all messages leaving through the root.
    GreedyAdversary,
}

impl Traffic {
    /// The message set of a kind; `subtree` is the block size of `local`.
    pub fn of(kind: TrafficKind, subtree: u32) -> Traffic {
        match kind {
            TrafficKind::Permutation => Traffic::Permutation,
            TrafficKind::Random => Traffic::Random,
            TrafficKind::Local => Traffic::Local { subtree },
            TrafficKind::ManyToOne => Traffic::ManyToOne,
            TrafficKind::Mesh => Traffic::Mesh,
            TrafficKind::GreedyAdversary => Traffic::GreedyAdversary,
        }
    }

    /// The kind of the message set (its block size apart).
    pub fn kind(self) -> TrafficKind {
        match self {
            Traffic::Permutation => TrafficKind::Permutation,
            Traffic::Random => TrafficKind::Random,
            Traffic::Local { .. } => TrafficKind::Local,
            Traffic::ManyToOne => TrafficKind::ManyToOne,
            Traffic::Mesh => TrafficKind::Mesh,
            Traffic::GreedyAdversary => TrafficKind::GreedyAdversary,
        }
    }

    /// The command-line and report name (`permutation`, `local`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Traffic::Permutation => "permutation",
            Traffic::Random => "random",
            Traffic::Local { .. } => "local",
            Traffic::ManyToOne => "many-to-one",
            Traffic::Mesh => "mesh",
            Traffic::GreedyAdversary => "greedy-adversary",
        }
    }
}

fn sorted(mut msgs: Vec<Message>) -> Vec<Message> {
    msgs.sort_by_key(|m| m.src);
    msgs
}

fn other(n: u32, src: u32, rng: &mut ChaCha8Rng) -> u32 {
    if n < 2 {
        return src;
    }
    let d = rng.gen_range(0..n - 1);
    if d >= src {
        d + 1
    } else {
        d
    }
}

/// Generate a message set of `n` processors (a power of 4 for `Mesh` and
/// `GreedyAdversary`). `policy` is the switch policy the adversary is built
/// against.
pub fn generate(
    traffic: Traffic,
    n: u32,
    rate: u32,
    policy: Policy,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Message>, SimError> {
    let mut msgs = Vec::new();
    match traffic {
        Traffic::Permutation => {
            let mut p: Vec<u32> = (0..n).collect();
            for _ in 0..rate {
                p.shuffle(rng);
                msgs.extend((0..n).map(|s| Message {
                    src: s,
                    dst: p[s as usize],
                }));
            }
        }
        Traffic::Random => {
            for s in 0..n {
                for _ in 0..rate {
                    msgs.push(Message {
                        src: s,
                        dst: other(n, s, rng),
                    });
                }
            }
        }
        Traffic::Local { subtree } => {
            if subtree < 2 || !subtree.is_power_of_two() || subtree > n {
                return Err(SimError::LocalSubtree { subtree, n });
            }
            for s in 0..n {
                let base = s & !(subtree - 1);
                for _ in 0..rate {
                    msgs.push(Message {
                        src: s,
                        dst: base + other(subtree, s - base, rng),
                    });
                }
            }
        }
        Traffic::ManyToOne => {
            let target = rng.gen_range(0..n);
            for s in (0..n).filter(|&s| s != target) {
                for _ in 0..rate {
                    msgs.push(Message {
                        src: s,
                        dst: target,
                    });
                }
            }
        }
        Traffic::Mesh => {
            let map = mesh_mapping(n)?;
            let side = (n as f64).sqrt().round() as i64;
            for y in 0..side {
                for x in 0..side {
                    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                        let (u, v) = (x + dx, y + dy);
                        if (0..side).contains(&u) && (0..side).contains(&v) {
                            for _ in 0..rate {
                                msgs.push(Message {
                                    src: map[(y * side + x) as usize],
                                    dst: map[(v * side + u) as usize],
                                });
                            }
                        }
                    }
                }
            }
        }
        Traffic::GreedyAdversary => return greedy_adversary(n, rate, policy, rng),
    }
    Ok(sorted(msgs))
}

fn power_of_4(n: u32) -> Result<u32, SimError> {
    if n < 4 || !n.is_power_of_two() || n.trailing_zeros() % 2 != 0 {
        return Err(SimError::NotPowerOf4 { n });
    }
    Ok(n.trailing_zeros() / 2)
}

/// Lemma 10's geometric mapping: the processor (fat-tree leaf) of each point
/// `(x, y)` of a `sqrt n x sqrt n` mesh, at index `y sqrt n + x`. The square
/// is bisected recursively by lines perpendicular to the longer side (the
/// first cut splits `x`); leaves are numbered in that order.
pub fn mesh_mapping(n: u32) -> Result<Vec<u32>, SimError> {
    let k = power_of_4(n)?;
    let side = 1u32 << k;
    let mut map = vec![0u32; n as usize];
    let mut next = 0u32;
    // Explicit stack of pieces (x0, y0, w, h), first half on top.
    let mut stack = vec![(0u32, 0u32, side, side)];
    while let Some((x0, y0, w, h)) = stack.pop() {
        if w * h == 1 {
            map[(y0 * side + x0) as usize] = next;
            next += 1;
        } else if w >= h {
            stack.push((x0 + w / 2, y0, w / 2, h));
            stack.push((x0, y0, w / 2, h));
        } else {
            stack.push((x0, y0 + h / 2, w, h / 2));
            stack.push((x0, y0, w, h / 2));
        }
    }
    Ok(map)
}

/// Capacities of Theorem 8's tree as a binary fat-tree: `2^j` above `4^j`
/// leaves, and the binary levels between are never the bottleneck
/// (`2^ceil(i/2)` at binary level `i`); the root's external channel has
/// `sqrt n`.
pub fn theorem8_capacities(n: u32) -> Vec<u32> {
    let levels = n.trailing_zeros();
    (0..=levels).map(|i| 1 << i.div_ceil(2)).collect()
}

/// Theorem 8's bad message set `M_n` for GREEDY against `policy`, with load
/// factor at most `lambda` (a multiple of 12, at least 12) on the tree of
/// [`theorem8_capacities`]. Built recursively: the root switch of a subtree
/// at 4-ary height `j` is fed full inputs (`2^(j-1)` from each child) for
/// `lambda / 3` cycles through the same concentration code the simulation
/// runs; the child it passed the fewest messages from (lowest index on
/// ties) gets a copy of `M` for its subtree, the others `lambda 2^j / 6`
/// messages spread evenly over their leaves (thesis section 3.4). For a random
/// policy the construction draws its own choices from `rng`, so it only
/// approximates the thesis's "often-unfavoured" subtree.
pub fn greedy_adversary(
    n: u32,
    lambda: u32,
    policy: Policy,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Message>, SimError> {
    let k = power_of_4(n)?;
    if lambda < 12 || lambda % 12 != 0 {
        return Err(SimError::AdversaryLoad { lambda });
    }
    let mut msgs = Vec::new();
    build(k, 0, lambda, policy, rng, &mut msgs);
    Ok(sorted(msgs))
}

fn build(
    j: u32,
    first: u32,
    lambda: u32,
    policy: Policy,
    rng: &mut ChaCha8Rng,
    out: &mut Vec<Message>,
) {
    if j == 0 {
        out.extend((0..lambda).map(|_| Message {
            src: first,
            dst: SINK,
        }));
        return;
    }
    let h = 1usize << (j - 1);
    let cap = 1usize << j;
    let mut tot = [0u64; 4];
    let mut left = Vec::with_capacity(2 * h);
    let mut right = Vec::with_capacity(2 * h);
    let mut top = Vec::with_capacity(4 * h);
    for cycle in 0..(lambda / 3) as u64 {
        // Binary emulation of the 4-ary switch: two intermediate channels
        // (never congested), then the subtree's output channel.
        left.clear();
        left.extend((0..2 * h).map(|i| (i / h) as u32));
        right.clear();
        right.extend((0..2 * h).map(|i| 2 + (i / h) as u32));
        let kl = concentrate(policy, &mut left, h, cap, cycle, rng);
        let kr = concentrate(policy, &mut right, h, cap, cycle, rng);
        top.clear();
        top.extend_from_slice(&left[..kl]);
        top.extend_from_slice(&right[..kr]);
        let kept = concentrate(policy, &mut top, kl, cap, cycle, rng);
        for &c in &top[..kept] {
            tot[c as usize] += 1;
        }
    }
    let unfavoured = (0..4).min_by_key(|&c| (tot[c], c)).unwrap();
    let leaves = 1u32 << (2 * (j - 1));
    let m = lambda << j;
    let m = m / 6;
    for c in 0..4u32 {
        let child_first = first + c * leaves;
        if c as usize == unfavoured {
            build(j - 1, child_first, lambda, policy, rng, out);
        } else {
            out.extend((0..m).map(|x| Message {
                src: child_first + ((x as u64 * leaves as u64) / m as u64) as u32,
                dst: SINK,
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mesh_mapping_is_z_order_with_x_first() {
        let map = mesh_mapping(16).unwrap();
        // Point (x, y): interleave bits, x bit first.
        for y in 0..4u32 {
            for x in 0..4u32 {
                let z = ((x >> 1) & 1) << 3 | ((y >> 1) & 1) << 2 | (x & 1) << 1 | (y & 1);
                assert_eq!(map[(y * 4 + x) as usize], z, "({x}, {y})");
            }
        }
        let mut all = mesh_mapping(1024).unwrap();
        all.sort_unstable();
        assert_eq!(all, (0..1024).collect::<Vec<_>>());
    }

    #[test]
    fn generators_keep_their_promises() {
        let mut rng = super::super::trial_rng(1, 0);
        let n = 64;
        let p = generate(Traffic::Permutation, n, 3, Policy::Priority, &mut rng).unwrap();
        assert_eq!(p.len(), 3 * 64);
        let mut dsts: Vec<u32> = p.iter().map(|m| m.dst).collect();
        dsts.sort_unstable();
        assert!(dsts
            .chunks(3)
            .enumerate()
            .all(|(i, c)| c.iter().all(|&d| d == i as u32)));
        let l = generate(
            Traffic::Local { subtree: 8 },
            n,
            5,
            Policy::Priority,
            &mut rng,
        )
        .unwrap();
        assert!(l.iter().all(|m| m.src / 8 == m.dst / 8 && m.src != m.dst));
        let r = generate(Traffic::Random, n, 2, Policy::Priority, &mut rng).unwrap();
        assert!(r.iter().all(|m| m.src != m.dst && m.dst < n));
        let o = generate(Traffic::ManyToOne, n, 2, Policy::Priority, &mut rng).unwrap();
        assert_eq!(o.len(), 2 * 63);
        assert!(o
            .windows(2)
            .all(|w| w[0].dst == w[1].dst && w[0].src <= w[1].src));
        let mesh = generate(Traffic::Mesh, n, 1, Policy::Priority, &mut rng).unwrap();
        assert_eq!(mesh.len(), 4 * 8 * 7); // 2 directions x 2 axes x 8 rows x 7 edges
    }

    #[test]
    fn adversary_sizes() {
        let mut rng = super::super::trial_rng(1, 0);
        for k in 1..6u32 {
            let n = 1 << (2 * k);
            let m = greedy_adversary(n, 12, Policy::Priority, &mut rng).unwrap();
            // Property 1: at most lambda sqrt(n) messages through the root.
            assert!(m.len() as u64 <= 12 * (1u64 << k), "n {n}: {}", m.len());
            assert!(m.iter().all(|x| x.dst == SINK));
        }
        assert!(greedy_adversary(16, 18, Policy::Priority, &mut rng).is_err());
    }
}
