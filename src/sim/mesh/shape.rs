//! The d-dimensional `n x ... x n` array: mesh (no wrap-around) or torus,
//! its processing units (PUs) as indices, and its directed links.

use std::fmt;

pub use crate::layout::mesh::Topology;

/// A direction along an axis: towards larger or smaller coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Towards coordinate + 1 (wrapping on the torus).
    Up,
    /// Towards coordinate - 1 (wrapping on the torus).
    Down,
}

impl Dir {
    /// 0 for [`Dir::Up`], 1 for [`Dir::Down`]: the link's slot among a
    /// PU's two links along one axis.
    pub fn slot(self) -> usize {
        match self {
            Dir::Up => 0,
            Dir::Down => 1,
        }
    }
}

/// A PU, as the index `sum_j i_j n^j` of its coordinates `(i_0, ..., i_{d-1})`.
pub type Pu = u32;

/// The largest side [`Shape::new`] takes: every coordinate and every
/// distance fits in 16 bits.
pub const MAX_SIDE: u32 = 1 << 15;

/// The largest number of PUs [`Shape::new`] takes.
pub const MAX_PUS: u64 = 1 << 28;

/// Why an array cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// A side below 2 or above [`MAX_SIDE`].
    #[error("the side must be 2 .. {MAX_SIDE}, not {0}")]
    Side(u32),
    /// No dimensions, or more than 8.
    #[error("the dimension must be 1 .. 8, not {0}")]
    Dims(usize),
    /// More PUs than [`MAX_PUS`].
    #[error("{side}^{dims} PUs are more than {MAX_PUS}")]
    TooLarge {
        /// The side.
        side: u32,
        /// The dimension.
        dims: usize,
    },
}

/// A d-dimensional `n x ... x n` mesh or torus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The side n.
    pub side: u32,
    /// The dimension d.
    pub dims: usize,
    /// Mesh or torus.
    pub topology: Topology,
}

impl Shape {
    /// The array of side `side` in `dims` dimensions.
    pub fn new(side: u32, dims: usize, topology: Topology) -> Result<Shape, ShapeError> {
        if !(2..=MAX_SIDE).contains(&side) {
            return Err(ShapeError::Side(side));
        }
        if !(1..=8).contains(&dims) {
            return Err(ShapeError::Dims(dims));
        }
        let pus = (side as u64).checked_pow(dims as u32);
        if pus.is_none_or(|p| p > MAX_PUS) {
            return Err(ShapeError::TooLarge { side, dims });
        }
        Ok(Shape {
            side,
            dims,
            topology,
        })
    }

    /// n^d.
    pub fn pus(&self) -> usize {
        (self.side as usize).pow(self.dims as u32)
    }

    /// n^axis: how far apart two PUs adjacent along `axis` are as indices.
    pub fn stride(&self, axis: usize) -> u32 {
        self.side.pow(axis as u32)
    }

    /// The coordinate of `pu` along `axis`.
    pub fn coord(&self, pu: Pu, axis: usize) -> u32 {
        (pu / self.stride(axis)) % self.side
    }

    /// All coordinates of `pu`.
    pub fn coords(&self, pu: Pu) -> Vec<u32> {
        (0..self.dims).map(|a| self.coord(pu, a)).collect()
    }

    /// The PU with coordinates `c` (each below the side).
    pub fn pu(&self, c: &[u32]) -> Pu {
        c.iter().enumerate().map(|(a, &x)| x * self.stride(a)).sum()
    }

    /// `pu` with its coordinate along `axis` set to `x`.
    pub fn with_coord(&self, pu: Pu, axis: usize, x: u32) -> Pu {
        let s = self.stride(axis);
        pu - self.coord(pu, axis) * s + x * s
    }

    /// Directed links out of each PU: two per axis (on the mesh, those at
    /// the border lead nowhere and are never used).
    pub fn slots(&self) -> usize {
        2 * self.dims
    }

    /// The directed link out of `pu` along `axis` in `dir`, as an index
    /// `pu * 2d + 2 axis + slot`.
    pub fn link(&self, pu: Pu, axis: usize, dir: Dir) -> usize {
        pu as usize * self.slots() + 2 * axis + dir.slot()
    }

    /// The number of directed links that exist: `2d n^(d-1) (n-1)` on the
    /// mesh, `2d n^d` on the torus.
    pub fn directed_links(&self) -> u64 {
        let per_line = match self.topology {
            Topology::Mesh => self.side as u64 - 1,
            Topology::Torus => self.side as u64,
        };
        2 * self.dims as u64 * (self.pus() as u64 / self.side as u64) * per_line
    }

