//! The fat-tree of chapter 3 as a routing fabric: a complete binary tree of
//! `n = 2^K` processors whose channel above every subtree of `2^i` leaves
//! has `cap[i]` wires in each direction, joined by switches with ideal
//! concentrators. Messages follow their unique tree path; `cap[K]` is the
//! root's external channel (to the sink of Theorem 8).
//!
//! A delivery cycle runs in stages: the up channels level
//! by level from the processors, then the down channels from the root. At
//! each channel the surviving arrivals compete under the [`Policy`]. Each
//! stage keeps its list of messages ordered by channel, and within a
//! channel in wire order, so a cycle costs time linear in the steps taken
//! (no sorting, no pass over idle channels).

use rand_chacha::ChaCha8Rng;

use super::{
    concentrate, ChannelLoad, Fabric, FabricFigures, LoadFactor, Message, Policy, SimError,
    TimeModel, SINK,
};
use crate::layout::Embedding;

/// A fat-tree fabric.
#[derive(Clone, Debug, PartialEq)]
pub struct FatTree {
    /// `K = lg n`.
    pub levels: u32,
    /// Wires per direction of the channel above a subtree of `2^i` leaves,
    /// `i = 0 ..= K` (`K`: the root's external channel).
    pub cap: Vec<u32>,
    /// Delay of each level's slowest channel (`w` of its longest wire; 1
    /// without a layout). The root's external channel is a stub of length 1.
    pub wire_delay: Vec<f64>,
    /// Delay of every channel, `[level][subtree]`: `w` of its longest wire
    /// (a concentrator may put a message on any of them).
    pub channel_delay: Vec<Vec<f64>>,
    /// Layout wire length of each level's longest wire (1 without a
    /// layout).
    pub wire_length: Vec<u64>,
}

/// Scratch lists of a delivery cycle.
#[derive(Default)]
pub struct Work {
    cur: Vec<u32>,
    next: Vec<u32>,
    group: Vec<u32>,
    turning: Vec<Vec<u32>>,
}

impl FatTree {
    /// A fat-tree of `n` processors (a power of 2) with the given
    /// capacities per level, unit wires.
    pub fn new(n: u32, cap: Vec<u32>) -> Result<FatTree, SimError> {
        if n < 2 || !n.is_power_of_two() {
            return Err(SimError::NotPowerOf2 { n });
        }
        let levels = n.trailing_zeros();
        if cap.len() != levels as usize + 1 {
            return Err(SimError::CapacityCount {
                given: cap.len(),
                n,
                need: levels + 1,
            });
        }
        if cap.contains(&0) {
            return Err(SimError::ZeroCapacity);
        }
        Ok(FatTree {
            levels,
            wire_delay: vec![1.0; cap.len()],
            channel_delay: (0..=levels).map(|i| vec![1.0; (n >> i) as usize]).collect(),
            wire_length: vec![1; cap.len()],
            cap,
        })
    }

    /// Number of processors, `2^K`.
    pub fn n(&self) -> u32 {
        1 << self.levels
    }

    /// Take each level's wire lengths from a fat-tree layout of the same
    /// tree (node ids as [`crate::layout::fattree::heap_id`]) and their
    /// delays through `w`.
    pub fn with_layout(
        mut self,
        e: &Embedding,
        w: &crate::layout::metrics::Delay,
    ) -> Result<FatTree, SimError> {
        let n = self.n() as u64;
        let heap_of = |id: u32| -> Option<u64> {
            let id = id as u64;
            if id < n {
                Some(id + n)
            } else if id < 2 * n - 1 {
                Some(id - n + 1)
            } else {
                None
            }
        };
        let mut longest = vec![0u64; self.cap.len()];
        let mut wires = vec![0u64; self.cap.len()];
        let mut per_channel: Vec<Vec<u64>> = (0..=self.levels)
            .map(|i| vec![1; (n >> i) as usize])
            .collect();
        for edge in &e.edges {
            let (Some(a), Some(b)) = (heap_of(edge.from), heap_of(edge.to)) else {
                return Err(SimError::EdgeOutsideTree { edge: edge.id, n });
            };
            let (child, parent) = if a > b { (a, b) } else { (b, a) };
            if child / 2 != parent {
                return Err(SimError::EdgeNotToParent { edge: edge.id });
            }
            let level = self.levels - (63 - child.leading_zeros());
            longest[level as usize] = longest[level as usize].max(edge.length());
            wires[level as usize] += 1;
            let slot = &mut per_channel[level as usize][(child - (n >> level)) as usize];
            *slot = (*slot).max(edge.length());
        }
        for (i, &count) in wires.iter().enumerate().take(self.levels as usize) {
            let channels = n >> i;
            if count < channels * self.cap[i] as u64 {
                return Err(SimError::TooFewWires {
                    count,
                    level: i,
                    channels,
                    cap: self.cap[i],
                    need: channels * self.cap[i] as u64,
                });
            }
        }
        longest[self.levels as usize] = 1;
        self.wire_length = longest.iter().map(|&l| l.max(1)).collect();
        self.wire_delay = self.wire_length.iter().map(|&l| w.of(l)).collect();
        self.channel_delay = per_channel
            .iter()
            .map(|level| level.iter().map(|&l| w.of(l)).collect())
            .collect();
        Ok(self)
    }

