//! Routing functions: for a head at a router bound for a terminal, the
//! output ports it may take (chosen among uniformly at random) and the
//! range of virtual channels it may request there.
//!
//! - Mesh: dimension order, x then y; every virtual channel.
//! - Torus: dimension order along the shorter way round (`+` on ties);
//!   the lower half of the virtual channels while the rest of the way in
//!   the current dimension crosses the dateline (the wrap link), the upper
//!   half once it does not.
//! - Trees (the fat-tree, the butterfly fat-tree, the fat-pyramid's tree
//!   links and the pruned butterfly): up*/down*: up by an up link (chosen
//!   per [`UpLinks`]) until the router's subtree holds the destination,
//!   then down by the unique child holding it (one of parallel links to
//!   it, chosen the same way); every virtual channel. Links within a level
//!   (the fat-pyramid's meshes) are never taken.
//! - Butterfly: destination tag: at level `l` of row `c`, the straight
//!   link when bit `l` of `c` is bit `l` of the destination, the cross link
//!   otherwise; at level `lg N` the row is the destination's, which ejects
//!   there; every virtual channel.

use super::graph::{Graph, Topology};
use super::OpenLoopError;
use crate::layout::metrics::Delay;
use crate::network::{LinkId, Network, NodeId};
use crate::sim::bft::LinkTree;

/// How a head chooses among several output ports (the up links of a tree
/// router, or parallel links down to one child).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum UpLinks {
    /// Uniformly at random (a hash of the seed, the packet and the router).
    #[default]
    Random,
    /// The port whose downstream buffer has the most free slots (credits
    /// over the virtual channels the head may use); ties by the same
    /// seeded hash.
    Adaptive,
}

/// The output port of the ejection to the router's terminal.
pub const EJECT: u32 = 0;

/// The routing key of packet `pkt` at router `r` in the run of `seed`.
pub fn route_key(seed: u64, pkt: u32, r: u32) -> u64 {
    seed ^ (u64::from(pkt) << 24) ^ u64::from(r)
}

/// A 64-bit mixer (splitmix64's finaliser).
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A routing function over a [`Graph`].
#[derive(Clone, Debug)]
pub enum Routing {
    /// Dimension order on the mesh of side `k`.
    Mesh(Grid),
    /// Dimension order with dateline classes on the torus of side `k`.
    Torus(Grid),
    /// Up*/down* on a tree.
    UpDown(Tree),
    /// Destination tag on the butterfly.
    Butterfly(Fly),
}

/// A butterfly `B(n)` of `rows = 2^n` rows: router `l rows + c` is node
/// `<l, c>`; the output ports of its straight and cross links to level
/// `l + 1`.
#[derive(Clone, Debug)]
pub struct Fly {
    n: u32,
    rows: u32,
    straight: Vec<u32>,
    cross: Vec<u32>,
}

/// A `k x k` grid: router `x + k y`, and the output port towards each
/// neighbour (`+x, -x, +y, -y`; 0 where there is none).
#[derive(Clone, Debug)]
pub struct Grid {
    k: u32,
    step: Vec<[u32; 4]>,
}

/// A tree's blocks of terminals under every router, up ports, and down
/// ports with the child they lead to.
#[derive(Clone, Debug)]
pub struct Tree {
    lo: Vec<u32>,
    hi: Vec<u32>,
    up: Vec<Vec<u32>>,
    down: Vec<Vec<(u32, u32)>>,
}

/// How [`Routing::route`] picks among several ports.
#[derive(Clone, Copy, Debug)]
pub struct Choice<F> {
    /// The routing key ([`route_key`]).
    pub key: u64,
    /// Random or adaptive.
    pub up_links: UpLinks,
    /// Free slots behind output port `p` for a head allowed `step`'s
    /// virtual channels (read only when adaptive).
    pub free: F,
}

/// What a routing step allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The virtual channels `lo .. hi` it may request.
    pub vc_lo: u32,
    /// One past the last.
    pub vc_hi: u32,
}

impl Routing {
    /// The routing function of `topology` over `graph`, built from `net`.
    pub fn new(
        topology: Topology,
        size: u64,
        net: &Network,
        graph: &Graph,
    ) -> Result<Routing, OpenLoopError> {
        Ok(match topology {
            Topology::Mesh => Routing::Mesh(Grid::new(size as u32, graph, false)?),
            Topology::Torus => Routing::Torus(Grid::new(size as u32, graph, true)?),
            Topology::FatTree
            | Topology::ButterflyFatTree
            | Topology::FatPyramid
            | Topology::PrunedButterfly => Routing::UpDown(Tree::new(net, graph)?),
            Topology::Butterfly => Routing::Butterfly(Fly::new(size, graph)?),
        })
    }

