//! The YAML report of `fabric simulate` (docs/formats.md section 4d): the
//! simulation's parameters, the time model, then one entry per rate with
//! the spreads over its trials, trial 0's heaviest channel per level and
//! every trial's figures.

use std::fmt::Write;

use super::scalar;
use crate::sim::algorithms::Algorithm;
use crate::sim::bounds::{bound_of, Claim, Verdict};
use crate::sim::{figure_3_3_region, ChannelLoad, SimReport, SimRun, Spread, Trial};

/// The layout version of the report, its `simulation.schema`: 2 added
/// `schema`, `warnings` and each rate's `bound` (version 1 had none of
/// them).
pub const SCHEMA: u32 = 2;

/// The report of `fabric simulate` (docs/formats.md section 4d).
pub fn simulation_yaml(r: &SimReport) -> String {
    let mut o = String::new();
    parameters(&mut o, r);
    time_model(&mut o, r);
    o.push_str("runs:\n");
    for run in &r.runs {
        run_entry(&mut o, r, run);
    }
    o
}

/// A number with at most 4 decimals, trailing zeros dropped; `.nan` for
/// anything not finite.
fn f(x: f64) -> String {
    if x.is_finite() {
        let s = format!("{x:.4}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s.is_empty() || s == "-" {
            "0".to_string()
        } else {
            s.to_string()
        }
    } else {
        ".nan".to_string()
    }
}

fn list_f(v: &[f64]) -> String {
    v.iter().map(|&x| f(x)).collect::<Vec<_>>().join(", ")
}

