//! Building one layout for `fabric layout`: the chosen family's
//! construction at one size, checked by the independent checker, measured,
//! and held against its recurrence and closed forms.

use super::*;
use crate::error::LayoutFailure;
use crate::layout::construction::{Laid, Measured};
use crate::layout::{Construction, LayoutOptions};

/// One layout built, checked against the checker and its closed forms, and
/// measured.
pub(super) struct Built {
    /// The family's construction at this size.
    pub(super) construction: Box<dyn Construction>,
    /// The layout and its closed forms.
    pub(super) laid: Laid,
    pub(super) metrics: crate::layout::metrics::LayoutMetrics,
    pub(super) crossings: u64,
    pub(super) seconds: f64,
}

impl Built {
    /// The layout as measured, for the family's figures (`delay` as given).
    pub(super) fn measured<'a>(&'a self, delay: &'a str) -> Measured<'a> {
        Measured {
            laid: &self.laid,
            metrics: &self.metrics,
            crossings: self.crossings,
            seconds: self.seconds,
            delay,
        }
    }
}

/// The capacity function asked for, or the kind's default.
pub(super) fn capacity_name(args: &LayoutArgs) -> String {
    args.capacity
        .clone()
        .unwrap_or(args.kind.default_capacity())
        .spec()
}

/// The options the families read their parameters from.
pub(super) fn options(args: &LayoutArgs) -> LayoutOptions {
    LayoutOptions {
        capacity: args.capacity.clone(),
        omega: args.omega,
        alpha: args.alpha,
        levels: args.levels,
        mesh_capacity: args.mesh_capacity,
        dims: args.dims,
    }
}

/// A stage of building one layout, for its progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    /// The construction lays the network out.
    Building,
    /// The independent checker reads the layout.
    Checking,
    /// Its figures are measured and held against the closed forms.
    Measuring,
}

impl Stage {
    /// The stage's word for a progress line.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Building => "building",
            Stage::Checking => "checking",
            Stage::Measuring => "measuring",
        }
    }
}

/// Build, check and measure the layout of `args` at `size`, telling
/// `stage` each stage as it starts.
pub(super) fn build_layout(args: &LayoutArgs, size: u64, stage: &dyn Fn(Stage)) -> Result<Built> {
    use crate::layout::{check, metrics};
    let start = Instant::now();
    stage(Stage::Building);
    let construction = args
        .kind
        .construction(size, &options(args))
        .map_err(|e| Error::Usage(e.to_string()))?;
    let laid = construction
        .build()
        .map_err(|e| Error::Usage(e.to_string()))?;
    let embedding = &laid.embedding;
    stage(Stage::Checking);
    let verdict = check::check(embedding);
    if let Some(v) = verdict.too_large() {
        return Err(Error::Usage(format!(
            "{} --size {size}: {v}; nothing was written",
            args.kind
        )));
    }
    if !verdict.is_legal() {
        return Err(LayoutFailure::Illegal {
            kind: args.kind,
            total: verdict.total,
            violations: verdict.violations,
        }
        .into());
    }
    stage(Stage::Measuring);
    let m = metrics::measure(embedding);
    laid.forms
        .check(&m, embedding.dimensions)
        .map_err(LayoutFailure::Forms)?;
    crate::network::Network::realised_by(embedding).map_err(LayoutFailure::NotRealised)?;
    Ok(Built {
        construction,
        laid,
        metrics: m,
        crossings: verdict.crossings,
        seconds: start.elapsed().as_secs_f64(),
    })
}
