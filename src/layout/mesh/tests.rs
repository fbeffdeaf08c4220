use super::*;
use crate::layout::check::check;
use crate::layout::metrics::measure;
use crate::layout::parameters::ParameterError;
use crate::layout::twin::RealiseError;
use crate::network::{NetworkError, NodeId};

const TOPOLOGIES: [Topology; 2] = [Topology::Mesh, Topology::Torus];

/// The sides the tests build for each topology and dimensions: every side
/// from the least to 9, both parities of the folding, and a few larger.
fn sides(t: Topology, dims: Dims) -> Vec<u64> {
    let least = t.least_side();
    let larger: &[u64] = match dims {
        Dims::One => &[16, 31, 64, 100],
        Dims::Two => &[16, 31, 32],
        Dims::Three => &[12, 13],
    };
    (least..=9).chain(larger.iter().copied()).collect()
}

fn spec(t: Topology, n: u64, dims: Dims) -> MeshSpec {
    MeshSpec::new(t, n, dims).unwrap()
}

/// The coordinates of node `v` of side `n` in `d` dimensions, computed
/// apart from the construction.
fn coordinates(v: u64, n: u64, d: u32) -> Vec<u64> {
    (0..d).map(|a| v / n.pow(a) % n).collect()
}

#[test]
fn layouts_are_legal_and_measure_their_closed_forms() {
    for t in TOPOLOGIES {
        for dims in Dims::ALL {
            for n in sides(t, dims) {
                let s = spec(t, n, dims);
                let e = mesh_layout(s);
                let v = check(&e);
                assert!(
                    v.is_legal(),
                    "{t:?} {n} {dims:?}: {:?}",
                    &v.violations[..3.min(v.violations.len())]
                );
                let m = measure(&e);
                let f = s.forms();
                let what = format!("{t:?} n {n} {dims:?}");
                assert_eq!(
                    (m.width, m.height, m.depth, m.area),
                    (f.width, f.height, f.depth, f.area),
                    "{what}"
                );
                assert_eq!(m.max_wire_length, f.longest_wire, "{what}");
                assert_eq!(m.total_wire_length, f.total_wire_length, "{what}");
                assert_eq!(v.crossings, f.crossings, "{what}");
                // The placement's extents are the closed forms too.
                let g = Geometry::new(s);
                assert_eq!(
                    [g.extent(0), g.extent(1), g.extent(2)],
                    [f.width, f.height, f.depth],
                    "{what}"
                );
                assert_eq!(e.dimensions, dims.layout_dimensions());
                // The construction's forms hold against the measures.
                let laid = s.build().unwrap();
                assert_eq!(laid.embedding, e);
                assert_eq!(laid.forms.check(&m, e.dimensions), Ok(()), "{what}");
            }
        }
    }
}

#[test]
fn networks_are_the_mesh_and_the_torus() {
    for t in TOPOLOGIES {
        for dims in Dims::ALL {
            let d = dims.count();
            for n in sides(t, dims) {
                let e = mesh_layout(spec(t, n, dims));
                let what = format!("{t:?} n {n} {dims:?}");
                let nodes = n.pow(d);
                let links = match t {
                    Topology::Mesh => d as u64 * n.pow(d - 1) * (n - 1),
                    Topology::Torus => d as u64 * n.pow(d),
                };
                assert_eq!(e.nodes.len() as u64, nodes, "{what}");
                assert_eq!(e.edges.len() as u64, links, "{what}");
                assert!(e
                    .nodes
                    .iter()
                    .all(|x| x.kind == "processor" && x.level == 0));
                // Every edge joins nodes one apart (modulo n for the
                // torus) in exactly one coordinate.
                for x in &e.edges {
                    let (a, b) = (
                        coordinates(x.from as u64, n, d),
                        coordinates(x.to as u64, n, d),
                    );
                    let apart: Vec<u64> = a.iter().zip(&b).map(|(p, q)| p.abs_diff(*q)).collect();
                    let moved: Vec<&u64> = apart.iter().filter(|&&k| k != 0).collect();
                    assert_eq!(moved.len(), 1, "{what}: edge {}", x.id);
                    let ok = *moved[0] == 1 || (t == Topology::Torus && *moved[0] == n - 1);
                    assert!(ok, "{what}: edge {} joins {a:?} and {b:?}", x.id);
                }
                // Degrees: 2d in the torus; in the mesh, one per axis
                // and side the node is not on the boundary of.
                let got = Network::from_embedding(&e).unwrap();
                for v in 0..nodes {
                    let want = match t {
                        Topology::Torus => 2 * d as usize,
                        Topology::Mesh => coordinates(v, n, d)
                            .iter()
                            .map(|&i| (i > 0) as usize + (i + 1 < n) as usize)
                            .sum(),
                    };
                    assert_eq!(got.links_at(NodeId(v as u32)).len(), want, "{what}");
                }
                // The twin, from the parameters alone, and the file's.
                let twin = Network::mesh_or_torus(t, n, dims).unwrap();
                assert_eq!(got.compare(&twin), Ok(()), "{what}");
                let intended = Network::intended(&e).unwrap().unwrap();
                assert_eq!(got.compare(&intended), Ok(()), "{what}");
                assert_eq!(intended.name, t.name());
                assert_eq!(Network::realised_by(&e), Ok(Some(t.name().into())));
            }
        }
    }
}

