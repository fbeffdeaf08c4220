//! Local frames of recursive layouts: a block is built in its own
//! coordinates, and a frame maps them into its parent's, possibly
//! mirrored top to bottom (the H-tree layouts of the Bay–Bilardi
//! networks place a node's two children mirror images of each other).

use super::P3;

/// Whether a child block is drawn as built or mirrored top to bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mirror {
    /// As built.
    Upright,
    /// Mirrored top to bottom.
    Flipped,
}

/// Local-to-global map of a block: `(x, y) -> (ox + x, oy + sy y)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    ox: i64,
    oy: i64,
    sy: i64,
}

impl Frame {
    /// The frame of the whole layout.
    pub(crate) const IDENTITY: Frame = Frame {
        ox: 0,
        oy: 0,
        sy: 1,
    };

    /// The local column of the global point `p`.
    pub(crate) fn column(&self, p: P3) -> i64 {
        p.x - self.ox
    }

    /// The global point of local `(x, y)`.
    pub(crate) fn at(&self, x: u64, y: u64) -> P3 {
        P3::xy(self.ox + x as i64, self.oy + self.sy * y as i64)
    }

    /// The frame of a block `height` tall at local `(bx, by)`.
    pub(crate) fn child(&self, bx: u64, by: u64, height: u64, mirror: Mirror) -> Frame {
        let flipped = mirror == Mirror::Flipped;
        let o = self.at(bx, if flipped { by + height - 1 } else { by });
        Frame {
            ox: o.x,
            oy: o.y,
            sy: if flipped { -self.sy } else { self.sy },
        }
    }

    /// The inclusive global corners of the local box `[x0, x1) x [y0, y1)`.
    pub(crate) fn rect(&self, x0: u64, x1: u64, y0: u64, y1: u64) -> (P3, P3) {
        let (a, b) = (self.at(x0, y0), self.at(x1 - 1, y1 - 1));
        (
            P3::xy(a.x.min(b.x), a.y.min(b.y)),
            P3::xy(a.x.max(b.x), a.y.max(b.y)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flipped_child_maps_its_rows_upside_down() {
        let f = Frame::IDENTITY.child(10, 20, 5, Mirror::Flipped);
        assert_eq!((f.at(0, 0), f.at(0, 4)), (P3::xy(10, 24), P3::xy(10, 20)));
        let g = f.child(1, 1, 2, Mirror::Flipped);
        assert_eq!((g.at(0, 0), g.at(0, 1)), (P3::xy(11, 22), P3::xy(11, 23)));
        assert_eq!(f.rect(0, 2, 0, 5), (P3::xy(10, 20), P3::xy(11, 24)));
        let u = Frame::IDENTITY.child(3, 4, 9, Mirror::Upright);
        assert_eq!(u.at(1, 1), P3::xy(4, 5));
        assert_eq!(u.column(u.at(7, 2)), 7);
    }
}
