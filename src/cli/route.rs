//! `fabric route`: the arguments checked into a [`RouteJob`] (the problem
//! read, the router and its options settled, the limits checked), then the
//! routing with progress on a terminal, the verifier on every routing, the
//! outputs and the summary.

use std::path::PathBuf;
use std::time::Instant;

use super::physical::PhysicalPlan;
use super::{check_output_paths, outputs_with_html, read_problem, violations_text};
use super::{write_contents_all_or_nothing, BoundaryRule, Contents, RouteArgs};
use crate::channel::analysis::{density, layer_bounds};
use crate::channel::problem::ChannelProblem;
use crate::channel::registry::RouterKind;
use crate::channel::router::{Directions, Effort, RouteEvent, RouteOptions, Rules};
use crate::channel::routers::mulch::{route_mulch, AssignOptions, MulchResult, SelectOptions};
use crate::channel::solution::{ChannelSolution, Metrics};
use crate::channel::verify::verify;
use crate::error::{ChannelFailure, Error, Result};
use crate::report;

/// MulCh's part of a job: the selection loop's options and whether the
/// partition is also solved exactly.
struct MulchPlan {
    select: SelectOptions,
    exact: Exact,
}

/// Whether MulCh also solves the partition exactly (`--exact`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Exact {
    /// Solve the integer programs within this many seconds in all.
    Solve {
        /// The shared time limit, in seconds.
        time_limit: f64,
    },
    /// The heuristic's partition only.
    Skip,
}

/// Everything `fabric route` runs, checked.
pub(super) struct RouteJob {
    problem: ChannelProblem,
    kind: RouterKind,
    options: RouteOptions,
    /// `Some` for the mulch router.
    mulch: Option<MulchPlan>,
    output: Option<PathBuf>,
    format: crate::report::model::Format,
    svg: Option<PathBuf>,
    /// The columns the SVG draws (`--columns`), checked against the
    /// channel.
    columns: Option<crate::report::svg::ColumnWindow>,
    html: Option<PathBuf>,
    /// GDSII, OASIS, DEF and LEF.
    physical: PhysicalPlan,
}

impl RouteJob {
    /// Check the output paths, read the problem, settle the router (yacr
    /// when only a --model is given, else mulch; mulch refuses a --model)
    /// and check the problem against the limits.
    pub fn from_args(args: RouteArgs) -> Result<RouteJob> {
        let physical = PhysicalPlan::new(&args.physical, Some(&args.def))?;
        let mut outputs = outputs_with_html(&args.output, &args.svg, &args.html);
        outputs.extend(physical.paths());
        check_output_paths(&[&args.file], &outputs)?;
        args.format.check::<report::model::RouteReport>()?;
        let problem = read_problem(&args.file)?;
        let kind = args.router.unwrap_or(if args.model.is_some() {
            RouterKind::Yacr
        } else {
            RouterKind::Mulch
        });
        if let (Some(layers), Some(model)) = (args.layers, args.model) {
            if layers != model.layers() {
                return Err(Error::Usage(format!(
                    "--model {} routes in {} layers, but --layers {layers} was given: \
                     drop --layers (the model sets it) or choose a {layers}-layer model",
                    model.name(),
                    model.layers()
                )));
            }
        }
        if kind == RouterKind::Mulch && args.model.is_some() {
            return Err(Error::Usage(
                "--model applies to the yacr router; mulch chooses its own groups".into(),
            ));
        }
        let columns = args
            .columns
            .map(|w| w.within(problem.columns()))
            .transpose()
            .map_err(|e| Error::Usage(format!("--columns: {e}; nothing was routed")))?;
        let directions = args.directions();
        if directions == Directions::Reserved
            && !matches!(
                kind,
                RouterKind::Yacr | RouterKind::Mulch | RouterKind::Greedy
            )
        {
            return Err(Error::Usage(format!(
                "--reserved applies to the yacr, mulch and greedy routers, not {}; \
                 nothing was routed",
                kind.name()
            )));
        }
        crate::limits::check_channel(&problem, Some(args.layer_count()))?;
        physical.check_planes(args.layer_count(), false)?;
        let effort = Effort {
            level: args.effort,
            starts: args.starts,
            seed: args.seed,
        };
        let mulch = (kind == RouterKind::Mulch).then_some(MulchPlan {
            select: SelectOptions {
                assign: AssignOptions {
                    cost: args.cost,
                    excess: args.excess,
                },
                no_b_layers: args.no_b_layers,
                extra: args.extra_b_layers,
                rules: Rules { effort, directions },
            },
            exact: if args.exact {
                Exact::Solve {
                    time_limit: args.time_limit,
                }
            } else {
                Exact::Skip
            },
        });
        Ok(RouteJob {
            problem,
            kind,
            options: RouteOptions {
                layers: args.layer_count(),
                model: args.model,
                effort,
                directions,
            },
            mulch,
            output: args.output,
            format: args.format.format,
            svg: args.svg,
            columns,
            html: args.html,
            physical,
        })
    }
}

