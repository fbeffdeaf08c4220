//! Theorem 18's experiment: the processors of a competing mesh exchange
//! messages over a laid-out network, and each message's delivery time is
//! held against `d + lg A`, `d` its distance in the mesh.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::rules::{FatTreeRule, MeshPoints, PyramidRule, TreeOfMeshesRule};
use super::{route, Channels, CircuitError, Outcome, PathRule, RouteFailure, Timing};
use crate::layout::pyramid::PyramidSpec;
use crate::layout::{Embedding, NetworkName};

/// Which pairs of mesh points exchange messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exchange {
    /// Every point sends to a point drawn uniformly from the square of
    /// radius `radius` around it (clipped to the mesh), itself excluded.
    Local {
        /// Largest coordinate difference, at least 1.
        radius: u64,
    },
    /// A random permutation of the points (fixed points send nothing).
    Global,
}

/// The networks the circuit engine routes, built in memory by `fabric
/// layout`'s constructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum WireNetwork {
    /// The fat-pyramid (thesis §4.3), Theorem 18's shortcuts.
    FatPyramid,
    /// The fat-tree with capacities `ceil(sqrt p / lg n)` (Lemma 10's
    /// universal fat-tree) on the same processors.
    FatTree,
    /// The H-tree: a fat-tree of unit capacities.
    Htree,
    /// The tree of meshes `T(2, sqrt n)` with every level.
    TreeOfMeshes,
    /// The tree of meshes `T(3, cbrt n)` folded in 3-D, every level (`n` a
    /// power of 8).
    #[cfg_attr(feature = "cli", value(name = "tree-of-meshes-3d"))]
    #[serde(rename = "tree_of_meshes_3d")]
    TreeOfMeshes3d,
}

impl WireNetwork {
    /// Every network, in declaration order.
    pub const ALL: [WireNetwork; 5] = [
        WireNetwork::FatPyramid,
        WireNetwork::FatTree,
        WireNetwork::Htree,
        WireNetwork::TreeOfMeshes,
        WireNetwork::TreeOfMeshes3d,
    ];

    /// The network's name as `--network` spells it.
    pub fn name(self) -> &'static str {
        match self {
            WireNetwork::FatPyramid => "fat-pyramid",
            WireNetwork::FatTree => "fat-tree",
            WireNetwork::Htree => "htree",
            WireNetwork::TreeOfMeshes => "tree-of-meshes",
            WireNetwork::TreeOfMeshes3d => "tree-of-meshes-3d",
        }
    }

    /// The layout family.
    pub fn layout_kind(self) -> crate::layout::LayoutKind {
        use crate::layout::LayoutKind;
        match self {
            WireNetwork::FatPyramid => LayoutKind::FatPyramid,
            WireNetwork::FatTree => LayoutKind::FatTree,
            WireNetwork::Htree => LayoutKind::Htree,
            WireNetwork::TreeOfMeshes => LayoutKind::TreeOfMeshes,
            WireNetwork::TreeOfMeshes3d => LayoutKind::TreeOfMeshes3d,
        }
    }

    /// The size `fabric layout` takes for `n` processors: the root mesh's
    /// side for the tree of meshes, `n` otherwise.
    pub fn layout_size(self, n: u64) -> u64 {
        match self {
            WireNetwork::TreeOfMeshes => 1 << (n.trailing_zeros() / 2),
            WireNetwork::TreeOfMeshes3d => 1 << (n.trailing_zeros() / 3),
            _ => n,
        }
    }

    /// The layout of `n` processors (a power of 4), built and checked
    /// legal by its construction; `mesh_capacity` parallel links between
    /// fat-pyramid mesh neighbours.
    pub fn build(
        self,
        n: u64,
        mesh_capacity: u32,
    ) -> Result<Embedding, crate::layout::LayoutError> {
        let o = crate::layout::construction::LayoutOptions {
            capacity: (self == WireNetwork::FatTree)
                .then_some(crate::layout::fattree::Capacity::SqrtOverLg),
            omega: 1,
            alpha: 1,
            levels: None,
            mesh_capacity,
            dims: None,
        };
        Ok(self
            .layout_kind()
            .construction(self.layout_size(n), &o)?
            .build()?
            .embedding)
    }
}

/// Which pairs exchange messages, as the command line names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum ExchangeKind {
    /// Each processor to one within `--radius` in the competing mesh.
    Local = 0,
    /// A random permutation.
    Global = 1,
}

impl ExchangeKind {
    /// Both kinds, in declaration order.
    pub const ALL: [ExchangeKind; 2] = [ExchangeKind::Local, ExchangeKind::Global];

