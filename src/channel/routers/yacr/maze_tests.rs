use rand::{Rng, SeedableRng};

/// A search on layers 1..=2 of a 3-layer grid: a source cell on layer 3
/// only steps down, so a target reachable only along layer 3 is not found;
/// with layer 3 included it is.
#[test]
fn a_search_keeps_to_its_layers() {
    use super::{Costs, NotFound, Search};
    use crate::channel::grid::{Cell, Grid};
    use crate::channel::search::Preferred;
    let mut g = Grid::new(8, 3, 3, 2);
    // Wall off layers 1 and 2 at column 4 (rows 1..=3) with net 1.
    for l in 1..=2 {
        for y in 1..=3 {
            g.claim(Cell::new(4, y, l), 1);
        }
    }
    let preferred = [Preferred::Horizontal, Preferred::Vertical, Preferred::Any];
    let search = |layers: u32| Search {
        grid: &g,
        net: 0,
        preferred: &preferred,
        costs: Costs::default(),
        window: (0, 7),
        layers,
        left_side: false,
        right_side: false,
        steal: None,
    };
    let source = [Cell::new(1, 2, 3)];
    let target = |c: Cell, _: usize| c == Cell::new(6, 2, 1);
    assert_eq!(
        search(2).run(&source, target),
        Err(NotFound {
            window_bound: false
        })
    );
    let path = search(3)
        .run(&source, target)
        .expect("around the wall on layer 3");
    assert_eq!(path.last(), Some(&Cell::new(6, 2, 1)));
    // A window short of the way round reports that it was in the way.
    let narrow = Search {
        window: (0, 5),
        ..search(3)
    };
    assert_eq!(
        narrow.run(&source, target),
        Err(NotFound { window_bound: true })
    );
}

/// Free about half of a net's track cells (the caller rolls the grid
/// back) and label the pieces left.
fn cut(g: &mut super::Grid, rng: &mut impl Rng, net: u32) -> Vec<Vec<super::Cell>> {
    for c in g.cells_of(net) {
        if c.y > 0 && c.y <= g.extent.width && rng.gen_bool(0.5) {
            g.release(c);
        }
    }
    g.label_components(net)
}

/// The flood's verdict against the shortest path search alone: for cut
/// nets of raw routings (some of a net's track cells freed), searches
/// from one piece towards the others, in windows of several widths,
/// with and without rip-up, reach a target in both or fail in both with
/// the same report.
#[test]
fn the_flood_decides_as_the_shortest_path_search() {
    use super::super::tests::raw_grids;
    use super::{Cell, Costs, Flood, NotFound, Scratch, Search};
    use crate::channel::problem::NetId;
    use crate::channel::search::Preferred;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
    let (mut reached, mut failed) = (0, 0);
    for (p, mut g) in raw_grids(12, 100) {
        let preferred = vec![Preferred::Any; g.extent.layers as usize];
        for _ in 0..12 {
            let net = rng.gen_range(0..p.nets().len()) as u32;
            let mark = g.mark();
            let comps = cut(&mut g, &mut rng, net);
            if comps.len() >= 2 {
                let si = rng.gen_range(0..comps.len());
                let x = comps[si][rng.gen_range(0..comps[si].len())].x;
                let reach = [0, 1, 3, 9, 27][rng.gen_range(0..5)];
                let info = p.net(NetId(net));
                let search = Search {
                    grid: &g,
                    net,
                    preferred: &preferred,
                    costs: Costs::default(),
                    window: (x - reach, x + reach),
                    layers: rng.gen_range(1..=g.extent.layers),
                    left_side: info.left,
                    right_side: info.right,
                    steal: rng.gen_bool(0.3).then_some(12),
                };
                let target = |_: Cell, i: usize| {
                    g.owner_at(i) == net + 1 && g.component_at(i).is_some_and(|k| k != si)
                };
                let mut scratch = Scratch::default();
                let alone = search.run_in(&mut scratch, &comps[si], target);
                scratch.reset();
                let flood = search.reach_in(&mut scratch, &comps[si], &target, usize::MAX);
                match (alone, flood) {
                    (Ok(_), Flood::Reached) => reached += 1,
                    (Err(a), Flood::Exhausted { window_bound }) => {
                        assert_eq!(a, NotFound { window_bound }, "{} net {net}", p.name());
                        failed += 1;
                    }
                    (a, _) => panic!("{} net {net}: search {a:?}, flood disagrees", p.name()),
                }
            }
            g.rollback(mark);
        }
    }
    assert!(
        reached > 300 && failed > 150,
        "{reached} reached, {failed} failed"
    );
}

