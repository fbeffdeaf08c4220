//! Layouts: every construction passes the legality checker, and its
//! measured side equals the recurrence (4.1) and its closed form exactly,
//! for n = 4 .. 4^8.

use fabric::layout::check::check;
use fabric::layout::fattree::{closed_form_side, fat_tree, Capacity, FatTreeSpec};
use fabric::layout::metrics::measure;

#[test]
fn fat_trees_match_the_recurrence_exactly_and_are_legal() {
    for capacity in [
        Capacity::One,
        Capacity::SqrtOverLg,
        Capacity::Sqrt,
        Capacity::Doubling,
    ] {
        for omega in [1, 2] {
            for k in 1..=8u32 {
                let spec = FatTreeSpec {
                    processors: 4u64.pow(k),
                    capacity: capacity.clone(),
                    omega,
                    alpha: 1,
                };
                let (e, r) = fat_tree(&spec).unwrap();
                let m = measure(&e);
                let s = *r.sides.last().unwrap();
                assert_eq!(
                    (m.width, m.height),
                    (s, s),
                    "{capacity:?} omega {omega} k {k}"
                );
                assert_eq!(closed_form_side(&r), s, "{capacity:?} omega {omega} k {k}");
                // The recurrence itself, step by step.
                for j in 1..r.sides.len() {
                    assert_eq!(r.sides[j], 2 * r.sides[j - 1] + r.tracks[2 * j]);
                }
                let c = check(&e);
                assert!(c.is_legal(), "{capacity:?} k {k}: {:?}", c.violations);
                // Bundles: one edge per wire of every channel.
                let wires: u64 = (1..=k as usize)
                    .map(|j| {
                        4u64.pow(k - j as u32) * (4 * r.tracks[2 * j - 2] + 2 * r.tracks[2 * j - 1])
                    })
                    .sum();
                assert_eq!(e.edges.len() as u64, wires);
                assert_eq!(e.nodes.len() as u64, 2 * spec.processors - 1);
            }
        }
    }
}

#[test]
fn processors_of_area_alpha() {
    // Worked values: A = 1024, alpha = 16: S = 4, 10, 23, 52.
    let spec = FatTreeSpec {
        processors: 64,
        capacity: Capacity::SqrtOverLg,
        omega: 1,
        alpha: 16,
    };
    let (e, r) = fat_tree(&spec).unwrap();
    assert_eq!(r.sides, vec![4, 10, 23, 52]);
    assert!(check(&e).is_legal());
    assert_eq!(measure(&e).area, 52 * 52);
}

#[test]
fn yaml_round_trip_keeps_the_embedding() {
    let spec = FatTreeSpec {
        processors: 16,
        capacity: Capacity::Doubling,
        omega: 2,
        alpha: 4,
    };
    let (e, _) = fat_tree(&spec).unwrap();
    let m = measure(&e);
    use fabric::report::model::layout::{Geometry, LayoutReport};
    use fabric::report::model::{render, Format};
    let report = LayoutReport::new(&e, &m, None, Geometry::inline(&e));
    for format in [Format::Yaml, Format::Json] {
        let text = render(&report, format).unwrap();
        let back = fabric::io::parse_layout(&text, "rt.yaml").unwrap();
        assert_eq!(back.embedding, e, "{format:?}");
        assert_eq!(back.claimed.unwrap().area, m.area);
        let counts = back.counts.unwrap();
        assert_eq!(
            (counts.nodes, counts.edges),
            (e.nodes.len() as u64, e.edges.len() as u64)
        );
    }
}

