//! The network an open-loop run routes over: routers `0 .. R`, terminal `t`
//! injecting at router `t` (the processors come first, renumbered so where
//! a layout lists them last) and ejecting at router [`Graph::eject`]`[t]`
//! (router `t` itself but on the butterfly, whose terminal `t` is input
//! row `t` and output row `t`), and two directed channels per link, each
//! with the length of its wire and a latency in cycles.

use serde::Serialize;

use crate::layout::metrics::Delay;
use crate::layout::LayoutKind;
use crate::network::{LinkId, Network};

/// The fabrics `fabric simulate open-loop` builds.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Topology {
    /// The 2-D mesh of side `k` (`--size k`), dimension-order routing.
    Mesh,
    /// The 2-D torus of side `k`, dimension order with dateline classes.
    Torus,
    /// The fat-tree of `n` processors (default capacities), up*/down*.
    FatTree,
    /// The butterfly fat-tree of `n` processors, up*/down*.
    ButterflyFatTree,
    /// The butterfly `B(lg n)` of `n` rows: terminal `i` injects at input
    /// row `i` (level 0) and ejects at output row `i` (level `lg n`);
    /// destination-tag routing.
    Butterfly,
    /// The fat-pyramid of `n` processors (a power of 4): up*/down* over its
    /// tree links (the meshes at every level carry no traffic).
    FatPyramid,
    /// Bay and Bilardi's pruned butterfly of `n` leaves (a power of 4):
    /// up*/down*, the way down unique.
    PrunedButterfly,
}

impl Topology {
    /// Every topology.
    pub const ALL: [Topology; 7] = [
        Topology::Mesh,
        Topology::Torus,
        Topology::FatTree,
        Topology::ButterflyFatTree,
        Topology::Butterfly,
        Topology::FatPyramid,
        Topology::PrunedButterfly,
    ];

    /// The layout family that lays it out.
    pub fn layout_kind(self) -> LayoutKind {
        match self {
            Topology::Mesh => LayoutKind::Mesh,
            Topology::Torus => LayoutKind::Torus,
            Topology::FatTree => LayoutKind::FatTree,
            Topology::ButterflyFatTree => LayoutKind::ButterflyFatTree,
            Topology::Butterfly => LayoutKind::Butterfly,
            Topology::FatPyramid => LayoutKind::FatPyramid,
            Topology::PrunedButterfly => LayoutKind::PrunedButterfly,
        }
    }

    /// The command-line name.
    pub fn name(self) -> &'static str {
        self.layout_kind().name()
    }

    /// The layout size of the network of `terminals` terminals: the side
    /// of a mesh or torus (`terminals` a square), the rows of a butterfly,
    /// the processors of a tree; `None` when no such network exists (the
    /// layout refuses other sizes).
    pub fn layout_size(self, terminals: u64) -> Option<u64> {
        match self {
            Topology::Mesh | Topology::Torus => {
                let k = (terminals as f64).sqrt().round() as u64;
                (k * k == terminals).then_some(k)
            }
            Topology::FatTree
            | Topology::ButterflyFatTree
            | Topology::Butterfly
            | Topology::FatPyramid
            | Topology::PrunedButterfly => Some(terminals),
        }
    }
}

/// Where channel latencies come from.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum LinkMode {
    /// Every channel takes one cycle.
    Unit,
    /// A channel of wire length `d` takes `max(1, ceil(w(d)))` cycles.
    Layout,
}

/// A directed channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Channel {
    /// The router it leaves.
    pub from: u32,
    /// The router it enters.
    pub to: u32,
    /// Its wire's length in the layout (unit grid edges).
    pub length: u64,
    /// Cycles a flit (and a credit back) takes across it.
    pub latency: u32,
}

