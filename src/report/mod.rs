//! Reports: the typed report models of every job (YAML, JSON and CSV,
//! `model`), SVG pictures, charts and terminal tables. Everything here
//! turns a computed value into a string; nothing runs an algorithm or
//! touches a file.

#![warn(missing_docs)]

pub mod bay_bilardi;
#[cfg(feature = "cli")]
pub mod chart;
pub mod fsm;
pub mod mesh;
pub mod model;
pub mod open_loop;
pub mod packet;
pub mod svg;
pub mod table;
pub mod universality;
pub mod wire_delay;
pub mod wormhole;

#[cfg(all(test, feature = "cli"))]
#[path = "names_tests.rs"]
mod names_tests;
