use super::*;
use crate::sim::trial_rng;
use crate::sim::wormhole::engine::{run, Rules};
use crate::sim::wormhole::{Arbitration, PathRule, Pattern, Scan, WormError};

fn net(n: u64) -> WormNet {
    WormNet::butterfly_fat_tree(n).expect("a power of 4")
}

/// One message per processor to a uniform destination (self allowed).
fn random_traffic(n: u32, rng: &mut ChaCha8Rng) -> Vec<Message> {
    Pattern::Random
        .destinations(n, rng)
        .into_iter()
        .enumerate()
        .map(|(src, dst)| Message {
            src: src as u32,
            dst,
        })
        .collect()
}

fn params(mode: Mode, period: Period, lengths: LengthLaw) -> AlgorithmA {
    AlgorithmA {
        mode,
        period,
        lengths,
        ..AlgorithmA::default()
    }
}

const MODES: [Mode; 2] = [Mode::FreeRunning, Mode::Barrier];
const DOUBLING: Period = Period::Doubling { max_passes: 20 };

/// The engine takes exactly the precomputed paths under every scan, and
/// its congestion and dilation are the ones computed before routing.
#[test]
fn fixed_paths_are_the_engines() {
    for (t, n) in [16u64, 64, 256].into_iter().enumerate() {
        let net = net(n);
        let mut rng = trial_rng(11, t as u64);
        let msgs = random_traffic(n as u32, &mut rng);
        let worms: Vec<Worm> = msgs
            .iter()
            .map(|m| Worm {
                src: m.src,
                dst: m.dst,
                len: rng.gen_range(1..6),
                release: rng.gen_range(0..20),
                priority: 0,
                coins: rng.gen(),
            })
            .collect();
        let paths: Vec<Vec<u32>> = worms
            .iter()
            .map(|w| fixed_path(&net, w.src, w.dst, w.coins).expect("processors"))
            .collect();
        let lens: Vec<u32> = worms.iter().map(|w| w.len).collect();
        let routed: Vec<usize> = (0..worms.len())
            .filter(|&i| worms[i].src != worms[i].dst)
            .collect();
        let load = PathLoad::of(&net, &paths, &lens, &routed, 2);
        for scan in [Scan::Fixed, Scan::RoundRobin, Scan::Farthest] {
            let rules = Rules {
                q: 2,
                path: PathRule::Fixed,
                scan,
                arbitration: Arbitration::Scan,
            };
            let out = run(&net, &worms, rules, &mut rng).expect("routes");
            assert_eq!(out.paths, paths, "N {n} {scan:?}");
            assert_eq!(out.congestion, load.congestion);
            assert_eq!(out.dilation, load.dilation);
            assert!(out.latency + 1 >= load.floor);
        }
        for (i, p) in paths.iter().enumerate() {
            let w = &worms[i];
            let apex = net.apex(w.src, w.dst) as usize;
            assert_eq!(p.len(), if w.src == w.dst { 0 } else { 2 * apex });
        }
    }
}

/// Every mode and period delivers every worm, no tail before its path
/// allows, and the time adds up over the passes.
#[test]
fn every_worm_is_delivered() {
    for (t, n) in [16u64, 64, 256].into_iter().enumerate() {
        let net = net(n);
        let msgs = random_traffic(n as u32, &mut trial_rng(5, t as u64));
        for mode in MODES {
            for period in [Period::Theorem4, DOUBLING] {
                let p = params(mode, period, LengthLaw::Constant(8));
                let r =
                    run_algorithm_a(&net, &msgs, &p, &mut trial_rng(6, t as u64)).expect("runs");
                assert_eq!(r.messages, n as u32);
                assert_eq!(r.time, r.passes.iter().map(|p| p.time).sum::<u64>());
                assert_eq!(r.passes.last().map(|p| p.end), Some(PassEnd::Completed));
                for (i, m) in msgs.iter().enumerate() {
                    if m.src == m.dst {
                        assert_eq!(r.arrival[i], 0);
                    } else {
                        let apex = net.apex(m.src, m.dst) as u64;
                        assert!(r.arrival[i] + 2 >= 2 * apex + 8);
                        assert!(r.arrival[i] < r.time);
                    }
                }
            }
        }
    }
}

