//! YAML writers: routed channels (FORMATS.md section 3) and channel analysis
//! reports here, layouts and size sweeps in `layout`, simulation reports in
//! `simulation`. Written by hand so that the output is compact (one flow
//! mapping per wire), ordered and byte-identical from run to run.

mod layout;
mod simulation;

pub use layout::{layout_yaml, sweep_yaml};
pub use simulation::simulation_yaml;

use std::fmt::Write;

use crate::channel::analysis::ChannelAnalysis;
use crate::channel::problem::{ChannelProblem, NetId};
use crate::channel::solution::{ChannelSolution, Metrics};

/// A YAML scalar for a string: plain when it cannot be read as anything but
/// that string (letters, digits, `_`, `-`, `.`, starting with a letter, not a
/// YAML keyword), double-quoted otherwise.
pub fn scalar(s: &str) -> String {
    let plain = s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n" | "null" | "nan" | "inf"
        );
    if plain {
        s.to_string()
    } else {
        quote(s)
    }
}

/// A YAML double-quoted scalar.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}') => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn flow_list<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let parts: Vec<String> = items.into_iter().map(|i| i.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

/// The routed channel as FORMATS.md section 3 YAML.
pub fn solution_yaml(solution: &ChannelSolution, metrics: &Metrics) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "name: {}", scalar(&solution.name));
    let _ = writeln!(o, "layers: {}", solution.layers);
    let _ = writeln!(o, "width: {}", solution.width);
    let _ = writeln!(o, "columns: {}", solution.columns);
    if solution.groups.is_empty() {
        o.push_str("groups: []\n");
    } else {
        o.push_str("groups:\n");
        for g in &solution.groups {
            let _ = writeln!(
                o,
                "  - {{type: {}, layers: {}}}",
                scalar(g.kind.name()),
                flow_list(&g.layers)
            );
        }
    }
    if solution.wires.is_empty() {
        o.push_str("wires: []\n");
    } else {
        o.push_str("wires:\n");
        for w in &solution.wires {
            let _ = writeln!(
                o,
                "  - {{net: {}, layer: {}, from: [{}, {}], to: [{}, {}]}}",
                w.net, w.layer, w.from.x, w.from.y, w.to.x, w.to.y
            );
        }
    }
    if solution.vias.is_empty() {
        o.push_str("vias: []\n");
    } else {
        o.push_str("vias:\n");
        for v in &solution.vias {
            let _ = writeln!(
                o,
                "  - {{net: {}, at: [{}, {}], from: {}, to: {}}}",
                v.net, v.at.x, v.at.y, v.from, v.to
            );
        }
    }
    o.push_str("metrics:\n");
    let _ = writeln!(o, "  width: {}", metrics.width);
    let _ = writeln!(o, "  net_length: {}", metrics.net_length);
    let _ = writeln!(o, "  vias: {}", metrics.vias);
    let _ = writeln!(o, "  density: {}", metrics.density);
    o
}

fn labels(p: &ChannelProblem, ids: &[NetId]) -> String {
    flow_list(ids.iter().map(|&id| p.label(id)))
}

