//! The routing algorithm of the pruned butterfly, simulated at message
//! level and costed in bit steps.
//!
//! Routing runs in `n = lg N` stages. Stage `i` moves every message whose
//! peak (the level of the lowest common ancestor of its current leaf and
//! its destination) is `i` from its subtree `T` (rooted at level `i + 1`)
//! into the sibling `T'`. `T` splits its messages into
//! `λ_T = max_c ceil(ℓ_c / cap(c))` batches by rank modulo `λ_T`; each
//! batch is compressed to the parent node `P` (message `h` to parent vertex
//! `h`), sorted by destination there, and expanded greedily into `T'`:
//! a message that loses a conflict is *sidetracked* to another leaf of
//! `T'`, from where a later stage (its peak is now lower in the tree, so
//! a larger level) moves it on.
//!
//! Choices where the paper is silent or inexact (taken here as follows):
//! - A batch is compressed to the parent vertex `<i, j_P, h>`, `h <
//!   size(i)`, not to the root of `T` (`h < size(i + 1)`, which overflows
//!   at even `i + 1`, where a batch may hold `2 size(i + 1)` messages); so
//!   `λ_T` counts the channel from `T` to `P` as well.
//! - `ceil(ℓ / cap)`, not the paper's "right shift with truncation" (a
//!   floor, which would let a batch exceed a channel).
//! - Messages compare by the key `(dst, src, id)`: rule (b) sidetracks the
//!   larger key, the sort orders by it, and a leaf's messages of one peak
//!   leave in the order they were queued.
//! - Two sidetracked messages at one vertex take one edge each, the smaller
//!   key the direction bit's edge, and the bit does not toggle; direction
//!   bits start "left" once and are never reset.
//! - `T -> T'` runs for every left sibling, then every right one
//!   (half-duplex), so a stage costs twice its batches.

mod expand;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use serde::Serialize;

use super::{Levels, Message};
use expand::{Expansion, Vertex};

/// The bit-step cost model's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Cost {
    /// Bits of a message body.
    pub body_bits: u32,
}

/// One stage's figures.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Stage {
    /// Messages with their peak at this level when the stage began.
    pub messages: usize,
    /// The largest `λ_T` of the stage's subtrees (0 if none had messages).
    pub max_lambda_t: u32,
    /// Messages sidetracked in this stage.
    pub sidetracked: usize,
    /// Bit steps of the stage.
    pub bit_steps: u64,
}

/// The outcome of routing a message set on the pruned butterfly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Outcome {
    /// Stage by stage, levels `0..n`.
    pub stages: Vec<Stage>,
    /// Messages delivered (every one, or routing panics).
    pub delivered: usize,
    /// Sidetracks over the whole routing.
    pub sidetracks: usize,
    /// Total bit steps.
    pub bit_steps: u64,
    /// Edges used by two messages in a compression (Corollary 1: none).
    pub compression_conflicts: usize,
    /// The largest `ℓ(B, c) / cap(c)` over batches `B` and channels `c` of
    /// their subtree, as `(ℓ, cap)` (Lemma 4: at most 1).
    pub max_batch_load: (u32, u32),
    /// Conflicts into a channel not all of whose edges carried active
    /// messages (Lemma 1: none).
    pub lemma1_violations: usize,
    /// Conflicts in expansions.
    pub conflicts: usize,
    /// The most sidetracked messages one processor held between batches
    /// (Lemma 7: at most `(d + 1) lg N + d`).
    pub max_held: u32,
}

impl Outcome {
    /// `Σ_i max_T λ_T` (Theorem 1: at most `2 ceil(λ) lg N`).
    pub fn lambda_sum(&self) -> u64 {
        self.stages.iter().map(|s| u64::from(s.max_lambda_t)).sum()
    }
}

/// A message in flight.
#[derive(Clone, Copy, Debug)]
struct Flight {
    /// The comparison key `(dst, src, id)`.
    key: (u32, u32, u32),
    /// The leaf it is at.
    cur: u32,
    /// When it was queued at `cur` (orders a leaf's messages).
    seq: u64,
    /// Whether it is held at `cur` as a sidetracked message.
    held: bool,
}

impl Flight {
    fn dst(&self) -> u32 {
        self.key.0
    }
}

/// Routes `messages` on the pruned butterfly of `levels`, delivering every
/// one, and returns the figures of the routing.
///
/// # Panics
/// If a message names a terminal outside the network, or if the routing
/// fails to deliver a message or lowers no peak (a defect).
pub fn route(levels: Levels, messages: &[Message], cost: Cost) -> Outcome {
    let mut router = Router::new(levels, messages, cost);
    for i in 0..levels.n {
        router.stage(i);
    }
    router.finish()
}

