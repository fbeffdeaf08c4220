//! The step loop of model A on a walk. The state is the list of buffered
//! packets sorted by (node, arrival sequence), so a node's run in it is
//! its FIFO buffer; each step takes every run's head, moves the heads,
//! merges the arrivals (sequence `2t + in-edge`, after everything already
//! buffered, 0-edge before 1-edge) and applies the capacity rule per run.
//! Memory is proportional to the packets, not to the nodes.

use super::super::walk::Walk;
use super::super::Priorities;
use super::{Acceptance, DropPolicy};

/// What became of a packet, and when (the step numbers of the walk).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fate {
    /// Reached the last level in this step.
    Delivered {
        /// The step of arrival.
        step: u64,
    },
    /// Dropped from the buffer of a node at walk step `at` in this step.
    Dropped {
        /// The step of the drop.
        step: u64,
        /// The walk step (`1 .. n`) of the node that dropped it.
        at: u32,
    },
}

/// The capacity rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rules {
    /// Buffer capacity, at least 1.
    pub q: u32,
    /// Which packets go when a buffer overflows.
    pub policy: DropPolicy,
    /// Whether a departing head frees its place in the same step.
    pub acceptance: Acceptance,
}

/// A whole run of model A.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AtomRun {
    /// Each packet's fate.
    pub fate: Vec<Fate>,
    /// Steps until the network was empty.
    pub steps: u64,
    /// The most packets any buffer of walk steps `1 .. n` held at the end
    /// of a step.
    pub max_occupancy: u32,
}

/// One buffered packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    /// `j N + row` for the node at walk step `j`.
    node: u64,
    /// The order of arrival in the node's buffer.
    seq: u64,
    /// The packet.
    packet: u32,
}

/// The network: packet `p` walks from `starts[p]` toward `dests[p]`; the
/// buffers of walk step 0 hold the packets in index order and are
/// unbounded, walk step `n` is a sink.
pub(crate) fn run_walk(
    n: u32,
    walk: Walk,
    starts: &[u64],
    dests: &[u64],
    prio: &Priorities,
    rules: Rules,
) -> AtomRun {
    let mut fate = vec![Fate::Delivered { step: 0 }; starts.len()];
    let mut state: Vec<Entry> = if n == 0 {
        Vec::new()
    } else {
        (0..starts.len())
            .map(|p| Entry {
                node: starts[p],
                seq: p as u64,
                packet: p as u32,
            })
            .collect()
    };
    state.sort_unstable();
    let (mut step, mut max_occupancy) = (0u64, 0u32);
    while !state.is_empty() {
        step += 1;
        let moved = depart(n, walk, starts, dests, &state, step, &mut fate);
        state = settle(n, moved, step, prio, rules, &mut fate, &mut max_occupancy);
    }
    AtomRun {
        fate,
        steps: step,
        max_occupancy,
    }
}

/// The packets that stay, the nodes that sent their head, and the heads'
/// arrivals (sorted), after step `step` takes every buffer's head.
struct Moved {
    stayers: Vec<Entry>,
    departed: Vec<u64>,
    arrivals: Vec<Entry>,
}

/// Every nonempty buffer sends its head (chosen from the start-of-step
/// state); heads reaching walk step `n` are delivered.
fn depart(
    n: u32,
    walk: Walk,
    starts: &[u64],
    dests: &[u64],
    state: &[Entry],
    step: u64,
    fate: &mut [Fate],
) -> Moved {
    let rows = 1u64 << n;
    let mut moved = Moved {
        stayers: Vec::with_capacity(state.len()),
        departed: Vec::new(),
        arrivals: Vec::new(),
    };
    for (i, e) in state.iter().enumerate() {
        if i > 0 && state[i - 1].node == e.node {
            moved.stayers.push(*e);
            continue;
        }
        moved.departed.push(e.node);
        let p = e.packet as usize;
        let j = (e.node / rows) as u32;
        if j + 1 == n {
            fate[p] = Fate::Delivered { step };
            continue;
        }
        let (s, d) = (starts[p], dests[p]);
        moved.arrivals.push(Entry {
            node: (j as u64 + 1) * rows + walk.row(n, s, d, j + 1),
            seq: 2 * step + walk.in_edge(n, s, d, j),
            packet: e.packet,
        });
    }
    moved.arrivals.sort_unstable();
    moved
}

/// Merges the arrivals into the buffers and applies the capacity rule to
/// each buffer of walk steps `1 .. n`; returns the new state.
fn settle(
    n: u32,
    moved: Moved,
    step: u64,
    prio: &Priorities,
    rules: Rules,
    fate: &mut [Fate],
    max_occupancy: &mut u32,
) -> Vec<Entry> {
    let rows = 1u64 << n;
    let merged = merge(moved.stayers, moved.arrivals);
    let mut next = Vec::with_capacity(merged.len());
    let mut departed = moved.departed.iter().peekable();
    let mut start = 0;
    while start < merged.len() {
        let node = merged[start].node;
        let end = start + merged[start..].partition_point(|e| e.node == node);
        let run = &merged[start..end];
        start = end;
        if node < rows {
            // Walk step 0: the unbounded injection buffers.
            next.extend_from_slice(run);
            continue;
        }
        while departed.next_if(|&&d| d < node).is_some() {}
        let sent = departed.next_if(|&&d| d == node).is_some();
        let stayed = run.iter().filter(|e| e.seq < 2 * step).count() as u64;
        let arrived = run.len() as u64 - stayed;
        let held = match rules.acceptance {
            Acceptance::Snapshot => stayed + u64::from(sent),
            Acceptance::DeparturesFirst => stayed,
        };
        let excess = (held + arrived).saturating_sub(rules.q as u64) as usize;
        let victims = victims(run, excess, rules.policy, prio);
        for (i, e) in run.iter().enumerate() {
            if victims.contains(&i) {
                fate[e.packet as usize] = Fate::Dropped {
                    step,
                    at: (node / rows) as u32,
                };
            } else {
                next.push(*e);
            }
        }
        let kept = (run.len() - victims.len()) as u32;
        debug_assert!(kept <= rules.q);
        *max_occupancy = (*max_occupancy).max(kept);
    }
    next
}

/// The positions in `run` (a buffer after this step's arrivals) of the
/// `excess` packets to drop: the lowest priorities (push-out) or the last
/// arrivals (tail drop).
fn victims(run: &[Entry], excess: usize, policy: DropPolicy, prio: &Priorities) -> Vec<usize> {
    debug_assert!(excess <= run.len());
    if excess == 0 {
        return Vec::new();
    }
    match policy {
        DropPolicy::PushOut => {
            let mut by_priority: Vec<usize> = (0..run.len()).collect();
            by_priority.sort_unstable_by_key(|&i| prio.priority(run[i].packet as usize));
            by_priority.truncate(excess);
            by_priority
        }
        DropPolicy::TailDrop => (run.len() - excess..run.len()).collect(),
    }
}

/// Two lists sorted by (node, seq) merged into one.
fn merge(a: Vec<Entry>, b: Vec<Entry>) -> Vec<Entry> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    loop {
        let take_a = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => x < y,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        let e = if take_a { a.next() } else { b.next() };
        out.extend(e);
    }
    out
}
