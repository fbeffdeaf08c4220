//! End-to-end tests of the `fabric` binary: outputs parsed back as YAML,
//! errors with file:line:column and exit codes, whole-or-nothing outputs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

fn fabric() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fabric"))
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bench(name: &str) -> PathBuf {
    root()
        .join("benchmarks/channels")
        .join(format!("{name}.txt"))
}

/// A fresh scratch directory per test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("the fabric binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A report read back, validated against its schema when it names one.
fn yaml(path: &Path) -> serde_norway::Value {
    let text = std::fs::read_to_string(path).unwrap();
    common::checked_report(&text);
    serde_norway::from_str(&text).unwrap()
}

#[test]
fn analyze_dde_reports_the_published_statistics() {
    let dir = scratch("analyze-dde");
    let out = dir.join("dde.yaml");
    let svg = dir.join("dde.svg");
    let o = run(fabric()
        .arg("analyze")
        .arg(bench("dde"))
        .arg("--output")
        .arg(&out)
        .arg("--svg")
        .arg(&svg));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let y = yaml(&out);
    assert_eq!(y["nets"].as_u64(), Some(72));
    assert_eq!(y["pins"].as_u64(), Some(301));
    assert_eq!(y["density"].as_u64(), Some(19));
    assert_eq!(y["vcg"]["acyclic"].as_bool(), Some(true));
    assert_eq!(y["vcg"]["edges"].as_u64(), Some(117));
    assert_eq!(y["vcg"]["longest_path"].as_u64(), Some(23));
    assert_eq!(y["density_profile"].as_sequence().unwrap().len(), 175);
    // 3 layers HVH: ceil(19 / 2) = 10.
    let l3 = &y["lower_bounds"]["by_layers"][2];
    assert_eq!(l3["layers"].as_u64(), Some(3));
    assert_eq!(l3["configurations"][0]["groups"].as_str(), Some("HVH"));
    assert_eq!(
        l3["configurations"][0]["width_lower_bound"].as_u64(),
        Some(10)
    );
    let stdout = text(&o.stdout);
    assert!(stdout.contains("longest path 23"), "{stdout}");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
}

#[test]
fn analyze_burstein_finds_one_cycle_of_ten_nets() {
    let dir = scratch("analyze-burstein");
    let out = dir.join("b.yaml");
    let o = run(fabric()
        .arg("analyze")
        .arg(bench("burstein"))
        .arg("-o")
        .arg(&out));
    assert!(o.status.success());
    let y = yaml(&out);
    assert_eq!(y["density"].as_u64(), Some(4));
    assert_eq!(y["vcg"]["acyclic"].as_bool(), Some(false));
    assert!(y["vcg"]["longest_path"].is_null());
    let comps = y["vcg"]["cyclic_components"].as_sequence().unwrap();
    assert_eq!(comps.len(), 1);
    assert_eq!(comps[0].as_sequence().unwrap().len(), 10);
    assert!(y["vcg"]["cycle"].as_sequence().unwrap().len() >= 2);
    assert_eq!(y["crossings"]["planar"].as_bool(), Some(false));
}

#[test]
fn route_writes_a_solution_that_verify_accepts() {
    let dir = scratch("route");
    let out = dir.join("sol.yaml");
    let svg = dir.join("sol.svg");
    let o = run(fabric()
        .arg("route")
        .arg(bench("dde"))
        .args(["--layers", "2", "--router", "left-edge", "--output"])
        .arg(&out)
        .arg("--svg")
        .arg(&svg));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let y = yaml(&out);
    assert_eq!(y["columns"].as_u64(), Some(175));
    assert_eq!(y["layers"].as_u64(), Some(2));
    assert_eq!(y["metrics"]["density"].as_u64(), Some(19));
    assert_eq!(y["metrics"]["width"], y["width"]);
    let svg_text = std::fs::read_to_string(&svg).unwrap();
    assert!(svg_text.contains("<title>net 3</title>"));
    let o = run(fabric().arg("verify").arg(bench("dde")).arg(&out));
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    assert!(text(&o.stdout).starts_with("legal"));
}

