//! The converging warm-up: its rule, and runs that converge and that do
//! not.

use super::engine::Phases;
use super::warmup::{Tracker, WarmupEnd};
use super::*;
use crate::layout::metrics::Delay;

#[test]
fn the_tracker_ends_at_the_first_settled_window() {
    let rule = Warmup {
        mode: WarmupMode::Converge,
        window: 10,
        tolerance: 0.1,
    };
    let mut w = Tracker::new(rule, 1000);
    // Window means 10, 20 (a 100 % change), then 21 (5 %): it ends at 30.
    for (t, lat) in (0..40).map(|t| (t, 10 + 10 * (t / 10).min(1) + (t / 20).min(1))) {
        assert_eq!(w.start(), if t < 30 { u64::MAX } else { 30 }, "cycle {t}");
        w.delivered(lat);
        w.after(t);
    }
    assert_eq!(
        w.end(),
        Some(WarmupEnd {
            cycles: 30,
            outcome: WarmupOutcome::Converged
        })
    );
    // An empty window restarts the comparison; the most cycles end it.
    let mut w = Tracker::new(rule, 35);
    for t in 0..35 {
        if t % 20 < 10 {
            w.delivered(7);
        }
        w.after(t);
    }
    assert_eq!(
        w.end(),
        Some(WarmupEnd {
            cycles: 35,
            outcome: WarmupOutcome::NotConverged
        })
    );
    // A fixed warm-up ends at its cycles whatever is delivered.
    let w = Tracker::new(Warmup::FIXED, 12);
    assert_eq!(w.start(), 12);
}

fn config(rate: f64, vcs: u32) -> Config {
    Config {
        vcs,
        rate,
        phases: Phases {
            warmup: 8000,
            measure: 2000,
            drain: 20000,
        },
        warmup: Warmup {
            mode: WarmupMode::Converge,
            window: 400,
            tolerance: 0.05,
        },
        watchdog: 2000,
        seed: 3,
        ..Config::default()
    }
}

#[test]
fn a_light_load_converges_before_the_most_cycles() {
    let net = OpenNet::build(Topology::Mesh, 8, LinkMode::Unit, &Delay::Unit).unwrap();
    let p = simulate(&net, &config(0.1, 2)).unwrap();
    assert_eq!(p.warmup.outcome, WarmupOutcome::Converged, "{:?}", p.warmup);
    assert!(p.warmup.cycles < 8000 && p.warmup.cycles % 400 == 0);
    assert!(p.drained && p.delivered == p.measured);
    // The measurement window follows the warm-up: its packets were created
    // in it, so the run lasts at least warm-up + measurement.
    assert!(p.cycles >= p.warmup.cycles + 2000);
}

#[test]
fn a_run_past_saturation_reports_that_it_did_not_converge() {
    // One VC, every terminal offering a flit per cycle: the source queues
    // grow without bound, and with them the total latency.
    let net = OpenNet::build(Topology::Mesh, 8, LinkMode::Unit, &Delay::Unit).unwrap();
    let mut cfg = config(1.0, 1);
    cfg.phases.drain = 100;
    // The windows' means grow by about window / t: 5 % at 8000 cycles.
    cfg.warmup.tolerance = 0.02;
    let p = simulate(&net, &cfg).unwrap();
    assert_eq!(
        p.warmup,
        WarmupEnd {
            cycles: 8000,
            outcome: WarmupOutcome::NotConverged
        }
    );
    assert!(!p.drained);
    // A fixed warm-up reports itself as such.
    cfg.warmup = Warmup::FIXED;
    let p = simulate(&net, &cfg).unwrap();
    assert_eq!(p.warmup.outcome, WarmupOutcome::Fixed);
    assert_eq!(p.warmup.cycles, 8000);
}
