//! The lower bounds every run is held against, and the paper's leading
//! terms (docs/simulation.md, k-k routing, "Lower bounds, leading terms,
//! excess").

use super::algorithm::Algorithm;
use super::plan::Strategy;
use super::shape::{Shape, Topology};
use super::traffic::Problem;

/// Per-instance lower bounds on T, valid for any routing (the direction
/// load on the torus: for routes that cover every axis the shorter way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct LowerBounds {
    /// The longest source-destination distance (plus k - 1 for worms of
    /// k flits).
    pub distance: u64,
    /// The most packets that must cross an axis-aligned cut one way,
    /// over the links across it that way.
    pub bisection: u64,
    /// Connection availability: all hops over all directed links.
    pub connection: u64,
    /// The most hops needed in one direction of one axis, over the links
    /// of that direction (the locality bound kL of section 9 on a shift by
    /// L); hops a torus tie may take either way are split evenly, the
    /// adversary's best.
    pub direction: u64,
}

impl LowerBounds {
    /// The bounds of `problem` on `shape`; `flits` is k for worms of k
    /// flits (one packet per flit in `problem`), 1 for packets.
    pub fn of(shape: &Shape, problem: &Problem, flits: u32) -> LowerBounds {
        let mut distance = 0u64;
        let mut sum = 0u64;
        let d = shape.dims;
        // Per axis: hops forced up, forced down, and either way (a torus
        // distance of n/2).
        let mut load = vec![[0u64; 3]; d];
        for (&s, &t) in problem.source.iter().zip(&problem.dest) {
            let mut dist = 0u64;
            for (a, axis_load) in load.iter_mut().enumerate() {
                let (x, y) = (shape.coord(s, a), shape.coord(t, a));
                let (dir, h) = shape.way(x, y, super::Dir::Up);
                let tie = shape.way(x, y, super::Dir::Down).0 != dir;
                dist += u64::from(h);
                axis_load[if tie { 2 } else { dir.slot() }] += u64::from(h);
            }
            distance = distance.max(dist);
            sum += dist;
        }
        let per_direction = shape.directed_links() / (2 * d as u64);
        let bisection = (0..d)
            .map(|a| cut_bound(shape, problem, a))
            .max()
            .unwrap_or(0);
        LowerBounds {
            distance: if distance > 0 {
                distance + u64::from(flits) - 1
            } else {
                0
            },
            bisection,
            connection: sum.div_ceil(shape.directed_links()),
            direction: load
                .iter()
                .map(|&[up, down, either]| {
                    up.max(down)
                        .max((up + down + either).div_ceil(2))
                        .div_ceil(per_direction)
                })
                .max()
                .unwrap_or(0),
        }
    }

    /// The largest of the bounds.
    pub fn max(&self) -> u64 {
        self.distance
            .max(self.bisection)
            .max(self.connection)
            .max(self.direction)
    }
}

/// The bisection bound across cuts orthogonal to `axis`: on the mesh every
/// cut between coordinates c and c + 1 (n^(d-1) links each way); on the
/// torus every arc against its complement (2 n^(d-1) links each way), all
/// arcs for n <= 512, the half arcs beyond.
fn cut_bound(shape: &Shape, problem: &Problem, axis: usize) -> u64 {
    let n = shape.side as usize;
    let lines = (shape.pus() / n) as u64;
    let pairs = problem
        .source
        .iter()
        .zip(&problem.dest)
        .map(|(&s, &t)| (shape.coord(s, axis) as usize, shape.coord(t, axis) as usize));
    match shape.topology {
        Topology::Mesh => {
            // up[c]: packets from <= c to > c; down[c]: from > c to <= c.
            let mut up = vec![0i64; n + 1];
            let mut down = vec![0i64; n + 1];
            for (x, y) in pairs {
                if x < y {
                    up[x] += 1;
                    up[y] -= 1;
                } else if y < x {
                    down[y] += 1;
                    down[x] -= 1;
                }
            }
            let (mut u, mut w, mut most) = (0i64, 0i64, 0i64);
            for c in 0..n {
                u += up[c];
                w += down[c];
                most = most.max(u).max(w);
            }
            (most as u64).div_ceil(lines)
        }
        Topology::Torus if n <= 512 => all_arcs(n, pairs).div_ceil(2 * lines),
        Topology::Torus => half_arcs(n, pairs).div_ceil(2 * lines),
    }
}

