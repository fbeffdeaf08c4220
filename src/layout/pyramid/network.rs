//! The fat-pyramid's network twin, built from its definition without the
//! layout's link list, from a spec or from a layout file's parameters.

use super::{fat_pyramid, Ids, PyramidSpec};
use crate::layout::construction::{
    Bound, ClosedForms, Construction, Laid, LayoutError, LayoutOptions, Measured,
};
use crate::layout::parameters::{FileParameters, ParameterError};
use crate::network::{Network, NodeData, NodeId, Role};

impl Network {
    /// The fat-pyramid of [`crate::layout::pyramid`], built from its
    /// definition without the layout's link list: H-tree blocks (each the
    /// fat-tree of capacity 1 on its `b` processors); over the block roots a
    /// butterfly fat-tree where switch `i` of a level-`l` node joins switches
    /// `i mod 2^l` and `(i + 2^(l-1)) mod 2^l` of its parent node (a block
    /// root joins its level-1 node's one switch); at every level `1 <= h <
    /// K` switch `i` of a node joins switch `i` of the nodes east and north
    /// of it on the level's grid (blocks and nodes in Z-order). Ids as
    /// [`crate::layout::pyramid::Ids`].
    pub fn fat_pyramid(spec: &PyramidSpec) -> Network {
        let ids = Ids::new(spec);
        let (b, k) = (spec.block(), spec.k());
        let mut net = Network::with_nodes("fat-pyramid", ids.total(k) as usize);
        let block_levels = b.trailing_zeros();
        for q in 0..spec.blocks() {
            for heap in 1..2 * b {
                let depth = 63 - heap.leading_zeros();
                let id = NodeId(ids.block_node(q, heap));
                net.set_node(
                    id,
                    NodeData {
                        role: if heap >= b {
                            Role::Processor
                        } else {
                            Role::Switch
                        },
                        level: block_levels - depth,
                    },
                );
                if heap >= 2 {
                    net.add_link(id, NodeId(ids.block_node(q, heap / 2)));
                }
            }
        }
        // Node `v` of level `h` holds switches `v 2^(h-1) .. (v+1) 2^(h-1)`.
        let switch = |h: u32, v: u64, i: u64| NodeId(ids.switch(h, (v << (h - 1)) + i));
        for h in 1..=k {
            for v in 0..(spec.blocks() >> (2 * h)) {
                for i in 0..(1u64 << (h - 1)) {
                    net.set_node(
                        switch(h, v, i),
                        NodeData {
                            role: Role::Switch,
                            level: block_levels + h,
                        },
                    );
                }
            }
        }
        for q in 0..spec.blocks() {
            if k >= 1 {
                net.add_link(NodeId(ids.block_root(q)), switch(1, q / 4, 0));
            }
        }
        for l in 1..k {
            let width = 1u64 << l;
            for v in 0..(spec.blocks() >> (2 * l)) {
                for i in 0..(1u64 << (l - 1)) {
                    let me = switch(l, v, i);
                    net.add_link(me, switch(l + 1, v / 4, i % width));
                    net.add_link(me, switch(l + 1, v / 4, (i + width / 2) % width));
                }
            }
        }
        // Grid position of a Z-order index, bit by bit.
        let grid = |mut v: u64| {
            let (mut x, mut y, mut bit) = (0u64, 0u64, 0);
            while v > 0 {
                x |= (v & 1) << bit;
                y |= ((v >> 1) & 1) << bit;
                v >>= 2;
                bit += 1;
            }
            (x, y)
        };
        for h in 1..k {
            let nodes = spec.blocks() >> (2 * h);
            let at: std::collections::HashMap<(u64, u64), u64> =
                (0..nodes).map(|v| (grid(v), v)).collect();
            for v in 0..nodes {
                let (x, y) = grid(v);
                for other in [(x + 1, y), (x, y + 1)] {
                    if let Some(&w) = at.get(&other) {
                        for i in 0..(1u64 << (h - 1)) {
                            for _ in 0..spec.mesh_capacity {
                                net.add_link(switch(h, v, i), switch(h, w, i));
                            }
                        }
                    }
                }
            }
        }
        net
    }

    /// How many links [`Network::fat_pyramid`] makes for `spec` (`None` past
    /// `u64`): `2 (b - 1)` in each of the `B` H-tree blocks, one from each
    /// block root to level 1, two up from each butterfly switch below the
    /// top level `K`, and at each level `1 <= h < K`, `kappa` for each of
    /// the `2^(h-1)` switches of each of the `2 s (s - 1)` neighbouring node
    /// pairs of its `s x s` grid (`s = 2^(K-h)`). With `K = 1` there is no
    /// mesh at all: the one level-1 node is the root.
    pub(crate) fn fat_pyramid_links(spec: &PyramidSpec) -> Option<u64> {
        let (b, blocks, k) = (spec.block(), spec.blocks(), spec.k());
        let mut total = blocks.checked_mul(2 * (b - 1))?.checked_add(blocks)?;
        for h in 1..k {
            total = total.checked_add(2 * (blocks >> (h + 1)))?;
            let side = 1u64 << (k - h);
            let pairs = 2 * side * (side - 1);
            let mesh = pairs
                .checked_mul(1 << (h - 1))?
                .checked_mul(u64::from(spec.mesh_capacity))?;
            total = total.checked_add(mesh)?;
        }
        Some(total)
    }
}

impl PyramidSpec {
    /// The spec `fabric layout fat-pyramid --size n` asks for: the default
    /// blocks, with `--mesh-capacity`.
    pub fn from_options(n: u64, o: &LayoutOptions) -> Result<PyramidSpec, LayoutError> {
        Ok(PyramidSpec {
            mesh_capacity: o.mesh_capacity,
            ..PyramidSpec::new(n)?
        })
    }
}

impl Construction for PyramidSpec {
    fn build(&self) -> Result<Laid, LayoutError> {
        let p = fat_pyramid(self)?;
        let tiles = 1u64 << self.k();
        let (w, h) = (tiles * p.pitch.0 as u64, tiles * p.pitch.1 as u64);
        let mut forms = ClosedForms::square(h, h, None);
        forms.width = w;
        forms.bound = Bound::Tiles {
            pitch: p.pitch,
            tracks: p.tracks,
        };
        Ok(Laid {
            embedding: p.embedding,
            forms,
        })
    }

    fn network(&self) -> Result<Network, LayoutError> {
        Ok(Network::fat_pyramid(self))
    }

    fn figures(&self, m: &Measured) -> Vec<String> {
        super::figures::figures(self, m)
    }
}

/// The intended network of a `fat-pyramid` layout file.
pub(crate) fn intended(p: &FileParameters) -> Result<Network, ParameterError> {
    let n = p.processors()?;
    let beta = p.small("block_levels")?;
    let spec = PyramidSpec::new(n)?;
    let mesh_capacity = if p.has("mesh_capacity") {
        p.small("mesh_capacity")?
    } else {
        1
    };
    if beta >= n.trailing_zeros() / 2 || mesh_capacity == 0 {
        return Err(ParameterError::Bad("fat-pyramid"));
    }
    let spec = PyramidSpec {
        beta,
        mesh_capacity,
        ..spec
    };
    p.fits_links(Network::fat_pyramid_links(&spec))?;
    Ok(Network::fat_pyramid(&spec))
}
