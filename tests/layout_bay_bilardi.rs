//! `fabric layout pruned-butterfly|sorting-fat-tree` (Bay and Bilardi's
//! two area-universal networks): files that `fabric verify-layout`
//! accepts as the intended network, the figures beside the recurrences,
//! and the refusals of sizes the families do not build (exit 2, nothing
//! written).

use std::path::PathBuf;
use std::process::{Command, Output};

fn fabric() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fabric"))
}

/// A fresh scratch directory per test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-bb-{}-{test}", std::process::id()));
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

#[test]
fn layouts_verify_as_their_networks_with_their_figures() {
    let dir = scratch("files");
    let cases = [
        (
            "pruned-butterfly",
            "16",
            [
                "44 x 44, area 1936",
                "52 vertices (4N - 3 sqrt N = 52), 72 edges (6N - 6 sqrt N = 72)",
                "with every κ = 1 (an illustration, not buildable: κ1 < 2) [4, 14, 36]",
            ],
        ),
        (
            "pruned-butterfly",
            "64",
            [
                "138 x 138, area 19044",
                "side 138 = recurrence",
                "[6, 20, 50, 114]",
            ],
        ),
        (
            "sorting-fat-tree",
            "256",
            [
                "272 x 158, area 42976",
                "4 meshes of 8 x 8 terminals",
                "64:8 128:16 256:16",
            ],
        ),
    ];
    for (kind, n, wants) in cases {
        let out = dir.join(format!("{kind}-{n}.yaml"));
        let o = run(fabric().args(["layout", kind, "--size", n, "-o"]).arg(&out));
        let stdout = text(&o.stdout);
        assert!(o.status.success(), "{kind} {n}: {}", text(&o.stderr));
        for want in wants {
            assert!(
                stdout.contains(want),
                "{kind} {n}: no {want:?} in\n{stdout}"
            );
        }
        let v = run(fabric().arg("verify-layout").arg(&out));
        assert!(v.status.success(), "{kind}: {}", text(&v.stdout));
        assert!(
            text(&v.stdout).contains(&format!("realises the intended {kind}")),
            "{}",
            text(&v.stdout)
        );
    }
}

#[test]
fn sizes_the_families_do_not_build_are_refused_with_exit_2() {
    let dir = scratch("refusals");
    let out = dir.join("none.yaml");
    let cases: [(&str, &str, &str); 5] = [
        ("pruned-butterfly", "32", "needs a power of 4"),
        ("pruned-butterfly", "1", "needs a power of 4"),
        (
            "sorting-fat-tree",
            "512",
            "512 terminals in meshes of side 16: the sorting fat-tree needs",
        ),
        ("sorting-fat-tree", "64", "N / L^2 a power of 4, at least 4"),
        ("sorting-fat-tree", "1000", "the sorting fat-tree needs N"),
    ];
    for (kind, n, want) in cases {
        let o = run(fabric().args(["layout", kind, "--size", n, "-o"]).arg(&out));
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{kind} {n}: {err}");
        assert!(err.contains(want), "{kind} {n}: {err}");
        assert!(!out.exists(), "{kind} {n} wrote output");
    }
}