/// The CSV geometry, written compressed and read back compressed or plain,
/// is the embedding; a bad row is named by its file and line.
#[test]
fn csv_geometry_round_trip_keeps_the_embedding() {
    use fabric::io::layout_csv::{write_edges, write_nodes};
    use fabric::io::{parse_layout, parse_layout_with, Sidecars};
    use fabric::report::model::layout::{Geometry, LayoutReport};
    use fabric::report::model::{render, Format};
    use std::io::Read;
    let mut e = fabric::layout::folded::fold_and_squash_3d(4, 3).unwrap();
    e.nodes[0].kind = "a, \"quoted\" kind".into();
    let m = measure(&e);
    let (mut nodes, mut edges) = (Vec::new(), Vec::new());
    write_nodes(&e, &mut nodes).unwrap();
    write_edges(&e, &mut edges).unwrap();
    let report = LayoutReport::new(
        &e,
        &m,
        None,
        Geometry::csv("n.csv.gz".into(), "e.csv.gz".into()),
    );
    let text = render(&report, Format::Yaml).unwrap();
    let gunzip = |bytes: &[u8]| {
        let mut plain = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_end(&mut plain)
            .unwrap();
        plain
    };
    let plain_edges = gunzip(&edges);
    let rows = String::from_utf8(plain_edges.clone()).unwrap();
    assert!(rows.starts_with("id,from,to,path\n"), "{rows}");
    for edge_bytes in [edges.clone(), plain_edges] {
        let open = |name: &str| -> Result<(Box<dyn Read + '_>, String), fabric::ParseError> {
            let bytes = if name == "n.csv.gz" {
                nodes.clone()
            } else {
                edge_bytes.clone()
            };
            Ok((Box::new(std::io::Cursor::new(bytes)), format!("dir/{name}")))
        };
        let back = parse_layout_with(&text, "dir/r.yaml", Sidecars::Open(&open)).unwrap();
        assert_eq!(back.embedding, e);
    }
    // A bad coordinate on the third row of the edges: that file and line.
    let mut broken: Vec<&str> = rows.lines().collect();
    let bad = broken[2].replacen(' ', " x", 1);
    broken[2] = &bad;
    let broken = broken.join("\n");
    let open = |name: &str| -> Result<(Box<dyn Read + '_>, String), fabric::ParseError> {
        let bytes = if name == "n.csv.gz" {
            nodes.clone()
        } else {
            broken.clone().into_bytes()
        };
        Ok((Box::new(std::io::Cursor::new(bytes)), format!("dir/{name}")))
    };
    let err = parse_layout_with(&text, "dir/r.yaml", Sidecars::Open(&open)).unwrap_err();
    assert_eq!((err.file.as_str(), err.line), ("dir/e.csv.gz", 3), "{err}");
    assert!(err.message.contains("path point"), "{err}");
    // Without a way to open the files, the report is refused on its line.
    let err = parse_layout(&text, "r.yaml").unwrap_err();
    let line = text.lines().position(|l| l == "geometry:").unwrap() + 1;
    assert_eq!(err.line, line, "{err}");
}

#[test]
fn trees_of_meshes_match_their_recurrence_and_are_legal() {
    use fabric::layout::tree_of_meshes::{extent, side, tree_of_meshes};
    use fabric::network::Network;
    // Root meshes up to 256 (the full tree then has 4^8 processors); every
    // truncation up to 128, the full tree only at 256.
    for lg in 1..=8u32 {
        let n = 1u64 << lg;
        let levels: Vec<u32> = if lg == 8 {
            vec![2 * lg]
        } else {
            (1..=2 * lg).collect()
        };
        for l in levels {
            let e = tree_of_meshes(n, Some(l)).unwrap();
            let c = check(&e);
            assert!(c.is_legal(), "n {n} l {l}: {:?}", c.violations);
            let m = measure(&e);
            let want = Network::intended(&e).unwrap().unwrap();
            assert_eq!(Network::from_embedding(&e).unwrap().compare(&want), Ok(()));
            if l % 2 == 1 {
                // Bands at the bottom: (l+3)n/2 wide, (l+1)n/2 high.
                assert_eq!((m.width, m.height), extent(n, l), "n {n} l {l}");
                assert_eq!(
                    extent(n, l),
                    (n * (l as u64 + 3) / 2, n * (l as u64 + 1) / 2)
                );
                continue;
            }
            let s = side(n, l);
            assert_eq!((m.width, m.height), (s, s), "n {n} l {l}");
            // S(m, r) = 2 S(m/2, r-2) + m, which is n (l/2 + 1).
            assert_eq!(s, n * (l as u64 / 2 + 1));
            let longest = if l >= 4 { side(n / 4, l - 4) + 1 } else { 1 };
            assert_eq!(m.max_wire_length, longest, "n {n} l {l}");
            assert_eq!(e.nodes.len() as u64, (l as u64 + 1) * n * n);
        }
    }
}

#[test]
fn butterfly_fat_trees_are_legal_and_realise_their_network() {
    use fabric::layout::butterfly::{butterfly_fat_tree, closed_form_side, sides};
    use fabric::network::Network;
    // Up to 4^8 processors, as for the other fat-trees.
    for k in 1..=8u32 {
        let n = 4u64.pow(k);
        let e = butterfly_fat_tree(n).unwrap();
        let c = check(&e);
        assert!(c.is_legal(), "k {k}: {:?}", c.violations);
        let m = measure(&e);
        let s = *sides(k).last().unwrap();
        assert_eq!((m.width, m.height), (s, s));
        assert_eq!(s, closed_form_side(k));
        let want = Network::butterfly_fat_tree(n).unwrap();
        assert_eq!(Network::from_embedding(&e).unwrap().compare(&want), Ok(()));
        // Constant-size switches: every switch box is 4 x 1.
        for node in e.nodes.iter().filter(|x| x.kind == "switch") {
            assert_eq!((node.max.x - node.min.x, node.max.y - node.min.y), (3, 0));
        }
    }
}

