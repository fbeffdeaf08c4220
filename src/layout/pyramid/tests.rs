use super::super::check::check;
use super::*;
use crate::layout::Edge;

#[test]
fn z_order_round_trips() {
    for v in 0..1024 {
        let (x, y) = z_position(v);
        assert_eq!(z_index(x, y), v);
    }
}

#[test]
fn ruler_places_at_most_one_switch_per_tile() {
    for k in 1..=6u32 {
        let blocks = 1u64 << (2 * k);
        let mut seen = std::collections::BTreeSet::new();
        for h in 1..=k {
            for a in 0..(blocks >> (h + 1)) {
                let t = switch_tile(h, a);
                assert!(t.0 < 1 << k && t.1 < 1 << k);
                assert!(seen.insert(t), "k {k}: two switches in tile {t:?}");
            }
        }
    }
}

#[test]
fn shortcut_paths_climb_only_as_far_as_the_distance_needs() {
    // n = 4096: blocks of 8 x 8 points, 3 butterfly levels, meshes at
    // levels 1 and 2.
    let spec = PyramidSpec::new(4096).unwrap();
    assert_eq!((spec.beta, spec.k()), (3, 3));
    let p = fat_pyramid(&spec).unwrap();
    let r = Router::new(&p.embedding, spec);
    // Inside one block: no upper link.
    let same = r.path((0, 0), (1, 0));
    assert_eq!(same.level, 0);
    // Across the seam between level-1 nodes (16 x 16 points each), and
    // diagonally across a corner of four: one level up, then 1 or 2
    // mesh links.
    let seam = r.path((15, 3), (16, 3));
    assert_eq!(seam.level, 1);
    let corner = r.path((15, 15), (16, 16));
    assert_eq!(corner.level, 1);
    // Across the middle of the whole mesh (the top seam): still level 1,
    // where a tree-only route would climb to the root (level 3).
    let middle = r.path((31, 40), (32, 40));
    assert_eq!(middle.level, 1);
    assert!(middle.best < 2 * seam.best + 64, "{middle:?} vs {seam:?}");
    // Theorem 18's proof: the path turns within lg ceil(d / 2^beta) + 1
    // levels (blocks ceil(d / 2^beta) apart fit in four adjacent
    // subtrees of that size).
    let side = 64u64;
    for a in (0..side * side).step_by(37) {
        for b in (0..side * side).step_by(53) {
            let (f, t) = ((a % side, a / side), (b % side, b / side));
            let path = r.path(f, t);
            let blocks = path.d.div_ceil(8).max(1);
            let bound = 64 - (blocks - 1).leading_zeros() + 1;
            assert!(path.level <= bound, "{path:?}: level > {bound}");
            assert!(path.worst >= path.best);
        }
    }
}

/// With one butterfly level (`K = 1`) the only switch is the root: 4
/// children, no parents, no mesh. Its box has 4 rows and the layout is
/// the same for every mesh capacity, and the parameters describe the
/// network it realises.
#[test]
fn one_level_pyramids_have_no_mesh_whatever_the_mesh_capacity() {
    for n in [4u64, 16, 64, 256] {
        let one = PyramidSpec::new(n).unwrap();
        assert_eq!(one.k(), 1, "n {n}");
        let base = fat_pyramid(&one).unwrap();
        for mesh_capacity in [2, 6] {
            let spec = PyramidSpec {
                mesh_capacity,
                ..one
            };
            let p = fat_pyramid(&spec).unwrap();
            assert_eq!(p.embedding.nodes, base.embedding.nodes, "n {n}");
            assert_eq!(p.embedding.edges, base.embedding.edges, "n {n}");
            assert_eq!(
                crate::network::Network::realised_by(&p.embedding),
                Ok(Some("fat-pyramid".to_string())),
                "n {n} kappa {mesh_capacity}"
            );
        }
        let root = base.embedding.nodes.last().unwrap();
        assert_eq!(root.max.y - root.min.y + 1, 4, "n {n}");
    }
    // Four processors in tiles of 4-row boxes: a wire crosses at most
    // two tiles each way.
    let p = fat_pyramid(&PyramidSpec {
        mesh_capacity: 6,
        ..PyramidSpec::new(4).unwrap()
    })
    .unwrap();
    let longest = p.embedding.edges.iter().map(Edge::length).max().unwrap();
    assert!(longest as i64 <= 2 * (p.pitch.0 + p.pitch.1), "{longest}");
    assert_eq!(p.pitch, (7, 6));
}

#[test]
fn small_pyramids_are_legal() {
    for n in [4u64, 16, 64, 256, 1024, 4096] {
        let spec = PyramidSpec::new(n).unwrap();
        let p = fat_pyramid(&spec).unwrap();
        let c = check(&p.embedding);
        assert!(
            c.is_legal(),
            "n {n} (beta {}, K {}): {:?}",
            spec.beta,
            spec.k(),
            &c.violations[..c.violations.len().min(5)]
        );
        let want = crate::network::Network::intended(&p.embedding)
            .unwrap()
            .unwrap();
        crate::network::Network::from_embedding(&p.embedding)
            .and_then(|got| got.compare(&want))
            .unwrap();
    }
}
