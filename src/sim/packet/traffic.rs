//! Routing problems on the `N = 2^n` inputs of a butterfly: which output
//! each packet is bound for. Every input holds `k` packets (`k = 1` is the
//! lightly loaded case, `k > 1` the fully loaded one).
//!
//! The fixed permutations are the classical hard and easy cases: the
//! bit-reversal (the direct route of which makes `sqrt(N)` packets meet at
//! the middle level), the transpose (swap the high and the low half of the
//! row's bits; `n` even) and the identity.

use rand::seq::SliceRandom;
use rand::Rng;

/// A routing problem's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum PacketTraffic {
    /// Each packet to an output drawn uniformly and independently.
    RandomDestinations,
    /// Each round of `N` packets (one per input) a uniformly random
    /// permutation.
    RandomPermutation,
    /// Input `a` to the output whose `n` bits are `a`'s reversed.
    BitReversal,
    /// Input `a` to the output with `a`'s high and low `n / 2` bits
    /// swapped (`n` even).
    Transpose,
    /// Input `a` to output `a`.
    Identity,
}

/// A packet: where it starts (a level-0 row) and where it is bound (a
/// level-`n` row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Packet {
    /// The input row.
    pub source: u64,
    /// The output row.
    pub destination: u64,
}

/// Why a routing problem cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrafficError {
    /// The transpose swaps two halves of the row's bits.
    #[error("the transpose needs an even lg N, not {n}")]
    OddTranspose {
        /// `lg N`.
        n: u32,
    },
    /// No packets at all.
    #[error("each input needs at least one packet (k >= 1)")]
    NoPackets,
}

/// The `n` low bits of `a` in reverse order.
pub fn bit_reversal(a: u64, n: u32) -> u64 {
    if n == 0 {
        0
    } else {
        a.reverse_bits() >> (64 - n)
    }
}

/// `a`'s high and low `n / 2` bits swapped (`n` even).
pub fn transpose(a: u64, n: u32) -> u64 {
    let h = n / 2;
    let low = a & ((1u64 << h) - 1);
    (low << h) | (a >> h)
}

impl PacketTraffic {
    /// The packets: `k` per input, input by input in increasing row order,
    /// each input's `k` in round order. Random kinds draw from `rng` only.
    pub fn packets(self, n: u32, k: u32, rng: &mut impl Rng) -> Result<Vec<Packet>, TrafficError> {
        if k == 0 {
            return Err(TrafficError::NoPackets);
        }
        if self == PacketTraffic::Transpose && n % 2 == 1 {
            return Err(TrafficError::OddTranspose { n });
        }
        let rows = 1u64 << n;
        // rounds[r][a]: the destination of input a's packet of round r.
        let rounds: Vec<Vec<u64>> = (0..k)
            .map(|_| match self {
                PacketTraffic::RandomDestinations => {
                    (0..rows).map(|_| rng.gen_range(0..rows)).collect()
                }
                PacketTraffic::RandomPermutation => {
                    let mut p: Vec<u64> = (0..rows).collect();
                    p.shuffle(rng);
                    p
                }
                PacketTraffic::BitReversal => (0..rows).map(|a| bit_reversal(a, n)).collect(),
                PacketTraffic::Transpose => (0..rows).map(|a| transpose(a, n)).collect(),
                PacketTraffic::Identity => (0..rows).collect(),
            })
            .collect();
        Ok((0..rows)
            .flat_map(|a| {
                rounds.iter().map(move |round| Packet {
                    source: a,
                    destination: round[a as usize],
                })
            })
            .collect())
    }

    /// Whether every round is a permutation of the outputs.
    pub fn is_permutation(self) -> bool {
        self != PacketTraffic::RandomDestinations
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Bit-reversal and transpose against bit-by-bit definitions; both are
    /// involutions.
    #[test]
    fn the_fixed_permutations_are_their_definitions() {
        for n in 0..=10u32 {
            for a in 0..1u64 << n {
                let slow: u64 = (0..n).map(|i| ((a >> i) & 1) << (n - 1 - i)).sum();
                assert_eq!(bit_reversal(a, n), slow);
                assert_eq!(bit_reversal(bit_reversal(a, n), n), a);
                if n % 2 == 0 {
                    let h = n / 2;
                    let slow: u64 = (0..n).map(|i| ((a >> i) & 1) << ((i + h) % n)).sum();
                    assert_eq!(transpose(a, n), slow);
                    assert_eq!(transpose(transpose(a, n), n), a);
                }
            }
        }
    }

    /// Every kind gives k packets per input in order; the permutation kinds
    /// hit every output once per round; the same seed gives the same
    /// packets.
    #[test]
    fn problems_have_their_shape() {
        let kinds = [
            PacketTraffic::RandomDestinations,
            PacketTraffic::RandomPermutation,
            PacketTraffic::BitReversal,
            PacketTraffic::Transpose,
            PacketTraffic::Identity,
        ];
        for kind in kinds {
            for (n, k) in [(0, 1), (4, 1), (6, 3), (8, 2)] {
                let mut rng = ChaCha8Rng::seed_from_u64(7);
                let p = kind.packets(n, k, &mut rng).expect("even n, k >= 1");
                let rows = 1u64 << n;
                assert_eq!(p.len() as u64, rows * k as u64);
                for (i, q) in p.iter().enumerate() {
                    assert_eq!(q.source, i as u64 / k as u64);
                    assert!(q.destination < rows);
                }
                if kind.is_permutation() {
                    for r in 0..k as usize {
                        let mut hit = vec![false; rows as usize];
                        for a in 0..rows as usize {
                            let d = p[a * k as usize + r].destination as usize;
                            assert!(!hit[d], "{kind:?}: output {d} twice in round {r}");
                            hit[d] = true;
                        }
                    }
                }
                let again = kind.packets(n, k, &mut ChaCha8Rng::seed_from_u64(7));
                assert_eq!(again.as_ref(), Ok(&p));
            }
        }
        // Random destinations do repeat outputs (a permutation of 256
        // outputs drawn this way has probability 256!/256^256).
        let p = PacketTraffic::RandomDestinations
            .packets(8, 1, &mut ChaCha8Rng::seed_from_u64(1))
            .expect("k >= 1");
        let mut d: Vec<u64> = p.iter().map(|q| q.destination).collect();
        d.sort_unstable();
        d.dedup();
        assert!(d.len() < 256);
    }

    /// Bad parameters are refused with the reason.
    #[test]
    fn bad_parameters_are_refused() {
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert_eq!(
            PacketTraffic::Transpose.packets(5, 1, &mut rng),
            Err(TrafficError::OddTranspose { n: 5 })
        );
        assert_eq!(
            PacketTraffic::Identity.packets(4, 0, &mut rng),
            Err(TrafficError::NoPackets)
        );
    }
}
