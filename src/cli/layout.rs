//! `fabric layout` (one size, or a sweep of sizes against the fitted growth
//! of area and wire length) and `fabric verify-layout`: build the chosen
//! network's embedding, run the independent checker on it, and hold its
//! measures against the closed forms of the papers.

use super::build::{build_layout, capacity_name};
use super::*;
use crate::layout::LayoutKind;

mod drawable;

/// What `fabric verify-layout` finds in a layout file.
#[derive(Clone, Debug)]
pub struct LayoutVerdict {
    /// One line per problem: empty when the layout is legal, the figures it
    /// claims are the ones measured, and it realises the network its
    /// parameters describe.
    pub problems: Vec<String>,
    /// The intended network it realises, for the networks
    /// [`crate::network::Network::intended`] knows.
    pub realises: Option<String>,
    /// The line printed for a legal layout.
    pub summary: String,
}

/// Check a layout file's text as `fabric verify-layout` does (`path` names
/// the file in messages). Errors: the text is not a layout file, or its
/// bounding box is more than the checker rasterises.
pub fn verify_layout_text(text: &str, path: &str) -> Result<LayoutVerdict> {
    use crate::layout::{check, metrics};
    let file = super::layout_report::parse_layout_at(text, path)?;
    let verdict = check::check(&file.embedding);
    if let Some(v) = verdict.too_large() {
        return Err(Error::File {
            path: path.to_string(),
            message: format!("cannot be checked: {v}"),
        });
    }
    let m = metrics::measure(&file.embedding);
    let mut problems: Vec<String> = verdict.violations.iter().map(ToString::to_string).collect();
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
            ("depth", c.depth, m.depth),
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
    if let Some(c) = file.counts {
        let e = &file.embedding;
        for (name, claimed, real) in [
            ("nodes", c.nodes, e.nodes.len() as u64),
            ("edges", c.edges, e.edges.len() as u64),
        ] {
            if claimed != real {
                problems.push(format!(
                    "metrics: {name} is {claimed}, but the geometry has {real}"
                ));
            }
        }
    }
    // The network the layout realises against the one its parameters
    // describe, when the network is known.
    let realises = crate::network::Network::realised_by(&file.embedding).unwrap_or_else(|e| {
        problems.push(e.to_string());
        None
    });
    let e = &file.embedding;
    let summary = format!(
        "legal: {} with {} nodes and {} edges, {}, wire length {} ({} at most), {} crossings",
        e.network,
        e.nodes.len(),
        e.edges.len(),
        if e.dimensions == 3 {
            format!(
                "{} x {} x {}, volume {}",
                m.width, m.height, m.depth, m.area
            )
        } else {
            format!("{} x {}, area {}", m.width, m.height, m.area)
        },
        m.total_wire_length,
        m.max_wire_length,
        verdict.crossings
    );
    Ok(LayoutVerdict {
        problems,
        realises,
        summary,
    })
}

/// `fabric verify-layout`.
pub(super) fn run_verify_layout(args: VerifyLayoutArgs) -> Result<i32> {
    let text = read_text(&args.file)?;
    let verdict = verify_layout_text(&text, &args.file.display().to_string())?;
    if verdict.problems.is_empty() {
        if let Some(name) = &verdict.realises {
            println!(
                "realises the intended {name}: the same nodes, roles, levels and links as built from its parameters"
            );
        }
        println!("{}", verdict.summary);
        Ok(0)
    } else {
        println!(
            "illegal: {} problem(s) in {}",
            verdict.problems.len(),
            args.file.display()
        );
        for p in verdict.problems {
            println!("  {p}");
        }
        Ok(1)
    }
}

/// Options that apply to other kinds only are refused.
fn check_options(args: &LayoutArgs) -> Result<()> {
    if args.levels.is_some() && !args.kind.is_tree_of_meshes() {
        return Err(Error::Usage("--levels applies to trees of meshes".into()));
    }
    if args.mesh_capacity != 1 && args.kind != LayoutKind::FatPyramid {
        return Err(Error::Usage(
            "--mesh-capacity applies to the fat-pyramid".into(),
        ));
    }
    if args.dims.is_some() && !args.kind.takes_dims() {
        return Err(Error::Usage("--dims applies to mesh and torus".into()));
    }
    Ok(())
}

