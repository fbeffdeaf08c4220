//! Unit tests of routed channels: lengths, via conventions, sorting.

use super::*;

fn wire(net: u32, layer: u32, a: (i64, i64), b: (i64, i64)) -> Wire {
    Wire {
        net,
        layer,
        from: Point::new(a.0, a.1),
        to: Point::new(b.0, b.1),
    }
}

#[test]
fn overlapping_wires_count_once() {
    let s = ChannelSolution {
        name: "t".into(),
        layers: 2,
        width: 3,
        columns: 10,
        groups: vec![],
        wires: vec![
            wire(1, 1, (0, 2), (5, 2)),
            wire(1, 1, (3, 2), (8, 2)),
            wire(1, 1, (8, 2), (9, 2)),
            wire(1, 2, (0, 2), (5, 2)),
            wire(1, 2, (4, 0), (4, 4)),
            wire(2, 1, (0, 1), (0, 1)),
        ],
        vias: vec![Via {
            net: 1,
            at: Point::new(4, 2),
            from: 2,
            to: 1,
        }],
    };
    assert_eq!(s.net_length(), 9 + 5 + 4);
    assert_eq!(s.via_count(), 1);
}

/// The classic convention adds a contact for each pin entered on a
/// horizontal layer that no via stack at the pin reaches, and none for
/// pins entered on the vertical layer or joined by a stack.
#[test]
fn classic_vias_count_pins_entered_on_horizontal_layers() {
    let via = |net, x, y, from, to| Via {
        net,
        at: Point::new(x, y),
        from,
        to,
    };
    let s = ChannelSolution {
        name: "t".into(),
        layers: 2,
        width: 2,
        columns: 4,
        groups: vec![LayerGroup {
            kind: GroupType::Model(LayerModel::Hv),
            layers: vec![1, 2],
        }],
        wires: vec![
            // Pin (0, 0) entered on horizontal layer 1: one more contact.
            wire(1, 1, (0, 0), (0, 1)),
            wire(1, 1, (0, 1), (1, 1)),
            // Pin (1, 3) entered on vertical layer 2, a via to the trunk.
            wire(1, 2, (1, 3), (1, 1)),
            // Pin (2, 0) entered on layer 1 with a stack at the pin.
            wire(2, 1, (2, 0), (2, 2)),
            wire(2, 2, (2, 0), (2, 0)),
            // Side exit on layer 1 at (-1, 2): not a pin.
            wire(3, 1, (-1, 2), (0, 2)),
            // Pin (3, 3) entered on layer 1 twice (two wires): one contact.
            wire(4, 1, (3, 3), (3, 2)),
            wire(4, 1, (3, 3), (3, 1)),
        ],
        vias: vec![via(1, 1, 1, 2, 1), via(2, 2, 0, 1, 2)],
    };
    assert_eq!(s.via_count(), 2);
    assert_eq!(s.classic_via_count(), 2 + 2);
    let mut b = s.clone();
    b.groups[0].kind = GroupType::B;
    b.groups[0].layers = vec![1];
    assert_eq!(b.classic_via_count(), 2, "B layers have no direction");
}

/// The classic count equals a point-by-point count on random routings
/// (not necessarily legal ones): every pin-row point and horizontal
/// layer, covered by a wire and reached by no stack.
#[test]
fn classic_vias_match_a_point_by_point_count() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    for case in 0..400 {
        let (columns, width) = (rng.gen_range(1..7), rng.gen_range(0..4));
        let top = width as i64 + 1;
        let model = [
            LayerModel::Hv,
            LayerModel::Vh,
            LayerModel::Hvh,
            LayerModel::Vhv,
        ][case % 4];
        let layers = model.name().len() as u32;
        let p = |r: &mut rand_chacha::ChaCha8Rng| {
            Point::new(r.gen_range(-1..=columns as i64), r.gen_range(0..=top))
        };
        let mut wires = Vec::new();
        for _ in 0..rng.gen_range(0..12) {
            let a = p(&mut rng);
            let b = if rng.gen_bool(0.5) {
                Point::new(a.x, rng.gen_range(0..=top))
            } else {
                Point::new(rng.gen_range(-1..=columns as i64), a.y)
            };
            wires.push(wire(1, rng.gen_range(1..=layers), (a.x, a.y), (b.x, b.y)));
        }
        let vias: Vec<Via> = (0..rng.gen_range(0..6))
            .map(|_| Via {
                net: 1,
                at: p(&mut rng),
                from: rng.gen_range(1..=layers),
                to: rng.gen_range(1..=layers),
            })
            .collect();
        let s = ChannelSolution {
            name: "r".into(),
            layers,
            width,
            columns,
            groups: vec![LayerGroup {
                kind: GroupType::Model(model),
                layers: (1..=layers).collect(),
            }],
            wires,
            vias,
        };
        let horizontal: Vec<u32> = model
            .name()
            .chars()
            .zip(1..)
            .filter(|&(c, _)| c == 'H')
            .map(|(_, l)| l)
            .collect();
        let mut extra = 0;
        for x in 0..columns as i64 {
            for y in [0, top] {
                let at = Point::new(x, y);
                for &l in &horizontal {
                    let covered = s.wires.iter().any(|w| {
                        w.layer == l
                            && w.from.x.min(w.to.x) <= x
                            && x <= w.from.x.max(w.to.x)
                            && w.from.y.min(w.to.y) <= y
                            && y <= w.from.y.max(w.to.y)
                    });
                    let reached = s
                        .vias
                        .iter()
                        .any(|v| v.at == at && v.from.min(v.to) <= l && l <= v.from.max(v.to));
                    extra += (covered && !reached) as u64;
                }
            }
        }
        assert_eq!(s.classic_via_count(), s.via_count() + extra, "case {case}");
    }
}

/// Sorting by net first, then each net's records, is a plain sort: on
/// random wires and vias with few nets (long runs of one net, repeats
/// included) and with labels anywhere in `u32`.
#[test]
fn sorting_by_net_is_a_plain_sort() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut long_runs = 0;
    for case in 0..300 {
        let nets = [1u32, 3, 50, u32::MAX][case % 4];
        let n = rng.gen_range(0..400);
        let net = |r: &mut rand_chacha::ChaCha8Rng| r.gen_range(0..=nets);
        let p = |r: &mut rand_chacha::ChaCha8Rng| Point::new(r.gen_range(-1..6), r.gen_range(0..4));
        let wires: Vec<Wire> = (0..n)
            .map(|_| Wire {
                net: net(&mut rng),
                layer: rng.gen_range(1..4),
                from: p(&mut rng),
                to: p(&mut rng),
            })
            .collect();
        let vias: Vec<Via> = (0..n)
            .map(|_| Via {
                net: net(&mut rng),
                at: p(&mut rng),
                from: rng.gen_range(1..4),
                to: rng.gen_range(1..4),
            })
            .collect();
        let (mut a, mut b) = (wires.clone(), wires);
        sort_by_net(&mut a, |w| w.net);
        b.sort_unstable();
        assert_eq!(a, b, "case {case}");
        let (mut a, mut b) = (vias.clone(), vias);
        sort_by_net(&mut a, |v| v.net);
        b.sort_unstable();
        assert_eq!(a, b, "case {case}");
        long_runs += (nets <= 3 && n > 100) as usize;
    }
    assert!(
        long_runs > 50,
        "{long_runs} cases with long runs of one net"
    );
}
