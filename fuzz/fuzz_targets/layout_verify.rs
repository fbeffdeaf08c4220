//! Layout YAML files -> parse -> the independent checker -> the network the
//! layout realises against the one its parameters describe (what
//! `fabric verify-layout` runs). Invariants: no panic or abort; a network
//! rebuilt from a layout the checker accepts compares equal to itself.
#![no_main]

use fabric::layout::check::check;
use fabric::network::Network;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(file) = fabric::io::parse_layout(text, "fuzz.yaml") else {
        return;
    };
    let verdict = check(&file.embedding);
    if !verdict.is_legal() {
        return;
    }
    if let Ok(got) = Network::from_embedding(&file.embedding) {
        assert!(got.compare(&got).is_ok(), "a network differs from itself");
    }
    if let Some(Ok(want)) = Network::intended(&file.embedding) {
        let _ = Network::from_embedding(&file.embedding).and_then(|got| got.compare(&want));
    }
});
