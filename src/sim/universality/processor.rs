//! The routing delay `delta` of each fat-tree routing algorithm (thesis
//! chapter 3) and what chapter 4 builds from it: processor size `Delta`
//! (Theorems 11-17), larger competitors (Theorems 19-20) and asynchrony
//! (Lemma 21). Every `delta` is an `O()` shape in bit-times without a
//! constant: the report gives its value and the theorem, no verdict.

use schemars::JsonSchema;
use serde::Serialize;

/// A fat-tree routing algorithm, for its delivery time `delta(lambda, n)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Routing {
    /// RANDOM (Theorem 7): `O(lambda + lg n lg lg n)` cycles of `O(lg^2 n)`
    /// bit-times.
    Random,
    /// RANDOM' (Theorem 9): `O(lambda)` cycles of `O(lg^2 n)` bit-times.
    RandomPrime,
    /// The butterfly fat-tree algorithm (section 3.5): `O(lambda lg^2 n)`
    /// cycles of `O(lg n)` bit-times.
    Bft,
    /// Park's deterministic algorithm: `lambda lg^2 n + lg^3 n` bit-times.
    Park,
    /// Leighton, Maggs and Rao's packet routing: `lambda lg n + lg^2 n`
    /// bit-times.
    Lmr,
}

impl Routing {
    /// Every algorithm, in the order of the reports.
    pub const ALL: [Routing; 5] = [
        Routing::Random,
        Routing::RandomPrime,
        Routing::Bft,
        Routing::Park,
        Routing::Lmr,
    ];

    /// The name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Routing::Random => "RANDOM",
            Routing::RandomPrime => "RANDOM'",
            Routing::Bft => "BFT",
            Routing::Park => "Park",
            Routing::Lmr => "LMR",
        }
    }

    /// `delta(lambda, n)` as a formula, and where it comes from.
    pub fn formula(self) -> &'static str {
        match self {
            Routing::Random => {
                "(lambda + lg n max(1, lg lg n)) lg^2 n (Theorem 7 cycles x section 3.6 cycle time)"
            }
            Routing::RandomPrime => "lambda lg^2 n (Theorem 9 cycles x section 3.6 cycle time)",
            Routing::Bft => "lambda lg^2 n x lg n (section 3.5 cycles x its cycle time)",
            Routing::Park => "lambda lg^2 n + lg^3 n (section 3.4, Park)",
            Routing::Lmr => "lambda lg n + lg^2 n (section 3.4, Leighton-Maggs-Rao)",
        }
    }

    /// `delta(lambda, n)` in bit-times, no constant, with `lg n` given.
    pub fn delta(self, lambda: f64, lg_n: f64) -> f64 {
        let lg_n = lg_n.max(1.0);
        let lglg = lg_n.log2().max(1.0);
        match self {
            Routing::Random => (lambda + lg_n * lglg) * lg_n * lg_n,
            Routing::RandomPrime => lambda * lg_n * lg_n,
            Routing::Bft => lambda * lg_n.powi(3),
            Routing::Park => lambda * lg_n * lg_n + lg_n.powi(3),
            Routing::Lmr => lambda * lg_n + lg_n * lg_n,
        }
    }

    /// `delta(x) = delta(x, 2^x)`: load factor `x` on `2^x` processors.
    pub fn delta_of(self, x: f64) -> f64 {
        self.delta(x, x)
    }
}

/// Which of Theorems 11-15 covers a pair of processor areas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProcessorTheorem {
    /// Same processors, `alpha >= lg A`: `Delta = delta(lg(A/alpha))`
    /// (Corollary 12 with LMR: `lg^2(A/alpha)`).
    Theorem11,
    /// Larger fat-tree processors, `alpha_F >= max(alpha_R, lg A)`:
    /// `Delta = max{delta(lg(A/alpha_F)), alpha_F/alpha_R}`.
    Theorem13,
    /// Smaller fat-tree processors, `alpha_R >= alpha_F >= lg A`:
    /// `Delta = delta(lg(A/alpha_F))`.
    Theorem14,
    /// `alpha_F < lg A`: a processor cannot address the `A/alpha_F`
    /// processors the routing needs, and no theorem applies (the value is
    /// Theorem 15's formula, for comparison).
    Outside,
}

