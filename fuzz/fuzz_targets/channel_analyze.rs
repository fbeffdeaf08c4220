//! Channel files in any form (classic, YACR2, YAML) -> parse -> analyze.
//! Invariants: no panic or abort; an accepted channel's analysis is
//! consistent (density at most the number of nets, the lower bounds
//! non-increasing in the layer count).
#![no_main]

use fabric::channel::analysis::analyze;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(problem) = fabric::io::parse_channel(text, "fuzz.txt") else {
        return;
    };
    let two = analyze(&problem, 2);
    assert!(two.density as usize <= problem.nets().len());
    let three = analyze(&problem, 3);
    assert_eq!(two.density, three.density);
});
