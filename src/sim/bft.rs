//! A tree-like network routed wire by wire (section 3.5): every link is a
//! channel of capacity 1 in each direction. Going up, a message picks one of
//! its node's parents at random until it reaches a node whose subtree holds
//! its destination; from there the way down is unique. Built from any
//! leveled [`Network`] whose processors are nodes `0 .. n` in leaf order and
//! whose every node covers a contiguous block of processors: the butterfly
//! fat-tree, and any layout of one read back from a file.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::{ChannelLoad, Fabric, FabricFigures, LoadFactor, Message, Policy, SimError, TimeModel};
use crate::layout::NetworkName;
use crate::network::{Network, NodeId, Role};

/// The wire-level fabric.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkTree {
    /// The network's name (`butterfly-fat-tree`, `scalable-fat-tree`).
    network: NetworkName,
    n: u32,
    lo: Vec<u32>,
    hi: Vec<u32>,
    /// Up links of each node as `(link, parent)`, CSR.
    up_start: Vec<u32>,
    up: Vec<(u32, u32)>,
    /// Down links of each node as `(link, child)`, CSR.
    down_start: Vec<u32>,
    down: Vec<(u32, u32)>,
    /// Highest level.
    pub levels: u32,
    /// Delay of each level's longest up wire (from level l to l + 1).
    pub wire_delay: Vec<f64>,
    /// Length of each level's longest wire (1 without a layout).
    pub wire_length: Vec<u64>,
    /// Channels: for each level, the blocks `(lo, hi, wires)` of processors
    /// under that level's nodes, sorted.
    blocks: Vec<Vec<(u32, u32, u32)>>,
}

/// Per-node lists flattened: `(start, flat)`, node `v`'s list being
/// `flat[start[v] .. start[v + 1]]`.
pub(crate) fn csr<T>(lists: Vec<Vec<T>>) -> (Vec<u32>, Vec<T>) {
    let mut start = vec![0u32];
    let mut flat = Vec::new();
    for l in lists {
        flat.extend(l);
        start.push(flat.len() as u32);
    }
    (start, flat)
}

/// Scratch state of a delivery cycle: per directed link, a stamp, the
/// number of contenders and the current holder.
#[derive(Default)]
pub struct Work {
    stamp: Vec<u64>,
    count: Vec<u32>,
    holder: Vec<u32>,
    round: u64,
    /// `(message, node)` of messages in flight.
    cur: Vec<(u32, u32)>,
    next: Vec<(u32, u32)>,
    want: Vec<(u32, u32, u32)>,
    apex: Vec<Vec<(u32, u32)>>,
}

impl LinkTree {
    /// Build from a network; `lengths[link]` are the wire lengths of a
    /// layout (or `None` for unit wires) and `w` their delay.
    pub fn new(
        net: &Network,
        lengths: Option<&[u64]>,
        w: &crate::layout::metrics::Delay,
    ) -> Result<LinkTree, SimError> {
        let nodes = net.node_count();
        let level: Vec<u32> = (0..nodes as u32)
            .map(|i| net.node(NodeId(i)).level)
            .collect();
        let n = net.processors().len() as u32;
        check_processors(net, n)?;
        let levels = level.iter().copied().max().unwrap_or(0);
        let links = Links::of(net, &level, lengths)?;
        let (lo, hi) = processor_blocks(&level, n, &links)?;
        for (v, u) in links.ups.iter().enumerate() {
            for &(_, p) in u {
                if lo[p as usize] > lo[v] || hi[p as usize] < hi[v] {
                    return Err(SimError::ParentCover {
                        parent: p,
                        child: v,
                    });
                }
            }
        }
        let blocks = level_blocks(&level, levels, &lo, &hi, &links.ups)?;
        let Links {
            ups,
            downs,
            longest,
        } = links;
        let (up_start, up) = csr(ups);
        let (down_start, down) = csr(downs);
        Ok(LinkTree {
            network: NetworkName::from(net.name.as_str()),
            n,
            lo,
            hi,
            up_start,
            up,
            down_start,
            down,
            levels,
            wire_delay: longest.iter().map(|&d| w.of(d)).collect(),
            wire_length: longest,
            blocks,
        })
    }

