//! The channel subcommands `analyze`, `separation`, `switchbox` and
//! `verify` (`route` has its own module).

use super::*;
use crate::channel::router::Directions;
use crate::error::ChannelFailure;

/// `fabric analyze`.
pub(super) fn run_analyze(args: AnalyzeArgs) -> Result<i32> {
    check_output_paths(&[&args.file], &outputs_of(&args.output, &args.svg))?;
    args.format.check::<report::model::AnalysisReport>()?;
    let problem = read_problem(&args.file)?;
    crate::limits::check_channel(&problem, None)?;
    let analysis = analyze(&problem, args.max_layers);
    let mut outputs = Vec::new();
    if let Some(path) = &args.output {
        outputs.push((
            path.clone(),
            report::model::render(
                &report::model::AnalysisReport::new(&problem, &analysis),
                args.format.format,
            )?,
        ));
    }
    if let Some(path) = &args.svg {
        outputs.push((path.clone(), report::svg::problem_svg(&problem, &analysis)));
    }
    write_all_or_nothing(&outputs)?;
    print!("{}", report::table::analysis_table(&problem, &analysis));
    Ok(0)
}

/// `fabric separation`.
pub(super) fn run_separation(args: SeparationArgs) -> Result<i32> {
    check_output_paths(&[&args.file], &outputs_of(&args.output, &None))?;
    args.format.check::<report::model::SeparationReport>()?;
    let problem = read_problem(&args.file)?;
    let pairs = crate::channel::analysis::crossing_pairs(&problem);
    if let Some(&(a, b)) = pairs.first() {
        return Err(Error::from(ChannelFailure::Crossing {
            channel: problem.name().to_string(),
            a: problem.label(a),
            b: problem.label(b),
            pairs: pairs.len(),
        }));
    }
    // Floating side terminals: the switchbox reduction to a channel
    // (columns of the cut below are then the extended channel's).
    let ext =
        crate::channel::side_extension::extend_floating_sides(&problem).map_err(|source| {
            ChannelFailure::SideTerminals {
                channel: problem.name().to_string(),
                source,
            }
        })?;
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
    let text = report::model::render(
        &report::model::SeparationReport::new(problem.name(), sep, width, &cut),
        args.format.format,
    )?;
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
    args.format.check::<report::model::SwitchboxReport>()?;
    let text = read_text(&args.file)?;
    let sb = crate::io::parse_switchbox(&text, &args.file.display().to_string())?;
    let check = crate::channel::switchbox::check(&sb);
    if let Some(path) = &args.output {
        let report = report::model::SwitchboxReport::new(&sb, &check);
        let text = report::model::render(&report, args.format.format)?;
        write_all_or_nothing(&[(path.clone(), text)])?;
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

/// A routed channel given as DEF: the file name ends in `.def` (any case).
fn is_def(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("def"))
}

pub(super) fn run_verify(args: VerifyArgs) -> Result<i32> {
    let problem = read_problem(&args.problem)?;
    let text = read_text(&args.solution)?;
    let name = args.solution.display().to_string();
    let file = if is_def(&args.solution) {
        crate::io::SolutionFile {
            solution: crate::physical::def_read::parse_def(&text, &name)?,
            claimed: None,
        }
    } else {
        crate::io::parse_solution(&text, &name)?
    };
    let check = verify(&problem, &file.solution, file.claimed.as_ref());
    if let Some(v) = check.too_large() {
        return Err(Error::File {
            path: args.solution.display().to_string(),
            message: v.to_string(),
        });
    }
    let m = check.metrics;
    let rule = if args.strict {
        BoundaryRule::Refused
    } else {
        BoundaryRule::Allowed
    };
    let against = file.solution.against_direction();
    let directions = args.directions();
    let against_refused = match directions {
        Directions::Reserved => against.total(),
        Directions::Preferred => 0,
    };
    let legal = against_refused == 0
        && match rule {
            BoundaryRule::Refused => check.is_legal_strict(),
            BoundaryRule::Allowed => check.is_legal(),
        };
    if legal {
        println!(
            "legal: {} routed in {}, width {}, net length {}, vias {}, density {}",
            problem.name(),
            crate::report::table::plural(file.solution.layers, "layer"),
            m.width,
            m.net_length,
            m.vias,
            m.density
        );
    } else {
        println!(
            "illegal: {} violation(s) in {}",
            check.total
                + against_refused as usize
                + match rule {
                    BoundaryRule::Refused => check.boundary_total,
                    BoundaryRule::Allowed => 0,
                },
            args.solution.display()
        );
        let listed = violations_text(&check, rule);
        if !listed.is_empty() {
            println!("{listed}");
        }
        if let (Directions::Reserved, Some((layer, at, horizontal))) = (directions, against.first) {
            println!(
                "  {} unit edge(s) against their layer's direction ({}); first: the {} edge from ({}, {}) on layer {layer}",
                against_refused,
                against.per_layer_text(),
                if horizontal { "horizontal" } else { "vertical" },
                at.x,
                at.y
            );
        }
    }
    if directions == Directions::Preferred && against.total() > 0 {
        println!(
            "note: {} unit edge(s) run against their layer's direction ({}): legal in the default model, refused by --reserved",
            against.total(),
            against.per_layer_text()
        );
    }
    // Under --strict the boundary runs are among the violations above.
    if rule == BoundaryRule::Allowed && check.boundary_total > 0 {
        println!(
            "note: {} wire(s) run along the channel boundary: legal under docs/formats.md, \
             refused by the thesis model (--strict)",
            check.boundary_total
        );
    }
    if legal && file.claimed.is_none() {
        println!("note: the solution states no metrics; the figures above are recomputed");
    }
    Ok(if legal { 0 } else { 1 })
}
