//! Parsing of input files from text into validated models. Nothing here
//! opens a file: callers pass the text and the file name for messages.

pub mod channel;
pub mod layout;
pub mod solution;
pub mod switchbox;

pub use channel::{parse_channel, ChannelForm};
pub use layout::{parse_layout, LayoutFile};
pub use solution::{parse_solution, SolutionFile};
pub use switchbox::parse_switchbox;
