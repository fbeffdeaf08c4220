//! The invariant checker: an observer of the engine's transmissions with a
//! model of its own (a `VecDeque` per queue, a cursor per input stream),
//! sharing nothing with the engine but the butterfly's geometry. It
//! replays each event against its model and reports the first breach of
//! invariants I1–I6 (listed under "Checks" in `docs/simulation.md`) as a
//! [`Violation`].
//!
//! What it checks, per event: the item leaves from the head of the queue
//! (or input stream) it is said to leave (FIFO service); a packet takes the
//! out-edge toward its destination (the unique path); every target queue
//! had room at the start of the step (I5 under the snapshot rule: items
//! taken in the same step free no space); the switch made no other event
//! in the step; a token pair takes a token of one wave from the head of
//! each of the switch's queues; and the switch's events are in strictly
//! increasing rank (I4; I1, nondecreasing waves, follows). Per step: some
//! event happened while items remain (I6). Once drained, every edge has
//! carried `k` tokens (I2; that they come in wave order 1, 3, 5, ... needs
//! no check of its own: the inputs' streams are in order, FIFO service
//! keeps it, and a pair takes one token of one wave from each queue, so by
//! induction over the levels each edge's tokens are in order). At the end:
//! every packet delivered, at the step the engine says.
//!
//! I3 (within a wave, packets via the 0-edge rank below those via the
//! 1-edge) is not checked apart: given the path check it is geometry, since
//! the origins of the packets reaching `<l, c>` agree with `c` on bits
//! `l ..` and the in-edge is bit `l - 1` of the origin.

use std::collections::VecDeque;

use super::engine::{Feed, Move, Observer};
use super::{Until, WaveRun};
use crate::sim::packet::butterfly::{Butterfly, InEdge, Node, OutEdge};
use crate::sim::packet::traffic::Packet;

/// The rank of section 4.1's proof, used only to check: a packet's is
/// `(wave, origin row)` (the origin compared as an integer, `c_0` the
/// low-order bit); a token's is `(wave, 0)`, between the packets of the
/// waves below and above (tokens and packets never share a wave).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank {
    /// The wave: `2i` for packet `i` of an input, `2i + 1` for token `i`.
    pub wave: u32,
    /// The packet's origin row; 0 for a token.
    pub origin: u64,
}

/// A breach of the wave algorithm's rules or invariants (I1–I6, listed in
/// `docs/simulation.md`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// The item sent is not the head of the queue or stream it leaves
    /// (or there is no such switch or queue).
    #[error("step {step}: {node:?} sends an item that is not at the head of its queue")]
    NotAtHead {
        /// The step.
        step: u64,
        /// The sender.
        node: Node,
    },
    /// A packet sent on the out-edge away from its destination.
    #[error("step {step}: {node:?} sends packet {packet} off its path")]
    OffPath {
        /// The step.
        step: u64,
        /// The sender.
        node: Node,
        /// The packet's index.
        packet: u32,
    },
    /// An item sent into a queue that was full at the start of the step
    /// (I5).
    #[error("step {step}: {node:?} sends on its {edge:?} edge into a full queue")]
    NoRoom {
        /// The step.
        step: u64,
        /// The sender.
        node: Node,
        /// The out-edge.
        edge: OutEdge,
    },
    /// A second transmission event by one switch in one step.
    #[error("step {step}: {node:?} transmits twice")]
    TwoEvents {
        /// The step.
        step: u64,
        /// The sender.
        node: Node,
    },
    /// A switch's events out of strictly increasing rank (I4).
    #[error("step {step}: {node:?} sends rank {next:?} after {previous:?}")]
    RankOrder {
        /// The step.
        step: u64,
        /// The sender.
        node: Node,
        /// The rank of its previous event.
        previous: Rank,
        /// The rank of this one.
        next: Rank,
    },
    /// A token pair sent without a token of one wave at the head of each
    /// queue (or of the input's stream).
    #[error("step {step}: {node:?} sends tokens without a token at each queue's head")]
    TokenPair {
        /// The step.
        step: u64,
        /// The sender.
        node: Node,
    },
    /// A drained run in which an edge did not carry all `k` tokens (I2).
    #[error("the {edge:?} edge of {node:?} carried {carried} tokens, not {k}")]
    TokensMissing {
        /// The edge's tail.
        node: Node,
        /// Which out-edge.
        edge: OutEdge,
        /// Tokens it carried.
        carried: u32,
        /// Packets (and tokens) per input.
        k: u32,
    },
    /// A step without any transmission while items remain (I6).
    #[error("step {step}: nothing moves while items remain")]
    Stalled {
        /// The step.
        step: u64,
    },
    /// The run ended with packets the checker has not seen delivered.
    #[error("{delivered} of {total} packets delivered")]
    Undelivered {
        /// Packets the checker saw reach level `n`.
        delivered: u64,
        /// All packets.
        total: u64,
    },
    /// The engine's arrival step for a packet differs from the checker's.
    #[error("packet {packet} arrived at step {observed}, the engine says {engine}")]
    ArrivalMismatch {
        /// The packet's index.
        packet: usize,
        /// The engine's figure.
        engine: u64,
        /// The checker's.
        observed: u64,
    },
}

