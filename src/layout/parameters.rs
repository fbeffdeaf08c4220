//! A layout file's parameters as the families read them to build the
//! network the file claims to realise.

use std::collections::BTreeMap;

use super::error::SpecError;
use super::Embedding;

/// Why a layout file's parameters describe no network it can realise.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParameterError {
    /// A parameter the family needs is absent.
    #[error("parameter `{0}` is missing")]
    Missing(String),
    /// A parameter is not a number.
    #[error("parameter `{0}` is not a number")]
    NotANumber(String),
    /// A parameter is too large for its use.
    #[error("parameter `{0}` is too large")]
    TooLarge(String),
    /// The network described has more processors, nodes or links than the
    /// file.
    #[error("the parameters describe more {what} than the layout's {have}")]
    MoreThanLayout {
        /// `processors`, `nodes` or `links`.
        what: &'static str,
        /// How many the file has.
        have: u64,
    },
    /// The parameters together describe no network of the family (its
    /// name).
    #[error("bad {0} parameters")]
    Bad(&'static str),
    /// The family's construction refuses them.
    #[error(transparent)]
    Spec(#[from] SpecError),
}

/// A layout file's parameters as a family reads them for its intended
/// network: numbers, and the checks that the network they describe is no
/// larger than the file.
pub(crate) struct FileParameters<'a> {
    map: &'a BTreeMap<String, String>,
    nodes: u64,
    links: u64,
}

impl<'a> FileParameters<'a> {
    /// The parameters of `e`, with its node and link counts.
    pub(crate) fn new(e: &'a Embedding) -> FileParameters<'a> {
        FileParameters {
            map: &e.parameters,
            nodes: e.nodes.len() as u64,
            links: e.edges.len() as u64,
        }
    }

    /// The text of parameter `k`, or `default` when it is absent.
    pub(crate) fn text_or(&self, k: &str, default: &'a str) -> &'a str {
        self.map.get(k).map_or(default, String::as_str)
    }

    /// Whether parameter `k` is present.
    pub(crate) fn has(&self, k: &str) -> bool {
        self.map.contains_key(k)
    }

    /// Parameter `k` as a number.
    pub(crate) fn num(&self, k: &str) -> Result<u64, ParameterError> {
        self.map
            .get(k)
            .ok_or_else(|| ParameterError::Missing(k.to_string()))?
            .parse()
            .map_err(|_| ParameterError::NotANumber(k.to_string()))
    }

    /// Parameter `k` as a number that fits in `u32`.
    pub(crate) fn small(&self, k: &str) -> Result<u32, ParameterError> {
        u32::try_from(self.num(k)?).map_err(|_| ParameterError::TooLarge(k.to_string()))
    }

    /// Parameter `processors`, refused when the file has fewer nodes.
    pub(crate) fn processors(&self) -> Result<u64, ParameterError> {
        let n = self.num("processors")?;
        fits("processors", Some(n), self.nodes)?;
        Ok(n)
    }

    /// Refuses a network of `need` nodes (`None`: past `u64`) that the
    /// file's nodes cannot hold.
    pub(crate) fn fits_nodes(&self, need: Option<u64>) -> Result<(), ParameterError> {
        fits("nodes", need, self.nodes)
    }

    /// Refuses a network of `need` links (`None`: past `u64`) that the
    /// file's edges cannot hold.
    pub(crate) fn fits_links(&self, need: Option<u64>) -> Result<(), ParameterError> {
        fits("links", need, self.links)
    }
}

/// `Ok` when `need` is known and at most `have`.
fn fits(what: &'static str, need: Option<u64>, have: u64) -> Result<(), ParameterError> {
    match need {
        Some(v) if v <= have => Ok(()),
        _ => Err(ParameterError::MoreThanLayout { what, have }),
    }
}
