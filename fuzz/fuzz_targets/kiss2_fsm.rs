//! KISS2 machines -> parse -> table -> analysis -> every PLA built ->
//! checked against the machine. Invariants: no panic or abort; the
//! analysis's counts agree with the table (reachable and minimised states
//! at most the states); every PLA a construction builds agrees with the
//! machine it was built from.
#![no_main]

use fabric::fsm::analysis::analyse;
use fabric::fsm::check::check;
use fabric::fsm::kiss::parse_kiss2;
use fabric::fsm::realise::{build, Construction};
use fabric::fsm::table::Table;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(m) = parse_kiss2(text, "fuzz.kiss2") else {
        return;
    };
    let Ok(t) = Table::build(&m) else {
        return;
    };
    let a = analyse(&m, &t);
    assert!(a.reachable <= a.states);
    if let Some(min) = a.minimised {
        assert!(min.minimal <= a.states);
    }
    for &c in Construction::ALL.iter() {
        if let Some(pla) = build(c, &m, &t) {
            assert!(
                check(c, &pla, &m, &t, 1).is_ok(),
                "{c:?} disagrees with its machine"
            );
        }
    }
});
