use super::*;

/// Every power of 4 from 16 to 2^16.
fn sizes() -> impl Iterator<Item = PrunedButterfly> {
    (2..=8).map(|t| PrunedButterfly::new(4u64.pow(t)).unwrap())
}

fn v(i: u32, j: u32, k: u32) -> Vertex {
    Vertex { i, j, k }
}

#[test]
fn counts_match_the_closed_forms_and_the_spec_table() {
    for pb in sizes() {
        let vertices = pb.vertices().count() as u64;
        let edges = pb.edges();
        assert_eq!(vertices, pb.vertex_count(), "N = {}", pb.levels.terminals());
        assert_eq!(edges.len() as u64, pb.edge_count());
        // The dense index is a bijection onto 0 .. |V|.
        for (x, u) in pb.vertices().enumerate() {
            assert_eq!(pb.index(u), x as u64);
        }
        assert_eq!(pb.vertex(vertices), None);
        assert_eq!(pb.vertex(vertices - 1), pb.vertices().last());
    }
    let counts = |n: u64| {
        let pb = PrunedButterfly::new(n).unwrap();
        (pb.vertex_count(), pb.edge_count())
    };
    assert_eq!(counts(16), (52, 72));
    assert_eq!(counts(64), (232, 336));
    assert_eq!(counts(256), (976, 1440));
    assert!(PrunedButterfly::new(32).is_none() && PrunedButterfly::new(0).is_none());
}

#[test]
fn down_edges_are_the_up_edges_reversed() {
    for pb in sizes() {
        let mut up: Vec<(Vertex, Vertex)> = pb
            .edges()
            .into_iter()
            .map(|e| (e.child, e.parent))
            .collect();
        let mut down: Vec<(Vertex, Vertex)> = pb
            .vertices()
            .flat_map(|p| pb.down(p).into_iter().map(move |c| (c, p)))
            .collect();
        up.sort_unstable();
        down.sort_unstable();
        assert_eq!(up, down);
        // Every edge stays inside the node structure: child node (i, j)
        // to parent node (i - 1, j / 2), indices in range.
        for (c, p) in up {
            assert_eq!((p.i, p.j), (c.i - 1, c.j / 2));
            assert!(c.k < pb.levels.size(c.i) && p.k < pb.levels.size(p.i));
        }
    }
}

#[test]
fn figure_1_path_from_leaf_10_to_root_2() {
    let pb = PrunedButterfly::new(16).unwrap();
    let want = vec![v(4, 10, 0), v(3, 5, 0), v(2, 2, 0), v(1, 1, 2), v(0, 0, 2)];
    assert_eq!(pb.path(10, 2), want);
    assert_eq!(pb.search_paths(10, 2), (1, Some(want)));
}

/// A deterministic sample of `count` values below `bound`.
fn sample(count: u64, bound: u64, seed: u64) -> impl Iterator<Item = u64> {
    let mut x = seed;
    (0..count).map(move |_| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % bound
    })
}

#[test]
fn the_path_formula_is_the_unique_path_bfs_finds() {
    for pb in sizes() {
        let (leaves, roots) = (pb.levels.terminals() as u64, pb.levels.size(0) as u64);
        // Every pair up to N = 256, a sample of 200 pairs above.
        let pairs: Vec<(u64, u64)> = if leaves <= 256 {
            (0..leaves)
                .flat_map(|l| (0..roots).map(move |r| (l, r)))
                .collect()
        } else {
            sample(200, leaves, 7)
                .zip(sample(200, roots, 11))
                .chain([(0, 0), (leaves - 1, roots - 1)])
                .collect()
        };
        for (l, r) in pairs {
            let formula = pb.path(l as u32, r as u32);
            // Consecutive vertices are joined by up-edges.
            for w in formula.windows(2) {
                assert!(pb.up(w[0]).contains(&w[1]), "{w:?}");
            }
            assert_eq!(
                pb.search_paths(l as u32, r as u32),
                (1, Some(formula)),
                "N = {leaves}, leaf {l}, root {r}"
            );
        }
    }
}

#[test]
fn the_butterfly_map_is_injective_and_uses_straight_or_cross_edges() {
    assert_eq!(spread(0b1011), 0b1000101);
    for pb in sizes() {
        let (n, rows) = (pb.n(), pb.levels.terminals() as u64);
        let mut seen = vec![false; ((n + 1) as u64 * rows) as usize];
        for u in pb.vertices() {
            let row = pb.butterfly_row(u);
            assert!(row < rows);
            let cell = &mut seen[(u.i as u64 * rows + row) as usize];
            assert!(!*cell, "{u:?} shares row {row}");
            *cell = true;
        }
        for e in pb.edges() {
            let dim = n - e.child.i;
            let (a, b) = (pb.butterfly_row(e.child), pb.butterfly_row(e.parent));
            assert!(a == b || a ^ b == 1 << dim, "{e:?}: rows {a}, {b}");
        }
    }
}

#[test]
fn degree_profile_by_level() {
    for pb in sizes() {
        let n = pb.n();
        let profile = pb.degree_profile();
        // One class per level: every vertex of a level has the same degrees.
        assert_eq!(profile.len() as u32, n + 1);
        for c in &profile {
            let want_up = match c.level {
                0 => 0,
                i if i % 2 == 0 => 2,
                _ => 1,
            };
            let want_down = if c.level == n { 0 } else { 2 };
            assert_eq!((c.up, c.down), (want_up, want_down), "{c:?}");
            assert_eq!(c.count, pb.level_vertices(c.level));
        }
    }
}
