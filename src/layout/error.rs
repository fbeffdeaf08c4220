//! Why a family's parameters describe no layout it builds ([`SpecError`]),
//! and why a delay function's text names none ([`DelayError`]).

/// Why a layout family refuses its parameters: processor counts, capacity
/// functions, wire multiplicities, levels and sizes it does not build.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A capacity name that is none of the known ones.
    #[error(
        "unknown capacity `{0}`: use one, sqrt-over-lg, sqrt, two-thirds-over-lg, two-thirds, doubling or table:c1,c2,..."
    )]
    UnknownCapacity(String),
    /// An entry of a `table:` capacity that is not a number.
    #[error("capacity table entry `{0}` is not a positive integer")]
    CapacityEntry(String),
    /// A capacity table with fewer entries than the tree has binary levels.
    #[error("the capacity table has {entries} entries; {leaves} leaves need {needed} (p = 1, 2, 4, ..., {leaves})")]
    ShortTable {
        /// The table's entries.
        entries: usize,
        /// The tree's leaves.
        leaves: u64,
        /// The entries it needs, `lg leaves + 1`.
        needed: u32,
    },
    /// A processor count that is not a power of `base` (`2^bits`).
    #[error("{processors} processors: {layout} needs a power of {base} (1, {base}, {}, {}, ...)", .base * .base, .base * .base * .base)]
    NotPowerOf {
        /// The processors asked for.
        processors: u64,
        /// The layout that needs them, as the message names it.
        layout: &'static str,
        /// The base whose powers the layout takes.
        base: u64,
    },
    /// A processor count that is not a power of 4 of at least 4.
    #[error("{processors} processors: {family} needs a power of 4, at least 4")]
    NotPowerOfFour {
        /// The processors asked for.
        processors: u64,
        /// The family, as the message names it (`the butterfly fat-tree`).
        family: &'static str,
    },
    /// A processor count that is not a power of 4 of at least 4, for the
    /// butterfly fat-tree's network.
    #[error("{0} processors: not a power of 4 of at least 4")]
    ButterflyProcessors(u64),
    /// A row count that is not a power of 2 of at least 2, for the
    /// butterfly `B(n)` (`N = 2^n` rows, `n >= 1`).
    #[error("{0} rows: the butterfly B(n) needs N = 2^n rows, a power of 2 of at least 2")]
    ButterflyRows(u64),
    /// A 2-D layout whose bounding box is more than the legality checker
    /// rasterises.
    #[error("a layout of {width} x {height} is more than the checker's {max_points} grid points")]
    AreaBeyondChecker {
        /// The layout's width.
        width: u64,
        /// The layout's height.
        height: u64,
        /// The checker's limit.
        max_points: u64,
    },
    /// A processor count that is not a power of 2, for an H-tree.
    #[error("{0} processors: an H-tree needs a power of 2 (1, 2, 4, 8, ...)")]
    HtreeProcessors(u64),
    /// Wires per unit of capacity other than 1 or 2.
    #[error("omega must be 1 or 2, not {0}")]
    Omega(u64),
    /// A processor area of 0.
    #[error("the processor area must be at least 1")]
    ZeroArea,
    /// A capacity of 0 above the subtrees of `p` leaves.
    #[error("capacity 0 at p = {0}")]
    ZeroCapacity(u64),
    /// A capacity of 0 at a binary level (of the 3-D fat-tree).
    #[error("capacity 0 at binary level {0}")]
    ZeroCapacityAtLevel(usize),
    /// A capacity that decreases from one binary level to the next.
    #[error("the capacity must not decrease towards the root (p = {p} has {c}, p = {parent_p} has {parent_c})")]
    Decreasing {
        /// The lower subtree size.
        p: u64,
        /// Its capacity.
        c: u64,
        /// The next subtree size, `2p`.
        parent_p: u64,
        /// Its capacity, less than `c`.
        parent_c: u64,
    },
    /// A scalable fat-tree whose `c(1)` is not 1.
    #[error("a processor has one wire: c(1) must be 1, not {0}")]
    ProcessorWires(u64),
    /// A scalable fat-tree whose capacity grows by other than x1 to x2 per
    /// 4-ary level.
    #[error("the two switch types need c(4p) between c(p) and 2 c(p): c({p}) = {c}, c({parent_p}) = {parent_c}")]
    SwitchGrowth {
        /// The lower subtree size.
        p: u64,
        /// Its capacity.
        c: u64,
        /// The next 4-ary subtree size, `4p`.
        parent_p: u64,
        /// Its capacity, outside `c ..= 2c`.
        parent_c: u64,
    },
    /// A 3-D fat-tree whose capacities overflow the cube's coordinates.
    #[error("the capacities make the cube too large to lay out")]
    CubeTooLarge,
    /// A 3-D fat-tree cube beyond the legality checker's grid.
    #[error("a cube of side {side} is more than the checker's {max_points} grid points")]
    BeyondChecker {
        /// The cube's side.
        side: u64,
        /// The checker's limit.
        max_points: u64,
    },
    /// A tree of meshes whose root side is not a power of 2.
    #[error("the root mesh side must be a power of 2, not {0}")]
    RootSide(u64),
    /// A fold-and-squash layout whose root side is not a power of 2 of at
    /// least 2.
    #[error("the root mesh side must be a power of 2, at least 2, not {0}")]
    FoldedRootSide(u64),
    /// `--levels` beyond the `dims lg n` levels of the tree of meshes.
    #[error("--levels must be at most {dims} lg n = {full}, not {levels}")]
    TooManyLevels {
        /// The mesh's dimensions (2 or 3).
        dims: u32,
        /// `dims lg n`.
        full: u32,
        /// The levels asked for.
        levels: u32,
    },
    /// A tree of meshes of more nodes than its builder takes.
    #[error("{count} nodes are more than this layout builds (2^{limit_lg})")]
    TooManyNodes {
        /// The nodes it would have.
        count: u64,
        /// The lg of the builder's limit.
        limit_lg: u32,
    },
    /// A fat-pyramid of more than `4^10` processors.
    #[error("{0} processors: the fat-pyramid builds at most 4^10")]
    PyramidTooLarge(u64),
    /// A fat-pyramid block whose H-tree has no nodes.
    #[error("empty H-tree")]
    EmptyHtree,
    /// A mesh side of less than 2.
    #[error("the mesh side must be at least 2, not {0}")]
    MeshSide(u64),
    /// A torus side of less than 3: at `n = 2` each ring's wrap-around
    /// link would join the two nodes its mesh link joins.
    #[error("the torus side must be at least 3, not {0} (at n = 2 each wrap-around link would double a mesh link; lay out the mesh)")]
    TorusSide(u64),
    /// Mesh or torus dimensions other than 1, 2 or 3.
    #[error("a mesh or torus has 1, 2 or 3 dimensions, not {0}")]
    MeshDims(u64),
    /// Parameters that together describe no network of the family (its
    /// name).
    #[error("bad {0} parameters")]
    Bad(&'static str),
    /// Sizes the sorting fat-tree does not build.
    #[error("{processors} terminals in meshes of side {mesh_side}: the sorting fat-tree needs N a power of 4 and L a power of 2 (by default the least >= lg N) with N / L^2 a power of 4, at least 4 (N = 256, 1024, 4096, 16384, 65536, ...)")]
    SortingFatTreeSize {
        /// The terminals asked for.
        processors: u64,
        /// The mesh side.
        mesh_side: u64,
    },
}

