//! `fabric view`: a self-contained HTML viewer of a routed-channel file or a
//! layout file that already exists (docs/viewer.md).

use std::path::PathBuf;

use super::{check_output_paths, read_problem, read_text, write_all_or_nothing};
use crate::error::{Error, Result};

/// Arguments of `fabric view`.
#[derive(Debug, clap::Args)]
pub struct ViewArgs {
    /// A routed channel (YAML, as `fabric route --output` writes it) or a
    /// layout (YAML or JSON, as `fabric layout --output` writes it).
    pub report: PathBuf,
    /// The channel problem of a routed channel, for its pins.
    #[arg(long)]
    pub problem: Option<PathBuf>,
    /// The HTML file to write.
    #[arg(long, short)]
    pub output: PathBuf,
}

/// What a report file holds, told by its top-level keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ReportKind {
    /// `wires:` (FORMATS.md section 3).
    Channel,
    /// `schema: fabric.layout`, or a header-less layout's `nodes:`
    /// (docs/formats.md section 4c).
    Layout,
}

/// The kind of a report, or a clear error naming the file.
fn report_kind(text: &str, path: &str) -> Result<ReportKind> {
    let has = |key: &str| {
        text.lines()
            .any(|l| l.strip_prefix(key).is_some_and(|r| r.starts_with(':')))
    };
    let layout_report = text.lines().take(4).any(|l| {
        matches!(
            l.trim().trim_end_matches(','),
            "schema: fabric.layout" | "\"schema\": \"fabric.layout\""
        )
    });
    if layout_report {
        return Ok(ReportKind::Layout);
    }
    match (has("wires"), has("nodes")) {
        (true, false) => Ok(ReportKind::Channel),
        (false, true) => Ok(ReportKind::Layout),
        _ => Err(Error::File {
            path: path.to_string(),
            message: "neither a routed channel (a top-level `wires:` key) nor a layout \
                      (a `fabric.layout` report or a top-level `nodes:` key)"
                .into(),
        }),
    }
}

/// `fabric view`.
pub(super) fn run(args: &ViewArgs) -> Result<i32> {
    let mut inputs = vec![args.report.as_path()];
    inputs.extend(args.problem.as_deref());
    check_output_paths(&inputs, &[args.output.as_path()])?;
    let path = args.report.display().to_string();
    let text = read_text(&args.report)?;
    let page = match report_kind(&text, &path)? {
        ReportKind::Channel => {
            let file = crate::io::parse_solution(&text, &path)?;
            let problem = args.problem.as_deref().map(read_problem).transpose()?;
            let s = &file.solution;
            let metrics = file
                .claimed
                .unwrap_or_else(|| crate::channel::solution::Metrics {
                    width: s.width,
                    net_length: s.net_length(),
                    vias: s.vias.iter().map(|v| v.count()).sum(),
                    density: problem
                        .as_ref()
                        .map_or(0, crate::channel::analysis::density),
                });
            let summary = crate::view::channel_summary(s, &metrics, None, None, None);
            crate::view::channel_html(problem.as_ref(), s, &summary)
        }
        ReportKind::Layout => {
            if args.problem.is_some() {
                return Err(Error::Usage(
                    "--problem applies to routed channels, not to layouts".into(),
                ));
            }
            let file = super::parse_layout_at(&text, &path)?;
            let m = crate::layout::metrics::measure(&file.embedding);
            let summary = crate::view::layout_summary(&file.embedding, &m);
            crate::view::layout_html(&file.embedding, &summary)
        }
    }
    .map_err(|e| Error::File {
        path,
        message: e.to_string(),
    })?;
    write_all_or_nothing(&[(args.output.clone(), page)])?;
    println!("wrote {}", args.output.display());
    Ok(0)
}