impl ProcessorTheorem {
    /// The name in reports.
    pub fn name(self) -> &'static str {
        match self {
            ProcessorTheorem::Theorem11 => "Theorem 11",
            ProcessorTheorem::Theorem13 => "Theorem 13",
            ProcessorTheorem::Theorem14 => "Theorem 14",
            ProcessorTheorem::Outside => "none (alpha_F < lg A)",
        }
    }

    /// The theorem for fat-tree processors `alpha_f`, competitor processors
    /// `alpha_r`, area `A` (`lg_a = lg A`).
    pub fn of(alpha_f: f64, alpha_r: f64, lg_a: f64) -> ProcessorTheorem {
        if alpha_f < lg_a {
            ProcessorTheorem::Outside
        } else if alpha_f > alpha_r {
            ProcessorTheorem::Theorem13
        } else if alpha_f < alpha_r {
            ProcessorTheorem::Theorem14
        } else {
            ProcessorTheorem::Theorem11
        }
    }
}

/// Where the fat-tree's processor area sits against Corollary 16's range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RangePlace {
    /// Below `lg A`.
    Below,
    /// In `[lg A, delta(lg A)]`.
    Inside,
    /// Above `delta(lg A)`.
    Above,
}

/// `Delta` for one routing algorithm.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct DeltaRow {
    /// The algorithm.
    pub routing: Routing,
    /// `delta(lg(A/alpha_F))`, bit-times (shape).
    pub delta: f64,
    /// `Delta = max{delta(lg(A/alpha_F)), alpha_F/alpha_R}` (Theorem 15).
    pub big_delta: f64,
    /// Corollary 16's range for `alpha_F`: `[lg A, delta(lg A)]`.
    pub recommended: [f64; 2],
    /// Where `alpha_F` sits against it.
    pub place: RangePlace,
}

/// Processor size (Theorems 11-17).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ProcessorSize {
    /// `alpha_F`, the fat-tree's processor area.
    pub alpha_f: u64,
    /// `alpha_R`, the competitor's (smallest) processor area.
    pub alpha_r: u64,
    /// `lg A`.
    pub lg_a: f64,
    /// `lg(A / alpha_F)`: the load factor's shape (Lemma 10 with processors
    /// of `alpha_F`).
    pub load_factor: f64,
    /// `alpha_F / alpha_R`: the computation slowdown of Theorem 13 (at
    /// least 1: a larger competitor processor is split, Theorem 14).
    pub compute: f64,
    /// The theorem that applies.
    pub theorem: ProcessorTheorem,
    /// One row per algorithm.
    pub rows: Vec<DeltaRow>,
    /// Corollary 17: with LMR and `alpha_F` in Corollary 16's range,
    /// `Delta = delta_LMR(lg A) = 2 lg^2 A`, which is `O(lg^2 A)`.
    pub corollary17: f64,
}

/// Processor size for area `A` (`lg_a`), `alpha_f` and `alpha_r`.
pub fn processor_size(lg_a: f64, alpha_f: u64, alpha_r: u64) -> ProcessorSize {
    let (af, ar) = (alpha_f as f64, alpha_r as f64);
    let load_factor = (lg_a - af.log2()).max(1.0);
    let compute = (af / ar).max(1.0);
    let rows = Routing::ALL
        .iter()
        .map(|&routing| {
            let delta = routing.delta_of(load_factor);
            let top = routing.delta_of(lg_a);
            let place = if af < lg_a {
                RangePlace::Below
            } else if af > top {
                RangePlace::Above
            } else {
                RangePlace::Inside
            };
            DeltaRow {
                routing,
                delta,
                big_delta: delta.max(compute),
                recommended: [lg_a, top],
                place,
            }
        })
        .collect();
    ProcessorSize {
        alpha_f,
        alpha_r,
        lg_a,
        load_factor,
        compute,
        theorem: ProcessorTheorem::of(af, ar, lg_a),
        rows,
        corollary17: Routing::Lmr.delta_of(lg_a),
    }
}

/// Which of Theorems 19 and 20 gives the smaller load factor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LargerTheorem {
    /// `sqrt(A_R/A_F) lg A_F`.
    Theorem19,
    /// `sqrt(A_F) lg A_F` (smaller when `A_R > A_F^2`).
    Theorem20,
}

/// A competitor of area `A_R >= A_F` with processor area `A_F`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Larger {
    /// `A_R`.
    pub competitor_area: f64,
    /// Theorem 19's load factor `sqrt(A_R/A_F) lg A_F`.
    pub lambda19: f64,
    /// Theorem 20's `sqrt(A_F) lg A_F`.
    pub lambda20: f64,
    /// The smaller of the two.
    pub theorem: LargerTheorem,
    /// `delta(lambda, A_F)` for the smaller load factor, bit-times (shape).
    pub delta: f64,
}

