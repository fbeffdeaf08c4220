//! The channel subcommands: `analyze`, `route` (any router, progress on a
//! terminal, the verifier on every routing), `separation`, `switchbox` and
//! `verify`.

use super::*;

/// `fabric analyze`.
pub(super) fn run_analyze(args: AnalyzeArgs) -> Result<i32> {
    check_output_paths(&[&args.file], &outputs_of(&args.output, &args.svg))?;
    let problem = read_problem(&args.file)?;
    crate::limits::check_channel(&problem, None)?;
    let analysis = analyze(&problem, args.max_layers);
    let mut outputs = Vec::new();
    if let Some(path) = &args.output {
        outputs.push((
            path.clone(),
            report::yaml::analysis_yaml(&problem, &analysis),
        ));
    }
    if let Some(path) = &args.svg {
        outputs.push((path.clone(), report::svg::problem_svg(&problem, &analysis)));
    }
    write_all_or_nothing(&outputs)?;
    print!("{}", report::table::analysis_table(&problem, &analysis));
    Ok(0)
}

/// `fabric route`.
pub(super) fn run_route(args: RouteArgs) -> Result<i32> {
    check_output_paths(&[&args.file], &outputs_of(&args.output, &args.svg))?;
    let problem = read_problem(&args.file)?;
    let kind = args.router.unwrap_or(if args.model.is_some() {
        RouterKind::Yacr
    } else {
        RouterKind::Mulch
    });
    if kind == RouterKind::Mulch && args.model.is_some() {
        return Err(Error::Usage(
            "--model applies to the yacr router; mulch chooses its own groups".into(),
        ));
    }
    let router = kind.router();
    crate::limits::check_channel(&problem, Some(args.layers))?;
    let effort = Effort {
        level: args.effort,
        starts: args.starts,
        seed: args.seed,
    };
    let options = RouteOptions {
        layers: args.layers,
        model: args.model,
        effort,
    };
    let start = Instant::now();
    // Progress on stderr only when it is a terminal.
    let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let mut observer = |event: RouteEvent| {
        if tty {
            let RouteEvent::Trying { width, method } = event;
            eprint!(
                "\r{}: trying {width} tracks ({method}), {:.1} s   ",
                problem.name(),
                start.elapsed().as_secs_f64()
            );
        }
    };
    let mut mulch = None;
    let routed = if kind == RouterKind::Mulch {
        let select = SelectOptions {
            assign: AssignOptions {
                cost: args.cost,
                excess: args.excess,
            },
            no_b_layers: args.no_b_layers,
            extra: args.extra_b_layers,
            effort,
        };
        route_mulch(&problem, args.layers, select, &mut observer).map(|r| {
            let s = r.solution.clone();
            mulch = Some(r);
            s
        })
    } else {
        router.route_observed(&problem, &options, &mut observer)
    };
    if let (true, Some(r)) = (args.exact, mulch.as_mut()) {
        if tty {
            eprint!(
                "\r{}: integer programs ({} s at most)   ",
                problem.name(),
                args.time_limit
            );
        }
        r.add_exact(&problem, args.time_limit, &mut observer)?;
    }
    let routed = match (&mulch, routed) {
        (Some(r), Ok(_)) => Ok(r.solution.clone()),
        (_, routed) => routed,
    };
    if tty {
        eprint!("\r\x1b[K");
    }
    let solution = routed?;
    let seconds = start.elapsed().as_secs_f64();
    let d = density(&problem);
    let metrics = solution.metrics(d);
    let check = verify(&problem, &solution, Some(&metrics));
    if check.too_large().is_some() {
        // The routing is wider than the density the limits were checked
        // at: a limit of the checker, not a fault of the router.
        let (c, w, l) = (
            problem.columns() as u64,
            metrics.width as u64,
            solution.layers as u64,
        );
        return Err(Error::Limit(crate::limits::LimitError::Count {
            what: format!(
                "{}: the {} router's routing ({c} columns, width {w}, {l} layers), grid points",
                problem.name(),
                router.name()
            ),
            count: crate::channel::verify::grid_points(c, w, l),
            limit: crate::channel::verify::MAX_POINTS,
            unit: "grid points",
            why: "the verifier checks every routing point by point, so nothing was written",
        }));
    }
    if !check.is_legal_strict() {
        return Err(Error::Failed(format!(
            "the {} router produced an illegal routing of {} ({} violations); nothing was written:\n{}",
            router.name(),
            problem.name(),
            check.total,
            violations_text(&check, true)
        )));
    }
    let mut outputs = Vec::new();
    if let Some(path) = &args.output {
        let mut text = report::yaml::solution_yaml(&solution, &metrics);
        if let Some(r) = &mulch {
            text.push_str(&report::yaml::mulch_yaml(r));
        }
        if let Some((e, routed)) = mulch.as_ref().and_then(|r| r.exact.as_ref()) {
            text.push_str(&report::yaml::exact_yaml(
                e,
                routed.as_ref(),
                args.time_limit,
            ));
        }
        outputs.push((path.clone(), text));
    }
    if let Some(path) = &args.svg {
        outputs.push((
            path.clone(),
            report::svg::solution_svg(&problem, &solution, &metrics),
        ));
    }
    write_all_or_nothing(&outputs)?;
    // The bound of the layer model the router used, else of any model.
    let bound = match solution.horizontal_layers() {
        0 => layer_bounds(d, args.layers).width_lower_bound,
        h => d.div_ceil(h),
    };
    print!(
        "{}",
        report::table::route_summary(
            problem.name(),
            router.name(),
            args.layers,
            &metrics,
            bound,
            seconds
        )
    );
    if let Some(r) = &mulch {
        print!("{}", report::table::mulch_summary(r));
    }
    if let Some((e, routed)) = mulch.as_ref().and_then(|r| r.exact.as_ref()) {
        print!("{}", report::table::exact_summary(e, routed.as_ref()));
    }
    Ok(0)
}