    /// The kind's name as `--traffic` spells it.
    pub fn name(self) -> &'static str {
        match self {
            ExchangeKind::Local => "local",
            ExchangeKind::Global => "global",
        }
    }
}

/// A laid-out network ready to route: its channels, its algorithm and the
/// competing mesh on its processors.
pub struct Routable {
    /// The network.
    pub network: NetworkName,
    /// Its channels.
    pub channels: Channels,
    /// Its routing algorithm.
    pub rule: Box<dyn PathRule>,
    /// The competing mesh's points on its processors.
    pub points: MeshPoints,
    /// Area of the layout's bounding box (its volume in 3-D).
    pub area: u64,
    /// Channels from a processor up to the network's top level (the tree
    /// levels of a tree of meshes, its mesh hops left out).
    pub depth: u32,
}

impl Routable {
    /// The network a layout holds, for the networks the engine routes:
    /// fat-pyramid, fat-tree, H-tree and tree of meshes.
    pub fn new(e: &Embedding) -> Result<Routable, CircuitError> {
        let num = |key: &str| -> Result<u64, CircuitError> {
            e.parameters
                .get(key)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| CircuitError::Shape(format!("the layout has no numeric `{key}`")))
        };
        type Rule = Box<dyn PathRule>;
        let (rule, points, depth): (Rule, MeshPoints, u32) = match e.network {
            NetworkName::FatPyramid => {
                let spec = PyramidSpec {
                    processors: num("processors")?,
                    beta: num("block_levels")? as u32,
                    mesh_capacity: num("mesh_capacity").unwrap_or(1) as u32,
                };
                let depth = 2 * spec.beta + spec.k();
                (
                    Box::new(PyramidRule::new(spec)),
                    MeshPoints::by_position(e)?,
                    depth,
                )
            }
            NetworkName::FatTree | NetworkName::Htree => {
                let n = num("processors")?;
                (
                    Box::new(FatTreeRule { n }),
                    MeshPoints::by_position(e)?,
                    n.trailing_zeros(),
                )
            }
            NetworkName::TreeOfMeshes | NetworkName::TreeOfMeshes3d => {
                let rule = TreeOfMeshesRule {
                    n: num("root_side")?,
                    levels: num("levels")? as u32,
                    dims: if e.network == NetworkName::TreeOfMeshes3d {
                        3
                    } else {
                        2
                    },
                };
                let points = MeshPoints::tree_of_meshes(&rule);
                let depth = rule.levels;
                (Box::new(rule), points, depth)
            }
            ref other => {
                return Err(CircuitError::Shape(format!(
                    "a `{other}` layout: wire-delay routes fat-pyramid, fat-tree, htree and tree-of-meshes layouts"
                )))
            }
        };
        let m = crate::layout::metrics::measure(e);
        Ok(Routable {
            network: e.network.clone(),
            channels: Channels::new(e)?,
            rule,
            points,
            area: m.area,
            depth,
        })
    }

    /// Processors (points of the competing mesh).
    pub fn processors(&self) -> u64 {
        self.points.len()
    }
}

/// A message set: `(source node, destination node, mesh distance)`.
pub fn exchange(points: &MeshPoints, how: Exchange, rng: &mut ChaCha8Rng) -> Vec<(u32, u32, u64)> {
    let n = points.len();
    let dims = points.dims as usize;
    let at = |c: &[u64; 3]| points.node[points.index(c) as usize];
    let distance = |a: &[u64; 3], b: &[u64; 3]| (0..dims).map(|k| a[k].abs_diff(b[k])).sum::<u64>();
    let mut out = Vec::with_capacity(n as usize);
    match how {
        Exchange::Local { radius } => {
            for p in 0..n {
                let c = points.coords(p);
                let lo: Vec<u64> = (0..dims).map(|k| c[k].saturating_sub(radius)).collect();
                let hi: Vec<u64> = (0..dims)
                    .map(|k| c[k].saturating_add(radius).min(points.side - 1))
                    .collect();
                if lo == hi {
                    continue;
                }
                let t = loop {
                    let mut t = [0u64; 3];
                    for k in 0..dims {
                        t[k] = rng.gen_range(lo[k]..=hi[k]);
                    }
                    if t != c {
                        break t;
                    }
                };
                out.push((at(&c), at(&t), distance(&c, &t)));
            }
        }
        Exchange::Global => {
            let mut perm: Vec<u64> = (0..n).collect();
            perm.shuffle(rng);
            for (p, &q) in perm.iter().enumerate() {
                let p = p as u64;
                if p != q {
                    let (a, b) = (points.coords(p), points.coords(q));
                    out.push((at(&a), at(&b), distance(&a, &b)));
                }
            }
        }
    }
    out
}

