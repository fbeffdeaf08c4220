//! MulCh: every bundled benchmark in every layer count from 1 to 8, random
//! channels (cyclic and planar), each routing verified with the strict
//! boundary rule, never wider than the routing without B layers, and with
//! per-group figures that add up to the totals recomputed from the geometry.

use fabric::channel::analysis::{crossing_pairs, density};
use fabric::channel::generate::{random_channel, random_planar_terminals, ChannelShape};
use fabric::channel::layer_model::Configuration;
use fabric::channel::problem::ChannelProblem;
use fabric::channel::routers::mulch::{
    assign::assign_nets, partition::group_kinds, route_mulch, AssignOptions, Context, CostFunction,
    Excess, GroupKind, MulchResult, RoutedPartition, SelectOptions,
};
use fabric::channel::verify::verify;
use rand::{Rng, SeedableRng};

mod common;
use common::{bundled, BUNDLED};

/// Every check a routed partition must pass.
fn check_partition(p: &ChannelProblem, r: &RoutedPartition, what: &str) {
    let s = &r.solution;
    let report = verify(p, s, Some(&r.metrics));
    assert!(
        report.is_legal_strict(),
        "{what}: {:?} {:?}",
        &report.violations[..report.violations.len().min(5)],
        &report.boundary_runs[..report.boundary_runs.len().min(5)]
    );
    // The stacked width is the widest group's; no group beats its bound.
    let widest = r.groups.iter().map(|g| g.width).max().unwrap_or(0);
    assert_eq!(s.width, widest, "{what}");
    let d = density(p);
    assert!(
        s.width >= r.partition.config.width_lower_bound(d),
        "{what}: width {} under the bound",
        s.width
    );
    // Per-group figures add up to the recomputed totals.
    let length: u64 = r.groups.iter().map(|g| g.net_length).sum();
    let vias: u64 = r.groups.iter().map(|g| g.vias).sum();
    assert_eq!(length, report.metrics.net_length, "{what}");
    assert_eq!(vias, report.metrics.vias, "{what}");
    // Groups tile the layers in order, each net in exactly one group, B
    // groups planar and via-free.
    let mut next = 1;
    let mut seen = vec![0; p.nets().len()];
    for (g, stats) in r.groups.iter().zip(&r.partition.groups) {
        assert_eq!(g.layers[0], next, "{what}");
        next += g.kind.layers();
        for id in &stats.nets {
            seen[id.index()] += 1;
        }
        if g.kind == GroupKind::B {
            assert_eq!(g.vias, 0, "{what}");
            if !stats.nets.is_empty() {
                assert!(crossing_pairs(&p.restricted(&stats.nets).unwrap()).is_empty());
                // The B estimate is the true plane width.
                assert_eq!(g.width, g.estimate, "{what}: B group");
            }
        }
    }
    assert_eq!(next, s.layers + 1, "{what}: layers not all used");
    assert!(
        seen.iter().all(|&k| k == 1),
        "{what}: a net not in one group"
    );
    // Every wire of a net lies on its group's layers, except that the HV or
    // HVH group just under the first B layer may use that layer's free space.
    let borrower = r.groups.iter().rposition(|g| g.kind != GroupKind::B);
    let lent = borrower
        .and_then(|k| r.groups.get(k + 1))
        .filter(|g| g.kind == GroupKind::B)
        .map(|g| g.layers[0]);
    for w in &s.wires {
        let id = p.by_label(w.net).unwrap();
        let k = r.partition.group_of[id.index()];
        assert!(
            r.groups[k].layers.contains(&w.layer) || (Some(k) == borrower && Some(w.layer) == lent),
            "{what}: net {} off its group",
            w.net
        );
    }
}

fn check_result(p: &ChannelProblem, layers: u32, res: &MulchResult) {
    let what = format!("{} L={layers}", p.name());
    check_partition(p, &res.chosen, &format!("{what} chosen"));
    if let Some(c) = &res.chameleon {
        check_partition(p, c, &format!("{what} chameleon"));
        assert_eq!(c.partition.b(), 0);
    }
    for e in &res.extra {
        check_partition(p, e, &format!("{what} extra"));
    }
    assert_eq!(res.solution, res.answer().solution);
    assert_eq!(res.solution.layers, layers);
    if let Some(no_b) = res.without_b_layers() {
        assert!(
            res.solution.width <= no_b.metrics.width,
            "{what}: wider than without B layers"
        );
    }
    // The selection loop: b = 0 first; every configuration with fewer B
    // layers than the chosen one estimated at least as much (ties go to more
    // B layers).
    if layers >= 2 {
        assert_eq!(res.attempts[0].b, 0, "{what}");
    }
    let chosen = &res.chosen.partition;
    for a in res.attempts.iter().filter(|a| a.b < chosen.b()) {
        let e = a.estimate.expect("assigned before the chosen one");
        assert!(e >= chosen.estimate, "{what}: b={} estimated {e}", a.b);
    }
}

