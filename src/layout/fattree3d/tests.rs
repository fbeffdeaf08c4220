use super::*;
use crate::layout::check::check;
use crate::layout::metrics::measure;
use crate::network::Network;

fn spec(n: u64, capacity: Capacity, omega: u64) -> FatTree3dSpec {
    FatTree3dSpec {
        processors: n,
        capacity,
        omega,
    }
}

#[test]
fn legal_and_realises_the_binary_fat_tree() {
    for cap in [
        Capacity::TwoThirdsOverLg,
        Capacity::TwoThirds,
        Capacity::One,
        Capacity::Doubling,
        Capacity::Sqrt,
    ] {
        for omega in [1, 2] {
            for n in [1u64, 8, 64, 512] {
                let s = spec(n, cap.clone(), omega);
                let (e, plan) = fat_tree_3d(&s).unwrap();
                let v = check(&e);
                assert!(
                    v.is_legal(),
                    "{cap:?} {omega} {n}: {:?}",
                    &v.violations[..3.min(v.violations.len())]
                );
                let m = measure(&e);
                let side = *plan.sides.last().unwrap();
                assert_eq!(
                    (m.width, m.height, m.depth),
                    (side, side, side),
                    "{cap:?} {n}"
                );
                assert_eq!(m.max_wire_length, longest_wire(&plan), "{cap:?} {n}");
                let want = Network::intended(&e).unwrap().unwrap();
                Network::from_embedding(&e).unwrap().compare(&want).unwrap();
            }
        }
    }
}

#[test]
fn volume_over_v_stays_bounded_far_beyond_what_fits_in_memory() {
    // The plan is the layout's exact side (the layout tests check
    // side == plan); here it runs to V = 8^20.
    let mut ratios = Vec::new();
    for k in 1..=20u32 {
        let s = spec(8u64.pow(k), Capacity::TwoThirdsOverLg, 1);
        let plan = s.plan().unwrap();
        let side = *plan.sides.last().unwrap() as f64;
        ratios.push(side.powi(3) / 8f64.powi(k as i32));
    }
    eprintln!("{ratios:.2?}");
    assert!(ratios.iter().all(|&r| r <= 16.0), "{ratios:?}");
}

#[test]
fn theorem_25_shape_for_root_capacity_v_to_the_two_thirds() {
    // c(p) = p^(2/3): w = V^(2/3) and (w lg(V/w))^(3/2) = V (lg V / 3)^(3/2).
    let mut ratios = Vec::new();
    for k in 2..=20u32 {
        let s = spec(8u64.pow(k), Capacity::TwoThirds, 1);
        let plan = s.plan().unwrap();
        let side = *plan.sides.last().unwrap() as f64;
        let v = 8f64.powi(k as i32);
        ratios.push(side.powi(3) / (v * (k as f64).powf(1.5)));
    }
    eprintln!("{ratios:.2?}");
    assert!(ratios.iter().all(|&r| r <= 40.0), "{ratios:?}");
}

#[test]
fn tables_bad_parameters_and_huge_inputs() {
    // Capacity tables, monotone or not, shrinking too: legal layouts.
    for table in [
        vec![1, 3, 1, 2, 5, 2, 9],
        vec![4, 1, 1, 1, 1, 1, 1],
        vec![1, 9, 9, 30, 30, 30, 64],
        vec![2, 2, 8, 1, 1, 40, 3],
    ] {
        for omega in [1, 2] {
            let s = spec(64, Capacity::Table(table.clone()), omega);
            let (e, plan) = fat_tree_3d(&s).unwrap();
            let v = check(&e);
            assert!(
                v.is_legal(),
                "{table:?} {omega}: {:?}",
                &v.violations[..3.min(v.violations.len())]
            );
            let want = Network::intended(&e).unwrap().unwrap();
            Network::from_embedding(&e).unwrap().compare(&want).unwrap();
            // The gaps are the least that fit.
            for j in 1..plan.sides.len() {
                let t2 = plan.tracks[3 * j - 2];
                let t34 = plan.tracks[3 * j - 1].max(plan.tracks[3 * j]);
                let (s1, l1) = (plan.sides[j - 1], plan.bands[j - 1]);
                assert!(fits(s1, l1, t2, t34, plan.gaps[j]).is_some());
                assert!(plan.gaps[j] == 1 || fits(s1, l1, t2, t34, plan.gaps[j] - 1).is_none());
            }
        }
    }
    // Errors, not panics or hangs.
    for (cap, omega) in [
        (Capacity::One, 3),
        (Capacity::One, 0),
        (Capacity::Table(vec![1, 0, 1, 1]), 1),
        (Capacity::Table(vec![1, 1]), 1),
        (Capacity::Table(vec![u64::MAX / 2 + 1, 1, 1, 1]), 2),
        (Capacity::Table(vec![u64::MAX, 1, 1, 1]), 1),
        (Capacity::Table(vec![1, 100_000_000_000_000, 1, 1]), 1),
    ] {
        assert!(
            spec(8, cap.clone(), omega).plan().is_err() || {
                // Plannable but too large to build and check.
                fat_tree_3d(&spec(8, cap.clone(), omega)).is_err()
            },
            "{cap:?} {omega}"
        );
    }
    assert!(fat_tree_3d(&spec(
        8,
        Capacity::Table(vec![1, 1, 1, 1_000_000_000_000]),
        1
    ))
    .is_err());
}

#[test]
fn sizes_other_than_powers_of_eight_are_refused() {
    for n in [0u64, 2, 4, 16, 100] {
        assert!(spec(n, Capacity::One, 1).plan().is_err(), "{n}");
    }
}