#[test]
fn scalable_fat_trees_are_legal_and_realise_their_network() {
    use fabric::layout::butterfly::{scalable_capacities, scalable_fat_tree};
    use fabric::network::Network;
    for capacity in [Capacity::Sqrt, Capacity::SqrtOverLg, Capacity::Doubling] {
        // Sqrt and doubling give the butterfly's sizes (checked to 4^8
        // above); sqrt-over-lg goes to 4^8 here.
        let top = if capacity == Capacity::SqrtOverLg {
            8
        } else {
            6
        };
        for k in 1..=top {
            let n = 4u64.pow(k);
            let e = scalable_fat_tree(n, &capacity).unwrap();
            let c = check(&e);
            assert!(c.is_legal(), "{capacity:?} k {k}: {:?}", c.violations);
            let caps = scalable_capacities(n, &capacity).unwrap();
            let mut s = 1u64;
            for j in 1..=k as usize {
                s = 2 * s + 4 * caps[j - 1] + 1;
            }
            let m = measure(&e);
            assert_eq!((m.width, m.height), (s, s), "{capacity:?} k {k}");
            let want = Network::scalable_fat_tree(n, &capacity).unwrap();
            assert_eq!(Network::from_embedding(&e).unwrap().compare(&want), Ok(()));
            // Two switch types, both constant size; channel above a level-j
            // node carries c_j wires (the top channel is not drawn).
            assert!(e
                .nodes
                .iter()
                .filter(|x| x.kind == "switch")
                .all(|x| x.max.x - x.min.x == 3 && x.max.y == x.min.y));
            let up_links: u64 = (0..k as usize).map(|j| (n >> (2 * j)) * caps[j]).sum();
            assert_eq!(e.edges.len() as u64, up_links);
        }
    }
    // Growth faster than x2 per 4-ary level needs other switch types.
    assert!(scalable_fat_tree(64, &Capacity::Table(vec![1, 1, 3, 3, 4, 4, 5])).is_err());
}

#[test]
fn htrees_of_every_power_of_two() {
    use fabric::layout::fattree::htree;
    use fabric::network::Network;
    for e in 1..=16u32 {
        let n = 1u64 << e;
        let layout = htree(n).unwrap();
        let c = check(&layout);
        assert!(c.is_legal(), "n {n}: {:?}", c.violations);
        let m = measure(&layout);
        // S = 2 sqrt(n) - 1 for n = 4^k; two of side S = 2 sqrt(n/2) - 1
        // and a gap column for n = 2·4^k.
        let k = e / 2;
        let s = (1u64 << (k + 1)) - 1;
        if e % 2 == 0 {
            assert_eq!((m.width, m.height), (s, s), "n {n}");
            assert_eq!(m.max_wire_length, (1u64 << k) / 2);
        } else {
            assert_eq!((m.width, m.height), (2 * s + 1, s), "n {n}");
            assert_eq!(m.max_wire_length, 1u64 << k);
        }
        assert_eq!(layout.nodes.len() as u64, 2 * n - 1);
        let want = Network::intended(&layout).unwrap().unwrap();
        assert_eq!(
            Network::from_embedding(&layout).unwrap().compare(&want),
            Ok(())
        );
    }
}

/// The checker finds nothing wrong (the first violations shown if it does).
fn assert_legal(e: &fabric::layout::Embedding, what: &str) {
    let c = check(e);
    assert!(
        c.is_legal(),
        "{what}: {:?}",
        &c.violations[..c.violations.len().min(4)]
    );
}

fn realises(e: &fabric::layout::Embedding) {
    use fabric::network::Network;
    let want = Network::intended(e).expect("known network").unwrap();
    Network::from_embedding(e)
        .and_then(|got| got.compare(&want))
        .unwrap();
}

