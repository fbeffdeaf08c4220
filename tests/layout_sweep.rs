//! Every layout family `fabric layout` offers, at every small size and
//! every option value it accepts, writes a layout file that `fabric
//! verify-layout` accepts: legal, its claimed figures measured, and
//! realising the network its parameters describe. The file is the text the
//! command writes (`fabric::cli::layout_file_text`, from arguments parsed
//! by the command line's own parser) and the verdict the one the command
//! prints (`fabric::cli::verify_layout_text`).

use clap::Parser;
use fabric::cli::{layout_file_text, verify_layout_text, Cli, Command, LayoutArgs};

/// One family's cases: every size with every option set (and, for trees
/// of meshes, every `--levels` value from 0 up to `levels_per_lg lg n`, and
/// none).
struct Family {
    kind: &'static str,
    sizes: &'static [u64],
    options: Vec<Vec<String>>,
    levels_per_lg: Option<u32>,
}

/// A capacity table long enough for 512 leaves (ten entries).
const TABLE: &str = "table:1,1,2,2,3,4,6,8,9,12";
/// Every capacity the fat-trees take (`""`: the default).
const CAPACITIES: &[&str] = &[
    "",
    "one",
    "sqrt-over-lg",
    "sqrt",
    "doubling",
    "two-thirds-over-lg",
    "two-thirds",
    TABLE,
];

/// Every combination of one value per axis, as `--name=value` words
/// (an empty value leaves the option out).
fn product(axes: &[(&str, &[&str])]) -> Vec<Vec<String>> {
    axes.iter().fold(vec![Vec::new()], |sets, (name, values)| {
        sets.iter()
            .flat_map(|set| {
                values.iter().map(move |v| {
                    let mut next = set.clone();
                    if !v.is_empty() {
                        next.push(format!("--{name}={v}"));
                    }
                    next
                })
            })
            .collect()
    })
}

/// Options a family reads nothing from: the defaults, and all of them set
/// at once (the command takes them and must still write a good file).
fn ignored(read: &[(&str, &[&str])]) -> Vec<Vec<String>> {
    let all = ["--capacity=sqrt", "--omega=2", "--alpha=5"];
    let mut out = product(read);
    out.extend(product(read).into_iter().map(|mut set| {
        set.extend(all.iter().map(|w| w.to_string()));
        set
    }));
    out
}

fn families() -> Vec<Family> {
    let fat_tree = product(&[
        ("capacity", CAPACITIES),
        ("omega", &["1", "2"]),
        ("alpha", &["1", "5"]),
    ]);
    let family = |kind, sizes, options| Family {
        kind,
        sizes,
        options,
        levels_per_lg: None,
    };
    let meshes = |kind, sizes, per| Family {
        levels_per_lg: Some(per),
        ..family(kind, sizes, ignored(&[]))
    };
    vec![
        // 2, 8, 32: two H-trees turned towards a root between them.
        family(
            "htree",
            &[1, 2, 4, 8, 16, 32, 64],
            product(&[
                ("capacity", &["", "one", "sqrt-over-lg"]),
                ("omega", &["1", "2"]),
                ("alpha", &["1", "5"]),
            ]),
        ),
        family("fat-tree", &[1, 4, 16, 64], fat_tree),
        family("butterfly-fat-tree", &[4, 16, 64], ignored(&[])),
        // two-thirds grows too fast for the two switch types.
        family("scalable-fat-tree", &[4, 16, 64], {
            let capacities: Vec<&str> = CAPACITIES
                .iter()
                .copied()
                .filter(|&c| c != "two-thirds")
                .collect();
            let mut options = product(&[("capacity", &capacities)]);
            options.push(vec!["--omega=2".into(), "--alpha=5".into()]);
            options
        }),
        meshes("tree-of-meshes", &[1, 2, 4, 8], 2),
        meshes("folded-tree-of-meshes", &[2, 4, 8], 2),
        meshes("tree-of-meshes-3d", &[2, 4, 8], 3),
        // K = 1 (no mesh) up to 64, K = 2 at 1024, K = 3 at 4096.
        family(
            "fat-pyramid",
            &[4, 16, 64, 256, 1024, 4096],
            ignored(&[("mesh-capacity", &["1", "2", "6"])]),
        ),
        // Unit processors only: --alpha is refused.
        family(
            "fat-tree-3d",
            &[1, 8, 64, 512],
            product(&[("capacity", CAPACITIES), ("omega", &["1", "2"])]),
        ),
        // N = 2^n rows; the unit tests check every size up to 1024.
        family("butterfly", &[2, 4, 8, 16, 32, 64, 128, 256], ignored(&[])),
        // Any side, both parities of the torus's folding, d = 1, 2, 3.
        family(
            "mesh",
            &[2, 3, 4, 5, 8],
            ignored(&[("dims", &["", "1", "2", "3"])]),
        ),
        family(
            "torus",
            &[3, 4, 5, 8],
            ignored(&[("dims", &["", "1", "2", "3"])]),
        ),
        // N a power of 4; the unit tests check other kappas.
        family("pruned-butterfly", &[4, 16, 64, 256], ignored(&[])),
        // N = 256 (L = 8) and 1024 (L = 16, lg N = 10).
        family("sorting-fat-tree", &[256, 1024], ignored(&[])),
    ]
}

