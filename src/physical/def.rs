//! A routed channel as DEF 5.8: the design named after the channel, its
//! die area (the channel's outline), tracks that give the grid (so a
//! reader can map coordinates back to columns and rows), one pin per top
//! and bottom pin (a port on every layer: pins are contacts through all
//! layers) and per side exit (a port on the layer its wire reaches it
//! on), and one net per channel net with its
//! pins and its routed wiring: every wire a segment on its `metalK`, every
//! via contact a `viaK_K+1` at its point. Layer count and groups go in
//! design properties. [`super::def_read`] reads it back.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::draw::{channel_outline, channel_pins, ChannelPin};
use super::lef::via_name;
use super::{cell_name, net_name, Units, DBU_PER_MICRON};
use crate::channel::problem::ChannelProblem;
use crate::channel::solution::{ChannelSolution, Via, Wire};

/// The design property holding the layer count.
pub const LAYERS_PROPERTY: &str = "fabric_layers";

/// The design property holding the groups: `HV 1 2, B 3`.
pub const GROUPS_PROPERTY: &str = "fabric_groups";

/// The groups as the design property writes them: each group's type and
/// layers, groups separated by commas.
pub fn groups_text(s: &ChannelSolution) -> String {
    s.groups
        .iter()
        .map(|g| {
            let mut t = g.kind.name().to_string();
            for l in &g.layers {
                let _ = write!(t, " {l}");
            }
            t
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The DEF text of a routed channel.
pub fn def_text(problem: &ChannelProblem, s: &ChannelSolution, u: &Units) -> String {
    let mut t = String::new();
    let outline = channel_outline(s, u);
    let _ = writeln!(t, "VERSION 5.8 ;");
    let _ = writeln!(t, "DIVIDERCHAR \"/\" ;");
    let _ = writeln!(t, "BUSBITCHARS \"[]\" ;");
    let _ = writeln!(t, "DESIGN {} ;", cell_name(&s.name));
    let _ = writeln!(t, "UNITS DISTANCE MICRONS {DBU_PER_MICRON} ;\n");
    let _ = writeln!(t, "PROPERTYDEFINITIONS");
    let _ = writeln!(t, "  DESIGN {LAYERS_PROPERTY} INTEGER {} ;", s.layers);
    let groups = groups_text(s).replace(['"', ';', '#'], "_");
    let _ = writeln!(t, "  DESIGN {GROUPS_PROPERTY} STRING \"{groups}\" ;");
    let _ = writeln!(t, "END PROPERTYDEFINITIONS\n");
    let _ = writeln!(
        t,
        "DIEAREA ( {} {} ) ( {} {} ) ;\n",
        outline.lo.0, outline.lo.1, outline.hi.0, outline.hi.1
    );
    let metals: Vec<String> = (1..=s.layers).map(|k| format!("metal{k}")).collect();
    let _ = writeln!(
        t,
        "TRACKS X {} DO {} STEP {} LAYER {} ;",
        -u.pitch,
        s.columns as u64 + 2,
        u.pitch,
        metals.join(" ")
    );
    let _ = writeln!(
        t,
        "TRACKS Y 0 DO {} STEP {} LAYER {} ;\n",
        s.width as u64 + 2,
        u.pitch,
        metals.join(" ")
    );
    let pins = channel_pins(problem, s);
    write_pins(&mut t, &pins, u);
    write_nets(&mut t, problem, s, &pins, u);
    let _ = writeln!(t, "END DESIGN");
    t
}

fn write_pins(t: &mut String, pins: &[ChannelPin], u: &Units) {
    let h = u.half_width();
    let _ = writeln!(t, "PINS {} ;", pins.len());
    for p in pins {
        let _ = writeln!(
            t,
            "- {} + NET {} + DIRECTION INOUT + USE SIGNAL\n  + PORT",
            p.name,
            net_name(p.net)
        );
        for k in p.layers.0..=p.layers.1 {
            let _ = writeln!(t, "    + LAYER metal{k} ( {} {} ) ( {h} {h} )", -h, -h);
        }
        let _ = writeln!(t, "    + FIXED ( {} {} ) N ;", u.at(p.at.x), u.at(p.at.y));
    }
    let _ = writeln!(t, "END PINS\n");
}

fn write_nets(
    t: &mut String,
    problem: &ChannelProblem,
    s: &ChannelSolution,
    pins: &[ChannelPin],
    u: &Units,
) {
    let mut wiring: BTreeMap<u32, (Vec<&Wire>, Vec<&Via>)> = BTreeMap::new();
    for w in &s.wires {
        wiring.entry(w.net).or_default().0.push(w);
    }
    for v in &s.vias {
        wiring.entry(v.net).or_default().1.push(v);
    }
    let mut labels: Vec<u32> = problem.nets().iter().map(|n| n.label).collect();
    labels.extend(wiring.keys().copied());
    labels.sort_unstable();
    labels.dedup();
    let pt = |x: i64, y: i64| format!("( {} {} )", u.at(x), u.at(y));
    let _ = writeln!(t, "NETS {} ;", labels.len());
    for label in labels {
        let _ = write!(t, "- {}", net_name(label));
        for p in pins.iter().filter(|p| p.net == label) {
            let _ = write!(t, " ( PIN {} )", p.name);
        }
        let _ = writeln!(t);
        let mut statements: Vec<String> = Vec::new();
        if let Some((wires, vias)) = wiring.get(&label) {
            for w in wires {
                statements.push(format!(
                    "metal{} {} {}",
                    w.layer,
                    pt(w.from.x, w.from.y),
                    pt(w.to.x, w.to.y)
                ));
            }
            for v in vias {
                for k in v.from.min(v.to)..v.from.max(v.to) {
                    statements.push(format!("metal{k} {} {}", pt(v.at.x, v.at.y), via_name(k)));
                }
            }
        }
        for (k, st) in statements.iter().enumerate() {
            let lead = if k == 0 { "  + ROUTED" } else { "    NEW" };
            let _ = writeln!(t, "{lead} {st}");
        }
        let _ = writeln!(t, "  + USE SIGNAL ;");
    }
    let _ = writeln!(t, "END NETS\n");
}