/// A verified routing and how it was found.
struct Routed {
    solution: ChannelSolution,
    metrics: Metrics,
    /// MulCh's report (with the exact partition's), for the mulch router.
    mulch: Option<MulchResult>,
    seconds: f64,
}

/// `fabric route`.
pub(super) fn run_route(args: RouteArgs) -> Result<i32> {
    let job = RouteJob::from_args(args)?;
    let router_name = job.kind.router().name();
    let (solution, mulch, seconds) = route(&job)?;
    let metrics = verified(&job, &solution, router_name)?;
    let routed = Routed {
        solution,
        metrics,
        mulch,
        seconds,
    };
    let physical_lines = write_outputs(&job, &routed)?;
    print_summary(&job, &routed, router_name);
    for line in physical_lines {
        println!("{line}");
    }
    Ok(0)
}

/// Route the channel, with progress on stderr when it is a terminal; MulCh
/// then solves the partition exactly when asked.
fn route(job: &RouteJob) -> Result<(ChannelSolution, Option<MulchResult>, f64)> {
    let problem = &job.problem;
    let start = Instant::now();
    let spinner = crate::cli::progress::Progress::spinner(problem.name().to_string());
    let mut observer = |event: RouteEvent| {
        let RouteEvent::Trying { width, method } = event;
        spinner.message(format!("trying {width} tracks ({method})"));
    };
    let mut mulch = None;
    let routed = match &job.mulch {
        Some(plan) => {
            route_mulch(problem, job.options.layers, plan.select, &mut observer).map(|r| {
                let s = r.solution.clone();
                mulch = Some(r);
                s
            })
        }
        None => job
            .kind
            .router()
            .route_observed(problem, &job.options, &mut observer),
    };
    if let (Some(Exact::Solve { time_limit }), Some(r)) =
        (job.mulch.as_ref().map(|p| p.exact), mulch.as_mut())
    {
        spinner.message(format!("integer programs ({time_limit} s at most)"));
        r.add_exact(problem, time_limit, &mut observer)?;
    }
    let routed = match (&mulch, routed) {
        (Some(r), Ok(_)) => Ok(r.solution.clone()),
        (_, routed) => routed,
    };
    drop(spinner);
    let solution = routed?;
    Ok((solution, mulch, start.elapsed().as_secs_f64()))
}

/// The routing's metrics once the verifier passes it (strictly: no wires
/// along the boundary either); nothing is written otherwise.
fn verified(
    job: &RouteJob,
    solution: &ChannelSolution,
    router_name: &'static str,
) -> Result<Metrics> {
    let problem = &job.problem;
    let metrics = solution.metrics(density(problem));
    let check = verify(problem, solution, Some(&metrics));
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
                router_name
            ),
            count: crate::channel::verify::grid_points(c, w, l),
            limit: crate::channel::verify::MAX_POINTS,
            unit: "grid points",
            why: "the verifier checks every routing point by point, so nothing was written",
        }));
    }
    if !check.is_legal_strict() {
        return Err(Error::from(ChannelFailure::Illegal {
            router: router_name,
            channel: problem.name().to_string(),
            total: check.total,
            violations: violations_text(&check, BoundaryRule::Refused),
        }));
    }
    let against = solution.against_direction();
    if job.options.directions == Directions::Reserved && against.total() > 0 {
        return Err(Error::from(ChannelFailure::AgainstDirection {
            router: router_name,
            channel: problem.name().to_string(),
            against,
        }));
    }
    Ok(metrics)
}

