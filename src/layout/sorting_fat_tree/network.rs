//! The sorting fat-tree's network twin: its meshes, sorters and channels
//! as a network, from its sizes or from a layout file's parameters.

use super::{capacity, SftLayoutSpec};
use crate::layout::parameters::{FileParameters, ParameterError};
use crate::network::{Network, NodeData, NodeId, Role};

impl Network {
    /// The sorting fat-tree of `n` terminals in meshes of side `l` (sizes
    /// as [`SftLayoutSpec::shape`] accepts them; ids and links as the
    /// module comment of [`crate::layout::sorting_fat_tree`] says).
    pub fn sorting_fat_tree(n: u64, l: u64) -> Network {
        let meshes = n / (l * l);
        let mut net = Network::with_nodes("sorting-fat-tree", (n + meshes - 1) as usize);
        let top = meshes.trailing_zeros();
        let sorter = |h: u64| NodeId((n + h - 1) as u32);
        for h in 1..meshes {
            let depth = 63 - h.leading_zeros();
            let data = NodeData {
                role: Role::Switch,
                level: top - depth,
            };
            net.set_node(sorter(h), data);
        }
        for g in 0..meshes {
            let id = |r: u64, c: u64| NodeId((g * l * l + r * l + c) as u32);
            for r in 0..l {
                for c in 0..l {
                    if c + 1 < l {
                        net.add_link(id(r, c), id(r, c + 1));
                    }
                    if r + 1 < l {
                        net.add_link(id(r, c), id(r + 1, c));
                    }
                }
            }
            for c in 0..l {
                net.add_link(id(l - 1, c), sorter((meshes + g) / 2));
            }
        }
        for h in 2..meshes {
            let depth = 63 - h.leading_zeros() as u64;
            let below = n >> depth;
            for _ in 0..capacity(below) {
                net.add_link(sorter(h), sorter(h / 2));
            }
        }
        net
    }
}

/// The intended network of a `sorting-fat-tree` layout file: parameters
/// `processors`, `mesh_side`, `xi` and `tau` as the family checks them,
/// refused without building when the network has more nodes than the
/// file.
pub(crate) fn intended(p: &FileParameters) -> Result<Network, ParameterError> {
    let spec = SftLayoutSpec {
        processors: p.num("processors")?,
        mesh_side: p.num("mesh_side")?,
        xi: p.num("xi")?,
        tau: p.num("tau")?,
    };
    let shape = spec.shape()?;
    p.fits_nodes(Some(spec.processors + shape.meshes - 1))?;
    let (n, l, meshes) = (spec.processors, spec.mesh_side, shape.meshes);
    let channels: u64 = (2..meshes)
        .map(|h| capacity(n >> (63 - h.leading_zeros())))
        .sum();
    p.fits_links(Some(meshes * (2 * l * (l - 1) + l) + channels))?;
    Ok(Network::sorting_fat_tree(spec.processors, spec.mesh_side))
}
