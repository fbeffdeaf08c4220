//! The exact `E[S] / N` of model C on Koch's random problem (E5 in `docs/simulation.md`):
//! the number of packets at one node is a function of its input tree
//! only, and the two trees that feed a node are disjoint, hence
//! independent. Level by level:
//!
//! - per edge: `Y_l` packets at a level-`l` node; each goes toward a given
//!   out-neighbour with probability 1/2 (its destination bit `l`, unseen
//!   so far), the edge keeps `E_l = min(q, Bin(Y_l, 1/2))`, and the next
//!   node gets `Y_(l+1) = E_l + E'_l` from two independent feeders;
//! - per node: `Z_(l+1) = min(q, Bin(Z_l + Z'_l, 1/2))`.
//!
//! `E[S] / N` is the mean number reaching one output, `E[Y_n]` or
//! `E[Z_n]`. Which packets a group keeps does not change these counts:
//! the kept ones' later bits are fair coins whichever they are (Koch's
//! remark in section 5).
//!
//! The start `Y_0 = Z_0 = delta_1` is the simulation's rule with one
//! packet per input: per edge, the capacity applies to each out-edge from
//! level 0 on, and an input's single packet never exceeds it; per node,
//! the capacity applies to what enters a node, and level 0 is entered by
//! nothing (it holds its one packet, at most `q`). Both oracles thus
//! start from exactly one packet at each input, and the first possible
//! drop is on the hop from level 0 (per edge) or into level 1 (per node),
//! where both simulation and recursion first apply `min(q, .)`.
//!
//! The laws live on `0 ..= 2q` and are computed in `f64` with exact
//! binomial weights (Pascal's rule halved per row), `O(n q^2)`.

use super::{Capacity, DropError};

/// The largest `q` the oracle takes (binomials of up to `2q` trials).
pub const MAX_ORACLE_Q: u32 = 256;

/// The largest `lg N` the oracle takes.
pub const MAX_ORACLE_N: u32 = 64;

/// `table[y][e] = P(Bin(y, 1/2) = e)` for `y <= m`.
fn binomials(m: usize) -> Vec<Vec<f64>> {
    let mut table = vec![vec![1.0]];
    for y in 1..=m {
        let prev = &table[y - 1];
        let row: Vec<f64> = (0..=y)
            .map(|e| {
                let left = if e > 0 { prev[e - 1] } else { 0.0 };
                let right = prev.get(e).copied().unwrap_or(0.0);
                (left + right) / 2.0
            })
            .collect();
        table.push(row);
    }
    table
}

/// The law of `min(q, Bin(X, 1/2))` for `X` of law `x`.
fn thin(x: &[f64], q: usize, bin: &[Vec<f64>]) -> Vec<f64> {
    let mut out = vec![0.0; q + 1];
    for (y, &p) in x.iter().enumerate() {
        for (e, &b) in bin[y].iter().enumerate() {
            out[e.min(q)] += p * b;
        }
    }
    out
}

/// The law of `X + X'` for independent `X, X'` of law `x`.
fn pair(x: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; 2 * x.len() - 1];
    for (a, &pa) in x.iter().enumerate() {
        for (b, &pb) in x.iter().enumerate() {
            out[a + b] += pa * pb;
        }
    }
    out
}

/// The law of the number of packets that reach one output of `B(n)` on
/// Koch's random problem under model C: `Y_n` on `0 ..= 2q` per edge,
/// `Z_n` on `0 ..= q` per node (index = count).
pub fn koch_distribution(n: u32, q: u32, capacity: Capacity) -> Result<Vec<f64>, DropError> {
    if q == 0 {
        return Err(DropError::ZeroCapacity);
    }
    if q > MAX_ORACLE_Q {
        return Err(DropError::OracleCapacity {
            q,
            max: MAX_ORACLE_Q,
        });
    }
    if n > MAX_ORACLE_N {
        return Err(DropError::TooLarge {
            n,
            max: MAX_ORACLE_N,
        });
    }
    let q = q as usize;
    let bin = binomials(2 * q);
    let mut law = vec![0.0, 1.0];
    for _ in 0..n {
        law = match capacity {
            Capacity::PerEdge => pair(&thin(&law, q, &bin)),
            Capacity::PerNode => thin(&pair(&law), q, &bin),
        };
    }
    Ok(law)
}

