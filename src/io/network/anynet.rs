//! BookSim's `anynet` topology file. One line per router:
//! `router R [node T] [router S L] ...` — the router's terminal, if it has
//! one, then every neighbouring router with the link's latency `L` in
//! cycles. Parallel wires between two routers are one BookSim channel
//! (its reader keeps one link per pair); its latency is that of the
//! longest of them. Both ends of a link name it with the same latency, so
//! the file does not rest on the reader's default of 1 for a reverse
//! link. The format has no comments: the file holds topology only.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::LaidNetwork;
use crate::network::NodeId;

/// The `anynet` text of a laid network.
pub(super) fn write(n: &LaidNetwork) -> String {
    let net = &n.network;
    let terminals = n.terminals();
    let mut out = String::new();
    for (r, terminal) in terminals.iter().enumerate() {
        let mut neighbours: BTreeMap<u32, u64> = BTreeMap::new();
        for &link in net.links_at(NodeId(r as u32)) {
            let s = net.other_end(link, NodeId(r as u32));
            if s.0 as usize == r {
                continue;
            }
            let latency = n.latency(link.0 as usize);
            let entry = neighbours.entry(s.0).or_insert(latency);
            *entry = (*entry).max(latency);
        }
        let _ = write!(out, "router {r}");
        if let Some(t) = terminal {
            let _ = write!(out, " node {t}");
        }
        for (s, latency) in neighbours {
            let _ = write!(out, " router {s} {latency}");
        }
        out.push('\n');
    }
    out
}