/// The one layout of `--size`, refused past the largest size of its kind.
fn build_size(args: &LayoutArgs) -> Result<super::build::Built> {
    let size = args.size.expect("clap requires --size without --sweep");
    crate::limits::check(
        || format!("fabric layout {} --size {size}", args.kind),
        crate::limits::layout_bytes(args.kind, size, args.dims.unwrap_or_default()),
    )?;
    check_drawable(args, size)?;
    let spinner = crate::cli::progress::Progress::spinner_after(
        format!("{} --size {size}", args.kind),
        std::time::Duration::from_secs(1),
    );
    build_layout(args, size, &|stage| spinner.message(stage.name()))
}

/// Refuse `--svg` before any work when the layout's network, built from
/// its parameters alone, has more nodes and links than an SVG draws, or a
/// 3-D layout more planes.
fn check_drawable(args: &LayoutArgs, size: u64) -> Result<()> {
    if args.svg.is_none() {
        return Ok(());
    }
    let usage = |e: crate::layout::LayoutError| Error::Usage(e.to_string());
    let options = super::build::options(args);
    drawable::check_planes(args.kind, size, &options)?;
    let net = args
        .kind
        .construction(size, &options)
        .map_err(usage)?
        .network()
        .map_err(usage)?;
    let shapes = net.node_count() + net.link_count();
    if shapes > report::svg::LAYOUT_SVG_LIMIT {
        return Err(Error::Usage(format!(
            "{} --size {size}: {shapes} nodes and edges are too many to draw as SVG (at most {}), \
             so nothing was built: drop --svg, use --html FILE (the viewer draws millions) \
             or lay out fewer processors",
            args.kind,
            report::svg::LAYOUT_SVG_LIMIT
        )));
    }
    Ok(())
}

/// What `fabric layout KIND --size N ... --output FILE` writes to FILE (in
/// `args.format`, its geometry inline unless `--geometry none`): the layout
/// built, checked (legal, its figures those of its recurrence or bounds,
/// realising its network) and measured as the command does, with the same
/// refusals. `args.size` must be set; `--geometry csv` is refused (its
/// geometry goes to files).
pub fn layout_file_text(args: &LayoutArgs) -> Result<String> {
    check_options(args)?;
    args.format.check::<report::model::LayoutReport>()?;
    let geometry = args
        .geometry
        .unwrap_or(report::model::layout::GeometryKind::Inline);
    super::layout_report::report_text(&build_size(args)?, args.format.format, geometry)
}

pub(super) fn run(args: &LayoutArgs) -> Result<i32> {
    let physical = super::physical::PhysicalPlan::new(&args.physical, None)?;
    let csv = super::layout_report::possible_csv_outputs(args);
    let mut outputs = outputs_with_html(&args.output, &args.svg, &args.html);
    outputs.extend(csv.iter().map(PathBuf::as_path));
    outputs.extend(physical.paths());
    check_output_paths(&[], &outputs)?;
    check_options(args)?;
    super::layout_report::check_geometry_option(args)?;
    if args.sweep {
        args.format.check::<report::model::SweepReport>()?;
    } else {
        args.format.check::<report::model::LayoutReport>()?;
    }
    let delay = args.delay.delay.clone();
    if args.sweep {
        if !physical.is_empty() {
            return Err(Error::Usage(
                "--gds and --oasis draw one layout: give --size, not --sweep".into(),
            ));
        }
        return run_sweep(args);
    }
    run_one(args, &delay, &physical)
}

/// The size axis of a sweep's chart.
fn size_axis(kind: LayoutKind) -> &'static str {
    if kind.is_tree_of_meshes() {
        "n (root mesh side)"
    } else if kind == LayoutKind::Butterfly {
        "N (rows)"
    } else if kind.takes_dims() {
        "n (side)"
    } else {
        "n (processors)"
    }
}