#[test]
fn verify_rejects_a_tampered_solution_with_exit_1() {
    let dir = scratch("tamper");
    let out = dir.join("sol.yaml");
    assert!(run(fabric()
        .arg("route")
        .arg(bench("yk_textbook12"))
        .arg("-o")
        .arg(&out))
    .status
    .success());
    let good = std::fs::read_to_string(&out).unwrap();
    // Claim one via fewer than there are.
    let y = yaml(&out);
    let vias = y["metrics"]["vias"].as_u64().unwrap();
    let bad = good.replace(
        &format!("  vias: {vias}\n"),
        &format!("  vias: {}\n", vias - 1),
    );
    assert_ne!(bad, good);
    let tampered = dir.join("bad.yaml");
    std::fs::write(&tampered, bad).unwrap();
    let o = run(fabric()
        .arg("verify")
        .arg(bench("yk_textbook12"))
        .arg(&tampered));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stdout).contains("metric vias"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn same_input_gives_byte_identical_outputs() {
    let dir = scratch("determinism");
    let mut files = Vec::new();
    for k in 0..2 {
        let (a, b) = (
            dir.join(format!("s{k}.yaml")),
            dir.join(format!("s{k}.svg")),
        );
        assert!(run(fabric()
            .arg("route")
            .arg(bench("dde_zhou"))
            .arg("-o")
            .arg(&a)
            .arg("--svg")
            .arg(&b))
        .status
        .success());
        files.push((std::fs::read(a).unwrap(), std::fs::read(b).unwrap()));
    }
    assert_eq!(files[0], files[1]);
}

/// `--starts`, `--seed` and `--effort`: one seed gives byte-identical
/// files, `fast` (the conflict-free path first) too and within a track of
/// density, the default effort needs no more tracks than no starts or
/// `fast`, and `thorough` no more than the default, and a bad count or
/// level is a usage error (exit 2) that writes nothing.
#[test]
fn jittered_starts_take_a_seed_and_never_widen() {
    let dir = scratch("starts");
    let width = |path: &Path| yaml(path)["metrics"]["width"].as_u64().unwrap();
    let route = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let o = run(fabric()
            .arg("route")
            .arg(bench("dde_zhou"))
            .args(["--router", "yacr", "-o"])
            .arg(&out)
            .args(extra));
        assert!(o.status.success(), "{}", text(&o.stderr));
        out
    };
    let (a, b) = (
        route("a.yaml", &["--starts", "3", "--seed", "9"]),
        route("b.yaml", &["--starts", "3", "--seed", "9"]),
    );
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let (none, default) = (route("none.yaml", &["--starts", "0"]), route("d.yaml", &[]));
    assert!(width(&default) <= width(&none));
    let fast = route("fast.yaml", &["--effort", "fast"]);
    let again = route("fast2.yaml", &["--effort", "fast"]);
    assert_eq!(
        std::fs::read(&fast).unwrap(),
        std::fs::read(&again).unwrap()
    );
    // dde_zhou's density is 19.
    assert!(width(&default) <= width(&fast) && width(&fast) <= 20);
    let thorough = route("t.yaml", &["--effort", "thorough"]);
    assert!(width(&thorough) <= width(&default));
    for f in [&a, &none, &default, &fast, &thorough] {
        let o = run(fabric().arg("verify").arg(bench("dde_zhou")).arg(f));
        assert!(o.status.success(), "{}", text(&o.stdout));
    }
    let bad = dir.join("bad.yaml");
    for (flag, value) in [("--starts", "many"), ("--effort", "lazy")] {
        let o = run(fabric()
            .arg("route")
            .arg(bench("dde_zhou"))
            .args(["--router", "yacr", flag, value, "-o"])
            .arg(&bad));
        assert_eq!(o.status.code(), Some(2));
        assert!(text(&o.stderr).contains(flag), "{}", text(&o.stderr));
        assert!(!bad.exists());
    }
}

#[test]
fn bad_inputs_exit_2_with_file_line_column_and_no_output() {
    let dir = scratch("bad");
    let cases: &[(&str, &str, &str)] = &[
        (
            "unequal.txt",
            "top: 1 2 3\nbottom: 1 2\n",
            "unequal.txt:2:1: unequal rows",
        ),
        (
            "word.txt",
            "top: 1 two\nbottom: 1 2\n",
            "word.txt:1:8: 'two' is not an integer",
        ),
        (
            "neg.txt",
            "top: 1 2\nbottom: 2 -1\n",
            "neg.txt:2:11: negative net id -1",
        ),
        (
            "single.txt",
            "top: 1 2 0\nbottom: 1 0 5\n",
            "single.txt:1:8: net 2 has a single pin",
        ),
        ("empty.txt", "# nothing\n", "empty.txt:2:1: no `top:` row"),
        (
            "zeros.txt",
            "top: 0 0\nbottom: 0 0\n",
            "zeros.txt:1:1: empty channel: no nets",
        ),
        (
            "nocols.txt",
            "top:\nbottom:\n",
            "nocols.txt:1:1: empty channel: no columns",
        ),
        (
            "yacr.in",
            "1 0 3\n2 3 x\n",
            "yacr.in:2:5: 'x' is not an integer",
        ),
        (
            "bad.yaml",
            "top: [1, 2]\nbottom: [1, -2]\n",
            "bad.yaml:2:13: `bottom` item 2: negative",
        ),
        (
            "key.yaml",
            "top: [1]\nbottom: [1]\nleft_side: [2]\n",
            "key.yaml:3:1: unknown key `left_side`",
        ),
    ];
    for (name, content, expected) in cases {
        let input = dir.join(name);
        std::fs::write(&input, content).unwrap();
        for sub in ["analyze", "route"] {
            let out = dir.join(format!("{name}.{sub}.out.yaml"));
            let svg = dir.join(format!("{name}.{sub}.out.svg"));
            let o = run(fabric()
                .arg(sub)
                .arg(&input)
                .arg("--output")
                .arg(&out)
                .arg("--svg")
                .arg(&svg));
            let err = text(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{name}: {err}");
            assert!(
                err.contains(expected),
                "{name}: expected `{expected}` in `{err}`"
            );
            assert!(!err.contains("panicked"), "{err}");
            assert!(!out.exists() && !svg.exists(), "{name}: output written");
        }
    }
    let o = run(fabric().arg("analyze").arg(dir.join("missing.txt")));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("missing.txt: cannot read"),
        "{}",
        text(&o.stderr)
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn refused_route_exits_1_and_writes_nothing() {
    let dir = scratch("refused");
    let input = dir.join("swap.txt");
    std::fs::write(&input, "top: 1 2\nbottom: 2 1\n").unwrap();
    let out = dir.join("out.yaml");
    let o = run(fabric()
        .arg("route")
        .arg(&input)
        .args(["--router", "left-edge", "-o"])
        .arg(&out));
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("cycle net"), "{}", text(&o.stderr));
    assert!(!out.exists());
    let o = run(fabric()
        .arg("route")
        .arg(&input)
        .args(["--router", "left-edge", "--layers", "3"]));
    assert_eq!(o.status.code(), Some(2));
    // The default router routes it (through the maze steps).
    let o = run(fabric().arg("route").arg(&input).arg("-o").arg(&out));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(out.exists());
    let o = run(fabric()
        .arg("route")
        .arg(&input)
        .args(["--router", "nonsense"]));
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn clashing_output_paths_are_refused_before_anything_is_written() {
    let dir = scratch("clash");
    let input = dir.join("ch.txt");
    std::fs::write(&input, "top: 1 0\nbottom: 0 1\n").unwrap();
    let out = dir.join("same.out");
    let o = run(fabric()
        .arg("route")
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .arg("--svg")
        .arg(&out));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("two outputs"),
        "{}",
        text(&o.stderr)
    );
    assert!(!out.exists());
    let o = run(fabric().arg("analyze").arg(&input).arg("-o").arg(&input));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(&input).unwrap(),
        "top: 1 0\nbottom: 0 1\n"
    );
}