/// The report (with MulCh's section and the exact partition's), the SVG,
/// the HTML viewer and the physical outputs; the physical outputs'
/// summary lines.
fn write_outputs(job: &RouteJob, r: &Routed) -> Result<Vec<String>> {
    let mut outputs: Vec<(PathBuf, Contents<'_>)> = Vec::new();
    if let Some(path) = &job.output {
        let time_limit = match job.mulch.as_ref().map(|p| p.exact) {
            Some(Exact::Solve { time_limit }) => Some(time_limit),
            _ => None,
        };
        let report =
            report::model::RouteReport::new(&r.solution, &r.metrics, r.mulch.as_ref(), time_limit);
        let text = report::model::render(&report, job.format)?;
        outputs.push((path.clone(), Contents::Text(text)));
    }
    if let Some(path) = &job.svg {
        outputs.push((
            path.clone(),
            Contents::Text(report::svg::solution_svg(
                &job.problem,
                &r.solution,
                &r.metrics,
                job.columns,
            )),
        ));
    }
    if let Some(path) = &job.html {
        let summary = crate::view::channel_summary(
            &r.solution,
            &r.metrics,
            Some(job.kind.router().name()),
            Some(width_bound(job, &r.solution)),
            Some(r.seconds),
        );
        let page = crate::view::channel_html(Some(&job.problem), &r.solution, &summary)
            .map_err(|e| Error::Usage(format!("--html: {e}")))?;
        outputs.push((path.clone(), Contents::Text(page)));
    }
    let (physical, lines) = job.physical.channel_outputs(&job.problem, &r.solution)?;
    outputs.extend(physical);
    write_contents_all_or_nothing(outputs)?;
    Ok(lines)
}

/// The lower bound on the width for the layer model the router used, else
/// for any model of the layer count.
fn width_bound(job: &RouteJob, solution: &ChannelSolution) -> u32 {
    let d = density(&job.problem);
    match solution.horizontal_layers() {
        0 => layer_bounds(d, job.options.layers).width_lower_bound,
        h => d.div_ceil(h),
    }
}

/// The summary on stdout: the routing's figures against the bound of the
/// layer model the router used (else of any model), then MulCh's.
fn print_summary(job: &RouteJob, r: &Routed, router_name: &str) {
    let layers = job.options.layers;
    let bound = width_bound(job, &r.solution);
    print!(
        "{}",
        report::table::route_summary(
            job.problem.name(),
            router_name,
            layers,
            &r.metrics,
            bound,
            r.seconds
        )
    );
    let classic = r.solution.classic_via_count();
    if classic != r.metrics.vias {
        println!("  vias in the classic convention (pins on the vertical layer): {classic}");
    }
    let against = r.solution.against_direction();
    if against.per_layer.is_empty() {
        // No layer has a preferred direction (one layer).
    } else if job.options.directions == Directions::Reserved {
        println!("  against direction: none (--reserved: strict reserved-layer routing)");
    } else if against.total() == 0 {
        println!("  against direction: none (every wire runs in its layer's direction)");
    } else {
        println!(
            "  against direction: {} unit edge(s) ({}); `fabric verify --reserved` refuses them",
            against.total(),
            against.per_layer_text()
        );
    }
    if let Some(m) = &r.mulch {
        print!("{}", report::table::mulch_summary(m));
    }
    if let Some((e, routed)) = r.mulch.as_ref().and_then(|m| m.exact.as_ref()) {
        print!("{}", report::table::exact_summary(e, routed.as_ref()));
    }
}
