//! A channel and a routed-channel DEF file, split at the first NUL byte ->
//! read the DEF -> verify; write it again as DEF and read that back.
//! Invariants: no panic or abort; a routing read from DEF, written as DEF
//! and read again is the same routing (same grid, layers, groups, wires
//! and via contacts) when its coordinates are within 2^40 of the origin.
#![no_main]

use fabric::channel::solution::ChannelSolution;
use fabric::channel::verify::verify;
use fabric::physical::def::def_text;
use fabric::physical::def_read::parse_def;
use fabric::physical::Units;
use libfuzzer_sys::fuzz_target;

type Wires = Vec<(u32, u32, i64, i64, i64, i64)>;
type Contacts = Vec<(u32, i64, i64, u32)>;

fn normalised(s: &ChannelSolution) -> (Wires, Contacts) {
    let mut wires: Wires = s
        .wires
        .iter()
        .map(|w| (w.net, w.layer, w.from.x, w.from.y, w.to.x, w.to.y))
        .collect();
    wires.sort_unstable();
    let mut contacts: Contacts = s
        .vias
        .iter()
        .flat_map(|v| (v.from.min(v.to)..v.from.max(v.to)).map(move |k| (v.net, v.at.x, v.at.y, k)))
        .collect();
    contacts.sort_unstable();
    (wires, contacts)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (channel, def) = text
        .split_once('\0')
        .unwrap_or(("top: 1 2 0\nbottom: 0 1 2\n", text));
    let Ok(problem) = fabric::io::parse_channel(channel, "fuzz.txt") else {
        return;
    };
    let Ok(first) = parse_def(def, "fuzz.def") else {
        return;
    };
    let _ = verify(&problem, &first, None);
    let small = |v: i64| v.unsigned_abs() < 1 << 40;
    let near = first
        .wires
        .iter()
        .flat_map(|w| [w.from, w.to])
        .chain(first.vias.iter().map(|v| v.at))
        .all(|p| small(p.x) && small(p.y));
    if !near || first.wires.len() + first.vias.len() > 10_000 {
        return;
    }
    let again = def_text(&problem, &first, &Units::default());
    let second = parse_def(&again, "again.def").expect("a DEF fabric wrote reads back");
    assert_eq!(normalised(&first), normalised(&second));
    assert_eq!(
        (first.layers, first.width, first.columns),
        (second.layers, second.width, second.columns)
    );
    assert_eq!(first.groups, second.groups);
});
