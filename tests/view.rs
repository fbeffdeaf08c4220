//! The HTML viewer (`--html`, `fabric view`) in headless Chromium: the page
//! checks itself on a `#selftest` fragment and writes its counts as JSON
//! into the page, which `--dump-dom` prints. The counts are held against
//! the routing or layout read back from the YAML fabric writes beside the
//! viewer: every wire, via, pin, node and path segment drawn at the
//! fitted view, a layer hidden, a search, a zoomed-in window, the load
//! time. Chromium must be installed (`.ci/run` installs it); without it
//! these tests fail, saying so.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fabric::channel::solution::ChannelSolution;
use fabric::layout::Embedding;
use serde_norway::Value;

fn fabric() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fabric"))
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch directory per test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-view-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Run fabric, which must succeed.
fn run_fabric(args: &[&str]) {
    let out = fabric()
        .args(args)
        .output()
        .expect("the fabric binary runs");
    assert!(
        out.status.success(),
        "fabric {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The Chromium binary on the PATH; the test fails when there is none.
fn chromium() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser"] {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return candidate;
            }
        }
    }
    panic!(
        "chromium is not installed, and the viewer tests need it: \
         apt-get install -y chromium chromium-driver (.ci/run installs it)"
    );
}

/// `&amp;` and friends back to their characters.
fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Open `html` in headless Chromium with `#selftest&{fragment}` and return
/// the page's report, which must list no JavaScript errors.
fn selftest(html: &Path, fragment: &str, dir: &Path) -> Value {
    let url = format!("file://{}#selftest&{fragment}", html.display());
    let mut child = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--window-size=1200,800",
            &format!("--user-data-dir={}", dir.join("profile").display()),
            "--dump-dom",
            &url,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).map(|_| text)
    });
    let deadline = Instant::now() + Duration::from_secs(180);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium took over 180 s on {url}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let dom = reader.join().unwrap().expect("chromium's output is text");
    let start = dom
        .find("<pre id=\"selftest\"")
        .unwrap_or_else(|| panic!("no selftest element in the page of {url}"));
    let body = &dom[start..];
    let open = body.find('>').unwrap() + 1;
    assert!(
        body[..open].contains("data-done"),
        "the selftest of {url} did not finish"
    );
    let close = body.find("</pre>").unwrap();
    let json = unescape(&body[open..close]);
    let report: Value = serde_norway::from_str(&json)
        .unwrap_or_else(|e| panic!("the selftest report is not JSON ({e}): {json}"));
    let errors = report["errors"].as_sequence().expect("an error list");
    assert!(errors.is_empty(), "JavaScript errors in {url}: {errors:?}");
    report
}

/// A count in a report (0 when the key is absent: nothing of that kind).
fn count(v: &Value, key: &str) -> u64 {
    v.get(key).map_or(0, |n| n.as_u64().expect("a count"))
}

/// The four numbers of a reported rectangle.
fn rect(v: &Value) -> [f64; 4] {
    let r: Vec<f64> = v
        .as_sequence()
        .expect("a rectangle")
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    [r[0], r[1], r[2], r[3]]
}

/// Whether the box `[x0, x1] x [y0, y1]` meets the rectangle `r`.
fn meets(r: [f64; 4], x0: i64, y0: i64, x1: i64, y1: i64) -> bool {
    x1 as f64 >= r[0] && x0 as f64 <= r[2] && y1 as f64 >= r[1] && y0 as f64 <= r[3]
}

