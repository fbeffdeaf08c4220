//! Reader of layout files (docs/formats.md section 4c): the `fabric.layout`
//! report in YAML or JSON, its geometry inline or in CSV files beside it,
//! and the header-less layout YAML a user writes by hand.

use std::collections::BTreeMap;
use std::io::Read;

use serde::Deserialize;

use crate::error::ParseError;
use crate::layout::metrics::LayoutMetrics;
use crate::layout::{Edge, Embedding, Node, P3};
use crate::report::model::layout::{GeometryKind, LayoutReport};
use crate::report::model::{LAYOUT_SCHEMA, LAYOUT_SCHEMA_VERSION};

const FORM: &str = "a layout file";

#[derive(Deserialize)]
struct LayoutDoc {
    #[serde(default)]
    network: String,
    #[serde(default)]
    parameters: BTreeMap<String, serde_norway::Value>,
    dimensions: u32,
    #[serde(default)]
    nodes: Vec<NodeDoc>,
    #[serde(default)]
    edges: Vec<EdgeDoc>,
    metrics: Option<MetricsDoc>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NodeDoc {
    id: u32,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    level: u32,
    min: Vec<i64>,
    max: Vec<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EdgeDoc {
    id: u32,
    from: u32,
    to: u32,
    path: Vec<Vec<i64>>,
}

#[derive(Deserialize)]
struct MetricsDoc {
    width: u64,
    height: u64,
    #[serde(default)]
    depth: Option<u64>,
    area: u64,
    total_wire_length: u64,
    max_wire_length: u64,
}

/// The counts of nodes and edges a report claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Nodes.
    pub nodes: u64,
    /// Edges.
    pub edges: u64,
}

/// A layout file: the embedding and the figures it claims.
#[derive(Clone, Debug)]
pub struct LayoutFile {
    /// The network, parameters, nodes and edge paths as the file gives them.
    pub embedding: Embedding,
    /// The file's `metrics:` section, if any, to check against the measured
    /// figures: `per_level` is always empty and `depth` is 1 when absent.
    pub claimed: Option<LayoutMetrics>,
    /// The nodes and edges a `fabric.layout` report claims (`None` for a
    /// header-less layout).
    pub counts: Option<Counts>,
}

/// A function that opens a CSV geometry file, given its name as the report
/// writes it, and returns its bytes and the name to give in messages.
pub type OpenFn<'a> = &'a dyn Fn(&str) -> Result<(Box<dyn Read + 'a>, String), ParseError>;

/// How the CSV files a report names are reached.
#[derive(Clone, Copy)]
pub enum Sidecars<'a> {
    /// Opened by the function (the command line opens them beside the
    /// report).
    Open(OpenFn<'a>),
    /// Not read: a report with CSV geometry is refused.
    Refused,
}

fn error(file: &str, line: usize, column: usize, message: String) -> ParseError {
    ParseError {
        file: file.to_string(),
        line,
        column,
        form: Some(FORM),
        message,
    }
}

/// A routed channel or a channel analysis given where a layout file is
/// expected is refused by what it is, rather than by the first layout
/// field it lacks.
fn refuse_other_reports(text: &str, file: &str) -> Result<(), ParseError> {
    let top = |key: &str| super::key_line(text, key) > 0;
    if top("network") || top("nodes") {
        return Ok(());
    }
    let what = if top("wires") && top("vias") {
        "it looks like a routed channel (it has wires and vias): check that with \
         `fabric verify CHANNEL FILE`"
    } else if top("nets") && top("density") {
        "it looks like a channel analysis (`fabric analyze -o`)"
    } else {
        return Ok(());
    };
    Err(error(
        file,
        1,
        0,
        format!("not a layout file (one that `fabric layout ... -o` writes): {what}"),
    ))
}

/// The text is JSON (it opens with `{`) rather than YAML.
fn is_json(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

/// The 1-based line of the top-level `key` of a report in YAML or JSON
/// (JSON as `fabric` indents it); 0 when not found.
fn report_key_line(text: &str, key: &str, json: bool) -> usize {
    if json {
        let want = format!("  \"{key}\":");
        text.lines()
            .position(|l| l.starts_with(&want))
            .map_or(0, |k| k + 1)
    } else {
        super::key_line(text, key)
    }
}

/// The value of the top-level `schema` key, read from its line, and the
/// line; `None` for a file without one.
fn schema_of(text: &str, json: bool) -> Option<(String, usize)> {
    let line = report_key_line(text, "schema", json);
    let value = text.lines().nth(line.checked_sub(1)?)?.split_once(':')?.1;
    let value = value.trim().trim_end_matches(',').trim_matches(['"', '\'']);
    Some((value.to_string(), line))
}

/// The 1-based line of the record `id: N` in the list `section` (nested or
/// not, YAML or JSON); 0 when not found.
fn record_line(text: &str, section: &str, id: u64) -> usize {
    let (yaml, json) = (format!("{section}:"), format!("\"{section}\":"));
    let Some(start) = text.lines().position(|l| {
        let l = l.trim_start().trim_start_matches("- ");
        l.starts_with(&yaml) || l.starts_with(&json)
    }) else {
        return 0;
    };
    let wants = [format!("id: {id}"), format!("\"id\": {id}")];
    text.lines()
        .enumerate()
        .skip(start + 1)
        .find(|(_, l)| {
            wants.iter().any(|want| {
                l.match_indices(want.as_str()).any(|(i, _)| {
                    !l[i + want.len()..].starts_with(|c: char| c.is_ascii_digit())
                        && !l[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
                })
            })
        })
        .map_or(0, |(k, _)| k + 1)
}

/// Parse a layout file; points must have `dimensions` coordinates. A report
/// with CSV geometry is refused: read it with [`parse_layout_with`].
pub fn parse_layout(text: &str, file: &str) -> Result<LayoutFile, ParseError> {
    parse_layout_with(text, file, Sidecars::Refused)
}

/// Parse a layout file, its CSV geometry (if any) reached by `sidecars`.
pub fn parse_layout_with(
    text: &str,
    file: &str,
    sidecars: Sidecars<'_>,
) -> Result<LayoutFile, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let json = is_json(text);
    if !json {
        super::refuse_tags(text, file, None)?;
    }
    match schema_of(text, json) {
        Some((schema, _)) if schema == LAYOUT_SCHEMA => parse_report(text, file, json, sidecars),
        Some((schema, line)) => Err(error(
            file,
            line,
            0,
            format!(
                "not a layout file (a `{LAYOUT_SCHEMA}` report, which `fabric layout ... -o` \
                 writes): it is a `{schema}` report{}",
                match schema.as_str() {
                    "fabric.route" => ", a routed channel: check that with `fabric verify CHANNEL FILE`",
                    "fabric.analysis" => ", a channel analysis (`fabric analyze -o`)",
                    _ => "",
                }
            ),
        )),
        None if json => Err(error(
            file,
            1,
            0,
            format!("a JSON file without a `schema` key: a layout in JSON is a `{LAYOUT_SCHEMA}` report"),
        )),
        None => parse_header_less(text, file),
    }
}

fn check_dimensions(dimensions: u32, text: &str, file: &str, json: bool) -> Result<(), ParseError> {
    if (2..=3).contains(&dimensions) {
        return Ok(());
    }
    Err(error(
        file,
        report_key_line(text, "dimensions", json),
        0,
        format!("dimensions must be 2 or 3, not {dimensions}"),
    ))
}

/// A point of `d` coordinates; `line` is looked up only for an error (the
/// search is linear).
fn point(
    v: &[i64],
    d: usize,
    what: &dyn Fn() -> String,
    file: &str,
    line: &dyn Fn() -> usize,
) -> Result<P3, ParseError> {
    if v.len() != d {
        return Err(error(
            file,
            line(),
            0,
            format!(
                "{} has {} coordinates; a {d}-D layout needs {d}",
                what(),
                v.len()
            ),
        ));
    }
    Ok(P3::new(v[0], v[1], if d == 3 { v[2] } else { 0 }))
}

/// A node from its fields as a file gives them.
fn node(
    (id, kind, level): (u32, &str, u32),
    (min, max): (&[i64], &[i64]),
    d: usize,
    text: &str,
    file: &str,
) -> Result<Node, ParseError> {
    let line = || record_line(text, "nodes", id as u64);
    Ok(Node {
        id,
        kind: kind.to_string(),
        level,
        min: point(min, d, &|| format!("node {id} min"), file, &line)?,
        max: point(max, d, &|| format!("node {id} max"), file, &line)?,
    })
}

/// An edge from its fields as a file gives them.
fn edge(
    (id, from, to): (u32, u32, u32),
    path: &[Vec<i64>],
    d: usize,
    text: &str,
    file: &str,
) -> Result<Edge, ParseError> {
    let line = || record_line(text, "edges", id as u64);
    let path = path
        .iter()
        .map(|p| point(p, d, &|| format!("a point of edge {id}"), file, &line))
        .collect::<Result<Vec<P3>, ParseError>>()?;
    Ok(Edge { id, from, to, path })
}

/// A `fabric.layout` report.
fn parse_report(
    text: &str,
    file: &str,
    json: bool,
    sidecars: Sidecars<'_>,
) -> Result<LayoutFile, ParseError> {
    let report: LayoutReport = if json {
        serde_json::from_str(text).map_err(|e| error(file, e.line(), e.column(), e.to_string()))?
    } else {
        serde_norway::from_str(text).map_err(|e| {
            let (line, column) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
            error(file, line, column, e.to_string())
        })?
    };
    let version = report.header.schema_version;
    if version > LAYOUT_SCHEMA_VERSION {
        return Err(error(
            file,
            report_key_line(text, "schema_version", json),
            0,
            format!("schema version {version} is newer than this fabric reads ({LAYOUT_SCHEMA_VERSION})"),
        ));
    }
    check_dimensions(report.dimensions, text, file, json)?;
    let d = report.dimensions as usize;
    let g = report.geometry;
    let geometry_error =
        |message: String| error(file, report_key_line(text, "geometry", json), 0, message);
    let (nodes, edges) = match (g.kind, g.files, g.nodes, g.edges) {
        (GeometryKind::Inline, None, Some(nodes), Some(edges)) => (
            nodes
                .iter()
                .map(|n| node((n.id, &n.kind, n.level), (&n.min, &n.max), d, text, file))
                .collect::<Result<Vec<_>, _>>()?,
            edges
                .iter()
                .map(|x| edge((x.id, x.from, x.to), &x.path, d, text, file))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        (GeometryKind::Csv, Some(files), None, None) => {
            let Sidecars::Open(open) = sidecars else {
                return Err(geometry_error(
                    "the geometry is in CSV files, which are read beside the report: \
                     give the report's path (`fabric verify-layout FILE`)"
                        .into(),
                ));
            };
            let (nodes, nodes_name) = open(&files.nodes)?;
            let nodes = super::layout_csv::read_nodes(nodes, &nodes_name, report.dimensions)?;
            let (edges, edges_name) = open(&files.edges)?;
            let edges = super::layout_csv::read_edges(edges, &edges_name, report.dimensions)?;
            (nodes, edges)
        }
        (GeometryKind::None, None, None, None) => {
            return Err(geometry_error(
                "the report holds no geometry (written with `--geometry none`): \
                 nothing to check or draw; write it again with --geometry inline or csv"
                    .into(),
            ))
        }
        (kind, ..) => {
            return Err(geometry_error(format!(
                "a `{}` geometry sets {}, the other keys null",
                match kind {
                    GeometryKind::Inline => "inline",
                    GeometryKind::Csv => "csv",
                    GeometryKind::None => "none",
                },
                match kind {
                    GeometryKind::Inline => "`nodes` and `edges`",
                    GeometryKind::Csv => "`files`",
                    GeometryKind::None => "no other key",
                }
            )))
        }
    };
    let m = report.metrics;
    Ok(LayoutFile {
        embedding: Embedding {
            network: report.network.into(),
            parameters: report.parameters,
            dimensions: report.dimensions,
            nodes,
            edges,
        },
        claimed: Some(LayoutMetrics {
            width: m.width,
            height: m.height,
            depth: m.depth.unwrap_or(1),
            area: m.area,
            total_wire_length: m.total_wire_length,
            max_wire_length: m.max_wire_length,
            per_level: BTreeMap::new(),
        }),
        counts: Some(Counts {
            nodes: m.nodes,
            edges: m.edges,
        }),
    })
}

/// A header-less layout YAML: `network`, `parameters`, `dimensions`,
/// `nodes` and `edges` at the top, `metrics` optional.
fn parse_header_less(text: &str, file: &str) -> Result<LayoutFile, ParseError> {
    refuse_other_reports(text, file)?;
    let doc: LayoutDoc = serde_norway::from_str(text).map_err(|e| {
        let (line, column) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
        error(file, line, column, e.to_string())
    })?;
    check_dimensions(doc.dimensions, text, file, false)?;
    let d = doc.dimensions as usize;
    let nodes = doc
        .nodes
        .iter()
        .map(|n| node((n.id, &n.kind, n.level), (&n.min, &n.max), d, text, file))
        .collect::<Result<Vec<_>, _>>()?;
    let edges = doc
        .edges
        .iter()
        .map(|x| edge((x.id, x.from, x.to), &x.path, d, text, file))
        .collect::<Result<Vec<_>, _>>()?;
    let parameters = doc
        .parameters
        .into_iter()
        .map(|(k, v)| {
            let s = match v {
                serde_norway::Value::String(s) => s,
                other => serde_norway::to_string(&other)
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
            };
            (k, s)
        })
        .collect();
    let claimed = doc.metrics.map(|m| LayoutMetrics {
        width: m.width,
        height: m.height,
        depth: m.depth.unwrap_or(1),
        area: m.area,
        total_wire_length: m.total_wire_length,
        max_wire_length: m.max_wire_length,
        per_level: BTreeMap::new(),
    });
    Ok(LayoutFile {
        embedding: Embedding {
            network: doc.network.into(),
            parameters,
            dimensions: doc.dimensions,
            nodes,
            edges,
        },
        claimed,
        counts: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_found_by_line() {
        let t = "network: x\ndimensions: 4\nnodes:\n  - id: 1\n    min: [0]\n  - {id: 12, min: [0]}\nedges:\n  - id: 12\n";
        assert_eq!(record_line(t, "nodes", 1), 4);
        assert_eq!(record_line(t, "nodes", 12), 6);
        assert_eq!(record_line(t, "edges", 12), 8);
        assert_eq!(record_line(t, "edges", 1), 0);
        let nested = "geometry:\n  kind: inline\n  nodes:\n  - id: 0\n    kind: p\n  - id: 10\n";
        assert_eq!(record_line(nested, "nodes", 10), 6);
        let json = "{\n  \"geometry\": {\n    \"nodes\": [\n      {\n        \"id\": 3,\n";
        assert_eq!(record_line(json, "nodes", 3), 5);
        assert_eq!(report_key_line(json, "geometry", true), 2);
        assert_eq!(
            schema_of("{\n  \"schema\": \"fabric.route\",\n", true),
            Some(("fabric.route".to_string(), 2))
        );
        assert_eq!(
            schema_of("schema: fabric.layout\n", false),
            Some(("fabric.layout".to_string(), 1))
        );
    }
}
