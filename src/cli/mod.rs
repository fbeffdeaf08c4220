//! The command line: clap definitions, file handling and printing. Each
//! subcommand reads its inputs, calls one library entry point, and writes its
//! outputs whole or not at all.

mod files;
mod simulate;

use std::path::PathBuf;
use std::time::Instant;

use clap::{Parser, Subcommand};

use crate::channel::analysis::{analyze, density, layer_bounds};
use crate::channel::mulch::{route_mulch, AssignOptions, CostFunction, Excess, SelectOptions};
use crate::channel::problem::ChannelProblem;
use crate::channel::router::{
    router_by_name, Effort, EffortLevel, RouteEvent, RouteOptions, ROUTER_NAMES,
};
use crate::channel::verify::{verify, VerifyReport};
use crate::error::{Error, Result};
use crate::report;

pub use files::{check_output_paths, read_text, write_all_or_nothing};

/// CAD for VLSI interconnect: channel routing, network layouts, fabric validation.
#[derive(Debug, Parser)]
#[command(name = "fabric", version, about, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Measure a channel: density, vertical constraints, crossings, lower bounds.
    #[command(after_help = "Examples:\n  \
        fabric analyze benchmarks/channels/dde.txt\n  \
        fabric analyze benchmarks/channels/burstein.txt --output burstein.yaml --svg burstein.svg")]
    Analyze(AnalyzeArgs),
    /// Route a channel, verify the result, and write it as YAML and SVG.
    #[command(after_help = "Examples:\n  \
        fabric route benchmarks/channels/dde.txt --layers 2 --output dde.yaml --svg dde.svg\n  \
        fabric route benchmarks/channels/yk_textbook12.txt")]
    Route(RouteArgs),
    /// Minimum separation of a single-layer (planar) channel, with the cut that decides it.
    #[command(after_help = "Example:\n  \
        fabric separation benchmarks/channels/yk_textbook12.txt || true\n  \
        (a channel whose nets cross cannot be routed in one layer: exit 1, naming two nets)")]
    Separation(SeparationArgs),
    /// Can a switchbox with fixed side terminals be routed in one layer? (thesis 7.1.2)
    #[command(after_help = "Example:\n  \
        fabric switchbox benchmarks/switchboxes/small.txt\n  \
        (exit 0 routable; exit 1 not, naming a crossing pair or an unsafe cut)")]
    Switchbox(SwitchboxArgs),
    /// Lay out a network on the grid (Thompson's model), verify and measure it.
    #[command(after_help = "Examples:\n  \
        fabric layout htree --size 64 --svg htree.svg\n  \
        fabric layout fat-tree --size 256 --capacity sqrt-over-lg -o ft.yaml\n  \
        fabric layout fat-tree --size 64 --capacity table:1,1,2,2,3,4,6")]
    Layout(LayoutArgs),
    /// Route message sets over a laid-out network: delivery cycles and bit-times against the load factor.
    #[command(after_help = "Examples:\n  \
        fabric simulate fat-tree --algorithm random --traffic permutation --size 256 --rate 1,4,16 --plot cycles.svg\n  \
        fabric simulate fat-tree --algorithm greedy --traffic greedy-adversary --size 1024 --rate 12,24\n  \
        fabric simulate fat-tree --algorithm butterfly-fat-tree --size 256 --delay linear -o bft.yaml")]
    Simulate(simulate::SimulateArgs),
    /// Check a layout file: the legality rules of FORMATS.md section 4 and its metrics.
    #[command(after_help = "Example:\n  \
        fabric layout htree --size 16 -o h.yaml && fabric verify-layout h.yaml")]
    VerifyLayout(VerifyLayoutArgs),
    /// Check a routed channel against its problem (the four legality rules and its metrics).
    #[command(after_help = "Example:\n  \
        fabric route benchmarks/channels/dde.txt --output dde.yaml && \
        fabric verify benchmarks/channels/dde.txt dde.yaml")]
    Verify(VerifyArgs),
}

#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// Channel file: classic text, YACR2 `column bottom top`, or YAML.
    pub file: PathBuf,
    /// Write the analysis as YAML.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Draw the channel (pins, net spans, density profile) as SVG.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Report width lower bounds for 1 to this many layers.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub max_layers: u32,
}