    /// Channels a message climbs: the level of its paths' top plus one for
    /// the sink.
    pub fn up_len(&self, m: Message) -> u32 {
        if m.dst == SINK {
            self.levels + 1
        } else {
            32 - (m.src ^ m.dst).leading_zeros()
        }
    }

    /// Load of every channel: `(up, down)`, each indexed `[level][subtree]`.
    pub fn loads(&self, msgs: &[Message]) -> (Vec<Vec<u64>>, Vec<Vec<u64>>) {
        let k = self.levels;
        let mut up: Vec<Vec<u64>> = (0..=k).map(|i| vec![0; (self.n() >> i) as usize]).collect();
        let mut down = up.clone();
        for &m in msgs {
            let t = self.up_len(m);
            for i in 0..t {
                up[i as usize][(m.src >> i) as usize] += 1;
                if m.dst != SINK {
                    down[i as usize][(m.dst >> i) as usize] += 1;
                }
            }
        }
        (up, down)
    }

    /// The most loaded channel of each level (load over capacity; the
    /// first of equals: up before down, leftmost), `None` for an idle level.
    pub fn level_loads(&self, msgs: &[Message]) -> Vec<Option<ChannelLoad>> {
        let (up, down) = self.loads(msgs);
        (0..=self.levels)
            .map(|i| {
                let cap = self.cap[i as usize] as u64;
                super::heaviest(
                    i,
                    &up[i as usize],
                    &down[i as usize],
                    |j| (j as u32) << i,
                    |_| cap,
                )
            })
            .collect()
    }

    /// The load factor (Lemma 1: the largest load over capacity of any
    /// channel) and the first channel attaining it (lowest level first).
    pub fn load_factor(&self, msgs: &[Message]) -> LoadFactor {
        LoadFactor::of_levels(&self.level_loads(msgs))
    }

    /// The congestion parameter `r` (section 3.2): the least `r` with
    /// `sum (e/r)^cap(c) <= 1/2` over every simple path of channels. The
    /// longest paths are leaf-root-leaf and leaf-sink; found by bisection.
    pub fn congestion_parameter(&self) -> f64 {
        let e = std::f64::consts::E;
        let worst = |r: f64| -> f64 {
            let term = |i: usize| (e / r).powf(self.cap[i] as f64);
            let through: f64 = (0..self.levels as usize).map(|i| 2.0 * term(i)).sum();
            let out: f64 = (0..=self.levels as usize).map(term).sum();
            through.max(out)
        };
        let (mut lo, mut hi) = (e, e * 2.0);
        while worst(hi) > 0.5 {
            hi *= 2.0;
        }
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if worst(mid) > 0.5 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        hi
    }

    /// Largest channel capacity.
    pub fn max_capacity(&self) -> u32 {
        self.cap.iter().copied().max().unwrap_or(1)
    }
}

impl Fabric for FatTree {
    type Work = Work;

    fn processors(&self) -> u32 {
        self.n()
    }

    fn address_bits(&self) -> u64 {
        2 * self.levels as u64
    }

    fn worst_latency(&self, time: &TimeModel) -> f64 {
        super::leaf_root_leaf_latency(&self.wire_delay, self.levels, time)
    }

