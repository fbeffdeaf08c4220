//! Interconnection networks as graphs: typed ids, arena storage, built from
//! parameters (for the simulators and as the intended network of a layout)
//! or recovered from a layout, and compared.
//!
//! Nodes and links live in vectors; [`NodeId`] and [`LinkId`] index them.
//! A link is undirected; parallel links are separate (a fat-tree channel of
//! capacity `c` is `c` links).

#![warn(missing_docs)]

use std::collections::BTreeMap;

use crate::layout::fattree::{heap_id, FatTreeSpec};
use crate::layout::Embedding;

/// A node of a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

/// A link of a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LinkId(pub u32);

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// A leaf that sends and receives messages.
    Processor,
    /// An internal node that only forwards messages.
    Switch,
}

/// A node's data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeData {
    /// Processor or switch.
    pub role: Role,
    /// Level counted from the processors (0).
    pub level: u32,
}

/// A network: nodes by id `0 .. N`, links with their two ends.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Network {
    /// The network's kind as layout files name it (`fat-tree`,
    /// `butterfly-fat-tree`, ...), or a layout's own `network` field.
    pub name: String,
    nodes: Vec<NodeData>,
    links: Vec<(NodeId, NodeId)>,
    adjacency: Vec<Vec<LinkId>>,
}

impl Network {
    /// An empty network with `nodes` nodes, all processors at level 0 until
    /// set.
    pub fn with_nodes(name: &str, nodes: usize) -> Network {
        Network {
            name: name.to_string(),
            nodes: vec![
                NodeData {
                    role: Role::Processor,
                    level: 0,
                };
                nodes
            ],
            links: Vec::new(),
            adjacency: vec![Vec::new(); nodes],
        }
    }

    /// Replaces the role and level of node `id`; panics if `id` is out of range.
    pub fn set_node(&mut self, id: NodeId, data: NodeData) {
        self.nodes[id.0 as usize] = data;
    }

    /// Adds an undirected link between `a` and `b` (a parallel one if they are
    /// already joined) and returns its id, the next in order. A self-loop is
    /// listed once at its node.
    pub fn add_link(&mut self, a: NodeId, b: NodeId) -> LinkId {
        let id = LinkId(self.links.len() as u32);
        self.links.push((a, b));
        self.adjacency[a.0 as usize].push(id);
        if a != b {
            self.adjacency[b.0 as usize].push(id);
        }
        id
    }

    /// Number of nodes; ids run `0 .. node_count()`.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Number of links, parallel ones counted apart.
    pub fn link_count(&self) -> usize {
        self.links.len()
    }

    /// The role and level of node `id`; panics if `id` is out of range.
    pub fn node(&self, id: NodeId) -> NodeData {
        self.nodes[id.0 as usize]
    }

    /// The two ends of link `id`, in the order they were added.
    pub fn link(&self, id: LinkId) -> (NodeId, NodeId) {
        self.links[id.0 as usize]
    }

    /// Links at a node.
    pub fn links_at(&self, id: NodeId) -> &[LinkId] {
        &self.adjacency[id.0 as usize]
    }

    /// The far end of a link seen from one end.
    pub fn other_end(&self, link: LinkId, from: NodeId) -> NodeId {
        let (a, b) = self.link(link);
        if a == from {
            b
        } else {
            a
        }
    }

    /// The processors, by id.
    pub fn processors(&self) -> Vec<NodeId> {
        (0..self.nodes.len() as u32)
            .map(NodeId)
            .filter(|&id| self.node(id).role == Role::Processor)
            .collect()
    }

    /// The fat-tree of a layout spec as a binary tree with channels of
    /// `t(p)` parallel links above every subtree of `p` leaves. Ids follow
    /// [`heap_id`]: processors `0 .. n` in leaf order, then the switches in
    /// heap order from the root.
    pub fn fat_tree(spec: &FatTreeSpec) -> Result<Network, String> {
        let tracks = Network::fat_tree_tracks(spec)?;
        Ok(Network::binary_fat_tree(
            "fat-tree",
            spec.processors,
            &tracks,
        ))
    }

    /// The links above each subtree size of the fat-tree of `spec`, as
    /// [`Network::binary_fat_tree`] takes them.
    fn fat_tree_tracks(spec: &FatTreeSpec) -> Result<Vec<u64>, String> {
        let n = spec.processors;
        // The H-tree (capacity 1) exists for every power of 2.
        if spec.capacity == crate::layout::fattree::Capacity::One
            && spec.omega == 1
            && n.is_power_of_two()
        {
            Ok(vec![1; n.trailing_zeros() as usize + 1])
        } else {
            Ok(spec.recurrence()?.tracks)
        }
    }

