//! A grid point ([`Cell`]) and what occupies it ([`PointState`]): the
//! grid keeps owners packed as `net + 1` (0 free, [`BLOCKED`] another
//! group's), and reads them out as a state.

use super::{Grid, BLOCKED};

/// A grid point on a layer (layer is 1-based).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Column, `-1 ..= C` (the side columns included).
    pub x: i64,
    /// Row, `0 ..= W + 1` (the pin rows included).
    pub y: i64,
    /// Layer, `1 ..= L`.
    pub layer: u32,
}

impl Cell {
    /// The point `(x, y)` on `layer`.
    pub const fn new(x: i64, y: i64, layer: u32) -> Self {
        Cell { x, y, layer }
    }
}

/// What occupies a grid point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointState {
    /// No net uses the point.
    Free,
    /// Another group's routing uses the point ([`Grid::block`]).
    Blocked,
    /// The net of this index owns the point.
    Net(u32),
}

impl PointState {
    /// The state of a packed owner (`net + 1`, 0 free, [`BLOCKED`]).
    #[inline]
    fn of_owner(owner: u32) -> Self {
        match owner {
            0 => PointState::Free,
            BLOCKED => PointState::Blocked,
            o => PointState::Net(o - 1),
        }
    }
}

impl Grid {
    /// What occupies the cell at a raster index.
    #[inline]
    pub fn state_at(&self, i: usize) -> PointState {
        PointState::of_owner(self.owner[i])
    }

    /// What occupies a cell.
    #[inline]
    pub fn state(&self, c: Cell) -> PointState {
        self.state_at(self.index(c))
    }
}