/// Delivery times of messages whose mesh distance lies in `[lo, hi]`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct DistanceRow {
    /// Smallest distance of the row.
    pub lo: u64,
    /// Largest distance of the row.
    pub hi: u64,
    /// Messages.
    pub messages: u64,
    /// Mean delivery time.
    pub mean: f64,
    /// Largest delivery time.
    pub max: f64,
    /// Largest time of a path alone (its successful attempt).
    pub max_path: f64,
    /// Largest `time / (d + lg A)`.
    pub max_ratio: f64,
}

/// One trial's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct TrialFigures {
    /// Messages routed.
    pub messages: u64,
    /// Rounds.
    pub rounds: u32,
    /// Largest delivery time.
    pub max_time: f64,
    /// Mean delivery time.
    pub mean_time: f64,
    /// Sum of the rounds' longest attempts.
    pub synchronous_time: f64,
    /// `c`: the largest delivery time over `d + lg A`.
    pub c: f64,
    /// The largest time of a path alone over `d + lg A`: Theorem 18's
    /// measure, contention left out.
    pub c_path: f64,
    /// Measured Delta delta: the largest `W(m) / (T_1 w(d_m))` over the
    /// messages `m`, `W(m)` the wire delays of `m`'s path summed (one way)
    /// and `T_1 = 2 depth` the hops of a path over the top: the definition
    /// of `layout::pyramid::delta_delta` on the paths taken, where that
    /// bounds every path by the longest wire of each level.
    pub delta_delta: f64,
    /// Rows by distance, powers of 2: `[1, 1], [2, 3], [4, 7], ...`.
    pub rows: Vec<DistanceRow>,
}

/// Route one message set over `laid` and gather its figures.
pub fn trial(
    laid: &Routable,
    how: Exchange,
    timing: &Timing,
    rng: &mut ChaCha8Rng,
    max_rounds: u32,
) -> Result<TrialFigures, RouteFailure> {
    let msgs = exchange(&laid.points, how, rng);
    let pairs: Vec<(u32, u32)> = msgs.iter().map(|m| (m.0, m.1)).collect();
    let outcome = route(
        &laid.channels,
        laid.rule.as_ref(),
        &pairs,
        timing,
        rng,
        max_rounds,
    )?;
    let t1 = 2.0 * laid.depth as f64;
    Ok(figures(&msgs, &outcome, laid.processors(), |d| {
        t1 * timing.delay.of(d)
    }))
}

fn figures(
    msgs: &[(u32, u32, u64)],
    o: &Outcome,
    processors: u64,
    unit_scaled: impl Fn(u64) -> f64,
) -> TrialFigures {
    let lg_a = (processors as f64).log2();
    let mut delta_delta = 0.0f64;
    let mut c_path = 0.0f64;
    let mut rows: Vec<DistanceRow> = Vec::new();
    let (mut max_time, mut sum, mut c) = (0.0f64, 0.0f64, 0.0f64);
    for (m, d) in msgs.iter().zip(&o.deliveries) {
        let dist = m.2;
        let ratio = d.time / (dist as f64 + lg_a);
        max_time = max_time.max(d.time);
        sum += d.time;
        c = c.max(ratio);
        c_path = c_path.max(d.path_time / (dist as f64 + lg_a));
        delta_delta = delta_delta.max(d.path_wires / unit_scaled(dist));
        let j = (63 - dist.max(1).leading_zeros()) as usize;
        while rows.len() <= j {
            let lo = 1u64 << rows.len();
            rows.push(DistanceRow {
                lo,
                hi: 2 * lo - 1,
                messages: 0,
                mean: 0.0,
                max: 0.0,
                max_path: 0.0,
                max_ratio: 0.0,
            });
        }
        let r = &mut rows[j];
        r.messages += 1;
        r.mean += d.time;
        r.max = r.max.max(d.time);
        r.max_path = r.max_path.max(d.path_time);
        r.max_ratio = r.max_ratio.max(ratio);
    }
    for r in &mut rows {
        if r.messages > 0 {
            r.mean /= r.messages as f64;
        }
    }
    rows.retain(|r| r.messages > 0);
    TrialFigures {
        messages: msgs.len() as u64,
        rounds: o.rounds,
        max_time,
        mean_time: if msgs.is_empty() {
            0.0
        } else {
            sum / msgs.len() as f64
        },
        synchronous_time: o.synchronous_time,
        c,
        c_path,
        delta_delta,
        rows,
    }
}
