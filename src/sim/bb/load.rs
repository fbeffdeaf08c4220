//! Loads of a message set on the channels of the tree, and the load
//! factors they give under a capacity function.
//!
//! A channel is named by the node `(i, j)` below it, `1 <= i <= n`: the cut
//! between the `2^(n-i)` leaves of that node and the rest. A message loads
//! the channel when exactly one of its endpoints is below it; the load is
//! *ascending* when the source is below, *descending* when the destination
//! is. `ℓ = ℓ_a + ℓ_d`.
//!
//! [`ChannelLoads::new`] counts by differences in `O(|M| + N)`: the
//! ascending load of a node is the number of sources below it minus the
//! number of messages whose peak (the lowest common ancestor of source
//! and destination) is the node or one of its descendants; the same with
//! destinations for the descending load. [`ChannelLoads::naive`] counts
//! message by message and channel by channel, as a check.
//!
//! The load factor is `λ = max_c ℓ(c)/cap(c)` over the channels that
//! exist; it is kept as an exact [`Ratio`] together with the channel that
//! attains it. The reference load factor `η` is the load factor under the
//! reference tree's edge weights ([`Capacities::Reference`]).

use std::cmp::Ordering;

use serde::Serialize;
use thiserror::Error;

use super::{Levels, Message, Terminal};

/// Why loads or load factors cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LoadError {
    /// A message names a terminal outside `0..N`.
    #[error("terminal {terminal} outside 0..{terminals}")]
    TerminalOutOfRange {
        /// The terminal named.
        terminal: Terminal,
        /// `N`.
        terminals: u32,
    },
    /// A capacity function gave a channel no wires.
    #[error("the channel at level {level} has capacity 0")]
    ZeroCapacity {
        /// The level of the node below the channel.
        level: u32,
    },
    /// The sorting fat-tree's meshes must be `L x L` with `L` a power of 2
    /// and `L^2 <= N`.
    #[error("mesh side {side}: need a power of 2 with side^2 <= {terminals}")]
    MeshSide {
        /// The side asked for.
        side: u32,
        /// `N`.
        terminals: u32,
    },
}

/// A channel: the cut above node `(level, index)`, `level >= 1`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, schemars::JsonSchema,
)]
pub struct Channel {
    /// The level `i >= 1` of the node below the channel.
    pub level: u32,
    /// The node's index `j` among the `2^i` nodes of its level.
    pub index: u32,
}

/// A non-negative rational `num/den`, `den > 0`, compared by value.
#[derive(Clone, Copy, Debug, Serialize, schemars::JsonSchema)]
pub struct Ratio {
    /// Numerator.
    pub num: u64,
    /// Denominator, never 0.
    pub den: u64,
}

impl Ratio {
    /// `num/den`, or `None` when `den == 0`.
    pub fn new(num: u64, den: u64) -> Option<Ratio> {
        (den > 0).then_some(Ratio { num, den })
    }

    /// The nearest `f64`.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// `ceil(num/den)`.
    pub fn ceil(self) -> u64 {
        self.num.div_ceil(self.den)
    }
}

impl PartialEq for Ratio {
    fn eq(&self, other: &Ratio) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ratio {}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> Ordering {
        (u128::from(self.num) * u128::from(other.den))
            .cmp(&(u128::from(other.num) * u128::from(self.den)))
    }
}

/// A load factor and the channel attaining it (the first one in level,
/// then index order); `channel` is `None` when the capacity function has
/// no channel at all (then the value is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct LoadFactor {
    /// `max_c load(c)/cap(c)`.
    pub value: Ratio,
    /// The arg-max channel.
    pub channel: Option<Channel>,
}

/// The three load factors of a message set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct LoadFactors {
    /// `λ`, from `ℓ = ℓ_a + ℓ_d`.
    pub total: LoadFactor,
    /// `λ_a`, from the ascending loads.
    pub ascending: LoadFactor,
    /// `λ_d`, from the descending loads.
    pub descending: LoadFactor,
}

/// Where the heights of the reference tree's edges start.
///
/// The reference tree weighs an edge at height `h` by `2^ceil(h/2)`. With
/// [`HeightConvention::LeafZero`] `h` is the height of the edge's lower
/// endpoint, so leaf edges have `h = 0` and weight 1 (this project's default,
/// under which the sorting fat-tree's caps equal the weights). With
/// [`HeightConvention::LeafOne`] leaf edges have `h = 1` and weight 2 (the
/// pruned butterfly's caps equal these weights, so there `λ = η`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum HeightConvention {
    /// Leaf edges have height 0.
    #[default]
    LeafZero,
    /// Leaf edges have height 1.
    LeafOne,
}

