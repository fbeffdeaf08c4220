//! The checker fails: the engine's own move stream, replayed, passes; the
//! same stream with one deliberate error is rejected with the right
//! violation.

use super::super::check::{Checker, Violation};
use super::super::engine::{self, Feed, Move, Observer};
use super::*;
use crate::sim::packet::butterfly::OutEdge;

/// A move stream: each transmission with its step.
type Stream = Vec<(u64, Move)>;

/// Records the engine's transmissions.
#[derive(Default)]
struct Recorder(Stream);

impl Observer for Recorder {
    fn moved(&mut self, step: u64, mv: Move) -> Result<(), Violation> {
        self.0.push((step, mv));
        Ok(())
    }
    fn step_done(&mut self, _: u64) -> Result<(), Violation> {
        Ok(())
    }
}

/// A problem, its engine run and the engine's move stream.
struct Recording {
    b: Butterfly,
    packets: Vec<Packet>,
    k: u32,
    q: u32,
    until: Until,
    run: WaveRun,
    moves: Stream,
}

fn record(b: Butterfly, packets: Vec<Packet>, k: u32, q: u32, until: Until) -> Recording {
    let config = WaveConfig {
        q,
        checks: Checks::Off,
        until,
    };
    let mut rec = Recorder::default();
    let run = engine::run(&b, &packets, k, &config, &mut rec).expect("runs");
    Recording {
        b,
        packets,
        k,
        q,
        until,
        run,
        moves: rec.0,
    }
}

impl Recording {
    /// Feeds `moves` (in step order) to a fresh checker for steps
    /// `1 ..= steps`, then checks the end against `run`.
    fn replay_with(
        &self,
        moves: &[(u64, Move)],
        steps: u64,
        run: &WaveRun,
    ) -> Result<(), Violation> {
        let mut moves = moves.to_vec();
        moves.sort_by_key(|&(step, _)| step);
        let mut checker = Checker::new(self.b, &self.packets, self.k, self.q);
        let mut next = moves.iter().peekable();
        for t in 1..=steps {
            while let Some(&(_, mv)) = next.next_if(|&&(step, _)| step == t) {
                checker.moved(t, mv)?;
            }
            checker.step_done(t)?;
        }
        checker.finish(run, self.until)
    }

    fn replay(&self, moves: &[(u64, Move)]) -> Result<(), Violation> {
        self.replay_with(moves, self.run.steps, &self.run)
    }

    /// The position of `row`'s event at `level` in step `step`.
    fn find(&self, step: u64, level: u32, row: u64) -> usize {
        let at = Node { level, row };
        self.moves
            .iter()
            .position(|&(t, mv)| {
                t == step
                    && match mv {
                        Move::Packet { from, .. } | Move::Tokens { from } => from == at,
                    }
            })
            .expect("the event of the hand trace")
    }
}

/// B(2), one packet per input, destinations 1, 3, 0, 2: inputs 0 and 1
/// both feed `<1, 1>` (0 crosses, 1 goes straight), 2 and 3 feed `<1, 2>`.
/// With q = 2: step 1 all packets leave; step 2 `<1, 1>` sends packet 0
/// from its 0-queue and all inputs send tokens; step 3 `<1, 1>` turns to
/// mode 1 on the token and sends packet 1; step 4 its token pair.
fn hand(q: u32, until: Until) -> Recording {
    let packets = [1, 3, 0, 2]
        .iter()
        .enumerate()
        .map(|(a, &d)| Packet {
            source: a as u64,
            destination: d,
        })
        .collect();
    record(Butterfly::new(2), packets, 1, q, until)
}

/// The trace of `hand` is as worked out, and replays cleanly.
#[test]
fn the_engine_stream_passes() {
    let r = hand(2, Until::Drained);
    assert_eq!(r.run.arrivals, [2, 3, 2, 3]);
    assert_eq!(r.run.steps, 4);
    let p0 = r.moves[r.find(2, 1, 1)].1;
    let p1 = r.moves[r.find(3, 1, 1)].1;
    let pair = r.moves[r.find(4, 1, 1)].1;
    let at = Node { level: 1, row: 1 };
    assert_eq!(
        p0,
        Move::Packet {
            from: at,
            feed: Feed::Queue(InEdge::Zero),
            packet: 0,
            edge: OutEdge::Straight
        }
    );
    assert_eq!(
        p1,
        Move::Packet {
            from: at,
            feed: Feed::Queue(InEdge::One),
            packet: 1,
            edge: OutEdge::Cross
        }
    );
    assert_eq!(pair, Move::Tokens { from: at });
    assert_eq!(r.replay(&r.moves), Ok(()));
    for q in [1, 2] {
        for until in [Until::Delivered, Until::Drained] {
            let r = hand(q, until);
            assert_eq!(r.replay(&r.moves), Ok(()));
        }
    }
}

