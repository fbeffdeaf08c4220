//! The sorting fat-tree and its routing algorithm, simulated at message
//! level and costed in bit steps.
//!
//! Messages inside one mesh are routed there. The others climb to their
//! peaks (the lowest common ancestor of source and destination) in `B`
//! batches, batch `rank mod B` where a message's rank orders the messages
//! of its peak level by source; a node keeps the messages of its peak in
//! its sorter and sends the rest up in waves of its channel's capacity.
//! Every node then sorts its peak set by destination, deals it into `B`
//! batches by position, and the batches descend in the mirror image of
//! the ascent. Upward stages alternate between the levels' parities: a
//! node at level `k` handles batch `j` at stage `2j + H - k`; downward,
//! batch `j` at stage `2j + k`. A stage lasts as long as its slowest node
//! (a sort, then the waves out) plus a synchronisation.

mod shape;
#[cfg(test)]
mod tests;

use serde::Serialize;

pub use shape::{Shape, ShapeError};

use super::sorter::{CostModel, Sorter};
use super::Message;

/// The bit-step cost model's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Cost {
    /// Bits of a message body.
    pub body_bits: u32,
    /// A mesh sort or route of `L x L` words costs `mesh_factor · L` word
    /// steps.
    pub mesh_factor: u32,
}

/// The bit steps of each step of the algorithm.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Steps {
    /// 1: messages within a mesh, sorted and routed there.
    pub intra_mesh: u64,
    /// 2: peaks, ranks by prefix sums, upward batches.
    pub batching: u64,
    /// 3: each mesh arranges its messages by batch.
    pub arrange: u64,
    /// 4: the batches climb to their peaks.
    pub up: u64,
    /// 5 and 6: every node sorts its peak set by destination, then by
    /// downward batch.
    pub peak_sorts: u64,
    /// 7: the batches descend to their meshes.
    pub down: u64,
    /// 8: each mesh routes to the terminals.
    pub deliver: u64,
}

impl Steps {
    /// Their sum.
    pub fn total(&self) -> u64 {
        self.intra_mesh
            + self.batching
            + self.arrange
            + self.up
            + self.peak_sorts
            + self.down
            + self.deliver
    }
}

/// The outcome of routing a message set on the sorting fat-tree.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Outcome {
    /// Bit steps by step of the algorithm.
    pub steps: Steps,
    /// Total bit steps.
    pub bit_steps: u64,
    /// Messages that stay in their mesh.
    pub intra_mesh: usize,
    /// Messages that cross the tree.
    pub inter_mesh: usize,
    /// Upward and downward stages.
    pub stages: (u32, u32),
    /// Batch-channel pairs over Lemma 10's bound
    /// `ℓ(M_*j, c) <= Σ_{i<k} ceil(ℓ(M_i, c) / B)`, up or down (none).
    pub lemma10_violations: usize,
    /// The largest `λ_a` of an upward batch and `λ_d` of a downward one,
    /// as `(ℓ, cap)`.
    pub max_batch_load: [(u64, u64); 2],
    /// The fullest sorter: `(messages held, capacity l)`.
    pub max_occupancy: (u64, u64),
}

/// Per-channel counts, channels indexed `2^k + j` for node `j` at level
/// `k` (1..=H).
struct Counts {
    shape: Shape,
    /// `[batch][channel]`: messages of the batch crossing the channel.
    by_batch: Vec<Vec<u64>>,
    /// `[peak][channel]`: messages of the peak level crossing it.
    by_peak: Vec<Vec<u64>>,
}

impl Counts {
    fn new(shape: Shape) -> Counts {
        let channels = 2usize << shape.height();
        Counts {
            shape,
            by_batch: vec![vec![0; channels]; shape.batches as usize],
            by_peak: vec![vec![0; channels]; shape.height() as usize],
        }
    }

    /// Counts a message at terminal `t` with peak `peak` in batch `j`
    /// crossing every channel between its mesh and its peak.
    fn add(&mut self, t: u32, peak: u32, j: u32) {
        let h = self.shape.height();
        let mesh = self.shape.mesh(t);
        for k in peak + 1..=h {
            let c = (1usize << k) + (mesh >> (h - k)) as usize;
            self.by_batch[j as usize][c] += 1;
            self.by_peak[peak as usize][c] += 1;
        }
    }