/// Koch's random problem's exact `E[S] / N` under model C: the mean of
/// [`koch_distribution`].
pub fn koch_exact(n: u32, q: u32, capacity: Capacity) -> Result<f64, DropError> {
    let law = koch_distribution(n, q, capacity)?;
    Ok(law.iter().enumerate().map(|(k, &p)| k as f64 * p).sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact values of E5 (`docs/simulation.md`), per edge / per
    /// node, to 4 decimals.
    #[test]
    fn reproduces_the_exact_table() {
        let table: [(u32, [(f64, f64); 4]); 3] = [
            (
                1,
                [
                    (0.5092, 0.3004),
                    (0.4009, 0.2272),
                    (0.3312, 0.1833),
                    (0.2825, 0.1538),
                ],
            ),
            (
                2,
                [
                    (0.8990, 0.7077),
                    (0.8418, 0.6179),
                    (0.7936, 0.5535),
                    (0.7523, 0.5047),
                ],
            ),
            (
                3,
                [
                    (0.9874, 0.9196),
                    (0.9767, 0.8756),
                    (0.9663, 0.8380),
                    (0.9563, 0.8053),
                ],
            ),
        ];
        for (q, row) in table {
            for (n, (edge, node)) in [8, 12, 16, 20].into_iter().zip(row) {
                let e = koch_exact(n, q, Capacity::PerEdge).expect("q, n in range");
                let v = koch_exact(n, q, Capacity::PerNode).expect("q, n in range");
                assert_eq!((e * 1e4).round() / 1e4, edge, "q {q} n {n} per edge: {e}");
                assert_eq!((v * 1e4).round() / 1e4, node, "q {q} n {n} per node: {v}");
            }
        }
    }

    /// Small cases by hand. n = 1, q = 1, per edge: each of the two
    /// packets of a level-0 pair comes this way with probability 1/2 and
    /// each edge holds at most one, so Y_1 = Bin(2, 1/2) and the mean is 1.
    /// Per node: at most one of them enters, min(1, Bin(2, 1/2)) has mean
    /// 3/4. With q >= 2^n nothing is ever dropped and the mean is 1.
    #[test]
    fn small_cases_by_hand() {
        let law = koch_distribution(1, 1, Capacity::PerEdge).expect("in range");
        assert_eq!(law, vec![0.25, 0.5, 0.25]);
        assert_eq!(koch_exact(1, 1, Capacity::PerNode), Ok(0.75));
        // n = 2, q = 1 per node: Z_1 = 1 w.p. 3/4; Z_1 + Z_1' is 2 w.p.
        // 9/16, 1 w.p. 6/16; P(Z_2 = 1) = 9/16 * 3/4 + 6/16 * 1/2.
        let z2 = 9.0 / 16.0 * 0.75 + 6.0 / 16.0 * 0.5;
        assert!((koch_exact(2, 1, Capacity::PerNode).expect("in range") - z2).abs() < 1e-15);
        for n in 0..=5 {
            for cap in [Capacity::PerEdge, Capacity::PerNode] {
                let mean = koch_exact(n, 1 << n, cap).expect("in range");
                assert!((mean - 1.0).abs() < 1e-12, "n {n} {cap:?}: {mean}");
                let law = koch_distribution(n, 3, cap).expect("in range");
                assert!((law.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            }
        }
    }

    /// Parameters outside the oracle's range are refused.
    #[test]
    fn refuses_bad_parameters() {
        assert_eq!(
            koch_exact(8, 0, Capacity::PerEdge),
            Err(DropError::ZeroCapacity)
        );
        assert_eq!(
            koch_exact(8, 1000, Capacity::PerEdge),
            Err(DropError::OracleCapacity { q: 1000, max: 256 })
        );
        assert_eq!(
            koch_exact(65, 1, Capacity::PerNode),
            Err(DropError::TooLarge { n: 65, max: 64 })
        );
    }
}