#[test]
fn the_torus_longest_wire_does_not_grow_with_n() {
    // The task's example: n = 64 in the plane, as long as n = 8.
    let longest = |n, dims| measure(&mesh_layout(spec(Topology::Torus, n, dims))).max_wire_length;
    assert_eq!(longest(64, Dims::Two), longest(8, Dims::Two));
    assert_eq!(longest(64, Dims::Two), 10);
    assert_eq!(longest(1000, Dims::One), 10);
    assert_eq!(longest(24, Dims::Three), longest(3, Dims::Three));
    for dims in Dims::ALL {
        for n in sides(Topology::Torus, dims) {
            let s = spec(Topology::Torus, n, dims);
            assert_eq!(s.forms().longest_wire, TORUS_CHAIN_WIRE);
            // Every wire spans two node pitches at most: a chain link is
            // 10 long, an end link 3, two end links per ring.
            let lengths = link_lengths(&mesh_layout(s), Topology::Torus, n, dims).unwrap();
            for axis in &lengths {
                let ends = axis.iter().filter(|&&l| l == Some(TORUS_END_WIRE)).count();
                let chains = axis
                    .iter()
                    .filter(|&&l| l == Some(TORUS_CHAIN_WIRE))
                    .count();
                let rings = n.pow(dims.count() - 1) as usize;
                assert_eq!((ends, chains), (2 * rings, (n as usize - 2) * rings));
            }
        }
    }
}

#[test]
fn the_folding_interleaves_the_ring() {
    // Positions 0 .. n-1 hold ring nodes 0, n-1, 1, n-2, ...
    for (n, order) in [
        (3, vec![0, 2, 1]),
        (6, vec![0, 5, 1, 4, 2, 3]),
        (7, vec![0, 6, 1, 5, 2, 4, 3]),
    ] {
        let mut at = vec![0; n as usize];
        for k in 0..n {
            at[fold(n, k) as usize] = k;
        }
        assert_eq!(at, order, "n {n}");
        // Ring neighbours, the wrap-around link too, are one or two
        // positions apart.
        for k in 0..n {
            let step = fold(n, k).abs_diff(fold(n, (k + 1) % n));
            assert!((1..=2).contains(&step), "n {n} k {k}");
        }
    }
}

#[test]
fn link_lengths_of_a_mesh_and_their_refusals() {
    let s = spec(Topology::Mesh, 5, Dims::Two);
    let e = mesh_layout(s);
    let lengths = link_lengths(&e, Topology::Mesh, 5, Dims::Two).unwrap();
    for (a, axis) in lengths.iter().enumerate() {
        for (v, l) in axis.iter().enumerate() {
            let last = coordinates(v as u64, 5, 2)[a] == 4;
            assert_eq!(*l, if last { None } else { Some(1) }, "axis {a} node {v}");
        }
    }
    // Another side, another topology or dimensions, a rewired edge.
    assert!(matches!(
        link_lengths(&e, Topology::Mesh, 6, Dims::Two),
        Err(RealiseError::Parameters(
            ParameterError::MoreThanLayout { .. }
        ))
    ));
    assert!(matches!(
        link_lengths(&e, Topology::Mesh, 4, Dims::Two),
        Err(RealiseError::Network(NetworkError::NodeCount { .. }))
    ));
    assert!(link_lengths(&e, Topology::Torus, 5, Dims::Two).is_err());
    assert!(link_lengths(&e, Topology::Mesh, 25, Dims::One).is_err());
    assert_eq!(
        link_lengths(&e, Topology::Mesh, 1, Dims::Two),
        Err(RealiseError::Parameters(SpecError::MeshSide(1).into()))
    );
    let mut rewired = e.clone();
    rewired.edges[0].to = 24;
    assert!(matches!(
        link_lengths(&rewired, Topology::Mesh, 5, Dims::Two),
        Err(RealiseError::Network(_))
    ));
}

