//! The command line: clap definitions, file handling and printing. Each
//! subcommand reads its inputs, calls one library entry point, and writes its
//! outputs whole or not at all. The definitions and the dispatch are here;
//! the subcommands live in `channel` (analyze, separation, switchbox,
//! verify), `route`, `layout` (layout, verify-layout; one layout built in
//! `build`) and `simulate`; `files` writes outputs whole or not at all.
//! `route` and `simulate` first turn their arguments into a checked job
//! (every cross-flag and limit check before any long work), then run it.

#![warn(missing_docs)]

mod build;
mod channel;
mod export;
mod files;
mod format;
mod fsm;
mod layout;
mod layout_report;
mod physical;
pub mod progress;
mod route;
mod shell;
mod simulate;
mod universality;
mod values;
mod view;

use std::path::PathBuf;
use std::time::Instant;

use clap::{Parser, Subcommand};
use values::{parse_gib, parse_seconds};

pub use format::FormatArgs;

use crate::channel::analysis::analyze;
use crate::channel::layer_model::{Directions, LayerModel};
use crate::channel::problem::ChannelProblem;
use crate::channel::registry::RouterKind;
use crate::channel::router::EffortLevel;
use crate::channel::routers::mulch::{CostFunction, Excess};
use crate::channel::verify::{verify, VerifyReport};
use crate::error::{Error, Result};
use crate::report;

pub use files::{
    check_output_paths, read_text, write_all_or_nothing, write_contents_all_or_nothing, Contents,
};
pub use layout::{layout_file_text, verify_layout_text, LayoutVerdict};
pub use layout_report::{csv_paths, parse_layout_at, read_layout, INLINE_EDGE_LIMIT};
pub use physical::{DefArgs, PhysicalArgs};

/// CAD for VLSI interconnect: channel routing, network layouts, fabric validation.
#[derive(Debug, Parser)]
#[command(name = "fabric", version, about, max_term_width = 100)]
pub struct Cli {
    /// The subcommand to run.
    #[command(subcommand)]
    pub command: Command,
    /// Memory budget in GiB: jobs whose estimate is over it are refused
    /// before they start (exit 2; docs/limits.md)
    #[arg(long, global = true, value_name = "GIB", default_value_t = 16.0, value_parser = parse_gib)]
    pub memory: f64,
    /// Threads for all parallel work, at most 1024 [default: the machine's
    /// cores]; the results are the same for any count
    #[arg(long, short = 'j', global = true, value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
    pub threads: Option<u16>,
    /// No progress lines (they are shown only on a terminal anyway)
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// When to colour help and error messages
    #[arg(long, global = true, value_enum, default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
}

/// When to colour the terminal output (`--color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// On a terminal only.
    Auto,
    /// Always, even in a pipe.
    Always,
    /// Never.
    Never,
}

impl ColorWhen {
    /// The same choice in clap's terms.
    pub fn clap(self) -> clap::ColorChoice {
        match self {
            ColorWhen::Auto => clap::ColorChoice::Auto,
            ColorWhen::Always => clap::ColorChoice::Always,
            ColorWhen::Never => clap::ColorChoice::Never,
        }
    }
}

