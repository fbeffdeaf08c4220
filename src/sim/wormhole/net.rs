//! A tree-like network as directed links for wormhole routing: every network link is an up link (child to parent) and a
//! down link (parent to child), each with a flit queue at its far end.
//!
//! Directed link `2 i` is network link `i` going up, `2 i + 1` going down.
//! A processor's up link is its injection link and its down link its
//! ejection link; both are ordinary links with queues. A node's inputs, in
//! the fixed scan order (FO; docs/simulation.md), are the up links from its
//! children by child index, then the down links from its parents by parent
//! index; a processor's only input is its source buffer.

use crate::sim::bft::{csr, LinkTree};
use crate::sim::SimError;

/// The most inputs a node may have (a butterfly fat-tree switch has six).
pub const MAX_INPUTS: usize = 8;

/// The directed links of a [`LinkTree`], with each node's inputs, up links
/// and down links.
#[derive(Clone, Debug)]
pub struct WormNet {
    n: u32,
    levels: u32,
    /// Far end of each directed link.
    to: Vec<u32>,
    /// CSR per node: input links in scan order.
    in_start: Vec<u32>,
    inputs: Vec<u32>,
    /// CSR per node: up links in index order.
    up_start: Vec<u32>,
    ups: Vec<u32>,
    /// CSR per node: `(down link, lo, hi)` of each child, by child index.
    down_start: Vec<u32>,
    downs: Vec<(u32, u32, u32)>,
    /// Processors under each node: `lo .. hi`.
    lo: Vec<u32>,
    hi: Vec<u32>,
    /// Each node's level (processors 0).
    level: Vec<u32>,
}

impl WormNet {
    /// The directed links of `tree`; every processor must have exactly one
    /// up link.
    pub fn new(tree: &LinkTree) -> Result<WormNet, SimError> {
        let (n, nodes) = (tree.processors(), tree.node_count());
        let mut links = 0u32;
        let mut level = vec![0u32; nodes as usize];
        for v in 0..nodes {
            for &(l, _) in tree.ups(v) {
                links = links.max(l + 1);
            }
        }
        // Levels from the processors up (every up link climbs one level).
        let mut order: Vec<u32> = (0..n).collect();
        let mut seen = vec![false; nodes as usize];
        while let Some(v) = order.pop() {
            for &(_, p) in tree.ups(v) {
                if !seen[p as usize] {
                    seen[p as usize] = true;
                    level[p as usize] = level[v as usize] + 1;
                    order.push(p);
                }
            }
        }
        let mut to = vec![0u32; 2 * links as usize];
        let mut inputs = vec![Vec::new(); nodes as usize];
        let mut ups = vec![Vec::new(); nodes as usize];
        let mut downs = vec![Vec::new(); nodes as usize];
        let (lo, hi): (Vec<u32>, Vec<u32>) = (0..nodes).map(|v| tree.block(v)).unzip();
        for v in 0..nodes {
            let mut children: Vec<(u32, u32)> = tree.downs(v).to_vec();
            children.sort_unstable_by_key(|&(_, c)| c);
            for &(l, c) in &children {
                to[2 * l as usize] = v;
                to[2 * l as usize + 1] = c;
                inputs[v as usize].push(2 * l);
                downs[v as usize].push((2 * l + 1, lo[c as usize], hi[c as usize]));
            }
            let mut parents: Vec<(u32, u32)> = tree.ups(v).to_vec();
            parents.sort_unstable_by_key(|&(_, p)| p);
            for &(l, _) in &parents {
                inputs[v as usize].push(2 * l + 1);
                ups[v as usize].push(2 * l);
            }
            if inputs[v as usize].len() > MAX_INPUTS {
                return Err(SimError::TooManyInputs {
                    node: v,
                    inputs: inputs[v as usize].len(),
                    max: MAX_INPUTS,
                });
            }
            if v < n && parents.len() != 1 {
                return Err(SimError::ProcessorUpLinks {
                    processor: v,
                    links: parents.len(),
                });
            }
        }
        let levels = level.iter().copied().max().unwrap_or(0);
        let (in_start, inputs) = csr(inputs);
        let (up_start, ups) = csr(ups);
        let (down_start, downs) = csr(downs);
        Ok(WormNet {
            n,
            levels,
            to,
            in_start,
            inputs,
            up_start,
            ups,
            down_start,
            downs,
            lo,
            hi,
            level,
        })
    }

    /// Processors.
    pub fn processors(&self) -> u32 {
        self.n
    }

    /// Nodes, processors first.
    pub fn nodes(&self) -> u32 {
        self.lo.len() as u32
    }

    /// Directed links.
    pub fn links(&self) -> u32 {
        self.to.len() as u32
    }

    /// The highest level.
    pub fn levels(&self) -> u32 {
        self.levels
    }

    /// The node a directed link ends at.
    #[inline]
    pub fn head_of(&self, link: u32) -> u32 {
        self.to[link as usize]
    }

    /// Node `v`'s inputs in scan order.
    #[inline]
    pub fn inputs(&self, v: u32) -> &[u32] {
        &self.inputs[self.in_start[v as usize] as usize..self.in_start[v as usize + 1] as usize]
    }

    /// Node `v`'s up links in index order.
    #[inline]
    pub fn ups(&self, v: u32) -> &[u32] {
        &self.ups[self.up_start[v as usize] as usize..self.up_start[v as usize + 1] as usize]
    }

    /// The down link from node `v` towards processor `dst`, which lies
    /// under `v`.
    #[inline]
    pub fn down_towards(&self, v: u32, dst: u32) -> u32 {
        let d = &self.downs
            [self.down_start[v as usize] as usize..self.down_start[v as usize + 1] as usize];
        d.iter()
            .find(|&&(_, lo, hi)| lo <= dst && dst < hi)
            .map(|&(l, _, _)| l)
            .unwrap_or_else(|| unreachable!("processor {dst} lies under node {v}"))
    }

    /// Whether processor `p` lies under node `v`.
    #[inline]
    pub fn covers(&self, v: u32, p: u32) -> bool {
        self.lo[v as usize] <= p && p < self.hi[v as usize]
    }

    /// Processor `p`'s injection link.
    #[inline]
    pub fn injection(&self, p: u32) -> u32 {
        self.ups[self.up_start[p as usize] as usize]
    }

    /// Processor `p`'s ejection link.
    #[inline]
    pub fn ejection(&self, p: u32) -> u32 {
        self.injection(p) + 1
    }

    /// The level of the lowest node above both processors (0 when equal):
    /// a shortest path climbs that many levels and comes down as many.
    pub fn apex(&self, src: u32, dst: u32) -> u32 {
        let mut v = src;
        while !self.covers(v, dst) {
            v = self.head_of(self.ups(v)[0]);
        }
        self.level[v as usize]
    }
}

impl WormNet {
    /// The butterfly fat-tree of `n = 4^k` processors with unit wires.
    pub fn butterfly_fat_tree(n: u64) -> Result<WormNet, SimError> {
        let graph = crate::network::Network::butterfly_fat_tree(n)
            .map_err(|_| SimError::NotPowerOf4 { n: n as u32 })?;
        let tree = LinkTree::new(&graph, None, &crate::layout::metrics::Delay::Unit)?;
        WormNet::new(&tree)
    }
}
