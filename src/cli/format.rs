//! `--format`: the one argument every report-writing command shares.

use crate::report::model::Format;

/// The format of the `--output` report.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub struct FormatArgs {
    /// Format of the --output report: yaml (default), json (the same
    /// data; fast to load for large reports) or csv (the table of reports
    /// that have one: `layout --sweep`, every `simulate` job,
    /// `universality`, `fsm`).
    #[arg(long, value_enum, default_value_t = Format::Yaml)]
    pub format: Format,
}

impl FormatArgs {
    /// Refuse a format the report `R` cannot be written in (a usage error,
    /// before any work).
    pub fn check<R: crate::report::model::Report>(&self) -> crate::error::Result<()> {
        crate::report::model::check_format::<R>(self.format)
            .map_err(|e| crate::error::Error::Usage(e.to_string()))
    }
}
