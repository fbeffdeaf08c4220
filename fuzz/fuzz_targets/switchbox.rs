//! Switchbox files -> parse -> the one-layer routability test. Invariants:
//! no panic or abort; on small boxes the fast test agrees with the brute
//! force.
#![no_main]

use fabric::channel::switchbox::{check, routable, routable_brute_force};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(sb) = fabric::io::parse_switchbox(text, "fuzz.txt") else {
        return;
    };
    let c = check(&sb);
    if sb.width <= 12 && sb.height <= 12 {
        assert_eq!(
            routable(&sb).is_ok(),
            routable_brute_force(&sb).is_ok(),
            "fast and brute-force tests disagree"
        );
    }
    let _ = c;
});