/// The most packets leaving one arc of a ring of `n` for its complement,
/// over all arcs, from 2-D prefix sums of the (source, destination)
/// counts repeated twice each way.
fn all_arcs(n: usize, pairs: impl Iterator<Item = (usize, usize)>) -> u64 {
    let mut h = vec![0u32; n * n];
    let mut from = vec![0u64; n];
    for (x, y) in pairs {
        h[x * n + y] += 1;
        from[x] += 1;
    }
    // 2-D prefix sums of h repeated twice each way.
    let m = 2 * n + 1;
    let mut pre = vec![0u64; m * m];
    for i in 0..2 * n {
        for j in 0..2 * n {
            pre[(i + 1) * m + j + 1] =
                u64::from(h[(i % n) * n + j % n]) + pre[i * m + j + 1] + pre[(i + 1) * m + j]
                    - pre[i * m + j];
        }
    }
    let rect =
        |a: usize, b: usize| pre[b * m + b] + pre[a * m + a] - pre[a * m + b] - pre[b * m + a];
    let mut most = 0u64;
    for s in 0..n {
        let mut out_of = 0u64;
        for len in 1..n {
            out_of += from[(s + len - 1) % n];
            let inside = rect(s, s + len);
            most = most.max(out_of - inside);
        }
    }
    most
}

/// The most packets leaving one half arc `[s, s + n/2)` of a ring of `n`
/// for its complement: a packet leaves for s in `(x - n/2, x]` and not in
/// `(y - n/2, y]`, summed by difference arrays.
fn half_arcs(n: usize, pairs: impl Iterator<Item = (usize, usize)>) -> u64 {
    // Half arcs [s, s + n/2): a packet leaves the arc for s in
    // (x - n/2, x] and not in (y - n/2, y].
    let half = n / 2;
    let mut diff = vec![0i64; n + 1];
    let mut add = |from: usize, count: usize, v: i64| {
        // s in from, from + 1, ..., from + count - 1 (mod n).
        let end = from + count;
        diff[from] += v;
        if end <= n {
            diff[end] -= v;
        } else {
            diff[n] -= v;
            diff[0] += v;
            diff[end - n] -= v;
        }
    };
    for (x, y) in pairs {
        add((x + n + 1 - half) % n, half, 1);
        let delta = (y + n - x) % n;
        if delta < half {
            // Both intervals hold s in (y - half, x].
            add((y + n + 1 - half) % n, half - delta, -1);
        } else if n - delta < half {
            // Both hold s in (x - half, y].
            add((x + n + 1 - half) % n, half - (n - delta), -1);
        }
    }
    let (mut run, mut most) = (0i64, 0i64);
    for v in diff.iter().take(n) {
        run += v;
        most = most.max(run);
    }
    most as u64
}

/// How packets move: one hop a step each, or as worms of k flits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Switching {
    /// Store-and-forward packets.
    StoreAndForward,
    /// Cut-through worms of k flits, one per PU.
    CutThrough,
}

/// The paper's leading term for a setting, with where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Lead {
    /// The value at this n, k, d.
    pub value: f64,
    /// The formula.
    pub formula: &'static str,
    /// The theorem or corollary.
    pub source: &'static str,
}

/// What a leading term depends on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setting {
    /// The array.
    pub shape: Shape,
    /// Packets (flits) per PU.
    pub k: u32,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The strategy.
    pub strategy: Strategy,
    /// Packets or worms.
    pub switching: Switching,
    /// L of LocalRoute.
    pub locality: u32,
    /// ε of LevelRoute.
    pub strip: u32,
}

