//! The workloads the routers are validated on (`docs/simulation.md`): fixed
//! permutations, random permutations and `kN`-sets, the hot spot, the
//! multi-scale sets and Theorem 4's witness `M(MOT × EXP)`.

use rand::seq::SliceRandom;
use rand::Rng;
use serde::Serialize;
use thiserror::Error;

use super::bounds::{witness, BoundsError};
use super::{Levels, Message, Terminal};

/// The most messages a workload may have (`2^28`).
pub const MAX_MESSAGES: u64 = 1 << 28;

/// A workload: a rule giving a message set on `N` terminals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Workload {
    /// `l -> l xor 1`: `λ = 1` on the pruned butterfly.
    Nbr,
    /// `l -> l xor N/2`: `λ = sqrt(N)`.
    Xorhalf,
    /// `l ->` the `n`-bit reversal of `l`: `λ = sqrt(N)/2` on the pruned
    /// butterfly.
    Bitrev,
    /// `l ->` `l` with its two `n/2`-bit halves swapped: `λ = sqrt(N)/2` on
    /// the pruned butterfly.
    Transpose,
    /// A uniformly random permutation (`λ ≈ sqrt(N)/2`).
    RandomPerm,
    /// Every terminal sends [`Params::k`] messages to independent uniform
    /// random destinations (itself included): degree `> 1`.
    RandomKn,
    /// Every terminal, 0 included, sends one message to terminal 0:
    /// degree `N`, `λ = (N-1)/2` on the pruned butterfly.
    HotSpot,
    /// Every subtree sends `floor(λ0·cap)` messages to its sibling, at
    /// every level at once: see [`multi_scale`].
    MultiScale,
    /// Theorem 4's witness `M(MOT × EXP(η²))` for target
    /// `η =` [`Params::eta`]: see [`witness`].
    MotExp,
}

impl Workload {
    /// Every workload, in declaration order.
    pub const ALL: [Workload; 9] = [
        Workload::Nbr,
        Workload::Xorhalf,
        Workload::Bitrev,
        Workload::Transpose,
        Workload::RandomPerm,
        Workload::RandomKn,
        Workload::HotSpot,
        Workload::MultiScale,
        Workload::MotExp,
    ];

    /// The workload's name as `--traffic` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Workload::Nbr => "nbr",
            Workload::Xorhalf => "xorhalf",
            Workload::Bitrev => "bitrev",
            Workload::Transpose => "transpose",
            Workload::RandomPerm => "random-perm",
            Workload::RandomKn => "random-kn",
            Workload::HotSpot => "hot-spot",
            Workload::MultiScale => "multi-scale",
            Workload::MotExp => "mot-exp",
        }
    }
}

/// The parameters the workloads take.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Params {
    /// Messages per terminal of [`Workload::RandomKn`], at least 1.
    pub k: u32,
    /// `λ0` of [`Workload::MultiScale`], finite and positive.
    pub lambda0: f64,
    /// The target `η` of [`Workload::MotExp`]: a power of 2, at most
    /// `sqrt(N)`.
    pub eta: u32,
    /// Random Hamiltonian cycles in the expander of [`Workload::MotExp`].
    pub cycles: u32,
}

impl Default for Params {
    /// `k = 2`, `λ0 = 1`, `η = 2`, 3 cycles.
    fn default() -> Params {
        Params {
            k: 2,
            lambda0: 1.0,
            eta: 2,
            cycles: 3,
        }
    }
}

/// Why a workload cannot be generated.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum TrafficError {
    /// `random-kn` needs `k >= 1`.
    #[error("random kN-set with k = 0: need at least 1 message per terminal")]
    ZeroK,
    /// `multi-scale` needs a finite positive `λ0`.
    #[error("multi-scale load {lambda0}: need a finite positive number")]
    BadLambda0 {
        /// The value given.
        lambda0: f64,
    },
    /// The set would exceed [`MAX_MESSAGES`].
    #[error("{count} messages: at most {MAX_MESSAGES}")]
    TooMany {
        /// The messages asked for.
        count: u64,
    },
    /// The witness cannot be built.
    #[error(transparent)]
    Witness(#[from] BoundsError),
}

/// The message set of `workload` on the terminals of `levels`.
pub fn generate(
    levels: Levels,
    workload: Workload,
    params: &Params,
    rng: &mut impl Rng,
) -> Result<Vec<Message>, TrafficError> {
    let n = levels.n;
    let terminals = levels.terminals();
    let permutation = |f: &dyn Fn(Terminal) -> Terminal| -> Vec<Message> {
        (0..terminals)
            .map(|src| Message { src, dst: f(src) })
            .collect()
    };
    Ok(match workload {
        Workload::Nbr => permutation(&|l| l ^ 1),
        Workload::Xorhalf => permutation(&|l| l ^ (terminals / 2)),
        Workload::Bitrev => permutation(&|l| l.reverse_bits() >> (32 - n)),
        Workload::Transpose => {
            let half = n / 2;
            permutation(&|l| ((l & ((1 << half) - 1)) << half) | (l >> half))
        }
        Workload::RandomPerm => {
            let mut dst: Vec<Terminal> = (0..terminals).collect();
            dst.shuffle(rng);
            permutation(&|l| dst[l as usize])
        }
        Workload::RandomKn => {
            if params.k == 0 {
                return Err(TrafficError::ZeroK);
            }
            bounded(u64::from(params.k) * u64::from(terminals))?;
            (0..terminals)
                .flat_map(|src| (0..params.k).map(move |_| src))
                .map(|src| Message {
                    src,
                    dst: rng.gen_range(0..terminals),
                })
                .collect()
        }
        Workload::HotSpot => permutation(&|_| 0),
        Workload::MultiScale => multi_scale(levels, params.lambda0)?,
        Workload::MotExp => witness(levels, params.eta, params.cycles, rng)?.messages,
    })
}

