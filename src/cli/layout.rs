//! `fabric layout` (one size, or a sweep of sizes against the fitted growth
//! of area and wire length) and `fabric verify-layout`: build the chosen
//! network's embedding, run the independent checker on it, and hold its
//! measures against the closed forms of the papers.

use super::*;

/// `fabric verify-layout`.
pub(super) fn run_verify_layout(args: VerifyLayoutArgs) -> Result<i32> {
    use crate::layout::{check, metrics};
    let text = read_text(&args.file)?;
    let file = crate::io::parse_layout(&text, &args.file.display().to_string())?;
    let verdict = check::check(&file.embedding);
    if let Some(v) = verdict.too_large() {
        return Err(Error::File {
            path: args.file.display().to_string(),
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

/// The largest `--size` of each kind that `fabric layout` builds. Measured
/// on the project's 24 GB machine (build, check and measure, peak memory):
/// htree 4^12 processors 13.7 GB in 55 s and fat-tree 4^11 3.4 GB (memory
/// grows with the area, 4x a step); tree-of-meshes side 512 2.8 GB;
/// tree-of-meshes-3d side 32 3.2 GB; fat-tree-3d 8^7 1.7 GB. One step
/// more would not fit, and an allocation that fails aborts the process, so
/// larger sizes are refused before anything is built.
fn largest_size(kind: &str) -> u64 {
    match kind {
        "fat-tree-3d" => 1 << 21,
        "tree-of-meshes-3d" => 32,
        "tree-of-meshes" | "folded-tree-of-meshes" => 512,
        _ => 1 << 24,
    }
}

/// A fat-pyramid's spec, tile pitch and tracks per band.
type PyramidFigures = (crate::layout::pyramid::PyramidSpec, (i64, i64), (i64, i64));

/// One layout built, checked against the checker and its recurrence, and
/// measured: the embedding, its metrics and check, the recurrence side, its
/// closed form, and the closed-form longest wire.
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
    if let Some(v) = verdict.too_large() {
        return Err(Error::Usage(format!(
            "{} --size {size}: {v}; nothing was written",
            args.kind
        )));
    }
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

pub(super) fn run(args: &LayoutArgs) -> Result<i32> {
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
    let most = largest_size(&args.kind);
    if size > most {
        return Err(Error::Usage(format!(
            "{} --size {size}: at most {most} (larger layouts need more than the 24 GB it was measured on; \
             the checker rasterises at most {} grid points)",
            args.kind,
            crate::layout::check::MAX_POINTS
        )));
    }
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
