use super::*;

/// Crossing pairs by definition: two nets cross when some four of
/// their terminals alternate a, b, a, b around the cycle.
fn pairs_by_definition(seq: &[NetId], nets: usize) -> Vec<(NetId, NetId)> {
    let mut out = Vec::new();
    for a in 0..nets as u32 {
        for b in a + 1..nets as u32 {
            let only: Vec<u32> = seq
                .iter()
                .map(|n| n.0)
                .filter(|&n| n == a || n == b)
                .collect();
            let changes = (0..only.len())
                .filter(|&i| only[i] != only[(i + 1) % only.len()])
                .count();
            if changes >= 4 {
                out.push((NetId(a), NetId(b)));
            }
        }
    }
    out
}

/// The events the stack walk visits, counted by walking it.
fn events_by_walking(seq: &[NetId], nets: usize) -> u64 {
    let (first, last) = ends(seq, nets);
    let (mut stack, mut events) = (Vec::new(), 0u64);
    for (i, &n) in seq.iter().enumerate() {
        if i != first[n.index()] {
            let k = stack.iter().rposition(|&m| m == n).unwrap();
            events += (stack.len() - 1 - k) as u64;
            stack.remove(k);
        }
        if i != last[n.index()] {
            stack.push(n);
        }
    }
    events
}

#[test]
fn both_pair_sets_list_the_same_pairs() {
    let pairs = [(0u32, 5u32), (2, 3), (0, 5), (4, 6), (1, 2), (2, 3)];
    let mut bits = PairSet::new(7);
    let mut hashed = PairSet::Hashed(Default::default());
    assert!(matches!(bits, PairSet::Bits { .. }));
    assert!(matches!(PairSet::new(30_000), PairSet::Hashed(_)));
    for (a, b) in pairs {
        bits.insert((NetId(a), NetId(b)));
        hashed.insert((NetId(a), NetId(b)));
    }
    let want: Vec<(NetId, NetId)> = [(0, 5), (1, 2), (2, 3), (4, 6)]
        .iter()
        .map(|&(a, b)| (NetId(a), NetId(b)))
        .collect();
    assert_eq!(bits.into_sorted(), want);
    assert_eq!(hashed.into_sorted(), want);
}

#[test]
fn crossing_pairs_and_events_agree_with_the_definition() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for _ in 0..2000 {
        let nets = rng.gen_range(1..8usize);
        let len = rng.gen_range(2 * nets..4 * nets + 3);
        let mut seq: Vec<NetId> = (0..nets as u32)
            .flat_map(|n| [NetId(n), NetId(n)])
            .collect();
        while seq.len() < len {
            seq.push(NetId(rng.gen_range(0..nets as u32)));
        }
        for i in (1..seq.len()).rev() {
            seq.swap(i, rng.gen_range(0..=i));
        }
        assert_eq!(
            crossing_pairs_of_sequence(&seq, nets),
            pairs_by_definition(&seq, nets),
            "{seq:?}"
        );
        assert_eq!(
            crossing_events_of_sequence(&seq, nets),
            events_by_walking(&seq, nets),
            "{seq:?}"
        );
    }
}

fn problem(top: &[u32], bottom: &[u32]) -> ChannelProblem {
    ChannelProblem::from_rows("t", top, bottom, &[], &[]).unwrap()
}

#[test]
fn density_skips_single_column_nets() {
    // Net 3 is top and bottom of column 2 only.
    let p = problem(&[1, 2, 3, 0], &[0, 1, 3, 2]);
    assert_eq!(density_profile(&p), vec![1, 2, 1, 1]);
    assert_eq!(density(&p), 2);
}

#[test]
fn vcg_drops_duplicate_edges() {
    let p = problem(&[1, 1, 2], &[2, 2, 0]);
    assert_eq!(vertical_constraint_graph(&p).edge_count(), 1);
}

#[test]
fn two_cycle_is_found() {
    // top[1]=A, bot[1]=B, top[2]=B, bot[2]=A
    let p = problem(&[1, 2], &[2, 1]);
    let a = analyze(&p, 2);
    assert_eq!(a.cyclic_components.len(), 1);
    assert_eq!(a.longest_path, None);
    assert_eq!(a.example_cycle.as_ref().map(Vec::len), Some(2));
}

/// Brute force: nets a, b cross iff the cyclic sequence restricted to
/// them changes label at least four times.
fn crosses_brute(seq: &[NetId], a: NetId, b: NetId) -> bool {
    let sub: Vec<NetId> = seq.iter().copied().filter(|&n| n == a || n == b).collect();
    if sub.is_empty() {
        return false;
    }
    let changes = (0..sub.len())
        .filter(|&i| sub[i] != sub[(i + 1) % sub.len()])
        .count();
    changes >= 4
}

