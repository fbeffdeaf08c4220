//! The sorting fat-tree's shape: `L x L` meshes of terminals at the
//! leaves of a binary fat-tree whose nodes are flexible sorters.

use serde::Serialize;

/// Why a sorting fat-tree cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// `N` is not a power of two of at least 8.
    #[error("a sorting fat-tree needs a power of two of at least 8 terminals, not {0}")]
    Terminals(u64),
    /// The mesh side is not a power of two leaving at least two meshes.
    #[error("mesh side {side} must be a power of two with at least two {side} x {side} meshes in {terminals} terminals")]
    MeshSide {
        /// The side asked for.
        side: u32,
        /// `N`.
        terminals: u64,
    },
    /// The batch count is 0.
    #[error("the number of batches must be at least 1")]
    Batches,
}

/// A sorting fat-tree of `N = 2^n` terminals in `L x L` meshes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Shape {
    /// `lg N`.
    pub n: u32,
    /// `L`, the side of a mesh (a power of two).
    pub mesh_side: u32,
    /// `B`, the batches of the upward and downward movements.
    pub batches: u32,
}

impl Shape {
    /// The sorting fat-tree of `terminals` terminals; the mesh side
    /// defaults to the smallest power of two `>= lg N` (the paper's
    /// `lg N x lg N` meshes, rounded up), and `B` to `lg N`, or to `L` if
    /// `L < lg N`.
    pub fn new(
        terminals: u64,
        mesh_side: Option<u32>,
        batches: Option<u32>,
    ) -> Result<Shape, ShapeError> {
        if !terminals.is_power_of_two() || !(8..=1 << 30).contains(&terminals) {
            return Err(ShapeError::Terminals(terminals));
        }
        let n = terminals.ilog2();
        let side = mesh_side.unwrap_or_else(|| n.next_power_of_two());
        let fits = side.is_power_of_two() && 2 * side.ilog2() < n;
        if !fits {
            return Err(ShapeError::MeshSide { side, terminals });
        }
        let batches = batches.unwrap_or(n.min(side));
        if batches == 0 {
            return Err(ShapeError::Batches);
        }
        Ok(Shape {
            n,
            mesh_side: side,
            batches,
        })
    }

    /// `N`.
    pub fn terminals(self) -> u32 {
        1 << self.n
    }

    /// `H`: the level of the meshes (the root is level 0).
    pub fn height(self) -> u32 {
        self.n - 2 * self.mesh_side.ilog2()
    }

    /// The mesh holding terminal `t` (its node at level `H`).
    pub fn mesh(self, t: u32) -> u32 {
        t >> (self.n - self.height())
    }

    /// Terminals below a node at level `k`.
    pub fn below(self, k: u32) -> u64 {
        1 << (self.n - k)
    }

    /// Capacity of the channel above a node at level `k`, `1 <= k <= H`:
    /// `L` above a mesh; above an `m`-terminal node, `sqrt(2m)` if `m` is an
    /// odd power of two and `sqrt(m)` if an even one.
    pub fn cap(self, k: u32) -> u32 {
        debug_assert!(k >= 1 && k <= self.height());
        if k == self.height() {
            return self.mesh_side;
        }
        let lg = self.n - k;
        1 << lg.div_ceil(2)
    }

    /// Width `s` of the sorter of a node at level `k < H`: the two child
    /// channels' capacities together.
    pub fn sorter_width(self, k: u32) -> u32 {
        2 * self.cap(k + 1)
    }

    /// The level of the lowest common ancestor of terminals `a` and `b`.
    pub fn peak(self, a: u32, b: u32) -> u32 {
        self.n - (32 - (a ^ b).leading_zeros())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worked_examples_of_the_notes() {
        let s = Shape::new(256, None, None).unwrap();
        assert_eq!((s.mesh_side, s.height(), s.batches), (8, 2, 8));
        assert_eq!((s.cap(2), s.cap(1)), (8, 16));
        assert_eq!((s.sorter_width(1), s.sorter_width(0)), (16, 32));
        let s = Shape::new(65536, None, None).unwrap();
        assert_eq!((s.mesh_side, s.height()), (16, 8));
        let widths: Vec<u32> = (0..8).rev().map(|k| s.sorter_width(k)).collect();
        assert_eq!(widths, [32, 64, 64, 128, 128, 256, 256, 512]);
        let caps: Vec<u32> = (1..8).rev().map(|k| s.cap(k)).collect();
        assert_eq!(caps, [32, 32, 64, 64, 128, 128, 256]);
        let s = Shape::new(1024, None, None).unwrap();
        assert_eq!((s.mesh_side, s.height()), (16, 2));
    }

    #[test]
    fn bad_shapes_are_errors() {
        assert_eq!(
            Shape::new(1000, None, None),
            Err(ShapeError::Terminals(1000))
        );
        assert!(matches!(
            Shape::new(16, None, None),
            Err(ShapeError::MeshSide { .. })
        ));
        assert!(matches!(
            Shape::new(256, Some(6), None),
            Err(ShapeError::MeshSide { .. })
        ));
        assert_eq!(Shape::new(256, Some(4), Some(0)), Err(ShapeError::Batches));
        assert_eq!(Shape::new(16, Some(2), None).unwrap().batches, 2);
    }
}