#[test]
fn malformed_solution_file_is_an_input_error() {
    let dir = scratch("badsol");
    let sol = dir.join("sol.yaml");
    std::fs::write(
        &sol,
        "layers: 2\nwidth: 3\ncolumns: 12\nwires:\n  - {net: 1, layer: 1, from: [0], to: [1, 1]}\n",
    )
    .unwrap();
    let o = run(fabric().arg("verify").arg(bench("burstein")).arg(&sol));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("sol.yaml:5"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn help_examples_run_as_written() {
    let dir = scratch("help");
    #[cfg(unix)]
    std::os::unix::fs::symlink(root().join("benchmarks"), dir.join("benchmarks")).unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_fabric")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for sub in ["analyze", "route", "verify"] {
        let help = text(&run(fabric().args([sub, "--help"])).stdout);
        for line in help
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("fabric "))
        {
            let o = run(Command::new("sh")
                .arg("-c")
                .arg(line)
                .current_dir(&dir)
                .env("PATH", &path));
            assert!(o.status.success(), "`{line}` failed: {}", text(&o.stderr));
            ran += 1;
        }
    }
    assert!(ran >= 5, "only {ran} examples found");
}

#[test]
fn separation_reports_both_conventions_and_the_deciding_cut() {
    let dir = scratch("separation");
    // A staircase channel (0-based columns): separation 3, width 4, and a
    // critical cut of flow 4.
    let input = dir.join("stair.txt");
    std::fs::write(&input, "top: 1 1 2 3 0 0\nbottom: 0 2 3 4 0 4\n").unwrap();
    let out = dir.join("sep.yaml");
    let o = run(fabric().arg("separation").arg(&input).arg("-o").arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let y = yaml(&out);
    assert_eq!(y["separation"].as_i64(), Some(3));
    assert_eq!(y["width"].as_u64(), Some(4));
    assert_eq!(y["critical_cut"]["flow"].as_u64(), Some(4));
    assert_eq!(y["critical_cut"]["dx"].as_u64(), Some(2));
    // Crossing nets: no one-layer routing, exit 1 naming two nets.
    let o = run(fabric().arg("separation").arg(bench("yk_textbook12")));
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("cross"), "{}", text(&o.stderr));
}

#[test]
fn one_layer_routes_a_planar_channel_and_refuses_a_crossing_one() {
    let dir = scratch("one-layer");
    let input = dir.join("stair.txt");
    std::fs::write(&input, "top: 1 1 2 3 0 0\nbottom: 0 2 3 4 0 4\n").unwrap();
    let out = dir.join("sol.yaml");
    let o = run(fabric()
        .arg("route")
        .arg(&input)
        .args(["--layers", "1", "-o"])
        .arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let y = yaml(&out);
    assert_eq!(y["width"].as_u64(), Some(4)); // separation 3 + 1
    assert_eq!(y["metrics"]["vias"].as_u64(), Some(0));
    assert!(
        run(fabric().arg("verify").arg(&input).arg(&out).arg("--strict"))
            .status
            .success()
    );
    let o = run(fabric()
        .arg("route")
        .arg(bench("burstein"))
        .args(["--layers", "1"]));
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("cross"), "{}", text(&o.stderr));
}

#[test]
fn mulch_report_shows_the_partition_and_the_result_without_b_layers() {
    let dir = scratch("mulch-report");
    let out = dir.join("dde4.yaml");
    let o = run(fabric()
        .args(["route", "--layers", "4", "--output"])
        .arg(&out)
        .arg(bench("dde")));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let stdout = text(&o.stdout);
    assert!(stdout.contains("without B layers"), "{stdout}");
    let y = yaml(&out);
    let m = &y["mulch"];
    assert_eq!(m["attempts"][0]["b"].as_u64(), Some(0));
    let chosen = m["chosen"]["width"].as_u64().unwrap();
    let without = m["without_b_layers"]["width"].as_u64().unwrap();
    assert!(chosen <= 10 && chosen <= without, "{chosen} {without}");
    assert_eq!(y["width"].as_u64(), Some(chosen.min(without)));
    // Group figures add up to the totals.
    let groups = m["chosen"]["groups"].as_sequence().unwrap();
    let vias: u64 = groups.iter().map(|g| g["vias"].as_u64().unwrap()).sum();
    assert_eq!(Some(vias), m["chosen"]["vias"].as_u64());
    // The file stays a docs/formats.md solution: verify reads it.
    let v = run(fabric()
        .arg("verify")
        .arg("--strict")
        .arg(bench("dde"))
        .arg(&out));
    assert!(v.status.success(), "{}", text(&v.stdout));

    // --no-b-layers: Chameleon's packing only.
    let o = run(fabric()
        .args(["route", "--layers", "4", "--no-b-layers", "--output"])
        .arg(&out)
        .arg(bench("dde")));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let y = yaml(&out);
    let types: Vec<&str> = y["groups"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|g| g["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["HV", "HV"]);
    assert_eq!(y["width"].as_u64(), Some(without));
}

#[test]
fn mulch_exact_reports_the_integer_program() {
    let dir = scratch("mulch-exact");
    let out = dir.join("yk3.yaml");
    let o = run(fabric()
        .args([
            "route",
            "--layers",
            "3",
            "--exact",
            "--time-limit",
            "20",
            "--output",
        ])
        .arg(&out)
        .arg(bench("yk_textbook12")));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let y = yaml(&out);
    let e = &y["mulch"]["exact"];
    assert_eq!(e["bound"].as_u64(), Some(2));
    assert_eq!(e["attained"].as_bool(), Some(true));
    assert_eq!(y["width"].as_u64(), Some(2));
    assert_eq!(y["mulch"]["answer"]["kind"].as_str(), Some("exact"));
    // Options that make no sense together are usage errors (exit 2).
    let o = run(fabric()
        .args(["route", "--time-limit", "3"])
        .arg(bench("yk_textbook12")));
    assert_eq!(o.status.code(), Some(2));
    let o = run(fabric()
        .args(["route", "--router", "mulch", "--model", "HV"])
        .arg(bench("yk_textbook12")));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--model"));
}

#[test]
fn switchbox_reports_routability_and_the_unsafe_cut() {
    let dir = scratch("switchbox");
    let sb = |name: &str| {
        root()
            .join("benchmarks/switchboxes")
            .join(format!("{name}.txt"))
    };
    let out = dir.join("small.yaml");
    let o = run(fabric()
        .arg("switchbox")
        .arg(sb("small"))
        .arg("-o")
        .arg(&out));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(yaml(&out)["routable"].as_bool(), Some(true));
    let out = dir.join("tight.yaml");
    let o = run(fabric()
        .arg("switchbox")
        .arg(sb("tight"))
        .arg("-o")
        .arg(&out));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));
    let y = yaml(&out);
    assert_eq!(y["routable"].as_bool(), Some(false));
    assert_eq!(y["obstacle"]["kind"].as_str(), Some("unsafe_cut"));
    assert_eq!(y["obstacle"]["flow"].as_u64(), Some(3));
    assert_eq!(y["obstacle"]["capacity"].as_u64(), Some(2));
    // A bad file: exit 2, file:line:column, no output written.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "height: 2\ntop: 1 0\nbottom: 0 z\nleft: 1\n").unwrap();
    let out = dir.join("bad.yaml");
    let o = run(fabric().arg("switchbox").arg(&bad).arg("-o").arg(&out));
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("bad.txt:3:11"), "{err}");
    assert!(!out.exists());
}

