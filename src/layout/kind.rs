//! The layout families `fabric layout` builds, as a type, and the dispatch
//! to each family's [`Construction`].

use super::butterfly::{ButterflySpec, ScalableSpec};
use super::butterfly_net::ButterflyNetSpec;
use super::construction::{Construction, Dims, LayoutError, LayoutOptions};
use super::fattree::{FatTreeSpec, HtreeSpec};
use super::fattree3d::FatTree3dSpec;
use super::folded::{Folded2dSpec, Folded3dSpec};
use super::mesh::{MeshSpec, Topology};
use super::pruned_butterfly::PbLayoutSpec;
use super::pyramid::PyramidSpec;
use super::sorting_fat_tree::SftLayoutSpec;
use super::tree_of_meshes::TreeOfMeshesSpec;

/// A family of networks with a grid layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
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
    #[cfg_attr(feature = "cli", value(name = "tree-of-meshes-3d"))]
    TreeOfMeshes3d,
    /// A butterfly fat-tree over H-tree blocks with a mesh at every level.
    FatPyramid,
    /// A fat-tree in a cube with thin gap slabs (a power of 8 processors).
    #[cfg_attr(feature = "cli", value(name = "fat-tree-3d"))]
    FatTree3d,
    /// The butterfly B(n) of N = 2^n rows, levels in columns, in area
    /// Θ(N^2).
    Butterfly,
    /// The d-dimensional mesh of side n (`--dims d`), every wire a unit.
    Mesh,
    /// The d-dimensional torus of side n (`--dims d`), its rings folded so
    /// that every wire spans two node pitches at most.
    Torus,
    /// Bay and Bilardi's pruned butterfly of N leaves (a power of 4) as an
    /// H-tree (Fig. 3), every vertex a box and every edge a wire.
    PrunedButterfly,
    /// Bay and Bilardi's sorting fat-tree of N terminals: lg N x lg N
    /// meshes at the leaves of an H-tree of sorter blocks (Fig. 5).
    SortingFatTree,
}