/// Why a delay function's text names no delay function.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DelayError {
    /// A point without the `:` between length and delay.
    #[error("delay point `{0}` is not `length:delay`")]
    Point(String),
    /// A point's length that is not a number.
    #[error("bad length `{0}`")]
    Length(String),
    /// A point's delay that is not a number.
    #[error("bad delay `{0}`")]
    Delay(String),
    /// Points whose length does not increase or whose delay decreases.
    #[error("delay points must increase in length and not decrease in delay")]
    NotMonotone,
}

#[cfg(test)]
mod tests {
    use super::{DelayError, SpecError};

    #[test]
    fn messages() {
        let cases = [
            (
                SpecError::NotPowerOf {
                    processors: 12,
                    layout: "the 3-D fat-tree layout",
                    base: 8,
                },
                "12 processors: the 3-D fat-tree layout needs a power of 8 (1, 8, 64, 512, ...)",
            ),
            (
                SpecError::ShortTable {
                    entries: 2,
                    leaves: 16,
                    needed: 5,
                },
                "the capacity table has 2 entries; 16 leaves need 5 (p = 1, 2, 4, ..., 16)",
            ),
            (
                SpecError::Decreasing {
                    p: 2,
                    c: 3,
                    parent_p: 4,
                    parent_c: 1,
                },
                "the capacity must not decrease towards the root (p = 2 has 3, p = 4 has 1)",
            ),
            (
                SpecError::NotPowerOfFour {
                    processors: 8,
                    family: "the fat-pyramid",
                },
                "8 processors: the fat-pyramid needs a power of 4, at least 4",
            ),
            (
                SpecError::TooManyLevels {
                    dims: 3,
                    full: 6,
                    levels: 7,
                },
                "--levels must be at most 3 lg n = 6, not 7",
            ),
            (
                SpecError::TooManyNodes {
                    count: 100,
                    limit_lg: 24,
                },
                "100 nodes are more than this layout builds (2^24)",
            ),
            (
                SpecError::BeyondChecker {
                    side: 1000,
                    max_points: 1 << 28,
                },
                "a cube of side 1000 is more than the checker's 268435456 grid points",
            ),
            (
                SpecError::ButterflyRows(12),
                "12 rows: the butterfly B(n) needs N = 2^n rows, a power of 2 of at least 2",
            ),
            (
                SpecError::AreaBeyondChecker {
                    width: 16396,
                    height: 24576,
                    max_points: 1 << 28,
                },
                "a layout of 16396 x 24576 is more than the checker's 268435456 grid points",
            ),
            (
                SpecError::TorusSide(2),
                "the torus side must be at least 3, not 2 (at n = 2 each wrap-around link would double a mesh link; lay out the mesh)",
            ),
            (
                SpecError::MeshSide(1),
                "the mesh side must be at least 2, not 1",
            ),
            (
                SpecError::MeshDims(4),
                "a mesh or torus has 1, 2 or 3 dimensions, not 4",
            ),
            (
                SpecError::Bad("tree-of-meshes"),
                "bad tree-of-meshes parameters",
            ),
        ];
        for (e, want) in cases {
            assert_eq!(e.to_string(), want);
        }
        assert_eq!(
            DelayError::Point("1".into()).to_string(),
            "delay point `1` is not `length:delay`"
        );
    }
}
