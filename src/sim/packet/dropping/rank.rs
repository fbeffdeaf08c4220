//! Ranks (section 5: uniform in `1 ..= r`, least rank dropped first), their
//! tie-breaking keys, and the bounds of Theorem 5.2 in terms of `r`.

use super::DropError;
use rand::Rng;

/// The range `1 ..= r` ranks are drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RankRange {
    /// `max(2, round((log N)^(1/q)))` for `q >= 2`, and
    /// `max(2, 2 log N)` for `q = 1`, for which the paper notes that
    /// `r = log N` leaves the bound vacuous and "a slightly larger choice
    /// for r would make the arguments work".
    #[default]
    Auto,
    /// This `r` (at least 1).
    Fixed(u32),
}

impl RankRange {
    /// `r` for `B(n)` and capacity `q >= 1`.
    pub fn resolve(self, n: u32, q: u32) -> Result<u32, DropError> {
        match self {
            RankRange::Fixed(0) => Err(DropError::ZeroRankRange),
            RankRange::Fixed(r) => Ok(r),
            RankRange::Auto if q <= 1 => Ok((2 * n).max(2)),
            RankRange::Auto => {
                let r = (n as f64).powf(1.0 / q as f64).round() as u32;
                Ok(r.max(2))
            }
        }
    }
}

/// `q!` in floating point (infinite beyond 170).
fn factorial(q: u32) -> f64 {
    (1..=q).map(f64::from).product()
}

/// Theorem 5.2's bound on `E[S] / N` as the paper states it,
/// `(1 - 1/q!) / r`. It is proved for `r = (log N)^(1/q)` and holds for
/// any `r` with `r^q >= log N`; see [`general_bound`] otherwise.
pub fn theorem_bound(q: u32, r: u32) -> f64 {
    (1.0 - 1.0 / factorial(q)) / r as f64
}

/// The proof of Theorem 5.2 for any `r`: a top-rank packet (probability
/// `1/r`) is lost only if a node of its path is passed by `q` other
/// top-rank packets, of which at most `log N / (q! r^q)` are expected, so
/// `E[S] / N >= (1 - log N / (q! r^q)) / r`. It bounds the mean fraction
/// of packets that are delivered *with rank `r`*, and a fortiori `E[S]/N`.
/// Negative (vacuous) when `r^q < log N / q!`.
pub fn general_bound(n: u32, q: u32, r: u32) -> f64 {
    let r = r as f64;
    (1.0 - n as f64 / (factorial(q) * r.powi(q as i32))) / r
}

/// Every packet's rank and tie-breaking key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Priorities {
    /// Ranks, uniform in `1 ..= r`.
    pub rank: Vec<u32>,
    /// Keys, uniform `u64`, that order packets of equal rank.
    pub key: Vec<u64>,
    /// The top rank `r`.
    pub top: u32,
}

impl Priorities {
    /// Draws `count` packets' ranks and keys, packet by packet (rank, then
    /// key). Callers have checked `r >= 1` ([`RankRange::resolve`]).
    pub fn draw(count: usize, r: u32, rng: &mut impl Rng) -> Priorities {
        debug_assert!(r >= 1);
        let mut rank = Vec::with_capacity(count);
        let mut key = Vec::with_capacity(count);
        for _ in 0..count {
            rank.push(rng.gen_range(1..=r));
            key.push(rng.gen());
        }
        Priorities { rank, key, top: r }
    }

    /// Packet `p`'s priority as a sort key: rank, then key, then (never in
    /// practice) lower index first.
    pub fn priority(&self, p: usize) -> (u32, u64, std::cmp::Reverse<usize>) {
        (self.rank[p], self.key[p], std::cmp::Reverse(p))
    }

    /// Whether packet `a` has priority over packet `b`.
    #[cfg(test)]
    pub fn beats(&self, a: usize, b: usize) -> bool {
        self.priority(a) > self.priority(b)
    }

    /// The packets from highest priority to lowest.
    pub fn order(&self) -> Vec<u32> {
        debug_assert!(self.rank.len() <= u32::MAX as usize);
        // One integer per packet ordered as `priority`: rank, key, then the
        // complemented index (lower index first among equals).
        let mut packed: Vec<u128> = (0..self.rank.len())
            .map(|i| {
                (self.rank[i] as u128) << 96 | (self.key[i] as u128) << 32 | !(i as u32) as u128
            })
            .collect();
        packed.sort_unstable_by(|a, b| b.cmp(a));
        packed.into_iter().map(|x| !(x as u32)).collect()
    }

    /// How many of `packets` have the top rank.
    pub fn count_top(&self, packets: impl Iterator<Item = usize>) -> u64 {
        packets.filter(|&p| self.rank[p] == self.top).count() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// `order` lists packets so that each beats every later one, and
    /// `beats` is the comparison it sorts by.
    #[test]
    fn order_is_by_beats() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for r in [1, 2, 5] {
            let p = Priorities::draw(200, r, &mut rng);
            assert!(p.rank.iter().all(|&x| (1..=r).contains(&x)));
            let order = p.order();
            for w in order.windows(2) {
                assert!(p.beats(w[0] as usize, w[1] as usize));
                assert!(!p.beats(w[1] as usize, w[0] as usize));
            }
            // Rank 1 of 1: only the keys order the packets.
            if r == 1 {
                assert!(order
                    .windows(2)
                    .all(|w| p.key[w[0] as usize] >= p.key[w[1] as usize]));
            }
        }
    }

    /// The automatic range against its rule worked by hand, and the errors.
    #[test]
    fn rank_ranges() {
        // q = 1: 2 log N.
        assert_eq!(RankRange::Auto.resolve(8, 1), Ok(16));
        assert_eq!(RankRange::Auto.resolve(0, 1), Ok(2));
        // q = 2: sqrt(8) = 2.83 -> 3; sqrt(12) = 3.46 -> 3; sqrt(20) = 4.47.
        assert_eq!(RankRange::Auto.resolve(8, 2), Ok(3));
        assert_eq!(RankRange::Auto.resolve(12, 2), Ok(3));
        assert_eq!(RankRange::Auto.resolve(20, 2), Ok(4));
        // q = 3: 8^(1/3) = 2; 20^(1/3) = 2.71 -> 3; small n -> 2.
        assert_eq!(RankRange::Auto.resolve(8, 3), Ok(2));
        assert_eq!(RankRange::Auto.resolve(20, 3), Ok(3));
        assert_eq!(RankRange::Auto.resolve(1, 3), Ok(2));
        assert_eq!(RankRange::Fixed(7).resolve(8, 2), Ok(7));
        assert_eq!(
            RankRange::Fixed(0).resolve(8, 2),
            Err(DropError::ZeroRankRange)
        );
    }

    /// The bounds at hand-computed points; the general form equals the
    /// paper's when `r^q = log N`.
    #[test]
    fn bounds() {
        assert_eq!(theorem_bound(1, 5), 0.0);
        assert!((theorem_bound(2, 4) - 0.125).abs() < 1e-15);
        assert!((theorem_bound(3, 2) - (5.0 / 6.0) / 2.0).abs() < 1e-15);
        // q = 2, r = 4, log N = 16: r^q = log N.
        assert!((general_bound(16, 2, 4) - theorem_bound(2, 4)).abs() < 1e-15);
        // q = 1, r = 2 log N: (1 - 1/2) / (2 log N).
        assert!((general_bound(8, 1, 16) - 0.5 / 16.0).abs() < 1e-15);
        assert!(general_bound(12, 2, 2) < 0.0);
    }
}
