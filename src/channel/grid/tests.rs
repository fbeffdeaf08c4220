//! The geometry against a cell-by-cell reading of random grids, and the
//! marks across a wrap of their round counter.

use super::{Cell, Grid, Marks, Point, Via, Wire, RIGHT, UP, VIA};

/// The wires and vias of a grid found cell by cell along each row,
/// column and point (the obvious way), sorted.
fn runs_cell_by_cell(g: &Grid) -> (Vec<Wire>, Vec<Via>) {
    let (mut wires, mut vias) = (Vec::new(), Vec::new());
    let net = |c: Cell| g.owner(c) - 1;
    for layer in 1..=g.extent.layers {
        for y in 0..=g.extent.width + 1 {
            for x in -1..=g.extent.columns {
                let c = Cell::new(x, y, layer);
                let left = Cell::new(x - 1, y, layer);
                if g.flags(c) & RIGHT != 0 && (x == -1 || g.flags(left) & RIGHT == 0) {
                    let mut end = x;
                    while end <= g.extent.columns && g.flags(Cell::new(end, y, layer)) & RIGHT != 0
                    {
                        end += 1;
                    }
                    wires.push(Wire {
                        net: net(c),
                        layer,
                        from: Point::new(x, y),
                        to: Point::new(end, y),
                    });
                }
                let below = Cell::new(x, y - 1, layer);
                if g.flags(c) & UP != 0 && (y == 0 || g.flags(below) & UP == 0) {
                    let mut end = y;
                    while end <= g.extent.width + 1 && g.flags(Cell::new(x, end, layer)) & UP != 0 {
                        end += 1;
                    }
                    wires.push(Wire {
                        net: net(c),
                        layer,
                        from: Point::new(x, y),
                        to: Point::new(x, end),
                    });
                }
                let under = Cell::new(x, y, layer.wrapping_sub(1));
                if layer < g.extent.layers
                    && g.flags(c) & VIA != 0
                    && (layer == 1 || g.flags(under) & VIA == 0)
                {
                    let mut top = layer;
                    while top < g.extent.layers && g.flags(Cell::new(x, y, top)) & VIA != 0 {
                        top += 1;
                    }
                    vias.push(Via {
                        net: net(c),
                        at: Point::new(x, y),
                        from: layer,
                        to: top,
                    });
                }
            }
        }
    }
    wires.sort_unstable();
    vias.sort_unstable();
    (wires, vias)
}

/// The raster-order scan finds the runs the cell-by-cell walk finds, on
/// raw routed grids (every kind of run, vias through three layers).
#[test]
fn geometry_finds_the_runs_cell_by_cell() {
    let mut compared = 0;
    for (p, g) in crate::channel::routers::yacr::tests::raw_grids(53, 120) {
        let (mut wires, mut vias) = g.geometry(|n| n);
        wires.sort_unstable();
        vias.sort_unstable();
        let want = runs_cell_by_cell(&g);
        assert!(!want.0.is_empty(), "{}", p.name());
        assert_eq!((wires, vias), want, "{}", p.name());
        compared += 1;
    }
    assert_eq!(compared, 120);
}

/// A new round clears every mark, also when the round number wraps:
/// a stamp left from round 1 long ago must not read as marked then.
#[test]
fn a_new_round_clears_every_mark_even_when_the_number_wraps() {
    let mut m = Marks::new(8);
    m.clear();
    assert!(m.mark(5));
    assert!(!m.mark(5));
    assert!(m.is_marked(5) && !m.is_marked(4));
    m.clear();
    assert!(!m.is_marked(5));
    m.round = u32::MAX;
    assert!(m.mark(3));
    m.clear();
    assert!(!m.is_marked(3) && !m.is_marked(5));
    assert!(m.mark(3));
    m.grow(12, 16);
    assert!(m.is_marked(3) && !m.is_marked(11));
}