/// Theorem 4 on random traffic: the time lies between the lower bounds
/// and `2 (k + 1)` times Theorem 4's expression (what `ceil(k c eta)`
/// phases of `2d + L lg P` steps give), and few worms are late.
#[test]
fn theorem4_time_within_bounds() {
    for (t, n) in [16u64, 64, 256, 16, 64, 256].into_iter().enumerate() {
        let net = net(n);
        let msgs = random_traffic(n as u32, &mut trial_rng(8, t as u64));
        for mode in MODES {
            let p = params(mode, Period::Theorem4, LengthLaw::Constant(16));
            let r = run_algorithm_a(&net, &msgs, &p, &mut trial_rng(9, t as u64)).expect("runs");
            let b = &r.bounds;
            let pass = &r.passes[0];
            assert_eq!(pass.period, 2 * r.load.dilation as u64 + 16 * r.lg_p as u64);
            assert_eq!(
                pass.phases,
                (p.k * (r.load.congestion * r.eta) as f64).ceil() as u64
            );
            assert_eq!(pass.schedule, pass.phases * pass.period);
            assert!(r.time >= b.lower && r.time >= b.floor, "N {n} {mode:?}");
            assert!(r.time as f64 <= 2.0 * (p.k + 1.0) * b.theorem4 as f64);
            assert!(r.late_worms() * 20 <= r.routed, "N {n} {mode:?}");
            if mode == Mode::Barrier {
                let eager = pass.eager.expect("barrier");
                assert!(eager <= r.time && eager >= b.floor);
                if r.late_worms() == 0 {
                    assert_eq!(r.time, pass.schedule);
                }
            } else {
                assert!(r.time <= pass.schedule + pass.overruns.longest_phase);
            }
        }
    }
}

/// A lone worm in barrier mode: one-flit queues take a flit every other
/// step, so it needs `d + 2L - 2` steps and overruns `T = 2d + L` by
/// `L - d - 2`; with two-flit queues it streams in `d + L - 1` steps and the
/// pass keeps the schedule exactly.
#[test]
fn lone_worm_follows_the_schedule() {
    let net = net(64);
    let msgs = [Message { src: 3, dst: 60 }];
    let p = AlgorithmA {
        queue: 1,
        ..params(Mode::Barrier, Period::Theorem4, LengthLaw::Constant(10))
    };
    let r = run_algorithm_a(&net, &msgs, &p, &mut trial_rng(1, 0)).expect("runs");
    let d = r.load.dilation as u64;
    assert_eq!(d, 6);
    assert_eq!((r.load.congestion, r.eta, r.lg_p), (1, 6, 1));
    let pass = &r.passes[0];
    assert_eq!(pass.period, 2 * d + 10);
    assert_eq!(pass.eager, Some(d + 2 * 10 - 2));
    assert_eq!(r.bounds.floor, d + 2 * 10 - 2);
    assert_eq!(r.time, pass.phases * pass.period + 10 - d - 2);
    assert_eq!(pass.overruns.late_worms, 1);
    assert_eq!(pass.overruns.longest_phase, d + 2 * 10 - 2);
    let two = AlgorithmA { queue: 2, ..p };
    let r = run_algorithm_a(&net, &msgs, &two, &mut trial_rng(1, 0)).expect("runs");
    let pass = &r.passes[0];
    assert_eq!(pass.eager, Some(d + 10 - 1));
    assert_eq!(r.bounds.floor, d + 10 - 1);
    assert_eq!(r.time, pass.phases * pass.period);
    assert_eq!(r.late_worms(), 0);
    assert_eq!(r.bounds.lower, 10 + d);
}

