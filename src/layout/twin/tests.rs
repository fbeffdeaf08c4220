use super::*;
use crate::layout::fattree::{fat_tree, Capacity, FatTreeSpec};
use crate::layout::tree_of_meshes::tree_of_meshes;

/// The link count [`Network::intended`] checks before building a
/// fat-tree against the links the construction makes.
#[test]
fn binary_fat_tree_links_are_the_links_built() {
    let mut checked = 0;
    for n in [1u64, 2, 4, 16, 64, 256] {
        for capacity in ["one", "sqrt", "doubling", "sqrt-over-lg"] {
            let spec = FatTreeSpec {
                processors: n,
                capacity: Capacity::parse(capacity).unwrap(),
                omega: 1,
                alpha: 1,
            };
            let Ok(tracks) = Network::fat_tree_tracks(&spec) else {
                continue;
            };
            let built = Network::binary_fat_tree("t", n, &tracks).link_count() as u64;
            assert_eq!(
                Network::binary_fat_tree_links(n, &tracks),
                Some(built),
                "{n} {capacity}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 15, "{checked} fat-trees checked");
    assert_eq!(
        Network::binary_fat_tree_links(1 << 40, &[u64::MAX; 41]),
        None
    );
}

/// The link count [`Network::intended`] checks before building a
/// fat-pyramid against the links the construction makes, down to one
/// butterfly level (no mesh, whatever the mesh capacity).
#[test]
fn fat_pyramid_links_are_the_links_built() {
    use crate::layout::pyramid::PyramidSpec;
    let mut meshes = 0;
    for n in [4u64, 16, 64, 256, 1024, 4096, 16384] {
        let default = PyramidSpec::new(n).unwrap();
        for beta in 0..n.trailing_zeros() / 2 {
            for mesh_capacity in [1, 2, 6] {
                let spec = PyramidSpec {
                    beta,
                    mesh_capacity,
                    ..default
                };
                let built = Network::fat_pyramid(&spec).link_count() as u64;
                assert_eq!(
                    Network::fat_pyramid_links(&spec),
                    Some(built),
                    "n {n} beta {beta} kappa {mesh_capacity}"
                );
                meshes += usize::from(spec.k() >= 2);
            }
        }
    }
    assert!(meshes >= 20, "{meshes} pyramids with meshes");
}

#[test]
fn layouts_realise_their_networks() {
    for capacity in [
        Capacity::One,
        Capacity::Sqrt,
        Capacity::SqrtOverLg,
        Capacity::Doubling,
    ] {
        for k in 1..=4 {
            let spec = FatTreeSpec {
                processors: 4u64.pow(k),
                capacity: capacity.clone(),
                omega: 2,
                alpha: 1,
            };
            let (e, _) = fat_tree(&spec).unwrap();
            let got = Network::from_embedding(&e).unwrap();
            let want = Network::intended(&e).unwrap().unwrap();
            assert_eq!(got.compare(&want), Ok(()), "{capacity:?} k {k}");
            assert_eq!(want.processors().len() as u64, spec.processors);
        }
    }
    for capacity in [
        Capacity::Sqrt,
        Capacity::SqrtOverLg,
        Capacity::Table(vec![1, 1, 2, 2, 3, 4, 6, 8, 9]),
    ] {
        for n in [4u64, 16, 64, 256] {
            let e = crate::layout::butterfly::scalable_fat_tree(n, &capacity).unwrap();
            let got = Network::from_embedding(&e).unwrap();
            let want = Network::intended(&e).unwrap().unwrap();
            assert_eq!(got.compare(&want), Ok(()), "scalable {capacity:?} n {n}");
        }
    }
    for n in [4u64, 16, 64, 256] {
        let e = crate::layout::butterfly::butterfly_fat_tree(n).unwrap();
        let got = Network::from_embedding(&e).unwrap();
        let want = Network::intended(&e).unwrap().unwrap();
        assert_eq!(got.compare(&want), Ok(()), "butterfly n {n}");
    }
    for (n, l) in [(2u64, 2u32), (4, 4), (8, 2), (8, 6)] {
        let e = tree_of_meshes(n, Some(l)).unwrap();
        let got = Network::from_embedding(&e).unwrap();
        let want = Network::intended(&e).unwrap().unwrap();
        assert_eq!(got.compare(&want), Ok(()), "n {n} l {l}");
    }
}

#[test]
fn a_rewired_layout_is_caught() {
    let spec = FatTreeSpec {
        processors: 16,
        capacity: Capacity::Sqrt,
        omega: 1,
        alpha: 1,
    };
    let (mut e, _) = fat_tree(&spec).unwrap();
    let want = Network::intended(&e).unwrap().unwrap();
    // Move one wire to another parent.
    let last = e.edges.len() - 1;
    e.edges[last].to = e.edges[0].to;
    let got = Network::from_embedding(&e).unwrap();
    assert!(got.compare(&want).is_err());
    // Drop a wire of a channel.
    let (mut e, _) = fat_tree(&spec).unwrap();
    e.edges.pop();
    assert!(Network::from_embedding(&e).unwrap().compare(&want).is_err());
}

#[test]
fn fat_tree_channels_have_the_capacity_of_their_level() {
    let spec = FatTreeSpec {
        processors: 64,
        capacity: Capacity::Table(vec![1, 1, 2, 2, 3, 4, 6]),
        omega: 1,
        alpha: 1,
    };
    let net = Network::fat_tree(&spec).unwrap();
    // Every non-root node has as many links up as c(its leaves).
    for id in 0..net.node_count() as u32 {
        let node = net.node(NodeId(id));
        let up = net
            .links_at(NodeId(id))
            .iter()
            .filter(|&&l| net.node(net.other_end(l, NodeId(id))).level > node.level)
            .count();
        let want = if node.level == 6 {
            0
        } else {
            [1, 1, 2, 2, 3, 4, 6][node.level as usize]
        };
        assert_eq!(up, want, "node {id}");
    }
}
