//! The layout families `fabric layout` builds, as a type.

/// A family of networks with a grid layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum LayoutKind {
    /// A complete binary tree as an H-tree (a fat-tree with unit
    /// capacities at powers of 4).
    Htree,
    /// A fat-tree with channel capacities c(p) (thesis chapter 4).
    FatTree,
    /// The butterfly fat-tree of constant-size switches.
    ButterflyFatTree,
    /// The scalable fat-tree of constant-size switches.
    ScalableFatTree,
    /// A tree of meshes in H-tree style.
    TreeOfMeshes,
    /// A tree of meshes folded and squashed in 2-D.
    FoldedTreeOfMeshes,
    /// A tree of meshes folded and squashed in 3-D.
    #[value(name = "tree-of-meshes-3d")]
    TreeOfMeshes3d,
    /// A butterfly fat-tree over H-tree blocks with a mesh at every level.
    FatPyramid,
    /// A fat-tree in a cube with thin gap slabs (a power of 8 processors).
    #[value(name = "fat-tree-3d")]
    FatTree3d,
}

impl LayoutKind {
    /// Every family.
    pub const ALL: [LayoutKind; 9] = [
        LayoutKind::Htree,
        LayoutKind::FatTree,
        LayoutKind::ButterflyFatTree,
        LayoutKind::ScalableFatTree,
        LayoutKind::TreeOfMeshes,
        LayoutKind::FoldedTreeOfMeshes,
        LayoutKind::TreeOfMeshes3d,
        LayoutKind::FatPyramid,
        LayoutKind::FatTree3d,
    ];

    /// The command-line name (`fat-tree`, `tree-of-meshes-3d`, ...).
    pub fn name(self) -> &'static str {
        match self {
            LayoutKind::Htree => "htree",
            LayoutKind::FatTree => "fat-tree",
            LayoutKind::ButterflyFatTree => "butterfly-fat-tree",
            LayoutKind::ScalableFatTree => "scalable-fat-tree",
            LayoutKind::TreeOfMeshes => "tree-of-meshes",
            LayoutKind::FoldedTreeOfMeshes => "folded-tree-of-meshes",
            LayoutKind::TreeOfMeshes3d => "tree-of-meshes-3d",
            LayoutKind::FatPyramid => "fat-pyramid",
            LayoutKind::FatTree3d => "fat-tree-3d",
        }
    }

    /// Trees of meshes, whose size is the root mesh's side.
    pub fn is_tree_of_meshes(self) -> bool {
        matches!(
            self,
            LayoutKind::TreeOfMeshes | LayoutKind::FoldedTreeOfMeshes | LayoutKind::TreeOfMeshes3d
        )
    }

    /// Laid out in three dimensions.
    pub fn is_3d(self) -> bool {
        matches!(self, LayoutKind::TreeOfMeshes3d | LayoutKind::FatTree3d)
    }

    /// Fat-trees with capacities c(p) (`--capacity`, `--omega`, `--alpha`).
    pub fn is_fat_tree(self) -> bool {
        matches!(self, LayoutKind::FatTree | LayoutKind::FatTree3d)
    }
}

impl std::fmt::Display for LayoutKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_command_line_values() {
        for k in LayoutKind::ALL {
            let parsed = <LayoutKind as clap::ValueEnum>::from_str(k.name(), false);
            assert_eq!(parsed, Ok(k));
        }
    }
}
