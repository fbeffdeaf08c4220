//! Messages a new user meets, each tried as written: every one says what
//! is wrong and what to do, fails before any work, and writes nothing.

use std::path::PathBuf;
use std::process::{Command, Output};

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-msg-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fabric(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args(args)
        .output()
        .expect("the fabric binary runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

const DDE: &str = "benchmarks/channels/dde.txt";

#[test]
fn a_model_sets_its_layers() {
    let o = fabric(&["route", DDE, "--model", "HVH"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("in 3 layers"), "{}", text(&o));
    let o = fabric(&["route", DDE, "--model", "HVH", "--layers", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let t = text(&o);
    assert!(
        t.contains("--model HVH routes in 3 layers") && t.contains("drop --layers"),
        "{t}"
    );
}

#[test]
fn an_output_folder_that_does_not_exist_fails_before_routing() {
    let dir = scratch("folder");
    let out = dir.join("no/such/x.yaml");
    let o = fabric(&["route", DDE, "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let t = text(&o);
    assert!(t.contains("does not exist"), "{t}");
    // Nothing was routed: no summary line.
    assert!(!t.contains("routed"), "{t}");
    // A folder given as the output.
    let o = fabric(&["route", DDE, "-o", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("is a folder"), "{}", text(&o));
}

#[test]
fn dash_is_not_a_file_name() {
    let dir = scratch("dash");
    let o = Command::new(env!("CARGO_BIN_EXE_fabric"))
        .current_dir(&dir)
        .args([
            "route",
            &std::fs::canonicalize(DDE).unwrap().display().to_string(),
            "-o",
            "-",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("instead of `-`"), "{}", text(&o));
    assert!(!dir.join("-").exists());
}

#[test]
fn a_routed_channel_is_not_a_layout() {
    let dir = scratch("notlayout");
    let routed = dir.join("dde.yaml");
    let o = fabric(&["route", DDE, "-o", routed.to_str().unwrap()]);
    assert!(o.status.success());
    let o = fabric(&["verify-layout", routed.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let t = text(&o);
    assert!(
        t.contains("not a layout file") && t.contains("fabric verify CHANNEL FILE"),
        "{t}"
    );
}

#[test]
fn htree_sizes_are_powers_of_two_in_help_and_error() {
    let o = fabric(&["layout", "htree", "--size", "100"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("power of 2 (1, 2, 4, 8"), "{}", text(&o));
    let help = text(&fabric(&["layout", "--help"]));
    assert!(
        help.contains("a power of 2 for\n") || help.contains("(a power of 2 for"),
        "{help}"
    );
    assert!(fabric(&["layout", "htree", "--size", "8"]).status.success());
}

#[test]
fn left_edge_on_a_cyclic_channel_suggests_yacr() {
    // Nets 1 and 2 constrain each other both ways: column 1 has 1 above 2,
    // column 2 has 2 above 1.
    let dir = scratch("cyclic");
    let file = dir.join("cyc.txt");
    std::fs::write(&file, "top: 1 2\nbottom: 2 1\n").unwrap();
    let o = fabric(&["route", file.to_str().unwrap(), "--router", "left-edge"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("--router yacr"), "{}", text(&o));
}

#[test]
fn one_layer_is_singular() {
    let dir = scratch("planar");
    let file = dir.join("p.txt");
    std::fs::write(&file, "top: 1 2 0\nbottom: 1 2 0\n").unwrap();
    let o = fabric(&[
        "route",
        file.to_str().unwrap(),
        "--layers",
        "1",
        "--router",
        "plane",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("in 1 layer,") || text(&o).contains("in 1 layer\n"),
        "{}",
        text(&o)
    );
    assert!(!text(&o).contains("1 layers"), "{}", text(&o));
}

#[test]
fn a_sweep_names_what_its_sizes_were_held_against() {
    let o = fabric(&["layout", "htree", "--sweep"]);
    assert!(o.status.success());
    let t = text(&o);
    assert!(
        t.contains("that of the recurrence") && !t.contains("fat-pyramid"),
        "{t}"
    );
}

#[test]
fn a_run_stopped_by_max_cycles_is_marked_incomplete() {
    let o = fabric(&[
        "simulate",
        "fat-tree",
        "--size",
        "64",
        "--rate",
        "8",
        "--max-cycles",
        "3",
        "--trials",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("incomplete: 2 of 2 trial(s) stopped by --max-cycles"),
        "{}",
        text(&o)
    );
}

#[test]
fn completions_and_man_page_come_from_the_parser() {
    let o = fabric(&["completions", "bash"]);
    assert!(o.status.success());
    let t = String::from_utf8_lossy(&o.stdout);
    assert!(t.contains("_fabric") && t.contains("verify-layout"), "{t}");
    let o = fabric(&["man"]);
    assert!(o.status.success());
    let t = String::from_utf8_lossy(&o.stdout);
    assert!(
        t.contains(".TH fabric") && t.contains(".TH fabric-route"),
        "{}",
        &t[..200.min(t.len())]
    );
    assert!(
        t.contains("\\-\\-layers"),
        "the route page lists its options"
    );
}

#[test]
fn threads_quiet_and_color_are_global_conventions() {
    let dir = scratch("globals");
    let one = dir.join("one.yaml");
    let two = dir.join("two.yaml");
    for (j, out) in [("1", &one), ("2", &two)] {
        let o = fabric(&[
            "-j",
            j,
            "-q",
            "route",
            DDE,
            "--layers",
            "4",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o));
    }
    assert_eq!(
        std::fs::read(&one).unwrap(),
        std::fs::read(&two).unwrap(),
        "the same routing whatever the thread count"
    );
    assert_eq!(fabric(&["-j", "0", "route", DDE]).status.code(), Some(2));
    let o = fabric(&["--color", "always", "route"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains('\u{1b}'),
        "coloured"
    );
    let o = fabric(&["--color", "never", "route"]);
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains('\u{1b}'),
        "plain"
    );
}

#[test]
fn separation_has_a_bundled_planar_channel() {
    let file = "benchmarks/channels/planar_stair.txt";
    let o = fabric(&["separation", file]);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    let sep: u32 = t
        .split("minimum separation ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("{t}"));
    // The plane router routes it at width = separation + 1, and the
    // independent verifier passes it.
    let dir = scratch("planar-bundled");
    let out = dir.join("p.yaml");
    let o = fabric(&[
        "route",
        file,
        "--layers",
        "1",
        "--router",
        "plane",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains(&format!("width {}", sep + 1)),
        "{}",
        text(&o)
    );
    let o = fabric(&["verify", file, out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn a_picture_too_large_is_refused_before_the_layout_is_built() {
    let dir = scratch("toolarge");
    let svg = dir.join("big.svg");
    let o = fabric(&[
        "layout",
        "htree",
        "--size",
        "1048576",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let t = text(&o);
    assert!(
        t.contains("nothing was built") && t.contains("--html"),
        "{t}"
    );
    assert!(!svg.exists());
}

/// A capacity function is parsed with the arguments: an unknown name or a
/// bad table entry is refused before any layout is built, naming the
/// functions there are.
#[test]
fn an_unknown_capacity_is_refused_with_the_known_ones() {
    let dir = scratch("capacity");
    let out = dir.join("f.yaml");
    for (given, says) in [
        ("bogus", "unknown capacity `bogus`: use one, sqrt-over-lg"),
        (
            "table:1,x",
            "capacity table entry `x` is not a positive integer",
        ),
    ] {
        let o = fabric(&[
            "layout",
            "fat-tree",
            "--size",
            "64",
            "--capacity",
            given,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains(says), "{}", text(&o));
        assert!(!out.exists());
    }
}

/// Runs `args`, expecting a refusal (exit 2, never a panic) whose message
/// holds `says`.
fn refused(args: &[&str], says: &str) {
    let o = fabric(args);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {t}");
    assert!(!t.contains("panicked"), "{args:?}: {t}");
    assert!(t.contains(says), "{args:?} should say `{says}`: {t}");
}

#[test]
fn numbers_past_their_range_are_refused_before_any_work() {
    for limit in ["1e20", "inf", "NaN", "0", "-1"] {
        refused(
            &["route", DDE, "--exact", &format!("--time-limit={limit}")],
            "give a positive number of seconds, at most 604800",
        );
    }
    let huge = "18446744073709551615";
    refused(
        &["simulate", "wire-delay", "--size", "16", "--payload", huge],
        "--payload",
    );
    for phase in ["--warmup", "--measure", "--drain"] {
        refused(
            &["simulate", "open-loop", "--size", "16", phase, huge],
            phase,
        );
    }
    // Three phases at their largest: the estimate saturates and the memory
    // budget refuses the run.
    let most = "1000000000000";
    refused(
        &[
            "simulate",
            "open-loop",
            "--size",
            "16",
            "--saturation",
            "skip",
            "--rates",
            "0.1",
            "--warmup",
            most,
            "--measure",
            most,
            "--drain",
            most,
        ],
        "GiB",
    );
    refused(&["-j", "2000", "route", DDE], "1..=1024");
}

#[test]
fn back_to_back_on_traffic_that_is_no_permutation_is_a_usage_error() {
    refused(
        &[
            "simulate",
            "butterfly",
            "--size",
            "2",
            "--model",
            "c",
            "--queue",
            "1",
        ],
        "back to back routes a permutation",
    );
}

#[test]
fn a_full_standard_output_is_an_error_not_a_panic() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    for args in [
        &["analyze", DDE][..],
        &["completions", "bash"][..],
        &["man"][..],
    ] {
        let full = std::fs::File::create("/dev/full").unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_fabric"))
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {t}");
        assert!(!t.contains("panicked"), "{args:?}: {t}");
        assert!(t.contains("cannot write"), "{args:?}: {t}");
    }
}