/// Routers, terminals and directed channels. Router `r`'s output port 0 is
/// its terminal's ejection port and port `p >= 1` its `p`-th outgoing
/// channel; input port 0 is the injection port and `p >= 1` the `p`-th
/// incoming channel.
#[derive(Clone, Debug, PartialEq)]
pub struct Graph {
    /// Routers.
    pub routers: u32,
    /// Terminals, injecting at routers `0 .. terminals`.
    pub terminals: u32,
    /// The router each terminal ejects at (its injection router but on the
    /// butterfly).
    pub eject: Vec<u32>,
    /// The channels; link `l` of the network is channels `2 l` (its first
    /// end to its second) and `2 l + 1`.
    pub channels: Vec<Channel>,
    out_start: Vec<u32>,
    out: Vec<u32>,
    in_start: Vec<u32>,
    inc: Vec<u32>,
    /// Each channel's output port at its `from` router.
    pub out_port: Vec<u32>,
    /// Each channel's input port at its `to` router.
    pub in_port: Vec<u32>,
}

impl Graph {
    /// The graph of `net` whose processors are its nodes `0 .. terminals`;
    /// link `l` has wire length `lengths[l]` and latency `latency(len)`.
    pub fn new(
        net: &Network,
        terminals: u32,
        lengths: &[u64],
        latency: impl Fn(u64) -> u32,
    ) -> Graph {
        let routers = net.node_count() as u32;
        let mut channels = Vec::with_capacity(2 * net.link_count());
        for (l, &length) in lengths.iter().enumerate().take(net.link_count()) {
            let (a, b) = net.link(LinkId(l as u32));
            let lat = latency(length).max(1);
            for (from, to) in [(a.0, b.0), (b.0, a.0)] {
                channels.push(Channel {
                    from,
                    to,
                    length,
                    latency: lat,
                });
            }
        }
        let mut outs: Vec<Vec<u32>> = vec![Vec::new(); routers as usize];
        let mut ins: Vec<Vec<u32>> = vec![Vec::new(); routers as usize];
        let mut out_port = vec![0; channels.len()];
        let mut in_port = vec![0; channels.len()];
        for (c, ch) in channels.iter().enumerate() {
            outs[ch.from as usize].push(c as u32);
            out_port[c] = outs[ch.from as usize].len() as u32;
            ins[ch.to as usize].push(c as u32);
            in_port[c] = ins[ch.to as usize].len() as u32;
        }
        let (out_start, out) = crate::sim::bft::csr(outs);
        let (in_start, inc) = crate::sim::bft::csr(ins);
        Graph {
            routers,
            terminals,
            eject: (0..terminals).collect(),
            channels,
            out_start,
            out,
            in_start,
            inc,
            out_port,
            in_port,
        }
    }

    /// Router `r`'s outgoing channels; output port `p` is entry `p - 1`.
    pub fn outs(&self, r: u32) -> &[u32] {
        &self.out[self.out_start[r as usize] as usize..self.out_start[r as usize + 1] as usize]
    }

    /// Router `r`'s incoming channels; input port `p` is entry `p - 1`.
    pub fn ins(&self, r: u32) -> &[u32] {
        &self.inc[self.in_start[r as usize] as usize..self.in_start[r as usize + 1] as usize]
    }

    /// Ports of router `r` (the terminal's and one per channel), out and in.
    pub fn ports(&self, r: u32) -> (u32, u32) {
        (self.outs(r).len() as u32 + 1, self.ins(r).len() as u32 + 1)
    }

    /// The channel leaving router `r` by output port `p >= 1`.
    pub fn channel_at(&self, r: u32, p: u32) -> u32 {
        self.outs(r)[p as usize - 1]
    }
}

/// Cycles a wire of length `len` takes under `w`: `max(1, ceil(w(len)))`.
pub fn latency_of(w: &Delay, len: u64) -> u32 {
    let d = w.of(len).ceil();
    if d.is_finite() && d >= 1.0 {
        d.min(u32::MAX as f64) as u32
    } else {
        1
    }
}
