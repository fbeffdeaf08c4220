//! The universality reports of thesis chapter 4, each number with the theorem it comes from:
//! - Lemma 10's load per channel level for the mesh competitor mapped
//!   geometrically, its load factor `lambda` and the derived bound `3 sqrt 2
//!   lg A` ([`lemma10`]); in 3-D the section 5.3 analogue with `c(p) =
//!   ceil(p^(2/3) / lg V)` and the bound `2^(8/3) lg V`;
//! - processor size `Delta` per routing algorithm (Theorems 11-17),
//!   larger competitors (Theorems 19-20) and Lemma 21's asynchrony
//!   slowdown ([`processor`]);
//! - section 4.3's wire-delay change `Delta delta` on the fat-pyramid
//!   ([`wire`]).
//!
//! Everything here is closed-form or one layout build: no simulation.

#![warn(missing_docs)]

pub mod lemma10;
pub mod processor;
#[cfg(test)]
mod slow;
pub mod wire;

use schemars::JsonSchema;
use serde::Serialize;
use thiserror::Error;

pub use lemma10::{mesh_load, LevelLoad, MeshLoad};
pub use processor::{
    asynchrony, larger, processor_size, Asynchrony, DeltaRow, Larger, LargerTheorem, ProcessorSize,
    ProcessorTheorem, RangePlace, Routing, TimeSource,
};
pub use wire::{wire_delay, MaxAt, Measured, PyramidMeasure, WireDelay};

use crate::layout::metrics::Delay;

/// The largest area (volume) the reports take: `2^40`. Section 4.3's
/// maximum runs over every distance up to `2 sqrt A`, and Theorem 20's
/// `A_F^2` must stay a finite float well inside `u64`'s reach.
pub const MAX_AREA: u64 = 1 << 40;

/// The competitor's space; reports write it as the number 2 or 3.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Dimensions {
    /// The plane: area `A`, a power of 4.
    #[default]
    #[cfg_attr(feature = "cli", value(name = "2"))]
    Two,
    /// Space: volume `V`, a power of 8 (section 5.3).
    #[cfg_attr(feature = "cli", value(name = "3"))]
    Three,
}

impl Serialize for Dimensions {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.count() as u64)
    }
}

impl JsonSchema for Dimensions {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Dimensions".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "The competitor's space: 2 (area) or 3 (volume).",
            "type": "integer",
            "enum": [2, 3]
        })
    }
}

impl Dimensions {
    /// 2 or 3.
    pub fn count(self) -> usize {
        match self {
            Dimensions::Two => 2,
            Dimensions::Three => 3,
        }
    }
}

/// A request the reports refuse.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum UniversalityError {
    /// The area is not a power of `2^d` with at least `2^d` processors.
    #[error(
        "--area {area}: give a power of {base} (at least {base}) for {what}",
        base = 1u64 << dims.count(),
        what = match dims { Dimensions::Two => "a 2-D area", Dimensions::Three => "a 3-D volume" }
    )]
    Area {
        /// The space.
        dims: Dimensions,
        /// The area given.
        area: u64,
    },
    /// Over [`MAX_AREA`].
    #[error("--area {area} is over the largest area the reports take, 2^40")]
    TooLarge {
        /// The area given.
        area: u64,
    },
    /// The processor area is not a power of 4 leaving at least 4
    /// processors.
    #[error(
        "--processor-area {alpha}: give a power of 4 (square processors) with at least 4 \
         processors in the area {area}"
    )]
    ProcessorArea {
        /// The processor area given.
        alpha: u64,
        /// The area.
        area: u64,
    },
    /// 3-D takes unit processors.
    #[error("--processor-area {alpha}: the 3-D report takes unit processors (--processor-area 1)")]
    ProcessorVolume {
        /// The processor area given.
        alpha: u64,
    },
    /// The competitor's processors have area 0.
    #[error("--competitor-processor-area must be at least 1")]
    CompetitorProcessorArea,
    /// Theorems 19-20 are reported in 2-D only.
    #[error("--competitor-area: Theorems 19-20 are reported in 2-D only (--dims 2)")]
    CompetitorArea3,
    /// Theorems 19-20 take competitors at least as large as the fat-tree.
    #[error(
        "--competitor-area {competitor}: Theorems 19-20 take a competitor of area at least \
         --area {area} (smaller ones are Lemma 10's case)"
    )]
    CompetitorArea {
        /// The competitor's area.
        competitor: u64,
        /// The fat-tree's area.
        area: u64,
    },
}