/// The state of one routing.
struct Router {
    levels: Levels,
    cost: Cost,
    flights: Vec<Flight>,
    /// Undelivered messages by current peak.
    by_peak: Vec<Vec<u32>>,
    /// Sidetracked messages held per leaf.
    held: Vec<u32>,
    /// Direction bits of every vertex.
    expansion: Expansion,
    seq: u64,
    out: Outcome,
    /// Bits of the counters (enough for every message).
    counter_bits: u32,
}

impl Router {
    fn new(levels: Levels, messages: &[Message], cost: Cost) -> Router {
        let n = levels.n;
        let big = levels.terminals();
        let mut by_peak = vec![Vec::new(); n as usize + 1];
        let mut flights = Vec::with_capacity(messages.len());
        for (id, m) in messages.iter().enumerate() {
            assert!(
                m.src < big && m.dst < big,
                "message {id} leaves the network"
            );
            let id = u32::try_from(id).expect("fewer than 2^32 messages");
            flights.push(Flight {
                key: (m.dst, m.src, id),
                cur: m.src,
                seq: u64::from(id),
                held: false,
            });
            by_peak[levels.peak(m.src, m.dst) as usize].push(id);
        }
        let delivered = by_peak[n as usize].len();
        let counter_bits = (usize::BITS - messages.len().leading_zeros()).max(1);
        Router {
            levels,
            cost,
            seq: flights.len() as u64,
            flights,
            by_peak,
            held: vec![0; big as usize],
            expansion: Expansion::new(levels),
            out: Outcome {
                delivered,
                max_batch_load: (0, 1),
                ..Outcome::default()
            },
            counter_bits,
        }
    }

    /// Stage `i`: every message with peak `i` crosses into its sibling
    /// subtree.
    fn stage(&mut self, i: u32) {
        let n = self.levels.n;
        let mut mi = std::mem::take(&mut self.by_peak[i as usize]);
        let fl = &self.flights;
        mi.sort_unstable_by_key(|&m| (fl[m as usize].cur, fl[m as usize].seq));
        let shift = n - i - 1;
        let mut stage = Stage {
            messages: mi.len(),
            ..Stage::default()
        };
        let before = self.out.sidetracks;
        // The subtrees' runs of messages, found before any moves.
        let mut runs = Vec::new();
        let mut start = 0;
        while start < mi.len() {
            let t = self.flights[mi[start] as usize].cur >> shift;
            let len = mi[start..].partition_point(|&m| self.flights[m as usize].cur >> shift == t);
            runs.push((t, start..start + len));
            start += len;
        }
        // Left siblings first, then right ones (half-duplex).
        for side in 0..2u32 {
            for (t, run) in &runs {
                if t & 1 == side {
                    let lambda = self.subtree(i, *t, &mi[run.clone()]);
                    stage.max_lambda_t = stage.max_lambda_t.max(lambda);
                }
            }
        }
        stage.sidetracked = self.out.sidetracks - before;
        stage.bit_steps = self.stage_cost(i, stage.max_lambda_t);
        self.out.bit_steps += stage.bit_steps;
        self.out.stages.push(stage);
    }

    /// `λ_T` of the messages `mt` (sorted by leaf and queue order) of the
    /// subtree `t` at level `i + 1`: the largest `ceil(ℓ_c / cap(c))` over
    /// the channels of `T` and the one above it.
    fn lambda_t(&self, i: u32, mt: &[u32]) -> u32 {
        let mut lambda = 0;
        self.channel_loads(i, mt, |run, cap| lambda = lambda.max(run.div_ceil(cap)));
        lambda
    }

    /// Calls `seen(ℓ, cap)` with the running count `ℓ` of `msgs` (sorted by
    /// leaf) below each channel of the subtree at level `i + 1` and the
    /// one above it, for every message counted; the last call per channel
    /// gives its load.
    fn channel_loads(&self, i: u32, msgs: &[u32], mut seen: impl FnMut(u32, u32)) {
        let n = self.levels.n;
        for lev in i + 1..=n {
            let cap = self.levels.cap(lev);
            let shift = n - lev;
            let mut run = 0u32;
            let mut prev = u32::MAX;
            for &m in msgs {
                let node = self.flights[m as usize].cur >> shift;
                if node != prev {
                    run = 0;
                    prev = node;
                }
                run += 1;
                seen(run, cap);
            }
        }
    }

