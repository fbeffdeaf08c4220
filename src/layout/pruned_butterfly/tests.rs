use super::*;
use crate::layout::{check, metrics};

#[test]
fn the_spec_example_recurrence_with_every_kappa_one() {
    // S(16) = 36 at N = 16 (lg N = 4) and S(64) = 114 at N = 64.
    assert_eq!(evaluate(4, 1, 1, 1).unwrap().sides, vec![4, 14, 36]);
    assert_eq!(evaluate(6, 1, 1, 1).unwrap().sides, vec![6, 20, 50, 114]);
    for n in (2..=16).step_by(2) {
        for (k0, k1, k2) in [(1, 1, 1), (1, 2, 1), (2, 3, 0), (1, 2, 5)] {
            let r = evaluate(n, k0, k1, k2).unwrap();
            assert_eq!(*r.sides.last().unwrap(), closed_form_side(n, k0, k1, k2));
        }
    }
}

/// Build, check and measure; the metrics.
fn laid_out(spec: &PbLayoutSpec) -> metrics::LayoutMetrics {
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
    let got = Network::from_embedding(e).unwrap();
    assert_eq!(got.compare(&spec.network().unwrap()), Ok(()));
    assert_eq!(
        Network::realised_by(e).unwrap().as_deref(),
        Some("pruned-butterfly")
    );
    m
}

#[test]
fn layouts_are_legal_realise_the_graph_and_follow_the_recurrence() {
    for n in [4, 16, 64, 256] {
        for (k0, k1, k2) in [(1, 2, 1), (1, 2, 0), (2, 3, 2)] {
            let spec = PbLayoutSpec {
                processors: n,
                kappa0: k0,
                kappa1: k1,
                kappa2: k2,
            };
            if n == 4 && k0 == 1 {
                // A terminal of side lg 4 = 2 still holds its two wires.
                assert_eq!(spec.recurrence().unwrap().sides[0], 2);
            }
            let m = laid_out(&spec);
            let side = *spec.recurrence().unwrap().sides.last().unwrap();
            assert_eq!((m.width, m.height), (side, side));
            assert_eq!(m.max_wire_length, spec.longest_wire().unwrap());
        }
    }
}

#[test]
fn bad_sizes_and_kappas_are_refused() {
    for n in [0, 1, 2, 8, 32, 100] {
        assert!(matches!(
            PbLayoutSpec::new(n).build(),
            Err(LayoutError::Spec(SpecError::NotPowerOfFour { .. }))
        ));
    }
    let narrow = PbLayoutSpec {
        kappa1: 1,
        ..PbLayoutSpec::new(16)
    };
    assert!(narrow.build().is_err());
    assert!(PbLayoutSpec::new(1 << 30).build().is_err());
}

/// Area / (N lg^2 N) and longest wire / (sqrt N lg N) are flat in N.
#[test]
fn area_and_longest_wire_scale_as_n_log_squared() {
    let mut area = Vec::new();
    let mut wire = Vec::new();
    for t in 2..=6u32 {
        let n = 4u64.pow(t);
        let m = laid_out(&PbLayoutSpec::new(n));
        let lg = (2 * t) as f64;
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
    assert!(spread(&wire) <= 2.0, "{wire:?}");
    // The limit of the area ratio is (κ0 + κ2 + κ1/2)^2 = 9.
    assert!(area.iter().all(|&a| a > 4.0 && a <= 9.0), "{area:?}");
}
