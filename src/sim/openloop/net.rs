//! A built network: a topology laid out, its graph and its routing
//! function.

use super::graph::{latency_of, Graph, LinkMode, Topology};
use super::routing::Routing;
use super::OpenLoopError;
use crate::layout::metrics::Delay;
use crate::layout::LayoutOptions;
use crate::network::Network;

/// A built network with its routing function.
#[derive(Clone, Debug)]
pub struct OpenNet {
    /// Which fabric.
    pub topology: Topology,
    /// `--size` as given.
    pub size: u64,
    /// Routers and channels.
    pub graph: Graph,
    /// How packets are routed.
    pub routing: Routing,
}

impl OpenNet {
    /// Lay out `topology` at `size` and build its graph: channel latencies
    /// one cycle each ([`LinkMode::Unit`]) or `max(1, ceil(w(len)))` of the
    /// layout's wire lengths.
    pub fn build(
        topology: Topology,
        size: u64,
        links: LinkMode,
        delay: &Delay,
    ) -> Result<OpenNet, OpenLoopError> {
        let bad = |e: &dyn std::fmt::Display| {
            OpenLoopError::Network(format!("{} of size {size}: {e}", topology.name()))
        };
        let options = LayoutOptions {
            capacity: None,
            omega: 1,
            alpha: 1,
            levels: None,
            mesh_capacity: 1,
            dims: None,
        };
        let construction = topology
            .layout_kind()
            .construction(size, &options)
            .map_err(|e| bad(&e))?;
        let embedding = construction.build().map_err(|e| bad(&e))?.embedding;
        let net = Network::from_embedding(&embedding).map_err(|e| bad(&e))?;
        let lengths: Vec<u64> = embedding.edges.iter().map(|e| e.length()).collect();
        let terminals = net.processors().len() as u32;
        let graph = Graph::new(&net, terminals, &lengths, |len| match links {
            LinkMode::Unit => 1,
            LinkMode::Layout => latency_of(delay, len),
        });
        let routing = Routing::new(topology, size, &net, &graph)?;
        Ok(OpenNet {
            topology,
            size,
            graph,
            routing,
        })
    }
}