    /// Processors, nodes `0 .. n` in leaf order.
    pub(crate) fn processors(&self) -> u32 {
        self.n
    }

    /// Nodes, processors first.
    pub(crate) fn node_count(&self) -> u32 {
        self.lo.len() as u32
    }

    /// Node `v`'s up links as `(link, parent)`.
    pub(crate) fn ups(&self, v: u32) -> &[(u32, u32)] {
        &self.up[self.up_start[v as usize] as usize..self.up_start[v as usize + 1] as usize]
    }

    /// Node `v`'s down links as `(link, child)`.
    pub(crate) fn downs(&self, v: u32) -> &[(u32, u32)] {
        &self.down[self.down_start[v as usize] as usize..self.down_start[v as usize + 1] as usize]
    }

    /// The processors `lo .. hi` under node `v`.
    pub(crate) fn block(&self, v: u32) -> (u32, u32) {
        (self.lo[v as usize], self.hi[v as usize])
    }

    /// Whether processor `p` lies under node `v`.
    pub(crate) fn covers(&self, v: u32, p: u32) -> bool {
        self.lo[v as usize] <= p && p < self.hi[v as usize]
    }

    /// Level of the lowest block holding both ends.
    pub fn apex_level(&self, m: Message) -> u32 {
        (0..=self.levels)
            .find(|&l| {
                let b = &self.blocks[l as usize];
                let i = b.partition_point(|x| x.1 <= m.src);
                i < b.len() && b[i].0 <= m.dst && m.dst < b[i].1 && b[i].0 <= m.src
            })
            .unwrap_or(self.levels)
    }

    /// The most loaded channel of each level below the top: for each
    /// level's blocks, the wires leaving them (up) and entering them (down).
    pub fn level_loads(&self, msgs: &[Message]) -> Vec<Option<ChannelLoad>> {
        self.blocks
            .iter()
            .take(self.levels as usize)
            .enumerate()
            .map(|(l, blocks)| {
                let mut up = vec![0u64; blocks.len()];
                let mut down = vec![0u64; blocks.len()];
                let find = |p: u32| blocks.partition_point(|x| x.1 <= p);
                for m in msgs {
                    let (a, b) = (find(m.src), find(m.dst));
                    if a != b {
                        up[a] += 1;
                        down[b] += 1;
                    }
                }
                super::heaviest(
                    l as u32,
                    &up,
                    &down,
                    |j| blocks[j].0,
                    |j| blocks[j].2 as u64,
                )
            })
            .collect()
    }

    /// Load factor over the channels (the first heaviest, lowest level
    /// first).
    pub fn load_factor(&self, msgs: &[Message]) -> LoadFactor {
        LoadFactor::of_levels(&self.level_loads(msgs))
    }

    /// Settle contention for the wanted directed links `(link key, message,
    /// next node)` in `w.want`: one message per link survives. Survivors go
    /// to `w.next`.
    fn contend(&self, policy: Policy, cycle: u64, rng: &mut ChaCha8Rng, w: &mut Work) {
        w.round += 1;
        let round = w.round;
        let reverse = policy == Policy::Rotating && cycle % 2 == 1;
        let order: Box<dyn Iterator<Item = usize>> = if reverse {
            Box::new((0..w.want.len()).rev())
        } else {
            Box::new(0..w.want.len())
        };
        for i in order {
            let (key, msg, _) = w.want[i];
            let k = key as usize;
            if w.stamp[k] != round {
                w.stamp[k] = round;
                w.count[k] = 1;
                w.holder[k] = msg;
            } else {
                w.count[k] += 1;
                if policy == Policy::IdealRandom && rng.gen_range(0..w.count[k]) == 0 {
                    w.holder[k] = msg;
                }
            }
        }
        w.next.clear();
        for &(key, msg, node) in &w.want {
            let k = key as usize;
            let keep = w.holder[k] == msg && !(policy == Policy::DropAll && w.count[k] > 1);
            if keep {
                w.next.push((msg, node));
            }
        }
    }
}

impl Fabric for LinkTree {
    type Work = Work;

    fn processors(&self) -> u32 {
        self.n
    }

    fn address_bits(&self) -> u64 {
        // Up and down choices at every level: 2 lg n bits suffice.
        2 * (self.n.max(2) as f64).log2().ceil() as u64
    }

