//! Unit tests of the greedy sweep.

use super::*;
use crate::channel::routers::yacr::tests::random_case;
use rand::SeedableRng;

/// `best_within` against `best`: the same sweep when that needs at most
/// the cap, else none, for caps below, at and above its width.
#[test]
fn best_within_a_cap_is_best_when_that_fits() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
    let (mut fits, mut not) = (0, 0);
    for _ in 0..150 {
        let (p, model) = random_case(&mut rng, 6..120, 0.4..1.0, 2..30, 0.0..0.3);
        let h = model.h_layers().len() as i64;
        let lower = (crate::channel::analysis::density(&p) as i64 + h - 1) / h;
        let lower = lower.max(1);
        let full = best(&p, model, lower);
        let width = full.as_ref().map_or(lower + 8, |sw| sw.rows);
        for cap in (lower - 1).max(0)..=width + 1 {
            let within = best_within(&p, model, lower, cap);
            match &full {
                Some(sw) if sw.rows <= cap => {
                    assert_eq!(within.as_ref(), Some(sw), "{} cap {cap}", p.name());
                    fits += 1;
                }
                _ => {
                    assert!(within.is_none(), "{} cap {cap}", p.name());
                    not += 1;
                }
            }
        }
    }
    assert!(fits > 100 && not > 100, "both cases seen: {fits} / {not}");
}