#[test]
fn two_d_fold_and_squash_for_every_truncation() {
    use fabric::layout::folded::{extent_2d, fold_and_squash_2d, max_wire_2d};
    for k in 1..=5u32 {
        let n = 1u64 << k;
        for l in 0..=2 * k {
            let e = fold_and_squash_2d(n, l).unwrap();
            let c = check(&e);
            assert!(c.is_legal(), "n {n} l {l}: {:?}", c.violations);
            let m = measure(&e);
            assert_eq!((m.width, m.height), extent_2d(n, l), "n {n} l {l}");
            // O(n l) x O(n l): area / (n (l+1))^2 is 4 for even l.
            if l % 2 == 0 && l > 0 {
                assert_eq!(m.area, 4 * (n * (l as u64 + 1)).pow(2));
            }
            // The longest wire does not depend on n.
            assert_eq!(m.max_wire_length, max_wire_2d(l), "n {n} l {l}");
            realises(&e);
        }
    }
}

#[test]
fn three_d_fold_and_squash_for_every_truncation() {
    use fabric::layout::folded::{cubie, fold_and_squash_3d};
    let mut constants = Vec::new();
    for (n, top) in [(2u64, 3u32), (4, 6), (8, 9), (16, 12)] {
        for l in 0..=top {
            if n == 16 && l % 3 != 0 {
                continue;
            }
            let e = fold_and_squash_3d(n, l).unwrap();
            let c = check(&e);
            assert!(
                c.is_legal(),
                "n {n} l {l}: {:?}",
                &c.violations[..c.violations.len().min(4)]
            );
            let m = measure(&e);
            let q = cubie(l).0 as u64;
            let side = 4 * n * q;
            assert!(m.width.max(m.height).max(m.depth) <= side, "n {n} l {l}");
            assert!(m.max_wire_length <= 8 * q - 4, "n {n} l {l}");
            realises(&e);
            if l >= 3 {
                let v = m.area as f64 / ((n * n * n) as f64 * (l as f64).powf(1.5));
                let w = m.max_wire_length as f64 / (l as f64).sqrt();
                constants.push((n, l, v, w));
            }
        }
    }
    // Volume O(n^3 l^(3/2)) and wire O(l^(1/2)): with q = ceil(sqrt(l+1))
    // (or the least q with a long enough walk) both ratios stay bounded.
    // The ratios peak at small l, where q / sqrt(l) is largest (l = 3
    // needs q = 3), and fall towards 64 and 8 as l grows.
    for &(n, l, v, w) in &constants {
        eprintln!("n {n} l {l}: volume / (n^3 l^1.5) = {v:.1}, wire / l^0.5 = {w:.2}");
        assert!(
            v <= 350.0 && w <= 12.0,
            "n {n} l {l}: volume ratio {v}, wire ratio {w}"
        );
        if l >= 9 {
            assert!(
                v <= 160.0 && w <= 7.0,
                "n {n} l {l}: volume ratio {v}, wire ratio {w}"
            );
        }
    }
}

#[test]
fn fat_pyramids_are_legal_with_short_wires_and_small_stretch() {
    use fabric::layout::pyramid::{fat_pyramid, level_wires, survey, PyramidSpec};
    // A tile-level model gives area/A 13-28 and the largest
    // path/(d + lg A) about 19-27 for A = 2^12 .. 2^18; wires at level h
    // O(2^h lg A). Here every size is a legal grid embedding of the
    // network its parameters describe, and the ratios stay bounded.
    for k in 2..=8u32 {
        let n = 1u64 << (2 * k);
        let spec = PyramidSpec::new(n).unwrap();
        let p = fat_pyramid(&spec).unwrap();
        assert_legal(&p.embedding, &format!("n {n}"));
        realises(&p.embedding);
        let m = measure(&p.embedding);
        let lg_a = (n as f64).log2();
        let area = m.area as f64 / n as f64;
        // Small trees pay for the tiles' bands against blocks of side 3 or
        // 7 (n = 16: 11.25).
        assert!(area <= 16.0, "n {n}: area / A = {area}");
        for (h, tree, mesh) in level_wires(&p.embedding, p.spec) {
            let unit = (1u64 << h) as f64 * lg_a;
            assert!(
                tree as f64 <= 6.0 * unit && mesh as f64 <= 6.0 * unit,
                "n {n} level {h}: {tree}, {mesh} against 2^h lg A = {unit}"
            );
        }
        // Tracks per band grow at most linearly in the levels above the
        // blocks (at most 7K vertical, 3K horizontal).
        assert!(p.tracks.0 <= 7 * spec.k() as i64 && p.tracks.1 <= 3 * spec.k() as i64 + 1);
        let s = survey(&p.embedding, p.spec, 0);
        eprintln!(
            "n {n}: area/A {area:.2}, tracks {:?}, stretch {:.2} (worst parents {:.2}) over {} pairs",
            p.tracks, s.max_best, s.max_worst, s.pairs
        );
        assert!(s.max_worst <= 32.0, "n {n}: {:?}", s.worst);
        assert!(s.pairs >= (n * (n - 1)).min(30_000));
        // Section 4.3's Delta delta with the layout's own wires: a unit
        // delay cycle hardly changes; slower-growing delays stay small; a
        // linear delay costs a bounded factor (about 17-31 measured, from
        // d = 1: the thesis's "at most 2" counts lg d = 0 switches there).
        if k >= 3 {
            use fabric::layout::metrics::Delay;
            use fabric::layout::pyramid::delta_delta;
            for (w, cap) in [
                (Delay::Unit, 1.25),
                (Delay::Logarithmic, 3.5),
                (Delay::SquareRoot, 4.5),
                (Delay::Linear, 40.0),
            ] {
                let dd = delta_delta(&p.embedding, p.spec, &w);
                assert!(dd.max >= 1.0 && dd.max <= cap, "n {n} {w:?}: {dd:?}");
                assert!(dd.thesis_max <= 2.0, "n {n} {w:?}: {dd:?}");
            }
        }
    }
}