    fn worst_latency(&self, time: &TimeModel) -> f64 {
        super::leaf_root_leaf_latency(&self.wire_delay, self.levels, time)
    }

    fn latency(&self, m: Message, time: &TimeModel) -> f64 {
        let t = self.apex_level(m);
        if t == 0 {
            return 0.0;
        }
        let wires: f64 = (0..t).map(|l| self.wire_delay[l as usize]).sum();
        2.0 * wires + (2 * t - 1) as f64 * time.switch_delay
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
        let keys = 2 * self.up.len();
        if w.stamp.len() != keys {
            w.stamp = vec![0; keys];
            w.count = vec![0; keys];
            w.holder = vec![0; keys];
        }
        w.apex.resize_with(self.levels as usize + 1, Vec::new);
        for a in &mut w.apex {
            a.clear();
        }
        let mut steps = 0u64;
        w.cur.clear();
        w.cur
            .extend(sent.iter().map(|&id| (id, msgs[id as usize].src)));
        // Up, level by level: a message whose node covers its destination
        // waits at its apex; the others pick a parent at random.
        for l in 0..=self.levels {
            w.want.clear();
            for &(id, v) in &w.cur {
                let m = msgs[id as usize];
                if self.covers(v, m.dst) {
                    w.apex[l as usize].push((id, v));
                    continue;
                }
                let ups = self.ups(v);
                if ups.is_empty() {
                    continue; // cannot happen in a connected tree
                }
                let (link, parent) = ups[rng.gen_range(0..ups.len())];
                w.want.push((2 * link, id, parent));
            }
            if w.want.is_empty() {
                break;
            }
            steps += w.want.len() as u64;
            self.contend(policy, cycle, rng, w);
            std::mem::swap(&mut w.cur, &mut w.next);
        }
        // Down from the top: the unique child covering the destination.
        w.cur.clear();
        for l in (0..=self.levels).rev() {
            let apex = std::mem::take(&mut w.apex[l as usize]);
            w.cur.extend_from_slice(&apex);
            w.apex[l as usize] = apex;
            if l == 0 {
                break;
            }
            w.want.clear();
            for &(id, v) in &w.cur {
                let m = msgs[id as usize];
                let &(link, child) = self
                    .downs(v)
                    .iter()
                    .find(|&&(_, c)| self.covers(c, m.dst))
                    .expect("a node covering the destination has a child covering it");
                w.want.push((2 * link + 1, id, child));
            }
            steps += w.want.len() as u64;
            self.contend(policy, cycle, rng, w);
            std::mem::swap(&mut w.cur, &mut w.next);
        }
        for &(id, v) in &w.cur {
            debug_assert_eq!(v, msgs[id as usize].dst);
            delivered.push(id);
        }
        steps
    }
}

impl FabricFigures for LinkTree {
    fn network_name(&self) -> &str {
        self.network.as_str()
    }

    fn level_loads(&self, msgs: &[Message]) -> Vec<Option<ChannelLoad>> {
        LinkTree::level_loads(self, msgs)
    }

    fn capacities(&self) -> &[u32] {
        &[]
    }

    fn wire_lengths(&self) -> &[u64] {
        &self.wire_length
    }

    fn wire_delays(&self) -> &[f64] {
        &self.wire_delay
    }
}
/// Check that the processors are the nodes `0 .. n`, all at level 0.
fn check_processors(net: &Network, n: u32) -> Result<(), SimError> {
    for i in 0..net.node_count() as u32 {
        let d = net.node(NodeId(i));
        if (d.role == Role::Processor) != (i < n) {
            return Err(SimError::ProcessorsFirst);
        }
        if d.role == Role::Processor && d.level != 0 {
            return Err(SimError::ProcessorLevel { node: i });
        }
    }
    Ok(())
}

/// The links of a leveled network, by node, and each level's longest wire.
struct Links {
    /// Up links of each node as `(link, parent)`.
    ups: Vec<Vec<(u32, u32)>>,
    /// Down links of each node as `(link, child)`.
    downs: Vec<Vec<(u32, u32)>>,
    /// Length of each level's longest up wire (1 without lengths).
    longest: Vec<u64>,
}