/// Route `problem` with `--html` and `--output`; the solution read back.
fn route(problem: &Path, layers: u32, dir: &Path) -> (PathBuf, ChannelSolution) {
    let (yaml, html) = (dir.join("routed.yaml"), dir.join("routed.html"));
    run_fabric(&[
        "route",
        problem.to_str().unwrap(),
        "--layers",
        &layers.to_string(),
        "--output",
        yaml.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&yaml).unwrap();
    let solution = fabric::io::parse_solution(&text, "routed.yaml")
        .unwrap()
        .solution;
    (html, solution)
}

/// Pins `(column, row)` of a problem routed `width` tracks wide.
fn pins(problem: &Path, width: u32) -> Vec<(i64, i64, u32)> {
    let text = std::fs::read_to_string(problem).unwrap();
    let p = fabric::io::parse_channel(&text, "problem").unwrap();
    let mut out = Vec::new();
    for (row, y) in [(p.bottom_labels(), 0), (p.top_labels(), width as i64 + 1)] {
        for (x, &label) in row.iter().enumerate() {
            if label != 0 {
                out.push((x as i64, y, label));
            }
        }
    }
    out
}

/// The checks every channel viewer passes: all shapes drawn at the fitted
/// view, a layer hidden, the net `net` found and hovered, and the shapes
/// of the window `rect` drawn there.
fn check_channel(report: &Value, s: &ChannelSolution, pins: &[(i64, i64, u32)], net: u32) {
    let (wires, vias) = (s.wires.len() as u64, s.vias.len() as u64);
    for (what, v) in [
        ("total", &report["total"]),
        ("fit", &report["fit"]["byKind"]),
    ] {
        assert_eq!(count(v, "wires"), wires, "{what} wires");
        assert_eq!(count(v, "vias"), vias, "{what} vias");
        assert_eq!(count(v, "pins"), pins.len() as u64, "{what} pins");
    }
    let hidden = &report["hidden"]["drawn"]["byKind"];
    let off_layer_1 = s.wires.iter().filter(|w| w.layer != 1).count() as u64;
    assert_eq!(count(hidden, "wires"), off_layer_1, "wires off layer 1");
    let found = &report["search"]["highlighted"]["byKind"];
    assert_eq!(report["search"]["found"], Value::Bool(true));
    let of_net = s.wires.iter().filter(|w| w.net == net).count() as u64;
    assert!(of_net > 0);
    assert_eq!(count(found, "wires"), of_net, "wires of net {net}");
    let vias_of_net = s.vias.iter().filter(|v| v.net == net).count() as u64;
    assert_eq!(count(found, "vias"), vias_of_net, "vias of net {net}");
    let pins_of_net = pins.iter().filter(|p| p.2 == net).count() as u64;
    assert_eq!(count(found, "pins"), pins_of_net, "pins of net {net}");
    let hover = report["hover"].as_str().expect("a shape under the mouse");
    assert!(hover.starts_with("net "), "hovered: {hover}");
    let r = rect(&report["window"]["rect"]);
    let drawn = &report["window"]["drawn"]["byKind"];
    let in_window = s
        .wires
        .iter()
        .filter(|w| {
            let (a, b) = (w.from, w.to);
            meets(r, a.x.min(b.x), a.y.min(b.y), a.x.max(b.x), a.y.max(b.y))
        })
        .count() as u64;
    assert!(in_window > 0 && in_window < wires);
    assert_eq!(
        count(drawn, "wires"),
        in_window,
        "wires in the window {r:?}"
    );
    let vias_in = s
        .vias
        .iter()
        .filter(|v| meets(r, v.at.x, v.at.y, v.at.x, v.at.y));
    assert_eq!(
        count(drawn, "vias"),
        vias_in.count() as u64,
        "vias in the window"
    );
    let pins_in = pins.iter().filter(|p| meets(r, p.0, p.1, p.0, p.1)).count() as u64;
    assert_eq!(count(drawn, "pins"), pins_in, "pins in the window");
}

#[test]
fn dde_routed_in_four_layers() {
    let dir = scratch("dde");
    let problem = root().join("benchmarks/channels/dde.txt");
    let (html, s) = route(&problem, 4, &dir);
    let net = s.wires[s.wires.len() / 2].net;
    let report = selftest(&html, &format!("search={net}&hide=0&view=20,0,60,5"), &dir);
    check_channel(&report, &s, &pins(&problem, s.width), net);
    // `fabric view` of the same routing draws the same shapes.
    let again = dir.join("again.html");
    run_fabric(&[
        "view",
        dir.join("routed.yaml").to_str().unwrap(),
        "--problem",
        problem.to_str().unwrap(),
        "-o",
        again.to_str().unwrap(),
    ]);
    let report = selftest(&again, &format!("search={net}&hide=0&view=20,0,60,5"), &dir);
    check_channel(&report, &s, &pins(&problem, s.width), net);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_channel_of_20000_columns_loads_in_under_2_s() {
    use fabric::channel::generate::{random_channel, ChannelShape};
    use rand::SeedableRng;
    let dir = scratch("long");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20_000);
    let p = random_channel(&mut rng, &ChannelShape::new(20_000));
    let text: String = (0..p.columns() as usize)
        .map(|c| format!("{c} {} {}\n", p.bottom_labels()[c], p.top_labels()[c]))
        .collect();
    let problem = dir.join("long.txt");
    std::fs::write(&problem, text).unwrap();
    let (html, s) = route(&problem, 2, &dir);
    assert_eq!(s.columns, 20_000);
    let net = s.wires[s.wires.len() / 2].net;
    let report = selftest(
        &html,
        &format!("search={net}&hide=0&view=9000,0,9400,{}", s.width / 2),
        &dir,
    );
    check_channel(&report, &s, &pins(&problem, s.width), net);
    let ms = report["loadMs"].as_f64().expect("a load time");
    assert!(ms < 2000.0, "the viewer took {ms:.0} ms to load and draw");
    // Zoomed out, most wires are under a pixel and merged.
    assert!(count(&report["fit"], "merged") > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Unit segments of a layout's paths whose box meets `r`, and all of them.
fn segments(e: &Embedding) -> Vec<[i64; 6]> {
    e.edges
        .iter()
        .flat_map(|x| {
            x.path.windows(2).map(|w| {
                let (a, b) = (w[0], w[1]);
                [
                    a.x.min(b.x),
                    a.y.min(b.y),
                    a.z.min(b.z),
                    a.x.max(b.x),
                    a.y.max(b.y),
                    a.z.max(b.z),
                ]
            })
        })
        .collect()
}

/// Lay out with `--html` and `--output`; the embedding read back.
fn layout(args: &[&str], dir: &Path) -> (PathBuf, Embedding) {
    let (yaml, html) = (dir.join("layout.yaml"), dir.join("layout.html"));
    let mut all = vec!["layout"];
    all.extend(args);
    all.extend([
        "-o",
        yaml.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    run_fabric(&all);
    (html, fabric::cli::read_layout(&yaml).unwrap().embedding)
}

#[test]
fn an_h_tree_of_65536_leaves() {
    let dir = scratch("htree");
    let (html, e) = layout(&["htree", "--size", "65536"], &dir);
    let segs = segments(&e);
    // A switch in the middle of the node list, with its incident edges.
    let node = &e.nodes[e.nodes.len() / 2 + 1];
    let report = selftest(
        &html,
        &format!("search={}&hide=0&view=100,100,180,140", node.id),
        &dir,
    );
    for (what, v) in [
        ("total", &report["total"]),
        ("fit", &report["fit"]["byKind"]),
    ] {
        assert_eq!(count(v, "nodes"), e.nodes.len() as u64, "{what} nodes");
        assert_eq!(count(v, "segments"), segs.len() as u64, "{what} segments");
    }
    let first_kind = &e.nodes[0].kind;
    let others = e.nodes.iter().filter(|n| &n.kind != first_kind).count() as u64;
    assert_eq!(count(&report["hidden"]["drawn"]["byKind"], "nodes"), others);
    let incident: Vec<_> = e
        .edges
        .iter()
        .filter(|x| x.from == node.id || x.to == node.id)
        .collect();
    assert!(!incident.is_empty());
    let found = &report["search"]["highlighted"]["byKind"];
    assert_eq!(count(found, "nodes"), 1);
    let incident_segs: usize = incident.iter().map(|x| x.path.len() - 1).sum();
    assert_eq!(count(found, "segments"), incident_segs as u64);
    assert!(report["hover"].as_str().is_some());
    let r = rect(&report["window"]["rect"]);
    let drawn = &report["window"]["drawn"]["byKind"];
    let nodes_in = e
        .nodes
        .iter()
        .filter(|n| meets(r, n.min.x, n.min.y, n.max.x, n.max.y))
        .count() as u64;
    let segs_in = segs
        .iter()
        .filter(|s| meets(r, s[0], s[1], s[3], s[4]))
        .count() as u64;
    assert!(nodes_in > 0 && segs_in > 0 && segs_in < segs.len() as u64);
    assert_eq!(count(drawn, "nodes"), nodes_in, "nodes in the window {r:?}");
    assert_eq!(count(drawn, "segments"), segs_in, "segments in the window");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_3d_mesh_one_plane_at_a_time() {
    let dir = scratch("mesh3d");
    let (html, e) = layout(&["mesh", "--size", "4", "--dims", "3"], &dir);
    assert_eq!(e.dimensions, 3);
    let segs = segments(&e);
    let plane = 1;
    let report = selftest(&html, &format!("plane={plane}"), &dir);
    assert_eq!(count(&report["total"], "segments"), segs.len() as u64);
    let drawn = &report["plane"]["drawn"]["byKind"];
    let nodes_on = e
        .nodes
        .iter()
        .filter(|n| n.min.z <= plane && plane <= n.max.z)
        .count() as u64;
    let segs_on = segs
        .iter()
        .filter(|s| s[2] <= plane && plane <= s[5])
        .count() as u64;
    assert!(nodes_on > 0 && nodes_on < e.nodes.len() as u64);
    assert_eq!(count(drawn, "nodes"), nodes_on, "nodes on plane {plane}");
    assert_eq!(
        count(drawn, "segments"),
        segs_on,
        "segments on plane {plane}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_html_path_is_checked_before_routing() {
    let dir = scratch("paths");
    let problem = root().join("benchmarks/channels/dde.txt");
    let yaml = dir.join("a.yaml");
    for args in [
        vec!["--html", problem.to_str().unwrap()],
        vec![
            "--html",
            yaml.to_str().unwrap(),
            "-o",
            yaml.to_str().unwrap(),
        ],
    ] {
        let out = fabric()
            .args(["route", problem.to_str().unwrap()])
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!yaml.exists());
    }
    let out = fabric()
        .args(["layout", "htree", "--sweep", "--html"])
        .arg(dir.join("s.html"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // `fabric view` of a file that is neither report: exit 2, no output.
    let html = dir.join("v.html");
    let out = fabric()
        .args(["view", problem.to_str().unwrap(), "-o"])
        .arg(&html)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("neither a routed channel"), "{err}");
    assert!(!html.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