impl LayoutKind {
    /// Every family.
    pub const ALL: [LayoutKind; 14] = [
        LayoutKind::Htree,
        LayoutKind::FatTree,
        LayoutKind::ButterflyFatTree,
        LayoutKind::ScalableFatTree,
        LayoutKind::TreeOfMeshes,
        LayoutKind::FoldedTreeOfMeshes,
        LayoutKind::TreeOfMeshes3d,
        LayoutKind::FatPyramid,
        LayoutKind::FatTree3d,
        LayoutKind::Butterfly,
        LayoutKind::Mesh,
        LayoutKind::Torus,
        LayoutKind::PrunedButterfly,
        LayoutKind::SortingFatTree,
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
            LayoutKind::Butterfly => "butterfly",
            LayoutKind::Mesh => "mesh",
            LayoutKind::Torus => "torus",
            LayoutKind::PrunedButterfly => "pruned-butterfly",
            LayoutKind::SortingFatTree => "sorting-fat-tree",
        }
    }

    /// The family's construction of `size` (processors; the root mesh's
    /// side for trees of meshes; rows for the butterfly; the side for the
    /// mesh and torus) with the options `o`; the options it refuses
    /// otherwise.
    pub fn construction(
        self,
        size: u64,
        o: &LayoutOptions,
    ) -> Result<Box<dyn Construction>, LayoutError> {
        Ok(match self {
            LayoutKind::Htree => Box::new(HtreeSpec::from_options(size, o)?),
            LayoutKind::FatTree => Box::new(FatTreeSpec::from_options(size, o)?),
            LayoutKind::ButterflyFatTree => Box::new(ButterflySpec { processors: size }),
            LayoutKind::ScalableFatTree => Box::new(ScalableSpec::from_options(size, o)?),
            LayoutKind::TreeOfMeshes => Box::new(TreeOfMeshesSpec::from_options(size, o)),
            LayoutKind::FoldedTreeOfMeshes => Box::new(Folded2dSpec::from_options(size, o)),
            LayoutKind::TreeOfMeshes3d => Box::new(Folded3dSpec::from_options(size, o)),
            LayoutKind::FatPyramid => Box::new(PyramidSpec::from_options(size, o)?),
            LayoutKind::FatTree3d => Box::new(FatTree3dSpec::from_options(size, o)?),
            LayoutKind::Butterfly => Box::new(ButterflyNetSpec::new(size)?),
            LayoutKind::Mesh => Box::new(MeshSpec::from_options(Topology::Mesh, size, o)?),
            LayoutKind::Torus => Box::new(MeshSpec::from_options(Topology::Torus, size, o)?),
            LayoutKind::PrunedButterfly => Box::new(PbLayoutSpec::new(size)),
            LayoutKind::SortingFatTree => Box::new(SftLayoutSpec::new(size)),
        })
    }

    /// The capacity function a fat-tree takes without `--capacity`.
    pub fn default_capacity(self) -> crate::layout::fattree::Capacity {
        use crate::layout::fattree::Capacity;
        if self == LayoutKind::FatTree3d {
            Capacity::TwoThirdsOverLg
        } else {
            Capacity::SqrtOverLg
        }
    }

    /// The sizes `fabric layout --sweep` lays out (`dims`: the mesh's and
    /// torus's dimensions; the other families ignore it).
    pub fn sweep_sizes(self, dims: Dims) -> Vec<u64> {
        match self {
            // Sides 4 .. 1024 on a line, 4 .. 128 in the plane; in space
            // up to 32, a raster of 32^3 points (mesh) or 160^3 (torus).
            LayoutKind::Mesh | LayoutKind::Torus => match (dims, self.topology()) {
                (Dims::One, _) => (2..=10).map(|k| 1u64 << k).collect(),
                (Dims::Two, _) => (2..=7).map(|k| 1u64 << k).collect(),
                (Dims::Three, t) => t
                    .map(Topology::least_side)
                    .into_iter()
                    .chain((2..=5).map(|k| 1u64 << k))
                    .collect(),
            },
            LayoutKind::FatTree3d => (1..=6).map(|k| 8u64.pow(k)).collect(),
            LayoutKind::FatPyramid => (2..=9).map(|k| 4u64.pow(k)).collect(),
            // The checker's raster needs about 25 bytes per point: n = 16
            // (256^3 points) is the largest that fits well within 2 GB.
            LayoutKind::TreeOfMeshes3d => (1..=4).map(|k| 1u64 << k).collect(),
            LayoutKind::TreeOfMeshes | LayoutKind::FoldedTreeOfMeshes => {
                (1..=6).map(|k| 1u64 << k).collect()
            }
            LayoutKind::Butterfly => (1..=10).map(|k| 1u64 << k).collect(),
            // N = 16 .. 16384: the checker's raster of 5872^2 points at the
            // top is some 0.9 GB.
            LayoutKind::PrunedButterfly => (2..=7).map(|k| 4u64.pow(k)).collect(),
            // N = 256 .. 16384 (3968 x 2296 at the top).
            LayoutKind::SortingFatTree => (4..=7).map(|k| 4u64.pow(k)).collect(),
            _ => (1..=8).map(|k| 4u64.pow(k)).collect(),
        }
    }

    /// Trees of meshes, whose size is the root mesh's side.
    pub fn is_tree_of_meshes(self) -> bool {
        matches!(
            self,
            LayoutKind::TreeOfMeshes | LayoutKind::FoldedTreeOfMeshes | LayoutKind::TreeOfMeshes3d
        )
    }

    /// Laid out in three dimensions (`dims`: the mesh's and torus's
    /// dimensions; the other families ignore it).
    pub fn is_3d(self, dims: Dims) -> bool {
        match self {
            LayoutKind::TreeOfMeshes3d | LayoutKind::FatTree3d => true,
            LayoutKind::Mesh | LayoutKind::Torus => dims.layout_dimensions() == 3,
            _ => false,
        }
    }

    /// The mesh's or torus's topology; `None` for the other families.
    pub fn topology(self) -> Option<Topology> {
        match self {
            LayoutKind::Mesh => Some(Topology::Mesh),
            LayoutKind::Torus => Some(Topology::Torus),
            _ => None,
        }
    }

    /// The mesh and torus, which take `--dims`.
    pub fn takes_dims(self) -> bool {
        self.topology().is_some()
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

    #[cfg(feature = "cli")]
    #[test]
    fn names_are_the_command_line_values() {
        for k in LayoutKind::ALL {
            let parsed = <LayoutKind as clap::ValueEnum>::from_str(k.name(), false);
            assert_eq!(parsed, Ok(k));
        }
    }
    /// Every family's network twin, built from its parameters alone, is
    /// the network its layout realises.
    #[test]
    fn constructions_realise_their_network_twins() {
        let o = LayoutOptions {
            capacity: None,
            omega: 1,
            alpha: 1,
            levels: None,
            mesh_capacity: 1,
            dims: None,
        };
        for k in LayoutKind::ALL {
            let sizes: &[u64] = match k {
                LayoutKind::FatTree3d => &[8, 64],
                LayoutKind::Htree => &[2, 8, 16, 64],
                _ if k.is_tree_of_meshes() => &[2, 4],
                LayoutKind::Mesh | LayoutKind::Torus => &[3, 4, 7],
                LayoutKind::SortingFatTree => &[256, 1024],
                _ => &[16, 64],
            };
            let dims: &[Option<Dims>] = if k.takes_dims() {
                &[None, Some(Dims::One), Some(Dims::Two), Some(Dims::Three)]
            } else {
                &[None]
            };
            for &n in sizes {
                for &dims in dims {
                    let o = LayoutOptions { dims, ..o.clone() };
                    let c = k.construction(n, &o).unwrap();
                    let laid = c.build().unwrap();
                    let got = crate::network::Network::from_embedding(&laid.embedding).unwrap();
                    assert_eq!(
                        got.compare(&c.network().unwrap()),
                        Ok(()),
                        "{k} {n} {dims:?}"
                    );
                }
            }
        }
    }
}
