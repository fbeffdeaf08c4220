//! The one-dimensional kernels of the paper's section 5, computed from the
//! packets alone, independently of the engine: the exact routing time of
//! farthest-first on a linear array (Lemma 2) and on a ring (Lemma 7), and
//! the upper bounds for any work-conserving strategy (Lemmas 4 and 10).
//!
//! Right- and left-moving packets use different links, so a line's time is
//! the larger of the two directions; the left direction is the mirror
//! image of the right one.

use super::shape::Dir;

/// One packet on a line of `n` PUs: from `origin` to `dest`, ties (a ring
/// distance of exactly n/2) going `tie`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinePacket {
    /// Where it starts.
    pub origin: u32,
    /// Where it goes.
    pub dest: u32,
    /// Its way at a ring distance of n/2.
    pub tie: Dir,
}

/// Lemma 2: the exact time of farthest-first on a linear array of `n`
/// PUs, `max(j - i + c(i, j) - 1)` over `i < j` with `c(i, j) >= 1`,
/// `c(i, j)` the packets from at most `i` to at least `j`; both directions.
/// Any strategy needs at least this.
pub fn line_ff(n: u32, packets: &[LinePacket]) -> u64 {
    both_ways(n, packets, |n, right| {
        let mut best = 0;
        for i in 0..n {
            for j in i + 1..n {
                let c = right.iter().filter(|&&(o, d)| o <= i && d >= j).count() as u64;
                if c >= 1 {
                    best = best.max(u64::from(j - i) + c - 1);
                }
            }
        }
        best
    })
}

/// Lemma 4: an upper bound on any work-conserving strategy on a linear
/// array, `max(c(i) - 1 + n - 1 - i)` over `i` with `c(i) >= 1`, `c(i)`
/// the packets crossing link `i -> i + 1`; both directions.
pub fn line_any(n: u32, packets: &[LinePacket]) -> u64 {
    both_ways(n, packets, |n, right| {
        let mut best = 0;
        for i in 0..n {
            let c = right.iter().filter(|&&(o, d)| o <= i && i < d).count() as u64;
            if c >= 1 {
                best = best.max(c - 1 + u64::from(n - 1 - i));
            }
        }
        best
    })
}

/// Lemma 7 (with the proof's `+`): the exact time of farthest-first on a
/// ring of `n` PUs, packets taking the shorter way: `max(c(i, j) - 1 + (j -
/// i) mod n)` over `i != j` with `c(i, j) >= 1`, `c(i, j)` the packets that
/// leave `P_i` rightwards and later reach `P_j`; both directions.
pub fn ring_ff(n: u32, packets: &[LinePacket]) -> u64 {
    ring_both_ways(n, packets, |n, right| {
        let mut best = 0;
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let ahead = (j + n - i) % n;
                let c = right
                    .iter()
                    .filter(|&&(o, dist)| {
                        let a = (i + n - o) % n;
                        a < dist && a + ahead <= dist
                    })
                    .count() as u64;
                if c >= 1 {
                    best = best.max(c - 1 + u64::from(ahead));
                }
            }
        }
        best
    })
}

/// Lemmas 9 and 10: an upper bound on any work-conserving strategy on a
/// ring, `max(c(i)) - 1 + floor(n / 2)` with `c(i)` the packets crossing
/// link `i -> i + 1`; both directions.
pub fn ring_any(n: u32, packets: &[LinePacket]) -> u64 {
    ring_both_ways(n, packets, |n, right| {
        let most = (0..n)
            .map(|i| {
                right
                    .iter()
                    .filter(|&&(o, dist)| (i + n - o) % n < dist)
                    .count() as u64
            })
            .max()
            .unwrap_or(0);
        if most == 0 {
            0
        } else {
            most - 1 + u64::from(n / 2)
        }
    })
}

/// `f` on the rightward packets `(origin, dest)` and on the mirrored
/// leftward ones; the larger.
fn both_ways(n: u32, packets: &[LinePacket], f: impl Fn(u32, &[(u32, u32)]) -> u64) -> u64 {
    let right: Vec<(u32, u32)> = packets
        .iter()
        .filter(|p| p.dest > p.origin)
        .map(|p| (p.origin, p.dest))
        .collect();
    let left: Vec<(u32, u32)> = packets
        .iter()
        .filter(|p| p.dest < p.origin)
        .map(|p| (n - 1 - p.origin, n - 1 - p.dest))
        .collect();
    f(n, &right).max(f(n, &left))
}

