use super::*;
use crate::layout::{check, metrics};

#[test]
fn capacities_follow_the_spec_table() {
    // N = 65536: 256 meshes of 16 x 16; levels 7 .. 1 above 512 .. 32768.
    let caps: Vec<u64> = (9..=15).map(|e| capacity(1 << e)).collect();
    assert_eq!(caps, [32, 32, 64, 64, 128, 128, 256]);
    assert_eq!(capacity(64), 8);
    assert_eq!(capacity(128), 16);
}

#[test]
fn sizes_follow_spec_6_10_and_bad_ones_are_refused() {
    for (n, l, meshes) in [(256, 8, 4), (1024, 16, 4), (4096, 16, 16), (65536, 16, 256)] {
        let spec = SftLayoutSpec::new(n);
        assert_eq!(spec.mesh_side, l);
        assert_eq!(spec.shape().unwrap().meshes, meshes);
    }
    for n in [0, 1, 16, 64, 128, 512, 2048, 1000] {
        assert!(
            matches!(SftLayoutSpec::new(n).build(), Err(LayoutError::Spec(_))),
            "{n}"
        );
    }
    let odd = SftLayoutSpec {
        mesh_side: 12,
        ..SftLayoutSpec::new(4096)
    };
    assert!(odd.shape().is_err());
    // A mesh side below lg N (for tiny tests) is taken.
    let small = SftLayoutSpec {
        mesh_side: 4,
        ..SftLayoutSpec::new(256)
    };
    assert_eq!(small.shape().unwrap().meshes, 16);
}

/// Build, check and measure; the metrics.
fn laid_out(spec: &SftLayoutSpec) -> metrics::LayoutMetrics {
    let laid = spec.build().unwrap();
    let e = &laid.embedding;
    let verdict = check::check(e);
    assert!(
        verdict.is_legal(),
        "N = {}: {:?}",
        spec.processors,
        &verdict.violations[..verdict.violations.len().min(5)]
    );
    let m = metrics::measure(e);
    laid.forms.check(&m, 2).unwrap();
    assert_eq!(
        Network::from_embedding(e)
            .unwrap()
            .compare(&spec.network().unwrap()),
        Ok(())
    );
    assert_eq!(
        Network::realised_by(e).unwrap().as_deref(),
        Some("sorting-fat-tree")
    );
    m
}

#[test]
fn layouts_are_legal_and_wire_every_channel_at_capacity() {
    for spec in [
        SftLayoutSpec::new(256),
        SftLayoutSpec::new(1024),
        SftLayoutSpec {
            mesh_side: 4,
            ..SftLayoutSpec::new(256)
        },
        SftLayoutSpec {
            xi: 2,
            tau: 2,
            ..SftLayoutSpec::new(256)
        },
    ] {
        let e = spec.build().unwrap().embedding;
        laid_out(&spec);
        // The wires between each sorter and its parent: cap(m) of them;
        // between a mesh's top row and its sorter: L.
        let (n, l) = (spec.processors, spec.mesh_side);
        let meshes = n / (l * l);
        let sorter = |h: u64| (n + h - 1) as u32;
        let between = |a: u32, b: u32| {
            e.edges
                .iter()
                .filter(|x| (x.from, x.to) == (a, b) || (x.from, x.to) == (b, a))
                .count() as u64
        };
        for h in 2..meshes {
            let below = n >> (63 - h.leading_zeros());
            assert_eq!(between(sorter(h), sorter(h / 2)), capacity(below));
        }
        for g in 0..meshes {
            let up = e
                .edges
                .iter()
                .filter(|x| x.to == sorter((meshes + g) / 2) && (x.from as u64) / (l * l) == g)
                .filter(|x| (x.from as u64) < n)
                .count() as u64;
            assert_eq!(up, l, "mesh {g}");
        }
    }
}

/// Area / (N lg^2 N) is flat in N. The longest wire is `O(sqrt N lg N)`
/// but not `Θ`: every channel runs straight into a sorter block as long as
/// the distance it spans, so the wires themselves stay short (the
/// quadrants' channels cross only the gap between a quadrant's root
/// sorter and its top).
#[test]
fn area_and_longest_wire_scale_as_n_log_squared() {
    let mut area = Vec::new();
    let mut wire = Vec::new();
    for n in [256u64, 1024, 4096, 16384] {
        let m = laid_out(&SftLayoutSpec::new(n));
        let lg = n.ilog2() as f64;
        area.push(m.area as f64 / (n as f64 * lg * lg));
        wire.push(m.max_wire_length as f64 / ((n as f64).sqrt() * lg));
    }
    let spread = |v: &[f64]| {
        let (lo, hi) = v
            .iter()
            .fold((f64::MAX, 0f64), |a, &x| (a.0.min(x), a.1.max(x)));
        hi / lo
    };
    eprintln!("area / (N lg^2 N): {area:.3?}\nwire / (sqrt N lg N): {wire:.3?}");
    assert!(spread(&area) <= 2.0, "{area:?}");
    assert!(wire.iter().all(|&w| w > 0.0 && w <= 0.1), "{wire:?}");
}