    /// Routes the messages `mt` of subtree `t` (level `i + 1`) into its
    /// sibling, batch by batch; returns `λ_T`.
    fn subtree(&mut self, i: u32, t: u32, mt: &[u32]) -> u32 {
        let lambda = self.lambda_t(i, mt);
        for b in 0..lambda {
            let batch: Vec<u32> = mt
                .iter()
                .skip(b as usize)
                .step_by(lambda as usize)
                .copied()
                .collect();
            self.batch(i, t, &batch);
        }
        lambda
    }

    /// Routes one batch (sorted by leaf and queue order) from subtree `t`
    /// at level `i + 1` into its sibling.
    fn batch(&mut self, i: u32, t: u32, batch: &[u32]) {
        self.check_batch_load(i, batch);
        self.compress(i, batch);
        for &m in batch {
            let f = &mut self.flights[m as usize];
            if f.held {
                f.held = false;
                self.held[f.cur as usize] -= 1;
            }
        }
        // Sort by key onto the parent's vertices, and expand into T'.
        let mut sorted: Vec<u32> = batch.to_vec();
        sorted.sort_unstable_by_key(|&m| self.flights[m as usize].key);
        let starts: Vec<(Vertex, (u32, u32, u32))> = sorted
            .iter()
            .enumerate()
            .map(|(h, &m)| {
                (
                    Vertex {
                        level: i,
                        node: t >> 1,
                        k: h as u32,
                    },
                    self.flights[m as usize].key,
                )
            })
            .collect();
        let arrivals = self.expansion.run(i, t ^ 1, &starts, &mut self.out);
        for (leaf, key, active) in arrivals {
            let m = key.2;
            let f = &mut self.flights[m as usize];
            f.cur = leaf;
            if active {
                assert_eq!(leaf, f.dst(), "an active message reached another leaf");
                self.out.delivered += 1;
                continue;
            }
            let peak = self.levels.peak(leaf, f.dst());
            assert!(peak > i, "a sidetrack must lower the peak");
            f.seq = self.seq;
            f.held = true;
            self.seq += 1;
            self.held[leaf as usize] += 1;
            self.out.max_held = self.out.max_held.max(self.held[leaf as usize]);
            self.out.sidetracks += 1;
            self.by_peak[peak as usize].push(m);
        }
    }

    /// Records the batch's largest channel load (Lemma 4).
    fn check_batch_load(&mut self, i: u32, batch: &[u32]) {
        let mut most = self.out.max_batch_load;
        self.channel_loads(i, batch, |run, cap| {
            if u64::from(run) * u64::from(most.1) > u64::from(most.0) * u64::from(cap) {
                most = (run, cap);
            }
        });
        self.out.max_batch_load = most;
    }

    /// Compresses the batch to the parent's vertices, message `h` (in leaf
    /// and queue order) to vertex `h`, and counts edges two messages share.
    fn compress(&mut self, i: u32, batch: &[u32]) {
        let n = self.levels.n;
        let mut edges: Vec<(u32, u32, u32)> = Vec::with_capacity(batch.len());
        for lev in (i + 1..=n).rev() {
            edges.clear();
            let (below, above) = (self.levels.size(lev), self.levels.size(lev - 1));
            for (h, &m) in batch.iter().enumerate() {
                let h = h as u32;
                let leaf = self.flights[m as usize].cur;
                edges.push((leaf >> (n - lev), h % below, h % above));
            }
            edges.sort_unstable();
            self.out.compression_conflicts += edges.windows(2).filter(|w| w[0] == w[1]).count();
        }
    }

    /// The bit steps of stage `i` with the largest `λ_T` `lambda`.
    fn stage_cost(&self, i: u32, lambda: u32) -> u64 {
        let n = u64::from(self.levels.n);
        let h = n - u64::from(i) - 1;
        let msg = 1
            + u64::from(self.levels.size(i).ilog2())
            + n
            + u64::from(self.levels.n.next_power_of_two().ilog2())
            + u64::from(self.cost.body_bits);
        let prefix = 2 * (h + 1) + u64::from(self.counter_bits);
        let sort = 4 * (h + 2) + 2 * msg;
        let batch = prefix + (h + 1 + msg) + sort + (h + 1 + msg + n);
        let setup = 2 * prefix + h + 1;
        setup + 2 * u64::from(lambda) * batch
    }

    fn finish(self) -> Outcome {
        assert!(
            self.by_peak
                .iter()
                .take(self.levels.n as usize)
                .all(Vec::is_empty),
            "every message is delivered"
        );
        assert_eq!(
            self.out.delivered,
            self.flights.len(),
            "every message is delivered"
        );
        self.out
    }
}