    /// The coordinate one hop from `x` in `dir` (the caller keeps mesh
    /// moves inside the array).
    pub fn step(&self, x: u32, dir: Dir) -> u32 {
        match dir {
            Dir::Up if x + 1 == self.side => 0,
            Dir::Up => x + 1,
            Dir::Down if x == 0 => self.side - 1,
            Dir::Down => x - 1,
        }
    }

    /// The PU one hop from `pu` along `axis` in `dir`.
    pub fn neighbour(&self, pu: Pu, axis: usize, dir: Dir) -> Pu {
        self.with_coord(pu, axis, self.step(self.coord(pu, axis), dir))
    }

    /// The way from coordinate `from` to `to` along one line: the direction
    /// and the number of hops. On the mesh the direction is the sign; on
    /// the torus the shorter way round, `tie` when both are n/2.
    pub fn way(&self, from: u32, to: u32, tie: Dir) -> (Dir, u32) {
        let n = self.side;
        match self.topology {
            Topology::Mesh if to >= from => (Dir::Up, to - from),
            Topology::Mesh => (Dir::Down, from - to),
            Topology::Torus => {
                let up = (to + n - from) % n;
                let down = (from + n - to) % n;
                if up < down || (up == down && tie == Dir::Up) {
                    (Dir::Up, up)
                } else {
                    (Dir::Down, down)
                }
            }
        }
    }

    /// The hop distance along one line (shorter way on the torus).
    pub fn line_distance(&self, from: u32, to: u32) -> u32 {
        self.way(from, to, Dir::Up).1
    }

    /// The hop distance between two PUs: the sum over the axes.
    pub fn distance(&self, a: Pu, b: Pu) -> u32 {
        (0..self.dims)
            .map(|x| self.line_distance(self.coord(a, x), self.coord(b, x)))
            .sum()
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sides = vec![self.side.to_string(); self.dims].join(" x ");
        write!(f, "{sides} {}", self.topology)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip_and_neighbours_are_one_apart() {
        for topology in [Topology::Mesh, Topology::Torus] {
            let s = Shape::new(5, 3, topology).unwrap();
            for pu in 0..s.pus() as Pu {
                assert_eq!(s.pu(&s.coords(pu)), pu);
                for axis in 0..3 {
                    let x = s.coord(pu, axis);
                    if topology == Topology::Mesh && x == 4 {
                        continue;
                    }
                    let up = s.neighbour(pu, axis, Dir::Up);
                    assert_eq!(s.neighbour(up, axis, Dir::Down), pu);
                    assert_eq!(s.distance(pu, up), 1);
                }
            }
        }
    }

    #[test]
    fn torus_ways_are_the_shorter_ones() {
        let s = Shape::new(8, 1, Topology::Torus).unwrap();
        assert_eq!(s.way(1, 7, Dir::Up), (Dir::Down, 2));
        assert_eq!(s.way(7, 1, Dir::Up), (Dir::Up, 2));
        assert_eq!(s.way(0, 4, Dir::Up), (Dir::Up, 4));
        assert_eq!(s.way(0, 4, Dir::Down), (Dir::Down, 4));
        let m = Shape::new(8, 1, Topology::Mesh).unwrap();
        assert_eq!(m.way(1, 7, Dir::Down), (Dir::Up, 6));
    }

    #[test]
    fn link_counts_follow_the_closed_forms() {
        let count = |s: &Shape| {
            let mut c = 0u64;
            for pu in 0..s.pus() as Pu {
                for axis in 0..s.dims {
                    for dir in [Dir::Up, Dir::Down] {
                        let x = s.coord(pu, axis);
                        let inside = s.topology == Topology::Torus
                            || (dir == Dir::Up && x + 1 < s.side)
                            || (dir == Dir::Down && x > 0);
                        c += u64::from(inside);
                    }
                }
            }
            c
        };
        for (n, d) in [(2, 1), (5, 2), (4, 3)] {
            for t in [Topology::Mesh, Topology::Torus] {
                let s = Shape::new(n, d, t).unwrap();
                assert_eq!(count(&s), s.directed_links(), "{s}");
            }
        }
    }

    #[test]
    fn bad_shapes_are_refused() {
        assert_eq!(Shape::new(1, 2, Topology::Mesh), Err(ShapeError::Side(1)));
        assert_eq!(Shape::new(4, 0, Topology::Mesh), Err(ShapeError::Dims(0)));
        assert!(matches!(
            Shape::new(1 << 15, 3, Topology::Torus),
            Err(ShapeError::TooLarge { .. })
        ));
    }
}
