//! Plain-text tables for the terminal.

use std::fmt::Write;

use crate::channel::analysis::ChannelAnalysis;
use crate::channel::problem::{ChannelProblem, NetId};
use crate::channel::solution::Metrics;

fn label_list(p: &ChannelProblem, ids: &[NetId], limit: usize) -> String {
    let mut parts: Vec<String> = ids
        .iter()
        .take(limit)
        .map(|&id| p.label(id).to_string())
        .collect();
    if ids.len() > limit {
        parts.push(format!("… ({} in all)", ids.len()));
    }
    parts.join(" ")
}

/// Column ranges such as `12-14 40` from sorted 0-based columns.
fn ranges(cols: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < cols.len() {
        let mut j = i;
        while j + 1 < cols.len() && cols[j + 1] == cols[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            cols[i].to_string()
        } else {
            format!("{}-{}", cols[i], cols[j])
        });
        i = j + 1;
    }
    out.join(" ")
}

/// The `fabric analyze` table.
pub fn analysis_table(p: &ChannelProblem, a: &ChannelAnalysis) -> String {
    let mut o = String::new();
    let row = |o: &mut String, k: &str, v: String| {
        let _ = writeln!(o, "  {k:<20} {v}");
    };
    let _ = writeln!(o, "channel {}", p.name());
    row(
        &mut o,
        "columns",
        format!("{} ({} empty)", a.columns, a.empty_columns),
    );
    row(&mut o, "nets", a.nets.to_string());
    row(&mut o, "pins", a.pins.to_string());
    row(
        &mut o,
        "side terminals",
        format!("left {}, right {}", a.left_terminals, a.right_terminals),
    );
    row(
        &mut o,
        "single-column nets",
        a.single_column_nets.to_string(),
    );
    row(
        &mut o,
        "density",
        if a.density == 0 {
            "0 (no net needs a track)".to_string()
        } else {
            format!(
                "{} (at columns {})",
                a.density,
                ranges(&a.max_density_columns)
            )
        },
    );
    let vcg = if a.is_acyclic() {
        format!(
            "{} edges, acyclic, longest path {} nets",
            a.vcg_edges,
            a.longest_path.unwrap_or(0)
        )
    } else {
        let sizes: Vec<String> = a
            .cyclic_components
            .iter()
            .map(|c| c.len().to_string())
            .collect();
        format!(
            "{} edges, cyclic: {} strongly connected component(s) of {} nets",
            a.vcg_edges,
            a.cyclic_components.len(),
            sizes.join(", ")
        )
    };
    row(&mut o, "VCG", vcg);
    if let Some(cycle) = &a.example_cycle {
        row(&mut o, "  a cycle", label_list(p, cycle, 20));
    }
    row(
        &mut o,
        "crossing pairs",
        if a.is_planar() {
            "0 (planar: routable in one layer)".to_string()
        } else {
            let (x, y) = a.crossing_pairs[0];
            format!(
                "{} (not planar; e.g. nets {} and {})",
                a.crossing_pairs.len(),
                p.label(x),
                p.label(y)
            )
        },
    );
    if let Some(b) = a.no_dogleg_bound {
        row(
            &mut o,
            "2-layer, no doglegs",
            format!("width >= {b} (max of density and longest path)"),
        );
    }
    let _ = writeln!(
        o,
        "  width lower bounds, ceil(density / horizontal layers):"
    );
    let _ = writeln!(
        o,
        "    {:>6}  {:<12} {:>3}  {:>5}",
        "layers", "groups", "H", "bound"
    );
    for lb in &a.layer_bounds {
        for (k, (c, bound)) in lb.configurations.iter().enumerate() {
            let layers = if k == 0 {
                lb.layers.to_string()
            } else {
                String::new()
            };
            let note = if c.b == c.layers && !a.is_planar() && c.layers == 1 {
                "  (not planar: no one-layer routing)"
            } else {
                ""
            };
            let _ = writeln!(
                o,
                "    {:>6}  {:<12} {:>3}  {:>5}{}",
                layers,
                c.describe(),
                c.horizontal_layers(),
                bound,
                note
            );
        }
    }
    o
}

/// One-line-per-figure summary of a routed channel.
pub fn route_summary(
    name: &str,
    router: &str,
    layers: u32,
    metrics: &Metrics,
    lower_bound: u32,
    seconds: f64,
) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "routed {name} with {router} in {}",
        plural(layers, "layer")
    );
    let _ = writeln!(
        o,
        "  width {} (density {}, lower bound {}), net length {}, vias {}",
        metrics.width, metrics.density, lower_bound, metrics.net_length, metrics.vias
    );
    let _ = writeln!(o, "  verified: legal; {:.3} ms", seconds * 1e3);
    o
}

/// Lines about a MulCh run: the partitions routed and which one answered.
pub fn mulch_summary(result: &crate::channel::routers::mulch::MulchResult) -> String {
    let mut o = String::new();
    let line = |o: &mut String, what: &str, r: &crate::channel::routers::mulch::RoutedPartition| {
        let widths: Vec<String> = r
            .groups
            .iter()
            .map(|g| format!("{} {}", g.kind.name(), g.width))
            .collect();
        let _ = writeln!(
            o,
            "  {what}: {} (estimate {}): width {}, net length {}, vias {}  [{}]",
            r.partition.config.describe(),
            r.partition.estimate,
            r.metrics.width,
            r.metrics.net_length,
            r.metrics.vias,
            widths.join(", ")
        );
    };
    line(&mut o, "MulCh partition", &result.chosen);
    if let Some(c) = &result.chameleon {
        line(&mut o, "without B layers", c);
    }
    for e in &result.extra {
        line(&mut o, "extra effort", e);
    }
    let which = match result.answer {
        crate::channel::routers::mulch::Answer::Chosen => "the MulCh partition",
        crate::channel::routers::mulch::Answer::Chameleon => "the partition without B layers",
        crate::channel::routers::mulch::Answer::Extra(_) => "an extra-effort partition",
        crate::channel::routers::mulch::Answer::Exact => "the exact (integer program) partition",
    };
    let _ = writeln!(o, "  answer: {which}");
    o
}

