//! A laid-out network written for other tools: BookSim's `anynet` file,
//! GraphML and Graphviz DOT, each link with its wire length and the
//! latency that length gives.
//!
//! Every node of the layout is a router; every processor also gets a
//! terminal (BookSim's `node`) on its own router, numbered `0 .. P` in
//! the order of the processors' ids. A link's latency is its wire length
//! over the grid units a signal crosses in one cycle, rounded up, and at
//! least 1.

#![warn(missing_docs)]

mod anynet;
mod dot;
mod graphml;

use crate::layout::{Embedding, P3};
use crate::network::{Network, NetworkError, NodeId, Role};

/// The file form a network is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum NetworkFormat {
    /// BookSim's `anynet` topology file (`router R node T router S L ...`).
    Anynet,
    /// GraphML, one `edge` per wire (parallel wires kept).
    Graphml,
    /// Graphviz DOT, one edge per wire.
    Dot,
}

/// Grid units a signal crosses in one cycle (at least 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitsPerCycle(u64);

impl UnitsPerCycle {
    /// `units` per cycle; `None` for 0.
    pub fn new(units: u64) -> Option<UnitsPerCycle> {
        (units > 0).then_some(UnitsPerCycle(units))
    }

    /// The cycles a wire of `length` grid units takes: `ceil(length /
    /// units)`, at least 1.
    pub fn latency(self, length: u64) -> u64 {
        length.div_ceil(self.0).max(1)
    }
}

/// A layout's network with the geometry other tools need.
pub struct LaidNetwork<'a> {
    /// The layout.
    pub embedding: &'a Embedding,
    /// Its network: node `i` is the layout's node of id `i`, link `k` its
    /// edge `k`.
    pub network: Network,
    /// Wire length of each link, in grid units.
    pub lengths: Vec<u64>,
    /// How lengths become latencies.
    pub speed: UnitsPerCycle,
    /// Position in `embedding.nodes` of the node of each id.
    at: Vec<usize>,
}

impl<'a> LaidNetwork<'a> {
    /// The network a layout realises, with its wire lengths.
    pub fn new(embedding: &'a Embedding, speed: UnitsPerCycle) -> Result<Self, NetworkError> {
        let network = Network::from_embedding(embedding)?;
        let lengths = embedding.edges.iter().map(|e| e.length()).collect();
        // `from_embedding` has checked that the ids are `0 .. N`.
        let mut at = vec![0; embedding.nodes.len()];
        for (k, n) in embedding.nodes.iter().enumerate() {
            at[n.id as usize] = k;
        }
        Ok(LaidNetwork {
            embedding,
            network,
            lengths,
            speed,
            at,
        })
    }

    /// The latency of link `k`, in cycles.
    pub fn latency(&self, k: usize) -> u64 {
        self.speed.latency(self.lengths[k])
    }

    /// The terminal number of each node: `Some(t)` for the `t`-th
    /// processor by id.
    pub fn terminals(&self) -> Vec<Option<u32>> {
        let mut next = 0u32;
        (0..self.network.node_count())
            .map(|i| {
                (self.network.node(NodeId(i as u32)).role == Role::Processor).then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect()
    }

    /// The centre of node `i`'s box (halves rounded down).
    pub fn centre(&self, i: usize) -> P3 {
        let n = self.node(i);
        P3::new(
            n.min.x + (n.max.x - n.min.x) / 2,
            n.min.y + (n.max.y - n.min.y) / 2,
            n.min.z + (n.max.z - n.min.z) / 2,
        )
    }

    /// The node of id `i` as the layout gives it.
    pub fn node(&self, i: usize) -> &crate::layout::Node {
        &self.embedding.nodes[self.at[i]]
    }

    /// The network written in `format`.
    pub fn write(&self, format: NetworkFormat) -> String {
        match format {
            NetworkFormat::Anynet => anynet::write(self),
            NetworkFormat::Graphml => graphml::write(self),
            NetworkFormat::Dot => dot::write(self),
        }
    }
}

#[cfg(test)]
mod tests;