/// `f` on the packets going up the ring `(origin, distance)` and on the
/// mirrored ones going down; the larger.
fn ring_both_ways(n: u32, packets: &[LinePacket], f: impl Fn(u32, &[(u32, u32)]) -> u64) -> u64 {
    let mut up = Vec::new();
    let mut down = Vec::new();
    for p in packets {
        let u = (p.dest + n - p.origin) % n;
        let d = (p.origin + n - p.dest) % n;
        if u == 0 {
            continue;
        }
        if u < d || (u == d && p.tie == Dir::Up) {
            up.push((p.origin, u));
        } else {
            down.push(((n - p.origin) % n, d));
        }
    }
    f(n, &up).max(f(n, &down))
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::sim::mesh::engine::{route, Config};
    use crate::sim::mesh::plan::{Gates, Leg, Plan, Strategy};
    use crate::sim::mesh::shape::{Shape, Topology};

    fn instance(rng: &mut ChaCha8Rng) -> (u32, Vec<LinePacket>) {
        let n = rng.gen_range(2..=12);
        let count = rng.gen_range(1..=25);
        let packets = (0..count)
            .map(|_| LinePacket {
                origin: rng.gen_range(0..n),
                dest: rng.gen_range(0..n),
                tie: if rng.gen_bool(0.5) {
                    Dir::Up
                } else {
                    Dir::Down
                },
            })
            .collect();
        (n, packets)
    }

    fn simulate(
        n: u32,
        topology: Topology,
        packets: &[LinePacket],
        strategy: Strategy,
        seed: u64,
    ) -> u64 {
        let shape = Shape::new(n, 1, topology).unwrap();
        let start: Vec<u32> = packets.iter().map(|p| p.origin).collect();
        let mut plan = Plan::idle(packets.len(), 1);
        for (leg, p) in plan.phase_mut(0).iter_mut().zip(packets) {
            *leg = Leg::tied(0, p.dest, p.tie);
        }
        let config = Config {
            strategy,
            gates: Gates::Barrier,
            seed,
        };
        route(&shape, &start, &plan, &config).steps
    }

    /// E1: farthest-first equals Lemma 2 on the linear array and Lemma 7 on
    /// the ring, exactly; every strategy stays within Lemmas 4 and 10, and
    /// none beats Lemma 2 on the linear array.
    #[test]
    fn one_dimensional_oracles_hold() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut busy = 0;
        for _ in 0..3000 {
            let (n, packets) = instance(&mut rng);
            let exact_line = line_ff(n, &packets);
            let exact_ring = ring_ff(n, &packets);
            assert_eq!(
                simulate(n, Topology::Mesh, &packets, Strategy::FarthestFirst, 1),
                exact_line,
                "line {n} {packets:?}"
            );
            assert_eq!(
                simulate(n, Topology::Torus, &packets, Strategy::FarthestFirst, 1),
                exact_ring,
                "ring {n} {packets:?}"
            );
            busy += u32::from(exact_line > u64::from(n) / 2);
            for strategy in Strategy::ALL {
                let seed = rng.gen();
                let line = simulate(n, Topology::Mesh, &packets, strategy, seed);
                assert!(line >= exact_line, "{strategy} beats Lemma 2");
                assert!(line <= line_any(n, &packets), "{strategy} breaks Lemma 4");
                let ring = simulate(n, Topology::Torus, &packets, strategy, seed);
                assert!(ring <= ring_any(n, &packets), "{strategy} breaks Lemma 10");
            }
        }
        assert!(busy > 1000, "only {busy} instances queue");
    }

    #[test]
    fn a_single_packet_takes_its_distance() {
        let p = [LinePacket {
            origin: 1,
            dest: 6,
            tie: Dir::Up,
        }];
        assert_eq!(line_ff(8, &p), 5);
        assert_eq!(ring_ff(8, &p), 3);
        assert_eq!(line_any(8, &p), 6);
        assert_eq!(ring_any(8, &p), 4);
    }
}