#[test]
fn layout_writes_a_file_that_verify_layout_accepts() {
    let dir = scratch("layout");
    let out = dir.join("ft.yaml");
    let svg = dir.join("ft.svg");
    let o = run(fabric()
        .args([
            "layout",
            "fat-tree",
            "--size",
            "64",
            "--capacity",
            "sqrt",
            "-o",
        ])
        .arg(&out)
        .arg("--svg")
        .arg(&svg));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let y = yaml(&out);
    assert_eq!(y["metrics"]["width"].as_u64(), Some(32));
    assert_eq!(y["recurrence"]["side"].as_u64(), Some(32));
    assert_eq!(y["geometry"]["nodes"].as_sequence().unwrap().len(), 127);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let v = run(fabric().arg("verify-layout").arg(&out));
    assert!(v.status.success(), "{}", text(&v.stdout));
    // A tampered file: two wires moved onto one line, a wrong area.
    let textual = std::fs::read_to_string(&out).unwrap();
    let bad = dir.join("bad.yaml");
    std::fs::write(&bad, textual.replace("area: 1024", "area: 1000")).unwrap();
    let v = run(fabric().arg("verify-layout").arg(&bad));
    assert_eq!(v.status.code(), Some(1));
    assert!(
        text(&v.stdout).contains("area is 1000"),
        "{}",
        text(&v.stdout)
    );
    let moved = edited_layout(&out, |y| {
        let edges = y["geometry"]["edges"].as_sequence_mut().unwrap();
        let path = &mut edges[0]["path"];
        assert_eq!(
            *path,
            serde_norway::from_str::<serde_norway::Value>("[[0, 0], [0, 1]]").unwrap()
        );
        *path = serde_norway::from_str("[[0, 0], [1, 0], [1, 1], [0, 1]]").unwrap();
    });
    std::fs::write(&bad, moved).unwrap();
    let v = run(fabric().arg("verify-layout").arg(&bad));
    assert_eq!(v.status.code(), Some(1), "{}", text(&v.stdout));
    // Not YAML: exit 2 with file and line.
    std::fs::write(
        &bad,
        "dimensions: 2\nnodes: [{id: 0, min: [0, 0], max: [0]}]\n",
    )
    .unwrap();
    let v = run(fabric().arg("verify-layout").arg(&bad));
    assert_eq!(v.status.code(), Some(2));
    assert!(text(&v.stderr).contains("bad.yaml"), "{}", text(&v.stderr));
    // Bad parameters: exit 2, nothing written.
    let none = dir.join("none.yaml");
    let o = run(fabric()
        .args(["layout", "htree", "--size", "12", "-o"])
        .arg(&none));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("power of 2"),
        "{}",
        text(&o.stderr)
    );
    assert!(!none.exists());
    let o = run(fabric()
        .args(["layout", "fat-tree", "--size", "8", "-o"])
        .arg(&none));
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("power of 4"));
    assert!(!none.exists());
}

