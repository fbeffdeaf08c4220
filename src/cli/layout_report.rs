//! The `fabric.layout` report of `fabric layout KIND --size N --output FILE`
//! with its geometry inline or in CSV files beside it (`--geometry`), and
//! the reading of such a report with the files it names.

use std::path::{Path, PathBuf};

use super::build::Built;
use super::{Contents, LayoutArgs};
use crate::error::{Error, LayoutFailure, ParseError, Result};
use crate::io::layout::{LayoutFile, Sidecars};
use crate::report::model::layout::{Geometry, GeometryKind, LayoutReport};
use crate::report::model::{render, Format};

/// Past this many edges a layout written without `--geometry` keeps its
/// geometry in CSV files rather than in the report (an inline YAML report
/// takes about 100 bytes per node and per edge).
pub const INLINE_EDGE_LIMIT: usize = 100_000;

/// The CSV files of the report `output`: `STEM.nodes.csv.gz` and
/// `STEM.edges.csv.gz` beside it, `STEM` its name less its extension.
pub fn csv_paths(output: &Path) -> (PathBuf, PathBuf) {
    let stem = output
        .file_stem()
        .map_or_else(|| "layout".into(), |s| s.to_string_lossy().into_owned());
    (
        output.with_file_name(format!("{stem}.nodes.csv.gz")),
        output.with_file_name(format!("{stem}.edges.csv.gz")),
    )
}

/// The outputs a layout may write beside its `--output` report, to check
/// before the build: the CSV files, unless the geometry is asked inline or
/// left out.
pub(super) fn possible_csv_outputs(args: &LayoutArgs) -> Vec<PathBuf> {
    match (&args.output, args.geometry) {
        (Some(out), None | Some(GeometryKind::Csv)) if !args.sweep => {
            let (nodes, edges) = csv_paths(out);
            vec![nodes, edges]
        }
        _ => Vec::new(),
    }
}

/// `--geometry` applies to one layout written with `--output`.
pub(super) fn check_geometry_option(args: &LayoutArgs) -> Result<()> {
    match (args.geometry, args.sweep, &args.output) {
        (Some(_), true, _) => Err(Error::Usage(
            "--geometry applies to one layout (--size), not to --sweep".into(),
        )),
        (Some(_), false, None) => Err(Error::Usage(
            "--geometry applies to the layout report: give --output FILE".into(),
        )),
        _ => Ok(()),
    }
}

/// The geometry form of a layout of `edges` edges: the one asked, or
/// inline up to [`INLINE_EDGE_LIMIT`] edges and CSV above.
fn chosen(asked: Option<GeometryKind>, edges: usize) -> GeometryKind {
    match asked {
        Some(kind) => kind,
        None if edges > INLINE_EDGE_LIMIT => GeometryKind::Csv,
        None => GeometryKind::Inline,
    }
}

/// The report of a built layout with the geometry `geometry`.
fn report(b: &Built, geometry: Geometry) -> LayoutReport {
    let forms = &b.laid.forms;
    LayoutReport::new(
        &b.laid.embedding,
        &b.metrics,
        Some((forms.side, forms.closed)),
        geometry,
    )
}

/// The report text of a built layout, its geometry inline or left out.
pub(super) fn report_text(b: &Built, format: Format, geometry: GeometryKind) -> Result<String> {
    let geometry = match geometry {
        GeometryKind::Inline => Geometry::inline(&b.laid.embedding),
        GeometryKind::None => Geometry::none(),
        GeometryKind::Csv => {
            return Err(Error::Usage(
                "a layout's CSV geometry is written to files: run `fabric layout ... -o FILE --geometry csv`"
                    .into(),
            ))
        }
    };
    render(&report(b, geometry), format)
}

/// The files `fabric layout ... --output FILE` writes: the report and, for
/// a CSV geometry, its two files (an automatic switch to CSV is said on
/// stderr).
pub(super) fn layout_outputs<'a>(
    args: &LayoutArgs,
    output: &Path,
    b: &'a Built,
) -> Result<Vec<(PathBuf, Contents<'a>)>> {
    let e = &b.laid.embedding;
    let kind = chosen(args.geometry, e.edges.len());
    if kind != GeometryKind::Csv {
        let text = report_text(b, args.format.format, kind)?;
        return Ok(vec![(output.to_path_buf(), Contents::Text(text))]);
    }
    let (nodes, edges) = csv_paths(output);
    let name = |p: &Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    if args.geometry.is_none() {
        eprintln!(
            "fabric: {} edges are more than {INLINE_EDGE_LIMIT}: the geometry goes to the CSV files {} and {} \
             beside the report (--geometry inline keeps it in the report)",
            e.edges.len(),
            nodes.display(),
            edges.display()
        );
    }
    let text = render(
        &report(b, Geometry::csv(name(&nodes), name(&edges))),
        args.format.format,
    )?;
    // The two files are compressed at once, each on its own thread.
    type WriteCsv = fn(&crate::layout::Embedding, &mut dyn std::io::Write) -> std::io::Result<()>;
    let compressed = |write: WriteCsv| {
        let mut bytes = Vec::new();
        write(e, &mut bytes).map(|()| bytes)
    };
    let (node_bytes, edge_bytes) = rayon::join(
        || compressed(crate::io::layout_csv::write_nodes),
        || compressed(crate::io::layout_csv::write_edges),
    );
    let failed = |e: std::io::Error| Error::from(LayoutFailure::CsvGeometry(e));
    let bytes =
        |b: Vec<u8>| -> Contents<'a> { Contents::Stream(Box::new(move |w| w.write_all(&b))) };
    Ok(vec![
        (output.to_path_buf(), Contents::Text(text)),
        (nodes, bytes(node_bytes.map_err(failed)?)),
        (edges, bytes(edge_bytes.map_err(failed)?)),
    ])
}

/// Parse the layout file `text` read from `path`, the CSV files it names
/// opened in `path`'s folder (names there are relative and stay inside it).
pub fn parse_layout_at(text: &str, path: &str) -> std::result::Result<LayoutFile, ParseError> {
    let folder = Path::new(path).parent().unwrap_or(Path::new(""));
    let open = |name: &str| -> std::result::Result<(Box<dyn std::io::Read>, String), ParseError> {
        let refuse = |file: String, message: String| ParseError {
            file,
            line: 0,
            column: 0,
            form: Some("a layout's CSV geometry"),
            message,
        };
        let relative = Path::new(name);
        if relative.is_absolute()
            || relative
                .components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            return Err(refuse(
                path.to_string(),
                format!("the geometry file `{name}` must be named relative to the report's folder, inside it"),
            ));
        }
        let full = folder.join(relative);
        let shown = full.display().to_string();
        match std::fs::File::open(&full) {
            Ok(file) => Ok((Box::new(file), shown)),
            Err(e) => Err(refuse(
                shown,
                format!("cannot read the geometry file the report {path} names: {e}"),
            )),
        }
    };
    crate::io::parse_layout_with(text, path, Sidecars::Open(&open))
}

/// Read the layout file at `path` with the CSV files it names.
pub fn read_layout(path: &Path) -> Result<LayoutFile> {
    let text = super::read_text(path)?;
    Ok(parse_layout_at(&text, &path.display().to_string())?)
}