/// The command lines of a family's cases (after `fabric layout`).
fn cases(f: &Family) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for &size in f.sizes {
        let levels: Vec<Option<u32>> = match f.levels_per_lg {
            None => vec![None],
            Some(per) => std::iter::once(None)
                .chain((0..=per * size.trailing_zeros()).map(Some))
                .collect(),
        };
        for level in &levels {
            for options in &f.options {
                let mut words = vec![f.kind.to_string(), format!("--size={size}")];
                words.extend(level.map(|l| format!("--levels={l}")));
                words.extend(options.iter().cloned());
                out.push(words);
            }
        }
    }
    out
}

/// `fabric layout WORDS`, parsed as the command line parses it.
fn layout_args(words: &[String]) -> LayoutArgs {
    let line = ["fabric", "layout"]
        .into_iter()
        .map(String::from)
        .chain(words.iter().cloned());
    match Cli::try_parse_from(line) {
        Ok(Cli {
            command: Command::Layout(args),
            ..
        }) => args,
        Ok(other) => panic!("{words:?} parsed as {other:?}"),
        Err(e) => panic!("{words:?}: {e}"),
    }
}

/// Build one case and verify its file; the number of edges it has.
fn build_and_verify(words: &[String]) -> Result<usize, String> {
    let name = format!("{}.yaml", words.join(" "));
    let text = layout_file_text(&layout_args(words)).map_err(|e| format!("layout: {e}"))?;
    let verdict = verify_layout_text(&text, &name).map_err(|e| format!("verify-layout: {e}"))?;
    if !verdict.problems.is_empty() {
        return Err(format!(
            "verify-layout refuses the file:\n    {}",
            verdict.problems.join("\n    ")
        ));
    }
    if verdict.realises.is_none() {
        return Err("verify-layout does not know its network".into());
    }
    // The file has a body the checker worked on: one `path:` line per edge.
    Ok(text.lines().filter(|l| *l == "    path:").count())
}

/// A file the sweep accepts, with its last edge dropped, is refused: the
/// sweep's verdicts come from a checker that refuses.
fn dropping_an_edge_is_refused(words: &[String]) {
    let text = layout_file_text(&layout_args(words)).unwrap();
    let mut report: serde_norway::Value = serde_norway::from_str(&text).unwrap();
    let edges = report["geometry"]["edges"].as_sequence_mut().unwrap();
    edges.pop().expect("an edge");
    // The count says so too: the checker, not the count, refuses it.
    let count = edges.len();
    report["metrics"]["edges"] = count.into();
    let broken = serde_norway::to_string(&report).unwrap();
    let verdict = verify_layout_text(&broken, "broken.yaml").unwrap();
    assert!(
        !verdict.problems.is_empty(),
        "{words:?} without its last edge is accepted"
    );
}

#[test]
fn every_family_size_and_option_writes_a_file_verify_layout_accepts() {
    let start = std::time::Instant::now();
    let mut all: Vec<(&'static str, Vec<String>)> = Vec::new();
    for f in families() {
        let mine = cases(&f);
        eprintln!("{}: {} cases", f.kind, mine.len());
        all.extend(mine.into_iter().map(|w| (f.kind, w)));
    }
    // Two workers, each taking every other case.
    let results: Vec<(&str, Vec<String>, Result<usize, String>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|w| {
                let all = &all;
                s.spawn(move || {
                    all.iter()
                        .skip(w)
                        .step_by(2)
                        .map(|(kind, words)| (*kind, words.clone(), build_and_verify(words)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|h| h.join().expect("a worker"))
            .collect()
    });
    let failures: Vec<String> = results
        .iter()
        .filter_map(|(_, words, r)| r.as_ref().err().map(|e| format!("{words:?}: {e}")))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n  {}",
        failures.len(),
        results.len(),
        failures.join("\n  ")
    );
    // Every family is swept, each with files that have edges.
    for f in families() {
        let edges: usize = results
            .iter()
            .filter(|(kind, _, _)| *kind == f.kind)
            .map(|(_, _, r)| *r.as_ref().unwrap())
            .sum();
        assert!(edges > 0, "{}: no edges in any file", f.kind);
        dropping_an_edge_is_refused(cases(&f).last().expect("a case"));
    }
    assert_eq!(results.len(), all.len());
    assert!(results.len() >= 400, "{} cases", results.len());
    eprintln!(
        "{} cases in {:.1} s",
        results.len(),
        start.elapsed().as_secs_f64()
    );
}
