//! The k-k routing problems (docs/simulation.md, k-k routing, "Step
//! semantics"): every PU sends k packets and receives k.

use rand::seq::SliceRandom;
use rand::Rng;

use super::shape::{Pu, Shape, Topology};
use super::MeshError;

/// Which k-k problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Workload {
    /// k-LS, the large shift: every coordinate `i -> (i + n/2) mod n` (n
    /// even). The worst case for the bisection and connection bounds.
    Ls,
    /// k-PR, the point reflection: every coordinate `i -> n - 1 - i`. The
    /// worst case for the distance and bisection bounds.
    Pr,
    /// A random k-permutation: the multiset of k copies of every PU,
    /// shuffled.
    Random,
    /// Locality L: every coordinate moves by exactly L, `i -> (i + L) mod
    /// n` on the torus; on the mesh `i -> i + L` in the lower half of each
    /// aligned block of 2L and `i - L` in the upper half (n a multiple of
    /// 2L).
    Local,
}

impl std::fmt::Display for Workload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Workload::Ls => "ls",
            Workload::Pr => "pr",
            Workload::Random => "random",
            Workload::Local => "local",
        })
    }
}

/// A k-k routing problem: packet `p` goes from `source[p]` to `dest[p]`;
/// packets `u k .. u k + k` start at PU `u`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Packets per PU.
    pub k: u32,
    /// Each packet's source.
    pub source: Vec<Pu>,
    /// Each packet's destination.
    pub dest: Vec<Pu>,
}

impl Problem {
    /// The problem of `workload` with `k` packets per PU on `shape`
    /// (`locality` is L for [`Workload::Local`]).
    pub fn generate<R: Rng>(
        shape: &Shape,
        k: u32,
        workload: Workload,
        locality: u32,
        rng: &mut R,
    ) -> Result<Problem, MeshError> {
        let n = shape.side;
        let map: Box<dyn Fn(u32) -> u32> = match workload {
            Workload::Ls if n % 2 == 1 => return Err(MeshError::OddShift(n)),
            Workload::Ls => Box::new(move |i| (i + n / 2) % n),
            Workload::Pr => Box::new(move |i| n - 1 - i),
            Workload::Local => {
                let l = locality;
                if l == 0 || l > n / 2 || (shape.topology == Topology::Mesh && n % (2 * l) != 0) {
                    return Err(MeshError::Locality {
                        l,
                        n,
                        topology: shape.topology,
                    });
                }
                match shape.topology {
                    Topology::Torus => Box::new(move |i| (i + l) % n),
                    Topology::Mesh => {
                        Box::new(move |i| if i % (2 * l) < l { i + l } else { i - l })
                    }
                }
            }
            Workload::Random => {
                let mut dest: Vec<Pu> = (0..shape.pus() as Pu)
                    .flat_map(|u| std::iter::repeat_n(u, k as usize))
                    .collect();
                dest.shuffle(rng);
                return Ok(Problem::with_dests(shape, k, dest));
            }
        };
        let dest = (0..shape.pus() as Pu)
            .flat_map(|u| {
                let c: Vec<u32> = shape.coords(u).into_iter().map(&map).collect();
                std::iter::repeat_n(shape.pu(&c), k as usize)
            })
            .collect();
        Ok(Problem::with_dests(shape, k, dest))
    }

    fn with_dests(shape: &Shape, k: u32, dest: Vec<Pu>) -> Problem {
        let source = (0..shape.pus() as Pu)
            .flat_map(|u| std::iter::repeat_n(u, k as usize))
            .collect();
        Problem { k, source, dest }
    }

    /// Each packet as `flits` packets with its source and destination:
    /// the flits of worms, for the bounds.
    pub fn with_flits(&self, flits: u32) -> Problem {
        let f = flits as usize;
        let rep = |v: &[Pu]| v.iter().flat_map(|&x| std::iter::repeat_n(x, f)).collect();
        Problem {
            k: self.k * flits,
            source: rep(&self.source),
            dest: rep(&self.dest),
        }
    }

    /// Number of packets, `k n^d`.
    pub fn len(&self) -> usize {
        self.source.len()
    }

    /// Whether there are no packets.
    pub fn is_empty(&self) -> bool {
        self.source.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn every_workload_is_a_k_k_problem() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for topology in [Topology::Mesh, Topology::Torus] {
            for (n, d) in [(8, 1), (8, 2), (4, 3)] {
                let shape = Shape::new(n, d, topology).unwrap();
                for w in [
                    Workload::Ls,
                    Workload::Pr,
                    Workload::Random,
                    Workload::Local,
                ] {
                    let p = Problem::generate(&shape, 3, w, 2, &mut rng).unwrap();
                    let mut received = vec![0u32; shape.pus()];
                    for &t in &p.dest {
                        received[t as usize] += 1;
                    }
                    assert!(received.iter().all(|&r| r == 3), "{w} {shape}");
                    assert_eq!(p.len(), 3 * shape.pus());
                    if w == Workload::Local {
                        for (&s, &t) in p.source.iter().zip(&p.dest) {
                            for a in 0..d {
                                assert_eq!(
                                    shape.line_distance(shape.coord(s, a), shape.coord(t, a)),
                                    2
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn shifts_and_reflections_go_where_the_paper_says() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let shape = Shape::new(6, 2, Topology::Mesh).unwrap();
        let ls = Problem::generate(&shape, 1, Workload::Ls, 0, &mut rng).unwrap();
        assert_eq!(
            shape.coords(ls.dest[shape.pu(&[1, 4]) as usize]),
            vec![4, 1]
        );
        let pr = Problem::generate(&shape, 1, Workload::Pr, 0, &mut rng).unwrap();
        assert_eq!(
            shape.coords(pr.dest[shape.pu(&[1, 4]) as usize]),
            vec![4, 1]
        );
        assert_eq!(
            shape.coords(pr.dest[shape.pu(&[0, 2]) as usize]),
            vec![5, 3]
        );
        let odd = Shape::new(5, 2, Topology::Mesh).unwrap();
        assert_eq!(
            Problem::generate(&odd, 1, Workload::Ls, 0, &mut rng),
            Err(MeshError::OddShift(5))
        );
    }
}