/// Each deliberate error in the hand trace is caught as what it is.
#[test]
fn wrong_streams_fail() {
    let r = hand(2, Until::Drained);
    let (i2, i3) = (r.find(2, 1, 1), r.find(3, 1, 1));
    let at = Node { level: 1, row: 1 };
    let edit = |f: &dyn Fn(&mut Stream)| {
        let mut moves = r.moves.clone();
        f(&mut moves);
        r.replay(&moves)
    };
    // Packet 1 (1-queue) before packet 0 (0-queue): FIFO-valid, rank not.
    let swapped = edit(&|m| {
        let (a, b) = (m[i2].1, m[i3].1);
        m[i2].1 = b;
        m[i3].1 = a;
    });
    assert!(matches!(swapped, Err(Violation::RankOrder { step: 3, .. })));
    // Tokens while the 1-queue's head is a packet.
    let early = edit(&|m| m[i3].1 = Move::Tokens { from: at });
    assert_eq!(early, Err(Violation::TokenPair { step: 3, node: at }));
    // Packet 0 on the wrong edge.
    let astray = edit(&|m| {
        if let Move::Packet { edge, .. } = &mut m[i2].1 {
            *edge = OutEdge::Cross;
        }
    });
    assert!(matches!(
        astray,
        Err(Violation::OffPath {
            step: 2,
            packet: 0,
            ..
        })
    ));
    // Packet 0 from the 1-queue, whose head is packet 1.
    let wrong_queue = edit(&|m| {
        if let Move::Packet { feed, .. } = &mut m[i2].1 {
            *feed = Feed::Queue(InEdge::One);
        }
    });
    assert_eq!(wrong_queue, Err(Violation::NotAtHead { step: 2, node: at }));
    // Input 0's token pair moved into step 1, after its packet.
    let input = Node { level: 0, row: 0 };
    let hurried = edit(&|m| m[r.find(2, 0, 0)].0 = 1);
    assert_eq!(
        hurried,
        Err(Violation::TwoEvents {
            step: 1,
            node: input
        })
    );
    // A step of nothing inserted after step 1.
    let idle = r.moves.iter().map(|&(t, mv)| (t + (t >= 2) as u64, mv));
    let idle: Vec<_> = idle.collect();
    assert_eq!(
        r.replay_with(&idle, r.run.steps + 1, &r.run),
        Err(Violation::Stalled { step: 2 })
    );
    // Stopping a step early: the last tokens never arrive.
    let cut: Vec<_> = r.moves.iter().copied().filter(|&(t, _)| t < 4).collect();
    assert!(matches!(
        r.replay_with(&cut, 3, &r.run),
        Err(Violation::TokensMissing { .. })
    ));
    // The engine misreporting an arrival.
    let mut lying = r.run.clone();
    lying.arrivals[2] += 1;
    assert_eq!(
        r.replay_with(&r.moves, r.run.steps, &lying),
        Err(Violation::ArrivalMismatch {
            packet: 2,
            engine: 3,
            observed: 2
        })
    );
}

/// Room is judged at the start of the step: with q = 1, input 0's token
/// pair cannot go in step 2, when `<1, 1>`'s 0-queue starts full although
/// its packet leaves in that step; and stopping before the last packet
/// leaves it undelivered.
#[test]
fn snapshot_room_and_delivery_fail() {
    let r = hand(1, Until::Delivered);
    let pair = r
        .moves
        .iter()
        .position(|&(_, mv)| {
            mv == Move::Tokens {
                from: Node { level: 0, row: 0 },
            }
        })
        .expect("input 0 sends tokens");
    assert_eq!(r.moves[pair].0, 3);
    let mut moves = r.moves.clone();
    moves[pair].0 = 2;
    assert!(matches!(
        r.replay(&moves),
        Err(Violation::NoRoom {
            step: 2,
            edge: OutEdge::Cross,
            ..
        })
    ));
    let last = r.run.steps;
    let cut: Vec<_> = r.moves.iter().copied().filter(|&(t, _)| t < last).collect();
    assert!(matches!(
        r.replay_with(&cut, last - 1, &r.run),
        Err(Violation::Undelivered { .. })
    ));
}

/// Deleting any one event of a drained run is caught: the item stays where
/// it was, so a later event finds the wrong head or something is never
/// delivered or flushed.
#[test]
fn any_deleted_event_fails() {
    for seed in 0..20u64 {
        let (n, k, q) = (
            3 + seed as u32 % 3,
            2 + seed as u32 % 3,
            1 + seed as u32 % 4,
        );
        let packets = problem(n, k, PacketTraffic::RandomDestinations, seed, 0);
        let r = record(Butterfly::new(n), packets, k, q, Until::Drained);
        assert_eq!(r.replay(&r.moves), Ok(()));
        let mut pick = trial_rng(seed, 1);
        for _ in 0..10 {
            let gone = rand::Rng::gen_range(&mut pick, 0..r.moves.len());
            let mut moves = r.moves.clone();
            moves.remove(gone);
            assert!(r.replay(&moves).is_err(), "seed {seed}: deleting {gone}");
        }
    }
}