/// Theorems 19-20 for a fat-tree of area `a_f` against `a_r`, with
/// `routing`'s delta.
pub fn larger(a_f: u64, a_r: f64, routing: Routing) -> Larger {
    let lg = (a_f as f64).log2();
    let lambda19 = (a_r / a_f as f64).sqrt() * lg;
    let lambda20 = (a_f as f64).sqrt() * lg;
    let (theorem, lambda) = if lambda20 < lambda19 {
        (LargerTheorem::Theorem20, lambda20)
    } else {
        (LargerTheorem::Theorem19, lambda19)
    };
    Larger {
        competitor_area: a_r,
        lambda19,
        lambda20,
        theorem,
        delta: routing.delta(lambda, lg),
    }
}

/// The competitor areas reported by default: `A_F^(1 + j/4)`, `j = 0 ..=
/// 4`, from the fat-tree's own area to its square.
pub fn default_competitor_areas(a_f: u64) -> Vec<f64> {
    (0..=4)
        .map(|j| (a_f as f64).powf(1.0 + j as f64 / 4.0))
        .collect()
}

/// Where one of Lemma 21's two times comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TimeSource {
    /// Given on the command line.
    Given,
    /// `f = delta(lg(A/alpha_F))` of the chosen algorithm (Theorem 15).
    Delivery,
    /// `g = max(1, alpha_F/alpha_R)` (Theorem 13's block computation).
    Computation,
}

/// Lemma 21: an asynchronous competitor is simulated with slowdown
/// `max{f, g}`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Asynchrony {
    /// Time to deliver the messages the competitor delivers in unit time.
    pub f: f64,
    /// Where `f` comes from.
    pub f_source: TimeSource,
    /// Time per unit of the competitor's computation.
    pub g: f64,
    /// Where `g` comes from.
    pub g_source: TimeSource,
    /// `max{f, g}`: time `t` of the competitor takes `t max{f, g}`.
    pub slowdown: f64,
}

/// Lemma 21 with `f` and `g` given, or taken from `size` and `routing`.
pub fn asynchrony(
    size: &ProcessorSize,
    routing: Routing,
    f: Option<f64>,
    g: Option<f64>,
) -> Asynchrony {
    let (f, f_source) = match f {
        Some(f) => (f, TimeSource::Given),
        None => (routing.delta_of(size.load_factor), TimeSource::Delivery),
    };
    let (g, g_source) = match g {
        Some(g) => (g, TimeSource::Given),
        None => (size.compute, TimeSource::Computation),
    };
    Asynchrony {
        f,
        f_source,
        g,
        g_source,
        slowdown: f.max(g),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delta_of_lg_n_has_the_notes_shapes() {
        // delta(lg n) over the expected shape must not depend on n.
        let shape = |r: Routing, x: f64| match r {
            Routing::Random => x.powi(3) * x.log2(),
            Routing::RandomPrime | Routing::Park => x.powi(3),
            Routing::Bft => x.powi(4),
            Routing::Lmr => x * x,
        };
        for r in Routing::ALL {
            let ratios: Vec<f64> = [16.0, 64.0, 256.0]
                .iter()
                .map(|&x| r.delta_of(x) / shape(r, x))
                .collect();
            assert!(
                ratios.iter().all(|q| (1.0..=2.0).contains(q)),
                "{r:?}: {ratios:?}"
            );
        }
    }

    #[test]
    fn theorems_by_processor_areas() {
        let lg_a = 20.0;
        assert_eq!(
            ProcessorTheorem::of(16.0, 16.0, lg_a),
            ProcessorTheorem::Outside
        );
        assert_eq!(
            ProcessorTheorem::of(64.0, 64.0, lg_a),
            ProcessorTheorem::Theorem11
        );
        assert_eq!(
            ProcessorTheorem::of(64.0, 1.0, lg_a),
            ProcessorTheorem::Theorem13
        );
        assert_eq!(
            ProcessorTheorem::of(64.0, 256.0, lg_a),
            ProcessorTheorem::Theorem14
        );
        let s = processor_size(lg_a, 64, 1);
        // Theorem 13: Delta is the larger of delivery and computation.
        for row in &s.rows {
            assert_eq!(row.big_delta, row.delta.max(64.0));
        }
        let lmr = s.rows.iter().find(|r| r.routing == Routing::Lmr).unwrap();
        assert_eq!(lmr.recommended[1], s.corollary17);
    }

    #[test]
    fn theorem20_takes_over_past_the_square() {
        let a_f = 1u64 << 20;
        let near = larger(a_f, 4.0 * a_f as f64, Routing::Lmr);
        assert_eq!(near.theorem, LargerTheorem::Theorem19);
        let far = larger(a_f, (a_f as f64).powi(2) * 4.0, Routing::Lmr);
        assert_eq!(far.theorem, LargerTheorem::Theorem20);
        assert!(far.lambda20 < far.lambda19);
    }
}
