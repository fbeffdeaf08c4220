use super::super::check::check;
use super::super::metrics::measure;
use super::super::parameters::ParameterError;
use super::super::twin::RealiseError;
use super::*;
use crate::network::NetworkError;

fn spec(n: u32) -> ButterflyNetSpec {
    ButterflyNetSpec::new(1 << n).unwrap()
}

/// N = 2 .. 1024: every layout is legal, realises B(n), and measures
/// exactly its closed forms, as a whole and channel by channel.
#[test]
fn legal_realising_b_n_with_the_closed_forms() {
    for n in 1..=10u32 {
        let s = spec(n);
        let big_n = s.rows();
        let laid = s.build().unwrap();
        let e = &laid.embedding;
        let c = check(e);
        assert!(
            c.is_legal(),
            "n {n}: {:?}",
            &c.violations[..c.violations.len().min(4)]
        );
        let m = measure(e);
        let f = s.forms();
        assert_eq!(c.crossings, f.crossings, "n {n}");
        assert_eq!(
            (m.width, m.height, m.area),
            (f.width, f.height, f.area),
            "n {n}"
        );
        assert_eq!(m.max_wire_length, f.longest_wire, "n {n}");
        assert_eq!(m.total_wire_length, f.total_wire_length, "n {n}");
        assert_eq!(laid.forms.check(&m, 2), Ok(()), "n {n}");
        assert_eq!(e.nodes.len() as u64, (n as u64 + 1) * big_n);
        assert_eq!(e.edges.len() as u64, 2 * n as u64 * big_n);
        // An edge's level in the metrics is the higher of its ends: the
        // links of channel l are level l + 1.
        for l in 0..n {
            let w = m.per_level[&(l + 1)];
            assert_eq!(w.edges, 2 * big_n, "n {n} channel {l}");
            assert_eq!(w.max, 5 * (1 << l) + 3, "n {n} channel {l}");
            assert_eq!(w.total, big_n * (7 * (1 << l) + 2), "n {n} channel {l}");
        }
        let want = Network::butterfly(big_n).unwrap();
        let got = Network::from_embedding(e).unwrap();
        assert_eq!(got.compare(&want), Ok(()), "n {n}");
    }
}

/// The channel widths are the density of the cross edges: counted from
/// the network alone (the most cross edges of channel l whose rows span
/// one cut between rows), it equals the tracks the layout's paths use.
#[test]
fn channels_are_as_narrow_as_the_cross_edges_allow() {
    for n in 1..=7u32 {
        let e = butterfly_layout(spec(n));
        let rows = 1u64 << n;
        let x = level_columns(n);
        for l in 0..n {
            let density = (0..rows - 1)
                .map(|cut| {
                    (0..rows)
                        .filter(|&c| {
                            let d = c ^ (1 << l);
                            c.min(d) <= cut && cut < c.max(d)
                        })
                        .count() as u64
                })
                .max()
                .unwrap();
            let mut tracks: Vec<i64> = e
                .edges
                .iter()
                .filter(|w| w.path.len() == 4 && w.path[0].x == x[l as usize])
                .map(|w| w.path[1].x)
                .collect();
            tracks.sort_unstable();
            tracks.dedup();
            assert_eq!(density, channel_tracks(l), "n {n} channel {l}");
            assert_eq!(tracks.len() as u64, density, "n {n} channel {l}");
            assert_eq!(x[l as usize + 1] - x[l as usize] - 1, density as i64);
        }
    }
}

#[test]
fn the_column_recurrence_has_the_closed_form() {
    for n in 1..=40u32 {
        let x = level_columns(n);
        for (l, &xl) in x.iter().enumerate() {
            assert_eq!(xl, l as i64 + (2i64 << l) - 2, "X_{l}");
        }
        if n <= 12 {
            assert_eq!(*x.last().unwrap() as u64 + 1, spec(n).forms().width);
        }
    }
}

/// Every link's length, read back by `link_lengths_by_level`, is its
/// path's; straight links span their channel, cross links add 3·2^l - 2
/// going up or 3·2^l + 2 going down; the levels sum to the measures.
#[test]
fn link_lengths_are_the_paths() {
    for n in 1..=7u32 {
        let e = butterfly_layout(spec(n));
        let rows = 1u64 << n;
        let got = link_lengths_by_level(&e, n).unwrap();
        assert_eq!(got.len(), n as usize);
        let m = measure(&e);
        let mut total = 0;
        for l in 0..n {
            let level = &got[l as usize];
            assert_eq!(level.len() as u64, 2 * rows);
            let across = (2u64 << l) + 1;
            for c in 0..rows {
                for kind in [LinkKind::Straight, LinkKind::Cross] {
                    let id = edge_id(n, l, c, kind);
                    let path_length = e.edges[id as usize].length();
                    assert_eq!(level[kind.index(c)], path_length);
                }
                let up = c & (1 << l) == 0;
                let vertical = if up { 3 << l } else { (3 << l) + 4 } - 2;
                assert_eq!(level[LinkKind::Straight.index(c)], across);
                assert_eq!(level[LinkKind::Cross.index(c)], across + vertical);
            }
            assert_eq!(level.iter().max(), Some(&m.per_level[&(l + 1)].max));
            total += level.iter().sum::<u64>();
        }
        assert_eq!(total, m.total_wire_length);
    }
}