fn bounded(count: u64) -> Result<(), TrafficError> {
    if count > MAX_MESSAGES {
        Err(TrafficError::TooMany { count })
    } else {
        Ok(())
    }
}

/// The multi-scale set with load `λ0` (every subtree sends `λ0` times its
/// channel's capacity to its sibling), made exact:
///
/// for every level `i` in `0..n` and every node `T` at level `i + 1`, with
/// sibling `T'` (both of `s = 2^(n-i-1)` leaves, first leaves `t` and
/// `t'`), and `c = floor(λ0 · cap(i+1))` with the pruned butterfly's
/// [`Levels::cap`], `T` sends the `c` messages `t + o_q -> t' + o_q`,
/// `q = 0..c`, where `o_q = floor((2q+1)·s / 2c)` is the middle of the
/// `q`-th of `c` equal blocks of `T`'s leaves.
///
/// So every message sent at level `i` peaks at level `i`, and the channel
/// above `T` carries `c` ascending and `c` descending messages of level
/// `i` (so `λ >= 2λ0` when some `c > 0`, plus the share of the levels
/// above). Sources and destinations spread evenly: each leaf of `T` gets
/// `floor` or `ceil` of `c/s`. Taking the middle of each block rather than
/// its start keeps the degree `O(λ0)`: when `c` divides `s` (`λ0` a power
/// of 2) the leaves used at stride `s/c >= 2` are those whose lowest set
/// bit is `s/2c`, and at most two levels share a stride, whereas block
/// starts would give leaf 0 of every subtree one message per level.
/// Levels where `λ0 · cap < 1` send nothing.
pub fn multi_scale(levels: Levels, lambda0: f64) -> Result<Vec<Message>, TrafficError> {
    if !(lambda0.is_finite() && lambda0 > 0.0) {
        return Err(TrafficError::BadLambda0 { lambda0 });
    }
    let n = levels.n;
    let counts: Vec<u64> = (0..n)
        .map(|i| (lambda0 * f64::from(levels.cap(i + 1))).floor() as u64)
        .collect();
    let total: u64 = (0..n).map(|i| counts[i as usize] << (i + 1)).sum();
    bounded(total)?;
    let mut messages = Vec::with_capacity(total as usize);
    for i in 0..n {
        let c = counts[i as usize];
        let s = 1u64 << (n - i - 1);
        for node in 0..1u64 << (i + 1) {
            let t = node * s;
            let t2 = (node ^ 1) * s;
            messages.extend((0..c).map(|q| {
                let off = (2 * q + 1) * s / (2 * c);
                Message {
                    src: (t + off) as Terminal,
                    dst: (t2 + off) as Terminal,
                }
            }));
        }
    }
    Ok(messages)
}

#[cfg(test)]
mod tests {
    use super::super::bounds::degree;
    use super::super::load::{load_factors, Capacities, Ratio};
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn make(levels: Levels, w: Workload, seed: u64) -> Vec<Message> {
        generate(
            levels,
            w,
            &Params::default(),
            &mut ChaCha8Rng::seed_from_u64(seed),
        )
        .unwrap()
    }

    fn lambda(levels: Levels, m: &[Message]) -> Ratio {
        load_factors(levels, m, Capacities::PrunedButterfly)
            .unwrap()
            .total
            .value
    }

    fn is_permutation(levels: Levels, m: &[Message]) -> bool {
        let mut src: Vec<_> = m.iter().map(|x| x.src).collect();
        let mut dst: Vec<_> = m.iter().map(|x| x.dst).collect();
        src.sort_unstable();
        dst.sort_unstable();
        let all: Vec<_> = (0..levels.terminals()).collect();
        src == all && dst == all
    }

    #[test]
    fn fixed_workloads_have_the_stated_load_factors() {
        let l = Levels::new(1024).unwrap();
        let r = |a, b| Ratio::new(a, b).unwrap();
        let cases = [
            (Workload::Nbr, r(1, 1)),
            (Workload::Xorhalf, r(32, 1)),
            (Workload::Bitrev, r(16, 1)),
            (Workload::Transpose, r(16, 1)),
            (Workload::HotSpot, r(1023, 2)),
        ];
        for (w, want) in cases {
            let m = make(l, w, 0);
            assert_eq!(lambda(l, &m), want, "{w:?}");
        }
        for big in [16u64, 64, 256, 4096] {
            let l = Levels::new(big).unwrap();
            let root = u64::from(l.root_side());
            assert_eq!(lambda(l, &make(l, Workload::Nbr, 0)), r(1, 1));
            assert_eq!(lambda(l, &make(l, Workload::Xorhalf, 0)), r(root, 1));
            assert_eq!(lambda(l, &make(l, Workload::HotSpot, 0)), r(big - 1, 2));
            assert_eq!(lambda(l, &make(l, Workload::Bitrev, 0)), r(root, 2));
            assert_eq!(lambda(l, &make(l, Workload::Transpose, 0)), r(root, 2));
        }
    }