#[derive(Debug, clap::Args)]
pub struct RouteArgs {
    /// Channel file: classic text, YACR2 `column bottom top`, or YAML.
    pub file: PathBuf,
    /// Number of layers.
    #[arg(long, short, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub layers: u32,
    /// Layer model for routers that offer several per layer count: HV or VH
    /// (2 layers), HVH or VHV (3 layers). Default: HV for 2, HVH for 3.
    #[arg(long, value_parser = ["HV", "VH", "HVH", "VHV"])]
    pub model: Option<String>,
    /// Router to use. Default: `mulch` (any number of layers), or `yacr`
    /// when a --model is given.
    #[arg(long, short, value_parser = clap::builder::PossibleValuesParser::new(ROUTER_NAMES))]
    pub router: Option<String>,
    /// mulch: no single-layer B groups (Chameleon's partition only).
    #[arg(long)]
    pub no_b_layers: bool,
    /// mulch: also try one or two more B layers than the selection settles on,
    /// and keep the best routing (width, then net length, then vias).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=2))]
    pub extra_b_layers: u32,
    /// mulch: the group cost function (thesis 6.3.2): `basic`, or the
    /// thesis's `variant` with a penalty on density above the lower bound.
    #[arg(long, default_value = "basic", value_parser = ["basic", "variant"])]
    pub cost: String,
    /// mulch: the B-group crossing penalty counts the `unassigned` nets
    /// crossing the net, or `all` of them.
    #[arg(long, default_value = "unassigned", value_parser = ["unassigned", "all"])]
    pub excess: String,
    /// mulch: also solve the partition exactly (integer program, every
    /// configuration), report the smallest width any partition allows next
    /// to the heuristic's, and route the solver's best partition.
    #[arg(long)]
    pub exact: bool,
    /// mulch --exact: time limit of the integer programs, in seconds, shared
    /// by the configurations.
    #[arg(long, default_value_t = 10.0, requires = "exact")]
    pub time_limit: f64,
    /// yacr (and mulch's HV and HVH groups): how hard to search at a width
    /// before a track is added. `fast`: no jittered track assignments;
    /// `normal`: as many as a budget of 200,000 grid cells allows, at most
    /// 32; `thorough`: four times that budget, at most 128, and both piece
    /// variants routed at the final width, the one with fewer vias kept.
    #[arg(long, default_value = "normal", value_parser = ["fast", "normal", "thorough"])]
    pub effort: String,
    /// yacr (and mulch's HV and HVH groups): jittered track assignments
    /// tried at a width once the standard ones fail there (overrides the
    /// --effort level's count).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=4096))]
    pub starts: Option<u32>,
    /// Seed of the jittered assignments (same input and seed, same output).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write the routed channel as YAML (FORMATS.md section 3).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Draw the routed channel as SVG.
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct SeparationArgs {
    /// Channel file: classic text, YACR2 `column bottom top`, or YAML.
    pub file: PathBuf,
    /// Write the result as YAML.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct LayoutArgs {
    /// What to lay out: `htree` (complete binary tree), `fat-tree`,
    /// `butterfly-fat-tree` and `scalable-fat-tree` (constant-size
    /// switches), `tree-of-meshes` (H-tree style), `folded-tree-of-meshes`
    /// (2-D fold-and-squash), `tree-of-meshes-3d` (3-D fold-and-squash),
    /// `fat-pyramid` (butterfly fat-tree over H-tree blocks with a mesh at
    /// every level, laid out regularly) or `fat-tree-3d` (a fat-tree in a
    /// cube with thin gap slabs, a power of 8 processors).
    #[arg(value_parser = ["htree", "fat-tree", "butterfly-fat-tree", "scalable-fat-tree", "tree-of-meshes", "folded-tree-of-meshes", "tree-of-meshes-3d", "fat-pyramid", "fat-tree-3d"])]
    pub kind: String,
    /// Number of processors (leaves), a power of 4 (a power of 8 for
    /// `fat-tree-3d`); for trees of meshes the side n of the root mesh, a
    /// power of 2.
    #[arg(long, short = 'n', required_unless_present = "sweep")]
    pub size: Option<u64>,
    /// Lay out a range of sizes instead (4 .. 4^8 processors; 8 .. 8^6 for
    /// fat-tree-3d; root meshes 2 .. 64 for trees of meshes, full depth) and
    /// report how area and the longest wire grow: a YAML table with --output
    /// and a chart with --svg.
    #[arg(long, conflicts_with_all = ["size", "levels"])]
    pub sweep: bool,
    /// Trees of meshes: keep this many levels below the root (default the
    /// full tree, 2 lg n, or 3 lg n in 3-D; an odd count in H-tree style
    /// gives a layout (l+3)n/2 wide and (l+1)n/2 high).
    #[arg(long)]
    pub levels: Option<u32>,
    /// fat-tree channel capacity c(p) above p leaves: sqrt-over-lg
    /// (ceil(sqrt(p)/lg(A/alpha)), the default in 2-D), two-thirds-over-lg
    /// (ceil(p^(2/3)/lg n), the default for fat-tree-3d), sqrt, doubling,
    /// one, or table:c1,c2,... (values for p = 1, 2, 4, ...).
    #[arg(long)]
    pub capacity: Option<String>,
    /// Wires per unit of capacity: 1 (as in equation 4.1) or 2 (separate
    /// up and down wires).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=2))]
    pub omega: u64,
    /// Processor area alpha (box side ceil(sqrt(alpha)) at least).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub alpha: u64,
    /// fat-pyramid: parallel links between mesh neighbours (the thesis
    /// asks for a large enough constant; its routing argument uses 6).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub mesh_capacity: u32,
    /// Wire delay function for the delay figures: unit, linear, log, sqrt,
    /// or points `d:w,d:w,...`.
    #[arg(long, default_value = "unit")]
    pub delay: String,
    /// Write the layout as YAML (FORMATS.md section 4).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Draw the layout as SVG.
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct VerifyLayoutArgs {
    /// The layout (YAML).
    pub file: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct SwitchboxArgs {
    /// Switchbox file (docs/formats.md section 2).
    pub file: PathBuf,
    /// Write the result as YAML.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The channel problem.
    pub problem: PathBuf,
    /// The routed channel (YAML).
    pub solution: PathBuf,
    /// Also refuse wires running along the boundary (pin rows, side columns),
    /// as the thesis's channel model does; FORMATS.md alone allows them.
    #[arg(long)]
    pub strict: bool,
}

fn read_problem(path: &std::path::Path) -> Result<ChannelProblem> {
    let text = read_text(path)?;
    Ok(crate::io::parse_channel(
        &text,
        &path.display().to_string(),
    )?)
}

fn violations_text(report: &VerifyReport) -> String {
    let mut lines: Vec<String> = Vec::new();
    for (list, total) in [
        (&report.violations, report.total),
        (&report.boundary_runs, report.boundary_total),
    ] {
        lines.extend(list.iter().map(|v| format!("  {v}")));
        if total > list.len() {
            lines.push(format!("  ... and {} more", total - list.len()));
        }
    }
    lines.join("\n")
}

fn outputs_of<'a>(
    output: &'a Option<PathBuf>,
    svg: &'a Option<PathBuf>,
) -> Vec<&'a std::path::Path> {
    output.iter().chain(svg).map(PathBuf::as_path).collect()
}

/// Run a parsed command line; returns the exit code on success.
pub fn run(cli: Cli) -> Result<i32> {
    match cli.command {
        Command::Analyze(args) => {
            check_output_paths(&[&args.file], &outputs_of(&args.output, &args.svg))?;
            let problem = read_problem(&args.file)?;
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
        Command::Route(args) => {
            check_output_paths(&[&args.file], &outputs_of(&args.output, &args.svg))?;
            let problem = read_problem(&args.file)?;
            let name = args.router.clone().unwrap_or_else(|| {
                if args.model.is_some() {
                    "yacr"
                } else {
                    "mulch"
                }
                .to_string()
            });
            if name == "mulch" && args.model.is_some() {
                return Err(Error::Usage(
                    "--model applies to the yacr router; mulch chooses its own groups".into(),
                ));
            }
            let router = router_by_name(&name)
                .ok_or_else(|| Error::Usage(format!("unknown router {name}")))?;
            let effort = Effort {
                level: EffortLevel::parse(&args.effort).expect("clap checked the level"),
                starts: args.starts,
                seed: args.seed,
            };
            let options = RouteOptions {
                layers: args.layers,
                model: args.model.clone(),
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
            let routed = if name == "mulch" && args.model.is_none() {
                let select = SelectOptions {
                    assign: AssignOptions {
                        cost: if args.cost == "variant" {
                            CostFunction::Variant
                        } else {
                            CostFunction::Basic
                        },
                        excess: if args.excess == "all" {
                            Excess::All
                        } else {
                            Excess::Unassigned
                        },
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
            if !check.is_legal_strict() {
                return Err(Error::Failed(format!(
                    "the {} router produced an illegal routing of {} ({} violations); nothing was written:\n{}",
                    router.name(),
                    problem.name(),
                    check.total,
                    violations_text(&check)
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
        Command::Separation(args) => {
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
            let ext = crate::channel::switchbox::extend_floating_sides(&problem)
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
        Command::Layout(args) => run_layout(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::VerifyLayout(args) => {
            use crate::layout::{check, metrics};
            let text = read_text(&args.file)?;
            let file = crate::io::parse_layout(&text, &args.file.display().to_string())?;
            let verdict = check::check(&file.embedding);
            let m = metrics::measure(&file.embedding);
            let mut problems: Vec<String> =
                verdict.violations.iter().map(ToString::to_string).collect();
            if verdict.total > verdict.violations.len() {
                problems.push(format!(
                    "... and {} more",
                    verdict.total - verdict.violations.len()
                ));
            }
            if let Some(c) = &file.claimed {
                for (name, claimed, real) in [
                    ("width", c.width, m.width),
                    ("height", c.height, m.height),
                    ("area", c.area, m.area),
                    (
                        "total_wire_length",
                        c.total_wire_length,
                        m.total_wire_length,
                    ),
                    ("max_wire_length", c.max_wire_length, m.max_wire_length),
                ] {
                    if claimed != real {
                        problems.push(format!(
                            "metrics: {name} is {claimed}, but the layout has {real}"
                        ));
                    }
                }
            }
            // The network the layout realises against the one its
            // parameters describe, when the network is known.
            let realises = match crate::network::Network::intended(&file.embedding) {
                None => None,
                Some(Err(e)) => {
                    problems.push(format!("parameters: {e}"));
                    None
                }
                Some(Ok(want)) => {
                    match crate::network::Network::from_embedding(&file.embedding)
                        .and_then(|got| got.compare(&want))
                    {
                        Ok(()) => Some(want.name.clone()),
                        Err(e) => {
                            problems.push(format!("network: {e}"));
                            None
                        }
                    }
                }
            };
            if problems.is_empty() {
                if let Some(name) = &realises {
                    println!(
                        "realises the intended {name}: the same nodes, roles, levels and links as built from its parameters"
                    );
                }
                println!(
                    "legal: {} with {} nodes and {} edges, {}, wire length {} ({} at most), {} crossings",
                    file.embedding.network,
                    file.embedding.nodes.len(),
                    file.embedding.edges.len(),
                    if file.embedding.dimensions == 3 {
                        format!("{} x {} x {}, volume {}", m.width, m.height, m.depth, m.area)
                    } else {
                        format!("{} x {}, area {}", m.width, m.height, m.area)
                    },
                    m.total_wire_length,
                    m.max_wire_length,
                    verdict.crossings
                );
                Ok(0)
            } else {
                println!(
                    "illegal: {} problem(s) in {}",
                    problems.len(),
                    args.file.display()
                );
                for p in problems {
                    println!("  {p}");
                }
                Ok(1)
            }
        }
        Command::Switchbox(args) => {
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
        Command::Verify(args) => {
            let problem = read_problem(&args.problem)?;
            let text = read_text(&args.solution)?;
            let file = crate::io::parse_solution(&text, &args.solution.display().to_string())?;
            let check = verify(&problem, &file.solution, file.claimed.as_ref());
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
                if check.boundary_total > 0 {
                    println!(
                        "note: {} wire(s) run along the channel boundary: legal under FORMATS.md, \
                         refused by the thesis model (--strict)",
                        check.boundary_total
                    );
                }
                if file.claimed.is_none() {
                    println!(
                        "note: the solution states no metrics; the figures above are recomputed"
                    );
                }
                Ok(0)
            } else {
                println!(
                    "illegal: {} violation(s) in {}",
                    check.total + if args.strict { check.boundary_total } else { 0 },
                    args.solution.display()
                );
                println!("{}", violations_text(&check));
                Ok(1)
            }
        }
    }
}

/// One layout built, checked against the checker and its recurrence, and
/// measured: the embedding, its metrics and check, the recurrence side, its
/// closed form, and the closed-form longest wire.
/// A fat-pyramid's spec, tile pitch and tracks per band.
type PyramidFigures = (crate::layout::pyramid::PyramidSpec, (i64, i64), (i64, i64));

struct Built {
    embedding: crate::layout::Embedding,
    metrics: crate::layout::metrics::LayoutMetrics,
    crossings: u64,
    side: u64,
    /// The closed form's width (the side, unless the layout is not square).
    width: u64,
    /// Fat-pyramid: its spec, tile pitch and tracks per band.
    pyramid: Option<PyramidFigures>,
    closed: u64,
    /// The closed-form longest wire, for constructions that have one.
    formula_max_wire: Option<u64>,
    seconds: f64,
}

/// The capacity function asked for, or the kind's default.
fn capacity_name(args: &LayoutArgs) -> &str {
    args.capacity
        .as_deref()
        .unwrap_or(if args.kind == "fat-tree-3d" {
            "two-thirds-over-lg"
        } else {
            "sqrt-over-lg"
        })
}

fn fattree_capacity(args: &LayoutArgs) -> Result<crate::layout::fattree::Capacity> {
    crate::layout::fattree::Capacity::parse(capacity_name(args)).map_err(Error::Usage)
}

fn build_layout(args: &LayoutArgs, size: u64) -> Result<Built> {
    use crate::layout::{check, fattree, metrics, tree_of_meshes};
    let start = Instant::now();
    // Width when the layout is not square (the H-tree of 2·4^k leaves).
    let mut wide: Option<u64> = None;
    // 3-D fold-and-squash: bounds on the side and the longest wire.
    let mut three_d: Option<(u64, u64)> = None;
    // Fat-pyramid: bounds on width and height (the last bands' outer tracks
    // may go unused), and its figures.
    let mut pyramid: Option<(u64, u64)> = None;
    let mut pyramid_info = None;
    // H-trees of 2·4^k leaves (and sizes that are not powers of 2, which
    // `htree` refuses with the right message).
    let odd_htree =
        args.kind == "htree" && !(size.is_power_of_two() && size.trailing_zeros() % 2 == 0);
    let (embedding, side, closed, formula_max_wire) = if odd_htree {
        // Two H-trees of size / 2 leaves, turned towards a root between them.
        let e = fattree::htree(size).map_err(Error::Usage)?;
        let k = size.trailing_zeros() / 2;
        let s = (1u64 << (k + 1)) - 1;
        wide = Some(2 * s + 1);
        (e, s, (1u64 << (k + 1)) - 1, Some(1u64 << k))
    } else if args.kind == "scalable-fat-tree" {
        let capacity = fattree::Capacity::parse(capacity_name(args)).map_err(Error::Usage)?;
        let e =
            crate::layout::butterfly::scalable_fat_tree(size, &capacity).map_err(Error::Usage)?;
        let c =
            crate::layout::butterfly::scalable_capacities(size, &capacity).map_err(Error::Usage)?;
        // S_j = 2 S_{j-1} + 4 c_{j-1} + 1, S_0 = 1; closed form
        // 2^k + sum_j 2^(k-j) (4 c_{j-1} + 1).
        let k = c.len() - 1;
        let mut s = 1u64;
        let mut closed = 1u64 << k;
        for j in 1..=k {
            s = 2 * s + 4 * c[j - 1] + 1;
            closed += (1u64 << (k - j)) * (4 * c[j - 1] + 1);
        }
        (e, s, closed, None)
    } else if args.kind == "butterfly-fat-tree" {
        let e = crate::layout::butterfly::butterfly_fat_tree(size).map_err(Error::Usage)?;
        let k = size.trailing_zeros() / 2;
        let s = *crate::layout::butterfly::sides(k)
            .last()
            .expect("k + 1 sides");
        (e, s, crate::layout::butterfly::closed_form_side(k), None)
    } else if args.kind == "folded-tree-of-meshes" {
        let full = 2 * size.trailing_zeros();
        let e = crate::layout::folded::fold_and_squash_2d(size, args.levels.unwrap_or(full))
            .map_err(Error::Usage)?;
        let l = args.levels.unwrap_or(full);
        let (w, h) = crate::layout::folded::extent_2d(size, l);
        if w != h {
            wide = Some(w);
        }
        (e, h, h, Some(crate::layout::folded::max_wire_2d(l)))
    } else if args.kind == "fat-pyramid" {
        let spec = crate::layout::pyramid::PyramidSpec {
            mesh_capacity: args.mesh_capacity,
            ..crate::layout::pyramid::PyramidSpec::new(size).map_err(Error::Usage)?
        };
        let p = crate::layout::pyramid::fat_pyramid(&spec).map_err(Error::Usage)?;
        let tiles = 1u64 << spec.k();
        let (w, h) = (tiles * p.pitch.0 as u64, tiles * p.pitch.1 as u64);
        pyramid = Some((w, h));
        pyramid_info = Some((spec, p.pitch, p.tracks));
        wide = Some(w);
        (p.embedding, h, h, None)
    } else if args.kind == "fat-tree-3d" {
        if args.alpha != 1 {
            return Err(Error::Usage(
                "--alpha applies to 2-D fat-trees; fat-tree-3d has unit processors".into(),
            ));
        }
        let capacity = fattree::Capacity::parse(capacity_name(args)).map_err(Error::Usage)?;
        let spec = crate::layout::fattree3d::FatTree3dSpec {
            processors: size,
            capacity,
            omega: args.omega,
        };
        let (e, plan) = crate::layout::fattree3d::fat_tree_3d(&spec).map_err(Error::Usage)?;
        let k = plan.sides.len() - 1;
        // Closed form of S_j = 2 S_(j-1) + h_j: 2^k s0 + sum 2^(k-j) h_j.
        let closed = (plan.sides[0] << k) + (1..=k).map(|j| plan.gaps[j] << (k - j)).sum::<u64>();
        let side = *plan.sides.last().expect("k + 1 sides");
        (
            e,
            side,
            closed,
            Some(crate::layout::fattree3d::longest_wire(&plan)),
        )
    } else if args.kind == "tree-of-meshes-3d" {
        let full = 3 * size.trailing_zeros();
        let l = args.levels.unwrap_or(full);
        let e = crate::layout::folded::fold_and_squash_3d(size, l).map_err(Error::Usage)?;
        let q = crate::layout::folded::cubie(l).0 as u64;
        // Bounds, not exact: the extreme auxiliary planes may go unused.
        three_d = Some((4 * size * q, 8 * q - 4));
        (e, 4 * size * q, 4 * size * q, None)
    } else if args.kind == "tree-of-meshes" {
        let e = tree_of_meshes::tree_of_meshes(size, args.levels).map_err(Error::Usage)?;
        let l: u32 = e.parameters["levels"]
            .parse()
            .expect("written by the builder");
        let (w, h) = tree_of_meshes::extent(size, l);
        let longest = if l % 2 == 1 {
            // Odd: the widest quadrant band sets it.
            if l == 1 {
                1
            } else {
                size * (l as u64 - 1) / 8 + 1
            }
        } else if l >= 4 {
            tree_of_meshes::side(size / 4, l - 4) + 1
        } else {
            1
        };
        let closed = if l % 2 == 1 {
            size * (l as u64 + 1) / 2
        } else {
            size * (l as u64 / 2 + 1)
        };
        if w != h {
            wide = Some(w);
        }
        (e, h, closed, Some(longest))
    } else {
        let capacity = if args.kind == "htree" {
            if !matches!(
                args.capacity.as_deref(),
                None | Some("sqrt-over-lg") | Some("one")
            ) {
                return Err(Error::Usage(
                    "an htree has capacity 1; use `fat-tree` for --capacity".into(),
                ));
            }
            fattree::Capacity::One
        } else {
            fattree::Capacity::parse(capacity_name(args)).map_err(Error::Usage)?
        };
        let spec = fattree::FatTreeSpec {
            processors: size,
            capacity,
            omega: args.omega,
            alpha: args.alpha,
        };
        let (e, rec) = fattree::fat_tree(&spec).map_err(Error::Usage)?;
        let k = rec.sides.len() - 1;
        // Bundle wires of F_j are S_{j-2} + 1 long; at j = 1 the half-node
        // to root wires are s1 - t(1) + 1.
        let mut longest = if k >= 1 {
            (rec.leaf_side - rec.tracks[0] + 1).max(1)
        } else {
            0
        };
        if k >= 2 {
            longest = longest.max(rec.sides[k - 2] + 1);
        }
        (
            e,
            *rec.sides.last().expect("k + 1 sides"),
            fattree::closed_form_side(&rec),
            Some(longest),
        )
    };
    let verdict = check::check(&embedding);
    if !verdict.is_legal() {
        return Err(Error::Failed(format!(
            "the {} construction produced an illegal layout ({} violations); nothing was written:\n  {}",
            args.kind,
            verdict.total,
            verdict
                .violations
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n  ")
        )));
    }
    let m = metrics::measure(&embedding);
    if let Some((w, h)) = pyramid {
        if m.width > w || m.height > h {
            return Err(Error::Failed(format!(
                "the layout is {} x {}, beyond its tiles' {w} x {h}",
                m.width, m.height
            )));
        }
    } else if let Some((bound, wire)) = three_d {
        if m.width.max(m.height).max(m.depth) > bound || m.max_wire_length > wire {
            return Err(Error::Failed(format!(
                "the layout is {} x {} x {} with wires up to {} long, beyond the bounds 4nq = {bound} and 8q - 4 = {wire}",
                m.width, m.height, m.depth, m.max_wire_length
            )));
        }
    } else if m.width != wide.unwrap_or(side)
        || m.height != side
        || (embedding.dimensions == 3 && m.depth != side)
        || closed != side
        || formula_max_wire.is_some_and(|w| w != m.max_wire_length)
    {
        return Err(Error::Failed(format!(
            "the layout is {} x {} with wires up to {} long, but the recurrence gives side {side} (closed form {closed}) and wires up to {formula_max_wire:?}",
            m.width, m.height, m.max_wire_length
        )));
    }
    if let Some(Ok(want)) = crate::network::Network::intended(&embedding) {
        crate::network::Network::from_embedding(&embedding)
            .and_then(|got| got.compare(&want))
            .map_err(|e| Error::Failed(format!("the layout does not realise its network: {e}")))?;
    }
    Ok(Built {
        embedding,
        metrics: m,
        crossings: verdict.crossings,
        side,
        width: wide.unwrap_or(side),
        pyramid: pyramid_info,
        closed,
        formula_max_wire,
        seconds: start.elapsed().as_secs_f64(),
    })
}

fn run_layout(args: &LayoutArgs) -> Result<i32> {
    use crate::layout::{metrics, sweep};
    check_output_paths(&[], &outputs_of(&args.output, &args.svg))?;
    if args.levels.is_some() && !args.kind.contains("tree-of-meshes") {
        return Err(Error::Usage("--levels applies to trees of meshes".into()));
    }
    if args.mesh_capacity != 1 && args.kind != "fat-pyramid" {
        return Err(Error::Usage(
            "--mesh-capacity applies to the fat-pyramid".into(),
        ));
    }
    let delay = metrics::Delay::parse(&args.delay).map_err(Error::Usage)?;
    if args.sweep {
        let sizes: Vec<u64> = if args.kind == "fat-tree-3d" {
            (1..=6).map(|k| 8u64.pow(k)).collect()
        } else if args.kind == "fat-pyramid" {
            (2..=9).map(|k| 4u64.pow(k)).collect()
        } else if args.kind == "tree-of-meshes-3d" {
            // The checker's raster needs about 25 bytes per point: n = 16
            // (256^3 points) is the largest that fits well within 2 GB.
            (1..=4).map(|k| 1u64 << k).collect()
        } else if args.kind.contains("tree-of-meshes") {
            (1..=6).map(|k| 1u64 << k).collect()
        } else {
            (1..=8).map(|k| 4u64.pow(k)).collect()
        };
        let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
        let mut rows = Vec::new();
        for &n in &sizes {
            if tty {
                eprint!("\r{} {n}   ", args.kind);
            }
            let b = build_layout(args, n)?;
            rows.push(sweep::SweepRow {
                n,
                side: b.metrics.width,
                area: b.metrics.area,
                total_wire_length: b.metrics.total_wire_length,
                max_wire_length: b.metrics.max_wire_length,
                recurrence_side: b.side,
                formula_area: if args.kind.ends_with("-3d") {
                    b.side.pow(3)
                } else {
                    b.side * b.width
                },
                formula_max_wire: b.formula_max_wire,
                nodes: b.embedding.nodes.len(),
                edges: b.embedding.edges.len(),
                crossings: b.crossings,
                seconds: b.seconds,
            });
        }
        if tty {
            eprint!("\r\x1b[K");
        }
        let x_name = if args.kind.contains("tree-of-meshes") {
            "n (root mesh side)"
        } else {
            "n (processors)"
        };
        let exponent = |f: &dyn Fn(&sweep::SweepRow) -> u64| {
            sweep::fitted_exponent(
                &rows
                    .iter()
                    .map(|r| (r.n as f64, f(r) as f64))
                    .collect::<Vec<_>>(),
            )
        };
        let area_exp = exponent(&|r| r.area);
        let wire_exp = exponent(&|r| r.max_wire_length);
        let title = format!(
            "{} ({}): area and longest wire against n",
            args.kind,
            if args.kind.starts_with("fat-tree") {
                format!("capacity {}, omega {}", capacity_name(args), args.omega)
            } else {
                "full".to_string()
            }
        );
        let mut outputs = Vec::new();
        if let Some(path) = &args.output {
            outputs.push((
                path.clone(),
                report::yaml::sweep_yaml(&args.kind, &rows, area_exp, wire_exp),
            ));
        }
        if let Some(path) = &args.svg {
            let chart = report::chart::sweep_chart(&title, x_name, &rows).map_err(Error::Failed)?;
            outputs.push((path.clone(), chart));
        }
        write_all_or_nothing(&outputs)?;
        println!("{title}");
        println!(
            "  {:>8} {:>7} {:>12} {:>12} {:>9} {:>9}",
            "n", "side", "area", "wire total", "wire max", "time"
        );
        for r in &rows {
            println!(
                "  {:>8} {:>7} {:>12} {:>12} {:>9} {:>7.1}ms",
                r.n,
                r.side,
                r.area,
                r.total_wire_length,
                r.max_wire_length,
                r.seconds * 1e3
            );
        }
        let show = |e: Option<f64>| e.map_or("-".to_string(), |e| format!("{e:.3}"));
        println!(
            "  fitted exponents: area ~ n^{}, longest wire ~ n^{}; every size verified legal, side = recurrence (within the bounds for tree-of-meshes-3d and fat-pyramid)",
            show(area_exp),
            show(wire_exp)
        );
        return Ok(0);
    }
    let size = args.size.expect("clap requires --size without --sweep");
    let b = build_layout(args, size)?;
    let (embedding, m) = (&b.embedding, &b.metrics);
    let mut outputs = Vec::new();
    if let Some(path) = &args.output {
        outputs.push((
            path.clone(),
            report::yaml::layout_yaml(embedding, m, Some((b.side, b.closed))),
        ));
    }
    if let Some(path) = &args.svg {
        let svg = if embedding.dimensions == 3 {
            report::svg::layout_svg_3d(embedding, m).ok_or_else(|| {
                Error::Usage(format!(
                    "a 3-D layout is drawn with at most {} planes and {} nodes and edges; drop --svg or lay out a smaller one",
                    report::svg::LAYOUT_SVG_PLANES,
                    report::svg::LAYOUT_SVG_LIMIT
                ))
            })?
        } else {
            report::svg::layout_svg(embedding, m).ok_or_else(|| {
                Error::Usage(format!(
                    "{} nodes and edges are too many to draw (at most {}); drop --svg or lay out fewer processors",
                    embedding.nodes.len() + embedding.edges.len(),
                    report::svg::LAYOUT_SVG_LIMIT
                ))
            })?
        };
        outputs.push((path.clone(), svg));
    }
    write_all_or_nothing(&outputs)?;
    let params: Vec<String> = embedding
        .parameters
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    if embedding.dimensions == 3 {
        println!(
            "{} ({}): {} x {} x {}, volume {}",
            embedding.network,
            params.join(", "),
            m.width,
            m.height,
            m.depth,
            m.area
        );
    } else {
        println!(
            "{} ({}): {} x {}, area {}",
            embedding.network,
            params.join(", "),
            m.width,
            m.height,
            m.area
        );
    }
    if args.kind == "fat-pyramid" {
        use crate::layout::pyramid;
        let (spec, pitch, tracks) = b.pyramid.expect("set for fat-pyramid");
        let lg_a = (size as f64).log2();
        println!(
            "  {} blocks of {} processors (H-trees) under {} butterfly levels; tiles {} x {} ({} vertical and {} horizontal tracks per band); verified legal ({} crossings), realises its network; {:.3} ms",
            spec.blocks(),
            spec.block(),
            spec.k(),
            pitch.0,
            pitch.1,
            tracks.0,
            tracks.1,
            b.crossings,
            b.seconds * 1e3
        );
        println!(
            "  area / A = {:.2} (A = n = {size}, unit processors)",
            m.area as f64 / size as f64
        );
        for (h, tree, mesh) in pyramid::level_wires(embedding, spec) {
            let unit = (1u64 << h) as f64 * lg_a;
            println!(
                "  level {h}: longest tree wire {tree} ({:.2} 2^h lg A), mesh wire {mesh} ({:.2} 2^h lg A)",
                tree as f64 / unit,
                mesh as f64 / unit
            );
        }
        for (name, w) in [
            ("unit", crate::layout::metrics::Delay::Unit),
            ("log", crate::layout::metrics::Delay::Logarithmic),
            ("sqrt", crate::layout::metrics::Delay::SquareRoot),
            ("linear", crate::layout::metrics::Delay::Linear),
        ]
        .into_iter()
        .chain(
            (!matches!(
                args.delay.as_str(),
                "unit" | "log" | "logarithmic" | "sqrt" | "linear"
            ))
            .then(|| {
                (
                    args.delay.as_str(),
                    crate::layout::metrics::Delay::parse(&args.delay).expect("checked"),
                )
            }),
        ) {
            let dd = pyramid::delta_delta(embedding, spec, &w);
            println!(
                "  wire delay w = {name}: delivery-cycle change / competitor's change (Delta delta) at most {:.2} (at d = {}); the thesis's w(d + lg A) lg d / (w(d) lg A) at most {:.2}",
                dd.max, dd.at, dd.thesis_max
            );
        }
        let survey = pyramid::survey(embedding, spec, 0);
        println!(
            "  Theorem 18 over {} pairs of a competing mesh of area A: max path / (d + lg A) = {:.2} (best parents), {:.2} (worst parents)",
            survey.pairs, survey.max_best, survey.max_worst
        );
        if let Some(w) = survey.worst {
            println!(
                "    worst pair ({}, {}) -> ({}, {}): d = {}, path {} (turns at level {})",
                w.from.0, w.from.1, w.to.0, w.to.1, w.d, w.worst, w.level
            );
        }
    } else if args.kind == "fat-tree-3d" {
        let spec = crate::layout::fattree3d::FatTree3dSpec {
            processors: size,
            capacity: fattree_capacity(args)?,
            omega: args.omega,
        };
        let plan = spec.plan().map_err(Error::Usage)?;
        let n = size as f64;
        // Root capacity c(n), without omega's up/down doubling.
        let w = (*plan.tracks.last().expect("tracks") / args.omega) as f64;
        let thm26 = n.max((w * w.max(2.0).log2()).powf(1.5));
        println!(
            "  side {} = recurrence S_j = 2 S_(j-1) + h_j = closed form {}; gaps h_j {:?}, root bands {:?}; verified legal ({} crossings), realises its network; {:.3} ms",
            b.side,
            b.closed,
            &plan.gaps[1..],
            &plan.bands[1..],
            b.crossings,
            b.seconds * 1e3
        );
        println!(
            "  volume / V = {:.3} (V = n = {size}); Theorem 26: volume / max(V, (w lg w)^(3/2)) = {:.3} with root capacity w = {w}; longest wire / V^(1/3) = {:.3}",
            m.area as f64 / n,
            m.area as f64 / thm26,
            m.max_wire_length as f64 / n.cbrt()
        );
    } else if args.kind == "tree-of-meshes-3d" {
        let l: u32 = embedding.parameters["levels"].parse().expect("written");
        let q = crate::layout::folded::cubie(l).0;
        let n = size as f64;
        println!(
            "  side at most 4 n q = {} (cubie side q = {q}); verified legal ({} crossings), realises its network; {:.3} ms",
            b.side,
            b.crossings,
            b.seconds * 1e3
        );
        println!(
            "  volume / (n^3 l^(3/2)) = {:.3}; longest wire / l^(1/2) = {:.3} (at most 8q - 4 = {})",
            m.area as f64 / (n * n * n * (l.max(1) as f64).powf(1.5)),
            m.max_wire_length as f64 / (l.max(1) as f64).sqrt(),
            8 * q - 4
        );
    } else {
        let recurrence = if args.kind == "tree-of-meshes" {
            "S(m, r) = 2 S(m/2, r-2) + m (height); closed form n (l/2 + 1), n (l+1)/2 for odd l"
        } else if args.kind == "folded-tree-of-meshes" {
            "2 n (l + 1) (height; odd l: (2nm + 1) x (2nm - 1)); closed form"
        } else if args.kind == "butterfly-fat-tree" {
            "S_j = 2 S_(j-1) + 2^(j+1) + 1; closed form 2^(k+1) (k+1) - 1 ="
        } else if args.kind == "scalable-fat-tree" {
            "S_j = 2 S_(j-1) + 4 c(4^(j-1)) + 1; closed form"
        } else {
            "S(n) = 2 S(n/4) + t(n); closed form"
        };
        println!(
            "  side {} = recurrence {recurrence} {}; verified legal ({} crossings), realises its network; {:.3} ms",
            b.side,
            b.closed,
            b.crossings,
            b.seconds * 1e3
        );
        if args.kind == "folded-tree-of-meshes" {
            let l: u32 = embedding.parameters["levels"].parse().expect("written");
            let n = size as f64;
            println!(
                "  area / (n^2 (l+1)^2) = {:.3} (4 for even l); longest wire {} = max(2 (l + 1), 6), independent of n",
                m.area as f64 / (n * n * ((l + 1) as f64).powi(2)),
                m.max_wire_length
            );
        }
    }
    println!(
        "  {} nodes, {} wires; wire length {} in all, {} at most{}",
        embedding.nodes.len(),
        embedding.edges.len(),
        m.total_wire_length,
        m.max_wire_length,
        b.formula_max_wire
            .map_or(String::new(), |w| format!(" (closed form {w})"))
    );
    for (level, w) in &m.per_level {
        println!(
            "  level {level:>2}: {:>8} wires, length {} each at most, delay {:.3} at most ({})",
            w.edges,
            w.max,
            delay.of(w.max),
            args.delay
        );
    }
    // The thesis's conditions on w(d) (chapter 4): the worst ratio of
    // w(d+x)/w(d) to its bound over d >= 4.
    let verdict = |c: metrics::Condition| {
        let r = delay.condition_ratio(4, c);
        if r <= 1.0 + 1e-6 {
            format!("holds (worst ratio {r:.3})")
        } else {
            format!("fails (worst ratio {r:.3} > 1)")
        }
    };
    println!(
        "  delay {} (for d >= 4): C1 w(d+x)/w(d) <= 1 + x/lg d {}; C2 <= 1 + x/d {}",
        args.delay,
        verdict(metrics::Condition::C1),
        verdict(metrics::Condition::C2)
    );
    Ok(0)
}
