//! The butterfly fat-tree (thesis Fig. 2-2) laid out in H-tree style with constant-size switches.
//!
//! Network: `n = 4^k` processors `(0, a)`; level `l = 1 .. k` has
//! `n / 2^(l+1)` switches `(l, a)`, each with four children and (below the
//! top) two parents: processor `a` hangs from `(1, a/4)`, and `(l, a)` goes
//! up to `(l+1, (a / 2^(l+1)) 2^l + a mod 2^l)` and
//! `(l+1, (a / 2^(l+1)) 2^l + (a + 2^(l-1)) mod 2^l)`. The switches
//! `(l, a)` with equal `a / 2^(l-1)` form one 4-ary node; every switch above
//! level 1 has exactly one child in each of its node's four child nodes.
//!
//! Layout `F_j` of a level-`j` node (`m = 2^(j-1)` switches) has side
//! `S_j = 2 S_{j-1} + g_j`, `S_0 = 1`, `g_j = 4m + 1`, closed form
//! `S_k = 2^(k+1) (k+1) - 1`:
//! - the four child layouts in the corners (the northern two mirrored, so
//!   that every child's up-bundle points at the central band), the child in
//!   quadrant `q = 2b + b2` (`b` east, `b2` north);
//! - the central band, rows `[s, s+g)` (`s = S_{j-1}`), holds 4m tracks and,
//!   on its top row, the `m` switches as boxes 4 wide and 1 high, side by
//!   side in columns `[s, s+4m)`; switch `i` takes the wire from quadrant
//!   `q` at its bottom column `s + 4i + q`, and sends its two up-links from
//!   its top columns `s + 4i + 1` and `s + 4i + 2` straight up to the top;
//! - each child bundle bends into the band on its own `m` tracks (west
//!   children on the lower `2m`, east children on the upper `2m`, turning so
//!   that a bundle never crosses itself), runs to its switch's column and
//!   rises to it: crossings only, no knock-knees.
//!
//! A wire is one network edge from a child's node (switch or processor) to
//! a parent switch. The top node's switches have no parents, so nothing
//! leaves the layout.

use std::collections::BTreeMap;

use super::construction::{ClosedForms, Construction, Laid, LayoutError, LayoutOptions, Measured};
use super::fattree::Capacity;
use super::parameters::{FileParameters, ParameterError};
use super::{Edge, Embedding, NetworkName, Node, SpecError, P3};
use crate::network::{Network, NodeData, NodeId, Role};

/// `S_0 .. S_k` of the butterfly fat-tree layout.
pub fn sides(k: u32) -> Vec<u64> {
    let mut s = vec![1u64];
    for j in 1..=k {
        let m = 1u64 << (j - 1);
        s.push(2 * s[j as usize - 1] + 4 * m + 1);
    }
    s
}

/// The closed form `S_k = 2^(k+1) (k+1) - 1`.
pub fn closed_form_side(k: u32) -> u64 {
    (1u64 << (k + 1)) * (k as u64 + 1) - 1
}

/// Node id of switch `(l, a)` in a tree of `n` processors: the processors
/// are `0 .. n`, then level 1, level 2, ... in order of `a`.
pub fn switch_id(n: u64, l: u32, a: u64) -> u32 {
    // Levels 1 .. l-1 hold n/4 + n/8 + ... switches.
    let below: u64 = (1..l).map(|i| n >> (i + 1)).sum();
    (n + below + a) as u32
}

/// The parents of switch `(l, a)` (processors: `l = 0`, one parent).
pub fn parents(l: u32, a: u64, k: u32) -> Vec<u64> {
    if l == 0 {
        return vec![a / 4];
    }
    if l >= k {
        return Vec::new();
    }
    let base = (a >> (l + 1)) << l;
    let mask = (1u64 << l) - 1;
    vec![base + (a & mask), base + ((a + (1 << (l - 1))) & mask)]
}

/// Placement `(x, y) -> (ox + x, oy + sy y)`.
#[derive(Clone, Copy)]
struct Map {
    ox: i64,
    oy: i64,
    sy: i64,
}

