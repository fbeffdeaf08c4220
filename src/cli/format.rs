//! `--format`: the one argument every report-writing command shares.

use crate::report::model::Format;

/// The format of the `--output` report.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub struct FormatArgs {
    /// Format of the --output report: yaml (default) or json (the same
    /// data; fast to load for large reports).
    #[arg(long, value_enum, default_value_t = Format::Yaml)]
    pub format: Format,
}