/// The analysis report of `fabric analyze`. Columns are 0-based.
pub fn analysis_yaml(p: &ChannelProblem, a: &ChannelAnalysis) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "name: {}", scalar(p.name()));
    let _ = writeln!(o, "columns: {}", a.columns);
    let _ = writeln!(o, "empty_columns: {}", a.empty_columns);
    let _ = writeln!(o, "nets: {}", a.nets);
    let _ = writeln!(o, "pins: {}", a.pins);
    let _ = writeln!(
        o,
        "side_terminals: {{left: {}, right: {}}}",
        a.left_terminals, a.right_terminals
    );
    let _ = writeln!(o, "single_column_nets: {}", a.single_column_nets);
    let _ = writeln!(o, "density: {}", a.density);
    let _ = writeln!(
        o,
        "max_density_columns: {}",
        flow_list(&a.max_density_columns)
    );
    let _ = writeln!(o, "density_profile: {}", flow_list(&a.density_profile));
    o.push_str("vcg:\n");
    let _ = writeln!(o, "  edges: {}", a.vcg_edges);
    let _ = writeln!(o, "  acyclic: {}", a.is_acyclic());
    match a.longest_path {
        Some(lp) => {
            let _ = writeln!(o, "  longest_path: {lp}");
        }
        None => o.push_str("  longest_path: null\n"),
    }
    let comps: Vec<String> = a.cyclic_components.iter().map(|c| labels(p, c)).collect();
    let _ = writeln!(o, "  cyclic_components: [{}]", comps.join(", "));
    match &a.example_cycle {
        Some(c) => {
            let _ = writeln!(o, "  cycle: {}", labels(p, c));
        }
        None => o.push_str("  cycle: null\n"),
    }
    o.push_str("crossings:\n");
    let _ = writeln!(o, "  planar: {}", a.is_planar());
    let _ = writeln!(o, "  pairs: {}", a.crossing_pairs.len());
    let pairs: Vec<String> = a
        .crossing_pairs
        .iter()
        .map(|&(x, y)| format!("[{}, {}]", p.label(x), p.label(y)))
        .collect();
    let _ = writeln!(o, "  crossing_pairs: [{}]", pairs.join(", "));
    o.push_str("lower_bounds:\n");
    match a.no_dogleg_bound {
        Some(b) => {
            let _ = writeln!(o, "  two_layer_no_doglegs: {b}");
        }
        None => o.push_str("  two_layer_no_doglegs: null\n"),
    }
    let _ = writeln!(o, "  single_layer_routable: {}", a.is_planar());
    o.push_str("  by_layers:\n");
    for lb in &a.layer_bounds {
        let _ = writeln!(o, "    - layers: {}", lb.layers);
        let _ = writeln!(o, "      width_lower_bound: {}", lb.width_lower_bound);
        o.push_str("      configurations:\n");
        for (c, bound) in &lb.configurations {
            let _ = writeln!(
                o,
                "        - {{groups: {}, b: {}, horizontal_layers: {}, width_lower_bound: {}}}",
                scalar(&c.describe()),
                c.b,
                c.horizontal_layers(),
                bound
            );
        }
    }
    o
}

/// The result of `fabric separation`.
pub fn separation_yaml(
    name: &str,
    separation: i64,
    width: u32,
    cut: &crate::channel::separation::CriticalCut,
) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "name: {}", scalar(name));
    let _ = writeln!(
        o,
        "separation: {separation}   # chapter 7: distance between the terminal rows"
    );
    let _ = writeln!(
        o,
        "width: {width}   # chapter 6: tracks strictly between the pin rows"
    );
    let _ = writeln!(
        o,
        "critical_cut: {{bottom: {}, top: {}, flow: {}, dx: {}}}",
        cut.bottom_x,
        cut.top_x,
        cut.flow,
        (cut.top_x - cut.bottom_x).abs()
    );
    o
}

/// The `mulch:` section appended to a MulCh solution file: the selection
/// loop, and per routed partition its groups and totals, so that the gain of
/// B layers over Chameleon's partition shows on every run. Readers of
/// FORMATS.md section 3 ignore the extra key.
pub fn mulch_yaml(result: &crate::channel::routers::mulch::MulchResult) -> String {
    use crate::channel::routers::mulch::RoutedPartition;
    let mut o = String::from("mulch:\n  attempts:\n");
    for a in &result.attempts {
        let estimate = a.estimate.map_or("null".to_string(), |e| e.to_string());
        let _ = writeln!(
            o,
            "    - {{b: {}, groups: {}, horizontal_layers: {}, estimate: {estimate}}}",
            a.b,
            scalar(&a.config.describe()),
            a.config.horizontal_layers()
        );
    }
    let partition = |o: &mut String, key: &str, r: &RoutedPartition| {
        let p = &r.partition;
        let _ = writeln!(o, "  {key}:");
        let _ = writeln!(o, "    b: {}", p.b());
        let _ = writeln!(o, "    groups_used: {}", scalar(&p.config.describe()));
        let _ = writeln!(o, "    estimate: {}", p.estimate);
        let _ = writeln!(
            o,
            "    lower_bound: {}",
            p.config.width_lower_bound(r.metrics.density)
        );
        let _ = writeln!(o, "    width: {}", r.metrics.width);
        let _ = writeln!(o, "    net_length: {}", r.metrics.net_length);
        let _ = writeln!(o, "    vias: {}", r.metrics.vias);
        o.push_str("    groups:\n");
        for g in &r.groups {
            let _ = writeln!(
                o,
                "      - {{type: {}, layers: {}, nets: {}, density: {}, longest_path: {}, estimate: {}, width: {}, net_length: {}, vias: {}}}",
                g.kind.name(),
                flow_list(&g.layers),
                g.nets,
                g.density,
                g.longest_path,
                g.estimate,
                g.width,
                g.net_length,
                g.vias
            );
        }
    };
    partition(&mut o, "chosen", &result.chosen);
    if let Some(c) = result.without_b_layers() {
        if result.chosen.partition.b() != 0 {
            partition(&mut o, "without_b_layers", c);
        } else {
            o.push_str("  without_b_layers: chosen\n");
        }
    }
    for (k, e) in result.extra.iter().enumerate() {
        partition(&mut o, &format!("extra_{}", k + 1), e);
    }
    let answer = match result.answer {
        crate::channel::routers::mulch::Answer::Chosen => "chosen".to_string(),
        crate::channel::routers::mulch::Answer::Chameleon => "without_b_layers".to_string(),
        crate::channel::routers::mulch::Answer::Extra(k) => format!("extra_{}", k + 1),
        crate::channel::routers::mulch::Answer::Exact => "exact".to_string(),
    };
    let _ = writeln!(o, "  answer: {answer}");
    o
}