/// `fabric layout butterfly --size N`: N that is not a power of 2 of at
/// least 2, or whose layout is over the memory budget or the checker's
/// raster, is refused with exit 2 before anything is built, and nothing is
/// written; a good N writes a file that verify-layout accepts as the
/// butterfly its `rows` describe, with its figures on the terminal.
#[test]
fn butterfly_layout_refuses_bad_sizes_before_any_work() {
    let dir = scratch("butterfly");
    let out = dir.join("b.yaml");
    let needs = "rows: the butterfly B(n) needs N = 2^n rows, a power of 2 of at least 2";
    let cases: [(&[&str], String); 6] = [
        (&["--size", "12"], format!("12 {needs}")),
        (&["--size", "1"], format!("1 {needs}")),
        (&["--size", "0"], format!("0 {needs}")),
        (
            &["--size", "8192"],
            "more than the budget of 16.00 GiB".into(),
        ),
        (
            &["--size", "9223372036854775808"],
            "more than the budget of 16.00 GiB".into(),
        ),
        (
            &["--size", "8192", "--memory", "64"],
            "a layout of 16396 x 24576 is more than the checker's 268435456 grid points".into(),
        ),
    ];
    for (args, want) in cases {
        let start = std::time::Instant::now();
        let o = run(fabric()
            .args(["layout", "butterfly"])
            .args(args)
            .arg("-o")
            .arg(&out));
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(&want), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote output");
        assert!(start.elapsed().as_secs() < 5, "{args:?}");
    }
    let o = run(fabric()
        .args(["layout", "butterfly", "--size", "8", "-o"])
        .arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let stdout = text(&o.stdout);
    for want in [
        "butterfly (rows 8): 18 x 24, area 432",
        "area / N^2 = 6.750",
        "longest wire 23 = 5N/2 + 3 = 23",
    ] {
        assert!(stdout.contains(want), "{want}: {stdout}");
    }
    let y = yaml(&out);
    assert_eq!(y["network"].as_str(), Some("butterfly"));
    assert_eq!(y["geometry"]["nodes"].as_sequence().unwrap().len(), 32);
    assert_eq!(y["geometry"]["edges"].as_sequence().unwrap().len(), 48);
    let v = run(fabric().arg("verify-layout").arg(&out));
    assert!(v.status.success(), "{}", text(&v.stdout));
    assert!(text(&v.stdout).contains("realises the intended butterfly"));
    // The same drawing claiming another butterfly is refused.
    let bad = dir.join("bad.yaml");
    let good = std::fs::read_to_string(&out).unwrap();
    std::fs::write(&bad, good.replacen("  rows: '8'", "  rows: '4'", 1)).unwrap();
    let v = run(fabric().arg("verify-layout").arg(&bad));
    assert_eq!(v.status.code(), Some(1), "{}", text(&v.stdout));
    assert!(text(&v.stdout).contains("network: 32 nodes, but the intended network has 12"));
}

#[test]
fn layout_sweep_reports_exponents_and_draws_a_chart() {
    let dir = scratch("sweep");
    let out = dir.join("sweep.yaml");
    let svg = dir.join("sweep.svg");
    let o = run(fabric()
        .args(["layout", "htree", "--sweep", "-o"])
        .arg(&out)
        .arg("--svg")
        .arg(&svg));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let y = yaml(&out);
    let sizes = y["sizes"].as_sequence().unwrap();
    assert_eq!(sizes.len(), 8);
    for s in sizes {
        assert_eq!(s["side"], s["recurrence_side"]);
        assert_eq!(s["max_wire_length"], s["formula_max_wire_length"]);
    }
    // The H-tree's longest wire is sqrt(n) / 2: exponent 1/2 exactly.
    let e = y["fitted_exponent"]["max_wire_length"].as_f64().unwrap();
    assert!((e - 0.5).abs() < 1e-3, "{e}");
    let a = y["fitted_exponent"]["area"].as_f64().unwrap();
    assert!((1.0..1.1).contains(&a), "{a}");
    assert!(std::fs::read_to_string(&svg)
        .unwrap()
        .contains("fitted exponent"));
    // --sweep and --size do not go together.
    let o = run(fabric().args(["layout", "htree", "--sweep", "--size", "16"]));
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn simulate_reports_cycles_against_lambda_and_is_reproducible() {
    let dir = scratch("simulate");
    let (a, b, plot) = (dir.join("a.yaml"), dir.join("b.yaml"), dir.join("c.svg"));
    let sim = |out: &Path, threads: &str| {
        run(fabric()
            .env("RAYON_NUM_THREADS", threads)
            .args(["simulate", "fat-tree", "--algorithm", "random", "--traffic"])
            .args([
                "permutation",
                "--size",
                "64",
                "--rate",
                "1,4",
                "--trials",
                "5",
            ])
            .args(["--seed", "9", "-o"])
            .arg(out)
            .arg("--plot")
            .arg(&plot))
    };
    let o = sim(&a, "1");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = sim(&b, "2");
    assert!(o.status.success(), "{}", text(&o.stderr));
    // Same seed, different thread counts: byte-identical reports.
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let y = yaml(&a);
    assert_eq!(y["simulation"]["processors"].as_u64(), Some(64));
    let runs = y["runs"].as_sequence().unwrap();
    assert_eq!(runs.len(), 2);
    for r in runs {
        assert_eq!(r["complete"].as_u64(), Some(5));
        let trials = r["per_trial"].as_sequence().unwrap();
        assert_eq!(trials.len(), 5);
        for t in trials {
            let (cycles, lambda) = (t["cycles"].as_f64().unwrap(), t["lambda"].as_f64().unwrap());
            assert!(cycles >= lambda.ceil(), "{t:?}");
            assert_eq!(t["delivered"].as_u64(), t["messages"].as_u64());
            assert!(t["channel"]["load"].as_u64().unwrap() > 0);
        }
    }
    assert!(std::fs::read_to_string(&plot).unwrap().contains("<svg"));
    // Another seed, another report.
    let o = run(fabric()
        .args([
            "simulate", "fat-tree", "--size", "64", "--rate", "1,4", "--trials", "5",
        ])
        .args(["--seed", "10", "-o"])
        .arg(&b));
    assert!(o.status.success());
    assert_ne!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn simulate_takes_wire_lengths_from_a_layout_file() {
    let dir = scratch("simulate-layout");
    let (layout, out) = (dir.join("ft.yaml"), dir.join("sim.yaml"));
    let o = run(fabric()
        .args([
            "layout",
            "fat-tree",
            "--size",
            "256",
            "--capacity",
            "sqrt",
            "-o",
        ])
        .arg(&layout));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = run(fabric()
        .args([
            "simulate",
            "fat-tree",
            "--algorithm",
            "greedy",
            "--traffic",
            "random",
        ])
        .args(["--delay", "linear", "--trials", "2", "--layout"])
        .arg(&layout)
        .arg("-o")
        .arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let y = yaml(&out);
    assert_eq!(y["simulation"]["processors"].as_u64(), Some(256));
    assert_eq!(y["simulation"]["capacity"].as_str(), Some("ceil(sqrt(p))"));
    let lengths: Vec<u64> = y["time_model"]["wire_length"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    // Longer wires higher up, and linear delay = length.
    assert!(lengths[6] > lengths[0], "{lengths:?}");
    let delays = y["time_model"]["wire_delay"].as_sequence().unwrap();
    assert_eq!(delays[6].as_f64(), Some(lengths[6] as f64));
    // The butterfly fat-tree algorithm needs a butterfly fat-tree layout.
    let o = run(fabric()
        .args([
            "simulate",
            "fat-tree",
            "--algorithm",
            "butterfly-fat-tree",
            "--layout",
        ])
        .arg(&layout));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    // A layout whose wire has been moved is refused before any simulation.
    let broken = dir.join("broken.yaml");
    let moved = edited_layout(&layout, |y| {
        let edges = y["geometry"]["edges"].as_sequence_mut().unwrap();
        let path = edges[0]["path"].as_sequence_mut().unwrap();
        path.insert(0, serde_norway::from_str("[999, 999]").unwrap());
    });
    std::fs::write(&broken, moved).unwrap();
    let o = run(fabric()
        .args(["simulate", "fat-tree", "-o"])
        .arg(&out)
        .arg("--layout")
        .arg(&broken));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("broken.yaml"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn simulate_refuses_bad_options_without_output() {
    let dir = scratch("simulate-bad");
    let out = dir.join("never.yaml");
    for args in [
        vec!["--size", "100"],
        vec![
            "--size",
            "64",
            "--traffic",
            "greedy-adversary",
            "--rate",
            "13",
        ],
        vec![
            "--size",
            "64",
            "--traffic",
            "greedy-adversary",
            "--capacity",
            "sqrt",
        ],
        vec![
            "--size",
            "64",
            "--algorithm",
            "butterfly-fat-tree",
            "--capacity",
            "sqrt",
        ],
        vec!["--size", "64", "--algorithm", "greedy", "--k1", "3"],
        vec!["--size", "64", "--traffic", "local", "--subtree", "3"],
        vec!["--size", "64", "--rate", "0"],
        vec!["--size", "64", "--r", "x"],
        vec!["--size", "64", "--capacity", "table:1,2"],
        vec![
            "--size",
            "64",
            "--algorithm",
            "greedy",
            "--policy",
            "drop-all",
        ],
        vec!["--size", "64", "--constants", "proof", "--k1", "3"],
        vec!["--size", "64", "--algorithm", "greedy", "--interleave"],
    ] {
        let o = run(fabric()
            .args(["simulate", "fat-tree", "-o"])
            .arg(&out)
            .args(&args));
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(!text(&o.stderr).contains("panicked"), "{args:?}");
        assert!(!out.exists(), "{args:?} left an output");
    }
    // Out of cycles: a report, and exit 1.
    let o = run(fabric()
        .args([
            "simulate",
            "fat-tree",
            "--size",
            "16",
            "--rate",
            "8",
            "--max-cycles",
            "3",
        ])
        .arg("-o")
        .arg(&out));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_eq!(yaml(&out)["runs"][0]["complete"].as_u64(), Some(0));
}

#[test]
fn folded_3d_and_pyramid_layouts_round_trip_through_verify_layout() {
    let dir = scratch("folded-layouts");
    for (kind, args) in [
        (
            "folded-tree-of-meshes",
            vec!["--size", "8", "--levels", "5"],
        ),
        ("tree-of-meshes-3d", vec!["--size", "4", "--levels", "6"]),
        ("fat-pyramid", vec!["--size", "1024"]),
        ("fat-tree-3d", vec!["--size", "512"]),
        ("fat-pyramid", vec!["--size", "256", "--mesh-capacity", "6"]),
        // One butterfly level: no mesh, whatever the mesh capacity.
        ("fat-pyramid", vec!["--size", "4", "--mesh-capacity", "6"]),
        (
            "fat-tree-3d",
            vec!["--size", "64", "--capacity", "two-thirds", "--omega", "2"],
        ),
    ] {
        let (out, svg) = (
            dir.join(format!("{kind}.yaml")),
            dir.join(format!("{kind}.svg")),
        );
        let o = run(fabric()
            .args(["layout", kind])
            .args(&args)
            .arg("-o")
            .arg(&out)
            .arg("--svg")
            .arg(&svg));
        assert!(o.status.success(), "{kind}: {}", text(&o.stderr));
        assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
        let o = run(fabric().arg("verify-layout").arg(&out));
        assert!(o.status.success(), "{kind}: {}", text(&o.stdout));
        let said = text(&o.stdout);
        assert!(said.contains("realises the intended"), "{kind}: {said}");
        if kind.ends_with("-3d") {
            assert!(said.contains("volume"), "{said}");
            assert_eq!(yaml(&out)["dimensions"].as_u64(), Some(3));
        }
        // A node moved onto another's position is caught.
        let broken = dir.join(format!("{kind}-broken.yaml"));
        let changed = edited_layout(&out, |y| {
            let nodes = y["geometry"]["nodes"].as_sequence_mut().unwrap();
            for key in ["min", "max"] {
                nodes[1][key] = nodes[0][key].clone();
            }
        });
        std::fs::write(&broken, changed).unwrap();
        let o = run(fabric().arg("verify-layout").arg(&broken));
        assert_eq!(o.status.code(), Some(1), "{kind}: {}", text(&o.stdout));
    }
    for args in [
        vec!["tree-of-meshes-3d", "--size", "4", "--levels", "7"],
        vec!["fat-pyramid", "--size", "8"],
        vec!["fat-pyramid", "--size", "64", "--levels", "2"],
        vec!["folded-tree-of-meshes", "--size", "3"],
        vec!["fat-tree-3d", "--size", "64", "--alpha", "4"],
        vec!["fat-tree-3d", "--size", "16"],
        vec!["fat-tree", "--size", "16", "--mesh-capacity", "6"],
        vec![
            "fat-tree-3d",
            "--size",
            "8",
            "--capacity",
            "table:1,100000000000000,1,1",
        ],
        vec![
            "fat-tree-3d",
            "--size",
            "8",
            "--capacity",
            "table:1,1,1,1000000000000",
        ],
    ] {
        let o = run(fabric().arg("layout").args(&args));
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
    }
}

/// Inputs the checkers cannot rasterise are errors (exit 2, naming the
/// file), not verdicts; sizes past what fits in memory are refused before
/// anything is built; layout parameters that describe a network larger
/// than the file are refused without building it (they used to overflow,
/// abort on a failed allocation, or be cut to 32 bits); a wrong claimed
/// depth is caught; extreme coordinates do not overflow the wire lengths.
#[test]
fn what_cannot_be_checked_is_an_error_and_nothing_huge_is_built() {
    let dir = scratch("too-large");
    let p = dir.join("p.txt");
    std::fs::write(&p, "top: 1\nbottom: 1\n").unwrap();
    let s = dir.join("s.yaml");
    let wire = "wires:\n  - {net: 1, layer: 1, from: [0, 0], to: [0, 1]}\n";
    std::fs::write(
        &s,
        format!("layers: 50000000\nwidth: 0\ncolumns: 1\n{wire}"),
    )
    .unwrap();
    let o = run(fabric().arg("verify").arg(&p).arg(&s));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stdout));
    assert!(
        text(&o.stderr).contains("s.yaml: too large to check"),
        "{}",
        text(&o.stderr)
    );
    // The same file in two layers is legal.
    std::fs::write(&s, format!("layers: 2\nwidth: 0\ncolumns: 1\n{wire}")).unwrap();
    assert!(run(fabric().arg("verify").arg(&p).arg(&s)).status.success());

    let l = dir.join("l.yaml");
    let custom = |nodes: &str, edges: &str| {
        format!("network: custom\ndimensions: 2\nnodes:\n{nodes}edges: {edges}\n")
    };
    std::fs::write(
        &l,
        custom(
            "  - {id: 0, min: [0, 0], max: [0, 0]}\n  - {id: 1, min: [46339, 46339], max: [46339, 46339]}\n",
            "[]",
        ),
    )
    .unwrap();
    let o = run(fabric().arg("verify-layout").arg(&l));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("l.yaml: cannot be checked"),
        "{}",
        text(&o.stderr)
    );
    // Wire lengths past u64 saturate: the file is refused, no overflow.
    std::fs::write(
        &l,
        custom(
            "  - {id: 0, min: [0, 0], max: [0, 0]}\n  - {id: 1, min: [4, 0], max: [4, 0]}\n",
            "\n  - {id: 0, from: 0, to: 1, path: [[0, 0], [-9223372036854775808, 0], [4, 0]]}",
        ),
    )
    .unwrap();
    let o = run(fabric().arg("verify-layout").arg(&l));
    assert!(
        matches!(o.status.code(), Some(1 | 2)),
        "{}",
        text(&o.stderr)
    );
    assert!(!text(&o.stderr).contains("panicked"), "{}", text(&o.stderr));

    let none = dir.join("none.yaml");
    for args in [
        ["htree", "--size", "67108864"],
        ["tree-of-meshes", "--size", "1024"],
        ["tree-of-meshes-3d", "--size", "64"],
        ["fat-tree-3d", "--size", "16777216"],
    ] {
        let o = run(fabric().arg("layout").args(args).arg("-o").arg(&none));
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            text(&o.stderr).contains("more than the budget"),
            "{}",
            text(&o.stderr)
        );
        assert!(!none.exists());
    }

    // A real layout with its parameters or depth tampered with.
    let t = dir.join("t.yaml");
    let o = run(fabric()
        .args(["layout", "tree-of-meshes", "--size", "4", "-o"])
        .arg(&t));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let good = std::fs::read_to_string(&t).unwrap();
    let bad = dir.join("bad.yaml");
    for (from, to, says) in [
        (
            "  levels: '4'\n",
            "  levels: '4294967300'\n",
            "`levels` is too large",
        ),
        ("  depth: null\n", "  depth: 5\n", "depth is 5"),
    ] {
        let changed = good.replacen(from, to, 1);
        assert_ne!(changed, good, "{from} in the file");
        std::fs::write(&bad, changed).unwrap();
        let o = run(fabric().arg("verify-layout").arg(&bad));
        assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));
        assert!(text(&o.stdout).contains(says), "{}", text(&o.stdout));
    }
    let one = |params: &str| {
        format!(
            "network: htree\nparameters: {{{params}}}\ndimensions: 2\nnodes:\n  - {{id: 0, kind: processor, min: [0, 0], max: [0, 0]}}\nedges: []\n"
        )
    };
    for params in [
        "processors: 1099511627776, capacity: one, omega: 1",
        "processors: 9223372036854775808, capacity: one, omega: 1",
    ] {
        std::fs::write(&bad, one(params)).unwrap();
        let o = run(fabric().arg("verify-layout").arg(&bad));
        assert_eq!(o.status.code(), Some(1), "{params}: {}", text(&o.stderr));
        assert!(
            text(&o.stdout).contains("more processors than the layout's 1"),
            "{}",
            text(&o.stdout)
        );
    }
}

/// A round-robin channel: net `x % nets + 1` on top of column x, the net
/// half way round on the bottom (density `nets`, every pair of nets
/// crossing many times).
fn round_robin(path: &Path, columns: usize, nets: usize) {
    let row = |shift: usize| -> String {
        (0..columns)
            .map(|x| ((x + shift) % nets + 1).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    std::fs::write(
        path,
        format!("top: {}\nbottom: {}\n", row(0), row(nets / 2)),
    )
    .unwrap();
}

/// Oversized jobs are refused before anything is built: exit 2, a message
/// naming the limit, no output file.
#[test]
fn oversized_jobs_are_refused_naming_the_limit() {
    let dir = scratch("limits");
    let sb = dir.join("tall.txt");
    std::fs::write(&sb, "height: 4000000000\ntop: 1 2\nbottom: 1 2\n").unwrap();
    let rr = dir.join("rr.txt");
    round_robin(&rr, 100_000, 1_000);
    let wide = dir.join("wide.txt");
    round_robin(&wide, 200_000, 100);
    let out = dir.join("out.yaml");
    let (sb, rr, wide) = (
        sb.to_str().unwrap(),
        rr.to_str().unwrap(),
        wide.to_str().unwrap(),
    );
    // Each job also asks for an output file, which must not appear.
    let cases: [(&[&str], &str); 7] = [
        (&["switchbox", sb], "limit of 16777216 for a switchbox side"),
        (
            &[
                "simulate",
                "fat-tree",
                "--size",
                "16",
                "--rate",
                "1000000000",
                "--trials",
                "1",
            ],
            "budget of 16.00 GiB",
        ),
        (
            &["layout", "fat-tree", "--size", "16777216"],
            "budget of 16.00 GiB",
        ),
        (
            &["layout", "fat-tree", "--size", "4194304", "--memory", "1"],
            "budget of 1.00 GiB",
        ),
        (&["analyze", rr], "limit of 134217728 events"),
        (&["route", rr], "limit of 134217728 events"),
        (
            &["route", wide, "--layers", "8"],
            "limit of 134217728 grid points",
        ),
    ];
    for (args, want) in cases {
        let start = std::time::Instant::now();
        let o = run(fabric().args(args).arg("-o").arg(&out));
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(err.contains("docs/limits.md"), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote output");
        assert!(
            start.elapsed().as_secs() < 5,
            "{args:?} took {:?}",
            start.elapsed()
        );
    }
}

/// YAML tags are refused with their position; a layout's meaning errors
/// name their line.
/// The layout report at `path` with `edit` applied, as YAML.
fn edited_layout(path: &Path, edit: impl FnOnce(&mut serde_norway::Value)) -> String {
    let mut y = yaml(path);
    edit(&mut y);
    serde_norway::to_string(&y).unwrap()
}

#[test]
fn yaml_tags_and_layout_meaning_errors_name_the_line() {
    let dir = scratch("yaml-tags");
    let ch = dir.join("tagged.yaml");
    std::fs::write(
        &ch,
        "top: [1, 2]\nbottom: !!python/object:os.system [2, 1]\n",
    )
    .unwrap();
    let o = run(fabric().arg("analyze").arg(&ch));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("tagged.yaml:2:9: YAML tag `!!python/object:os.system`"),
        "{}",
        text(&o.stderr)
    );
    let lay = dir.join("h.yaml");
    let o = run(fabric()
        .args(["layout", "htree", "--size", "4", "-o"])
        .arg(&lay));
    assert!(o.status.success());
    let t = std::fs::read_to_string(&lay).unwrap();
    let line = t
        .lines()
        .position(|l| l.starts_with("dimensions:"))
        .unwrap()
        + 1;
    std::fs::write(&lay, t.replace("dimensions: 2", "dimensions: 4")).unwrap();
    let o = run(fabric().arg("verify-layout").arg(&lay));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains(&format!("h.yaml:{line}: dimensions must be 2 or 3")),
        "{}",
        text(&o.stderr)
    );
}

/// `route` reports the unit edges against their layer's direction; `verify`
/// notes them and passes, `verify --reserved` refuses them (exit 1).
#[test]
fn verify_reserved_refuses_edges_against_their_layer() {
    let dir = scratch("reserved");
    let out = dir.join("dde.yaml");
    let dde = format!("{}/benchmarks/channels/dde.txt", env!("CARGO_MANIFEST_DIR"));
    let o = run(Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args(["route", &dde, "--layers", "2", "--output"])
        .arg(&out));
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    let line = text
        .lines()
        .find(|l| l.contains("against direction"))
        .expect("reported");
    let count: u64 = line.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(count > 0, "{line}");
    let o = run(Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args(["verify", &dde])
        .arg(&out));
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains(&format!("note: {count} unit edge(s)")));
    let o = run(Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args(["verify", "--reserved", &dde])
        .arg(&out));
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains(&format!("illegal: {count} violation(s)")));
}

/// `route --reserved` routes DDE with every wire in its layer's direction:
/// `verify --reserved` passes the file; a router that does not take the
/// rule is refused before any work (exit 2, no output file).
#[test]
fn route_reserved_writes_what_verify_reserved_accepts() {
    let dir = scratch("route-reserved");
    let out = dir.join("dde.yaml");
    let dde = bench("dde");
    let o = run(fabric()
        .arg("route")
        .arg(&dde)
        .args(["--model", "HV", "--reserved", "--output"])
        .arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("against direction: none (--reserved"),
        "{}",
        text(&o.stdout)
    );
    let y = yaml(&out);
    assert_eq!(y["conventions"]["against_direction"].as_u64(), Some(0));
    let o = run(fabric().arg("verify").arg("--reserved").arg(&dde).arg(&out));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    assert!(text(&o.stdout).starts_with("legal: dde"));
    let refused = dir.join("left.yaml");
    let o = run(fabric()
        .arg("route")
        .arg(&dde)
        .args(["--router", "left-edge", "--reserved", "--output"])
        .arg(&refused));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr)
            .contains("--reserved applies to the yacr, mulch and greedy routers, not left-edge"),
        "{}",
        text(&o.stderr)
    );
    assert!(!refused.exists());
}