/// [`Grid::run`] (by raster index) claims and joins what claiming and
/// joining the cells one at a time does, in the same order, stopping at
/// the same cell when another net owns one, and a rollback undoes either:
/// on random grids partly owned by other nets, runs in every direction
/// (single cells, side columns and pin rows included).
#[test]
fn a_run_is_its_cells_claimed_and_joined_in_turn() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(83);
    let one_by_one = |g: &mut Grid, a: Cell, b: Cell, net: u32| {
        let (dx, dy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
        let mut c = a;
        if !g.claim(c, net) {
            return false;
        }
        while c != b {
            let next = Cell::new(c.x + dx, c.y + dy, c.layer);
            if !g.claim(next, net) {
                return false;
            }
            g.connect(c, next);
            c = next;
        }
        true
    };
    let state = |g: &Grid, nets: u32| {
        let mut cells = Vec::new();
        for layer in 1..=g.extent.layers {
            for y in 0..=g.extent.width + 1 {
                for x in -1..=g.extent.columns {
                    let c = Cell::new(x, y, layer);
                    cells.push((g.owner(c), g.flags(c)));
                }
            }
        }
        let claims: Vec<Vec<u32>> = (0..nets).map(|n| g.claims_of(n).to_vec()).collect();
        (cells, claims)
    };
    let (mut stopped, mut whole) = (0, 0);
    for case in 0..400 {
        let (columns, width, layers, nets) = (
            rng.gen_range(1..12),
            rng.gen_range(1..6),
            rng.gen_range(1..4),
            4u32,
        );
        let mut g = Grid::new(columns, width, layers, nets as usize);
        let random_cell = |r: &mut rand_chacha::ChaCha8Rng| {
            Cell::new(
                r.gen_range(-1..=columns as i64),
                r.gen_range(0..=width as i64 + 1),
                r.gen_range(1..=layers),
            )
        };
        for _ in 0..rng.gen_range(0..12) {
            let c = random_cell(&mut rng);
            g.claim(c, rng.gen_range(1..nets));
        }
        let before = state(&g, nets);
        let (mut fast, mut slow) = (g.clone(), g);
        let (mf, ms) = (fast.mark(), slow.mark());
        for _ in 0..rng.gen_range(1..5) {
            let a = random_cell(&mut rng);
            let b = if rng.gen_bool(0.5) {
                Cell::new(rng.gen_range(-1..=columns as i64), a.y, a.layer)
            } else {
                Cell::new(a.x, rng.gen_range(0..=width as i64 + 1), a.layer)
            };
            let net = rng.gen_range(0..nets);
            let (f, s) = (fast.run(a, b, net), one_by_one(&mut slow, a, b, net));
            assert_eq!(f, s, "case {case}: {a:?} to {b:?}");
            assert_eq!(
                state(&fast, nets),
                state(&slow, nets),
                "case {case}: {a:?} to {b:?}"
            );
            if f {
                whole += 1;
            } else {
                stopped += 1;
            }
        }
        fast.rollback(mf);
        slow.rollback(ms);
        assert_eq!(state(&fast, nets), before, "case {case}: rolled back");
        assert_eq!(state(&slow, nets), before, "case {case}: rolled back");
    }
    assert!(
        whole > 300 && stopped > 100,
        "{whole} whole, {stopped} stopped"
    );
}

/// The geometry of the first layer and that of the others, together, is
/// the geometry of all layers (what a large grid's two threads find), on
/// raw routed grids of two and three layers.
#[test]
fn the_geometry_of_layers_apart_is_the_geometry_of_all() {
    let mut split = 0;
    for (p, g) in crate::channel::routers::yacr::tests::raw_grids(59, 80) {
        let (mut wires, mut vias) = g.geometry_of(1..=1, &|n| n);
        let rest = g.geometry_of(2..=g.extent.layers, &|n| n);
        assert!(!rest.0.is_empty(), "{}", p.name());
        wires.extend(rest.0);
        vias.extend(rest.1);
        wires.sort_unstable();
        vias.sort_unstable();
        let (mut all_wires, mut all_vias) = g.geometry_of(1..=g.extent.layers, &|n| n);
        all_wires.sort_unstable();
        all_vias.sort_unstable();
        assert_eq!((wires, vias), (all_wires, all_vias), "{}", p.name());
        split += 1;
    }
    assert_eq!(split, 80);
}
