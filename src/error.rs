//! The crate error type and the exit codes of the command line.
//!
//! Exit codes: 0 success; 1 the program ran but the result is infeasible or
//! failed verification; 2 a usage or input error (bad file, bad option).

#![warn(missing_docs)]

use std::fmt;

use thiserror::Error;

use crate::channel::RouteError;

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
    /// The job ran but its result failed a check.
    #[error("{0}")]
    Failed(String),
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
            Error::Route(_) | Error::Failed(_) => 1,
        }
    }
}

/// A chart that cannot be drawn fails the job (exit 1).
#[cfg(feature = "cli")]
impl From<crate::report::chart::ChartError> for Error {
    fn from(e: crate::report::chart::ChartError) -> Error {
        Error::Failed(e.to_string())
    }
}

/// `Result` with the crate's [`enum@Error`] as the default error type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