#[test]
fn link_lengths_refuse_what_is_not_b_n() {
    let e = butterfly_layout(spec(3));
    // Another n: fewer nodes than the layout, or more.
    assert!(matches!(
        link_lengths_by_level(&e, 2),
        Err(RealiseError::Network(NetworkError::NodeCount {
            have: 32,
            want: 12
        }))
    ));
    for n in [4, 40, 63, 64, 1000] {
        assert!(
            matches!(
                link_lengths_by_level(&e, n),
                Err(RealiseError::Parameters(ParameterError::MoreThanLayout {
                    what: "nodes",
                    have: 32
                }))
            ),
            "n {n}"
        );
    }
    assert!(matches!(
        link_lengths_by_level(&e, 0),
        Err(RealiseError::Parameters(ParameterError::Spec(
            SpecError::ButterflyRows(1)
        )))
    ));
    // A cross edge rewired to the straight neighbour.
    let mut bad = e.clone();
    let id = edge_id(3, 1, 5, LinkKind::Cross) as usize;
    bad.edges[id].to = node_id(3, 2, 5);
    assert!(matches!(
        link_lengths_by_level(&bad, 3),
        Err(RealiseError::Network(NetworkError::Links { .. }))
    ));
    // A node at the wrong level.
    let mut bad = e.clone();
    bad.nodes[9].level = 0;
    assert!(matches!(
        link_lengths_by_level(&bad, 3),
        Err(RealiseError::Network(NetworkError::Node { id: 9, .. }))
    ));
    // Another network: the butterfly fat-tree of 16 processors (22 nodes).
    let bft = crate::layout::butterfly::butterfly_fat_tree(16).unwrap();
    assert!(link_lengths_by_level(&bft, 2).is_err());
}

#[test]
fn sizes_are_refused_before_anything_is_built() {
    for rows in [0, 1, 3, 12, 1000, u64::MAX] {
        assert_eq!(
            ButterflyNetSpec::new(rows),
            Err(SpecError::ButterflyRows(rows))
        );
        assert_eq!(
            Network::butterfly(rows).map(|_| ()),
            Err(SpecError::ButterflyRows(rows))
        );
    }
    // 4096 rows fit the checker's raster (8203 x 12288 points); 8192 do
    // not, nor does anything larger, without overflow.
    assert_eq!(ButterflyNetSpec::new(4096).map(|s| s.n()), Ok(12));
    for n in [13, 20, 40, 63] {
        assert!(
            matches!(
                ButterflyNetSpec::new(1 << n),
                Err(SpecError::AreaBeyondChecker {
                    max_points: MAX_POINTS,
                    ..
                })
            ),
            "n {n}"
        );
    }
    // Node ids are 32 bits: 2^28 rows make 29 · 2^28 nodes.
    assert!(matches!(
        Network::butterfly(1 << 28),
        Err(SpecError::TooManyNodes { limit_lg: 32, .. })
    ));
}

/// A layout file's `rows` names the network it must realise; rows that
/// describe more than the file are refused without building them.
#[test]
fn the_file_parameters_name_the_intended_butterfly() {
    let e = butterfly_layout(spec(2));
    assert_eq!(Network::realised_by(&e), Ok(Some("butterfly".to_string())));
    let with_rows = |rows: &str| {
        let mut x = e.clone();
        x.parameters.insert("rows".into(), rows.into());
        Network::realised_by(&x)
    };
    assert!(matches!(
        with_rows("2"),
        Err(RealiseError::Network(NetworkError::NodeCount { .. }))
    ));
    assert_eq!(
        with_rows("6"),
        Err(RealiseError::Parameters(ParameterError::Spec(
            SpecError::ButterflyRows(6)
        )))
    );
    for rows in ["8", "1099511627776", "9223372036854775808"] {
        assert_eq!(
            with_rows(rows),
            Err(RealiseError::Parameters(ParameterError::MoreThanLayout {
                what: "nodes",
                have: 12
            })),
            "{rows}"
        );
    }
}
