//! A riser, the vertical a net needs in a column, and its drawing: what
//! the set-up draws straight and the repairs draw or route around.

use crate::channel::grid::{Cell, Grid};

/// The vertical a net needs in a column: the rows it must join there.
#[derive(Clone, Debug)]
pub(super) struct Riser {
    pub(super) net: u32,
    pub(super) layer: u32,
    pub(super) lo: i64,
    pub(super) hi: i64,
    /// Rows and layers of the net's trunk pieces ending in this column.
    pub(super) joints: Joints,
}

/// The rows and layers of the trunk pieces a riser joins, in order. A
/// net's pieces meet at its pin columns, one ending where the next
/// starts, so a riser joins one or two: those are kept in place (an
/// attempt on 100,000 columns draws some 150,000 risers); any more in a
/// list.
#[derive(Clone, Debug, Default)]
pub(super) struct Joints {
    first: [(i64, u32); 2],
    len: usize,
    more: Vec<(i64, u32)>,
}

impl Joints {
    pub(super) fn push(&mut self, joint: (i64, u32)) {
        if self.len < self.first.len() {
            self.first[self.len] = joint;
        } else {
            self.more.push(joint);
        }
        self.len += 1;
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &(i64, u32)> + Clone {
        self.first[..self.len.min(self.first.len())]
            .iter()
            .chain(&self.more)
    }
}

/// Draw a riser: a vertical on its layer and a via to each joint.
pub(super) fn draw_riser(g: &mut Grid, x: i64, r: &Riser) -> bool {
    let free = (r.lo..=r.hi).all(|y| g.is_free_for(Cell::new(x, y, r.layer), r.net))
        && r.joints.iter().all(|&(y, l)| {
            (l.min(r.layer)..=l.max(r.layer)).all(|k| g.is_free_for(Cell::new(x, y, k), r.net))
        });
    if !free {
        return false;
    }
    if r.lo < r.hi {
        g.run(
            Cell::new(x, r.lo, r.layer),
            Cell::new(x, r.hi, r.layer),
            r.net,
        );
    }
    for &(y, l) in r.joints.iter() {
        if l != r.layer {
            g.via(x, y, l, r.layer, r.net);
        }
    }
    true
}