/// A capacity function on the channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Capacities {
    /// The pruned butterfly: `cap(i) = size(i-1)` ([`Levels::cap`]).
    PrunedButterfly,
    /// The sorting fat-tree with `L x L` meshes of terminals at its leaves:
    /// see [`sft_cap`].
    SortingFatTree {
        /// `L`, a power of 2 with `L^2 <= N`.
        mesh_side: u32,
    },
    /// The reference tree's edge weights, under a height convention.
    Reference(HeightConvention),
}

impl Capacities {
    /// The capacity of the channel above a node at `level` (`1..=n`), or
    /// `None` where there is no channel (inside a sorting fat-tree mesh).
    pub fn cap(self, levels: Levels, level: u32) -> Result<Option<u64>, LoadError> {
        match self {
            Capacities::PrunedButterfly => Ok(Some(u64::from(levels.cap(level)))),
            Capacities::SortingFatTree { mesh_side } => sft_cap(levels, mesh_side, level),
            Capacities::Reference(c) => Ok(Some(reference_weight(levels, c, level))),
        }
    }
}

/// The reference tree's weight `2^ceil(h/2)` of the edge above a node at
/// `level`, where `h = n - level` ([`HeightConvention::LeafZero`]) or
/// `n - level + 1` ([`HeightConvention::LeafOne`]).
pub fn reference_weight(levels: Levels, convention: HeightConvention, level: u32) -> u64 {
    let h = levels.n.saturating_sub(level)
        + match convention {
            HeightConvention::LeafZero => 0,
            HeightConvention::LeafOne => 1,
        };
    1 << h.div_ceil(2)
}

/// The sorting fat-tree's capacity of the channel above a node at `level`,
/// with `L x L` meshes (`L = mesh_side`) at the leaves of the tree.
///
/// The node at the root of an `m`-terminal subtree, `m = 2^(n - level)`,
/// has a channel of `sqrt(2m)` wires when `m` is an odd power of 2 and
/// `sqrt(m)` when it is an even one (paper §4): `2^ceil(h/2)`
/// with `h = n - level`. The meshes sit at level `n - 2 lg L`; their
/// channels have `L` wires, one per column. There is no channel below the
/// meshes (`None`): cuts inside a mesh are not channel cuts.
///
/// The paper's Lemma 10 divides by `sqrt(N/2^k)`; this uses the channels
/// the paper's network actually has (see "Quantities" in
/// `docs/simulation.md`), which differ from that
/// by `sqrt 2` at odd heights.
pub fn sft_cap(levels: Levels, mesh_side: u32, level: u32) -> Result<Option<u64>, LoadError> {
    let bad = LoadError::MeshSide {
        side: mesh_side,
        terminals: levels.terminals(),
    };
    if !mesh_side.is_power_of_two() || 2 * mesh_side.ilog2() > levels.n {
        return Err(bad);
    }
    let mesh_level = levels.n - 2 * mesh_side.ilog2();
    Ok((level <= mesh_level).then(|| 1 << (levels.n - level).div_ceil(2)))
}

/// The ascending and descending loads of a message set on every channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelLoads {
    levels: Levels,
    /// Heap order: node `(i, j)` at `2^i + j`; index 0 and 1 unused.
    asc: Vec<u64>,
    desc: Vec<u64>,
}

fn check(levels: Levels, messages: &[Message]) -> Result<(), LoadError> {
    let terminals = levels.terminals();
    match messages
        .iter()
        .flat_map(|m| [m.src, m.dst])
        .find(|&t| t >= terminals)
    {
        Some(terminal) => Err(LoadError::TerminalOutOfRange {
            terminal,
            terminals,
        }),
        None => Ok(()),
    }
}

impl ChannelLoads {
    /// The loads of `messages`, by difference counting in `O(|M| + N)`.
    pub fn new(levels: Levels, messages: &[Message]) -> Result<ChannelLoads, LoadError> {
        check(levels, messages)?;
        let leaves = levels.terminals() as usize;
        let mut asc = vec![0u64; 2 * leaves];
        let mut desc = vec![0u64; 2 * leaves];
        // Messages whose peak is at the node.
        let mut peaks = vec![0u64; 2 * leaves];
        for m in messages {
            asc[leaves + m.src as usize] += 1;
            desc[leaves + m.dst as usize] += 1;
            let p = levels.peak(m.src, m.dst);
            peaks[(1usize << p) + levels.ancestor(m.src, p) as usize] += 1;
        }
        for v in (1..leaves).rev() {
            asc[v] = asc[2 * v] + asc[2 * v + 1];
            desc[v] = desc[2 * v] + desc[2 * v + 1];
            peaks[v] += peaks[2 * v] + peaks[2 * v + 1];
        }
        for v in 1..2 * leaves {
            asc[v] -= peaks[v];
            desc[v] -= peaks[v];
        }
        Ok(ChannelLoads { levels, asc, desc })
    }