/// What a sweep holds each size's side against.
fn held_against(kind: LayoutKind) -> &'static str {
    match kind {
        LayoutKind::TreeOfMeshes3d | LayoutKind::FatPyramid => "its side within its bounds",
        LayoutKind::Mesh | LayoutKind::Torus | LayoutKind::Butterfly => {
            "its sides those of the closed forms"
        }
        _ => "its side that of the recurrence",
    }
}

/// `fabric layout KIND --sweep`: every size of the family's range, verified,
/// with fitted exponents of area and longest wire.
fn run_sweep(args: &LayoutArgs) -> Result<i32> {
    use crate::layout::sweep;
    let dims = args.dims.unwrap_or_default();
    let sizes = args.kind.sweep_sizes(dims);
    let bar = crate::cli::progress::Progress::bar(sizes.len() as u64, "sizes");
    let mut rows = Vec::new();
    for &n in &sizes {
        let b = build_layout(args, n, &|stage| {
            bar.message(format!("{} {n}: {}", args.kind, stage.name()))
        })?;
        let forms = &b.laid.forms;
        rows.push(sweep::SweepRow {
            n,
            side: b.metrics.width,
            area: b.metrics.area,
            total_wire_length: b.metrics.total_wire_length,
            max_wire_length: b.metrics.max_wire_length,
            recurrence_side: forms.side,
            formula_area: if args.kind.is_3d(dims) {
                forms.side.pow(3)
            } else {
                forms.side * forms.width
            },
            formula_max_wire: forms.max_wire,
            nodes: b.laid.embedding.nodes.len(),
            edges: b.laid.embedding.edges.len(),
            crossings: b.crossings,
            seconds: b.seconds,
        });
        bar.step();
    }
    drop(bar);
    let x_name = size_axis(args.kind);
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
        if args.kind.is_fat_tree() {
            format!("capacity {}, omega {}", capacity_name(args), args.omega)
        } else if args.kind.takes_dims() {
            format!("d = {}", dims.count())
        } else {
            "full".to_string()
        }
    );
    let mut outputs = Vec::new();
    if let Some(path) = &args.output {
        outputs.push((
            path.clone(),
            report::model::render(
                &report::model::SweepReport::new(
                    args.kind.name(),
                    args.kind.takes_dims().then_some(dims),
                    &rows,
                    area_exp,
                    wire_exp,
                ),
                args.format.format,
            )?,
        ));
    }
    if let Some(path) = &args.svg {
        let chart = report::chart::sweep_chart(&title, x_name, &rows)?;
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
    if matches!(
        args.kind,
        LayoutKind::PrunedButterfly | LayoutKind::SortingFatTree
    ) {
        print_log_squared_ratios(&rows);
    }
    // A constant's fitted slope may come out as -1e-17: print it as 0.
    let show = |e: Option<f64>| {
        e.map_or("-".to_string(), |e| {
            format!("{:.3}", if e.abs() < 5e-4 { 0.0 } else { e })
        })
    };
    println!(
        "  fitted exponents: area ~ n^{}, longest wire ~ n^{}; every size verified legal, {}",
        show(area_exp),
        show(wire_exp),
        held_against(args.kind)
    );
    Ok(0)
}