/// Parse the process's arguments, colouring help and errors as `--color`
/// asks (looked up before the full parse, so its own errors obey it).
pub fn parse_args() -> Cli {
    use clap::{CommandFactory, FromArgMatches};
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let mut color = ColorWhen::Auto;
    for (k, a) in args.iter().enumerate() {
        let a = a.to_string_lossy();
        let value = match a.strip_prefix("--color") {
            Some(rest) if rest.starts_with('=') => Some(rest[1..].to_string()),
            Some("") => args.get(k + 1).map(|v| v.to_string_lossy().into_owned()),
            _ => None,
        };
        if let Some(v) = value.and_then(|v| <ColorWhen as clap::ValueEnum>::from_str(&v, true).ok())
        {
            color = v;
        }
    }
    let matches = Cli::command().color(color.clap()).get_matches_from(args);
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// Whether `-q` was given.
static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether progress lines are shown: on a terminal (standard error) and
/// without `-q`.
pub fn progress_on() -> bool {
    !QUIET.load(std::sync::atomic::Ordering::Relaxed)
        && std::io::IsTerminal::is_terminal(&std::io::stderr())
}

/// The most threads `-j` starts: far more than any machine's cores, and
/// few enough that starting them all takes well under a second.
const MAX_THREADS: i64 = 1024;

/// The subcommands of `fabric`; each variant's doc is its `--help` summary.
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
    #[command(after_help = "Examples:\n  \
        fabric separation benchmarks/channels/planar_stair.txt\n  \
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
        fabric layout fat-tree --size 64 --capacity table:1,1,2,2,3,4,6\n  \
        fabric layout torus --size 16 --dims 3 -o torus.yaml")]
    Layout(LayoutArgs),
    /// Route messages over a laid-out network: fat-trees in delivery cycles, butterflies packet by packet.
    #[command(subcommand)]
    Simulate(Box<simulate::SimulateCommand>),
    /// Check a layout file: the legality rules of docs/formats.md section 4 and its metrics.
    #[command(after_help = "Example:\n  \
        fabric layout htree --size 16 -o h.yaml && fabric verify-layout h.yaml")]
    VerifyLayout(VerifyLayoutArgs),
    /// Check a routed channel against its problem (the four legality rules and its metrics).
    #[command(after_help = "Example:\n  \
        fabric route benchmarks/channels/dde.txt --output dde.yaml && \
        fabric verify benchmarks/channels/dde.txt dde.yaml")]
    Verify(VerifyArgs),
    /// Chapter 4's universality reports for an area: Lemma 10's load factor, Delta, Theorems 19-20, wire delay.
    #[command(after_help = "Examples:\n  \
        fabric universality --area 1048576\n  \
        fabric universality --area 65536 --processor-area 16 --delay sqrt -o u.yaml\n  \
        fabric universality --area 262144 --dims 3")]
    Universality(universality::UniversalityArgs),
    /// Area of a finite-state machine (KISS2): PLA realisations beside the counting lower bounds (thesis ch. 8).
    #[command(after_help = "Examples:\n  \
        fabric fsm benchmarks/fsm/f16_k2.kiss2 --pla f16.pla --svg f16.svg -o f16.yaml\n  \
        fabric fsm --family 16 2 --count 3 --seed 7 -o f16.kiss2")]
    Fsm(fsm::FsmArgs),
    /// Write a layout's network for other tools: BookSim anynet, GraphML, DOT.
    #[command(subcommand)]
    Export(export::ExportCommand),
    /// Write a self-contained HTML viewer of a routed channel or a layout file (docs/viewer.md).
    #[command(after_help = "Examples:\n  \
        fabric view dde.yaml --problem benchmarks/channels/dde.txt -o dde.html\n  \
        fabric view htree.yaml -o htree.html")]
    View(view::ViewArgs),
    /// Shell completions (bash, zsh, fish, elvish, powershell) to standard output.
    #[command(after_help = "Example:\n  \
        fabric completions bash > ~/.local/share/bash-completion/completions/fabric")]
    Completions(shell::CompletionsArgs),
    /// The man page of fabric and its subcommands (roff) to standard output.
    #[command(after_help = "Example:\n  fabric man > fabric.1 && man ./fabric.1")]
    Man,
}

impl RouteArgs {
    /// The layers to route in: `--layers`, else the `--model`'s, else 2.
    pub fn layer_count(&self) -> u32 {
        self.layers.or(self.model.map(|m| m.layers())).unwrap_or(2)
    }
}

/// Arguments of `fabric analyze`.
#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// Channel file: classic text, YACR2 `column bottom top`, or YAML.
    pub file: PathBuf,
    /// Write the analysis report (schema fabric.analysis; see --format).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Draw the channel (pins, net spans, density profile) as SVG.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Report width lower bounds for 1 to this many layers.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub max_layers: u32,
    /// The report's format.
    #[command(flatten)]
    pub format: FormatArgs,
}

