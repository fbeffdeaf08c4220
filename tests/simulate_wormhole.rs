//! End-to-end tests of `fabric simulate wormhole`: byte-identical reruns
//! whatever the thread count, many-to-1 exact against the paper, properties
//! of random traffic (whose exact latencies are left free), the layout's
//! wires in the bit-times, and bad parameters refused with exit 2 before
//! any work and without output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

fn fabric_with(threads: Option<&str>, args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fabric"));
    if let Some(t) = threads {
        c.env("RAYON_NUM_THREADS", t);
    }
    c.args(args).output().expect("the fabric binary runs")
}

fn fabric(args: &[&str]) -> Output {
    fabric_with(None, args)
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-worm-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The report at `path`, validated against its schema.
fn yaml(path: &Path) -> serde_json::Value {
    common::checked_report(&std::fs::read_to_string(path).expect("the report"))
}

fn num(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("a number: {v:?}"))
}

/// Every scheme, path rule and scan on random traffic: the same seed gives
/// byte-identical YAML on one thread and on several, and a chart; the
/// figures obey what any run must (a worm of L flits over d links arrives
/// no sooner than L + d - 2; c worms through one link take c L - 1).
#[test]
fn random_traffic_is_reproducible_and_sane() {
    let dir = scratch("random");
    let (a, b, svg) = (dir.join("a.yaml"), dir.join("b.yaml"), dir.join("w.svg"));
    let run = |threads: &str, out: &Path| {
        let o = fabric_with(
            Some(threads),
            &[
                "simulate",
                "wormhole",
                "--scheme",
                "store,worm,univ,split",
                "--path",
                "fp,gp",
                "--scan",
                "fo,ff",
                "--size",
                "16,64",
                "--flits",
                "8",
                "--priorities",
                "lg",
                "--runs",
                "4",
                "--seed",
                "9",
                "-o",
                out.to_str().unwrap(),
                "--plot",
                svg.to_str().unwrap(),
            ],
        );
        assert!(o.status.success(), "{}", text(&o.stderr));
        text(&o.stdout)
    };
    let stdout = run("1", &a);
    run("2", &b);
    let (ya, yb) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(ya, yb, "the same seed must give the same report");
    assert!(stdout.contains("SPLIT FP-FF random"), "{stdout}");
    assert!(
        !stdout.contains("Table I"),
        "no cell has the tables' configuration"
    );
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let y = yaml(&a);
    assert_eq!(y["schema"].as_str(), Some("fabric.simulate.wormhole"));
    assert_eq!(y["priorities"]["kind"].as_str(), Some("lg_n"));
    let cells = y["cells"].as_array().expect("cells");
    assert_eq!(cells.len(), 4 * 2 * 2 * 2);
    for c in cells {
        let n = num(&c["processors"]);
        let l = &c["latency"];
        let (mean, min, max) = (num(&l["mean"]), num(&l["min"]), num(&l["max"]));
        assert!(min <= mean && mean <= max, "{c:?}");
        assert!(num(&l["ci99"]) >= 0.0);
        assert_eq!(c["latencies"].as_array().unwrap().len(), 4);
        assert_eq!(c["r"].as_u64(), Some(n.log2() as u64));
        let (cong, d) = (num(&c["congestion"]), num(&c["dilation"]));
        assert!(d >= 2.0 && d <= n.log2(), "{c:?}");
        assert!(c["paper"].as_array().unwrap().is_empty());
        if c["scheme"].as_str() == Some("worm") {
            assert!(mean >= 8.0 + d - 2.0, "{c:?}");
            assert!(mean >= cong * 8.0 - 1.0, "{c:?}");
            assert!(c["lower_bound"].as_f64().is_some());
        } else {
            assert!(c["lower_bound"].is_null());
        }
    }
}