/// The paper's leading term for `s`, if it gives one (docs/simulation.md,
/// "Lower bounds, leading terms, excess").
pub fn lead(s: &Setting) -> Option<Lead> {
    let n = f64::from(s.shape.side);
    let k = f64::from(s.k);
    let d = s.shape.dims as f64;
    let l = f64::from(s.locality);
    let ff = s.strategy == Strategy::FarthestFirst;
    let worms = s.switching == Switching::CutThrough;
    let mesh = s.shape.topology == Topology::Mesh;
    let two = s.shape.dims == 2;
    let lead = |value: f64, formula, source| {
        Some(Lead {
            value,
            formula,
            source,
        })
    };
    match s.algorithm {
        Algorithm::NoWrap if !mesh => None,
        Algorithm::NoWrap if two && !worms && ff => lead(
            (3.0 * n).max(2.0 * n + k * n / 4.0).max(k * n / 2.0),
            "max{3n, 2n+kn/4, kn/2}",
            "Thm 2",
        ),
        Algorithm::NoWrap if two => lead(
            (3.0 * n).max(k * n / 2.0 + n / k + 1.5 * n),
            "max{3n, kn/2+n/k+3n/2}",
            if worms { "Cor 5" } else { "Thm 3" },
        ),
        Algorithm::NoWrap if worms => lead(
            ((2.0 * d - 1.0) * n).max(k * n / 2.0 + (d - 1.0) * n / k + (d - 0.5) * n),
            "max{(2d-1)n, kn/2+(d-1)n/k+(d-1/2)n}",
            "Thm 5",
        ),
        Algorithm::NoWrap => lead(
            ((2.0 * d - 1.0) * n).max(k * n / 2.0),
            "max{(2d-1)n, kn/2}",
            "Thm 4",
        ),
        Algorithm::Wrap if mesh && two && ff && !worms => {
            lead((4.0 * n).max(k * n / 2.0), "max{4n, kn/2}", "Thm 8")
        }
        Algorithm::Wrap if mesh => None,
        Algorithm::Wrap if two && ff && !worms => {
            lead((2.0 * n).max(k * n / 4.0), "max{2n, kn/4}", "Thm 7")
        }
        Algorithm::Wrap if two => lead(
            k * n / 4.0 + 2.0 * n,
            "kn/4+2n",
            if worms { "Thm 10" } else { "Thm 9" },
        ),
        Algorithm::Wrap if worms => lead(k * n / 4.0 + d * n, "kn/4+dn", "Thm 12 (corrected)"),
        Algorithm::Wrap => lead(
            (d * n).max(k * n / 4.0),
            "max{dn, kn/4}",
            "Thm 11 (corrected)",
        ),
        Algorithm::Local if worms || !two => None,
        Algorithm::Local if mesh => lead(
            (l).max(k * l / 8.0) + (2.0 * l).max(k * l),
            "max{L, kL/8}+max{2L, kL}",
            "Thm 14",
        ),
        Algorithm::Local => lead(
            (2.5 * l).max(k * l) + (l / 2.0).max(k * l / 16.0),
            "max{5L/2, kL}+max{L/2, kL/16}",
            "Thm 13",
        ),
        Algorithm::LocalUnknown if worms || !two || mesh => None,
        Algorithm::LocalUnknown => lead(n.max(k * l / 16.0) + k * l, "max{n, kL/16}+kL", "Thm 15"),
        Algorithm::Level if !worms => lead(
            (k / 2.0 + 1.0) * (n + f64::from(s.strip)),
            "(k/2+1)(n+e)",
            "Cor 4",
        ),
        Algorithm::Direct | Algorithm::Level => None,
    }
}

