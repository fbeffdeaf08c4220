//! `fabric.universality`: the report of `fabric universality` (thesis
//! chapter 4), every number with the theorem it comes from, the bound it
//! is held against and whether it held; `--format csv` writes the claims,
//! one row each.

use schemars::JsonSchema;
use serde::Serialize;

use super::{Header, Report};
use crate::sim::universality::{Dimensions, Routing, Universality};

/// The report of `fabric universality`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct UniversalityReport {
    /// Schema, its version, and the writer's version.
    #[serde(flatten)]
    pub header: Header,
    /// `2` or `3`.
    pub dims: Dimensions,
    /// Area `A` (volume `V` in 3-D).
    pub area: u64,
    /// The fat-tree's processor area `alpha_F`.
    pub processor_area: u64,
    /// The competitor's processor area `alpha_R`.
    pub competitor_processor_area: u64,
    /// The algorithm of Theorems 19-20 and Lemma 21.
    pub routing: Routing,
    /// The wire delay function, as given.
    pub delay: String,
    /// The rules followed where the thesis leaves a choice.
    pub rules: Vec<String>,
    /// Every headline number, its source, bound and verdict.
    pub claims: Vec<Claim>,
    /// The computed sections.
    #[serde(flatten)]
    pub detail: Universality,
}

/// One number and where it comes from.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Claim {
    /// What it is.
    pub quantity: String,
    /// Its value.
    pub value: f64,
    /// The lemma, theorem or section it comes from.
    pub source: String,
    /// The bound it is held against, when the source gives a constant;
    /// `null` for a shape.
    pub bound: Option<f64>,
    /// Whether it held.
    pub verdict: Verdict,
}

/// Whether a number kept to its bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// At most the bound.
    Held,
    /// Over the bound.
    Exceeded,
    /// An `O()` shape without a constant: no verdict.
    Shape,
}

impl Verdict {
    /// The name in the terminal.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Held => "held",
            Verdict::Exceeded => "EXCEEDED",
            Verdict::Shape => "shape (no constant)",
        }
    }

    /// Held when `value` is at most `bound` (to rounding), else exceeded.
    pub fn of(value: f64, bound: f64) -> Verdict {
        if value <= bound + 1e-9 {
            Verdict::Held
        } else {
            Verdict::Exceeded
        }
    }
}

impl Report for UniversalityReport {
    const SCHEMA: &'static str = "fabric.universality";
    const VERSION: u32 = 2;
    const TABLE: Option<&'static str> = Some("claims");

    fn csv(&self) -> Option<Result<String, csv::Error>> {
        Some(super::csv_rows(&self.claims))
    }
}