/// Arguments of `fabric route`.
#[derive(Debug, clap::Args)]
pub struct RouteArgs {
    /// Channel file: classic text, YACR2 `column bottom top`, or YAML.
    pub file: PathBuf,
    /// Number of layers [default: the --model's layers, else 2].
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub layers: Option<u32>,
    /// Layer model for routers that offer several per layer count: HV or VH
    /// (2 layers), HVH or VHV (3 layers). Default: HV for 2, HVH for 3.
    #[arg(long, value_enum)]
    pub model: Option<LayerModel>,
    /// Router to use. Default: `mulch` (any number of layers), or `yacr`
    /// when a --model is given.
    #[arg(long, short, value_enum)]
    pub router: Option<RouterKind>,
    /// mulch: no single-layer B groups (Chameleon's partition only).
    #[arg(long)]
    pub no_b_layers: bool,
    /// mulch: also try one or two more B layers than the selection settles on,
    /// and keep the best routing (width, then net length, then vias).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=2))]
    pub extra_b_layers: u32,
    /// mulch: the group cost function (thesis 6.3.2): `basic`, or the
    /// thesis's `variant` with a penalty on density above the lower bound.
    #[arg(long, value_enum, default_value_t = CostFunction::Basic)]
    pub cost: CostFunction,
    /// mulch: the B-group crossing penalty counts the `unassigned` nets
    /// crossing the net, or `all` of them.
    #[arg(long, value_enum, default_value_t = Excess::Unassigned)]
    pub excess: Excess,
    /// mulch: also solve the partition exactly (integer program, every
    /// configuration), report the smallest width any partition allows next
    /// to the heuristic's, and route the solver's best partition.
    #[arg(long)]
    pub exact: bool,
    /// mulch --exact: time limit of the integer programs, in seconds, shared
    /// by the configurations.
    #[arg(long, default_value_t = 10.0, requires = "exact", value_parser = parse_seconds)]
    pub time_limit: f64,
    /// yacr (and mulch's HV and HVH groups): how hard to search at a width
    /// before a track is added. `fast`: a conflict-free track assignment at
    /// the lower bound or one above first (one trunk layer), then no
    /// jittered track assignments; `normal`: as many as a budget of 200,000
    /// grid cells allows, at most 32; `thorough`: four times that budget, at
    /// most 128, and both piece variants routed at the final width, the one
    /// with fewer vias kept.
    #[arg(long, value_enum, default_value_t = EffortLevel::Normal)]
    pub effort: EffortLevel,
    /// yacr (and mulch's HV and HVH groups): jittered track assignments
    /// tried at a width once the standard ones fail there (overrides the
    /// --effort level's count).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=4096))]
    pub starts: Option<u32>,
    /// Seed of the jittered assignments (same input and seed, same output).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// yacr, mulch and greedy: strict reserved-layer routing: no wire against its
    /// layer's direction (no vertical on an `H` layer, no horizontal on a
    /// `V` layer of an HV, VH, HVH or VHV group) and pins entered on the
    /// vertical layers, as `fabric verify --reserved` checks. B layers
    /// have no direction.
    #[arg(long)]
    pub reserved: bool,
    /// Write the routed channel (schema fabric.route, docs/formats.md section 3; see --format).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Draw the routed channel as SVG.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Draw only the columns A to B (both included, say 10..40) in the
    /// --svg picture, its axes in the channel's column numbers.
    #[arg(long, value_name = "A..B", requires = "svg")]
    pub columns: Option<crate::report::svg::ColumnWindow>,
    /// Write a self-contained HTML viewer of the routing (docs/viewer.md).
    #[arg(long)]
    pub html: Option<PathBuf>,
    /// The report's format.
    #[command(flatten)]
    pub format: FormatArgs,
    /// GDSII and OASIS output.
    #[command(flatten)]
    pub physical: PhysicalArgs,
    /// DEF and LEF output.
    #[command(flatten)]
    pub def: DefArgs,
}

/// Arguments of `fabric separation`.
#[derive(Debug, clap::Args)]
pub struct SeparationArgs {
    /// Channel file: classic text, YACR2 `column bottom top`, or YAML.
    pub file: PathBuf,
    /// Write the result (schema fabric.separation; see --format).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The report's format.
    #[command(flatten)]
    pub format: FormatArgs,
}

/// A wire delay function with its text as given (the report repeats it).
#[derive(Clone, Debug, PartialEq)]
pub struct DelayArg {
    /// The flag's text.
    pub text: String,
    /// The function it names.
    pub delay: crate::layout::metrics::Delay,
}

/// The value name clap gives an enum value (the report's name, `-` for `_`).
pub(crate) fn flag_name<T: clap::ValueEnum>(v: T) -> String {
    v.to_possible_value()
        .map_or_else(String::new, |p| p.get_name().to_string())
}

/// `--delay`: a function [`crate::layout::metrics::Delay::parse`] reads.
pub(crate) fn parse_delay(s: &str) -> Result<DelayArg, String> {
    Ok(DelayArg {
        text: s.to_string(),
        delay: crate::layout::metrics::Delay::parse(s).map_err(|e| e.to_string())?,
    })
}

