//! Valiant's two-phase routing through the wraparound butterfly (section
//! 2.2, Theorem 2.6): phase A sends each packet to an intermediate output
//! row drawn uniformly and independently; the wraparound identifies output
//! `<n, x>` with input `<0, x>`, where the packets queue (unbounded) in the
//! order they arrived; phase B sends each from its intermediate to its
//! true destination. Theorem 2.6: for any fixed permutation, delay
//! `O(log N)` with probability at least `1 - 2/N`.
//!
//! The paper says the packets "are queued up at the end of phase A"; by
//! default the phases are separated by a barrier: phase B
//! starts when phase A has delivered every packet, and the routing time is
//! `T_A + T_B`. Pipelined ([`route_pipelined`]), a packet goes on as soon
//! as it wraps: it joins the back of its intermediate input's queue, behind
//! any packets still waiting there for phase A, and the routing time is
//! the last arrival.

use super::engine::{run, run_through, Config, EngineError};
use super::traffic::Packet;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The outcome of a two-phase run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TwoPhase {
    /// Steps of phase A: until the last packet reached its intermediate.
    pub phase_a: u64,
    /// Steps after that: phase B after the barrier, or, pipelined, the
    /// tail from the last wrap to the last arrival.
    pub phase_b: u64,
    /// The most packets queued at one input: between the phases (barrier),
    /// or at any step, its own and wrapped ones together (pipelined).
    pub max_wrap_queue: u32,
    /// The most packets a switch held in either phase.
    pub max_switch_occupancy: u32,
    /// Packet-hops of both phases.
    pub hops: u64,
}

impl TwoPhase {
    /// `T_A + T_B`.
    pub fn total(&self) -> u64 {
        self.phase_a + self.phase_b
    }
}

/// Each packet's intermediate row, drawn uniformly and independently.
fn intermediates(n: u32, packets: &[Packet], rng: &mut ChaCha8Rng) -> Vec<u64> {
    packets
        .iter()
        .map(|_| rng.gen_range(0..1u64 << n))
        .collect()
}

/// Routes `packets` over `B(n)` in two phases with a barrier; the
/// intermediates are drawn from `rng` first, then both phases run on it.
pub fn route(
    n: u32,
    packets: &[Packet],
    config: Config,
    rng: &mut ChaCha8Rng,
) -> Result<TwoPhase, EngineError> {
    let rows = 1u64 << n;
    let inter = intermediates(n, packets, rng);
    let a: Vec<Packet> = packets
        .iter()
        .zip(&inter)
        .map(|(p, &x)| Packet {
            source: p.source,
            destination: x,
        })
        .collect();
    let first = run(n, &a, config, rng)?;
    // Each intermediate's input queue holds its packets in arrival order.
    let b: Vec<Packet> = first
        .delivery_order
        .iter()
        .map(|&id| Packet {
            source: inter[id as usize],
            destination: packets[id as usize].destination,
        })
        .collect();
    let mut per_row = vec![0u32; rows as usize];
    for p in &b {
        per_row[p.source as usize] += 1;
    }
    let second = run(n, &b, config, rng)?;
    Ok(TwoPhase {
        phase_a: first.steps,
        phase_b: second.steps,
        max_wrap_queue: per_row.into_iter().max().unwrap_or(0),
        max_switch_occupancy: first.max_switch_occupancy.max(second.max_switch_occupancy),
        hops: first.hops + second.hops,
    })
}

/// Routes `packets` over `B(n)` in two phases, pipelined through the
/// wraparound; the intermediates are drawn from `rng` first (the same as
/// [`route`] draws from the same stream), then the run uses it.
pub fn route_pipelined(
    n: u32,
    packets: &[Packet],
    config: Config,
    rng: &mut ChaCha8Rng,
) -> Result<TwoPhase, EngineError> {
    let inter = intermediates(n, packets, rng);
    let r = run_through(n, packets, &inter, config, rng)?;
    let phase_a = r.first_leg.iter().map(|&t| t as u64).max().unwrap_or(0);
    Ok(TwoPhase {
        phase_a,
        phase_b: r.steps - phase_a,
        max_wrap_queue: r.max_injection_occupancy,
        max_switch_occupancy: r.max_switch_occupancy,
        hops: r.hops,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::packet::engine::{Protocol, QueueModel};
    use crate::sim::packet::traffic::PacketTraffic;
    use crate::sim::trial_rng;

    /// E2 (`docs/simulation.md`): two-phase FIFO on bit-reversal takes about
    /// 3.2-3.4 lg N (regression figures, q = 2: 26.9, 33.2, 39.0, 45.5 for
    /// n = 8, 10, 12, 14); both phases deliver every packet (2 n hops each).
    #[test]
    fn two_phase_bit_reversal_is_logarithmic() {
        let regression = [(8u32, 26.9), (10, 33.2), (12, 39.0)];
        for (n, expect) in regression {
            let p = PacketTraffic::BitReversal
                .packets(n, 1, &mut trial_rng(0, 0))
                .expect("valid");
            let config = Config {
                model: QueueModel::Greedy,
                protocol: Protocol::Fifo,
                q: 2,
            };
            let trials = 10;
            let mut sum = 0;
            for t in 0..trials {
                let r = route(n, &p, config, &mut trial_rng(5, t)).expect("runs");
                assert_eq!(r.hops, 2 * n as u64 * p.len() as u64);
                assert!(r.phase_a >= n as u64 && r.phase_b >= n as u64);
                sum += r.total();
            }
            let mean = sum as f64 / trials as f64;
            assert!(
                (mean - expect).abs() <= 0.05 * expect,
                "n {n}: mean {mean} vs regression figure {expect}"
            );
            // Direct routing needs sqrt(N) + lg N - 1.
            let direct = (1u64 << (n / 2)) + n as u64 - 1;
            assert!(n < 12 || mean < direct as f64);
        }
    }

    /// Pipelined two-phase routing on bit-reversal: every packet crosses
    /// 2 lg N edges, the total is at least 2 lg N, and it stays
    /// logarithmic (below the barrier's regression figure 3.4 lg N, and below direct
    /// routing's sqrt(N) + lg N - 1 from n = 12).
    #[test]
    fn pipelined_bit_reversal_is_logarithmic() {
        for n in [8u32, 10, 12] {
            let p = PacketTraffic::BitReversal
                .packets(n, 1, &mut trial_rng(0, 0))
                .expect("valid");
            let config = Config {
                model: QueueModel::Greedy,
                protocol: Protocol::Fifo,
                q: 2,
            };
            let trials = 10;
            let mut sum = 0;
            for t in 0..trials {
                let r = route_pipelined(n, &p, config, &mut trial_rng(5, t)).expect("runs");
                assert_eq!(r.hops, 2 * n as u64 * p.len() as u64);
                assert!(r.phase_a >= n as u64 && r.total() >= 2 * n as u64);
                sum += r.total();
            }
            let mean = sum as f64 / trials as f64;
            assert!(mean <= 3.4 * n as f64, "n {n}: mean {mean}");
            let direct = (1u64 << (n / 2)) + n as u64 - 1;
            assert!(n < 12 || mean < direct as f64);
        }
    }
}
