//! Helpers shared by the integration tests (and the benches, by path).

#![allow(dead_code)]

use fabric::channel::problem::ChannelProblem;

/// The bundled channel benchmarks (benchmarks/channels/), by file stem.
pub const BUNDLED: [&str; 9] = [
    "burstein",
    "dde",
    "dde_zhou",
    "joobbani_6_16",
    "nycu_lab4_case1",
    "nycu_lab4_case2",
    "ptrdist_input1",
    "ptrdist_input2",
    "yk_textbook12",
];

/// A bundled channel benchmark, parsed and validated.
pub fn bundled(name: &str) -> ChannelProblem {
    let path = format!(
        "{}/benchmarks/channels/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("bundled benchmark");
    fabric::io::parse_channel(&text, &path).expect("valid benchmark")
}