/// `fabric separation`.
pub(super) fn run_separation(args: SeparationArgs) -> Result<i32> {
    check_output_paths(&[&args.file], &outputs_of(&args.output, &None))?;
    let problem = read_problem(&args.file)?;
    let pairs = crate::channel::analysis::crossing_pairs(&problem);
    if let Some(&(a, b)) = pairs.first() {
        return Err(Error::Failed(format!(
            "{} cannot be routed in one layer: nets {} and {} cross ({} crossing pairs)",
            problem.name(),
            problem.label(a),
            problem.label(b),
            pairs.len()
        )));
    }
    // Floating side terminals: the switchbox reduction to a channel
    // (columns of the cut below are then the extended channel's).
    let ext = crate::channel::side_extension::extend_floating_sides(&problem)
        .map_err(|e| Error::Failed(format!("{}: {}", problem.name(), e.message)))?;
    let sides = ext.shift != 0 || ext.problem.columns() != problem.columns();
    let t = crate::channel::separation::Terminals::of_problem(&ext.problem);
    let (sep, cut) = crate::channel::separation::separation_with_cut(&t)
        .expect("a validated channel has terminals");
    let width = crate::channel::separation::single_layer_width(&problem)
        .expect("a validated channel has terminals");
    let cut = crate::channel::separation::CriticalCut {
        bottom_x: cut.bottom_x - ext.shift,
        top_x: cut.top_x - ext.shift,
        ..cut
    };
    let text = report::yaml::separation_yaml(problem.name(), sep, width, &cut);
    if let Some(path) = &args.output {
        write_all_or_nothing(&[(path.clone(), text)])?;
    }
    println!(
        "{}: minimum separation {sep} (chapter 7: terminal rows {sep} apart), width {width} (chapter 6: tracks between the pin rows)",
        problem.name()
    );
    if sides {
        println!(
            "  side terminals are floating: moved onto the bottom row beyond the ends \
             (columns below 0 or from {} on are moved side terminals)",
            problem.columns()
        );
    }
    println!(
        "  deciding cut: bottom column {} to top column {}, flow {}, dx {}",
        cut.bottom_x,
        cut.top_x,
        cut.flow,
        (cut.top_x - cut.bottom_x).abs()
    );
    Ok(0)
}

/// `fabric switchbox`.
pub(super) fn run_switchbox(args: SwitchboxArgs) -> Result<i32> {
    check_output_paths(&[&args.file], &outputs_of(&args.output, &None))?;
    let text = read_text(&args.file)?;
    let sb = crate::io::parse_switchbox(&text, &args.file.display().to_string())?;
    let check = crate::channel::switchbox::check(&sb);
    if let Some(path) = &args.output {
        write_all_or_nothing(&[(path.clone(), report::yaml::switchbox_yaml(&sb, &check))])?;
    }
    let opt = |v: Option<i64>| v.map_or("-".to_string(), |v| v.to_string());
    println!(
        "{}: {} x {} switchbox; separations: top-bottom {} (height {}), left-right {} (width {})",
        sb.name,
        sb.width,
        sb.height,
        opt(check.top_bottom_separation),
        sb.height,
        opt(check.left_right_separation),
        sb.width
    );
    match &check.result {
        Ok(()) => {
            println!("  routable in one layer: every critical cut is safe");
            Ok(0)
        }
        Err(why) => {
            println!("  not routable in one layer: {why}");
            Ok(1)
        }
    }
}

/// `fabric verify`.
pub(super) fn run_verify(args: VerifyArgs) -> Result<i32> {
    let problem = read_problem(&args.problem)?;
    let text = read_text(&args.solution)?;
    let file = crate::io::parse_solution(&text, &args.solution.display().to_string())?;
    let check = verify(&problem, &file.solution, file.claimed.as_ref());
    if let Some(v) = check.too_large() {
        return Err(Error::File {
            path: args.solution.display().to_string(),
            message: v.to_string(),
        });
    }
    let m = check.metrics;
    let legal = if args.strict {
        check.is_legal_strict()
    } else {
        check.is_legal()
    };
    if legal {
        println!(
            "legal: {} routed in {} layers, width {}, net length {}, vias {}, density {}",
            problem.name(),
            file.solution.layers,
            m.width,
            m.net_length,
            m.vias,
            m.density
        );
    } else {
        println!(
            "illegal: {} violation(s) in {}",
            check.total + if args.strict { check.boundary_total } else { 0 },
            args.solution.display()
        );
        println!("{}", violations_text(&check, args.strict));
    }
    // Under --strict the boundary runs are among the violations above.
    if !args.strict && check.boundary_total > 0 {
        println!(
            "note: {} wire(s) run along the channel boundary: legal under FORMATS.md, \
             refused by the thesis model (--strict)",
            check.boundary_total
        );
    }
    if legal && file.claimed.is_none() {
        println!("note: the solution states no metrics; the figures above are recomputed");
    }
    Ok(if legal { 0 } else { 1 })
}
