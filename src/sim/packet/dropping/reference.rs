//! Slow, obviously correct versions of both models for the cross-checks:
//! explicit node paths from [`Butterfly::path`], explicit groups and
//! queues in ordered maps, sorting by the priority written out.

use super::atom::engine::{AtomRun, Fate, Rules};
use super::{Acceptance, Capacity, DropPolicy, Priorities};
use crate::sim::packet::butterfly::{Butterfly, Node};
use std::cmp::Reverse;
use std::collections::{BTreeMap, VecDeque};

/// The nodes of a packet from input `s` to output `d` of one butterfly.
pub(super) fn forward_path(b: &Butterfly, s: u64, d: u64) -> Vec<Node> {
    b.path(s, d).collect()
}

/// The nodes of copy 2 from `<n, x>` down to `<0, d>`: the butterfly path
/// from `d` to `x`, walked backwards.
pub(super) fn return_path(b: &Butterfly, x: u64, d: u64) -> Vec<Node> {
    let mut path: Vec<Node> = b.path(d, x).collect();
    path.reverse();
    path
}

/// Sorts packets from highest priority to lowest: rank, then key, then
/// lower index.
fn by_priority(packets: &mut [usize], prio: &Priorities) {
    packets.sort_by_key(|&p| (Reverse(prio.rank[p]), Reverse(prio.key[p]), p));
}

/// Model C by lists: before each hop, every group (edge = the pair of
/// nodes, or node entered) lists its live packets, sorts them, and all
/// but the first `q` die.
pub(super) fn slow_lock(
    paths: &[Vec<Node>],
    prio: &Priorities,
    q: u32,
    cap: Capacity,
) -> Vec<bool> {
    let mut alive = vec![true; paths.len()];
    let hops = paths.first().map_or(0, |p| p.len() - 1);
    for j in 0..hops {
        let mut groups: BTreeMap<(Node, Option<Node>), Vec<usize>> = BTreeMap::new();
        for p in (0..paths.len()).filter(|&p| alive[p]) {
            let key = match cap {
                Capacity::PerEdge => (paths[p][j], Some(paths[p][j + 1])),
                Capacity::PerNode => (paths[p][j + 1], None),
            };
            groups.entry(key).or_default().push(p);
        }
        for mut group in groups.into_values() {
            by_priority(&mut group, prio);
            for &p in group.iter().skip(q as usize) {
                alive[p] = false;
            }
        }
    }
    alive
}

/// Model A by queues: one `VecDeque` per node; each step every nonempty
/// queue's head moves (chosen before any move), then each receiving node
/// takes its arrivals in in-edge order under the rules, checking the
/// capacity after every step.
pub(super) fn slow_atom(paths: &[Vec<Node>], prio: &Priorities, rules: Rules) -> AtomRun {
    let hops = paths.first().map_or(0, |p| p.len() - 1);
    let mut fate = vec![Fate::Delivered { step: 0 }; paths.len()];
    let mut queues: BTreeMap<Node, VecDeque<usize>> = BTreeMap::new();
    let mut at = vec![0usize; paths.len()];
    if hops > 0 {
        for (p, path) in paths.iter().enumerate() {
            queues.entry(path[0]).or_default().push_back(p);
        }
    }
    let (mut step, mut max_occupancy) = (0u64, 0u32);
    let q = rules.q as usize;
    while !queues.is_empty() {
        step += 1;
        let start: BTreeMap<Node, usize> = queues.iter().map(|(v, q)| (*v, q.len())).collect();
        let heads: Vec<usize> = queues.values_mut().filter_map(|q| q.pop_front()).collect();
        let mut arrivals: BTreeMap<Node, Vec<(u64, usize)>> = BTreeMap::new();
        for p in heads {
            let (from, to) = (paths[p][at[p]], paths[p][at[p] + 1]);
            at[p] += 1;
            if at[p] == hops {
                fate[p] = Fate::Delivered { step };
                continue;
            }
            // The hop joining levels l and l + 1 may flip bit l; the
            // 0-edge is the one from the sender with that bit clear.
            let edge = from.row >> from.level.min(to.level) & 1;
            arrivals.entry(to).or_default().push((edge, p));
        }
        for (node, mut arrived) in arrivals {
            arrived.sort();
            let held = start.get(&node).copied().unwrap_or(0);
            let queue = queues.entry(node).or_default();
            match rules.policy {
                DropPolicy::TailDrop => {
                    let mut accepted = 0;
                    for (_, p) in arrived {
                        let room = match rules.acceptance {
                            Acceptance::Snapshot => held + accepted < q,
                            Acceptance::DeparturesFirst => queue.len() < q,
                        };
                        if room {
                            queue.push_back(p);
                            accepted += 1;
                        } else {
                            fate[p] = Fate::Dropped {
                                step,
                                at: at[p] as u32,
                            };
                        }
                    }
                }
                DropPolicy::PushOut => {
                    let count = arrived.len();
                    let mut dropped = 0;
                    queue.extend(arrived.into_iter().map(|(_, p)| p));
                    loop {
                        let over = match rules.acceptance {
                            Acceptance::Snapshot => held + count - dropped > q,
                            Acceptance::DeparturesFirst => queue.len() > q,
                        };
                        if !over {
                            break;
                        }
                        let mut order: Vec<usize> = queue.iter().copied().collect();
                        by_priority(&mut order, prio);
                        let victim = *order.last().expect("an overfull queue is not empty");
                        queue.retain(|&p| p != victim);
                        fate[victim] = Fate::Dropped {
                            step,
                            at: at[victim] as u32,
                        };
                        dropped += 1;
                    }
                }
            }
        }
        queues.retain(|_, q| !q.is_empty());
        for (node, queue) in &queues {
            if node.level != paths[0][0].level {
                assert!(queue.len() <= q, "{node:?} holds {}", queue.len());
                max_occupancy = max_occupancy.max(queue.len() as u32);
            }
        }
    }
    AtomRun {
        fate,
        steps: step,
        max_occupancy,
    }
}
