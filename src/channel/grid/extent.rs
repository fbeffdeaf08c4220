//! The extent of a routing grid and its raster arithmetic: what a grid
//! covers, apart from what lies on it.

/// The points a grid covers: `x = -1 ..= C` (side columns included),
/// `y = 0 ..= W + 1` (pin rows included) and layers `1 ..= L`, rasterised
/// layer-major, then row, then column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extent {
    /// Number of columns `C`; `x` runs over `-1 ..= C`.
    pub columns: i64,
    /// Number of tracks `W`; `y` runs over `0 ..= W + 1`.
    pub width: i64,
    /// Number of layers `L`.
    pub layers: u32,
}

impl Extent {
    /// The extent of `columns` columns, `width` tracks and `layers` layers.
    pub fn new(columns: u32, width: u32, layers: u32) -> Self {
        Extent {
            columns: columns as i64,
            width: width as i64,
            layers,
        }
    }

    /// The number of points, `(C + 2) (W + 2) L`.
    pub fn points(&self) -> usize {
        (self.columns as usize + 2) * (self.width as usize + 2) * self.layers as usize
    }

    /// The top pin row, `W + 1`.
    #[inline]
    pub fn top_row(&self) -> i64 {
        self.width + 1
    }

    /// Whether `c` lies in the extent, side columns and pin rows included.
    #[inline]
    pub fn contains(&self, c: super::Cell) -> bool {
        (-1..=self.columns).contains(&c.x)
            && (0..=self.width + 1).contains(&c.y)
            && (1..=self.layers).contains(&c.layer)
    }

    /// The raster index of `c` (shifted by one column so `x = -1` is 0).
    /// `c` must lie in the extent.
    #[inline(always)]
    pub fn index(&self, c: super::Cell) -> usize {
        (((c.layer - 1) as i64 * (self.width + 2) + c.y) * (self.columns + 2) + c.x + 1) as usize
    }

    /// The point at a raster index.
    #[inline]
    pub fn cell_at(&self, i: usize) -> super::Cell {
        // Raster indices fit in 32 bits (cell lists store them so), and
        // 32-bit division is the quicker.
        debug_assert!(i <= u32::MAX as usize);
        let (i, cols, rows) = (i as u32, (self.columns + 2) as u32, (self.width + 2) as u32);
        let (r, x) = (i / cols, i % cols);
        super::Cell::new(x as i64 - 1, (r % rows) as i64, r / rows + 1)
    }
}
