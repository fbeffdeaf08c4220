//! Golden outputs: the routed bundled channels (per router, layer model and
//! effort), one layout of every family and a report of every simulator, each
//! kept in `tests/golden/outputs.txt` as its quality figures and a hash of
//! the bytes `fabric` writes. A change to any of them fails here and, once
//! regenerated, shows as a reviewed diff of that file:
//!
//! `FABRIC_GOLDEN=update cargo test --release --test golden`

use clap::Parser;
use fabric::channel::analysis::density;
use fabric::channel::layer_model::LayerModel;
use fabric::channel::registry::router_by_name;
use fabric::channel::router::{Directions, Effort, EffortLevel, RouteOptions};
use fabric::channel::routers::mulch::{route_mulch, MulchResult, SelectOptions};
use fabric::channel::verify::verify;
use fabric::cli::{layout_file_text, Cli, Command};
use fabric::report::model::{render, Format, RouteReport};
use rayon::prelude::*;

mod common;
use common::{bundled, BUNDLED};

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/outputs.txt");

/// FNV-1a, 64 bits: stable across Rust versions and platforms.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The routings of one channel, one line each.
fn routings(name: &str) -> Vec<String> {
    let p = bundled(name);
    let d = density(&p);
    let mut out = Vec::new();
    let mut line = |job: String,
                    s: Result<fabric::channel::ChannelSolution, String>,
                    mulch: Option<&MulchResult>| {
        out.push(match s {
            Ok(s) => {
                let metrics = s.metrics(d);
                assert!(
                    verify(&p, &s, Some(&metrics)).is_legal_strict(),
                    "{name} {job}"
                );
                let text = render(&RouteReport::new(&s, &metrics, mulch, None), Format::Yaml)
                    .expect("a routing report renders");
                format!(
                    "route {name} {job}: width {} vias {} length {} fnv {:016x}",
                    metrics.width,
                    metrics.vias,
                    metrics.net_length,
                    fnv(text.as_bytes())
                )
            }
            Err(e) => format!("route {name} {job}: refused: {e}"),
        });
    };
    for layers in 2..=4 {
        let r = route_mulch(&p, layers, SelectOptions::default(), &mut |_| {});
        match &r {
            Ok(m) => line(format!("mulch L={layers}"), Ok(m.solution.clone()), Some(m)),
            Err(e) => line(format!("mulch L={layers}"), Err(e.to_string()), None),
        }
    }
    let levels = [EffortLevel::Fast, EffortLevel::Normal];
    for (layers, model) in [(2, "HV"), (2, "VH"), (3, "HVH"), (3, "VHV")] {
        for level in levels {
            let options = RouteOptions {
                layers,
                model: Some(model.parse().expect("a layer model")),
                effort: Effort {
                    level,
                    ..Effort::default()
                },
                directions: Directions::Preferred,
            };
            let s = router_by_name("yacr").unwrap().route(&p, &options);
            line(
                format!("yacr {model} {level:?}"),
                s.map_err(|e| e.to_string()),
                None,
            );
        }
    }
    for (router, options) in [
        (
            "greedy",
            RouteOptions {
                model: Some(LayerModel::Hv),
                ..RouteOptions::layers(2)
            },
        ),
        ("left-edge", RouteOptions::layers(2)),
    ] {
        let s = router_by_name(router).unwrap().route(&p, &options);
        line(router.to_string(), s.map_err(|e| e.to_string()), None);
    }
    out
}

fn parse(words: &[&str]) -> Command {
    Cli::try_parse_from(std::iter::once("fabric").chain(words.iter().copied()))
        .unwrap_or_else(|e| panic!("{words:?}: {e}"))
        .command
}