    fn latency(&self, m: Message, time: &TimeModel) -> f64 {
        let t = self.up_len(m);
        if t == 0 {
            return 0.0;
        }
        let up: f64 = (0..t)
            .map(|i| self.channel_delay[i as usize][(m.src >> i) as usize])
            .sum();
        if m.dst == SINK {
            up + self.levels as f64 * time.switch_delay
        } else {
            let down: f64 = (0..t)
                .map(|i| self.channel_delay[i as usize][(m.dst >> i) as usize])
                .sum();
            up + down + (2 * t - 1) as f64 * time.switch_delay
        }
    }

    fn cycle(
        &self,
        msgs: &[Message],
        sent: &[u32],
        policy: Policy,
        cycle: u64,
        rng: &mut ChaCha8Rng,
        w: &mut Work,
        delivered: &mut Vec<u32>,
    ) -> u64 {
        let k = self.levels;
        let mut steps = 0u64;
        w.turning.resize_with(k as usize + 1, Vec::new);
        for t in &mut w.turning {
            t.clear();
        }
        w.cur.clear();
        // Messages to themselves need no channel.
        for &id in sent {
            if self.up_len(msgs[id as usize]) == 0 {
                delivered.push(id);
            } else {
                w.cur.push(id);
            }
        }
        let step = Step {
            msgs,
            policy,
            cycle,
        };
        for i in 0..=k {
            if w.cur.is_empty() {
                break;
            }
            steps += self.up_stage(i, &step, rng, w, delivered);
        }
        w.cur.clear();
        for i in (0..k).rev() {
            steps += self.down_stage(i, &step, rng, w, delivered);
        }
        steps
    }
}

impl FabricFigures for FatTree {
    fn network_name(&self) -> &str {
        "fat-tree"
    }

    fn level_loads(&self, msgs: &[Message]) -> Vec<Option<ChannelLoad>> {
        FatTree::level_loads(self, msgs)
    }

    fn capacities(&self) -> &[u32] {
        &self.cap
    }

    fn wire_lengths(&self) -> &[u64] {
        &self.wire_length
    }

    fn wire_delays(&self) -> &[f64] {
        &self.wire_delay
    }
}

/// What every stage of one delivery cycle reads.
struct Step<'a> {
    msgs: &'a [Message],
    policy: Policy,
    cycle: u64,
}

impl FatTree {
    /// The up stage into the channels at level `i`: `w.cur` is ordered by
    /// the channel at level i (src >> i), and within a channel left input
    /// first, each in wire order. The survivors go on up (`w.cur` after
    /// the stage), turn down (`w.turning[i]`) or, past the root, reach the
    /// sink. Returns the message-channel steps.
    fn up_stage(
        &self,
        i: u32,
        s: &Step,
        rng: &mut ChaCha8Rng,
        w: &mut Work,
        delivered: &mut Vec<u32>,
    ) -> u64 {
        let (msgs, k) = (s.msgs, self.levels);
        let mut steps = 0u64;
        let cap = self.cap[i as usize] as usize;
        w.next.clear();
        let cur = std::mem::take(&mut w.cur);
        let mut a = 0;
        while a < cur.len() {
            let c = msgs[cur[a] as usize].src >> i;
            let mut b = a;
            let mut split = 0;
            while b < cur.len() && msgs[cur[b] as usize].src >> i == c {
                if i > 0 && (msgs[cur[b] as usize].src >> (i - 1)) & 1 == 0 {
                    split += 1;
                }
                b += 1;
            }
            if i == 0 {
                split = b - a;
            }
            w.group.clear();
            w.group.extend_from_slice(&cur[a..b]);
            steps += (b - a) as u64;
            let kept = concentrate(s.policy, &mut w.group, split, cap, s.cycle, rng);
            assert!(kept <= cap, "channel over capacity");
            // A message whose path tops out at level i + 1 turns down
            // into level i; a sink message past the root is done.
            for &id in &w.group[..kept] {
                let m = msgs[id as usize];
                if m.dst == SINK && i == k {
                    delivered.push(id);
                } else if self.up_len(m) == i + 1 {
                    w.turning[i as usize].push(id);
                } else {
                    w.next.push(id);
                }
            }
            a = b;
        }
        w.cur = cur;
        std::mem::swap(&mut w.cur, &mut w.next);
        steps
    }