#[test]
fn stack_crossings_equal_brute_force() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for _ in 0..2000 {
        let nets = rng.gen_range(1..7usize);
        let len = rng.gen_range(0..14usize);
        let seq: Vec<NetId> = (0..len)
            .map(|_| NetId(rng.gen_range(0..nets as u32)))
            .collect();
        let fast = crossing_pairs_of_sequence(&seq, nets);
        let mut slow = Vec::new();
        for a in 0..nets as u32 {
            for b in a + 1..nets as u32 {
                if crosses_brute(&seq, NetId(a), NetId(b)) {
                    slow.push((NetId(a), NetId(b)));
                }
            }
        }
        assert_eq!(fast, slow, "sequence {seq:?}");
    }
}

#[test]
fn river_channel_is_planar_and_crossed_channel_is_not() {
    // Nets go straight across: no crossing.
    assert!(crossing_pairs(&problem(&[1, 2, 3], &[1, 2, 3])).is_empty());
    // 1 from top-left to bottom-right, 2 from bottom-left to top-right.
    let pairs = crossing_pairs(&problem(&[1, 2], &[2, 1]));
    assert_eq!(pairs, vec![(NetId(0), NetId(1))]);
}

#[test]
fn side_terminals_order_avoids_needless_crossings() {
    // Nets 1 and 2 both leave to the right; 1 from the top, 2 from the
    // bottom: with 2 below 1 on the right side they need not cross.
    let p = ChannelProblem::from_rows("t", &[1, 0], &[0, 2], &[], &[1, 2]).unwrap();
    assert!(crossing_pairs(&p).is_empty());
    let p = ChannelProblem::from_rows("t", &[0, 1], &[2, 0], &[1, 2], &[]).unwrap();
    assert!(crossing_pairs(&p).is_empty());
    // Feed-throughs on parallel tracks, in any order of the side lists.
    for (left, right) in [([2, 3], [2, 3]), ([3, 2], [2, 3]), ([2, 3], [3, 2])] {
        let p = ChannelProblem::from_rows("t", &[1, 1], &[0, 0], &left, &right).unwrap();
        assert!(crossing_pairs(&p).is_empty(), "{left:?} {right:?}");
    }
}

/// The crossing pairs for every order of the side slots, brute force:
/// the heuristic order must never be worse than the best one.
#[test]
fn side_order_is_never_worse_than_the_best_permutation() {
    use rand::{Rng, SeedableRng};
    fn permutations(v: &[NetId]) -> Vec<Vec<NetId>> {
        if v.len() <= 1 {
            return vec![v.to_vec()];
        }
        let mut out = Vec::new();
        for i in 0..v.len() {
            let mut rest = v.to_vec();
            let x = rest.remove(i);
            for mut p in permutations(&rest) {
                p.insert(0, x);
                out.push(p);
            }
        }
        out
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
    let mut tested = 0;
    for _ in 0..3000 {
        let c = rng.gen_range(1..6usize);
        let nets = rng.gen_range(1..6u32);
        let cell = |rng: &mut rand_chacha::ChaCha8Rng| {
            if rng.gen_bool(0.4) {
                0
            } else {
                rng.gen_range(1..=nets)
            }
        };
        let top: Vec<u32> = (0..c).map(|_| cell(&mut rng)).collect();
        let bottom: Vec<u32> = (0..c).map(|_| cell(&mut rng)).collect();
        let pick = |rng: &mut rand_chacha::ChaCha8Rng| -> Vec<u32> {
            (1..=nets).filter(|_| rng.gen_bool(0.3)).collect()
        };
        let left = pick(&mut rng);
        let right = pick(&mut rng);
        let Ok(p) = ChannelProblem::from_rows("t", &top, &bottom, &left, &right) else {
            continue;
        };
        tested += 1;
        let ours = crossing_pairs(&p).len();
        let bottom_seq: Vec<NetId> = p.bottom().iter().flatten().copied().collect();
        let top_seq: Vec<NetId> = p.top().iter().rev().flatten().copied().collect();
        let mut best = usize::MAX;
        for r in permutations(p.right()) {
            for l in permutations(p.left()) {
                let mut seq = bottom_seq.clone();
                seq.extend(&r);
                seq.extend(&top_seq);
                seq.extend(&l);
                best = best.min(crossing_pairs_of_sequence(&seq, p.nets().len()).len());
            }
        }
        assert!(
            ours <= best,
            "top {top:?} bottom {bottom:?} left {left:?} right {right:?}: {ours} > {best}"
        );
    }
    assert!(tested > 100, "only {tested} valid cases");
}
