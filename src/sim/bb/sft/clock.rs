//! Stage timing of Steps 4–7 and the sorters' occupancy, under either
//! [`SftModel`].

use super::{Counts, SftModel, Shape};
use crate::sim::bb::sorter::{CostModel, Sorter};
use crate::sim::bb::Message;

/// Stage timing.
pub(super) struct Clock {
    pub(super) shape: Shape,
    /// Bits of a message.
    pub(super) msg: u64,
    pub(super) degree: u32,
    pub(super) model: SftModel,
}

/// The fullest sorter as `(held, l)`: messages, and cells counting the
/// padding of partly filled `s`-word columns.
pub(super) type Fill = [(u64, u64); 2];

/// Keeps in `fill` the larger of it and `held / l`, as `(held, l)`, for
/// messages and for padded cells.
fn fuller(fill: &mut Fill, held: [u64; 2], l: u64) {
    for (f, h) in fill.iter_mut().zip(held) {
        if h * f.1 > f.0 * l {
            *f = (h, l);
        }
    }
}

impl Clock {
    /// Bit steps of a synchronisation. Lean: a barrier up and back down
    /// the sync tree over the `H` levels of internal nodes (§4.3 "a global
    /// synchronizer", `O(log N)`); conservative: `2·lg N`.
    pub(super) fn sync(&self) -> u64 {
        match self.model {
            SftModel::Lean => 2 * u64::from(self.shape.height()),
            SftModel::Conservative => 2 * u64::from(self.shape.n),
        }
    }

    /// The `(b, s, l)` flexible sorter of a level-`k` node, `l` the
    /// messages below it times the degree (§4.3: `l = n` for `d = 1`).
    fn sorter(&self, k: u32) -> Sorter {
        let s = self.shape.sorter_width(k);
        let l = (self.shape.below(k) * u64::from(self.degree))
            .next_power_of_two()
            .max(u64::from(s));
        let l = u32::try_from(l).expect("sorter capacities fit in 32 bits");
        Sorter::new(self.msg as u32, s, l).expect("a node's sorter is well formed")
    }

    /// The capacity `l` of a level-`k` node's sorter.
    fn capacity(&self, k: u32) -> u64 {
        u64::from(self.sorter(k).l())
    }

    /// Bit steps of one pass of an `s`-word column through the Lemma 9
    /// sorter of a level-`k` node: `b + c·lg s` (`c = 1`).
    fn column(&self, k: u32) -> u64 {
        let s = self.shape.sorter_width(k);
        self.msg + CostModel::default().c * u64::from(s.trailing_zeros())
    }

    /// Bit steps of a full Theorem 2 sort of `r` messages shifted in
    /// through the top of a level-`k` node's sorter.
    fn sort(&self, k: u32, r: u64) -> u64 {
        if r == 0 {
            return 0;
        }
        self.sorter(k)
            .time(r, &CostModel::default())
            .expect("a node sorts at most its capacity")
    }

    /// Bit steps of a Theorem 2 sort of `r` messages already held in the
    /// permuter's cells (Steps 5 and 6): the input shift is not repeated,
    /// and `r ≤ s` (`w = 1`) is one column pass with no permuting step.
    fn resident_sort(&self, k: u32, r: u64) -> u64 {
        let s = u64::from(self.shape.sorter_width(k));
        match r {
            0 => 0,
            r if r <= s => self.column(k),
            r => self.sort(k, r) - self.msg * r.div_ceil(s),
        }
    }

    /// Bit steps to send `count` messages over the channel above a node
    /// at level `k`, one per wire per wave.
    fn waves(&self, k: u32, count: u64) -> u64 {
        count.div_ceil(u64::from(self.shape.cap(k))) * self.msg
    }

    /// Lean: `cols` columns pass once each through the Lemma 9 sorter
    /// while the waves `out` leave as the columns exit (§4.3, Step 4: "as
    /// the messages exit the sorter, they are already properly organized
    /// into waves. Those destined for the parent are sent out
    /// immediately"): the slower of the two streams, the waves starting
    /// one column pass late.
    fn pipelined(&self, k: u32, cols: u64, out: u64) -> u64 {
        if cols == 0 {
            return 0;
        }
        let column = self.column(k);
        (cols * column).max(column + out)
    }