impl Map {
    fn at(&self, x: i64, y: i64) -> P3 {
        P3::xy(self.ox + x, self.oy + self.sy * y)
    }
}

/// A wire leaving a sub-layout upwards: the node it starts at, its column
/// and start point (global), and the parent switch it goes to.
struct Up {
    from: u32,
    x: i64,
    start: P3,
    parent: u64,
}

/// A 4-ary tree of switch groups to lay out: `switches[j]` switches in
/// every level-`j` node (`switches[0] = 1`: the processor), and the parents
/// of every switch (by level and index `a` within its level).
struct Builder<'a> {
    switches: Vec<u64>,
    /// `first_id[j]`: id of switch 0 of level `j` (processors from 0).
    first_id: Vec<u64>,
    parents: &'a dyn Fn(u32, u64) -> Vec<u64>,
    sides: Vec<u64>,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
}

impl Builder<'_> {
    /// Lay out the level-`j` node `p` (processor `p` when `j = 0`); returns
    /// its up-going wires, not yet drawn beyond the layout.
    fn build(&mut self, j: u32, p: u64, map: Map) -> Vec<Up> {
        if j == 0 {
            let at = map.at(0, 0);
            self.nodes.push(Node {
                id: p as u32,
                kind: "processor".into(),
                level: 0,
                min: at,
                max: at,
            });
            return (self.parents)(0, p)
                .into_iter()
                .map(|parent| Up {
                    from: p as u32,
                    x: at.x,
                    start: at,
                    parent,
                })
                .collect();
        }
        let m = self.switches[j as usize] as i64;
        let s = self.sides[j as usize - 1] as i64;
        let g = 4 * m + 1;
        let switch_row = s + g - 1;
        // The switches of this node.
        let first = p as i64 * m;
        let mut ids = Vec::new();
        for i in 0..m {
            let id = (self.first_id[j as usize] + (first + i) as u64) as u32;
            let (a, b) = (
                map.at(s + 4 * i, switch_row),
                map.at(s + 4 * i + 3, switch_row),
            );
            self.nodes.push(Node {
                id,
                kind: "switch".into(),
                level: j,
                min: P3::xy(a.x.min(b.x), a.y.min(b.y)),
                max: P3::xy(a.x.max(b.x), a.y.max(b.y)),
            });
            ids.push(id);
        }
        // Children, their bundles bent into the band.
        for q in 0..4i64 {
            let (b, b2) = (q / 2, q % 2);
            let north = b2 == 1;
            let cmap = if north {
                Map {
                    ox: map.ox + b * (s + g),
                    oy: map.oy + map.sy * (s + g + s - 1),
                    sy: -map.sy,
                }
            } else {
                Map {
                    ox: map.ox + b * (s + g),
                    oy: map.oy,
                    sy: map.sy,
                }
            };
            let mut ups = self.build(j - 1, 4 * p + q as u64, cmap);
            ups.sort_by_key(|u| u.x);
            let count = ups.len() as i64;
            debug_assert_eq!(count, m);
            for (r, up) in ups.into_iter().enumerate() {
                let r = r as i64;
                // Track row in the band: west children on rows s .. s+2m,
                // east ones above; the order keeps a bundle from crossing
                // itself as it turns towards the centre.
                let row = match (b, north) {
                    (0, false) => s + (count - 1 - r),
                    (0, true) => s + 2 * m - 1 - (count - 1 - r),
                    (_, false) => s + 2 * m + r,
                    (_, true) => s + 4 * m - 1 - r,
                };
                let local_parent = up.parent as i64 - first;
                debug_assert!((0..m).contains(&local_parent));
                let column = s + 4 * local_parent + q;
                let turn1 = P3::xy(up.start.x, map.at(0, row).y);
                let turn2 = map.at(column, row);
                let end = map.at(column, switch_row);
                let mut path = vec![up.start];
                for pnt in [turn1, turn2, end] {
                    if *path.last().expect("non-empty") != pnt {
                        path.push(pnt);
                    }
                }
                let id = self.edges.len() as u32;
                self.edges.push(Edge {
                    id,
                    from: up.from,
                    to: ids[local_parent as usize],
                    path,
                });
            }
        }
        // Up-links from the switches' top columns.
        let mut ups = Vec::new();
        for i in 0..m {
            let a = (first + i) as u64;
            for (e, parent) in (self.parents)(j, a).into_iter().enumerate() {
                let x = s + 4 * i + 1 + e as i64;
                let start = map.at(x, switch_row);
                ups.push(Up {
                    from: ids[i as usize],
                    x: start.x,
                    start,
                    parent,
                });
            }
        }
        ups
    }
}