/// The `exact:` part of the `mulch:` section (`fabric route --exact`).
pub fn exact_yaml(
    report: &crate::channel::routers::mulch::exact::ExactReport,
    routed: Option<&crate::channel::routers::mulch::RoutedPartition>,
    seconds: f64,
) -> String {
    let mut o = String::from("  exact:\n");
    let _ = writeln!(o, "    time_limit_seconds: {seconds}");
    let opt = |v: Option<u32>| v.map_or("null".to_string(), |v| v.to_string());
    let _ = writeln!(o, "    bound: {}", opt(report.bound));
    let _ = writeln!(o, "    attained: {}", report.attained);
    o.push_str("    configurations:\n");
    for e in &report.configurations {
        let _ = write!(
            o,
            "      - {{b: {}, groups: {}, width: {}, proven: {}, estimate: {}, heuristic_estimate: {}",
            e.b,
            scalar(&e.config.describe()),
            opt(e.width),
            e.proven,
            opt(e.estimate),
            opt(e.heuristic_estimate)
        );
        if let Some(note) = &e.note {
            let _ = write!(o, ", note: {}", quote(note));
        }
        o.push_str("}\n");
    }
    if let Some(r) = routed {
        let _ = writeln!(
            o,
            "    routed: {{groups: {}, width: {}, net_length: {}, vias: {}}}",
            scalar(&r.partition.config.describe()),
            r.metrics.width,
            r.metrics.net_length,
            r.metrics.vias
        );
    }
    o
}

/// The report of `fabric switchbox` (docs/formats.md section 2).
pub fn switchbox_yaml(
    sb: &crate::channel::switchbox::Switchbox,
    check: &crate::channel::switchbox::SwitchboxCheck,
) -> String {
    use crate::channel::switchbox::Unroutable;
    let mut o = String::new();
    let opt = |v: Option<i64>| v.map_or("null".to_string(), |v| v.to_string());
    let _ = writeln!(o, "name: {}", scalar(&sb.name));
    let _ = writeln!(o, "width: {}", sb.width);
    let _ = writeln!(o, "height: {}", sb.height);
    let _ = writeln!(o, "routable: {}", check.result.is_ok());
    let _ = writeln!(
        o,
        "top_bottom_separation: {}   # the height must be at least this",
        opt(check.top_bottom_separation)
    );
    let _ = writeln!(
        o,
        "left_right_separation: {}   # the width must be at least this",
        opt(check.left_right_separation)
    );
    match &check.result {
        Ok(()) => {}
        Err(Unroutable::Crossing(a, b)) => {
            let _ = writeln!(o, "crossing_nets: [{a}, {b}]");
        }
        Err(Unroutable::Cut(c)) => {
            let _ = writeln!(
                o,
                "unsafe_cut: {{from: [{}, {}], to: [{}, {}], flow: {}, capacity: {}}}",
                c.from.0, c.from.1, c.to.0, c.to.1, c.flow, c.capacity
            );
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_escapes() {
        assert_eq!(quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        for s in [
            "x: [y] # z \u{1}",
            "a\u{85}b\u{9f}",
            "true",
            "12",
            "",
            "HVH+B",
            "dde",
        ] {
            let parsed: String = serde_norway::from_str(&scalar(s)).unwrap();
            assert_eq!(parsed, s);
        }
        assert_eq!(scalar("dde_zhou"), "dde_zhou");
        assert_eq!(scalar("HV"), "HV");
    }
}