/// Check an area and processor area of `dims`.
pub fn check_area(dims: Dimensions, area: u64, alpha: u64) -> Result<(), UniversalityError> {
    let bits = dims.count() as u32;
    if area < (1 << bits) || !area.is_power_of_two() || area.trailing_zeros() % bits != 0 {
        return Err(UniversalityError::Area { dims, area });
    }
    if area > MAX_AREA {
        return Err(UniversalityError::TooLarge { area });
    }
    match dims {
        Dimensions::Two => {
            if alpha == 0
                || !alpha.is_power_of_two()
                || alpha.trailing_zeros() % 2 != 0
                || alpha > area / 4
            {
                return Err(UniversalityError::ProcessorArea { alpha, area });
            }
        }
        Dimensions::Three => {
            if alpha != 1 {
                return Err(UniversalityError::ProcessorVolume { alpha });
            }
        }
    }
    Ok(())
}

/// What the reports are asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    /// The space.
    pub dims: Dimensions,
    /// Area `A` (volume `V`).
    pub area: u64,
    /// The fat-tree's processor area `alpha_F` (1 in 3-D).
    pub processor_area: u64,
    /// The competitor's (smallest) processor area `alpha_R`.
    pub competitor_processor_area: u64,
    /// `A_R` for Theorems 19-20; `None` reports `A^(1 + j/4)`, `j = 0..=4`.
    pub competitor_area: Option<u64>,
    /// The routing algorithm for Theorems 19-20 and Lemma 21.
    pub routing: Routing,
    /// The wire delay function of section 4.3.
    pub delay: Delay,
    /// Lemma 21's `f`, if given.
    pub message_time: Option<f64>,
    /// Lemma 21's `g`, if given.
    pub compute_time: Option<f64>,
    /// Whether to build the fat-pyramid for a measured `Delta delta`.
    pub measure: PyramidMeasure,
}

impl Setting {
    /// Every check, before any work.
    pub fn check(&self) -> Result<(), UniversalityError> {
        check_area(self.dims, self.area, self.processor_area)?;
        if self.competitor_processor_area == 0 {
            return Err(UniversalityError::CompetitorProcessorArea);
        }
        if let Some(c) = self.competitor_area {
            if self.dims == Dimensions::Three {
                return Err(UniversalityError::CompetitorArea3);
            }
            if c < self.area {
                return Err(UniversalityError::CompetitorArea {
                    competitor: c,
                    area: self.area,
                });
            }
        }
        Ok(())
    }

    /// Whether the run builds the fat-pyramid layout (2-D only).
    pub fn builds_pyramid(&self) -> bool {
        self.dims == Dimensions::Two
            && match self.measure {
                PyramidMeasure::Always => true,
                PyramidMeasure::Auto => self.area <= wire::AUTO_MEASURE_MAX_AREA,
                PyramidMeasure::Never => false,
            }
    }
}

/// The chapter 4 reports for one setting.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Universality {
    /// Lemma 10 (2-D) or section 5.3 (3-D) on the mesh competitor.
    pub lemma10: MeshLoad,
    /// Theorems 11-17.
    pub processor_size: ProcessorSize,
    /// Theorems 19-20 (2-D only).
    pub larger: Vec<Larger>,
    /// Section 4.3 (2-D only: there is no 3-D fat-pyramid).
    pub wire_delay: Option<WireDelay>,
    /// Lemma 21.
    pub asynchrony: Asynchrony,
}

