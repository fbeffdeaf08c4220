//! The LEF of a routed channel's technology: units, its routing layers
//! (`metal1 ..= metalL`: direction, pitch, width, spacing), the cut layers
//! between them (`via1 ..= viaL-1`) and one via per pair (`viaK_K+1`: a
//! square of the wire width on the cut and on both metals).

use std::fmt::Write as _;

use super::{Units, DBU_PER_MICRON};
use crate::channel::solution::{ChannelSolution, GroupType};

/// A length in database units as LEF microns: `0.2`, `1`, `0.05`.
pub fn microns(dbu: i64) -> String {
    let sign = if dbu < 0 { "-" } else { "" };
    let v = dbu.unsigned_abs();
    let (whole, frac) = (v / DBU_PER_MICRON as u64, v % DBU_PER_MICRON as u64);
    if frac == 0 {
        format!("{sign}{whole}")
    } else {
        let f = format!("{frac:03}");
        format!("{sign}{whole}.{}", f.trim_end_matches('0'))
    }
}

/// The name of the via from `metalK` to `metalK+1`.
pub fn via_name(k: u32) -> String {
    format!("via{k}_{}", k + 1)
}

/// The preferred direction of each layer `1 ..= L`: `H` or `V` as its
/// group types it, `H` for a B group; a layer no group names alternates,
/// `H` on odd layers.
pub fn directions(s: &ChannelSolution) -> Vec<char> {
    let mut dirs: Vec<char> = (1..=s.layers)
        .map(|k| if k % 2 == 1 { 'H' } else { 'V' })
        .collect();
    for g in &s.groups {
        let letters: Vec<char> = match &g.kind {
            GroupType::Model(m) => m.name().chars().collect(),
            GroupType::B => vec!['H'; g.layers.len()],
            GroupType::Other(_) => continue,
        };
        for (&layer, letter) in g.layers.iter().zip(letters) {
            if let Some(d) = dirs.get_mut((layer as usize).wrapping_sub(1)) {
                *d = letter;
            }
        }
    }
    dirs
}

/// The LEF text for a channel routed in `s.layers` layers.
pub fn lef_text(s: &ChannelSolution, u: &Units) -> String {
    let mut t = String::new();
    let h = microns(u.half_width());
    let square = format!("RECT -{h} -{h} {h} {h} ;");
    let _ = writeln!(t, "VERSION 5.8 ;");
    let _ = writeln!(t, "BUSBITCHARS \"[]\" ;");
    let _ = writeln!(t, "DIVIDERCHAR \"/\" ;\n");
    let _ = writeln!(
        t,
        "UNITS\n  DATABASE MICRONS {DBU_PER_MICRON} ;\nEND UNITS\n"
    );
    let _ = writeln!(t, "MANUFACTURINGGRID {} ;\n", microns(1));
    for (k, dir) in (1..=s.layers).zip(directions(s)) {
        let _ = writeln!(t, "LAYER metal{k}");
        let _ = writeln!(t, "  TYPE ROUTING ;");
        let _ = writeln!(
            t,
            "  DIRECTION {} ;",
            if dir == 'V' { "VERTICAL" } else { "HORIZONTAL" }
        );
        let _ = writeln!(t, "  PITCH {} ;", microns(u.pitch));
        let _ = writeln!(t, "  OFFSET 0 ;");
        let _ = writeln!(t, "  WIDTH {} ;", microns(u.wire_width));
        let _ = writeln!(t, "  SPACING {} ;", microns(u.pitch - u.wire_width));
        let _ = writeln!(t, "END metal{k}\n");
        if k < s.layers {
            let _ = writeln!(t, "LAYER via{k}");
            let _ = writeln!(t, "  TYPE CUT ;");
            let _ = writeln!(t, "  SPACING {} ;", microns(u.pitch - u.wire_width));
            let _ = writeln!(t, "END via{k}\n");
        }
    }
    for k in 1..s.layers {
        let name = via_name(k);
        let _ = writeln!(t, "VIA {name} DEFAULT");
        for layer in [
            format!("metal{k}"),
            format!("via{k}"),
            format!("metal{}", k + 1),
        ] {
            let _ = writeln!(t, "  LAYER {layer} ;\n    {square}");
        }
        let _ = writeln!(t, "END {name}\n");
    }
    let _ = writeln!(t, "END LIBRARY");
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn microns_are_exact_decimals() {
        assert_eq!(microns(200), "0.2");
        assert_eq!(microns(1000), "1");
        assert_eq!(microns(50), "0.05");
        assert_eq!(microns(-1234), "-1.234");
        assert_eq!(microns(1), "0.001");
    }
}
