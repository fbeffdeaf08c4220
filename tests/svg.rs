//! The SVG pictures read as their keys say: every colour a wire, node,
//! via or pin is drawn in has a line in the key and every key colour is
//! drawn; routed channels carry track and column axes and can be cut to a
//! window of columns; 3-D layouts are one labelled panel per plane; and
//! pictures too large to draw are refused before any work.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use svg::node::element::tag::Type;
use svg::parser::Event;

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-svg-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fabric(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
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

/// What a picture holds, read back from its text.
#[derive(Default, Debug)]
struct Picture {
    /// Fill and stroke colours inside `<g class="drawing">`.
    drawn: BTreeSet<String>,
    /// Fill and stroke colours inside `<g class="key">`.
    key: BTreeSet<String>,
    /// The text of each `<text>`, with its class.
    texts: Vec<(String, String, f64, f64)>,
    /// x coordinates of the shapes of the drawing (line ends, dot
    /// centres, box centres).
    drawn_x: Vec<f64>,
    /// The `<g class="plane">` groups' titles, in order.
    planes: Vec<String>,
    /// Baseline of the key's first text.
    key_top: Option<f64>,
}

fn number(attrs: &svg::node::Attributes, name: &str) -> Option<f64> {
    attrs.get(name).and_then(|v| v.parse().ok())
}

fn read(path: &Path) -> Picture {
    let content = std::fs::read_to_string(path).unwrap();
    let mut p = Picture::default();
    // Classes of the open elements.
    let mut open: Vec<String> = Vec::new();
    let mut text_at: Option<(String, f64, f64)> = None;
    let mut in_title = false;
    for event in svg::read(&content).unwrap() {
        match event {
            Event::Tag(name, kind, attrs) => {
                let class = attrs
                    .get("class")
                    .map(|v| v.to_string())
                    .unwrap_or_default();
                let inside = |c: &str| open.iter().any(|o| o == c) || class == c;
                if kind != Type::End {
                    for a in ["fill", "stroke"] {
                        let Some(colour) = attrs.get(a).map(|v| v.to_string()) else {
                            continue;
                        };
                        if colour == "none" || name == "g" {
                            continue;
                        }
                        if inside("drawing") {
                            p.drawn.insert(colour);
                        } else if inside("key") {
                            p.key.insert(colour);
                        }
                    }
                    if inside("drawing") {
                        let xs: Vec<f64> = match name {
                            "line" => vec![number(&attrs, "x1"), number(&attrs, "x2")],
                            "circle" => vec![number(&attrs, "cx")],
                            "rect" => vec![number(&attrs, "x")
                                .zip(number(&attrs, "width"))
                                .map(|(x, w)| x + w / 2.0)],
                            _ => vec![],
                        }
                        .into_iter()
                        .flatten()
                        .collect();
                        p.drawn_x.extend(xs);
                    }
                }
                match (name, kind) {
                    ("text", Type::Start) => {
                        text_at = Some((
                            class.clone(),
                            number(&attrs, "x").unwrap_or(0.0),
                            number(&attrs, "y").unwrap_or(0.0),
                        ));
                        if inside("key") && p.key_top.is_none() {
                            p.key_top = number(&attrs, "y");
                        }
                    }
                    ("title", Type::Start) => in_title = true,
                    ("title", Type::End) => in_title = false,
                    _ => {}
                }
                if name == "g" && class == "plane" && kind == Type::Start {
                    p.planes.push(String::new());
                }
                match kind {
                    Type::Start => open.push(class),
                    Type::End => {
                        open.pop();
                    }
                    Type::Empty => {}
                }
            }
            Event::Text(t) => {
                if in_title && open.len() >= 2 && open[open.len() - 2] == "plane" {
                    if let Some(last) = p.planes.last_mut() {
                        *last = t.to_string();
                    }
                } else if let Some((class, x, y)) = text_at.take() {
                    p.texts.push((class, t.to_string(), x, y));
                }
            }
            _ => {}
        }
    }
    p
}

impl Picture {
    /// Texts of a class (`axis column`), as numbers with their x.
    fn labels(&self, class: &str) -> BTreeMap<i64, f64> {
        self.texts
            .iter()
            .filter(|(c, _, _, _)| c == class)
            .map(|(_, t, x, _)| (t.parse().unwrap(), *x))
            .collect()
    }

    fn assert_key_matches(&self, what: &str) {
        assert!(!self.drawn.is_empty(), "{what}: nothing drawn");
        assert_eq!(
            self.drawn, self.key,
            "{what}: colours drawn against colours in the key"
        );
    }
}

#[test]
fn a_routed_channel_has_its_key_and_axes() {
    let dir = scratch("channel");
    let svg = dir.join("dde.svg");
    let o = fabric(&[
        "route",
        DDE,
        "--layers",
        "3",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let p = read(&svg);
    p.assert_key_matches("dde in 3 layers");
    // Three layer colours, white and black of the vias, the pins' grey.
    assert!(p.drawn.len() >= 5, "{:?}", p.drawn);
    let tracks = p.labels("axis track");
    let rows = *tracks.keys().max().unwrap();
    assert_eq!(
        tracks.keys().copied().collect::<Vec<_>>(),
        (0..=rows).collect::<Vec<_>>()
    );
    assert!(rows >= 3, "{rows} rows");
    let columns = p.labels("axis column");
    assert!(columns.contains_key(&0), "{columns:?}");
    let last = *columns.keys().max().unwrap();
    assert!(last > 100, "dde's last column labelled: {last}");
    // Labels every few columns, left to right.
    assert!(columns.len() > 10);
    let xs: Vec<f64> = columns.values().copied().collect();
    assert!(xs.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn a_column_window_draws_only_its_columns() {
    let dir = scratch("window");
    let svg = dir.join("dde.svg");
    let o = fabric(&[
        "route",
        DDE,
        "--svg",
        svg.to_str().unwrap(),
        "--columns",
        "10..40",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let p = read(&svg);
    p.assert_key_matches("dde, columns 10..40");
    let columns = p.labels("axis column");
    let numbers: Vec<i64> = columns.keys().copied().collect();
    assert_eq!(numbers.first(), Some(&10), "{numbers:?}");
    assert_eq!(numbers.last(), Some(&40), "{numbers:?}");
    assert!(numbers.contains(&20) && numbers.contains(&30));
    let (lo, hi) = (columns[&10], columns[&40]);
    // Nothing drawn left of column 10 or right of column 40 (a via's box
    // is centred on its column).
    assert!(!p.drawn_x.is_empty());
    for x in &p.drawn_x {
        assert!(lo - 1e-6 <= *x && *x <= hi + 1e-6, "{x} outside {lo}..{hi}");
    }
    let title = &p.texts[0].1;
    assert!(title.contains("columns 10..40 of 0.."), "{title}");
}

#[test]
fn bad_column_windows_are_refused_before_routing() {
    let dir = scratch("bad-window");
    let svg = dir.join("dde.svg");
    let out = dir.join("dde.yaml");
    let (s, y) = (svg.to_str().unwrap(), out.to_str().unwrap());
    for (window, says) in [
        ("40..10", "is empty"),
        ("10..100000", "ends past the channel's last column"),
        ("ten..40", "is not a column window"),
        ("10", "is not a column window"),
    ] {
        let start = Instant::now();
        let o = fabric(&["route", DDE, "-o", y, "--svg", s, "--columns", window]);
        assert_eq!(o.status.code(), Some(2), "{window}: {}", text(&o));
        assert!(text(&o).contains(says), "{window}: {}", text(&o));
        assert!(
            !svg.exists() && !out.exists(),
            "{window}: a file was written"
        );
        assert!(start.elapsed().as_secs() < 5, "{window}: refused late");
    }
    // A window only cuts the SVG.
    let o = fabric(&["route", DDE, "-o", y, "--columns", "10..40"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--svg"), "{}", text(&o));
    assert!(!out.exists());
}

#[test]
fn layouts_are_coloured_by_level_as_their_keys_say() {
    let dir = scratch("layouts");
    for (kind, size, extra) in [
        ("fat-pyramid", "16", None),
        ("folded-tree-of-meshes", "4", None),
        ("htree", "16", None),
        ("butterfly", "8", None),
        ("mesh", "4", None),
        ("fat-tree-3d", "64", None),
        ("tree-of-meshes-3d", "2", None),
        ("mesh", "3", Some("3")),
    ] {
        let svg = dir.join(format!("{kind}.svg"));
        let mut args = vec![
            "layout",
            kind,
            "--size",
            size,
            "--svg",
            svg.to_str().unwrap(),
        ];
        if let Some(d) = extra {
            args.extend(["--dims", d]);
        }
        let o = fabric(&args);
        assert!(o.status.success(), "{kind}: {}", text(&o));
        let p = read(&svg);
        p.assert_key_matches(kind);
        let key_text: Vec<&str> = p
            .texts
            .iter()
            .filter(|(c, _, _, _)| c == "legend")
            .map(|(_, t, _, _)| t.as_str())
            .collect();
        assert!(
            key_text.iter().any(|t| t.starts_with("level")),
            "{kind}: {key_text:?}"
        );
        if kind == "fat-pyramid" {
            // Mesh, tree and butterfly wires of its levels: several colours.
            let palette = p
                .drawn
                .iter()
                .filter(|c| *c != "#333333" && *c != "#ffffff");
            assert!(palette.count() >= 3, "{:?}", p.drawn);
        }
    }
}

#[test]
fn a_3d_layout_is_one_labelled_panel_per_plane_under_its_key() {
    let dir = scratch("planes");
    let svg = dir.join("ft3.svg");
    let o = fabric(&[
        "layout",
        "fat-tree-3d",
        "--size",
        "64",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    // 7 x 7 x 7: seven planes.
    assert!(text(&o).contains("7 x 7 x 7"), "{}", text(&o));
    let p = read(&svg);
    let want: Vec<String> = (0..7).map(|z| format!("plane z = {z}")).collect();
    assert_eq!(p.planes, want);
    for z in 0..7 {
        let label = format!("z = {z}");
        assert!(p.texts.iter().any(|(_, t, _, _)| *t == label), "{label}");
    }
    // The key sits above every panel.
    let key_top = p.key_top.expect("a key");
    let first_panel = p
        .texts
        .iter()
        .find(|(_, t, _, _)| t == "z = 0")
        .map(|(_, _, _, y)| *y)
        .unwrap();
    assert!(
        key_top < first_panel,
        "key at {key_top}, panels from {first_panel}"
    );
}

#[test]
fn a_3d_layout_too_deep_to_draw_is_refused_before_it_is_built() {
    let dir = scratch("deep");
    let svg = dir.join("deep.svg");
    for (kind, size) in [("tree-of-meshes-3d", "8"), ("fat-tree-3d", "262144")] {
        let start = Instant::now();
        let o = fabric(&[
            "layout",
            kind,
            "--size",
            size,
            "--svg",
            svg.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{kind}: {}", text(&o));
        let t = text(&o);
        assert!(
            t.contains("too deep to draw as SVG")
                && t.contains("nothing was built")
                && t.contains("--html"),
            "{kind}: {t}"
        );
        assert!(!svg.exists());
        assert!(start.elapsed().as_secs() < 5, "{kind}: refused late");
    }
    // Within the limit it is drawn: 48 planes.
    let o = fabric(&[
        "layout",
        "tree-of-meshes-3d",
        "--size",
        "4",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(read(&svg).planes.len(), 48);
}