/// An item in the checker's model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Item {
    Packet(u32),
    Token(u32),
}

/// The checker's model of a run.
pub(super) struct Checker<'a> {
    n: u32,
    rows: u64,
    k: u32,
    q: u32,
    packets: &'a [Packet],
    /// Queue `2 ((l - 1) N + c) + e` for levels `1 .. n`.
    queues: Vec<VecDeque<Item>>,
    taken_at: Vec<u64>,
    /// Arrivals of the current step, appended at its end.
    pending: Vec<(usize, Item)>,
    /// Each input's position in its stream.
    cursor: Vec<u32>,
    /// Per switch `l N + c` of levels `0 .. n`: the last step it acted and
    /// the rank of its last event.
    acted_at: Vec<u64>,
    last_rank: Vec<Option<Rank>>,
    /// Tokens carried per edge `2 (l N + c) + [cross]`.
    tokens: Vec<u32>,
    tokens_absorbed: u64,
    arrivals: Vec<Option<u64>>,
    delivered: u64,
    moves: u64,
}

fn edge_bit(edge: OutEdge) -> usize {
    (edge == OutEdge::Cross) as usize
}

impl<'a> Checker<'a> {
    /// A model of the start: streams full, queues empty, modes unknown
    /// (the checker needs none).
    pub(super) fn new(bfly: Butterfly, packets: &'a [Packet], k: u32, q: u32) -> Self {
        let n = bfly.n;
        let rows = bfly.rows();
        let switches = (rows * n as u64) as usize;
        let queues = 2 * (rows * n.saturating_sub(1) as u64) as usize;
        let at_start = if n == 0 { Some(0) } else { None };
        Checker {
            n,
            rows,
            k,
            q,
            packets,
            queues: vec![VecDeque::new(); queues],
            taken_at: vec![0; queues],
            pending: Vec::new(),
            cursor: vec![0; rows as usize],
            acted_at: vec![0; switches],
            last_rank: vec![None; switches],
            tokens: vec![0; 2 * switches],
            tokens_absorbed: 0,
            arrivals: vec![at_start; packets.len()],
            delivered: if n == 0 { packets.len() as u64 } else { 0 },
            moves: 0,
        }
    }

    /// The queue at the end of `edge` into `<l, c>`, if there is one.
    fn queue(&self, l: u32, c: u64, edge: InEdge) -> Option<usize> {
        (l >= 1 && l < self.n && c < self.rows)
            .then(|| 2 * ((l as u64 - 1) * self.rows + c) as usize + (edge == InEdge::One) as usize)
    }

    /// Whether every target of `from`'s event had room at the start of
    /// `step`; the first full one otherwise.
    fn check_room(&self, step: u64, from: Node, edges: &[OutEdge]) -> Result<(), Violation> {
        let into = Butterfly::arrival_edge(from);
        for &edge in edges {
            let to = Butterfly::new(self.n).follow(from, edge);
            if let Some(queue) = self.queue(to.level, to.row, into) {
                let start = self.queues[queue].len() + (self.taken_at[queue] == step) as usize;
                if start >= self.q as usize {
                    return Err(Violation::NoRoom {
                        step,
                        node: from,
                        edge,
                    });
                }
            }
        }
        Ok(())
    }

    /// Records `from`'s event of `rank` in `step`: one per step, in
    /// strictly increasing rank.
    fn check_event(&mut self, step: u64, from: Node, rank: Rank) -> Result<(), Violation> {
        let s = (from.level as u64 * self.rows + from.row) as usize;
        if self.acted_at[s] == step {
            return Err(Violation::TwoEvents { step, node: from });
        }
        self.acted_at[s] = step;
        if let Some(previous) = self.last_rank[s] {
            if previous >= rank {
                return Err(Violation::RankOrder {
                    step,
                    node: from,
                    previous,
                    next: rank,
                });
            }
        }
        self.last_rank[s] = Some(rank);
        Ok(())
    }

    /// The head of `from`'s queue at `feed` (or its stream's next item).
    fn peek(&self, from: Node, feed: Feed) -> Option<Item> {
        match feed {
            Feed::Input if from.level == 0 => {
                let pos = self.cursor[from.row as usize];
                if pos >= 2 * self.k {
                    None
                } else if pos % 2 == 0 {
                    Some(Item::Packet(from.row as u32 * self.k + pos / 2))
                } else {
                    Some(Item::Token(pos))
                }
            }
            Feed::Queue(edge) => self
                .queue(from.level, from.row, edge)
                .and_then(|queue| self.queues[queue].front().copied()),
            Feed::Input => None,
        }
    }

    /// Removes the head that [`Checker::peek`] saw.
    fn pop(&mut self, step: u64, from: Node, feed: Feed) {
        match feed {
            Feed::Input => self.cursor[from.row as usize] += 1,
            Feed::Queue(edge) => {
                if let Some(queue) = self.queue(from.level, from.row, edge) {
                    self.queues[queue].pop_front();
                    self.taken_at[queue] = step;
                }
            }
        }
    }

