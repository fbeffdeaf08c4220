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
//! plus a synchronisation; [`SftModel`] says what a node's work costs.

mod clock;
mod shape;
#[cfg(test)]
mod tests;

use serde::Serialize;

pub use shape::{Shape, ShapeError};

use super::Message;
use clock::Clock;

/// How Steps 4–7 are costed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum SftModel {
    /// The paper's Step 4 as written (§4.3): each column of a batch passes
    /// once through the Lemma 9 column sorter (`b + lg s`) and the waves
    /// leave as the columns exit; the root sorts nothing on the way up;
    /// Step 7 mirrors it. Steps 5 and 6 are full Theorem 2 sorts of the
    /// peak sets already held in the cells (no second input shift; one
    /// column pass when `r ≤ s`). A barrier costs `2H`.
    #[default]
    Lean,
    /// Every active node runs a full Theorem 2 sort of its batch (input
    /// shift, up to 16 Columnsort phases) before sending, the root
    /// included; Steps 5 and 6 shift their input in again; a barrier
    /// costs `2 lg N`.
    Conservative,
}

/// The bit-step cost model's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Cost {
    /// Bits of a message body.
    pub body_bits: u32,
    /// A mesh sort or route of `L x L` words costs `mesh_factor · L` word
    /// steps.
    pub mesh_factor: u32,
    /// How Steps 4–7 are costed.
    pub model: SftModel,
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
    /// The fullest sorter: `(messages held, capacity l)`, over the ascent
    /// (peak messages kept so far plus the arriving batch), the peak sorts
    /// and the descent (peak messages not yet sent plus the parent's
    /// batch). §4.3 bounds it by `l = d·n`.
    pub max_occupancy: (u64, u64),
    /// The same counting cells: each arriving batch padded to whole
    /// `s`-word columns, each peak sort to `w·s`. The paper ignores this
    /// integrality, and it can pass `l` slightly (reported, not asserted).
    pub max_padded_occupancy: (u64, u64),
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
        degree,
        model: cost.model,
    };
    let mesh = u64::from(cost.mesh_factor) * u64::from(shape.mesh_side) * msg;
    out.steps.intra_mesh = mesh;
    out.steps.batching = u64::from(h) * (2 * u64::from(n) + counter);
    out.steps.arrange = mesh;
    let (up_time, up_stages, fill_up) = clock.ascend(&up, &held);
    out.steps.up = up_time;
    let (peak_time, fill_peak) = clock.peak_sorts(&held);
    out.steps.peak_sorts = peak_time;
    let (down_time, down_stages, fill_down) = clock.descend(&down, &held);
    out.steps.down = down_time;
    let fullest = |i: usize| {
        [fill_up[i], fill_peak[i], fill_down[i]]
            .into_iter()
            .fold((0, 1), |a, f| if f.0 * a.1 > a.0 * f.1 { f } else { a })
    };
    out.max_occupancy = fullest(0);
    out.max_padded_occupancy = fullest(1);
    out.stages = (up_stages, down_stages);
    out.steps.deliver = mesh;
    out.bit_steps = out.steps.total();
    out
}