    /// The loads of `messages`, counted channel by channel and message by
    /// message in `O(|M| N)`: the obvious definition, for checking
    /// [`ChannelLoads::new`].
    pub fn naive(levels: Levels, messages: &[Message]) -> Result<ChannelLoads, LoadError> {
        check(levels, messages)?;
        let leaves = levels.terminals() as usize;
        let mut asc = vec![0u64; 2 * leaves];
        let mut desc = vec![0u64; 2 * leaves];
        for c in channels(levels) {
            let below = |t: Terminal| levels.ancestor(t, c.level) == c.index;
            let v = (1usize << c.level) + c.index as usize;
            for m in messages {
                match (below(m.src), below(m.dst)) {
                    (true, false) => asc[v] += 1,
                    (false, true) => desc[v] += 1,
                    _ => {}
                }
            }
        }
        Ok(ChannelLoads { levels, asc, desc })
    }

    /// The levels the loads are on.
    pub fn levels(&self) -> Levels {
        self.levels
    }

    fn slot(&self, c: Channel) -> usize {
        (1usize << c.level) + c.index as usize
    }

    /// `ℓ_a(c)`: messages with source below `c` and destination outside.
    /// `c` must be a channel of these levels.
    pub fn ascending(&self, c: Channel) -> u64 {
        self.asc[self.slot(c)]
    }

    /// `ℓ_d(c)`: messages with destination below `c` and source outside.
    pub fn descending(&self, c: Channel) -> u64 {
        self.desc[self.slot(c)]
    }

    /// `ℓ(c) = ℓ_a(c) + ℓ_d(c)`.
    pub fn total(&self, c: Channel) -> u64 {
        self.ascending(c) + self.descending(c)
    }

    /// `λ`, `λ_a` and `λ_d` under the capacity function `cap`, which gives
    /// the capacity of the channel above a node at a level (`None`: no
    /// channel there).
    pub fn factors_with(
        &self,
        cap: impl Fn(u32) -> Result<Option<u64>, LoadError>,
    ) -> Result<LoadFactors, LoadError> {
        let zero = LoadFactor {
            value: Ratio { num: 0, den: 1 },
            channel: None,
        };
        let mut best = [zero; 3];
        for level in 1..=self.levels.n {
            let Some(cap) = cap(level)? else { continue };
            if cap == 0 {
                return Err(LoadError::ZeroCapacity { level });
            }
            for index in 0..1u32 << level {
                let c = Channel { level, index };
                let loads = [self.total(c), self.ascending(c), self.descending(c)];
                for (b, load) in best.iter_mut().zip(loads) {
                    let r = Ratio {
                        num: load,
                        den: cap,
                    };
                    if b.channel.is_none() || r > b.value {
                        *b = LoadFactor {
                            value: r,
                            channel: Some(c),
                        };
                    }
                }
            }
        }
        Ok(LoadFactors {
            total: best[0],
            ascending: best[1],
            descending: best[2],
        })
    }

    /// `λ`, `λ_a` and `λ_d` under one of the named capacity functions.
    pub fn factors(&self, caps: Capacities) -> Result<LoadFactors, LoadError> {
        self.factors_with(|level| caps.cap(self.levels, level))
    }
}

/// Every channel, in level then index order.
pub fn channels(levels: Levels) -> impl Iterator<Item = Channel> {
    (1..=levels.n).flat_map(|level| (0..1u32 << level).map(move |index| Channel { level, index }))
}

/// `λ`, `λ_a` and `λ_d` of `messages` under `caps`.
pub fn load_factors(
    levels: Levels,
    messages: &[Message],
    caps: Capacities,
) -> Result<LoadFactors, LoadError> {
    ChannelLoads::new(levels, messages)?.factors(caps)
}