/// Each phase's leading term (the lemmas behind the theorems), for fixed
/// phase budgets; `None` where the paper gives none.
pub fn phase_leads(s: &Setting, phases: usize) -> Option<Vec<f64>> {
    let n = f64::from(s.shape.side);
    let k = f64::from(s.k);
    let d = s.shape.dims;
    let df = d as f64;
    let l = f64::from(s.locality);
    let mesh = s.shape.topology == Topology::Mesh;
    let v: Vec<f64> = match s.algorithm {
        // Lemmas 16-18 and 22-23.
        Algorithm::NoWrap => (0..2 * d - 1)
            .map(|t| {
                if t == d - 1 {
                    n.max(k * n / (2.0 * df))
                } else {
                    n.max(k * n / (4.0 * df))
                }
            })
            .collect(),
        // Lemma 8 per ring phase on the torus, Lemma 3 on the mesh.
        Algorithm::Wrap if mesh => vec![n.max(k * n / (4.0 * df)); 2 * d],
        Algorithm::Wrap => vec![(n / 2.0).max(k * n / (8.0 * df)); 2 * d],
        Algorithm::Direct => vec![n.max(k * n / 4.0); d],
        Algorithm::Local if mesh && d == 2 => {
            vec![l.max(k * l / 8.0), l.max(k * l / 2.0), l.max(k * l / 2.0)]
        }
        Algorithm::Local if d == 2 => {
            vec![
                (l / 2.0).max(k * l / 16.0),
                l.max(k * l / 2.0),
                (1.5 * l).max(k * l / 2.0),
            ]
        }
        Algorithm::Local | Algorithm::LocalUnknown => return None,
        Algorithm::Level => (0..phases)
            .map(|j| if j % 2 == 0 { f64::from(s.strip) } else { n })
            .collect(),
    };
    (v.len() == phases).then_some(v)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::sim::mesh::traffic::Workload;

    fn bounds(n: u32, topology: Topology, k: u32, w: Workload) -> LowerBounds {
        let shape = Shape::new(n, 2, topology).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let p = Problem::generate(&shape, k, w, 2, &mut rng).unwrap();
        LowerBounds::of(&shape, &p, 1)
    }

    /// The closed forms of the bounds: k-LS on the mesh needs kn/2
    /// across the centre and k-PR d(n-1) hops; k-LS on the torus kn/4 by
    /// bisection and connection availability.
    #[test]
    fn the_bounds_meet_the_closed_forms() {
        let ls = bounds(16, Topology::Mesh, 4, Workload::Ls);
        assert_eq!(ls.bisection, 4 * 16 / 2);
        assert_eq!(ls.distance, 16);
        let pr = bounds(16, Topology::Mesh, 4, Workload::Pr);
        assert_eq!(pr.distance, 2 * 15);
        assert_eq!(pr.bisection, 4 * 16 / 2);
        let tls = bounds(16, Topology::Torus, 8, Workload::Ls);
        assert_eq!(tls.bisection, 8 * 16 / 4);
        assert_eq!(tls.connection, 8 * 16 / 4);
        assert_eq!(tls.distance, 16);
        let local = bounds(16, Topology::Torus, 8, Workload::Local);
        assert_eq!(local.direction, 8 * 2);
    }

    /// Both torus cut counts (all arcs, and the half arcs used beyond n =
    /// 512) equal brute force on small rings.
    #[test]
    fn torus_cuts_match_brute_force() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        for n in [2u32, 3, 4, 5, 8, 9] {
            let shape = Shape::new(n, 1, Topology::Torus).unwrap();
            let p = Problem::generate(&shape, 3, Workload::Random, 0, &mut rng).unwrap();
            let mut most = 0u64;
            for s in 0..n {
                for len in 1..n {
                    let inside = |x: u32| (x + n - s) % n < len;
                    let c = p
                        .source
                        .iter()
                        .zip(&p.dest)
                        .filter(|(&a, &b)| inside(a) && !inside(b))
                        .count();
                    most = most.max(c as u64);
                }
            }
            assert_eq!(cut_bound(&shape, &p, 0), most.div_ceil(2), "n = {n}");
            let pairs = || {
                p.source
                    .iter()
                    .zip(&p.dest)
                    .map(|(&a, &b)| (a as usize, b as usize))
            };
            let half = n / 2;
            let mut most_half = 0u64;
            for s in 0..n {
                let inside = |x: u32| (x + n - s) % n < half;
                let c = p
                    .source
                    .iter()
                    .zip(&p.dest)
                    .filter(|(&a, &b)| inside(a) && !inside(b))
                    .count();
                most_half = most_half.max(c as u64);
            }
            assert_eq!(
                half_arcs(n as usize, pairs()),
                most_half,
                "half arcs, n = {n}"
            );
            assert_eq!(all_arcs(n as usize, pairs()), most, "all arcs, n = {n}");
        }
    }
}