/// Lay out the butterfly fat-tree of `n = 4^k` processors.
pub fn butterfly_fat_tree(n: u64) -> Result<Embedding, SpecError> {
    if n < 4 || !n.is_power_of_two() || n.trailing_zeros() % 2 != 0 {
        return Err(SpecError::NotPowerOfFour {
            processors: n,
            family: "the butterfly fat-tree",
        });
    }
    let k = n.trailing_zeros() / 2;
    let switches: Vec<u64> = (0..=k)
        .map(|j| if j == 0 { 1 } else { 1 << (j - 1) })
        .collect();
    let parents = |l: u32, a: u64| parents(l, a, k);
    let mut parameters = BTreeMap::new();
    parameters.insert("processors".to_string(), n.to_string());
    Ok(lay_out(
        NetworkName::ButterflyFatTree,
        parameters,
        n,
        switches,
        &parents,
    ))
}

/// Lay out a 4-ary tree of switch groups (module comment) of `n = 4^k`
/// processors with `switches[j]` switches per level-`j` node.
fn lay_out(
    network: NetworkName,
    parameters: BTreeMap<String, String>,
    n: u64,
    switches: Vec<u64>,
    parents: &dyn Fn(u32, u64) -> Vec<u64>,
) -> Embedding {
    let k = switches.len() as u32 - 1;
    let mut sides = vec![1u64];
    for j in 1..=k as usize {
        sides.push(2 * sides[j - 1] + 4 * switches[j] + 1);
    }
    let mut first_id = vec![0u64];
    let mut next = n;
    for (j, &m) in switches.iter().enumerate().skip(1) {
        first_id.push(next);
        next += (n >> (2 * j)) * m;
    }
    let mut b = Builder {
        switches,
        first_id,
        parents,
        sides,
        nodes: Vec::new(),
        edges: Vec::new(),
    };
    let ups = b.build(
        k,
        0,
        Map {
            ox: 0,
            oy: 0,
            sy: 1,
        },
    );
    debug_assert!(ups.is_empty(), "the top switches have no parents");
    let mut nodes = b.nodes;
    nodes.sort_unstable_by_key(|x| x.id);
    Embedding {
        network,
        parameters,
        dimensions: 2,
        nodes,
        edges: b.edges,
    }
}

/// Capacities `c_j = c(4^j)` of the scalable fat-tree: wires above a
/// level-`j` node (`c_0 = 1`, growth at most x2 per 4-ary level).
pub fn scalable_capacities(n: u64, capacity: &Capacity) -> Result<Vec<u64>, SpecError> {
    if n < 4 || !n.is_power_of_two() || n.trailing_zeros() % 2 != 0 {
        return Err(SpecError::NotPowerOfFour {
            processors: n,
            family: "the scalable fat-tree",
        });
    }
    let k = n.trailing_zeros() / 2;
    let c: Vec<u64> = (0..=k)
        .map(|j| capacity.at_level(2 * j, n, 1))
        .collect::<Result<_, _>>()?;
    if c[0] != 1 {
        return Err(SpecError::ProcessorWires(c[0]));
    }
    for j in 1..=k as usize {
        if c[j] < c[j - 1] || c[j] > 2 * c[j - 1] {
            return Err(SpecError::SwitchGrowth {
                p: 1u64 << (2 * (j - 1)),
                c: c[j - 1],
                parent_p: 1u64 << (2 * j),
                parent_c: c[j],
            });
        }
    }
    Ok(c)
}