/// The symmetry [`Search::reaches`] states: between a net's pieces
/// inside the grid's columns and the search's layers, one piece reaches
/// the others exactly when the others reach it, in the same window, on
/// cut nets of raw routings (as in the test above). A budget too small
/// gives up rather than answer.
#[test]
fn reaching_is_symmetric() {
    use super::super::tests::raw_grids;
    use super::{Cell, Costs, Search};
    use crate::channel::problem::NetId;
    use crate::channel::search::Preferred;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(32);
    let (mut reached, mut failed, mut gave_up) = (0, 0, 0);
    for (p, mut g) in raw_grids(13, 100) {
        let preferred = vec![Preferred::Any; g.extent.layers as usize];
        for _ in 0..40 {
            let net = rng.gen_range(0..p.nets().len()) as u32;
            let mark = g.mark();
            let comps = cut(&mut g, &mut rng, net);
            let layers = rng.gen_range(1..=g.extent.layers);
            let inside = |c: &Cell| c.x >= 0 && c.x < g.extent.columns && c.layer <= layers;
            if comps.len() >= 2 && comps.iter().flatten().all(inside) {
                let si = rng.gen_range(0..comps.len());
                let x = comps[si][rng.gen_range(0..comps[si].len())].x;
                let reach = [0, 1, 3, 9, 27, 81][rng.gen_range(0..6)];
                let info = p.net(NetId(net));
                let search = Search {
                    grid: &g,
                    net,
                    preferred: &preferred,
                    costs: Costs::default(),
                    window: (x - reach, x + reach),
                    layers,
                    left_side: info.left,
                    right_side: info.right,
                    steal: rng.gen_bool(0.3).then_some(12),
                };
                let others = super::other_pieces(&comps, si);
                let is_net = |i: usize| g.owner_at(i) == net + 1;
                let forth = search.reaches(
                    &comps[si],
                    |_, i| is_net(i) && g.component_at(i).is_some_and(|k| k != si),
                    usize::MAX,
                );
                let back = search.reaches(
                    &others,
                    |_, i| is_net(i) && g.component_at(i) == Some(si),
                    usize::MAX,
                );
                assert_eq!(forth, back, "{} net {net}", p.name());
                match forth {
                    Some(true) => reached += 1,
                    _ => failed += 1,
                }
                let small = search.reaches(
                    &others,
                    |_, i| is_net(i) && g.component_at(i) == Some(si),
                    3,
                );
                assert!(small.is_none() || small == back, "{} net {net}", p.name());
                gave_up += small.is_none() as usize;
            }
            g.rollback(mark);
        }
    }
    assert!(
        reached > 500 && failed > 100 && gave_up > 300,
        "{reached} reached, {failed} failed, {gave_up} gave up"
    );
}

/// Under the strict direction rule a path never steps against its layer's
/// direction, and reaches what it can only by changing layers: on random
/// grids with random walls, every path found with `HorizontalOnly` /
/// `VerticalOnly` layers moves along rows on the first and along columns
/// on the second; a target straight above the source on the horizontal
/// layer is reached through the vertical layer.
#[test]
fn strict_searches_never_step_against_a_direction() {
    use super::{Costs, Search};
    use crate::channel::grid::{Cell, Grid};
    use crate::channel::search::Preferred;
    let strict = [Preferred::HorizontalOnly, Preferred::VerticalOnly];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(97);
    let (mut found, mut layer_changes) = (0, 0);
    for _ in 0..300 {
        let (columns, width) = (rng.gen_range(3..12), rng.gen_range(2..6));
        let mut g = Grid::new(columns, width, 2, 2);
        for _ in 0..rng.gen_range(0..columns * width / 2) {
            let c = Cell::new(
                rng.gen_range(0..columns as i64),
                rng.gen_range(1..=width as i64),
                rng.gen_range(1..=2),
            );
            g.claim(c, 1);
        }
        let free = |g: &Grid, c: Cell| g.owner(c) == 0;
        let pick = |rng: &mut rand_chacha::ChaCha8Rng| {
            Cell::new(
                rng.gen_range(0..columns as i64),
                rng.gen_range(1..=width as i64),
                rng.gen_range(1..=2),
            )
        };
        let (a, b) = (pick(&mut rng), pick(&mut rng));
        if a == b || !free(&g, a) || !free(&g, b) {
            continue;
        }
        let search = Search {
            grid: &g,
            net: 0,
            preferred: &strict,
            costs: Costs::default(),
            window: (0, columns as i64 - 1),
            layers: 2,
            left_side: false,
            right_side: false,
            steal: None,
        };
        let Ok(path) = search.run(&[a], |c, _| c == b) else {
            continue;
        };
        found += 1;
        for w in path.windows(2) {
            let (p, q) = (w[0], w[1]);
            if p.layer != q.layer {
                layer_changes += 1;
                assert_eq!((p.x, p.y), (q.x, q.y), "a via stays in place");
            } else if p.layer == 1 {
                assert_eq!(p.y, q.y, "a vertical step on the horizontal layer");
            } else {
                assert_eq!(p.x, q.x, "a horizontal step on the vertical layer");
            }
        }
    }
    assert!(
        found > 100 && layer_changes > 100,
        "{found} {layer_changes}"
    );
    // Straight above on the horizontal layer: only through layer 2.
    let g = Grid::new(4, 4, 2, 2);
    let search = Search {
        grid: &g,
        net: 0,
        preferred: &strict,
        costs: Costs::default(),
        window: (0, 3),
        layers: 2,
        left_side: false,
        right_side: false,
        steal: None,
    };
    let path = search
        .run(&[Cell::new(1, 1, 1)], |c, _| c == Cell::new(1, 3, 1))
        .expect("through the vertical layer");
    assert!(path.iter().any(|c| c.layer == 2), "{path:?}");
}
