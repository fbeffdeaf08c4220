//! Reader of routed-channel YAML (FORMATS.md section 3).

use serde::Deserialize;

use crate::channel::solution::{ChannelSolution, GroupType, LayerGroup, Metrics, Via, Wire};
use crate::error::ParseError;
use crate::geom::Point;

#[derive(Deserialize)]
struct SolutionDoc {
    #[serde(default)]
    name: String,
    layers: u32,
    width: u32,
    columns: u32,
    #[serde(default)]
    groups: Vec<GroupDoc>,
    #[serde(default)]
    wires: Vec<WireDoc>,
    #[serde(default)]
    vias: Vec<ViaDoc>,
    metrics: Option<MetricsDoc>,
}

#[derive(Deserialize)]
struct GroupDoc {
    #[serde(rename = "type")]
    kind: String,
    layers: Vec<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WireDoc {
    net: u32,
    layer: u32,
    from: [i64; 2],
    to: [i64; 2],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ViaDoc {
    net: u32,
    at: [i64; 2],
    from: u32,
    to: u32,
}

#[derive(Deserialize)]
struct MetricsDoc {
    width: u32,
    net_length: u64,
    vias: u64,
    density: u32,
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
    let doc: SolutionDoc = serde_norway::from_str(text).map_err(|e| {
        let (line, column) = e
            .location()
            .map(|l| (l.line(), l.column()))
            .unwrap_or((0, 0));
        ParseError {
            file: file.to_string(),
            line,
            column,
            form: Some("a routed-channel YAML file"),
            message: without_position(&e.to_string()),
        }
    })?;
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
    let claimed = doc.metrics.map(|m| Metrics {
        width: m.width,
        net_length: m.net_length,
        vias: m.vias,
        density: m.density,
    });
    Ok(SolutionFile { solution, claimed })
}