    /// Lemma 10 violations and the largest batch load `(ℓ, cap)`.
    fn lemma10(&self) -> (usize, (u64, u64)) {
        let (h, b) = (self.shape.height(), u64::from(self.shape.batches));
        let mut violations = 0;
        let mut max = (0, 1);
        for k in 1..=h {
            let cap = u64::from(self.shape.cap(k));
            for c in 1usize << k..2usize << k {
                let bound: u64 = (0..k as usize)
                    .map(|i| self.by_peak[i][c].div_ceil(b))
                    .sum();
                for batch in &self.by_batch {
                    violations += usize::from(batch[c] > bound);
                    if batch[c] * max.1 > max.0 * cap {
                        max = (batch[c], cap);
                    }
                }
            }
        }
        (violations, max)
    }
}

/// Routes `messages` (of degree `degree`, which scales the sorters'
/// capacity) on the sorting fat-tree `shape` and returns the figures.
///
/// # Panics
/// If a message names a terminal outside the network.
pub fn route(shape: Shape, messages: &[Message], degree: u32, cost: Cost) -> Outcome {
    let (n, h, b) = (shape.n, shape.height(), shape.batches);
    let big = shape.terminals();
    assert!(
        messages.iter().all(|m| m.src < big && m.dst < big),
        "a message leaves the network"
    );
    let msg = u64::from((h + 1).next_power_of_two().ilog2() + n + cost.body_bits);
    let counter = u64::from((usize::BITS - messages.len().leading_zeros()).max(1));
    let sync = 2 * u64::from(n);
    let mut out = Outcome::default();
    // Step 2: the inter-mesh messages by peak, ranked by source.
    let mut by_peak: Vec<Vec<Message>> = vec![Vec::new(); h as usize];
    for m in messages {
        let p = shape.peak(m.src, m.dst);
        if p >= h {
            out.intra_mesh += 1;
        } else {
            by_peak[p as usize].push(*m);
        }
    }
    out.inter_mesh = messages.len() - out.intra_mesh;
    let mut up = Counts::new(shape);
    let mut down = Counts::new(shape);
    // Peak sets per node, for the sorters' occupancy and the peak sorts.
    let mut held: Vec<Vec<Message>> = vec![Vec::new(); 1 << h];
    for (p, set) in by_peak.iter_mut().enumerate() {
        set.sort_by_key(|m| (m.src, m.dst));
        for (rank, m) in set.iter().enumerate() {
            up.add(m.src, p as u32, rank as u32 % b);
            held[(1usize << p) + (shape.mesh(m.src) >> (h - p as u32)) as usize].push(*m);
        }
    }
    // Step 6: each node's peak set by destination, dealt into batches.
    for (node, set) in held.iter_mut().enumerate().skip(1) {
        let p = node.ilog2();
        set.sort_by_key(|m| (m.dst, m.src));
        for (pos, m) in set.iter().enumerate() {
            down.add(m.dst, p, pos as u32 % b);
        }
    }
    let (v_up, l_up) = up.lemma10();
    let (v_down, l_down) = down.lemma10();
    out.lemma10_violations = v_up + v_down;
    out.max_batch_load = [l_up, l_down];
    let clock = Clock {
        shape,
        msg,
        sync,
        degree,
    };
    let mesh = u64::from(cost.mesh_factor) * u64::from(shape.mesh_side) * msg;
    out.steps.intra_mesh = mesh;
    out.steps.batching = u64::from(h) * (2 * u64::from(n) + counter);
    out.steps.arrange = mesh;
    let (up_time, up_stages, occupancy) = clock.ascend(&up, &held);
    out.steps.up = up_time;
    out.max_occupancy = occupancy;
    out.steps.peak_sorts = 2
        * (0..h)
            .map(|k| {
                let most = (1usize << k..2usize << k)
                    .map(|v| held[v].len())
                    .max()
                    .unwrap_or(0);
                clock.sort(k, most as u64)
            })
            .max()
            .unwrap_or(0);
    let (down_time, down_stages) = clock.descend(&down, &held);
    out.steps.down = down_time;
    out.stages = (up_stages, down_stages);
    out.steps.deliver = mesh;
    out.bit_steps = out.steps.total();
    out
}

