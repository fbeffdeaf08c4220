//! Interconnection networks as graphs: typed ids, arena storage, and the
//! comparison of two networks. The networks themselves are built by the
//! layout families ([`crate::layout`]), each from its own parameters, and
//! recovered from a layout there.
//!
//! Nodes and links live in vectors; [`NodeId`] and [`LinkId`] index them.
//! A link is undirected; parallel links are separate (a fat-tree channel of
//! capacity `c` is `c` links).

#![warn(missing_docs)]

use std::collections::BTreeMap;

/// How a network differs from the one it should be, or why a layout's
/// nodes and edges make no network.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// The node counts differ.
    #[error("{have} nodes, but the intended network has {want}")]
    NodeCount {
        /// Nodes of this network.
        have: usize,
        /// Nodes of the intended one.
        want: usize,
    },
    /// A node's role or level differs.
    #[error("node {id} is a {have_role:?} at level {have_level}, but should be a {want_role:?} at level {want_level}")]
    Node {
        /// The node.
        id: usize,
        /// Its role here.
        have_role: Role,
        /// Its level here.
        have_level: u32,
        /// Its role in the intended network.
        want_role: Role,
        /// Its level in the intended network.
        want_level: u32,
    },
    /// Two nodes are joined by the wrong number of links.
    #[error("nodes {a} and {b} are joined by {have} links, but should be by {want}")]
    Links {
        /// One end.
        a: u32,
        /// The other end.
        b: u32,
        /// Links here.
        have: u32,
        /// Links in the intended network.
        want: u32,
    },
    /// Two nodes are joined that should not be.
    #[error("nodes {a} and {b} are joined by {have} links, but should not be joined")]
    NotJoined {
        /// One end.
        a: u32,
        /// The other end.
        b: u32,
        /// Links here.
        have: u32,
    },
    /// A layout's node ids are not `0 .. N` without repeats.
    #[error("node ids must be 0 .. {last} without repeats; found {found}")]
    NodeIds {
        /// `N - 1` (0 for no nodes).
        last: usize,
        /// The id out of range or repeated.
        found: u32,
    },
    /// A layout's edge names a node that does not exist.
    #[error("edge {0} names a node that does not exist")]
    UnknownNode(u32),
}

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

    /// Whether two networks are the same labelled multigraph (same nodes
    /// with the same roles and levels, same links counted with
    /// multiplicity); the first difference otherwise.
    pub fn compare(&self, other: &Network) -> Result<(), NetworkError> {
        if self.nodes.len() != other.nodes.len() {
            return Err(NetworkError::NodeCount {
                have: self.nodes.len(),
                want: other.nodes.len(),
            });
        }
        for (k, (a, b)) in self.nodes.iter().zip(&other.nodes).enumerate() {
            if a != b {
                return Err(NetworkError::Node {
                    id: k,
                    have_role: a.role,
                    have_level: a.level,
                    want_role: b.role,
                    want_level: b.level,
                });
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
                return Err(NetworkError::Links {
                    a: pair.0,
                    b: pair.1,
                    have,
                    want: k,
                });
            }
        }
        for (pair, &k) in &mine {
            if !theirs.contains_key(pair) {
                return Err(NetworkError::NotJoined {
                    a: pair.0,
                    b: pair.1,
                    have: k,
                });
            }
        }
        Ok(())
    }
}
