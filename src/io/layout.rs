//! Reader of layout YAML (FORMATS.md section 4).

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::error::ParseError;
use crate::layout::metrics::LayoutMetrics;
use crate::layout::{Edge, Embedding, Node, P3};

const FORM: &str = "a layout YAML file";

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

/// A layout file: the embedding and the figures it claims.
#[derive(Clone, Debug)]
pub struct LayoutFile {
    /// The network, parameters, nodes and edge paths as the file gives them.
    pub embedding: Embedding,
    /// The file's `metrics:` section, if any, to check against the measured
    /// figures: `per_level` is always empty and `depth` is 1 when absent.
    pub claimed: Option<LayoutMetrics>,
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

/// Parse a layout file; points must have `dimensions` coordinates.
pub fn parse_layout(text: &str, file: &str) -> Result<LayoutFile, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    super::refuse_tags(text, file, None)?;
    refuse_other_reports(text, file)?;
    let doc: LayoutDoc = serde_norway::from_str(text).map_err(|e| {
        let (line, column) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
        error(file, line, column, e.to_string())
    })?;
    if !(2..=3).contains(&doc.dimensions) {
        return Err(error(
            file,
            super::key_line(text, "dimensions"),
            0,
            format!("dimensions must be 2 or 3, not {}", doc.dimensions),
        ));
    }
    let d = doc.dimensions as usize;
    // The line is looked up only for an error: the search is linear.
    let point = |v: &[i64], what: &str, line: &dyn Fn() -> usize| -> Result<P3, ParseError> {
        if v.len() != d {
            return Err(error(
                file,
                line(),
                0,
                format!(
                    "{what} has {} coordinates; a {d}-D layout needs {d}",
                    v.len()
                ),
            ));
        }
        Ok(P3::new(v[0], v[1], if d == 3 { v[2] } else { 0 }))
    };
    let mut nodes = Vec::with_capacity(doc.nodes.len());
    for n in &doc.nodes {
        nodes.push(Node {
            id: n.id,
            kind: n.kind.clone(),
            level: n.level,
            min: point(&n.min, &format!("node {} min", n.id), &|| {
                super::item_line(text, "nodes", n.id as u64)
            })?,
            max: point(&n.max, &format!("node {} max", n.id), &|| {
                super::item_line(text, "nodes", n.id as u64)
            })?,
        });
    }
    let mut edges = Vec::with_capacity(doc.edges.len());
    for x in &doc.edges {
        let path = x
            .path
            .iter()
            .map(|p| {
                point(p, &format!("a point of edge {}", x.id), &|| {
                    super::item_line(text, "edges", x.id as u64)
                })
            })
            .collect::<Result<Vec<P3>, ParseError>>()?;
        edges.push(Edge {
            id: x.id,
            from: x.from,
            to: x.to,
            path,
        });
    }
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
    })
}