    /// The down stage into the channels at level `i`, from the root:
    /// `w.cur` is ordered by the channel at level i + 1 (dst >> (i + 1));
    /// the turning messages of level i by their up channel (src >> i),
    /// whose sibling is their down channel. The survivors go on down
    /// (`w.cur` after the stage) or, at level 0, are delivered. Returns the
    /// message-channel steps.
    fn down_stage(
        &self,
        i: u32,
        s: &Step,
        rng: &mut ChaCha8Rng,
        w: &mut Work,
        delivered: &mut Vec<u32>,
    ) -> u64 {
        let msgs = s.msgs;
        let turning = std::mem::take(&mut w.turning[i as usize]);
        if w.cur.is_empty() && turning.is_empty() {
            w.turning[i as usize] = turning;
            return 0;
        }
        let mut steps = 0u64;
        let cap = self.cap[i as usize] as usize;
        let cur = std::mem::take(&mut w.cur);
        w.next.clear();
        let (mut a, mut b) = (0, 0);
        while a < cur.len() || b < turning.len() {
            let pa = cur.get(a).map(|&id| msgs[id as usize].dst >> (i + 1));
            let pb = turning.get(b).map(|&id| msgs[id as usize].src >> (i + 1));
            let p = match (pa, pb) {
                (Some(x), Some(y)) => x.min(y),
                (Some(x), None) => x,
                (None, Some(y)) => y,
                (None, None) => unreachable!(),
            };
            let mut a_end = a;
            while a_end < cur.len() && msgs[cur[a_end] as usize].dst >> (i + 1) == p {
                a_end += 1;
            }
            let mut b_end = b;
            while b_end < turning.len() && msgs[turning[b_end] as usize].src >> (i + 1) == p {
                b_end += 1;
            }
            for c in [2 * p, 2 * p + 1] {
                w.group.clear();
                w.group.extend(
                    cur[a..a_end]
                        .iter()
                        .copied()
                        .filter(|&id| msgs[id as usize].dst >> i == c),
                );
                let split = w.group.len();
                w.group.extend(
                    turning[b..b_end]
                        .iter()
                        .copied()
                        .filter(|&id| (msgs[id as usize].src >> i) ^ 1 == c),
                );
                if w.group.is_empty() {
                    continue;
                }
                steps += w.group.len() as u64;
                let kept = concentrate(s.policy, &mut w.group, split, cap, s.cycle, rng);
                assert!(kept <= cap, "channel over capacity");
                if i == 0 {
                    delivered.extend_from_slice(&w.group[..kept]);
                } else {
                    w.next.extend_from_slice(&w.group[..kept]);
                }
            }
            a = a_end;
            b = b_end;
        }
        w.turning[i as usize] = turning;
        w.cur = cur;
        std::mem::swap(&mut w.cur, &mut w.next);
        steps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn congestion_parameters_of_the_spec_note() {
        // Doubling every other level: 24.2 for any n; all ones: 4 e lg n.
        for k in [3u32, 6, 10] {
            let n = 1u32 << (2 * k);
            let cap: Vec<u32> = (0..=2 * k).map(|i| 1 << (i / 2)).collect();
            let r = FatTree::new(n, cap).unwrap().congestion_parameter();
            assert!((r - 24.2).abs() < 0.1, "n {n}: r {r}");
            let ones = FatTree::new(n, vec![1; 2 * k as usize + 1]).unwrap();
            let r1 = ones.congestion_parameter();
            let want = 4.0 * std::f64::consts::E * (2 * k) as f64;
            assert!((r1 - want).abs() < 1e-6 * want, "{r1} vs {want}");
        }
    }

    #[test]
    fn paths_turn_at_the_lowest_common_ancestor() {
        let t = FatTree::new(8, vec![1; 4]).unwrap();
        let up = |s, d| t.up_len(Message { src: s, dst: d });
        assert_eq!(up(3, 3), 0);
        assert_eq!(up(2, 3), 1);
        assert_eq!(up(1, 2), 2);
        assert_eq!(up(0, 7), 3);
        assert_eq!(up(5, SINK), 4);
    }
}
