//! The geometry against a cell-by-cell reading of random grids, and the
//! marks across a wrap of their round counter.

use super::{Cell, Grid, Marks, Point, Via, Wire, RIGHT, UP, VIA};

/// The wires and vias of a grid found cell by cell along each row,
/// column and point (the obvious way), sorted.
fn runs_cell_by_cell(g: &Grid) -> (Vec<Wire>, Vec<Via>) {
    let (mut wires, mut vias) = (Vec::new(), Vec::new());
    let net = |c: Cell| g.owner(c) - 1;
    for layer in 1..=g.layers {
        for y in 0..=g.width + 1 {
            for x in -1..=g.columns {
                let c = Cell::new(x, y, layer);
                let left = Cell::new(x - 1, y, layer);
                if g.flags(c) & RIGHT != 0 && (x == -1 || g.flags(left) & RIGHT == 0) {
                    let mut end = x;
                    while end <= g.columns && g.flags(Cell::new(end, y, layer)) & RIGHT != 0 {
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
                    while end <= g.width + 1 && g.flags(Cell::new(x, end, layer)) & UP != 0 {
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
                if layer < g.layers
                    && g.flags(c) & VIA != 0
                    && (layer == 1 || g.flags(under) & VIA == 0)
                {
                    let mut top = layer;
                    while top < g.layers && g.flags(Cell::new(x, y, top)) & VIA != 0 {
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
    for (p, g) in super::super::tests::raw_grids(53, 120) {
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
    m.grow(12);
    assert!(m.is_marked(3) && !m.is_marked(11));
}