/// Doubling ends with a completed pass after aborted ones whose periods
/// double; with one phase for all worms it needs several passes, and one
/// pass is then too few.
#[test]
fn doubling_terminates() {
    let net = net(64);
    let msgs = random_traffic(64, &mut trial_rng(2, 0));
    for mode in MODES {
        for k in [K_DEFAULT, 1e-3] {
            let p = AlgorithmA {
                k,
                ..params(mode, DOUBLING, LengthLaw::Constant(8))
            };
            let r = run_algorithm_a(&net, &msgs, &p, &mut trial_rng(3, 0)).expect("runs");
            let t0 = 2 * (r.load.dilation as u64 + 8);
            for (j, pass) in r.passes.iter().enumerate() {
                assert_eq!(pass.period, t0 << j);
                let last = j + 1 == r.passes.len();
                assert_eq!(pass.end == PassEnd::Completed, last, "{mode:?} k {k}");
                if let PassEnd::Aborted { phase } = pass.end {
                    assert_eq!(pass.time, (phase + 1) * pass.period);
                    assert!(pass.overruns.late_worms > 0);
                }
            }
            let worms: u32 = r.passes.iter().map(|p| p.worms).sum();
            assert!(worms >= r.routed);
            if k < 1.0 {
                assert_eq!(r.passes[0].phases, 1);
                assert!(r.passes.len() > 1, "{mode:?}");
                let one = AlgorithmA {
                    period: Period::Doubling { max_passes: 1 },
                    ..p
                };
                assert!(matches!(
                    run_algorithm_a(&net, &msgs, &one, &mut trial_rng(3, 0)),
                    Err(AlgorithmAError::Undelivered { passes: 1, .. })
                ));
            }
        }
    }
}

/// The same seed gives the same run; another seed another one.
#[test]
fn runs_are_deterministic() {
    let net = net(64);
    let msgs = random_traffic(64, &mut trial_rng(4, 0));
    let law = LengthLaw::Uniform { lo: 4, hi: 12 };
    for mode in MODES {
        for period in [Period::Theorem4, DOUBLING] {
            let p = params(mode, period, law);
            let a = run_algorithm_a(&net, &msgs, &p, &mut trial_rng(4, 1)).expect("runs");
            let b = run_algorithm_a(&net, &msgs, &p, &mut trial_rng(4, 1)).expect("runs");
            let c = run_algorithm_a(&net, &msgs, &p, &mut trial_rng(4, 2)).expect("runs");
            assert_eq!(a, b);
            assert_ne!(a.arrival, c.arrival);
            assert!(serde_norway::to_string(&a)
                .expect("serializes")
                .contains("theorem4"));
        }
    }
}

/// Variable lengths: the law's figures, the drawn ones near them, and
/// `L_M` (the longest drawn) in place of `L`.
#[test]
fn variable_lengths_use_the_longest() {
    let u = LengthLaw::Uniform { lo: 1, hi: 64 }.stats().expect("valid");
    assert!((u.mean - 32.5).abs() < 1e-9 && (u.std_dev - (4095.0f64 / 12.0).sqrt()).abs() < 1e-9);
    let g = LengthLaw::TruncatedGeometric { mean: 8.0, max: 40 };
    let s = g.stats().expect("valid");
    assert!(s.mean < 8.0 && s.mean > 7.0 && s.std_dev < s.mean && s.max == 40);
    let one = LengthLaw::TruncatedGeometric { mean: 1.0, max: 9 };
    assert_eq!(one.stats().expect("valid").std_dev, 0.0);
    let sampler = g.sampler().expect("valid");
    let mut rng = trial_rng(12, 0);
    let lens: Vec<u32> = (0..20_000).map(|_| sampler.draw(&mut rng)).collect();
    let d = LengthStats::of_sample(&lens);
    assert!((d.mean - s.mean).abs() < 0.2 && (d.std_dev - s.std_dev).abs() < 0.2);
    assert!(lens.iter().all(|&l| (1..=40).contains(&l)));
    let net = net(64);
    let msgs = random_traffic(64, &mut trial_rng(13, 0));
    for law in [g, LengthLaw::Uniform { lo: 4, hi: 20 }] {
        let p = params(Mode::Barrier, Period::Theorem4, law);
        let r = run_algorithm_a(&net, &msgs, &p, &mut trial_rng(13, 1)).expect("runs");
        let lm = r.drawn.max;
        assert_eq!(r.load.longest, lm);
        assert!(lm <= r.law.max && r.drawn.std_dev <= r.law.max as f64);
        assert_eq!(r.eta, r.load.dilation.min(lm));
        assert_eq!(
            r.passes[0].period,
            2 * r.load.dilation as u64 + lm as u64 * r.lg_p as u64
        );
        assert!(r.time >= r.bounds.floor);
    }
}

