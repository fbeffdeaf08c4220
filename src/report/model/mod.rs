//! The typed reports: one model per job, each a serde type written by a
//! maintained serializer as YAML (the default) or JSON, and each with a JSON
//! Schema generated from the type (shipped in `docs/schema/`).
//!
//! Every report starts with a [`Header`]: the schema's name, its version and
//! the version of `fabric` that wrote it. Optional values are always
//! present, written as `null` when absent, so that every record of a list
//! has the same keys and every key has one type from run to run.

pub mod bay_bilardi;
pub mod butterfly;
pub mod channel;
pub mod fat_tree;
pub mod fsm;
pub mod layout;
pub mod mesh;
pub mod open_loop;
pub mod route;
pub mod sweep;
pub mod universality;
pub mod wire_delay;
pub mod wormhole;

pub use bay_bilardi::BbReport;
pub use butterfly::PacketReport;
pub use channel::{AnalysisReport, SeparationReport, SwitchboxReport};
pub use fat_tree::FatTreeSimReport;
pub use fsm::FsmReport;
pub use layout::{LayoutReport, LAYOUT_SCHEMA, LAYOUT_SCHEMA_VERSION};
pub use mesh::MeshReport;
pub use open_loop::OpenLoopReport;
pub use route::{RouteReport, ROUTE_SCHEMA, ROUTE_SCHEMA_VERSION};
pub use sweep::SweepReport;
pub use universality::UniversalityReport;
pub use wire_delay::WireDelayReport;
pub use wormhole::WormReport;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::RenderError;

/// The file format of a report (`--format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// YAML, block style (the default).
    #[default]
    Yaml,
    /// JSON, indented; the fast one to load for large reports.
    Json,
    /// CSV of the report's table, one row per record with a header row
    /// (`null` as an empty field); only for reports with a table.
    Csv,
}

/// `--format csv` asked of a report without a table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "--format csv applies to reports with a table; a {schema} report has none: use yaml or json"
)]
pub struct NoTable {
    /// The report's schema.
    pub schema: &'static str,
}

/// The first three keys of every report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Header {
    /// The report's schema, `fabric.JOB` (`fabric.route`, ...).
    pub schema: String,
    /// The schema's version; it grows when a key changes meaning or type.
    pub schema_version: u32,
    /// The version of `fabric` that wrote the report.
    pub fabric_version: String,
}

/// A report type: its schema's name and version.
pub trait Report: Serialize + JsonSchema {
    /// The schema name, `fabric.JOB`.
    const SCHEMA: &'static str;
    /// The schema version written.
    const VERSION: u32;
    /// The key of the list `--format csv` writes; `None` for reports
    /// without a table.
    const TABLE: Option<&'static str> = None;

    /// The table as CSV, for reports with a [`Report::TABLE`].
    fn csv(&self) -> Option<Result<String, csv::Error>> {
        None
    }

    /// The header of a report of this type written by this `fabric`.
    fn header() -> Header {
        Header {
            schema: Self::SCHEMA.to_string(),
            schema_version: Self::VERSION,
            fabric_version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }
}

/// Refuse `format` for a report of type `R` before any work is done.
pub fn check_format<R: Report>(format: Format) -> Result<(), NoTable> {
    match (format, R::TABLE) {
        (Format::Csv, None) => Err(NoTable { schema: R::SCHEMA }),
        _ => Ok(()),
    }
}

/// The report as text in `format`, ending in a newline.
pub fn render<R: Report>(report: &R, format: Format) -> Result<String, crate::error::Error> {
    let failed = |e: RenderError| crate::error::Error::Render {
        schema: R::SCHEMA,
        source: e,
    };
    match format {
        Format::Yaml => serde_norway::to_string(report).map_err(|e| failed(e.into())),
        Format::Json => serde_json::to_string_pretty(report)
            .map(|text| text + "\n")
            .map_err(|e| failed(e.into())),
        Format::Csv => match report.csv() {
            Some(table) => table.map_err(|e| failed(e.into())),
            None => Err(crate::error::Error::Usage(
                NoTable { schema: R::SCHEMA }.to_string(),
            )),
        },
    }
}

/// `rows` as CSV with a header row of their keys.
pub fn csv_rows<T: Serialize>(rows: &[T]) -> Result<String, csv::Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.serialize(row)?;
    }
    let bytes = writer.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8"))
}

/// Every object of the schema requires all its keys and allows no others:
/// a report writes every key, `null` for an absent value.
fn tighten(schema: &mut serde_json::Value) {
    match schema {
        serde_json::Value::Object(map) => {
            if let Some(keys) = map
                .get("properties")
                .and_then(serde_json::Value::as_object)
                .map(|p| p.keys().cloned().map(serde_json::Value::String).collect())
            {
                map.insert("required".into(), serde_json::Value::Array(keys));
                map.insert("additionalProperties".into(), false.into());
            }
            map.values_mut().for_each(tighten);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(tighten),
        _ => {}
    }
}

/// The JSON Schema of a report type, its `schema` and `schema_version`
/// keys pinned to the values this `fabric` writes, every key required.
pub fn schema_of<R: Report>() -> serde_json::Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(R)).expect("a schema is JSON");
    tighten(&mut schema);
    if let Some(props) = schema
        .get_mut("properties")
        .and_then(serde_json::Value::as_object_mut)
    {
        props.insert(
            "schema".into(),
            serde_json::json!({ "const": R::SCHEMA, "description": "The report's schema." }),
        );
        props.insert(
            "schema_version".into(),
            serde_json::json!({ "const": R::VERSION, "description": "The schema's version." }),
        );
    }
    schema
}

/// Every report schema: its file name in `docs/schema/` and its text.
pub fn schemas() -> Vec<(String, String)> {
    fn one<R: Report>() -> (String, String) {
        let mut text = serde_json::to_string_pretty(&schema_of::<R>()).expect("a schema is JSON");
        text.push('\n');
        (format!("{}.schema.json", R::SCHEMA), text)
    }
    vec![
        one::<AnalysisReport>(),
        one::<FatTreeSimReport>(),
        one::<FsmReport>(),
        one::<WireDelayReport>(),
        one::<BbReport>(),
        one::<MeshReport>(),
        one::<OpenLoopReport>(),
        one::<PacketReport>(),
        one::<LayoutReport>(),
        one::<RouteReport>(),
        one::<SeparationReport>(),
        one::<SwitchboxReport>(),
        one::<SweepReport>(),
        one::<UniversalityReport>(),
        one::<WormReport>(),
    ]
}
