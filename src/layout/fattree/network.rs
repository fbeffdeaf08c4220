//! The fat-tree's network twin: a binary tree with channels of `t(p)`
//! parallel links, from a spec or from a layout file's parameters.

use super::{heap_id, Capacity, FatTreeSpec};
use crate::layout::parameters::{FileParameters, ParameterError};
use crate::layout::SpecError;
use crate::network::{Network, NodeData, NodeId, Role};

impl Network {
    /// The fat-tree of a layout spec as a binary tree with channels of
    /// `t(p)` parallel links above every subtree of `p` leaves. Ids follow
    /// [`heap_id`]: processors `0 .. n` in leaf order, then the switches in
    /// heap order from the root.
    pub fn fat_tree(spec: &FatTreeSpec) -> Result<Network, SpecError> {
        let tracks = Network::fat_tree_tracks(spec)?;
        Ok(Network::binary_fat_tree(
            "fat-tree",
            spec.processors,
            &tracks,
        ))
    }

    /// The links above each subtree size of the fat-tree of `spec`, as
    /// [`Network::binary_fat_tree`] takes them.
    pub(crate) fn fat_tree_tracks(spec: &FatTreeSpec) -> Result<Vec<u64>, SpecError> {
        let n = spec.processors;
        // The H-tree (capacity 1) exists for every power of 2.
        if spec.capacity == Capacity::One && spec.omega == 1 && n.is_power_of_two() {
            Ok(vec![1; n.trailing_zeros() as usize + 1])
        } else {
            Ok(spec.recurrence()?.tracks)
        }
    }

    /// How many links [`Network::binary_fat_tree`] makes (`None` past
    /// `u64`): `tracks[i]` above each of the `n / 2^i` subtrees of `2^i`
    /// leaves, the root's excepted.
    pub(crate) fn binary_fat_tree_links(n: u64, tracks: &[u64]) -> Option<u64> {
        (0..n.trailing_zeros()).try_fold(0u64, |sum, i| {
            tracks
                .get(i as usize)?
                .checked_mul(n >> i)?
                .checked_add(sum)
        })
    }

    /// A binary fat-tree of `n` (a power of 2) leaves with `tracks[i]`
    /// parallel links above every subtree of `2^i` leaves; ids as
    /// [`heap_id`].
    pub fn binary_fat_tree(name: &str, n: u64, tracks: &[u64]) -> Network {
        let mut net = Network::with_nodes(name, (2 * n - 1) as usize);
        let depth_of = |heap: u64| 63 - heap.leading_zeros();
        let levels = n.trailing_zeros();
        for heap in 1..2 * n {
            let level = levels - depth_of(heap);
            net.set_node(
                NodeId(heap_id(heap, n)),
                NodeData {
                    role: if heap >= n {
                        Role::Processor
                    } else {
                        Role::Switch
                    },
                    level,
                },
            );
        }
        for heap in 2..2 * n {
            // The channel above this node's subtree of 2^level leaves.
            let level = levels - depth_of(heap);
            let wires = tracks[level as usize];
            for _ in 0..wires {
                net.add_link(NodeId(heap_id(heap, n)), NodeId(heap_id(heap / 2, n)));
            }
        }
        net
    }
}

/// The intended network of an `htree` or `fat-tree` layout file.
pub(crate) fn intended(p: &FileParameters) -> Result<Network, ParameterError> {
    let capacity = Capacity::parse(p.text_or("capacity", "one"))?;
    let spec = FatTreeSpec {
        processors: p.processors()?,
        capacity,
        omega: p.num("omega").unwrap_or(1),
        alpha: p.num("alpha").unwrap_or(1),
    };
    let tracks = Network::fat_tree_tracks(&spec)?;
    let n = spec.processors;
    p.fits_links(Network::binary_fat_tree_links(n, &tracks))?;
    Ok(Network::binary_fat_tree("fat-tree", n, &tracks))
}