/// Bad parameters are errors, never panics.
#[test]
fn bad_parameters_are_refused() {
    let net = net(16);
    let msgs = random_traffic(16, &mut trial_rng(1, 0));
    let base = AlgorithmA::default();
    let refuse =
        |p: AlgorithmA| run_algorithm_a(&net, &msgs, &p, &mut trial_rng(1, 1)).unwrap_err();
    for k in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            refuse(AlgorithmA { k, ..base }),
            AlgorithmAError::PhaseFactor { .. }
        ));
    }
    let law = |lengths| AlgorithmA { lengths, ..base };
    assert_eq!(
        refuse(law(LengthLaw::Constant(0))),
        AlgorithmAError::ZeroLength
    );
    assert_eq!(
        refuse(law(LengthLaw::Uniform { lo: 0, hi: 3 })),
        AlgorithmAError::ZeroLength
    );
    assert_eq!(
        refuse(law(LengthLaw::Uniform { lo: 5, hi: 3 })),
        AlgorithmAError::EmptyRange { lo: 5, hi: 3 }
    );
    assert!(matches!(
        refuse(law(LengthLaw::Constant(70_000))),
        AlgorithmAError::TooLong { .. }
    ));
    for mean in [0.5, f64::NAN] {
        let g = LengthLaw::TruncatedGeometric { mean, max: 9 };
        assert!(matches!(
            refuse(law(g)),
            AlgorithmAError::GeometricMean { .. }
        ));
    }
    let g0 = LengthLaw::TruncatedGeometric { mean: 3.0, max: 0 };
    assert_eq!(refuse(law(g0)), AlgorithmAError::ZeroLength);
    for eps in [1.0, 1.5, -0.1, f64::NAN] {
        assert!(matches!(
            refuse(AlgorithmA { eps, ..base }),
            AlgorithmAError::SpreadBound { .. }
        ));
    }
    let wide = AlgorithmA {
        eps: 0.5,
        ..law(LengthLaw::Uniform { lo: 1, hi: 64 })
    };
    assert!(matches!(refuse(wide), AlgorithmAError::Spread { .. }));
    let queue = AlgorithmA { queue: 0, ..base };
    assert_eq!(refuse(queue), AlgorithmAError::Engine(WormError::ZeroQueue));
    let period = Period::Doubling { max_passes: 0 };
    assert_eq!(
        refuse(AlgorithmA { period, ..base }),
        AlgorithmAError::NoPasses
    );
    let outside = [Message { src: 2, dst: 16 }];
    assert!(matches!(
        run_algorithm_a(&net, &outside, &base, &mut trial_rng(1, 1)),
        Err(AlgorithmAError::Outside { message: 0, .. })
    ));
    assert!(matches!(
        fixed_path(&net, 16, 0, 0),
        Err(AlgorithmAError::NotProcessor { node: 16, .. })
    ));
    assert_eq!(fixed_path(&net, 4, 4, 7), Ok(Vec::new()));
    assert!(matches!(
        phase_count(1e300, 3, 3),
        Err(AlgorithmAError::TooManyPhases { .. })
    ));
}

/// Nothing to route: no time, no late worm, in every schedule.
#[test]
fn worms_to_themselves_take_no_time() {
    let net = net(16);
    let msgs: Vec<Message> = (0..16).map(|p| Message { src: p, dst: p }).collect();
    for mode in MODES {
        for period in [Period::Theorem4, DOUBLING] {
            for m in [&msgs[..], &[]] {
                let p = params(mode, period, LengthLaw::Constant(8));
                let r = run_algorithm_a(&net, m, &p, &mut trial_rng(1, 2)).expect("runs");
                assert_eq!((r.time, r.routed, r.late_worms()), (0, 0, 0));
                assert!(r.arrival.iter().all(|&a| a == 0));
            }
        }
    }
}

