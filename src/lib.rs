//! `fabric`: CAD for VLSI interconnect.
//!
//! Three pillars share one crate: channel routing ([`channel`]), grid layouts
//! of interconnection networks ([`layout`], [`network`]), and routing
//! simulation over laid-out fabrics ([`sim`]).
//!
//! # Pipeline
//! parse ([`io`]) → validate ([`channel::ChannelProblem::validate`]) →
//! algorithm ([`channel::ChannelRouter`]) → verify ([`channel::verify`]) →
//! metrics → report ([`report`]) → files (`cli`).
//!
//! # Module map and dependency rule
//! - [`geom`], [`graph`]: integer geometry and small graph algorithms; depend
//!   on nothing else here.
//! - [`channel`]: channel problems, analysis, routers, solutions, verifier;
//!   uses `geom` and `graph`.
//! - [`layout`], [`network`]: grid embeddings and their checker; networks as
//!   graphs.
//! - [`sim`]: routing simulators over networks and their layouts.
//! - [`io`]: text and YAML into raw models and then validated ones; parses
//!   from `&str`, never opens files.
//! - [`report`]: YAML, SVG and terminal tables; writes strings, never runs an
//!   algorithm.
//! - [`view`]: self-contained HTML viewers of routings and layouts;
//!   writes strings, as [`report`] does.
//! - `cli`: the only place that touches files, arguments and the terminal.
//!
//! Nothing imports upward: algorithms never print, read files or know YAML.
//!
//! # Examples
//!
//! Each pillar's module documentation opens with a checked example: a
//! channel routed and verified ([`channel`]), a layout built, checked and
//! held to its closed forms ([`layout`]), and a permutation routed on a
//! fat-tree against its load factor ([`sim`]). A bad input is a
//! [`ParseError`] naming the file, line and column:
//!
//! ```
//! let e = fabric::io::parse_channel("top: 1 2\nbottom: 2 x\n", "bad.txt").unwrap_err();
//! assert_eq!((e.file.as_str(), e.line), ("bad.txt", 2));
//! assert!(e.to_string().starts_with("bad.txt:2:"));
//! ```
//!
//! # Features
//! - `cli` (on by default): the `cli` module and the `fabric` binary, the
//!   SVG charts of the simulation reports (`report::chart` and the
//!   `*_chart` functions), and the `clap::ValueEnum` of every enum the
//!   command line takes. A program that only routes, lays out or simulates
//!   depends on the crate with `default-features = false` and leaves out
//!   clap, clap_complete, clap_mangen, plotters, indicatif and libc; the
//!   enums the reports name keep a plain `name()` and `ALL`.

#![warn(missing_docs)]

pub mod channel;
#[cfg(feature = "cli")]
pub mod cli;
pub mod error;
pub mod fsm;
pub mod geom;
pub mod graph;
pub mod io;
pub mod layout;
pub mod limits;
pub mod network;
pub mod parallel;
pub mod physical;
pub mod report;
pub mod sim;
pub mod view;

pub use error::{Error, ParseError, Result};