impl Links {
    /// Sort every link into its child's ups and its parent's downs; a link
    /// must join adjacent levels.
    fn of(net: &Network, level: &[u32], lengths: Option<&[u64]>) -> Result<Links, SimError> {
        let nodes = level.len();
        let levels = level.iter().copied().max().unwrap_or(0);
        let mut ups: Vec<Vec<(u32, u32)>> = vec![Vec::new(); nodes];
        let mut downs: Vec<Vec<(u32, u32)>> = vec![Vec::new(); nodes];
        let mut longest = vec![1u64; levels as usize + 1];
        for l in 0..net.link_count() as u32 {
            let (a, b) = net.link(crate::network::LinkId(l));
            let (la, lb) = (level[a.0 as usize], level[b.0 as usize]);
            if la.abs_diff(lb) != 1 {
                return Err(SimError::LinkLevels {
                    link: l,
                    a: la,
                    b: lb,
                });
            }
            let (child, parent) = if la < lb { (a.0, b.0) } else { (b.0, a.0) };
            ups[child as usize].push((l, parent));
            downs[parent as usize].push((l, child));
            if let Some(len) = lengths {
                let lv = level[child as usize] as usize;
                longest[lv] = longest[lv].max(len[l as usize]);
            }
        }
        Ok(Links {
            ups,
            downs,
            longest,
        })
    }
}

/// The block `lo[v] .. hi[v]` of processors under every node, level by
/// level: a switch's children must cover disjoint contiguous blocks.
fn processor_blocks(
    level: &[u32],
    n: u32,
    links: &Links,
) -> Result<(Vec<u32>, Vec<u32>), SimError> {
    let nodes = level.len();
    let mut lo: Vec<u32> = (0..nodes as u32).collect();
    let mut hi: Vec<u32> = (1..=nodes as u32).collect();
    let mut order: Vec<u32> = (0..nodes as u32).collect();
    order.sort_by_key(|&i| level[i as usize]);
    for &v in &order {
        if v < n {
            continue;
        }
        let kids = &links.downs[v as usize];
        if kids.is_empty() {
            return Err(SimError::NoChildren { node: v });
        }
        let l = kids.iter().map(|&(_, c)| lo[c as usize]).min().unwrap();
        let h = kids.iter().map(|&(_, c)| hi[c as usize]).max().unwrap();
        let mut spans: Vec<(u32, u32)> = kids
            .iter()
            .map(|&(_, c)| (lo[c as usize], hi[c as usize]))
            .collect();
        spans.sort_unstable();
        spans.dedup();
        if spans.windows(2).any(|s| s[0].1 != s[1].0) {
            return Err(SimError::ChildBlocks { node: v });
        }
        if spans.len() != kids.len() {
            return Err(SimError::SharedChildren { node: v });
        }
        lo[v as usize] = l;
        hi[v as usize] = h;
    }
    Ok((lo, hi))
}

/// A block of processors `lo .. hi` under a level's nodes and the wires
/// leaving it upward: `(lo, hi, wires)`.
type Block = (u32, u32, u32);

/// Each level's channels: the blocks `(lo, hi, wires)` under its nodes,
/// sorted, nodes over the same block merged; partly shared blocks are
/// refused.
fn level_blocks(
    level: &[u32],
    levels: u32,
    lo: &[u32],
    hi: &[u32],
    ups: &[Vec<(u32, u32)>],
) -> Result<Vec<Vec<Block>>, SimError> {
    let mut blocks: Vec<Vec<Block>> = vec![Vec::new(); levels as usize + 1];
    for v in 0..level.len() {
        blocks[level[v] as usize].push((lo[v], hi[v], ups[v].len() as u32));
    }
    for b in &mut blocks {
        b.sort_unstable();
        let mut merged: Vec<(u32, u32, u32)> = Vec::new();
        for &x in b.iter() {
            match merged.last_mut() {
                Some(m) if m.0 == x.0 && m.1 == x.1 => m.2 += x.2,
                Some(m) if m.1 > x.0 => {
                    return Err(SimError::OverlappingBlocks(m.0, m.1, x.0, x.1))
                }
                _ => merged.push(x),
            }
        }
        *b = merged;
    }
    Ok(blocks)
}