    /// The least virtual channels the function needs to be deadlock free.
    pub fn min_vcs(&self) -> u32 {
        match self {
            Routing::Torus(_) => 2,
            _ => 1,
        }
    }

    /// The ports a head at router `r` bound for terminal `dst` may take,
    /// into `ports` (one of them is chosen uniformly), and the virtual
    /// channels it may request there (`vcs` in all).
    pub fn options(&self, r: u32, dst: u32, vcs: u32, ports: &mut Vec<u32>) -> Step {
        ports.clear();
        let all = Step {
            vc_lo: 0,
            vc_hi: vcs,
        };
        let here = match self {
            Routing::Butterfly(f) => f.rows * f.n + dst,
            _ => dst,
        };
        if r == here {
            ports.push(EJECT);
            return all;
        }
        match self {
            Routing::Mesh(g) => {
                ports.push(g.mesh_port(r, dst));
                all
            }
            Routing::Torus(g) => {
                let (port, crossing) = g.torus_port(r, dst);
                ports.push(port);
                let half = vcs / 2;
                if crossing {
                    Step {
                        vc_lo: 0,
                        vc_hi: half,
                    }
                } else {
                    Step {
                        vc_lo: half,
                        vc_hi: vcs,
                    }
                }
            }
            Routing::UpDown(t) => {
                t.ports(r, dst, ports);
                all
            }
            Routing::Butterfly(f) => {
                ports.push(f.port(r, dst));
                all
            }
        }
    }

    /// Route one head: the chosen port and the allowed virtual channels.
    /// A choice among several ports follows `choice.up_links`: drawn from
    /// `choice.key` (a hash of the run's seed, the packet and the router, so
    /// it does not depend on the order in which heads are routed), or the
    /// port with the most `choice.free(port, step)` slots, ties drawn from
    /// the key among them.
    pub fn route<F: Fn(u32, Step) -> u32>(
        &self,
        r: u32,
        dst: u32,
        vcs: u32,
        ports: &mut Vec<u32>,
        choice: Choice<F>,
    ) -> (u32, Step) {
        let step = self.options(r, dst, vcs, ports);
        if ports.len() > 1 && choice.up_links == UpLinks::Adaptive {
            let free = &choice.free;
            let best = ports.iter().map(|&p| free(p, step)).max().unwrap_or(0);
            ports.retain(|&p| free(p, step) == best);
        }
        let port = if ports.len() == 1 {
            ports[0]
        } else {
            ports[(mix(choice.key) % ports.len() as u64) as usize]
        };
        (port, step)
    }
}

impl Grid {
    fn new(k: u32, graph: &Graph, wrap: bool) -> Result<Grid, OpenLoopError> {
        let n = k * k;
        let mut step = vec![[0u32; 4]; n as usize];
        for r in 0..n {
            let (x, y) = (r % k, r / k);
            let targets = [
                (x + 1 < k || wrap).then(|| (x + 1) % k + k * y),
                (x > 0 || wrap).then(|| (x + k - 1) % k + k * y),
                (y + 1 < k || wrap).then(|| x + k * ((y + 1) % k)),
                (y > 0 || wrap).then(|| x + k * ((y + k - 1) % k)),
            ];
            for (d, t) in targets.iter().enumerate() {
                if let Some(t) = t {
                    let p = graph
                        .outs(r)
                        .iter()
                        .position(|&c| graph.channels[c as usize].to == *t)
                        .ok_or_else(|| {
                            OpenLoopError::Network(format!(
                                "router {r} has no channel to its neighbour {t}"
                            ))
                        })?;
                    step[r as usize][d] = p as u32 + 1;
                }
            }
        }
        Ok(Grid { k, step })
    }

    fn mesh_port(&self, r: u32, dst: u32) -> u32 {
        let k = self.k;
        let (x, y, dx, dy) = (r % k, r / k, dst % k, dst / k);
        let d = if dx > x {
            0
        } else if dx < x {
            1
        } else if dy > y {
            2
        } else {
            3
        };
        self.step[r as usize][d]
    }