/// Many-to-1 has exact latencies (WORM cL + d - 2, STORE (2c + d - 3) L
/// with c = N/2, d = lg N): every cell matches the paper's Table I exactly
/// and says `within band`; Table I is printed.
#[test]
fn many_to_one_is_exact_and_within_band() {
    let dir = scratch("m2o");
    let out = dir.join("m.yaml");
    let o = fabric(&[
        "simulate",
        "wormhole",
        "--scheme",
        "store,worm",
        "--traffic",
        "many-to-one",
        "--size",
        "16,64,256",
        "--runs",
        "3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let stdout = text(&o.stdout);
    assert!(stdout.contains("Table I (Greenberg & Oh)"), "{stdout}");
    assert!(!stdout.contains("outside band"), "{stdout}");
    let y = yaml(&out);
    assert_eq!(y["outside_band"].as_u64(), Some(0));
    let cells = y["cells"].as_array().expect("cells");
    assert_eq!(cells.len(), 6);
    for c in cells {
        let n = c["processors"].as_u64().unwrap();
        let (half, d) = (n / 2, n.ilog2() as u64);
        let want = match c["scheme"].as_str() {
            Some("worm") => half * 32 + d - 2,
            _ => (2 * half + d - 3) * 32,
        };
        assert_eq!(c["latency"]["min"].as_u64(), Some(want), "{c:?}");
        assert_eq!(c["latency"]["max"].as_u64(), Some(want), "{c:?}");
        let p = &c["paper"][0];
        assert_eq!(p["figure"].as_str(), Some("table_1_latency"));
        assert_eq!(p["paper"].as_f64(), Some(want as f64));
        assert_eq!(p["ratio"].as_f64(), Some(1.0));
        assert_eq!(p["verdict"].as_str(), Some("within_band"));
    }
}

/// The flit-step takes the layout's longest wire: a butterfly fat-tree
/// layout file of 16 processors under linear delay gives the same runs as
/// the layout made in memory, and bit-times = flit-steps x (1 + longest
/// wire). A file that disagrees with --size or --network is refused.
#[test]
fn bit_times_follow_the_layout() {
    let dir = scratch("layout");
    let (file, a, b) = (
        dir.join("bft16.yaml"),
        dir.join("a.yaml"),
        dir.join("b.yaml"),
    );
    let o = fabric(&[
        "layout",
        "butterfly-fat-tree",
        "--size",
        "16",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let common = [
        "simulate", "wormhole", "--flits", "4", "--runs", "3", "--delay", "linear",
    ];
    let mut with = common.to_vec();
    with.extend([
        "--layout",
        file.to_str().unwrap(),
        "-o",
        a.to_str().unwrap(),
    ]);
    let o = fabric(&with);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut without = common.to_vec();
    without.extend(["--size", "16", "-o", b.to_str().unwrap()]);
    let o = fabric(&without);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (ya, yb) = (yaml(&a), yaml(&b));
    assert_eq!(ya["layout"].as_str(), file.to_str());
    assert!(yb["layout"].is_null());
    let (ca, cb) = (&ya["cells"][0], &yb["cells"][0]);
    assert_eq!(ca["latencies"], cb["latencies"]);
    let longest = num(&ca["step"]["longest_wire"]);
    assert_eq!(longest, num(&cb["step"]["longest_wire"]));
    assert!(longest > 1.0);
    let want = num(&ca["latency"]["mean"]) * (1.0 + longest);
    assert!((num(&ca["bit_times"]) - want).abs() < 1e-9 * want);

    let out = dir.join("never.yaml");
    for (extra, message) in [
        (&["--size", "64"][..], "disagrees"),
        (
            &["--network", "universal-fat-tree"][..],
            "scalable-fat-tree",
        ),
    ] {
        let mut args = vec![
            "simulate",
            "wormhole",
            "--layout",
            file.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = fabric(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", text(&o.stderr));
        assert!(text(&o.stderr).contains(message), "{}", text(&o.stderr));
        assert!(!out.exists());
    }
}

/// The universal fat-tree runs too; the paper's tables are for the
/// butterfly fat-tree only.
#[test]
fn universal_fat_tree_runs_without_paper_values() {
    let o = fabric(&[
        "simulate",
        "wormhole",
        "--network",
        "universal-fat-tree",
        "--scheme",
        "store,worm",
        "--size",
        "16,64",
        "--runs",
        "2",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let stdout = text(&o.stdout);
    assert!(stdout.contains("universal-fat-tree (capacity sqrt-over-lg)"));
    assert!(!stdout.contains("Table I"), "{stdout}");
}

/// Bad parameters: exit 2, a message naming the problem, no output file.
#[test]
fn bad_parameters_are_refused_before_work() {
    let dir = scratch("bad");
    let out = dir.join("r.yaml");
    let svg = dir.join("r.svg");
    let cases: [(&[&str], &str); 10] = [
        (&["--size", "32"], "power of 4"),
        (&["--size", "4"], "power of 4"),
        (&["--size", "16384"], "power of 4"),
        (&["--flits", "0"], "--flits"),
        (&["--queue", "0"], "--queue"),
        (&["--runs", "0"], "--runs"),
        (&["--priorities", "0"], "`lg`"),
        (&["--scheme", "cut-through"], "--scheme"),
        (&["--size", "16,64,16"], "twice"),
        (
            &["--scheme", "split", "--flits", "65535", "--size", "4096"],
            "memory",
        ),
    ];
    for (args, message) in cases {
        let mut all = vec![
            "simulate",
            "wormhole",
            "-o",
            out.to_str().unwrap(),
            "--plot",
            svg.to_str().unwrap(),
        ];
        all.extend_from_slice(args);
        let o = fabric(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains(message),
            "{args:?}: `{}` lacks `{message}`",
            text(&o.stderr)
        );
        assert!(!out.exists() && !svg.exists(), "{args:?} left an output");
    }
}