    /// Step 4 at the level-`k` node `v`: columns of the batch shifted in
    /// by the children's waves, and the messages leaving upward.
    fn up_stage(&self, k: u32, v: usize, counts: &[u64]) -> (u64, u64) {
        let (left, right) = (counts[2 * v], counts[2 * v + 1]);
        let child = u64::from(self.shape.cap(k + 1));
        let cols = left.div_ceil(child).max(right.div_ceil(child));
        let going = if k == 0 { 0 } else { counts[v] };
        let time = match self.model {
            SftModel::Conservative => {
                self.sort(k, left + right) + if k == 0 { 0 } else { self.waves(k, going) }
            }
            // The root keeps every message it receives: nothing to sort.
            SftModel::Lean if k == 0 => 0,
            SftModel::Lean => self.pipelined(k, cols, self.waves(k, going)),
        };
        (time, cols)
    }

    /// Step 4: the time, the stages and the fullest sorter (its peak
    /// messages so far plus the arriving batch, padded to whole columns).
    pub(super) fn ascend(&self, up: &Counts, held: &[Vec<Message>]) -> (u64, u32, Fill) {
        let (h, b) = (self.shape.height(), self.shape.batches);
        let stages = 2 * (b - 1) + h + 1;
        let mut stage_time = vec![0u64; stages as usize];
        let mut fullest = [(0u64, 1u64); 2];
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
                let s = u64::from(self.shape.sorter_width(k));
                let l = self.capacity(k);
                for v in 1usize << k..2usize << k {
                    let r = counts[2 * v] + counts[2 * v + 1];
                    let going = if k == 0 { 0 } else { counts[v] };
                    let (time, cols) = self.up_stage(k, v, counts);
                    stage_time[stage] = stage_time[stage].max(time);
                    fuller(&mut fullest, [kept[v] + r, kept[v] + cols * s], l);
                    kept[v] += r - going;
                }
            }
        }
        for (v, set) in held.iter().enumerate().skip(1) {
            assert_eq!(kept[v], set.len() as u64, "every message stops at its peak");
        }
        let time = stage_time.iter().sum::<u64>() + u64::from(stages) * self.sync();
        (time, stages, fullest)
    }

    /// Steps 5 and 6: the slowest level's two sorts of its largest peak
    /// set, and the fullest sorter (the set padded to `w` whole columns).
    pub(super) fn peak_sorts(&self, held: &[Vec<Message>]) -> (u64, Fill) {
        let mut fullest = [(0u64, 1u64); 2];
        let mut time = 0;
        for k in 0..self.shape.height() {
            let most = (1usize << k..2usize << k)
                .map(|v| held[v].len() as u64)
                .max()
                .unwrap_or(0);
            let s = u64::from(self.shape.sorter_width(k));
            let w = most.div_ceil(s).next_power_of_two();
            fuller(&mut fullest, [most, w * s], self.capacity(k));
            let sort = match self.model {
                SftModel::Lean => self.resident_sort(k, most),
                SftModel::Conservative => self.sort(k, most),
            };
            time = time.max(2 * sort);
        }
        (time, fullest)
    }

    /// Step 7: the time, the stages and the fullest sorter (its peak
    /// messages not yet sent down plus the batch arriving from the
    /// parent, padded to whole columns).
    pub(super) fn descend(&self, down: &Counts, held: &[Vec<Message>]) -> (u64, u32, Fill) {
        let (h, b) = (self.shape.height(), self.shape.batches);
        let stages = 2 * (b - 1) + h;
        let mut stage_time = vec![0u64; stages as usize];
        let mut fullest = [(0u64, 1u64); 2];
        let mut sent = vec![0u64; 1 << h];
        for j in 0..b {
            let counts = &down.by_batch[j as usize];
            for k in 0..h {
                let stage = (2 * j + k) as usize;
                let s = u64::from(self.shape.sorter_width(k));
                let l = self.capacity(k);
                for v in 1usize << k..2usize << k {
                    let own = (held[v].len() as u64 + u64::from(b - 1 - j)) / u64::from(b);
                    let from_parent = if k == 0 { 0 } else { counts[v] };
                    let arriving = if k == 0 {
                        0
                    } else {
                        from_parent.div_ceil(u64::from(self.shape.cap(k)))
                    };
                    let left = held[v].len() as u64 - sent[v];
                    fuller(&mut fullest, [left + from_parent, left + arriving * s], l);
                    sent[v] += own;
                    let out = self
                        .waves(k + 1, counts[2 * v])
                        .max(self.waves(k + 1, counts[2 * v + 1]));
                    let cost = match self.model {
                        SftModel::Conservative => self.sort(k, own + from_parent) + out,
                        SftModel::Lean => self.pipelined(k, own.div_ceil(s) + arriving, out),
                    };
                    stage_time[stage] = stage_time[stage].max(cost);
                }
            }
        }
        let time = stage_time.iter().sum::<u64>() + u64::from(stages) * self.sync();
        (time, stages, fullest)
    }
}
