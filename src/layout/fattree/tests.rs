use super::super::check::check;
use super::super::metrics::measure;
use super::*;

fn spec(n: u64, capacity: Capacity) -> FatTreeSpec {
    FatTreeSpec {
        processors: n,
        capacity,
        omega: 1,
        alpha: 1,
    }
}

#[test]
fn htree_side_area_and_wire_length() {
    for (k, area, total) in [(1u32, 9u64, 6u64), (2, 49, 36), (3, 225, 168)] {
        let n = 4u64.pow(k);
        let (e, r) = fat_tree(&spec(n, Capacity::One)).unwrap();
        let c = check(&e);
        assert!(c.is_legal(), "{:?}", c.violations);
        let m = measure(&e);
        assert_eq!(m.width, 2 * (1 << k) - 1);
        assert_eq!(m.area, area);
        assert_eq!(m.total_wire_length, total);
        assert_eq!(r.sides[k as usize], m.width);
        assert_eq!(e.nodes.len() as u64, 2 * n - 1);
    }
}

#[test]
fn spec_table_of_sides() {
    // Worked values: c = ceil(sqrt p / lg A) gives 3, 7, 16, 32, 68, 140.
    let sides: Vec<u64> = (1..=6)
        .map(|k| {
            *fat_tree(&spec(4u64.pow(k), Capacity::SqrtOverLg))
                .unwrap()
                .1
                .sides
                .last()
                .unwrap()
        })
        .collect();
    assert_eq!(sides, vec![3, 7, 16, 32, 68, 140]);
    // ceil(sqrt p): 4, 12, 32, 80.
    let sides: Vec<u64> = (1..=4)
        .map(|k| {
            *fat_tree(&spec(4u64.pow(k), Capacity::Sqrt))
                .unwrap()
                .1
                .sides
                .last()
                .unwrap()
        })
        .collect();
    assert_eq!(sides, vec![4, 12, 32, 80]);
    // omega = 2: 6, 14, 32, 64 and 8, 24, 64, 160.
    for (cap, want) in [
        (Capacity::SqrtOverLg, [6, 14, 32, 64]),
        (Capacity::Sqrt, [8, 24, 64, 160]),
    ] {
        let sides: Vec<u64> = (1..=4)
            .map(|k| {
                let mut s = spec(4u64.pow(k), cap.clone());
                s.omega = 2;
                *fat_tree(&s).unwrap().1.sides.last().unwrap()
            })
            .collect();
        assert_eq!(sides, want);
    }
    // Processors of area 16 in a tree of 64: S = 4, 10, 23, 52.
    let mut s = spec(64, Capacity::SqrtOverLg);
    s.alpha = 16;
    assert_eq!(fat_tree(&s).unwrap().1.sides, vec![4, 10, 23, 52]);
}

#[test]
fn wires_have_the_lengths_of_the_spec() {
    // Every bundle wire at level j has length S_{j-2} + 1 (S_{-1} = 0).
    let (e, r) = fat_tree(&spec(256, Capacity::Sqrt)).unwrap();
    let m = measure(&e);
    for (level, w) in &m.per_level {
        let j = level.div_ceil(2);
        let want = if j >= 2 {
            r.sides[j as usize - 2] + 1
        } else {
            1
        };
        assert_eq!(w.max, want, "level {level}");
        assert_eq!(w.total, w.edges * want, "level {level}");
    }
}

#[test]
fn bad_parameters_are_refused() {
    assert!(fat_tree(&spec(8, Capacity::One)).is_err());
    assert!(fat_tree(&spec(16, Capacity::Table(vec![1, 2, 1, 2, 3]))).is_err());
    assert!(fat_tree(&spec(16, Capacity::Table(vec![1, 1, 2]))).is_err());
    assert!(Capacity::parse("table:1,x").is_err());
    assert_eq!(
        Capacity::parse("table:1,2").unwrap(),
        Capacity::Table(vec![1, 2])
    );
}