/// The reference load factor `η(M)`: the congestion of the reference tree
/// over its edge weights, under a height convention.
pub fn eta(
    levels: Levels,
    messages: &[Message],
    convention: HeightConvention,
) -> Result<LoadFactor, LoadError> {
    Ok(load_factors(levels, messages, Capacities::Reference(convention))?.total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_set(rng: &mut ChaCha8Rng, levels: Levels, count: usize) -> Vec<Message> {
        let n = levels.terminals();
        (0..count)
            .map(|_| Message {
                src: rng.gen_range(0..n),
                dst: rng.gen_range(0..n),
            })
            .collect()
    }

    #[test]
    fn difference_counting_matches_the_naive_count() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for trial in 0..200 {
            let levels = Levels::new([4, 16, 64, 256][trial % 4]).unwrap();
            let count = rng.gen_range(0..3 * levels.terminals() as usize);
            let m = random_set(&mut rng, levels, count);
            let fast = ChannelLoads::new(levels, &m).unwrap();
            assert_eq!(fast, ChannelLoads::naive(levels, &m).unwrap());
            // Every message crosses exactly the channels strictly below its
            // peak on both sides.
            let crossings: u64 = channels(levels).map(|c| fast.total(c)).sum();
            let want: u64 = m
                .iter()
                .map(|x| 2 * u64::from(levels.n - levels.peak(x.src, x.dst)))
                .sum();
            assert_eq!(crossings, want);
        }
    }

    #[test]
    fn pruned_butterfly_lambda_is_at_most_eta() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for trial in 0..100 {
            let levels = Levels::new([16, 64, 256, 1024][trial % 4]).unwrap();
            let count = rng.gen_range(1..4 * levels.terminals() as usize);
            let m = random_set(&mut rng, levels, count);
            let loads = ChannelLoads::new(levels, &m).unwrap();
            let pb = loads.factors(Capacities::PrunedButterfly).unwrap();
            let zero = loads.factors(Capacities::Reference(HeightConvention::LeafZero));
            let one = loads.factors(Capacities::Reference(HeightConvention::LeafOne));
            assert!(pb.total.value <= zero.unwrap().total.value);
            // The pruned butterfly's caps are the h = 1-at-leaves weights.
            assert_eq!(pb, one.unwrap());
            assert!(pb.ascending.value <= pb.total.value);
            assert!(pb.descending.value <= pb.total.value);
        }
    }

    #[test]
    fn caps_follow_the_worked_examples() {
        let l = Levels::new(256).unwrap();
        let sft = |side, i| sft_cap(l, side, i).unwrap();
        assert_eq!(
            (1..=3).map(|i| sft(8, i)).collect::<Vec<_>>(),
            [Some(16), Some(8), None]
        );
        let l = Levels::new(65536).unwrap();
        let caps: Vec<_> = (1..=8)
            .map(|i| sft_cap(l, 16, i).unwrap().unwrap())
            .collect();
        assert_eq!(caps, [256, 128, 128, 64, 64, 32, 32, 16]);
        assert_eq!(sft_cap(l, 16, 9), Ok(None));
        for i in 1..=16 {
            let sft = sft_cap(l, 1, i).unwrap().unwrap();
            assert_eq!(sft, reference_weight(l, HeightConvention::LeafZero, i));
            let pb = u64::from(l.cap(i));
            assert_eq!(pb, reference_weight(l, HeightConvention::LeafOne, i));
        }
        assert!(matches!(sft_cap(l, 3, 1), Err(LoadError::MeshSide { .. })));
        assert!(matches!(
            sft_cap(l, 512, 1),
            Err(LoadError::MeshSide { .. })
        ));
    }

    #[test]
    fn factors_report_the_argmax_and_reject_bad_input() {
        let l = Levels::new(16).unwrap();
        let m = [Message { src: 3, dst: 12 }, Message { src: 2, dst: 13 }];
        let f = load_factors(l, &m, Capacities::PrunedButterfly).unwrap();
        // Leaf channels carry 1 message over 2 wires; level 1 carries 2
        // over 4; level 3 carries 2 over 2.
        assert_eq!(f.total.value, Ratio::new(1, 1).unwrap());
        assert_eq!(f.total.channel, Some(Channel { level: 3, index: 1 }));
        assert_eq!(f.ascending.channel, Some(Channel { level: 3, index: 1 }));
        assert_eq!(f.descending.channel, Some(Channel { level: 3, index: 6 }));
        let bad = [Message { src: 16, dst: 0 }];
        assert!(matches!(
            ChannelLoads::new(l, &bad),
            Err(LoadError::TerminalOutOfRange { terminal: 16, .. })
        ));
        let loads = ChannelLoads::new(l, &m).unwrap();
        assert_eq!(
            loads.factors_with(|_| Ok(Some(0))),
            Err(LoadError::ZeroCapacity { level: 1 })
        );
        // One mesh of all 16 terminals: no channel at all.
        let one = loads
            .factors(Capacities::SortingFatTree { mesh_side: 4 })
            .unwrap();
        assert_eq!(one.total.channel, None);
        assert_eq!(one.total.value.num, 0);
    }

    #[test]
    fn ratios_compare_by_value() {
        let r = |a, b| Ratio::new(a, b).unwrap();
        assert_eq!(r(1, 2), r(2, 4));
        assert!(r(1023, 2) > r(511, 1));
        assert_eq!(r(1023, 2).ceil(), 512);
        assert_eq!(r(1023, 2).to_f64(), 511.5);
        assert!(Ratio::new(1, 0).is_none());
    }
}