#[test]
fn bad_sides_and_sizes_are_refused_before_anything_is_built() {
    for n in [0, 1] {
        assert_eq!(
            MeshSpec::new(Topology::Mesh, n, Dims::Two),
            Err(SpecError::MeshSide(n))
        );
    }
    for n in [0, 1, 2] {
        assert_eq!(
            MeshSpec::new(Topology::Torus, n, Dims::Three),
            Err(SpecError::TorusSide(n))
        );
        assert_eq!(
            Network::mesh_or_torus(Topology::Torus, n, Dims::One).unwrap_err(),
            SpecError::TorusSide(n)
        );
    }
    // The mesh of side 2 is the torus of side 2 without its doubled links.
    assert!(MeshSpec::new(Topology::Mesh, 2, Dims::Three).is_ok());
    // Past the checker's raster (2^28 points), before anything is built.
    assert_eq!(
        MeshSpec::new(Topology::Mesh, 16_385, Dims::Two),
        Err(SpecError::AreaBeyondChecker {
            width: 16_385,
            height: 16_385,
            max_points: MAX_POINTS
        })
    );
    assert!(MeshSpec::new(Topology::Mesh, 16_384, Dims::Two).is_ok());
    assert!(MeshSpec::new(Topology::Torus, 129, Dims::Three).is_ok());
    assert_eq!(
        MeshSpec::new(Topology::Torus, 130, Dims::Three),
        Err(SpecError::BeyondChecker {
            side: 650,
            max_points: MAX_POINTS
        })
    );
    assert!(MeshSpec::new(Topology::Torus, u64::MAX, Dims::One).is_err());
    assert!(MeshSpec::new(Topology::Mesh, u64::MAX, Dims::Three).is_err());
    // Counts past u64 are None; networks past 32-bit ids are refused.
    assert_eq!(Topology::Mesh.counts(1 << 22, Dims::Three), None);
    assert_eq!(Topology::Torus.counts(4, Dims::Three), Some((64, 192)));
    assert!(matches!(
        Network::mesh_or_torus(Topology::Mesh, 1 << 11, Dims::Three),
        Err(SpecError::TooManyNodes { limit_lg: 32, .. })
    ));
}

#[test]
fn file_parameters_describe_the_network_or_are_refused() {
    let e = mesh_layout(spec(Topology::Torus, 4, Dims::Two));
    let with = |k: &str, v: &str| {
        let mut f = e.clone();
        f.parameters.insert(k.into(), v.into());
        Network::intended(&f).unwrap()
    };
    assert_eq!(
        with("dims", "4").unwrap_err(),
        ParameterError::Spec(SpecError::MeshDims(4))
    );
    assert_eq!(
        with("side", "2").unwrap_err(),
        ParameterError::Spec(SpecError::TorusSide(2))
    );
    assert!(matches!(
        with("side", "5").unwrap_err(),
        ParameterError::MoreThanLayout { what: "nodes", .. }
    ));
    assert!(matches!(
        with("side", "4000000000").unwrap_err(),
        ParameterError::MoreThanLayout { .. }
    ));
    assert_eq!(
        with("dims", "x").unwrap_err(),
        ParameterError::NotANumber("dims".into())
    );
    // One dimension of 16 nodes: as many nodes, but fewer links than the
    // file, and not its network.
    let line = with("side", "16");
    assert!(line.is_err());
    let mut f = e.clone();
    f.parameters.insert("dims".into(), "1".into());
    f.parameters.insert("side".into(), "16".into());
    let want = Network::intended(&f).unwrap().unwrap();
    assert!(Network::from_embedding(&e).unwrap().compare(&want).is_err());
    let mut f = e.clone();
    f.parameters.remove("side");
    assert_eq!(
        Network::intended(&f).unwrap().unwrap_err(),
        ParameterError::Missing("side".into())
    );
    // The mesh's file read as a torus: too few links.
    let mut f = mesh_layout(spec(Topology::Mesh, 4, Dims::Two));
    f.network = NetworkName::Torus;
    assert!(matches!(
        Network::intended(&f).unwrap().unwrap_err(),
        ParameterError::MoreThanLayout { what: "links", .. }
    ));
}
