//! A built network: a topology laid out, its graph and its routing
//! function.

use super::graph::{latency_of, Graph, LinkMode, Topology};
use super::routing::Routing;
use super::OpenLoopError;
use crate::layout::metrics::Delay;
use crate::layout::LayoutOptions;
use crate::network::{LinkId, Network, NodeId, Role};

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
        let net = processors_first(&Network::from_embedding(&embedding).map_err(|e| bad(&e))?);
        let lengths: Vec<u64> = embedding.edges.iter().map(|e| e.length()).collect();
        // The butterfly's terminals are its rows: node `<l, c>` is
        // `l N + c`, so input row `i` is router `i`, output row `i` router
        // `n N + i`.
        let terminals = match topology {
            Topology::Butterfly => size as u32,
            _ => net.processors().len() as u32,
        };
        let mut graph = Graph::new(&net, terminals, &lengths, |len| match links {
            LinkMode::Unit => 1,
            LinkMode::Layout => latency_of(delay, len),
        });
        if topology == Topology::Butterfly {
            let n = size.trailing_zeros();
            graph.eject = (0..terminals).map(|t| n * terminals + t).collect();
        }
        let routing = Routing::new(topology, size, &net, &graph)?;
        Ok(OpenNet {
            topology,
            size,
            graph,
            routing,
        })
    }
}

/// `net` with its processors renumbered first (in their order), the
/// switches after them (in theirs); links keep their ids. A network whose
/// processors come first is returned as it is.
fn processors_first(net: &Network) -> Network {
    let nodes = net.node_count() as u32;
    let is_proc = |v: u32| net.node(NodeId(v)).role == Role::Processor;
    let procs = (0..nodes).filter(|&v| is_proc(v)).count() as u32;
    if (0..procs).all(is_proc) {
        return net.clone();
    }
    let mut id = vec![0u32; nodes as usize];
    let (mut p, mut s) = (0, procs);
    for v in 0..nodes {
        let next = if is_proc(v) { &mut p } else { &mut s };
        id[v as usize] = *next;
        *next += 1;
    }
    let mut out = Network::with_nodes(&net.name, nodes as usize);
    for v in 0..nodes {
        out.set_node(NodeId(id[v as usize]), net.node(NodeId(v)));
    }
    for l in 0..net.link_count() as u32 {
        let (a, b) = net.link(LinkId(l));
        out.add_link(NodeId(id[a.0 as usize]), NodeId(id[b.0 as usize]));
    }
    out
}
