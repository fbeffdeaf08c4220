//! A slow, obvious simulation of the same rules for cross-checking the
//! engine: maps keyed by node, a snapshot of every queue's length taken at
//! the start of the step, every switch's decision made against the
//! untouched state, and only then all departures and arrivals applied.

use std::collections::{BTreeMap, VecDeque};

use super::Until;
use crate::sim::packet::butterfly::{Butterfly, InEdge, Node, OutEdge};
use crate::sim::packet::traffic::Packet;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum It {
    Packet(usize),
    Token,
}

/// What the reference measured.
pub(super) struct RefRun {
    pub arrivals: Vec<u64>,
    pub peaks: BTreeMap<(Node, InEdge), usize>,
    pub packet_hops: u64,
    pub token_hops: u64,
    pub steps: u64,
}

/// A switch's decision for one step.
struct Act {
    from: Node,
    /// The queues (or the stream, as `None`) it takes from.
    takes: Vec<Option<InEdge>>,
    sends: Vec<(OutEdge, It)>,
}

struct Sim<'a> {
    b: Butterfly,
    q: usize,
    packets: &'a [Packet],
    streams: Vec<VecDeque<It>>,
    queues: BTreeMap<(Node, InEdge), VecDeque<It>>,
    mode1: BTreeMap<Node, bool>,
}

impl Sim<'_> {
    fn has_room(&self, start: &BTreeMap<(Node, InEdge), usize>, from: Node, e: OutEdge) -> bool {
        let to = self.b.follow(from, e);
        to.level == self.b.n || start[&(to, Butterfly::arrival_edge(from))] < self.q
    }

    /// The decision of `v` from the start-of-step state; updates its mode.
    fn decide(&mut self, v: Node, start: &BTreeMap<(Node, InEdge), usize>) -> Option<Act> {
        let both = [OutEdge::Straight, OutEdge::Cross];
        if v.level == 0 {
            let head = *self.streams[v.row as usize].front()?;
            return match head {
                It::Packet(p) => {
                    let e = Butterfly::toward(v, self.packets[p].destination);
                    self.has_room(start, v, e).then(|| Act {
                        from: v,
                        takes: vec![None],
                        sends: vec![(e, head)],
                    })
                }
                It::Token => both
                    .iter()
                    .all(|&e| self.has_room(start, v, e))
                    .then(|| Act {
                        from: v,
                        takes: vec![None],
                        sends: vec![(OutEdge::Straight, It::Token), (OutEdge::Cross, It::Token)],
                    }),
            };
        }
        loop {
            let one = self.mode1[&v];
            let edge = if one { InEdge::One } else { InEdge::Zero };
            let head = *self.queues[&(v, edge)].front()?;
            match head {
                It::Packet(p) => {
                    let e = Butterfly::toward(v, self.packets[p].destination);
                    return self.has_room(start, v, e).then(|| Act {
                        from: v,
                        takes: vec![Some(edge)],
                        sends: vec![(e, head)],
                    });
                }
                It::Token if !one => {
                    self.mode1.insert(v, true);
                }
                It::Token => {
                    assert_eq!(self.queues[&(v, InEdge::Zero)].front(), Some(&It::Token));
                    if !both.iter().all(|&e| self.has_room(start, v, e)) {
                        return None;
                    }
                    self.mode1.insert(v, false);
                    return Some(Act {
                        from: v,
                        takes: vec![Some(InEdge::Zero), Some(InEdge::One)],
                        sends: vec![(OutEdge::Straight, It::Token), (OutEdge::Cross, It::Token)],
                    });
                }
            }
        }
    }
}

/// Runs the problem; `None` on a step in which nothing moves.
pub(super) fn reference(
    b: Butterfly,
    packets: &[Packet],
    k: u32,
    q: u32,
    until: Until,
) -> Option<RefRun> {
    let n = b.n;
    let rows = b.rows();
    let k = k as usize;
    let mut sim = Sim {
        b,
        q: q as usize,
        packets,
        streams: (0..rows as usize)
            .map(|a| {
                (0..k)
                    .flat_map(|i| [It::Packet(a * k + i), It::Token])
                    .collect()
            })
            .collect(),
        queues: BTreeMap::new(),
        mode1: BTreeMap::new(),
    };
    let mut peaks = BTreeMap::new();
    for level in 1..n {
        for row in 0..rows {
            let v = Node { level, row };
            sim.mode1.insert(v, false);
            for e in [InEdge::Zero, InEdge::One] {
                sim.queues.insert((v, e), VecDeque::new());
                peaks.insert((v, e), 0);
            }
        }
    }
    let mut run = RefRun {
        arrivals: vec![0; packets.len()],
        peaks,
        packet_hops: 0,
        token_hops: 0,
        steps: 0,
    };
    let (mut delivered, mut absorbed) = (0, 0);
    let all = packets.len();
    let mut t = 0;
    while n > 0 && !(delivered == all && (until == Until::Delivered || absorbed == 2 * all)) {
        t += 1;
        let start: BTreeMap<(Node, InEdge), usize> = sim
            .queues
            .iter()
            .map(|(&key, queue)| (key, queue.len()))
            .collect();
        let mut acts = Vec::new();
        for level in 0..n {
            for row in 0..rows {
                acts.extend(sim.decide(Node { level, row }, &start));
            }
        }
        if acts.is_empty() {
            return None;
        }
        let mut arrivals = Vec::new();
        for act in &acts {
            for take in &act.takes {
                match take {
                    None => sim.streams[act.from.row as usize].pop_front(),
                    Some(e) => sim
                        .queues
                        .get_mut(&(act.from, *e))
                        .and_then(VecDeque::pop_front),
                };
            }
            for &(e, item) in &act.sends {
                let to = b.follow(act.from, e);
                match item {
                    It::Packet(_) => run.packet_hops += 1,
                    It::Token => run.token_hops += 1,
                }
                arrivals.push((to, Butterfly::arrival_edge(act.from), item));
            }
        }
        arrivals.sort_by_key(|&(to, e, _)| (to, e));
        for (to, e, item) in arrivals {
            if to.level == n {
                match item {
                    It::Packet(p) => {
                        run.arrivals[p] = t;
                        delivered += 1;
                    }
                    It::Token => absorbed += 1,
                }
            } else {
                let queue = sim.queues.get_mut(&(to, e))?;
                queue.push_back(item);
                let peak = run.peaks.get_mut(&(to, e))?;
                *peak = (*peak).max(queue.len());
            }
        }
    }
    run.steps = t;
    Some(run)
}