#[test]
fn fat_trees_in_3d_take_volume_within_a_constant_of_v() {
    use fabric::layout::fattree3d::{fat_tree_3d, longest_wire, FatTree3dSpec};
    // c(p) = ceil(p^(2/3) / lg V) (Theorem 26's capacity): legal, the
    // binary fat-tree it claims, side = recurrence, longest wire as
    // computed, and volume / V bounded (measured 8, 5.4, 8, 8, 9.2 for
    // V = 8 .. 8^5; the gaps h_j grow like 2^j / lg V, so S_k / 2^k tends
    // to a constant).
    let mut ratios = Vec::new();
    for k in 1..=5u32 {
        let n = 8u64.pow(k);
        let spec = FatTree3dSpec {
            processors: n,
            capacity: Capacity::TwoThirdsOverLg,
            omega: 1,
        };
        let (e, plan) = fat_tree_3d(&spec).unwrap();
        assert_legal(&e, &format!("n = {n}"));
        realises(&e);
        let m = measure(&e);
        let side = *plan.sides.last().unwrap();
        assert_eq!((m.width, m.height, m.depth), (side, side, side));
        for j in 1..plan.sides.len() {
            assert_eq!(plan.sides[j], 2 * plan.sides[j - 1] + plan.gaps[j]);
        }
        assert_eq!(m.max_wire_length, longest_wire(&plan));
        assert!(m.max_wire_length as f64 <= (n as f64).cbrt(), "n = {n}");
        let ratio = m.area as f64 / n as f64;
        assert!(ratio <= 12.0, "n = {n}: volume / V = {ratio}");
        ratios.push(ratio);
        // Every channel's cross-section holds its wires.
        for j in 1..plan.sides.len() {
            let t = |i: usize| plan.tracks[i];
            assert!(t(3 * j).max(t(3 * j - 1)) <= plan.gaps[j] * plan.bands[j]);
            assert!(t(3 * j - 2) <= plan.sides[j - 1] * plan.gaps[j]);
        }
    }
    eprintln!("fat-tree-3d volume / V: {ratios:?}");
}

#[test]
fn fat_pyramid_with_mesh_capacity_six() {
    use fabric::layout::pyramid::{fat_pyramid, survey, PyramidSpec};
    use fabric::network::Network;
    for n in [256u64, 1024, 4096] {
        let one = PyramidSpec::new(n).unwrap();
        let six = PyramidSpec {
            mesh_capacity: 6,
            ..one
        };
        let p = fat_pyramid(&six).unwrap();
        assert_legal(&p.embedding, &format!("n {n}"));
        realises(&p.embedding);
        // Five more links for every mesh pair than with kappa = 1.
        let (a, b) = (Network::fat_pyramid(&one), Network::fat_pyramid(&six));
        let mesh_links = (b.link_count() - a.link_count()) / 5;
        assert_eq!(b.link_count() - a.link_count(), 5 * mesh_links);
        // Meshes exist from two butterfly levels on (n = 256 has one).
        assert_eq!(mesh_links > 0, one.k() >= 2, "n {n}");
        assert_eq!(p.embedding.edges.len(), b.link_count());
        let s = survey(&p.embedding, p.spec, 0);
        assert!(s.max_worst <= 48.0, "n {n}: stretch {}", s.max_worst);
    }
}