/// Lines about `--exact`: the integer programs per configuration.
pub fn exact_summary(
    report: &crate::channel::routers::mulch::exact::ExactReport,
    routed: Option<&crate::channel::routers::mulch::RoutedPartition>,
) -> String {
    let mut o = String::new();
    let opt = |v: Option<u32>| v.map_or("-".to_string(), |v| v.to_string());
    for e in &report.configurations {
        let _ = writeln!(
            o,
            "  exact {}: width {} ({}), its estimate {}, heuristic estimate {}{}",
            e.config.describe(),
            opt(e.width),
            if e.proven { "proven" } else { "not proven" },
            opt(e.estimate),
            opt(e.heuristic_estimate),
            e.note
                .as_deref()
                .map(|n| format!(" [{n}]"))
                .unwrap_or_default()
        );
    }
    match report.bound {
        Some(b) => {
            let _ = writeln!(
                o,
                "  exact: no partition allows fewer than {b} tracks{}",
                if report.attained {
                    " (attained by a partition's estimate)"
                } else {
                    ""
                }
            );
        }
        None => {
            let _ = writeln!(
                o,
                "  exact: not every configuration was settled within the time limit"
            );
        }
    }
    if let Some(r) = routed {
        let _ = writeln!(
            o,
            "  exact partition {} routed: width {}, net length {}, vias {}",
            r.partition.config.describe(),
            r.metrics.width,
            r.metrics.net_length,
            r.metrics.vias
        );
    }
    o
}

/// The terminal summary of `fabric simulate`: one row per rate.
pub fn simulation_table(r: &crate::sim::SimReport) -> String {
    use crate::sim::Spread;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{} of {} processors ({}), {} with {} switches, {} traffic",
        r.network,
        r.processors,
        r.capacity,
        r.algorithm.name(),
        r.policy.name(),
        r.traffic.name()
    );
    if let Some(cp) = r.congestion_parameter {
        let _ = writeln!(o, "  congestion parameter r = {cp:.2}");
    }
    let _ = writeln!(
        o,
        "  {:>6} {:>9} {:>9} {:>18} {:>9} {:>11} {:>12}",
        "rate", "messages", "lambda", "cycles (min-max)", "cyc/lam", "bits/cycle", "bit-time"
    );
    for run in &r.runs {
        let t = &run.trials;
        let pick = |g: &dyn Fn(&crate::sim::Trial) -> f64| {
            Spread::of(&t.iter().map(g).collect::<Vec<_>>())
        };
        let cycles = pick(&|x| x.outcome.cycles as f64);
        let lambda = pick(&|x| x.load.lambda);
        let ratio = pick(&|x| {
            if x.load.lambda > 0.0 {
                x.outcome.cycles as f64 / x.load.lambda
            } else {
                0.0
            }
        });
        let _ = writeln!(
            o,
            "  {:>6} {:>9.0} {:>9.2} {:>8.1} ({:>3}-{:<3}) {:>9.2} {:>11.1} {:>12.0}",
            run.rate,
            pick(&|x| x.messages as f64).mean,
            lambda.mean,
            cycles.mean,
            cycles.min,
            cycles.max,
            ratio.mean,
            pick(&|x| x.cycle_bit_time).mean,
            pick(&|x| x.bit_time()).mean
        );
        let stopped = t.iter().filter(|x| !x.outcome.complete).count();
        if stopped > 0 {
            let _ = writeln!(
                o,
                "         incomplete: {stopped} of {} trial(s) stopped by --max-cycles; \
                 their cycles and cyc/lam are lower bounds, not delivery times",
                t.len()
            );
        }
        if let Some(b) = crate::sim::bounds::bound_of(r, run) {
            bound_line(&mut o, &b, &cycles, t.len());
        }
    }
    for w in &r.warnings {
        let _ = writeln!(o, "  warning: {}", w.message());
    }
    o
}

/// The line under a rate's row: the bound its cycles are held against,
/// where it comes from and whether it held.
fn bound_line(
    o: &mut String,
    b: &crate::sim::bounds::BoundCheck,
    cycles: &crate::sim::Spread,
    trials: usize,
) {
    use crate::sim::bounds::Verdict;
    let head = format!("{} {}", b.source.name(), b.source.formula());
    let _ = match b.verdict {
        Verdict::ShapeOnly => writeln!(
            o,
            "         {head}: cycles / shape {:.2} ({:.2}-{:.2}); a shape, no constant",
            b.ratio.mean, b.ratio.min, b.ratio.max
        ),
        Verdict::Held => writeln!(
            o,
            "         {head}: at least {} cycles; fewest measured {}: held",
            b.value.min, cycles.min
        ),
        Verdict::BelowTheBound { trials: below } => writeln!(
            o,
            "         {head}: at least {} cycles; fewest measured {}: below the bound in {below} of \
             {trials} trials (the construction fell short)",
            b.value.min, cycles.min
        ),
    };
}

/// `n word` or `n words`: "1 layer", "2 layers".
pub fn plural(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_compress_runs() {
        assert_eq!(ranges(&[1, 2, 3, 7, 9, 10]), "1-3 7 9-10");
        assert_eq!(ranges(&[]), "");
    }
}