/// One row of the report's tables.
fn row(n: u64, name: &str, r: &AlgorithmARun) {
    let (first, b) = (&r.passes[0], &r.bounds);
    let eager = r.eager().map_or("-".to_string(), |e| e.to_string());
    println!(
        "| {n} | {name} | {} | {} | {} | {} | {} | {} | {eager} | {} | {:.1} | {} | {:.1} | {} | {} | {} ({}) | {} |",
        r.load.congestion,
        r.load.dilation,
        r.eta,
        first.phases,
        first.period,
        r.time,
        b.theorem4,
        b.theorem4_ratio,
        b.theorem5,
        b.theorem5_ratio,
        b.lower,
        b.floor,
        r.late_worms(),
        r.late_phases(),
        r.passes.len(),
    );
}

const HEADER: &str = "| N | schedule | c | d | eta | phases | T | time | eager | Thm 4 | \
    time/Thm 4 | Thm 5 | time/Thm 5 | cL+d | floor | late worms (phases) | passes |\n\
    |---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";

/// The tables of the report: random traffic, `k = 32 e`, one run per size
/// and schedule; `L = 32`, then lengths drawn from two laws. Run with
/// `cargo test --release -- --ignored algorithm_a_table --nocapture`.
#[test]
#[ignore]
fn algorithm_a_table() {
    let schedules = [
        ("free, Thm 4", Mode::FreeRunning, Period::Theorem4),
        ("barrier, Thm 4", Mode::Barrier, Period::Theorem4),
        ("free, doubling", Mode::FreeRunning, DOUBLING),
        ("barrier, doubling", Mode::Barrier, DOUBLING),
    ];
    println!("{HEADER}");
    for (t, n) in [16u64, 64, 256, 1024, 4096].into_iter().enumerate() {
        let net = net(n);
        let msgs = random_traffic(n as u32, &mut trial_rng(2026, t as u64));
        for (name, mode, period) in schedules {
            let p = params(mode, period, LengthLaw::Constant(32));
            let r = run_algorithm_a(&net, &msgs, &p, &mut trial_rng(2027, t as u64)).expect("runs");
            row(n, name, &r);
        }
    }
    let laws = [
        ("uniform 16..=48", LengthLaw::Uniform { lo: 16, hi: 48 }),
        (
            "geometric 16, max 64",
            LengthLaw::TruncatedGeometric {
                mean: 16.0,
                max: 64,
            },
        ),
    ];
    println!("\n| N | law | mean | sd | sd/mean | L_M | drawn mean | drawn sd |");
    println!("|---|---|---|---|---|---|---|---|");
    let mut runs = Vec::new();
    for (t, n) in [256u64, 1024].into_iter().enumerate() {
        let net = net(n);
        let msgs = random_traffic(n as u32, &mut trial_rng(2028, t as u64));
        for (name, law) in laws {
            for (mode_name, mode) in [("free", Mode::FreeRunning), ("barrier", Mode::Barrier)] {
                let p = params(mode, Period::Theorem4, law);
                let r =
                    run_algorithm_a(&net, &msgs, &p, &mut trial_rng(2029, t as u64)).expect("runs");
                if mode == Mode::FreeRunning {
                    let (l, d) = (&r.law, &r.drawn);
                    println!(
                        "| {n} | {name} | {:.2} | {:.2} | {:.3} | {} | {:.2} | {:.2} |",
                        l.mean,
                        l.std_dev,
                        l.spread(),
                        d.max,
                        d.mean,
                        d.std_dev
                    );
                }
                runs.push((n, format!("{mode_name}, Thm 4, {name}"), r));
            }
        }
    }
    println!("\n{HEADER}");
    for (n, name, r) in &runs {
        row(*n, name, r);
    }
}