#[test]
fn bundled_benchmarks_in_one_to_eight_layers() {
    for name in BUNDLED {
        let p = bundled(name);
        let planar = crossing_pairs(&p).is_empty();
        for layers in 1..=8 {
            let res = route_mulch(&p, layers, SelectOptions::default(), &mut |_| {});
            if layers == 1 && !planar {
                let e = res.expect_err("a crossing channel has no one-layer routing");
                assert!(e.to_string().contains("cross"), "{e}");
                continue;
            }
            let res = res.unwrap_or_else(|e| panic!("{name} L={layers}: {e}"));
            check_result(&p, layers, &res);
            // Never wider than routing without B layers at all.
            if layers >= 2 {
                let no_b = route_mulch(
                    &p,
                    layers,
                    SelectOptions {
                        no_b_layers: true,
                        ..Default::default()
                    },
                    &mut |_| {},
                )
                .unwrap();
                check_result(&p, layers, &no_b);
                assert_eq!(no_b.chosen.partition.b(), 0);
                assert!(
                    res.solution.width <= no_b.solution.width,
                    "{name} L={layers}"
                );
            }
        }
    }
}

#[test]
fn dde_targets() {
    for name in ["dde", "dde_zhou"] {
        let p = bundled(name);
        let w = |layers| {
            route_mulch(&p, layers, SelectOptions::default(), &mut |_| {})
                .unwrap()
                .solution
                .width
        };
        assert_eq!(w(3), 10, "{name} in 3 layers");
        assert!(w(4) <= 10, "{name} in 4 layers");
    }
}