fn list_u(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

fn spread(s: Spread) -> String {
    format!(
        "{{mean: {}, min: {}, max: {}, stddev: {}}}",
        f(s.mean),
        f(s.min),
        f(s.max),
        f(s.stddev)
    )
}

/// The `simulation:` mapping: network, algorithm, policy, traffic, seed.
fn parameters(o: &mut String, r: &SimReport) {
    o.push_str("simulation:\n");
    let _ = writeln!(o, "  schema: {SCHEMA}");
    let _ = writeln!(o, "  network: {}", scalar(&r.network));
    let _ = writeln!(o, "  processors: {}", r.processors);
    let _ = writeln!(o, "  capacity: {}", scalar(&r.capacity));
    if !r.capacities.is_empty() {
        let caps: Vec<u64> = r.capacities.iter().map(|&c| c as u64).collect();
        let _ = writeln!(
            o,
            "  capacities: [{}]   # wires per direction above 2^i processors, i = 0 .. lg n (the last: the root's external channel)",
            list_u(&caps)
        );
    }
    if let Some(cp) = r.congestion_parameter {
        let _ = writeln!(o, "  congestion_parameter: {}", f(cp));
    }
    let _ = writeln!(o, "  algorithm: {}", scalar(r.algorithm.name()));
    if let Algorithm::Random(c) = r.algorithm {
        let _ = writeln!(
            o,
            "  constants: {{k1: {}, k2: {}, r: {}, interleave: {}}}",
            f(c.k1),
            f(c.k2),
            f(c.r),
            c.interleave
        );
    }
    let _ = writeln!(o, "  policy: {}", scalar(r.policy.name()));
    let _ = writeln!(o, "  traffic: {}", scalar(r.traffic.name()));
    if let crate::sim::traffic::Traffic::Local { subtree } = r.traffic {
        let _ = writeln!(o, "  subtree: {subtree}");
    }
    let _ = writeln!(o, "  seed: {}", r.seed);
    let _ = writeln!(o, "  max_cycles: {}", r.max_cycles);
    if r.warnings.is_empty() {
        o.push_str("  warnings: []\n");
    } else {
        o.push_str("  warnings:\n");
        for w in &r.warnings {
            let _ = writeln!(o, "    - {}", scalar(&w.message()));
        }
    }
}

/// The `time_model:` mapping: wire lengths and delays, switch delay.
fn time_model(o: &mut String, r: &SimReport) {
    o.push_str("time_model:\n");
    let _ = writeln!(o, "  layout: {}", scalar(&r.layout));
    let _ = writeln!(o, "  wire_delay_function: {}", scalar(&r.delay));
    let _ = writeln!(
        o,
        "  wire_length: [{}]   # longest wire per level",
        list_u(&r.wire_length)
    );
    let _ = writeln!(o, "  wire_delay: [{}]", list_f(&r.wire_delay));
    let _ = writeln!(o, "  switch_delay: {}", f(r.time.switch_delay));
    let _ = writeln!(o, "  payload_bits: {}", r.time.payload_bits);
    let _ = writeln!(
        o,
        "  network_cycle_bit_time: {}   # 2 x the longest leaf-root-leaf latency + message bits",
        f(r.network_cycle_bit_time)
    );
}

/// One rate's entry of `runs:`: spreads, levels, then every trial.
fn run_entry(o: &mut String, r: &SimReport, run: &SimRun) {
    let t = &run.trials;
    let pick = |g: &dyn Fn(&Trial) -> f64| Spread::of(&t.iter().map(g).collect::<Vec<_>>());
    let lambda = pick(&|x| x.load.lambda);
    let _ = writeln!(o, "  - rate: {}", run.rate);
    let _ = writeln!(o, "    trials: {}", t.len());
    let _ = writeln!(
        o,
        "    complete: {}   # trials that delivered every message",
        t.iter().filter(|x| x.outcome.complete).count()
    );
    let _ = writeln!(o, "    messages: {}", spread(pick(&|x| x.messages as f64)));
    let _ = writeln!(o, "    lambda: {}", spread(lambda));
    let _ = writeln!(
        o,
        "    cycles: {}",
        spread(pick(&|x| x.outcome.cycles as f64))
    );
    let _ = writeln!(
        o,
        "    cycles_per_lambda: {}",
        spread(pick(&|x| if x.load.lambda > 0.0 {
            x.outcome.cycles as f64 / x.load.lambda
        } else {
            f64::NAN
        }))
    );
    let _ = writeln!(
        o,
        "    cycle_bit_time: {}",
        spread(pick(&|x| x.cycle_bit_time))
    );
    let _ = writeln!(o, "    bit_time: {}", spread(pick(&|x| x.bit_time())));
    // Figure 3-3 is RANDOM's table.
    if matches!(r.algorithm, Algorithm::Random(_)) {
        let _ = writeln!(
            o,
            "    figure_3_3: {}",
            scalar(figure_3_3_region(lambda.mean, r.processors))
        );
    }
    bound(o, r, run);
    levels(o, &run.levels);
    o.push_str("    per_trial:\n");
    for x in t {
        trial_line(o, x);
    }
}

/// The rate's `bound:` mapping, or `bound: null` where the thesis states
/// none for the algorithm and traffic.
fn bound(o: &mut String, r: &SimReport, run: &SimRun) {
    let Some(b) = bound_of(r, run) else {
        o.push_str(
            "    bound: null   # the thesis states no bound for this algorithm and traffic\n",
        );
        return;
    };
    o.push_str("    bound:\n");
    let _ = writeln!(o, "      source: {}", scalar(b.source.name()));
    let _ = writeln!(o, "      formula: {}", scalar(b.source.formula()));
    let _ = writeln!(o, "      claim: {}", b.source.claim().name());
    let _ = writeln!(o, "      value: {}   # cycles", spread(b.value));
    let _ = writeln!(o, "      ratio: {}   # cycles / value", spread(b.ratio));
    let _ = writeln!(o, "      verdict: {}", scalar(b.verdict.name()));
    if b.source.claim() == Claim::ForcedAtLeast {
        let below = match b.verdict {
            Verdict::BelowTheBound { trials } => trials,
            Verdict::Held | Verdict::ShapeOnly => 0,
        };
        let _ = writeln!(
            o,
            "      below_the_bound: {below}   # trials under the forced cycles"
        );
    }
}

/// Trial 0's heaviest channel of each level.
fn levels(o: &mut String, levels: &[Option<ChannelLoad>]) {
    o.push_str("    levels:   # trial 0: the heaviest channel of each level\n");
    for (l, c) in levels.iter().enumerate() {
        match c {
            Some(c) => {
                let _ = writeln!(
                    o,
                    "      - {{level: {l}, lambda: {}, first_processor: {}, direction: {}, load: {}, capacity: {}}}",
                    f(c.factor()),
                    c.first_processor,
                    c.direction,
                    c.load,
                    c.capacity
                );
            }
            None => {
                let _ = writeln!(o, "      - {{level: {l}, lambda: 0}}");
            }
        }
    }
}

/// One trial's figures as a flow mapping.
fn trial_line(o: &mut String, x: &Trial) {
    let ch = x.load.channel.as_ref().map_or("null".to_string(), |c| {
        format!(
            "{{level: {}, first_processor: {}, direction: {}, load: {}, capacity: {}}}",
            c.level, c.first_processor, c.direction, c.load, c.capacity
        )
    });
    let _ = writeln!(
        o,
        "      - {{trial: {}, messages: {}, lambda: {}, cycles: {}, delivered: {}, complete: {}, sent: {}, steps: {}, cycle_bit_time: {}, bit_time: {}, channel: {}}}",
        x.index,
        x.messages,
        f(x.load.lambda),
        x.outcome.cycles,
        x.outcome.delivered,
        x.outcome.complete,
        x.outcome.sent,
        x.outcome.steps,
        f(x.cycle_bit_time),
        f(x.bit_time()),
        ch
    );
}