/// The scalable fat-tree of thesis Fig. 2-3 (as docs/layout.md reads it):
/// a node whose child channels carry `c` wires and whose up channel `c'`
/// (`c <= c' <= 2c`) holds `c` switches; switch `i` takes wire `i` of each
/// of the four child channels; switches `0 .. c'-c` are of type D (two
/// up-links), the others of type U (one); up-link `e` of switch `i` goes to
/// switch `i + e c` of the parent. Every switch is a constant-size box.
pub fn scalable_fat_tree(n: u64, capacity: &Capacity) -> Result<Embedding, SpecError> {
    let c = scalable_capacities(n, capacity)?;
    let k = c.len() - 1;
    let switches: Vec<u64> = (0..=k).map(|j| if j == 0 { 1 } else { c[j - 1] }).collect();
    let parents = scalable_parents(c);
    let mut parameters = BTreeMap::new();
    parameters.insert("processors".to_string(), n.to_string());
    parameters.insert("capacity".to_string(), capacity.spec());
    Ok(lay_out(
        NetworkName::ScalableFatTree,
        parameters,
        n,
        switches,
        &parents,
    ))
}

/// Parents of switch `a` (its index within its level) of the scalable
/// fat-tree with capacities `c` (processors are level 0).
pub fn scalable_parents(c: Vec<u64>) -> impl Fn(u32, u64) -> Vec<u64> {
    move |l: u32, a: u64| {
        let k = c.len() as u32 - 1;
        if l >= k {
            return Vec::new();
        }
        // Switches per node here and in the parent.
        let here = if l == 0 { 1 } else { c[l as usize - 1] };
        let above = c[l as usize];
        let (node, i) = (a / here, a % here);
        let parent_first = (node / 4) * above;
        if i < above - here {
            vec![parent_first + i, parent_first + i + here]
        } else {
            vec![parent_first + i]
        }
    }
}

/// Parameters of a butterfly fat-tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ButterflySpec {
    /// Number of processors, a power of 4.
    pub processors: u64,
}

impl Construction for ButterflySpec {
    fn build(&self) -> Result<Laid, LayoutError> {
        let embedding = butterfly_fat_tree(self.processors)?;
        let k = self.processors.trailing_zeros() / 2;
        let side = *sides(k).last().expect("k + 1 sides");
        Ok(Laid {
            embedding,
            forms: ClosedForms::square(side, closed_form_side(k), None),
        })
    }

    fn network(&self) -> Result<Network, LayoutError> {
        Ok(Network::butterfly_fat_tree(self.processors)?)
    }

    fn figures(&self, m: &Measured) -> Vec<String> {
        vec![m.recurrence_line("S_j = 2 S_(j-1) + 2^(j+1) + 1; closed form 2^(k+1) (k+1) - 1 =")]
    }
}

/// Parameters of a scalable fat-tree.
#[derive(Clone, Debug, PartialEq)]
pub struct ScalableSpec {
    /// Number of processors, a power of 4.
    pub processors: u64,
    /// The capacity function its switch counts follow.
    pub capacity: Capacity,
}

impl ScalableSpec {
    /// The spec `fabric layout scalable-fat-tree --size n` asks for
    /// (`--capacity` defaults to `sqrt-over-lg`).
    pub fn from_options(n: u64, o: &LayoutOptions) -> Result<ScalableSpec, LayoutError> {
        Ok(ScalableSpec {
            processors: n,
            capacity: o.capacity.clone().unwrap_or(Capacity::SqrtOverLg),
        })
    }
}

impl Construction for ScalableSpec {
    fn build(&self) -> Result<Laid, LayoutError> {
        let embedding = scalable_fat_tree(self.processors, &self.capacity)?;
        let c = scalable_capacities(self.processors, &self.capacity)?;
        // S_j = 2 S_{j-1} + 4 c_{j-1} + 1, S_0 = 1; closed form
        // 2^k + sum_j 2^(k-j) (4 c_{j-1} + 1).
        let k = c.len() - 1;
        let mut s = 1u64;
        let mut closed = 1u64 << k;
        for j in 1..=k {
            s = 2 * s + 4 * c[j - 1] + 1;
            closed += (1u64 << (k - j)) * (4 * c[j - 1] + 1);
        }
        Ok(Laid {
            embedding,
            forms: ClosedForms::square(s, closed, None),
        })
    }

