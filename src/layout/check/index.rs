//! Node ids to their positions in an embedding's node list.

use crate::layout::Embedding;

/// Node id to index: a table when the ids are small (as every construction
/// here numbers them), a hash map otherwise.
pub struct NodeIndex {
    table: Vec<u32>,
    map: std::collections::HashMap<u32, u32>,
    dense: bool,
}

impl NodeIndex {
    const NONE: u32 = u32::MAX;

    /// The index of `e`'s nodes: node `id` maps to its position in
    /// `e.nodes`. Of a repeated id, the first node is kept.
    pub fn new(e: &Embedding) -> NodeIndex {
        let mut idx = NodeIndex::sized(e.nodes.len(), e.nodes.iter().map(|n| n.id).max());
        for (k, n) in e.nodes.iter().enumerate() {
            idx.insert(n.id, k);
        }
        idx
    }

    fn sized(count: usize, max_id: Option<u32>) -> NodeIndex {
        let dense = max_id.is_none_or(|m| (m as usize) < 2 * count + 1);
        NodeIndex {
            table: if dense {
                vec![Self::NONE; max_id.map_or(0, |m| m as usize + 1)]
            } else {
                Vec::new()
            },
            map: std::collections::HashMap::new(),
            dense,
        }
    }

    pub(super) fn empty_like(other: &NodeIndex) -> NodeIndex {
        NodeIndex {
            table: vec![Self::NONE; other.table.len()],
            map: std::collections::HashMap::new(),
            dense: other.dense,
        }
    }

    /// Record `id -> k`; false when `id` was already there (kept as it was).
    pub(super) fn insert(&mut self, id: u32, k: usize) -> bool {
        if self.dense {
            let slot = &mut self.table[id as usize];
            if *slot != Self::NONE {
                return false;
            }
            *slot = k as u32;
            true
        } else {
            match self.map.entry(id) {
                std::collections::hash_map::Entry::Occupied(_) => false,
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(k as u32);
                    true
                }
            }
        }
    }

    /// The index of node `id`.
    pub fn get(&self, id: u32) -> Option<usize> {
        if self.dense {
            self.table
                .get(id as usize)
                .copied()
                .filter(|&k| k != Self::NONE)
                .map(|k| k as usize)
        } else {
            self.map.get(&id).map(|&k| k as usize)
        }
    }
}