    /// How many links [`Network::binary_fat_tree`] makes (`None` past
    /// `u64`): `tracks[i]` above each of the `n / 2^i` subtrees of `2^i`
    /// leaves, the root's excepted.
    fn binary_fat_tree_links(n: u64, tracks: &[u64]) -> Option<u64> {
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

    /// The tree of meshes `T(2, n)` truncated to `l` levels, by its folded
    /// definition (docs/layout.md): node `(i, X, Y)` is `i n^2 + Y n + X`,
    /// at level `l - i`; the level-`l` nodes are the processors.
    pub fn tree_of_meshes(n: u64, l: u32) -> Network {
        let n = n as i64;
        let id = |i: u32, x: i64, y: i64| NodeId((i as i64 * n * n + y * n + x) as u32);
        let mut net = Network::with_nodes("tree-of-meshes", (n * n) as usize * (l as usize + 1));
        for i in 0..=l {
            let w = n >> i.div_ceil(2);
            let h = n >> (i / 2);
            for y in 0..n {
                for x in 0..n {
                    net.set_node(
                        id(i, x, y),
                        NodeData {
                            role: if i == l {
                                Role::Processor
                            } else {
                                Role::Switch
                            },
                            level: l - i,
                        },
                    );
                    if x % w + 1 < w {
                        net.add_link(id(i, x, y), id(i, x + 1, y));
                    }
                    if y % h + 1 < h {
                        net.add_link(id(i, x, y), id(i, x, y + 1));
                    }
                    if i < l {
                        let face = if i % 2 == 0 {
                            x % w == 0 || x % w == w - 1
                        } else {
                            y % h == 0 || y % h == h - 1
                        };
                        if face {
                            net.add_link(id(i, x, y), id(i + 1, x, y));
                        }
                    }
                }
            }
        }
        net
    }

    /// The fat-pyramid of [`crate::layout::pyramid`], built from its
    /// definition without the layout's link list: H-tree blocks (each the
    /// fat-tree of capacity 1 on its `b` processors); over the block roots a
    /// butterfly fat-tree where switch `i` of a level-`l` node joins switches
    /// `i mod 2^l` and `(i + 2^(l-1)) mod 2^l` of its parent node (a block
    /// root joins its level-1 node's one switch); at every level `1 <= h <
    /// K` switch `i` of a node joins switch `i` of the nodes east and north
    /// of it on the level's grid (blocks and nodes in Z-order). Ids as
    /// [`crate::layout::pyramid::Ids`].
    pub fn fat_pyramid(spec: &crate::layout::pyramid::PyramidSpec) -> Network {
        use crate::layout::pyramid::Ids;
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
    fn fat_pyramid_links(spec: &crate::layout::pyramid::PyramidSpec) -> Option<u64> {
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

    /// The tree of meshes `T(3, n)` truncated to `l` levels, by the folded
    /// definition of [`crate::layout::folded`]: node `(i, X, Y, Z)` is
    /// `i n^3 + Z n^2 + Y n + X`, at level `l - i`; the level-`l` nodes are
    /// the processors.
    pub fn tree_of_meshes_3d(n: u64, l: u32) -> Network {
        use crate::layout::folded::{block_size, node_id};
        let mut net =
            Network::with_nodes("tree-of-meshes-3d", (n * n * n) as usize * (l as usize + 1));
        for i in 0..=l {
            for z in 0..n {
                for y in 0..n {
                    for x in 0..n {
                        let c = [x, y, z];
                        let me = NodeId(node_id(n, 3, i, &c));
                        net.set_node(
                            me,
                            NodeData {
                                role: if i == l {
                                    Role::Processor
                                } else {
                                    Role::Switch
                                },
                                level: l - i,
                            },
                        );
                        for k in 0..3 {
                            let s = block_size(n, 3, i, k as u32);
                            if (c[k] + 1) % s != 0 {
                                let mut d = c;
                                d[k] += 1;
                                net.add_link(me, NodeId(node_id(n, 3, i, &d)));
                            }
                        }
                        if i < l {
                            let d = (i % 3) as usize;
                            let s = block_size(n, 3, i, d as u32);
                            if c[d] % s == 0 || c[d] % s == s - 1 {
                                net.add_link(me, NodeId(node_id(n, 3, i + 1, &c)));
                            }
                        }
                    }
                }
            }
        }
        net
    }

    /// The butterfly fat-tree of `n = 4^k` processors (spec note §2.3), ids
    /// as [`crate::layout::butterfly::switch_id`].
    pub fn butterfly_fat_tree(n: u64) -> Result<Network, String> {
        use crate::layout::butterfly::{parents, switch_id};
        if n < 4 || !n.is_power_of_two() || n.trailing_zeros() % 2 != 0 {
            return Err(format!("{n} processors: not a power of 4 of at least 4"));
        }
        let k = n.trailing_zeros() / 2;
        let switches: u64 = (1..=k).map(|l| n >> (l + 1)).sum();
        let mut net = Network::with_nodes("butterfly-fat-tree", (n + switches) as usize);
        for l in 1..=k {
            for a in 0..(n >> (l + 1)) {
                net.set_node(
                    NodeId(switch_id(n, l, a)),
                    NodeData {
                        role: Role::Switch,
                        level: l,
                    },
                );
            }
        }
        for l in 0..k {
            let count = if l == 0 { n } else { n >> (l + 1) };
            for a in 0..count {
                let me = if l == 0 {
                    NodeId(a as u32)
                } else {
                    NodeId(switch_id(n, l, a))
                };
                for p in parents(l, a, k) {
                    net.add_link(me, NodeId(switch_id(n, l + 1, p)));
                }
            }
        }
        Ok(net)
    }

    /// The scalable fat-tree of `n = 4^k` processors for a capacity function
    /// (docs/layout.md): nodes numbered as the layout numbers them
    /// (processors, then each level's switches in order).
    pub fn scalable_fat_tree(
        n: u64,
        capacity: &crate::layout::fattree::Capacity,
    ) -> Result<Network, String> {
        use crate::layout::butterfly::{scalable_capacities, scalable_parents};
        let c = scalable_capacities(n, capacity)?;
        let k = c.len() - 1;
        // Switches per level: (nodes at level j) x c_{j-1}.
        let per_level: Vec<u64> = (0..=k)
            .map(|j| if j == 0 { n } else { (n >> (2 * j)) * c[j - 1] })
            .collect();
        let mut first = vec![0u64];
        for j in 1..=k {
            first.push(first[j - 1] + per_level[j - 1]);
        }
        let total = first[k] + per_level[k];
        let mut net = Network::with_nodes("scalable-fat-tree", total as usize);
        let parents = scalable_parents(c.clone());
        for j in 0..=k {
            for a in 0..per_level[j] {
                let me = NodeId((first[j] + a) as u32);
                net.set_node(
                    me,
                    NodeData {
                        role: if j == 0 {
                            Role::Processor
                        } else {
                            Role::Switch
                        },
                        level: j as u32,
                    },
                );
                for p in parents(j as u32, a) {
                    net.add_link(me, NodeId((first[j + 1] + p) as u32));
                }
            }
        }
        Ok(net)
    }

    /// The network a layout realises: its nodes (ids as in the file, which
    /// must be `0 .. N`) and one link per edge.
    pub fn from_embedding(e: &Embedding) -> Result<Network, String> {
        let n = e.nodes.len();
        let mut seen = vec![false; n];
        let mut net = Network::with_nodes(&e.network, n);
        for node in &e.nodes {
            let k = node.id as usize;
            if k >= n || std::mem::replace(&mut seen[k], true) {
                return Err(format!(
                    "node ids must be 0 .. {} without repeats; found {}",
                    n.saturating_sub(1),
                    node.id
                ));
            }
            net.set_node(
                NodeId(node.id),
                NodeData {
                    role: if node.kind == "processor" {
                        Role::Processor
                    } else {
                        Role::Switch
                    },
                    level: node.level,
                },
            );
        }
        for x in &e.edges {
            if x.from as usize >= n || x.to as usize >= n {
                return Err(format!("edge {} names a node that does not exist", x.id));
            }
            net.add_link(NodeId(x.from), NodeId(x.to));
        }
        Ok(net)
    }

    /// The intended network of a layout file, from its `network` and
    /// `parameters` (as `fabric layout` writes them); `None` for networks
    /// this module does not know.
    ///
    /// The parameters may describe a network of any size: one with more
    /// processors, nodes or links than the file has cannot be the one it
    /// realises, and is refused before it is built.
    pub fn intended(e: &Embedding) -> Option<Result<Network, String>> {
        let p = &e.parameters;
        let num = |k: &str| -> Result<u64, String> {
            p.get(k)
                .ok_or_else(|| format!("parameter `{k}` is missing"))?
                .parse()
                .map_err(|_| format!("parameter `{k}` is not a number"))
        };
        let small = |k: &str| -> Result<u32, String> {
            u32::try_from(num(k)?).map_err(|_| format!("parameter `{k}` is too large"))
        };
        let (nodes, links) = (e.nodes.len() as u64, e.edges.len() as u64);
        let fits = |what: &str, need: Option<u64>, have: u64| -> Result<(), String> {
            match need {
                Some(v) if v <= have => Ok(()),
                _ => Err(format!(
                    "the parameters describe more {what} than the layout's {have}"
                )),
            }
        };
        let processors = || -> Result<u64, String> {
            let n = num("processors")?;
            fits("processors", Some(n), nodes)?;
            Ok(n)
        };
        match e.network.as_str() {
            "htree" | "fat-tree" => Some((|| {
                let capacity = crate::layout::fattree::Capacity::parse(
                    p.get("capacity").map_or("one", String::as_str),
                )?;
                let spec = FatTreeSpec {
                    processors: processors()?,
                    capacity,
                    omega: num("omega").unwrap_or(1),
                    alpha: num("alpha").unwrap_or(1),
                };
                let tracks = Network::fat_tree_tracks(&spec)?;
                let n = spec.processors;
                fits("links", Network::binary_fat_tree_links(n, &tracks), links)?;
                Ok(Network::binary_fat_tree("fat-tree", n, &tracks))
            })()),
            "butterfly-fat-tree" => Some(processors().and_then(Network::butterfly_fat_tree)),
            "fat-tree-3d" => Some((|| {
                let spec = crate::layout::fattree3d::FatTree3dSpec {
                    processors: processors()?,
                    capacity: crate::layout::fattree::Capacity::parse(
                        p.get("capacity")
                            .map_or("two-thirds-over-lg", String::as_str),
                    )?,
                    omega: if p.contains_key("omega") {
                        num("omega")?
                    } else {
                        1
                    },
                };
                let plan = spec.plan()?;
                let n = spec.processors;
                fits(
                    "links",
                    Network::binary_fat_tree_links(n, &plan.tracks),
                    links,
                )?;
                Ok(Network::binary_fat_tree(
                    "fat-tree-3d",
                    spec.processors,
                    &plan.tracks,
                ))
            })()),
            "scalable-fat-tree" => Some((|| {
                let capacity = crate::layout::fattree::Capacity::parse(
                    p.get("capacity").map_or("sqrt", String::as_str),
                )?;
                let n = processors()?;
                // Nodes: the processors, then (nodes at level j) x c_{j-1}
                // switches at each level j.
                let c = crate::layout::butterfly::scalable_capacities(n, &capacity)?;
                let switches = (1..c.len()).try_fold(n, |sum, j| {
                    (n >> (2 * j)).checked_mul(c[j - 1])?.checked_add(sum)
                });
                fits("nodes", switches, nodes)?;
                Network::scalable_fat_tree(n, &capacity)
            })()),
            "tree-of-meshes" => Some((|| {
                let n = num("root_side")?;
                let l = small("levels")?;
                if !n.is_power_of_two() || l > 2 * n.trailing_zeros() {
                    return Err("bad tree-of-meshes parameters".to_string());
                }
                let need = n.checked_pow(2).and_then(|m| m.checked_mul(l as u64 + 1));
                fits("nodes", need, nodes)?;
                Ok(Network::tree_of_meshes(n, l))
            })()),
            "fat-pyramid" => Some((|| {
                let n = processors()?;
                let beta = small("block_levels")?;
                let spec = crate::layout::pyramid::PyramidSpec::new(n)?;
                let mesh_capacity = if p.contains_key("mesh_capacity") {
                    small("mesh_capacity")?
                } else {
                    1
                };
                if beta >= n.trailing_zeros() / 2 || mesh_capacity == 0 {
                    return Err("bad fat-pyramid parameters".to_string());
                }
                let spec = crate::layout::pyramid::PyramidSpec {
                    beta,
                    mesh_capacity,
                    ..spec
                };
                fits("links", Network::fat_pyramid_links(&spec), links)?;
                Ok(Network::fat_pyramid(&spec))
            })()),
            "tree-of-meshes-3d" => Some((|| {
                let n = num("root_side")?;
                let l = small("levels")?;
                if n < 2 || !n.is_power_of_two() || l > 3 * n.trailing_zeros() {
                    return Err("bad tree-of-meshes-3d parameters".to_string());
                }
                let need = n.checked_pow(3).and_then(|m| m.checked_mul(l as u64 + 1));
                fits("nodes", need, nodes)?;
                Ok(Network::tree_of_meshes_3d(n, l))
            })()),
            _ => None,
        }
    }

    /// Whether a layout realises the network its `network` and `parameters`
    /// describe, the check `fabric layout` makes before it writes a layout
    /// and `fabric verify-layout` makes on a file: `Ok(Some(name))` when it
    /// does, `Ok(None)` for a network [`Network::intended`] does not know,
    /// and the problem otherwise (`parameters: ...` when they describe no
    /// network this layout can be, `network: ...` for the first difference).
    pub fn realised_by(e: &Embedding) -> Result<Option<String>, String> {
        match Network::intended(e) {
            None => Ok(None),
            Some(Err(err)) => Err(format!("parameters: {err}")),
            Some(Ok(want)) => Network::from_embedding(e)
                .and_then(|got| got.compare(&want))
                .map(|()| Some(want.name))
                .map_err(|err| format!("network: {err}")),
        }
    }

    /// Whether two networks are the same labelled multigraph (same nodes
    /// with the same roles and levels, same links counted with
    /// multiplicity); the first difference otherwise.
    pub fn compare(&self, other: &Network) -> Result<(), String> {
        if self.nodes.len() != other.nodes.len() {
            return Err(format!(
                "{} nodes, but the intended network has {}",
                self.nodes.len(),
                other.nodes.len()
            ));
        }
        for (k, (a, b)) in self.nodes.iter().zip(&other.nodes).enumerate() {
            if a != b {
                return Err(format!(
                    "node {k} is a {:?} at level {}, but should be a {:?} at level {}",
                    a.role, a.level, b.role, b.level
                ));
            }
        }
        let count = |net: &Network| {
            let mut m: BTreeMap<(u32, u32), u32> = BTreeMap::new();
            for &(a, b) in &net.links {
                *m.entry((a.0.min(b.0), a.0.max(b.0))).or_insert(0) += 1;
            }
            m
        };
        let (mine, theirs) = (count(self), count(other));
        for (pair, &k) in &theirs {
            let have = mine.get(pair).copied().unwrap_or(0);
            if have != k {
                return Err(format!(
                    "nodes {} and {} are joined by {have} links, but should be by {k}",
                    pair.0, pair.1
                ));
            }
        }
        for (pair, &k) in &mine {
            if !theirs.contains_key(pair) {
                return Err(format!(
                    "nodes {} and {} are joined by {k} links, but should not be joined",
                    pair.0, pair.1
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::fattree::{fat_tree, Capacity};
    use crate::layout::tree_of_meshes::tree_of_meshes;

    /// The link count [`Network::intended`] checks before building a
    /// fat-tree against the links the construction makes.
    #[test]
    fn binary_fat_tree_links_are_the_links_built() {
        let mut checked = 0;
        for n in [1u64, 2, 4, 16, 64, 256] {
            for capacity in ["one", "sqrt", "doubling", "sqrt-over-lg"] {
                let spec = FatTreeSpec {
                    processors: n,
                    capacity: Capacity::parse(capacity).unwrap(),
                    omega: 1,
                    alpha: 1,
                };
                let Ok(tracks) = Network::fat_tree_tracks(&spec) else {
                    continue;
                };
                let built = Network::binary_fat_tree("t", n, &tracks).link_count() as u64;
                assert_eq!(
                    Network::binary_fat_tree_links(n, &tracks),
                    Some(built),
                    "{n} {capacity}"
                );
                checked += 1;
            }
        }
        assert!(checked >= 15, "{checked} fat-trees checked");
        assert_eq!(
            Network::binary_fat_tree_links(1 << 40, &[u64::MAX; 41]),
            None
        );
    }

    /// The link count [`Network::intended`] checks before building a
    /// fat-pyramid against the links the construction makes, down to one
    /// butterfly level (no mesh, whatever the mesh capacity).
    #[test]
    fn fat_pyramid_links_are_the_links_built() {
        use crate::layout::pyramid::PyramidSpec;
        let mut meshes = 0;
        for n in [4u64, 16, 64, 256, 1024, 4096, 16384] {
            let default = PyramidSpec::new(n).unwrap();
            for beta in 0..n.trailing_zeros() / 2 {
                for mesh_capacity in [1, 2, 6] {
                    let spec = PyramidSpec {
                        beta,
                        mesh_capacity,
                        ..default
                    };
                    let built = Network::fat_pyramid(&spec).link_count() as u64;
                    assert_eq!(
                        Network::fat_pyramid_links(&spec),
                        Some(built),
                        "n {n} beta {beta} kappa {mesh_capacity}"
                    );
                    meshes += usize::from(spec.k() >= 2);
                }
            }
        }
        assert!(meshes >= 20, "{meshes} pyramids with meshes");
    }

    #[test]
    fn layouts_realise_their_networks() {
        for capacity in [
            Capacity::One,
            Capacity::Sqrt,
            Capacity::SqrtOverLg,
            Capacity::Doubling,
        ] {
            for k in 1..=4 {
                let spec = FatTreeSpec {
                    processors: 4u64.pow(k),
                    capacity: capacity.clone(),
                    omega: 2,
                    alpha: 1,
                };
                let (e, _) = fat_tree(&spec).unwrap();
                let got = Network::from_embedding(&e).unwrap();
                let want = Network::intended(&e).unwrap().unwrap();
                assert_eq!(got.compare(&want), Ok(()), "{capacity:?} k {k}");
                assert_eq!(want.processors().len() as u64, spec.processors);
            }
        }
        for capacity in [
            Capacity::Sqrt,
            Capacity::SqrtOverLg,
            Capacity::Table(vec![1, 1, 2, 2, 3, 4, 6, 8, 9]),
        ] {
            for n in [4u64, 16, 64, 256] {
                let e = crate::layout::butterfly::scalable_fat_tree(n, &capacity).unwrap();
                let got = Network::from_embedding(&e).unwrap();
                let want = Network::intended(&e).unwrap().unwrap();
                assert_eq!(got.compare(&want), Ok(()), "scalable {capacity:?} n {n}");
            }
        }
        for n in [4u64, 16, 64, 256] {
            let e = crate::layout::butterfly::butterfly_fat_tree(n).unwrap();
            let got = Network::from_embedding(&e).unwrap();
            let want = Network::intended(&e).unwrap().unwrap();
            assert_eq!(got.compare(&want), Ok(()), "butterfly n {n}");
        }
        for (n, l) in [(2u64, 2u32), (4, 4), (8, 2), (8, 6)] {
            let e = tree_of_meshes(n, Some(l)).unwrap();
            let got = Network::from_embedding(&e).unwrap();
            let want = Network::intended(&e).unwrap().unwrap();
            assert_eq!(got.compare(&want), Ok(()), "n {n} l {l}");
        }
    }

    #[test]
    fn a_rewired_layout_is_caught() {
        let spec = FatTreeSpec {
            processors: 16,
            capacity: Capacity::Sqrt,
            omega: 1,
            alpha: 1,
        };
        let (mut e, _) = fat_tree(&spec).unwrap();
        let want = Network::intended(&e).unwrap().unwrap();
        // Move one wire to another parent.
        let last = e.edges.len() - 1;
        e.edges[last].to = e.edges[0].to;
        let got = Network::from_embedding(&e).unwrap();
        assert!(got.compare(&want).is_err());
        // Drop a wire of a channel.
        let (mut e, _) = fat_tree(&spec).unwrap();
        e.edges.pop();
        assert!(Network::from_embedding(&e).unwrap().compare(&want).is_err());
    }

    #[test]
    fn fat_tree_channels_have_the_capacity_of_their_level() {
        let spec = FatTreeSpec {
            processors: 64,
            capacity: Capacity::Table(vec![1, 1, 2, 2, 3, 4, 6]),
            omega: 1,
            alpha: 1,
        };
        let net = Network::fat_tree(&spec).unwrap();
        // Every non-root node has as many links up as c(its leaves).
        for id in 0..net.node_count() as u32 {
            let node = net.node(NodeId(id));
            let up = net
                .links_at(NodeId(id))
                .iter()
                .filter(|&&l| net.node(net.other_end(l, NodeId(id))).level > node.level)
                .count();
            let want = if node.level == 6 {
                0
            } else {
                [1, 1, 2, 2, 3, 4, 6][node.level as usize]
            };
            assert_eq!(up, want, "node {id}");
        }
    }
}