/// Compute every report of `s`.
pub fn universality(s: &Setting) -> Result<Universality, UniversalityError> {
    s.check()?;
    let lemma10 = mesh_load(s.dims, s.area, s.processor_area)?;
    let lg_a = (s.area as f64).log2();
    let size = processor_size(lg_a, s.processor_area, s.competitor_processor_area);
    let (larger, wire_delay) = match s.dims {
        Dimensions::Two => {
            let areas = match s.competitor_area {
                Some(a) => vec![a as f64],
                None => processor::default_competitor_areas(s.area),
            };
            let rows = areas
                .into_iter()
                .map(|a| larger(s.area, a, s.routing))
                .collect();
            (rows, Some(wire_delay(s.area, &s.delay, s.measure)))
        }
        Dimensions::Three => (Vec::new(), None),
    };
    let asynchrony = asynchrony(&size, s.routing, s.message_time, s.compute_time);
    Ok(Universality {
        lemma10,
        processor_size: size,
        larger,
        wire_delay,
        asynchrony,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The range for the mesh competitor, `A = 4^3 .. 4^10`: within
    /// `[3.2, 4.24]` from `4^5` on. Below, the worst level has capacity 1
    /// and pieces `w x 2w` that all touch the mesh's top or bottom border,
    /// so `lambda` is their boundary `2 (2w) + w`: at `4^3` the `2 x 4`
    /// pieces (10, `lambda / lg A = 10/6`), at `4^4` the `4 x 8` pieces (20,
    /// `20/8`).
    #[test]
    fn mesh_competitor_range() {
        for k in 3..=10u32 {
            let m = mesh_load(Dimensions::Two, 1 << (2 * k), 1).unwrap();
            let r = m.per_lg;
            if k >= 5 {
                assert!((3.2..=4.25).contains(&r), "4^{k}: {r}");
            } else {
                let worst = &m.levels[m.at_level as usize];
                assert_eq!(worst.capacity, 1);
                let (w, h) = (worst.piece[0], worst.piece[1]);
                assert_eq!(h, 2 * w);
                assert_eq!(worst.load, 2 * h + w, "4^{k}");
                assert!(r < 3.2, "4^{k}: {r}");
            }
            assert!(m.lambda <= m.bound);
        }
    }

    #[test]
    fn three_d_levels_are_order_lg_v() {
        // Every level's load over capacity, divided by lg V, stays under
        // 2^(8/3) as V grows; the largest ratio does not fall towards 0.
        let mut per_lg = Vec::new();
        for k in 2..=13u32 {
            let m = mesh_load(Dimensions::Three, 1 << (3 * k), 1).unwrap();
            for l in &m.levels {
                assert!(l.ratio / m.lg <= m.bound_factor, "8^{k} level {}", l.level);
            }
            per_lg.push(m.per_lg);
        }
        let (lo, hi) = per_lg
            .iter()
            .fold((f64::MAX, 0f64), |(a, b), &x| (a.min(x), b.max(x)));
        assert!(lo > 1.0 && hi <= 2f64.powf(8.0 / 3.0), "{per_lg:?}");
    }

    #[test]
    fn bad_settings_are_refused() {
        let s = Setting {
            dims: Dimensions::Two,
            area: 1 << 10,
            processor_area: 1,
            competitor_processor_area: 1,
            competitor_area: None,
            routing: Routing::RandomPrime,
            delay: Delay::Linear,
            message_time: None,
            compute_time: None,
            measure: PyramidMeasure::Never,
        };
        assert!(universality(&s).is_ok());
        let bad = [
            Setting {
                area: 1 << 9,
                ..s.clone()
            },
            Setting {
                area: 1 << 42,
                ..s.clone()
            },
            Setting {
                processor_area: 2,
                ..s.clone()
            },
            Setting {
                processor_area: 1 << 10,
                ..s.clone()
            },
            Setting {
                dims: Dimensions::Three,
                area: 1 << 10,
                ..s.clone()
            },
            Setting {
                dims: Dimensions::Three,
                area: 1 << 9,
                processor_area: 4,
                ..s.clone()
            },
            Setting {
                competitor_processor_area: 0,
                ..s.clone()
            },
            Setting {
                competitor_area: Some(1 << 9),
                ..s.clone()
            },
            Setting {
                dims: Dimensions::Three,
                area: 1 << 9,
                competitor_area: Some(1 << 12),
                ..s.clone()
            },
        ];
        for b in bad {
            assert!(universality(&b).is_err(), "{b:?}");
        }
    }
}
