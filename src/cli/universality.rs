//! `fabric universality`: the chapter 4 reports for one area, each number
//! with the theorem it comes from. Every check (flags, area, the memory
//! of the fat-pyramid build) runs before any work; the table goes to the
//! terminal and `--output` is written whole or not at all.

use std::path::PathBuf;

use super::{check_output_paths, parse_delay, write_all_or_nothing, DelayArg};
use crate::error::{Error, Result};
use crate::layout::{Dims, LayoutKind};
use crate::report::model::UniversalityReport;
use crate::report::universality::{universality_report, universality_table};
use crate::sim::universality::{universality, Dimensions, PyramidMeasure, Routing, Setting};

/// Arguments of `fabric universality`.
#[derive(Debug, clap::Args)]
pub struct UniversalityArgs {
    /// Area A of the fat-tree and the competitor: a power of 4 (2-D), or
    /// the volume V, a power of 8 (--dims 3); at most 2^40
    #[arg(long, value_name = "A")]
    pub area: u64,
    /// Processor area alpha_F of the fat-tree: a power of 4 with at least
    /// 4 processors (3-D: 1)
    #[arg(long, value_name = "ALPHA", default_value_t = 1)]
    pub processor_area: u64,
    /// Processor area alpha_R of the competitor (Theorems 13-15)
    #[arg(long, value_name = "ALPHA_R", default_value_t = 1)]
    pub competitor_processor_area: u64,
    /// Competitor area A_R >= A for Theorems 19-20 [default: A^(1 + j/4),
    /// j = 0..4]
    #[arg(long, value_name = "A_R")]
    pub competitor_area: Option<u64>,
    /// Wire delay w(d) for section 4.3: unit, linear, log, sqrt, or points
    /// d:w,d:w,...
    #[arg(long, value_name = "W", default_value = "linear", value_parser = parse_delay)]
    pub delay: DelayArg,
    /// 2 (area) or 3 (volume, section 5.3)
    #[arg(long, value_enum, default_value = "2")]
    pub dims: Dimensions,
    /// Routing algorithm for Theorems 19-20 and Lemma 21 (the Delta table
    /// lists all five)
    #[arg(long, value_enum, default_value = "random-prime")]
    pub routing: Routing,
    /// Lemma 21's f: time to deliver one unit of the competitor's messages
    /// [default: delta(lg(A/alpha_F)) of --routing]
    #[arg(long, value_name = "F", value_parser = parse_time)]
    pub message_time: Option<f64>,
    /// Lemma 21's g: time per unit of the competitor's computation
    /// [default: max(1, alpha_F/alpha_R)]
    #[arg(long, value_name = "G", value_parser = parse_time)]
    pub compute_time: Option<f64>,
    /// Build the fat-pyramid layout to measure Delta delta on its wires:
    /// auto (A <= 4^8), always, never
    #[arg(long, value_enum, default_value = "auto")]
    pub measure_pyramid: PyramidMeasure,
    /// Write the report (schema fabric.universality; see --format)
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The report's format (csv: one row per claim).
    #[command(flatten)]
    pub format: super::FormatArgs,
}

/// A positive finite time.
fn parse_time(s: &str) -> std::result::Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("`{s}`: give a positive number")),
    }
}

fn setting(args: &UniversalityArgs) -> Setting {
    Setting {
        dims: args.dims,
        area: args.area,
        processor_area: args.processor_area,
        competitor_processor_area: args.competitor_processor_area,
        competitor_area: args.competitor_area,
        routing: args.routing,
        delay: args.delay.delay.clone(),
        message_time: args.message_time,
        compute_time: args.compute_time,
        measure: args.measure_pyramid,
    }
}

/// Run `fabric universality`.
pub(super) fn run(args: &UniversalityArgs) -> Result<i32> {
    let outputs: Vec<&std::path::Path> = args.output.iter().map(PathBuf::as_path).collect();
    args.format.check::<UniversalityReport>()?;
    check_output_paths(&[], &outputs)?;
    let s = setting(args);
    s.check().map_err(|e| Error::Usage(e.to_string()))?;
    if s.builds_pyramid() {
        crate::limits::check(
            || {
                format!(
                    "fabric universality --area {} (the fat-pyramid layout for Delta delta; \
                     --measure-pyramid never skips it)",
                    s.area
                )
            },
            crate::limits::layout_bytes(LayoutKind::FatPyramid, s.area, Dims::Two),
        )?;
    }
    let u = universality(&s).map_err(|e| Error::Usage(e.to_string()))?;
    let report = universality_report(&s, &args.delay.text, u);
    if let Some(path) = &args.output {
        let text = crate::report::model::render(&report, args.format.format)?;
        write_all_or_nothing(&[(path.clone(), text)])?;
    }
    print!("{}", universality_table(&report));
    Ok(0)
}
