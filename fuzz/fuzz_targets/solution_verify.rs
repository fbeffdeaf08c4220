//! A channel and a routed-channel YAML file, split at the first NUL byte ->
//! parse both -> verify. Invariants: no panic or abort; a solution the
//! verifier calls legal has no violations, and its recomputed metrics agree
//! with a second verification that claims them.
#![no_main]

use fabric::channel::verify::verify;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (channel, solution) = text
        .split_once('\0')
        .unwrap_or(("top: 1 2 0\nbottom: 0 1 2\n", text));
    let Ok(problem) = fabric::io::parse_channel(channel, "fuzz.txt") else {
        return;
    };
    let Ok(file) = fabric::io::parse_solution(solution, "fuzz.yaml") else {
        return;
    };
    let report = verify(&problem, &file.solution, file.claimed.as_ref());
    if report.is_legal() {
        assert!(report.violations.is_empty());
        let again = verify(&problem, &file.solution, Some(&report.metrics));
        assert!(
            again.is_legal(),
            "claiming the measured metrics made it illegal"
        );
    }
});