/// Stage timing.
struct Clock {
    shape: Shape,
    /// Bits of a message.
    msg: u64,
    /// Bit steps of a synchronisation.
    sync: u64,
    degree: u32,
}

impl Clock {
    /// Bit steps to sort `r` messages in the sorter of a level-`k` node.
    fn sort(&self, k: u32, r: u64) -> u64 {
        if r == 0 {
            return 0;
        }
        let s = self.shape.sorter_width(k);
        let l = (self.shape.below(k) * u64::from(self.degree))
            .next_power_of_two()
            .max(u64::from(s));
        let l = u32::try_from(l).expect("sorter capacities fit in 32 bits");
        let sorter = Sorter::new(self.msg as u32, s, l).expect("a node's sorter is well formed");
        sorter
            .time(r, &CostModel::default())
            .expect("a node sorts at most its capacity")
    }

    /// Bit steps to send `count` messages over the channel above a node
    /// at level `k`, one per wire per wave.
    fn waves(&self, k: u32, count: u64) -> u64 {
        count.div_ceil(u64::from(self.shape.cap(k))) * self.msg
    }

    /// Step 4: the time, the stages and the fullest sorter.
    fn ascend(&self, up: &Counts, held: &[Vec<Message>]) -> (u64, u32, (u64, u64)) {
        let (h, b) = (self.shape.height(), self.shape.batches);
        let stages = 2 * (b - 1) + h + 1;
        let mut stage_time = vec![0u64; stages as usize];
        let mut occupancy = (0u64, 1u64);
        // Peak messages a node has kept so far.
        let mut kept = vec![0u64; 1 << h];
        for j in 0..b {
            let counts = &up.by_batch[j as usize];
            // Meshes send their batch up.
            let mesh_time = counts[1usize << h..2usize << h]
                .iter()
                .map(|&c| self.waves(h, c))
                .max()
                .unwrap_or(0);
            let t = &mut stage_time[(2 * j) as usize];
            *t = (*t).max(mesh_time);
            for k in (0..h).rev() {
                let stage = (2 * j + h - k) as usize;
                let l = self.shape.below(k) * u64::from(self.degree);
                for v in 1usize << k..2usize << k {
                    let r = counts[2 * v] + counts[2 * v + 1];
                    let going = if k == 0 { 0 } else { counts[v] };
                    let staying = r - going;
                    let cost = self.sort(k, r) + if k == 0 { 0 } else { self.waves(k, going) };
                    stage_time[stage] = stage_time[stage].max(cost);
                    if (kept[v] + r) * occupancy.1 > occupancy.0 * l {
                        occupancy = (kept[v] + r, l);
                    }
                    kept[v] += staying;
                }
            }
        }
        for (v, set) in held.iter().enumerate().skip(1) {
            assert_eq!(kept[v], set.len() as u64, "every message stops at its peak");
        }
        let time = stage_time.iter().sum::<u64>() + u64::from(stages) * self.sync;
        (time, stages, occupancy)
    }

    /// Step 7: the time and the stages.
    fn descend(&self, down: &Counts, held: &[Vec<Message>]) -> (u64, u32) {
        let (h, b) = (self.shape.height(), self.shape.batches);
        let stages = 2 * (b - 1) + h;
        let mut stage_time = vec![0u64; stages as usize];
        for j in 0..b {
            let counts = &down.by_batch[j as usize];
            for k in 0..h {
                let stage = (2 * j + k) as usize;
                for v in 1usize << k..2usize << k {
                    let own = (held[v].len() as u64 + u64::from(b - 1 - j)) / u64::from(b);
                    let from_parent = if k == 0 { 0 } else { counts[v] };
                    let out = self
                        .waves(k + 1, counts[2 * v])
                        .max(self.waves(k + 1, counts[2 * v + 1]));
                    let cost = self.sort(k, own + from_parent) + out;
                    stage_time[stage] = stage_time[stage].max(cost);
                }
            }
        }
        let time = stage_time.iter().sum::<u64>() + u64::from(stages) * self.sync;
        (time, stages)
    }
}