/// One layout of every family, as `fabric layout -o` writes it.
fn layouts() -> Vec<String> {
    let jobs: [&[&str]; 12] = [
        &["htree", "--size", "64"],
        &["fat-tree", "--size", "256"],
        &[
            "fat-tree",
            "--size",
            "64",
            "--capacity",
            "table:1,1,2,2,3,4,6",
            "--omega",
            "2",
        ],
        &["butterfly-fat-tree", "--size", "64"],
        &["scalable-fat-tree", "--size", "256"],
        &["tree-of-meshes", "--size", "8", "--levels", "5"],
        &["folded-tree-of-meshes", "--size", "8"],
        &["tree-of-meshes-3d", "--size", "4"],
        &["fat-pyramid", "--size", "1024", "--mesh-capacity", "2"],
        &["fat-tree-3d", "--size", "64"],
        &["mesh", "--size", "6", "--dims", "3"],
        &["torus", "--size", "7"],
    ];
    jobs.iter()
        .map(|words| {
            let full: Vec<&str> = std::iter::once("layout")
                .chain(words.iter().copied())
                .collect();
            let Command::Layout(args) = parse(&full) else {
                panic!("{words:?} is a layout command")
            };
            let text = layout_file_text(&args).unwrap_or_else(|e| panic!("{words:?}: {e}"));
            format!(
                "layout {}: {} bytes fnv {:016x}",
                words.join(" "),
                text.len(),
                fnv(text.as_bytes())
            )
        })
        .collect()
}

/// Simulation reports, as `fabric simulate -o` writes them: every
/// simulator on a small instance (each under a second), so that a change
/// to an engine that moves any figure or byte of its report shows here.
fn simulations() -> Vec<String> {
    let jobs: [&str; 12] = [
        "fat-tree --size 64 --rate 1,4 --trials 4",
        "fat-tree --algorithm greedy --size 256 --rate 2 --trials 3 --seed 5",
        "fat-tree --algorithm butterfly-fat-tree --size 64 --rate 2 --delay linear",
        "butterfly --size 256 --queue 2 --trials 3",
        "wormhole --size 64 --runs 3",
        "mesh --size 16 --k 4 --trials 2",
        "mesh --algorithm wrap --topology torus --size 16 --k 4 --trials 2",
        "pruned-butterfly --size 256",
        "sorting-fat-tree --size 256",
        "wire-delay --size 64",
        "open-loop --topology mesh --size 4 --rates 0.1,0.3 --vcs 3",
        "open-loop --topology butterfly-fat-tree --size 16 --links layout --rates 0.2 --measure 1000",
    ];
    let dir = std::env::temp_dir().join(format!("fabric-golden-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = jobs
        .iter()
        .enumerate()
        .map(|(k, job)| {
            let file = dir.join(format!("sim{k}.yaml"));
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_fabric"))
                .arg("simulate")
                .args(job.split(' '))
                .arg("-o")
                .arg(&file)
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "{job}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let text = std::fs::read(&file).unwrap();
            common::checked_report(&String::from_utf8_lossy(&text));
            format!(
                "simulate {job}: {} bytes fnv {:016x}",
                text.len(),
                fnv(&text)
            )
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    out
}

#[test]
fn outputs_are_the_golden_ones() {
    let mut lines: Vec<String> = BUNDLED.par_iter().flat_map(|n| routings(n)).collect();
    lines.extend(layouts());
    lines.extend(simulations());
    let now = lines.join("\n") + "\n";
    if std::env::var("FABRIC_GOLDEN").as_deref() == Ok("update") {
        std::fs::write(GOLDEN, &now).unwrap();
        return;
    }
    let want = std::fs::read_to_string(GOLDEN)
        .expect("tests/golden/outputs.txt (FABRIC_GOLDEN=update makes it)");
    let changed: Vec<String> = want
        .lines()
        .zip(now.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("- {a}\n+ {b}"))
        .collect();
    assert!(
        changed.is_empty() && want.lines().count() == now.lines().count(),
        "outputs differ from tests/golden/outputs.txt ({} of {} lines; FABRIC_GOLDEN=update regenerates it):\n{}",
        changed.len(),
        want.lines().count(),
        changed.join("\n")
    );
}
