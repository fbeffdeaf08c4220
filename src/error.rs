//! The crate error type and the exit codes of the command line.
//!
//! Exit codes: 0 success; 1 the program ran but the result is infeasible or
//! failed verification; 2 a usage or input error (bad file, bad option).

#![warn(missing_docs)]

use std::fmt;

use thiserror::Error;

use crate::channel::problem::ValidateError;
use crate::channel::solution::AgainstDirection;
use crate::channel::RouteError;
use crate::fsm::check::Mismatch;
use crate::fsm::realise::Construction;
use crate::layout::check::Violation;
use crate::layout::construction::FormsError;
use crate::layout::twin::RealiseError;
use crate::layout::LayoutKind;
use crate::network::NetworkError;
use crate::sim::circuit::RouteFailure;
use crate::sim::mesh::algorithm::Algorithm as MeshAlgorithm;
use crate::sim::mesh::{MeshError, Shape};
use crate::sim::openloop::{OpenLoopError, Topology};
use crate::sim::packet::experiment::ExperimentError;
use crate::sim::wormhole::{Scheme, WormError};
use crate::sim::SimError;

/// An input file that cannot be read as what it should be, with where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The name of the file, as the caller passed it to the parser.
    pub file: String,
    /// 1-based; 0 when the problem is the file as a whole.
    pub line: usize,
    /// 1-based; 0 when unknown.
    pub column: usize,
    /// The input form assumed (for auto-detected formats).
    pub form: Option<&'static str>,
    /// What is wrong, without the location (which `Display` prefixes).
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.column > 0 {
                write!(f, ":{}", self.column)?;
            }
        }
        write!(f, ": {}", self.message)?;
        if let Some(form) = self.form {
            write!(f, " (read as {form})")?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseError {}

/// Every error `fabric` reports.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// An input file that does not parse or validate (exit 2).
    #[error("{0}")]
    Parse(#[from] ParseError),
    /// A file that cannot be opened, read or written.
    #[error("{path}: {message}")]
    File {
        /// The path as given.
        path: String,
        /// The system's reason.
        message: String,
    },
    /// A router failure: exit 1 when the channel is unroutable, exit 2 for a
    /// layer count the router does not support.
    #[error("{0}")]
    Route(#[from] RouteError),
    /// A channel job whose result fails a check, or whose channel the job
    /// cannot take (`fabric route`, `fabric separation`; exit 1).
    #[error(transparent)]
    Channel(#[from] ChannelFailure),
    /// A report its serialiser cannot write (exit 1).
    #[error("writing a {schema} report: {source}")]
    Render {
        /// The report's schema id.
        schema: &'static str,
        /// The serialiser's reason.
        source: RenderError,
    },
    /// A chart plotters cannot draw (exit 1).
    #[cfg(feature = "cli")]
    #[error(transparent)]
    Chart(#[from] crate::report::chart::ChartError),
    /// A PLA construction that does not apply to the machine (exit 1).
    #[error("{construction:?} does not apply")]
    NotApplicable {
        /// The construction asked for.
        construction: Construction,
    },
    /// A PLA that disagrees with its machine (exit 1).
    #[error(transparent)]
    PlaMismatch(#[from] Mismatch),
    /// A built layout that fails a check (exit 1).
    #[error(transparent)]
    Layout(#[from] LayoutFailure),
    /// Mask geometry that cannot be drawn (exit 1).
    #[error(transparent)]
    Draw(std::io::Error),
    /// A simulation that cannot build its network or finish a trial
    /// (exit 1).
    #[error(transparent)]
    Simulation(#[from] SimulationFailure),
    /// A bad combination of options.
    #[error("{0}")]
    Usage(String),
    /// A job over one of the limits of [`crate::limits`].
    #[error("{0}")]
    Limit(#[from] crate::limits::LimitError),
}

impl Error {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Parse(_) | Error::File { .. } | Error::Usage(_) | Error::Limit(_) => 2,
            Error::Route(RouteError::Layers { .. }) => 2,
            Error::Route(_) | Error::Channel(_) => 1,
            Error::Render { .. }
            | Error::NotApplicable { .. }
            | Error::PlaMismatch(_)
            | Error::Layout(_)
            | Error::Draw(_)
            | Error::Simulation(_) => 1,
            #[cfg(feature = "cli")]
            Error::Chart(_) => 1,
        }
    }
}

/// Why a serialiser cannot write a report.
#[derive(Debug, Error)]
pub enum RenderError {
    /// The YAML writer's reason.
    #[error(transparent)]
    Yaml(#[from] serde_norway::Error),
    /// The JSON writer's reason.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// The CSV writer's reason.
    #[error(transparent)]
    Csv(#[from] csv::Error),
}

/// A channel job whose result fails a check, or whose channel the job
/// cannot take; nothing was written.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ChannelFailure {
    /// Nets that cross, so the channel has no routing in one layer.
    #[error(
        "{channel} cannot be routed in one layer: nets {a} and {b} cross ({pairs} crossing pairs)"
    )]
    Crossing {
        /// The channel's name.
        channel: String,
        /// The label of the first net of the first crossing pair.
        a: u32,
        /// The label of the second.
        b: u32,
        /// How many pairs of nets cross.
        pairs: usize,
    },
    /// Floating side terminals the switchbox reduction cannot place.
    #[error("{channel}: {source}")]
    SideTerminals {
        /// The channel's name.
        channel: String,
        /// Why.
        source: ValidateError,
    },
    /// A router's routing that the verifier finds illegal.
    #[error(
        "the {router} router produced an illegal routing of {channel} ({total} violations); \
         nothing was written:\n{violations}"
    )]
    Illegal {
        /// The router's name.
        router: &'static str,
        /// The channel's name.
        channel: String,
        /// How many violations the verifier found.
        total: usize,
        /// The violations it lists, one an indented line.
        violations: String,
    },
    /// A routing with wire against its layer's direction where the
    /// direction rule is reserved (`--reserved`).
    #[error(
        "the {router} router's routing of {channel} has {} unit edge(s) against their layer's \
         direction ({}) under --reserved; nothing was written",
        against.total(),
        against.per_layer_text()
    )]
    AgainstDirection {
        /// The router's name.
        router: &'static str,
        /// The channel's name.
        channel: String,
        /// The unit edges against direction, layer by layer.
        against: AgainstDirection,
    },
}

/// A layout built in memory that fails one of its checks.
#[derive(Debug, Error)]
pub enum LayoutFailure {
    /// The construction's layout breaks the legality rules.
    #[error(
        "the {kind} construction produced an illegal layout ({total} violations); nothing was written:\n  {}",
        lines(violations)
    )]
    Illegal {
        /// The family built.
        kind: LayoutKind,
        /// Violations found.
        total: usize,
        /// The violations the checker lists.
        violations: Vec<Violation>,
    },
    /// The layout's measures break its family's closed forms.
    #[error(transparent)]
    Forms(#[from] FormsError),
    /// The layout is not the network its parameters name.
    #[error("the layout does not realise its network: {0}")]
    NotRealised(#[source] RealiseError),
    /// The compressed CSV geometry cannot be written.
    #[error("writing the CSV geometry: {0}")]
    CsvGeometry(#[source] std::io::Error),
}

/// The violations, one a line, as [`LayoutFailure::Illegal`] lists them.
fn lines(violations: &[Violation]) -> String {
    violations
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n  ")
}

/// A simulation that cannot build its network or finish a trial, with the
/// cell or network it failed on.
#[derive(Debug, Error)]
pub enum SimulationFailure {
    /// A network the fat-tree simulators cannot build.
    #[error(transparent)]
    Fabric(#[from] SimError),
    /// A layout whose network cannot be read off.
    #[error(transparent)]
    Network(#[from] NetworkError),
    /// A cell of `fabric simulate butterfly` that cannot run.
    #[error(transparent)]
    Butterfly(#[from] ExperimentError),
    /// A mesh trial that cannot run.
    #[error("{algorithm} on the {shape}: {source}")]
    Mesh {
        /// The algorithm.
        algorithm: MeshAlgorithm,
        /// The array.
        shape: Shape,
        /// Why.
        source: MeshError,
    },
    /// A wormhole network that cannot be built from its layout.
    #[error("{processors} processors: {source}")]
    WormholeNetwork {
        /// Its processors.
        processors: u32,
        /// Why.
        source: WormholeNetworkError,
    },
    /// A wormhole run that cannot finish.
    #[error("{} on {processors} processors: {source}", scheme.name())]
    WormholeRun {
        /// The scheme run.
        scheme: Scheme,
        /// The network's processors.
        processors: u32,
        /// Why.
        source: WormError,
    },
    /// An open-loop configuration that cannot be simulated.
    #[error("{}: {source}", topology.name())]
    OpenLoop {
        /// The topology.
        topology: Topology,
        /// Why.
        source: OpenLoopError,
    },
    /// A wire-delay trial given up.
    #[error("{layout} n = {processors}: {source}")]
    WireDelay {
        /// Where the layout came from: its file, or the construction.
        layout: String,
        /// Its processors.
        processors: u64,
        /// Why.
        source: RouteFailure,
    },
    /// A claim of Bay and Bilardi that does not hold on a trial.
    #[error("N = {terminals}: {claim}")]
    Claim {
        /// The network's terminals.
        terminals: u64,
        /// The claim and how it fails.
        claim: String,
    },
}

/// Why a wormhole network cannot be built from a layout.
#[derive(Debug, Error)]
pub enum WormholeNetworkError {
    /// The layout's graph.
    #[error(transparent)]
    Network(#[from] NetworkError),
    /// Its link tree or flit network.
    #[error(transparent)]
    Links(#[from] SimError),
}

/// `Result` with the crate's [`enum@Error`] as the default error type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
#[path = "error_tests.rs"]
mod tests;