/// Arguments of `fabric layout`.
#[derive(Debug, clap::Args)]
pub struct LayoutArgs {
    /// What to lay out: `htree` (complete binary tree), `fat-tree`,
    /// `butterfly-fat-tree` and `scalable-fat-tree` (constant-size
    /// switches), `tree-of-meshes` (H-tree style), `folded-tree-of-meshes`
    /// (2-D fold-and-squash), `tree-of-meshes-3d` (3-D fold-and-squash),
    /// `fat-pyramid` (butterfly fat-tree over H-tree blocks with a mesh at
    /// every level, laid out regularly), `fat-tree-3d` (a fat-tree in a
    /// cube with thin gap slabs, a power of 8 processors), `butterfly`
    /// (the butterfly B(n) of N = 2^n rows, levels in columns, area
    /// Θ(N^2)), `mesh` (the d-dimensional mesh of side n, every wire a
    /// unit) or `torus` (the d-dimensional torus of side n, its rings
    /// folded so that every wire is at most 10 long, whatever n).
    #[arg(value_enum)]
    pub kind: crate::layout::LayoutKind,
    /// Number of processors (leaves), a power of 4 (a power of 2 for
    /// `htree`, a power of 8 for `fat-tree-3d`); for trees of meshes the side n of the root mesh, a
    /// power of 2; for `butterfly` the rows N, a power of 2 of at least 2;
    /// for `mesh` and `torus` the side n, any n of at least 2 (mesh) or 3
    /// (torus).
    #[arg(long, short = 'n', required_unless_present = "sweep")]
    pub size: Option<u64>,
    /// Lay out a range of sizes instead (4 .. 4^8 processors; 8 .. 8^6 for
    /// fat-tree-3d; root meshes 2 .. 64 for trees of meshes, full depth;
    /// rows 2 .. 1024 for butterfly; sides 4 .. 1024, 4 .. 128 and 2 (3
    /// for the torus) .. 32 for meshes and tori of 1, 2 and 3 dimensions)
    /// and report how area and the longest wire grow: a YAML table with
    /// --output and a chart with --svg.
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
    #[arg(long, value_parser = crate::layout::fattree::Capacity::parse)]
    pub capacity: Option<crate::layout::fattree::Capacity>,
    /// Wires per unit of capacity: 1 (as in equation 4.1) or 2 (separate
    /// up and down wires).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=2))]
    pub omega: u64,
    /// Processor area alpha (box side ceil(sqrt(alpha)) at least).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub alpha: u64,
    /// mesh and torus: the dimensions d, 1, 2 or 3 (default 2). A line or
    /// ring and a grid in the plane are laid out in 2-D, a grid in space
    /// in 3-D.
    #[arg(long, value_enum)]
    pub dims: Option<crate::layout::Dims>,
    /// fat-pyramid: parallel links between mesh neighbours (the thesis
    /// asks for a large enough constant; its routing argument uses 6).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub mesh_capacity: u32,
    /// Wire delay function for the delay figures: unit, linear, log, sqrt,
    /// or points `d:w,d:w,...`.
    #[arg(long, default_value = "unit", value_parser = parse_delay)]
    pub delay: DelayArg,
    /// Write the layout report (docs/formats.md section 4c), or with
    /// --sweep the size table.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Where the --output report keeps the nodes and edges: inline (in the
    /// report), csv (in the gzip-compressed CSV files STEM.nodes.csv.gz and
    /// STEM.edges.csv.gz beside it) or none (the figures only). Default:
    /// inline up to 100000 edges, csv above (said on stderr).
    #[arg(long, value_enum)]
    pub geometry: Option<crate::report::model::layout::GeometryKind>,
    /// Draw the layout as SVG.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Write a self-contained HTML viewer of the layout (docs/viewer.md).
    #[arg(long, conflicts_with = "sweep")]
    pub html: Option<PathBuf>,
    /// The report's format: yaml or json (csv: the size table of --sweep).
    #[command(flatten)]
    pub format: FormatArgs,
    /// GDSII and OASIS output.
    #[command(flatten)]
    pub physical: PhysicalArgs,
}

/// Arguments of `fabric verify-layout`.
#[derive(Debug, clap::Args)]
pub struct VerifyLayoutArgs {
    /// The layout: a `fabric.layout` report (YAML or JSON) or a
    /// header-less layout YAML.
    pub file: PathBuf,
}

/// Arguments of `fabric switchbox`.
#[derive(Debug, clap::Args)]
pub struct SwitchboxArgs {
    /// Switchbox file (docs/formats.md section 2).
    pub file: PathBuf,
    /// Write the result (schema fabric.switchbox; see --format).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The report's format.
    #[command(flatten)]
    pub format: FormatArgs,
}

