//! Reader of routed-channel YAML (docs/formats.md section 3).

use serde::Deserialize;

use crate::channel::solution::{ChannelSolution, GroupType, LayerGroup, Metrics, Via, Wire};
use crate::error::ParseError;
use crate::geom::Point;
use crate::report::model::route::{GroupRecord, MetricsRecord, ViaRecord, WireRecord};
use crate::report::model::{ROUTE_SCHEMA, ROUTE_SCHEMA_VERSION};

/// The header keys of a report, when it has them.
#[derive(Deserialize)]
struct HeaderDoc {
    schema: Option<String>,
    schema_version: Option<u32>,
}

/// A routed channel as read: a `fabric.route` report (YAML or JSON) or a
/// hand-written file of the same keys without the header.
#[derive(Deserialize)]
struct SolutionDoc {
    schema: Option<String>,
    schema_version: Option<u32>,
    #[serde(default)]
    name: String,
    layers: u32,
    width: u32,
    columns: u32,
    #[serde(default)]
    groups: Vec<GroupRecord>,
    #[serde(default)]
    wires: Vec<WireRecord>,
    #[serde(default)]
    vias: Vec<ViaRecord>,
    metrics: Option<MetricsRecord>,
}

/// A solution file: the routing and the figures it claims (if any).
#[derive(Clone, Debug)]
pub struct SolutionFile {
    /// The wires and vias as the file gives them, not yet verified.
    pub solution: ChannelSolution,
    /// The file's `metrics:` section, if any, for the verifier to compare
    /// with the figures it measures.
    pub claimed: Option<Metrics>,
}

/// serde_norway ends its messages with `at line L column C`, which the error
/// already carries as its position.
fn without_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// Parse a routed channel; `file` names it in errors.
pub fn parse_solution(text: &str, file: &str) -> Result<SolutionFile, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    super::refuse_tags(text, file, Some("a routed-channel YAML file"))?;
    let doc: SolutionDoc = match serde_norway::from_str(text) {
        Ok(doc) => doc,
        Err(e) => {
            // A report of another kind fails on its missing keys: name
            // its kind instead.
            if let Ok(header) = serde_norway::from_str::<HeaderDoc>(text) {
                check_header(&header, file)?;
            }
            let (line, column) = e
                .location()
                .map(|l| (l.line(), l.column()))
                .unwrap_or((0, 0));
            return Err(ParseError {
                file: file.to_string(),
                line,
                column,
                form: Some("a routed-channel YAML file"),
                message: without_position(&e.to_string()),
            });
        }
    };
    check_header(
        &HeaderDoc {
            schema: doc.schema.clone(),
            schema_version: doc.schema_version,
        },
        file,
    )?;
    let point = |p: [i64; 2]| Point::new(p[0], p[1]);
    let solution = ChannelSolution {
        name: doc.name,
        layers: doc.layers,
        width: doc.width,
        columns: doc.columns,
        groups: doc
            .groups
            .into_iter()
            .map(|g| LayerGroup {
                kind: GroupType::from(g.kind),
                layers: g.layers,
            })
            .collect(),
        wires: doc
            .wires
            .into_iter()
            .map(|w| Wire {
                net: w.net,
                layer: w.layer,
                from: point(w.from),
                to: point(w.to),
            })
            .collect(),
        vias: doc
            .vias
            .into_iter()
            .map(|v| Via {
                net: v.net,
                at: point(v.at),
                from: v.from,
                to: v.to,
            })
            .collect(),
    };
    let claimed = doc.metrics.map(Metrics::from);
    Ok(SolutionFile { solution, claimed })
}

/// A header, when the file has one, must name a routing report of a
/// version this `fabric` reads.
fn check_header(doc: &HeaderDoc, file: &str) -> Result<(), ParseError> {
    let error = |message: String| ParseError {
        file: file.to_string(),
        line: 0,
        column: 0,
        form: Some("a routed-channel YAML file"),
        message,
    };
    if let Some(schema) = doc.schema.as_deref().filter(|&s| s != ROUTE_SCHEMA) {
        return Err(error(format!(
            "a `{schema}` report, not a routed channel (`{ROUTE_SCHEMA}`)"
        )));
    }
    match doc.schema_version {
        Some(v) if v > ROUTE_SCHEMA_VERSION => Err(error(format!(
            "schema version {v} is newer than this fabric reads ({ROUTE_SCHEMA_VERSION})"
        ))),
        _ => Ok(()),
    }
}
