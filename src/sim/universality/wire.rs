//! Section 4.3: the change of delivery overhead `Delta delta` when wires
//! are not of unit delay, on the fat-pyramid of area `A` (Theorem 18's
//! mapping), for a delay function `w`, maximised over the competing
//! distance `d = 1 .. 2 (sqrt A - 1)`.
//!
//! Three versions:
//! - the thesis's expression `w(d + lg A) lg d / (w(d) lg A)`, which
//!   condition C1 bounds by 2;
//! - the same argument with the fat-pyramid's real switch count: a message
//!   of distance `d` climbs the block's H-tree (`lg b` levels) and
//!   `ceil(lg ceil(d / sqrt b)) + 1` butterfly levels (at most `K`), so its
//!   path passes `h(d) = 2 ceil(lg ceil(d / sqrt b)) + 2 + 2 lg b` switches
//!   (up and down); the unit-delay cycle passes `h_top = 2 (lg b + K)`, so
//!   `Delta delta(d) = w(d + lg A) h(d) / (w(d) h_top)`;
//! - measured on the laid-out fat-pyramid with its own wires
//!   ([`crate::layout::pyramid::delta_delta`]), when the layout is built.

use schemars::JsonSchema;
use serde::Serialize;

use crate::layout::metrics::Delay;
use crate::layout::pyramid::{delta_delta, fat_pyramid, PyramidSpec};

/// The thesis's bound on `Delta delta` under condition C1.
pub const THESIS_BOUND: f64 = 2.0;

/// A maximum over competing distances and where it is reached.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
pub struct MaxAt {
    /// The largest value.
    pub value: f64,
    /// The smallest competing distance `d` attaining it.
    pub at: u64,
}

impl MaxAt {
    fn over(ds: impl Iterator<Item = u64>, f: impl Fn(u64) -> f64) -> MaxAt {
        let mut best = MaxAt { value: 0.0, at: 1 };
        for d in ds {
            let v = f(d);
            if v > best.value {
                best = MaxAt { value: v, at: d };
            }
        }
        best
    }
}

/// Whether to build the fat-pyramid layout and measure `Delta delta` on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum PyramidMeasure {
    /// Build it when `A <= 4^8` (under a second).
    #[default]
    Auto,
    /// Always build it (subject to the memory budget).
    Always,
    /// Never: the analytic versions only.
    Never,
}

/// The largest area [`PyramidMeasure::Auto`] builds.
pub const AUTO_MEASURE_MAX_AREA: u64 = 1 << 16;

/// `Delta delta` measured on the laid-out fat-pyramid.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Measured {
    /// `max_d T_w(d) / (T_1 w(d))` with the layout's longest wire per level.
    pub value: f64,
    /// The distance attaining it.
    pub at: u64,
}

/// Section 4.3's report for one delay function.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct WireDelay {
    /// `lg A`.
    pub lg_a: f64,
    /// Block levels: `b = 4^beta` processors per H-tree block.
    pub beta: u32,
    /// Butterfly levels above the blocks.
    pub k: u32,
    /// The largest competing distance, `2 (sqrt A - 1)`.
    pub max_distance: u64,
    /// The thesis's expression over every `d`.
    pub thesis: MaxAt,
    /// With the real switch count, over every `d`.
    pub real: MaxAt,
    /// With the real switch count, over `d >= lg A` (where condition C1's
    /// constant is met for the usual delay functions).
    pub real_far: MaxAt,
    /// Measured on the layout, if built.
    pub measured: Option<Measured>,
    /// [`THESIS_BOUND`].
    pub bound: f64,
}

/// Real switches on a path of competing distance `d`, up and down.
pub fn switches(spec: &PyramidSpec, d: u64) -> u64 {
    let blocks = d.max(1).div_ceil(1 << spec.beta);
    let climb = (u64::BITS - (blocks - 1).leading_zeros()) as u64 + 1;
    2 * (climb.min(spec.k() as u64) + 2 * spec.beta as u64)
}

/// Section 4.3 on the fat-pyramid of `area` processors (a power of 4) for
/// `w`; the layout is built when `measure` says so.
pub fn wire_delay(area: u64, w: &Delay, measure: PyramidMeasure) -> WireDelay {
    let spec = PyramidSpec::new(area).expect("a checked power of 4");
    let lg_a = (area as f64).log2();
    let lg_ceil = lg_a.ceil() as u64;
    let side = 1u64 << (area.trailing_zeros() / 2);
    let max_distance = (2 * (side - 1)).max(1);
    let h_top = 2.0 * (2 * spec.beta + spec.k()) as f64;
    let real = |d: u64| w.of(d + lg_ceil) * switches(&spec, d) as f64 / (w.of(d) * h_top);
    let thesis = |d: u64| w.of(d + lg_ceil) * (d as f64).log2() / (w.of(d) * lg_a);
    let measured = match measure {
        PyramidMeasure::Never => None,
        PyramidMeasure::Auto if area > AUTO_MEASURE_MAX_AREA => None,
        PyramidMeasure::Auto | PyramidMeasure::Always => {
            let p = fat_pyramid(&spec).expect("a checked fat-pyramid spec");
            let dd = delta_delta(&p.embedding, spec, w);
            Some(Measured {
                value: dd.max,
                at: dd.at,
            })
        }
    };
    WireDelay {
        lg_a,
        beta: spec.beta,
        k: spec.k(),
        max_distance,
        thesis: MaxAt::over(1..=max_distance, thesis),
        real: MaxAt::over(1..=max_distance, real),
        real_far: MaxAt::over(lg_ceil.min(max_distance)..=max_distance, real),
        measured,
        bound: THESIS_BOUND,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switch_count_is_the_notes_formula() {
        for k in 2..=10u32 {
            let spec = PyramidSpec::new(1 << (2 * k)).unwrap();
            let sqrt_b = 1u64 << spec.beta;
            let lg_b = 2 * spec.beta as u64;
            for d in 1..=2 * (1u64 << k) {
                let blocks = d.div_ceil(sqrt_b) as f64;
                let note = 2 * blocks.log2().ceil() as u64 + 2 + 2 * lg_b;
                let top = 2 * (spec.k() as u64 + lg_b);
                assert_eq!(switches(&spec, d), note.min(top), "4^{k}, d {d}");
            }
        }
    }

    #[test]
    fn unit_delay_costs_at_most_the_full_cycle() {
        // With unit wires the ratio is h(d) / h_top, at most 1, and 1 at
        // the largest distance.
        for k in 2..=8u32 {
            let r = wire_delay(1 << (2 * k), &Delay::Unit, PyramidMeasure::Never);
            assert!(r.real.value <= 1.0 + 1e-12, "{r:?}");
            assert_eq!(
                r.real.at,
                (1..=r.max_distance)
                    .find(|&d| {
                        let spec = PyramidSpec::new(1 << (2 * k)).unwrap();
                        switches(&spec, d) == 2 * (2 * spec.beta + spec.k()) as u64
                    })
                    .unwrap()
            );
        }
    }

    #[test]
    fn measured_matches_the_layout_report() {
        let spec = PyramidSpec::new(1024).unwrap();
        let p = fat_pyramid(&spec).unwrap();
        let direct = delta_delta(&p.embedding, spec, &Delay::Linear);
        let r = wire_delay(1024, &Delay::Linear, PyramidMeasure::Always);
        assert_eq!(r.measured.map(|m| m.value), Some(direct.max));
        assert!((r.thesis.value - direct.thesis_max).abs() < 1e-12);
    }
}