/// Arguments of `fabric verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The channel problem.
    pub problem: PathBuf,
    /// The routed channel: YAML, or DEF as `fabric route --def` writes it
    /// (a name ending in `.def`).
    pub solution: PathBuf,
    /// Also refuse wires running along the boundary (pin rows, side columns),
    /// as the thesis's channel model does; docs/formats.md alone allows them.
    #[arg(long)]
    pub strict: bool,
    /// Also refuse unit edges against their layer's direction (a vertical
    /// edge on an `H` layer, a horizontal one on a `V` layer of an HV, VH,
    /// HVH or VHV group), as strict reserved-layer routing has it.
    #[arg(long)]
    pub reserved: bool,
}

impl RouteArgs {
    /// The direction rule `--reserved` asks the routers for.
    pub fn directions(&self) -> Directions {
        directions_of(self.reserved)
    }
}

impl VerifyArgs {
    /// The direction rule `--reserved` asks the check for.
    pub fn directions(&self) -> Directions {
        directions_of(self.reserved)
    }
}

/// The direction rule of a `--reserved` flag: wires in their layer's
/// direction only when given, else preferred.
fn directions_of(reserved: bool) -> Directions {
    if reserved {
        Directions::Reserved
    } else {
        Directions::Preferred
    }
}

fn read_problem(path: &std::path::Path) -> Result<ChannelProblem> {
    let text = read_text(path)?;
    Ok(crate::io::parse_channel(
        &text,
        &path.display().to_string(),
    )?)
}

/// Whether wires along the channel boundary (pin rows, side columns) are
/// violations: docs/formats.md allows them, the thesis's channel model does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BoundaryRule {
    /// Legal, as docs/formats.md has it.
    Allowed,
    /// Violations, as in the thesis's model (`--strict`).
    Refused,
}

/// The violations of a report, one a line; under [`BoundaryRule::Refused`],
/// the wires along the boundary too.
fn violations_text(report: &VerifyReport, rule: BoundaryRule) -> String {
    let mut lines: Vec<String> = Vec::new();
    let boundary = match rule {
        BoundaryRule::Refused => report.boundary_total,
        BoundaryRule::Allowed => 0,
    };
    for (list, total) in [
        (&report.violations[..], report.total),
        (
            &report.boundary_runs[..boundary.min(report.boundary_runs.len())],
            boundary,
        ),
    ] {
        lines.extend(list.iter().map(|v| format!("  {v}")));
        if total > list.len() {
            lines.push(format!("  ... and {} more", total - list.len()));
        }
    }
    lines.join("\n")
}

pub(crate) fn outputs_of<'a>(
    output: &'a Option<PathBuf>,
    svg: &'a Option<PathBuf>,
) -> Vec<&'a std::path::Path> {
    output.iter().chain(svg).map(PathBuf::as_path).collect()
}

/// [`outputs_of`] with the `--html` viewer.
pub(crate) fn outputs_with_html<'a>(
    output: &'a Option<PathBuf>,
    svg: &'a Option<PathBuf>,
    html: &'a Option<PathBuf>,
) -> Vec<&'a std::path::Path> {
    let mut all = outputs_of(output, svg);
    all.extend(html.as_deref());
    all
}

/// Run a parsed command line; returns the exit code on success.
pub fn run(cli: Cli) -> Result<i32> {
    crate::limits::set_budget((cli.memory * (1u64 << 30) as f64) as u64);
    if let Some(n) = cli.threads {
        crate::parallel::set_threads(usize::from(n))
            .map_err(|e| Error::Usage(format!("-j {n}: cannot start {n} threads: {e}")))?;
    }
    QUIET.store(cli.quiet, std::sync::atomic::Ordering::Relaxed);
    match cli.command {
        Command::Analyze(args) => channel::run_analyze(args),
        Command::Route(args) => route::run_route(args),
        Command::Separation(args) => channel::run_separation(args),
        Command::Layout(args) => layout::run(&args),
        Command::Simulate(command) => simulate::run(*command),
        Command::VerifyLayout(args) => layout::run_verify_layout(args),
        Command::Switchbox(args) => channel::run_switchbox(args),
        Command::Verify(args) => channel::run_verify(args),
        Command::Universality(args) => universality::run(&args),
        Command::Fsm(args) => fsm::run(&args),
        Command::Export(command) => export::run(command),
        Command::View(args) => view::run(&args),
        Command::Completions(args) => shell::run_completions(&args),
        Command::Man => shell::run_man(),
    }
}