    fn network(&self) -> Result<Network, LayoutError> {
        Ok(Network::scalable_fat_tree(self.processors, &self.capacity)?)
    }

    fn figures(&self, m: &Measured) -> Vec<String> {
        vec![m.recurrence_line("S_j = 2 S_(j-1) + 4 c(4^(j-1)) + 1; closed form")]
    }
}

impl Network {
    /// The butterfly fat-tree of `n = 4^k` processors, ids
    /// as [`crate::layout::butterfly::switch_id`].
    pub fn butterfly_fat_tree(n: u64) -> Result<Network, SpecError> {
        if n < 4 || !n.is_power_of_two() || n.trailing_zeros() % 2 != 0 {
            return Err(SpecError::ButterflyProcessors(n));
        }
        let k = n.trailing_zeros() / 2;
        let switches: u64 = (1..=k).map(|l| n >> (l + 1)).sum();
        let mut net = Network::with_nodes("butterfly-fat-tree", (n + switches) as usize);
        for l in 1..=k {
            for a in 0..(n >> (l + 1)) {
                net.set_node(
                    NodeId(switch_id(n, l, a)),
                    NodeData {
                        role: Role::Switch,
                        level: l,
                    },
                );
            }
        }
        for l in 0..k {
            let count = if l == 0 { n } else { n >> (l + 1) };
            for a in 0..count {
                let me = if l == 0 {
                    NodeId(a as u32)
                } else {
                    NodeId(switch_id(n, l, a))
                };
                for p in parents(l, a, k) {
                    net.add_link(me, NodeId(switch_id(n, l + 1, p)));
                }
            }
        }
        Ok(net)
    }

    /// The scalable fat-tree of `n = 4^k` processors for a capacity function
    /// (docs/layout.md): nodes numbered as the layout numbers them
    /// (processors, then each level's switches in order).
    pub fn scalable_fat_tree(n: u64, capacity: &Capacity) -> Result<Network, SpecError> {
        let c = scalable_capacities(n, capacity)?;
        let k = c.len() - 1;
        // Switches per level: (nodes at level j) x c_{j-1}.
        let per_level: Vec<u64> = (0..=k)
            .map(|j| if j == 0 { n } else { (n >> (2 * j)) * c[j - 1] })
            .collect();
        let mut first = vec![0u64];
        for j in 1..=k {
            first.push(first[j - 1] + per_level[j - 1]);
        }
        let total = first[k] + per_level[k];
        let mut net = Network::with_nodes("scalable-fat-tree", total as usize);
        let parents = scalable_parents(c.clone());
        for j in 0..=k {
            for a in 0..per_level[j] {
                let me = NodeId((first[j] + a) as u32);
                net.set_node(
                    me,
                    NodeData {
                        role: if j == 0 {
                            Role::Processor
                        } else {
                            Role::Switch
                        },
                        level: j as u32,
                    },
                );
                for p in parents(j as u32, a) {
                    net.add_link(me, NodeId((first[j + 1] + p) as u32));
                }
            }
        }
        Ok(net)
    }
}

/// The intended network of a `butterfly-fat-tree` layout file.
pub(crate) fn intended_butterfly(p: &FileParameters) -> Result<Network, ParameterError> {
    Ok(Network::butterfly_fat_tree(p.processors()?)?)
}

/// The intended network of a `scalable-fat-tree` layout file.
pub(crate) fn intended_scalable(p: &FileParameters) -> Result<Network, ParameterError> {
    let capacity = Capacity::parse(p.text_or("capacity", "sqrt"))?;
    let n = p.processors()?;
    // Nodes: the processors, then (nodes at level j) x c_{j-1}
    // switches at each level j.
    let c = scalable_capacities(n, &capacity)?;
    let switches = (1..c.len()).try_fold(n, |sum, j| {
        (n >> (2 * j)).checked_mul(c[j - 1])?.checked_add(sum)
    });
    p.fits_nodes(switches)?;
    Ok(Network::scalable_fat_tree(n, &capacity)?)
}

#[cfg(test)]
mod tests;