    #[test]
    fn permutations_are_permutations_and_degrees_hold() {
        let l = Levels::new(1024).unwrap();
        for w in [
            Workload::Nbr,
            Workload::Xorhalf,
            Workload::Bitrev,
            Workload::Transpose,
            Workload::RandomPerm,
        ] {
            for seed in 0..3 {
                let m = make(l, w, seed);
                assert!(is_permutation(l, &m), "{w:?}");
                assert_eq!(degree(&m), 1);
            }
        }
        let rp = lambda(l, &make(l, Workload::RandomPerm, 9)).to_f64();
        println!("random permutation N = 1024: λ = {rp}");
        assert!((12.8..=32.0).contains(&rp), "{rp}");
        assert_eq!(degree(&make(l, Workload::HotSpot, 0)), 1024);
        let params = Params {
            k: 4,
            ..Params::default()
        };
        let m = generate(
            l,
            Workload::RandomKn,
            &params,
            &mut ChaCha8Rng::seed_from_u64(3),
        )
        .unwrap();
        assert_eq!(m.len(), 4096);
        assert!(m
            .chunks(4)
            .enumerate()
            .all(|(t, c)| c.iter().all(|x| x.src == t as u32)));
        assert!(degree(&m) > 4, "some terminal receives more than k");
        let zero = Params {
            k: 0,
            ..Params::default()
        };
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert_eq!(
            generate(l, Workload::RandomKn, &zero, &mut rng),
            Err(TrafficError::ZeroK)
        );
    }

    #[test]
    fn multi_scale_sends_lambda0_cap_at_every_level() {
        for (big, lambda0) in [(64u64, 1.0), (1024, 1.0), (1024, 0.5), (4096, 2.0)] {
            let l = Levels::new(big).unwrap();
            let m = multi_scale(l, lambda0).unwrap();
            for i in 0..l.n {
                let c = (lambda0 * f64::from(l.cap(i + 1))) as usize;
                let at: Vec<_> = m.iter().filter(|x| l.peak(x.src, x.dst) == i).collect();
                assert_eq!(at.len(), c << (i + 1), "level {i}");
                // Each child of a level-i node sends c messages.
                let left = at
                    .iter()
                    .filter(|x| l.ancestor(x.src, i + 1) % 2 == 0)
                    .count();
                assert_eq!(left, c << i);
            }
            let f = load_factors(l, &m, Capacities::PrunedButterfly).unwrap();
            let lam = f.total.value.to_f64();
            println!(
                "multi-scale N = {big}, λ0 = {lambda0}: λ = {lam}, d = {}",
                degree(&m)
            );
            assert!(lam >= 2.0 * lambda0 && lam <= 8.0 * lambda0, "{lam}");
            assert!(f64::from(degree(&m)) <= 6.0 * lambda0 + 2.0);
        }
        assert!(matches!(
            multi_scale(Levels::new(16).unwrap(), -1.0),
            Err(TrafficError::BadLambda0 { .. })
        ));
        assert!(matches!(
            multi_scale(Levels::new(16).unwrap(), 1e12),
            Err(TrafficError::TooMany { .. })
        ));
    }

    #[test]
    fn mot_exp_is_the_witness_and_names_are_kebab_case() {
        let l = Levels::new(4096).unwrap();
        let params = Params {
            eta: 4,
            ..Params::default()
        };
        let m = generate(
            l,
            Workload::MotExp,
            &params,
            &mut ChaCha8Rng::seed_from_u64(2),
        )
        .unwrap();
        let w = witness(l, 4, 3, &mut ChaCha8Rng::seed_from_u64(2)).unwrap();
        assert_eq!(m, w.messages);
        assert!(degree(&m) <= 9 && degree(&m) > 1);
        let bad = Params {
            eta: 128,
            ..Params::default()
        };
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert!(matches!(
            generate(l, Workload::MotExp, &bad, &mut rng),
            Err(TrafficError::Witness(BoundsError::EtaTooLarge { .. }))
        ));
        let names: Vec<_> = Workload::ALL.iter().map(|w| w.name()).collect();
        let want = [
            "nbr",
            "xorhalf",
            "bitrev",
            "transpose",
            "random-perm",
            "random-kn",
            "hot-spot",
            "multi-scale",
            "mot-exp",
        ];
        assert_eq!(names, want);
        // Reports name them in snake_case.
        for (w, name) in Workload::ALL.iter().zip(want) {
            assert_eq!(
                serde_norway::to_string(w).unwrap().trim(),
                name.replace('-', "_")
            );
        }
    }
}