#[test]
fn chameleon_packing_without_b_layers() {
    let p = bundled("dde");
    let ctx = Context::new(&p);
    for layers in 2..=8 {
        let s = fabric::channel::routers::mulch::selection::select(
            &ctx,
            layers,
            SelectOptions {
                no_b_layers: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(s.attempts.len(), 1);
        let c = Configuration::new(layers, 0).unwrap();
        let kinds: Vec<GroupKind> = s.chosen.groups.iter().map(|g| g.kind).collect();
        assert_eq!(kinds, group_kinds(&c));
        assert!(kinds.iter().all(|&k| k != GroupKind::B));
    }
}

#[test]
fn every_cost_option_gives_a_valid_partition() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(505);
    for _ in 0..40 {
        let columns = rng.gen_range(4..60);
        let p = random_channel(&mut rng, &ChannelShape::new(columns));
        let ctx = Context::new(&p);
        for layers in 2..=8 {
            for cost in [CostFunction::Basic, CostFunction::Variant] {
                for excess in [Excess::Unassigned, Excess::All] {
                    for &b in &fabric::channel::layer_model::candidate_b_values(layers) {
                        let config = Configuration::new(layers, b).unwrap();
                        let Some(part) = assign_nets(&ctx, config, AssignOptions { cost, excess })
                        else {
                            assert!(b > 0, "b = 0 always assigns");
                            continue;
                        };
                        assert!(part.estimate >= config.width_lower_bound(ctx.density()));
                        for (g, stats) in part.groups.iter().enumerate() {
                            for id in &stats.nets {
                                assert_eq!(part.group_of[id.index()], g);
                            }
                            if stats.kind == GroupKind::B && !stats.nets.is_empty() {
                                let sub = p.restricted(&stats.nets).unwrap();
                                assert!(crossing_pairs(&sub).is_empty());
                            }
                        }
                        assert_eq!(
                            part.groups.iter().map(|g| g.nets.len()).sum::<usize>(),
                            p.nets().len()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn random_channels_in_two_to_eight_layers() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(404);
    for k in 0..150 {
        let columns = rng.gen_range(3..70);
        let mut shape = ChannelShape::new(columns);
        shape.side_probability = if k % 3 == 0 { 0.3 } else { 0.0 };
        shape.acyclic = k % 2 == 0;
        let p = random_channel(&mut rng, &shape);
        let layers = 2 + (k % 7) as u32;
        let options = SelectOptions {
            extra: (k % 3) as u32,
            assign: AssignOptions {
                cost: if k % 4 == 1 {
                    CostFunction::Variant
                } else {
                    CostFunction::Basic
                },
                excess: Excess::Unassigned,
            },
            no_b_layers: false,
            ..SelectOptions::default()
        };
        let res = route_mulch(&p, layers, options, &mut |_| {})
            .unwrap_or_else(|e| panic!("{} L={layers}: {e}", p.name()));
        check_result(&p, layers, &res);
    }
}

#[test]
fn planar_channels_use_b_layers() {
    // A planar channel in L layers: all-B needs no vias; the router must
    // find a routing at least as narrow as Chameleon's.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(303);
    let mut with_b = 0;
    for k in 0..120 {
        let columns = rng.gen_range(4..40);
        let t = random_planar_terminals(&mut rng, columns);
        let Some(columns) = t.x.last().map(|&x| x as usize + 1) else {
            continue;
        };
        let mut top = vec![0u32; columns];
        let mut bottom = vec![0u32; columns];
        for (i, &x) in t.x.iter().enumerate() {
            top[x as usize] = t.top[i].unwrap_or(0);
            bottom[x as usize] = t.bottom[i].unwrap_or(0);
        }
        let Ok(p) = ChannelProblem::from_rows("planar", &top, &bottom, &[], &[]) else {
            continue;
        };
        let layers = 1 + (k % 8) as u32;
        let res = route_mulch(&p, layers, SelectOptions::default(), &mut |_| {}).unwrap();
        check_result(&p, layers, &res);
        if res.answer().partition.b() > 0 {
            with_b += 1;
        }
        if layers == 1 {
            assert_eq!(res.solution.vias.len(), 0);
        }
    }
    assert!(
        with_b > 40,
        "only {with_b} planar channels answered with B layers"
    );
}

#[test]
fn same_input_same_output() {
    let p = bundled("nycu_lab4_case2");
    let a = route_mulch(&p, 5, SelectOptions::default(), &mut |_| {}).unwrap();
    let b = route_mulch(&p, 5, SelectOptions::default(), &mut |_| {}).unwrap();
    assert_eq!(a.solution, b.solution);
    assert_eq!(
        fabric::report::model::route::MulchSection::new(&a, None),
        fabric::report::model::route::MulchSection::new(&b, None)
    );
}

/// MulCh's partitions and the yacr router's candidates run on rayon's
/// pool: every bundled channel, in two to five layers, routes the same in
/// a pool of one thread (sequentially) as in one of four.
#[test]
fn the_same_routing_on_one_thread_and_on_four() {
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .expect("a pool")
    };
    let (one, four) = (pool(1), pool(4));
    for name in BUNDLED {
        let p = bundled(name);
        for layers in 2..=5 {
            let route = || route_mulch(&p, layers, SelectOptions::default(), &mut |_| {});
            let (a, b) = (one.install(route), four.install(route));
            match (a, b) {
                (Ok(a), Ok(b)) => assert_eq!(a.solution, b.solution, "{name} in {layers}"),
                (a, b) => assert_eq!(a.err(), b.err(), "{name} in {layers}"),
            }
        }
    }
}

/// The integer program's optimum equals a brute force over every
/// assignment of the nets to the groups, on small random channels.
#[test]
fn exact_partition_equals_brute_force() {
    use fabric::channel::routers::mulch::exact::solve_configuration;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(808);
    let mut checked = 0;
    let mut below_heuristic = 0;
    while checked < 60 {
        let columns = rng.gen_range(3..9);
        let mut shape = ChannelShape::new(columns);
        shape.side_probability = if checked % 3 == 0 { 0.4 } else { 0.0 };
        let p = random_channel(&mut rng, &shape);
        let n = p.nets().len();
        if !(2..=7).contains(&n) {
            continue;
        }
        let ctx = Context::new(&p);
        let layers = rng.gen_range(2..=5);
        for b in 0..=layers {
            let Some(config) = Configuration::new(layers, b) else {
                continue;
            };
            let kinds = group_kinds(&config);
            let g = kinds.len();
            // Brute force: every assignment, the best max ceil(d_g / H_g).
            let mut best: Option<u32> = None;
            let mut assignment = vec![0usize; n];
            'all: loop {
                let feasible = (0..n).all(|a| {
                    let k = kinds[assignment[a]];
                    k != GroupKind::B
                        || ctx
                            .crossings(a)
                            .iter()
                            .all(|&m| assignment[m as usize] != assignment[a])
                });
                if feasible {
                    let value = (0..g)
                        .map(|q| {
                            let spans: Vec<(usize, usize)> = (0..n)
                                .filter(|&a| assignment[a] == q)
                                .filter_map(|a| ctx.track_span(a))
                                .collect();
                            let d = (0..columns as usize + 2)
                                .map(|x| spans.iter().filter(|s| s.0 <= x && x <= s.1).count())
                                .max()
                                .unwrap_or(0) as u32;
                            d.div_ceil(kinds[q].h_layers())
                        })
                        .max()
                        .unwrap_or(0);
                    best = Some(best.map_or(value, |b: u32| b.min(value)));
                }
                for slot in assignment.iter_mut() {
                    *slot += 1;
                    if *slot < g {
                        continue 'all;
                    }
                    *slot = 0;
                }
                break;
            }
            let e = solve_configuration(&ctx, config, 30.0);
            assert!(e.proven || e.width.is_none(), "{p:?}: not proven");
            assert_eq!(e.width, best, "{:?} L={layers} b={b}", p.top_labels());
            if let (Some(w), Some(h)) = (e.width, e.heuristic_estimate) {
                assert!(w <= h);
                assert!(e.estimate.unwrap() >= w);
                if w < h {
                    below_heuristic += 1;
                }
            }
        }
        checked += 1;
    }
    assert!(
        below_heuristic > 0,
        "the exact partition never beat the heuristic"
    );
}

#[test]
fn exact_answer_is_never_worse() {
    let p = bundled("yk_textbook12");
    for layers in 2..=5 {
        let mut res = route_mulch(&p, layers, SelectOptions::default(), &mut |_| {}).unwrap();
        let before = res.answer().quality();
        res.add_exact(&p, 20.0, &mut |_| {}).unwrap();
        let (report, routed) = res.exact.as_ref().unwrap();
        let routed = routed
            .as_ref()
            .expect("small instance: a partition is found");
        check_partition(&p, routed, &format!("yk exact L={layers}"));
        assert!(res.answer().quality() <= before);
        assert_eq!(res.solution, res.answer().solution);
        // Every configuration settles on this small channel, and no routing
        // beats the proven bound.
        let bound = report.bound.expect("settled");
        assert!(res.solution.width >= bound);
    }
    // In three layers the heuristic keeps HVH (3 tracks); the integer
    // program finds a three-B partition with 2 tracks and no vias.
    let mut res = route_mulch(&p, 3, SelectOptions::default(), &mut |_| {}).unwrap();
    assert_eq!(res.solution.width, 3);
    res.add_exact(&p, 20.0, &mut |_| {}).unwrap();
    assert_eq!(res.solution.width, 2);
    assert_eq!(res.solution.vias.len(), 0);
}

#[test]
fn narrow_b_groups_use_the_channel_width_to_save_wire() {
    use fabric::channel::routers::plane::route_plane;
    // A B group narrower than the stacked channel re-runs the
    // final optimisation at the channel's width. Its wire in the stacked
    // routing never exceeds the narrow routing with the top stubs stretched,
    // and on DDE in 4 and 7 layers it is shorter.
    let mut saved = 0u64;
    for name in BUNDLED {
        let p = bundled(name);
        for layers in 2..=8 {
            let Ok(res) = route_mulch(&p, layers, SelectOptions::default(), &mut |_| {}) else {
                continue;
            };
            let r = res.answer();
            for (g, stats) in r.groups.iter().zip(&r.partition.groups) {
                if g.kind != GroupKind::B || g.width >= r.solution.width || stats.nets.is_empty() {
                    continue;
                }
                let sub = p.restricted(&stats.nets).unwrap();
                let narrow = route_plane(&sub).unwrap();
                let lift = (r.solution.width - narrow.width) as u64;
                let top = narrow.width as i64 + 1;
                let stretched = narrow.net_length()
                    + lift
                        * narrow
                            .wires
                            .iter()
                            .filter(|w| w.from.x == w.to.x && w.from.y.max(w.to.y) == top)
                            .count() as u64;
                assert!(
                    g.net_length <= stretched,
                    "{name} L = {layers}: {} > {stretched}",
                    g.net_length
                );
                saved += stretched - g.net_length;
                if name == "dde" && (layers == 4 || layers == 7) {
                    assert!(g.net_length < stretched, "{name} L = {layers}");
                }
            }
        }
    }
    eprintln!("wire saved by re-running B groups at the channel width: {saved}");
}

/// MulCh hands its effort to the router of its HV and HVH groups: in two
/// layers without B layers its one HV group is the whole channel, so it
/// routes as the yacr router does with the same effort, level by level.
#[test]
fn the_effort_reaches_the_groups_router() {
    use fabric::channel::registry::router_by_name;
    use fabric::channel::router::{Effort, EffortLevel, RouteOptions};
    let yacr = router_by_name("yacr").unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(83);
    let mut differ = 0;
    for _ in 0..30 {
        let shape = ChannelShape {
            columns: rng.gen_range(20..120),
            fill: 0.9,
            max_span: rng.gen_range(5..25),
            ..ChannelShape::new(20)
        };
        let p = random_channel(&mut rng, &shape);
        let mut widths = Vec::new();
        for level in [EffortLevel::Fast, EffortLevel::Normal] {
            let effort = Effort {
                level,
                ..Effort::default()
            };
            let select = SelectOptions {
                rules: fabric::channel::router::Rules {
                    effort,
                    ..Default::default()
                },
                no_b_layers: true,
                ..SelectOptions::default()
            };
            let m = route_mulch(&p, 2, select, &mut |_| {}).unwrap();
            let options = RouteOptions {
                effort,
                ..RouteOptions::layers(2)
            };
            let y = yacr.route(&p, &options).unwrap();
            assert_eq!(
                (m.solution.width, m.solution.via_count()),
                (y.width, y.via_count()),
                "{} {level:?}",
                p.name()
            );
            widths.push(y.width);
        }
        differ += (widths[0] != widths[1]) as usize;
    }
    // The levels must route some channel differently for this to tell.
    assert!(differ > 0, "no channel where the effort mattered");
}

/// Channels with side terminals whose B group's plane routing at the
/// stacked width first came back narrower (cutting the side extension back
/// deleted rows): the borrowing group routed around that geometry while a
/// different lift of it was stacked, and four layers shorted.
#[test]
fn side_terminal_channels_route_legally_in_every_layer_count() {
    // Top and bottom pins, left and right side terminals.
    type Sides<'a> = (&'a [u32], &'a [u32], &'a [u32], &'a [u32]);
    let channels: [Sides; 3] = [
        (&[1, 4, 3, 2, 5], &[6, 5, 2, 3, 4], &[6, 8, 7], &[7, 8, 1]),
        (
            &[
                0, 0, 77, 122, 104, 197, 194, 105, 138, 131, 185, 197, 110, 77, 0, 105, 0, 145, 90,
            ],
            &[
                204, 185, 0, 0, 91, 194, 197, 194, 0, 110, 0, 131, 0, 122, 104, 0, 138, 90, 145,
            ],
            &[31, 204],
            &[31, 91],
        ),
        (
            &[
                0, 0, 0, 155, 67, 152, 42, 0, 107, 32, 0, 32, 15, 155, 0, 0, 123, 0,
            ],
            &[
                0, 0, 78, 0, 0, 15, 42, 61, 152, 78, 32, 107, 67, 0, 0, 0, 61, 157,
            ],
            &[31, 53, 157, 146, 85],
            &[123, 31, 53, 146, 85],
        ),
    ];
    for (k, (top, bottom, left, right)) in channels.into_iter().enumerate() {
        let p = ChannelProblem::from_rows(&format!("sides{k}"), top, bottom, left, right).unwrap();
        assert!(!crossing_pairs(&p).is_empty());
        for layers in 2..=8 {
            let res = route_mulch(&p, layers, SelectOptions::default(), &mut |_| {})
                .unwrap_or_else(|e| panic!("sides{k} L={layers}: {e}"));
            check_result(&p, layers, &res);
        }
    }
}