    /// The port along the shorter way round, and whether the rest of the
    /// way in this dimension crosses the dateline.
    fn torus_port(&self, r: u32, dst: u32) -> (u32, bool) {
        let k = self.k;
        let (x, y, dx, dy) = (r % k, r / k, dst % k, dst / k);
        let (a, b, base) = if dx != x { (x, dx, 0) } else { (y, dy, 2) };
        let forward = (b + k - a) % k;
        if forward <= k / 2 {
            (self.step[r as usize][base], b < a)
        } else {
            (self.step[r as usize][base + 1], b > a)
        }
    }
}

impl Fly {
    fn new(rows: u64, graph: &Graph) -> Result<Fly, OpenLoopError> {
        let (n, rows) = (rows.trailing_zeros(), rows as u32);
        let port_to = |r: u32, to: u32| {
            graph
                .outs(r)
                .iter()
                .position(|&c| graph.channels[c as usize].to == to)
                .map(|p| p as u32 + 1)
                .ok_or_else(|| {
                    OpenLoopError::Network(format!("butterfly router {r} has no link to {to}"))
                })
        };
        let (mut straight, mut cross) = (Vec::new(), Vec::new());
        for r in 0..n * rows {
            let (l, c) = (r / rows, r % rows);
            straight.push(port_to(r, (l + 1) * rows + c)?);
            cross.push(port_to(r, (l + 1) * rows + (c ^ (1 << l)))?);
        }
        Ok(Fly {
            n,
            rows,
            straight,
            cross,
        })
    }

    /// The port at router `r` (level below `n`) towards output row `dst`.
    fn port(&self, r: u32, dst: u32) -> u32 {
        let (l, c) = (r / self.rows, r % self.rows);
        assert!(l < self.n, "a packet for row {dst} reached output row {c}");
        if (c ^ dst) >> l & 1 == 0 {
            self.straight[r as usize]
        } else {
            self.cross[r as usize]
        }
    }
}

/// The links of `net` between adjacent levels as a network of their own,
/// and each one's id in `net`.
fn tree_links(net: &Network) -> (Network, Vec<u32>) {
    let mut tree = Network::with_nodes(&net.name, net.node_count());
    for v in 0..net.node_count() as u32 {
        tree.set_node(NodeId(v), net.node(NodeId(v)));
    }
    let mut ids = Vec::new();
    for l in 0..net.link_count() as u32 {
        let (a, b) = net.link(LinkId(l));
        if net.node(a).level.abs_diff(net.node(b).level) == 1 {
            tree.add_link(a, b);
            ids.push(l);
        }
    }
    (tree, ids)
}

impl Tree {
    fn new(net: &Network, graph: &Graph) -> Result<Tree, OpenLoopError> {
        let (tree, ids) = tree_links(net);
        let t = LinkTree::new(&tree, None, &Delay::Unit)
            .map_err(|e| OpenLoopError::Network(e.to_string()))?;
        let routers = t.node_count();
        // Channel 2 l runs from link l's first end to its second.
        let port_of = |link: u32, from: u32| -> u32 {
            let link = ids[link as usize];
            let c = if graph.channels[2 * link as usize].from == from {
                2 * link
            } else {
                2 * link + 1
            };
            graph.out_port[c as usize]
        };
        let mut up = Vec::with_capacity(routers as usize);
        let mut down = Vec::with_capacity(routers as usize);
        let (mut lo, mut hi) = (Vec::new(), Vec::new());
        for v in 0..routers {
            up.push(t.ups(v).iter().map(|&(l, _)| port_of(l, v)).collect());
            down.push(
                t.downs(v)
                    .iter()
                    .map(|&(l, c)| (port_of(l, v), c))
                    .collect(),
            );
            let (a, b) = t.block(v);
            lo.push(a);
            hi.push(b);
        }
        Ok(Tree { lo, hi, up, down })
    }

    fn covers(&self, v: u32, p: u32) -> bool {
        self.lo[v as usize] <= p && p < self.hi[v as usize]
    }

    fn ports(&self, r: u32, dst: u32, ports: &mut Vec<u32>) {
        if self.covers(r, dst) {
            let down = &self.down[r as usize];
            let child = down
                .iter()
                .find(|&&(_, c)| self.covers(c, dst))
                .expect("a router covering the destination has a child covering it")
                .1;
            ports.extend(down.iter().filter(|&&(_, c)| c == child).map(|&(p, _)| p));
        } else {
            ports.extend_from_slice(&self.up[r as usize]);
        }
    }
}