    /// Hands `item` from `from` along `edge`, arriving at the step's end.
    fn carry(&mut self, step: u64, from: Node, edge: OutEdge, item: Item) {
        let to = Butterfly::new(self.n).follow(from, edge);
        if let Item::Token(_) = item {
            let e = 2 * (from.level as u64 * self.rows + from.row) as usize + edge_bit(edge);
            self.tokens[e] += 1;
        }
        if to.level == self.n {
            match item {
                Item::Packet(p) => {
                    self.arrivals[p as usize] = Some(step);
                    self.delivered += 1;
                }
                Item::Token(_) => self.tokens_absorbed += 1,
            }
        } else if let Some(queue) = self.queue(to.level, to.row, Butterfly::arrival_edge(from)) {
            self.pending.push((queue, item));
        }
    }

    fn packet_move(
        &mut self,
        step: u64,
        from: Node,
        feed: Feed,
        packet: u32,
        edge: OutEdge,
    ) -> Result<(), Violation> {
        let item = Item::Packet(packet);
        if self.peek(from, feed) != Some(item) {
            return Err(Violation::NotAtHead { step, node: from });
        }
        let p = self.packets[packet as usize];
        let rank = Rank {
            wave: 2 * (packet % self.k),
            origin: p.source,
        };
        self.check_event(step, from, rank)?;
        if Butterfly::toward(from, p.destination) != edge {
            return Err(Violation::OffPath {
                step,
                node: from,
                packet,
            });
        }
        self.check_room(step, from, &[edge])?;
        self.pop(step, from, feed);
        self.carry(step, from, edge, item);
        Ok(())
    }

    fn token_move(&mut self, step: u64, from: Node) -> Result<(), Violation> {
        let feeds: &[Feed] = if from.level == 0 {
            &[Feed::Input]
        } else {
            &[Feed::Queue(InEdge::Zero), Feed::Queue(InEdge::One)]
        };
        let heads: Vec<Option<Item>> = feeds.iter().map(|&f| self.peek(from, f)).collect();
        let wave = match heads[0] {
            Some(Item::Token(w)) if heads.iter().all(|&h| h == Some(Item::Token(w))) => w,
            _ => return Err(Violation::TokenPair { step, node: from }),
        };
        self.check_event(step, from, Rank { wave, origin: 0 })?;
        self.check_room(step, from, &[OutEdge::Straight, OutEdge::Cross])?;
        for &feed in feeds {
            self.pop(step, from, feed);
        }
        self.carry(step, from, OutEdge::Straight, Item::Token(wave));
        self.carry(step, from, OutEdge::Cross, Item::Token(wave));
        Ok(())
    }

    /// Checks the run the engine returns against the model: all packets
    /// delivered at the engine's steps and, when drained, all tokens on
    /// every edge (I2).
    pub(super) fn finish(&self, run: &WaveRun, until: Until) -> Result<(), Violation> {
        let total = self.packets.len() as u64;
        if self.delivered != total {
            return Err(Violation::Undelivered {
                delivered: self.delivered,
                total,
            });
        }
        for (packet, (&engine, seen)) in run.arrivals.iter().zip(&self.arrivals).enumerate() {
            let observed = seen.unwrap_or(u64::MAX);
            if engine != observed {
                return Err(Violation::ArrivalMismatch {
                    packet,
                    engine,
                    observed,
                });
            }
        }
        if until == Until::Drained {
            for (e, &carried) in self.tokens.iter().enumerate() {
                if carried != self.k {
                    let s = e as u64 / 2;
                    return Err(Violation::TokensMissing {
                        node: Node {
                            level: (s / self.rows) as u32,
                            row: s % self.rows,
                        },
                        edge: if e % 2 == 0 {
                            OutEdge::Straight
                        } else {
                            OutEdge::Cross
                        },
                        carried,
                        k: self.k,
                    });
                }
            }
        }
        Ok(())
    }
}

impl Observer for Checker<'_> {
    fn moved(&mut self, step: u64, mv: Move) -> Result<(), Violation> {
        self.moves += 1;
        let from = match mv {
            Move::Packet { from, .. } | Move::Tokens { from } => from,
        };
        if from.level >= self.n || from.row >= self.rows {
            return Err(Violation::NotAtHead { step, node: from });
        }
        match mv {
            Move::Packet {
                from,
                feed,
                packet,
                edge,
            } => self.packet_move(step, from, feed, packet, edge),
            Move::Tokens { from } => self.token_move(step, from),
        }
    }

    fn step_done(&mut self, step: u64) -> Result<(), Violation> {
        let total = self.packets.len() as u64;
        let remain = self.delivered < total || self.tokens_absorbed < 2 * self.rows * self.k as u64;
        if self.moves == 0 && remain {
            return Err(Violation::Stalled { step });
        }
        self.moves = 0;
        // 0-edge before 1-edge (queue 2s before 2s + 1); one feeder each.
        self.pending.sort_by_key(|&(queue, _)| queue);
        for (queue, item) in self.pending.drain(..) {
            self.queues[queue].push_back(item);
            debug_assert!(self.queues[queue].len() <= self.q as usize);
        }
        Ok(())
    }
}
