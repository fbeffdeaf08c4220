//! Stage 1 of the back-to-back scheme (section 5, after Ranade): random but
//! not independent intermediates. With one packet on every level-0 node,
//! at level `l` each 2x2 cell (the nodes `u` and `u | 2^l` with bit `l` of
//! `u` clear) flips a fair coin: heads both packets go straight, tails
//! both cross. Every node of every level then holds exactly one packet, so
//! no edge carries two and stage 1 drops nothing; each packet's
//! intermediate is uniform (one fair bit per level) and the intermediates
//! form a permutation. The paper says "every level i switch receives two
//! packets"; with one packet per node that holds per cell, so
//! the coin is flipped per cell.

use rand::Rng;

/// The intermediate (level-`n` row) of the packet of each input of `B(n)`
/// after stage 1, indexed by input. Draws `ceil(N / 128)` words per level
/// (`N / 2` coins), level 0 first, cells in increasing `u`.
pub fn ranade_intermediates(n: u32, rng: &mut impl Rng) -> Vec<u64> {
    let rows = 1usize << n;
    // at[c]: the input whose packet is at row c of the current level.
    let mut at: Vec<u64> = (0..rows as u64).collect();
    for l in 0..n {
        let bit = 1usize << l;
        let mut word = 0u64;
        for (cell, u) in (0..rows).filter(|u| u & bit == 0).enumerate() {
            if cell % 64 == 0 {
                word = rng.gen();
            }
            if word >> (cell % 64) & 1 == 1 {
                at.swap(u, u | bit);
            }
        }
    }
    // Swaps keep `at` a permutation: every row holds exactly one packet.
    let mut inter = vec![u64::MAX; rows];
    for (row, &input) in at.iter().enumerate() {
        debug_assert_eq!(inter[input as usize], u64::MAX, "two rows hold one packet");
        inter[input as usize] = row as u64;
    }
    inter
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::packet::butterfly::Butterfly;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Stage 1 never drops: along the butterfly paths from each input to
    /// its intermediate, every level's nodes are distinct (one packet per
    /// node, so one per edge), which also makes the intermediates a
    /// permutation.
    #[test]
    fn one_packet_per_node_on_every_level() {
        for n in 0..=9 {
            let b = Butterfly::new(n);
            for seed in 0..20 {
                let inter = ranade_intermediates(n, &mut ChaCha8Rng::seed_from_u64(seed));
                let paths: Vec<Vec<u64>> = (0..b.rows())
                    .map(|a| b.path(a, inter[a as usize]).map(|v| v.row).collect())
                    .collect();
                for l in 0..=n as usize {
                    let mut seen = vec![false; b.rows() as usize];
                    for p in &paths {
                        assert!(!seen[p[l] as usize], "n {n} seed {seed}: two at level {l}");
                        seen[p[l] as usize] = true;
                    }
                }
            }
        }
    }

    /// Each input's intermediate is uniform: over 4000 draws on B(3) each
    /// of the 64 (input, intermediate) pairs has probability 1/8, so its
    /// count is Bin(4000, 1/8) (mean 500, deviation 20.9); all stay within
    /// 5 deviations.
    #[test]
    fn intermediates_are_uniform() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut count = [[0u32; 8]; 8];
        for _ in 0..4000 {
            let inter = ranade_intermediates(3, &mut rng);
            for (a, &x) in inter.iter().enumerate() {
                count[a][x as usize] += 1;
            }
        }
        for row in count {
            for c in row {
                assert!((c as f64 - 500.0).abs() < 5.0 * 20.92, "{c}");
            }
        }
    }
}