/// Area / (N lg^2 N) and longest wire / (sqrt(N) lg N) per size, with the
/// spread (largest over smallest) of each: flat for the area-universal
/// networks of Bay and Bilardi.
fn print_log_squared_ratios(rows: &[crate::layout::sweep::SweepRow]) {
    let ratios: Vec<(f64, f64)> = rows
        .iter()
        .map(|r| {
            let (n, lg) = (r.n as f64, (r.n as f64).log2());
            (
                r.area as f64 / (n * lg * lg),
                r.max_wire_length as f64 / (n.sqrt() * lg),
            )
        })
        .collect();
    let spread = |f: &dyn Fn(&(f64, f64)) -> f64| {
        let v: Vec<f64> = ratios.iter().map(f).collect();
        let hi = v.iter().cloned().fold(0.0, f64::max);
        let lo = v.iter().cloned().fold(f64::MAX, f64::min);
        hi / lo
    };
    let list = |f: &dyn Fn(&(f64, f64)) -> f64| {
        ratios
            .iter()
            .map(|r| format!("{:.3}", f(r)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!(
        "  area / (N lg^2 N): {} (max/min {:.3})",
        list(&|r| r.0),
        spread(&|r| r.0)
    );
    println!(
        "  longest wire / (sqrt N lg N): {} (max/min {:.3})",
        list(&|r| r.1),
        spread(&|r| r.1)
    );
}

/// `fabric layout KIND --size N`: one layout, its outputs and its figures.
fn run_one(
    args: &LayoutArgs,
    delay: &crate::layout::metrics::Delay,
    physical: &super::physical::PhysicalPlan,
) -> Result<i32> {
    let b = build_size(args)?;
    let (embedding, m) = (&b.laid.embedding, &b.metrics);
    let mut outputs: Vec<(PathBuf, Contents<'_>)> = Vec::new();
    if let Some(path) = &args.output {
        outputs.extend(super::layout_report::layout_outputs(args, path, &b)?);
    }
    if let Some(path) = &args.svg {
        let svg = if embedding.dimensions == 3 {
            report::svg::layout_svg_3d(embedding, m).ok_or_else(|| {
                Error::Usage(format!(
                    "a 3-D layout is drawn with at most {} planes and {} nodes and edges; drop --svg, use --html FILE, or lay out a smaller one",
                    report::svg::LAYOUT_SVG_PLANES,
                    report::svg::LAYOUT_SVG_LIMIT
                ))
            })?
        } else {
            report::svg::layout_svg(embedding, m).ok_or_else(|| {
                Error::Usage(format!(
                    "{} nodes and edges are too many to draw (at most {}); drop --svg, use --html FILE, or lay out fewer processors",
                    embedding.nodes.len() + embedding.edges.len(),
                    report::svg::LAYOUT_SVG_LIMIT
                ))
            })?
        };
        outputs.push((path.clone(), Contents::Text(svg)));
    }
    if let Some(path) = &args.html {
        let summary = crate::view::layout_summary(embedding, m);
        let page = crate::view::layout_html(embedding, &summary)
            .map_err(|e| Error::Usage(format!("--html: {e}")))?;
        outputs.push((path.clone(), Contents::Text(page)));
    }
    let (drawn, physical_lines) = physical.layout_outputs(embedding)?;
    outputs.extend(drawn);
    write_contents_all_or_nothing(outputs)?;
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
    for line in b.construction.figures(&b.measured(&args.delay.text)) {
        println!("{line}");
    }
    wire_and_delay_figures(args, &b, delay);
    for line in physical_lines {
        println!("{line}");
    }
    Ok(0)
}

/// Wires per level with their delays, and the thesis's conditions C1 and
/// C2 on the delay function.
fn wire_and_delay_figures(
    args: &LayoutArgs,
    b: &super::build::Built,
    delay: &crate::layout::metrics::Delay,
) {
    use crate::layout::metrics;
    let (embedding, m) = (&b.laid.embedding, &b.metrics);
    println!(
        "  {} nodes, {} wires; wire length {} in all, {} at most{}",
        embedding.nodes.len(),
        embedding.edges.len(),
        m.total_wire_length,
        m.max_wire_length,
        b.laid
            .forms
            .max_wire
            .map_or(String::new(), |w| format!(" (closed form {w})"))
    );
    for (level, w) in &m.per_level {
        println!(
            "  level {level:>2}: {:>8} wires, length {} each at most, delay {:.3} at most ({})",
            w.edges,
            w.max,
            delay.of(w.max),
            args.delay.text
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
        args.delay.text,
        verdict(metrics::Condition::C1),
        verdict(metrics::Condition::C2)
    );
}
