//! The conflict-free search against the definition, checked from the
//! channel itself (not from the search's own overlap lists or constraint
//! graph), and against exhaustive enumeration on small channels; its
//! drawings against the verifier.

use super::*;
use crate::channel::analysis::density;
use crate::channel::generate::{random_channel, ChannelShape};
use crate::channel::layer_model::{Directions, LayerModel};
use crate::channel::routers::yacr::assign::{items_of, Cut};
use crate::channel::verify::verify;
use rand::Rng;

/// Whether rows `ys` (one per piece) are a conflict-free assignment in
/// `width` rows, by the definition: every row in `1 ..= width`; pieces
/// sharing a column in different rows unless they are one net's pieces
/// meeting end to end; and in every column with a top pin of one net and
/// a bottom pin of another, each piece of the top net ending there above
/// each piece of the bottom net ending there.
fn is_conflict_free(p: &ChannelProblem, items: &[Item], width: i64, ys: &[i64]) -> bool {
    if ys.len() != items.len() || ys.iter().any(|&y| !(1..=width).contains(&y)) {
        return false;
    }
    for (a, pa) in items.iter().enumerate() {
        for (b, pb) in items.iter().enumerate().skip(a + 1) {
            let share = pa.lo.max(pb.lo) <= pa.hi.min(pb.hi);
            let end_to_end = pa.net == pb.net && (pa.hi == pb.lo || pb.hi == pa.lo);
            if share && !end_to_end && ys[a] == ys[b] {
                return false;
            }
        }
    }
    for x in 0..p.columns() as usize {
        let (Some(t), Some(b)) = (p.top()[x], p.bottom()[x]) else {
            continue;
        };
        if t == b {
            continue;
        }
        let x = x as i64;
        let ends = |net: u32| {
            items
                .iter()
                .enumerate()
                .filter(move |(_, it)| it.net == net && (it.lo == x || it.hi == x))
                .map(|(k, _)| ys[k])
        };
        for above in ends(t.0) {
            if ends(b.0).any(|below| below >= above) {
                return false;
            }
        }
    }
    true
}

fn shape(rng: &mut ChaCha8Rng, columns: std::ops::Range<u32>) -> ChannelShape {
    ChannelShape {
        columns: rng.gen_range(columns),
        fill: rng.gen_range(0.3..1.0),
        max_span: rng.gen_range(2..20),
        side_probability: rng.gen_range(0.0..0.3),
        acyclic: rng.gen_bool(0.7),
    }
}

/// A random channel, its dogleg pieces and the search's view of them.
fn case(
    rng: &mut ChaCha8Rng,
    columns: std::ops::Range<u32>,
) -> (ChannelProblem, Vec<Item>, ConflictFree) {
    let shape = shape(rng, columns);
    let p = random_channel(rng, &shape);
    let items = items_of(&p, Cut::Doglegs);
    let cf = ConflictFree::new(&p, &items);
    (p, items, cf)
}

#[test]
fn assignments_meet_the_definition() {
    let mut rng = ChaCha8Rng::seed_from_u64(61);
    let (mut found, mut tried) = (0, 0);
    for _ in 0..400 {
        let (p, items, cf) = case(&mut rng, 4..120);
        let d = density(&p) as i64;
        for w in d..d + 3 {
            tried += 1;
            if let Some((got, ys)) = cf.assign(w..w + 1, 5, 8, 16) {
                assert_eq!(got, w);
                assert!(is_conflict_free(&p, &items, w, &ys), "{}", p.name());
                found += 1;
            }
        }
    }
    // Both outcomes happen: the check is not vacuous.
    assert!(found > 300 && found < tried, "{found} of {tried}");
}

/// Every assignment of a few pieces to a few rows, one by one.
fn exists_by_enumeration(p: &ChannelProblem, items: &[Item], width: i64) -> bool {
    let n = items.len() as u32;
    let mut ys = vec![1i64; items.len()];
    for code in 0..(width as u64).pow(n) {
        let mut c = code;
        for y in ys.iter_mut() {
            *y = (c % width as u64) as i64 + 1;
            c /= width as u64;
        }
        if is_conflict_free(p, items, width, &ys) {
            return true;
        }
    }
    false
}

/// With no limit on dead ends, one stream of the search is exhaustive: it
/// finds an assignment exactly when one exists.
#[test]
fn an_unlimited_search_is_complete() {
    let mut rng = ChaCha8Rng::seed_from_u64(67);
    let (mut yes, mut no) = (0, 0);
    for _ in 0..3000 {
        let (p, items, cf) = case(&mut rng, 2..9);
        if items.is_empty() || items.len() > 8 {
            continue;
        }
        for w in 1..=4i64 {
            if (w as u64).pow(items.len() as u32) > 70_000 {
                continue;
            }
            let expected = exists_by_enumeration(&p, &items, w);
            let got = cf.assign(w..w + 1, rng.gen(), 1, u64::MAX);
            assert_eq!(got.is_some(), expected, "{} in {w} rows", p.name());
            if let Some((_, ys)) = got {
                assert!(is_conflict_free(&p, &items, w, &ys));
                yes += 1;
            } else {
                no += 1;
            }
        }
    }
    assert!(yes > 500 && no > 500, "{yes} found, {no} proved impossible");
}

/// Widths are tried narrowest first, and a seed gives one answer.
#[test]
fn the_narrowest_width_comes_first_and_repeats() {
    let mut rng = ChaCha8Rng::seed_from_u64(71);
    let mut wider = 0;
    for _ in 0..100 {
        let (p, _, cf) = case(&mut rng, 20..150);
        let d = density(&p) as i64;
        let all = cf.assign(d..d + 4, 3, 4, 16);
        assert_eq!(all, cf.assign(d..d + 4, 3, 4, 16));
        let first = (d..d + 4).find_map(|w| cf.assign(w..w + 1, 3, 4, 16));
        assert_eq!(all, first, "{}", p.name());
        wider += all.is_some_and(|(w, _)| w > d) as usize;
    }
    assert!(wider > 0);
}

/// The drawing of every assignment found passes the verifier (strict
/// boundary rule included) in each model with one trunk layer, with vias
/// only between the trunk layer and a vertical layer next to it; some
/// trunks lie on the vertical layer and some verticals on the trunk layer.
#[test]
fn drawings_verify_in_each_model() {
    let mut rng = ChaCha8Rng::seed_from_u64(73);
    let (mut drawn, mut flat, mut upright) = (0, 0, 0);
    for k in 0..300 {
        let (p, items, cf) = case(&mut rng, 2..150);
        let d = density(&p) as i64;
        let Some((w, ys)) = cf.assign(d.max(1)..d + 3, 9, 8, 16) else {
            continue;
        };
        let model = [LayerModel::Hv, LayerModel::Vh, LayerModel::Vhv][k % 3];
        let s = draw(&p, model, Directions::Preferred, w, &items, &ys);
        let strict = draw(&p, model, Directions::Reserved, w, &items, &ys);
        let r = verify(&p, &strict, Some(&strict.metrics(density(&p))));
        assert!(r.is_legal_strict(), "{} {} strict", p.name(), model.name());
        assert_eq!(strict.against_direction().total(), 0, "{}", p.name());
        let r = verify(&p, &s, Some(&s.metrics(density(&p))));
        assert!(
            r.is_legal_strict(),
            "{} {}: {:?}",
            p.name(),
            model.name(),
            &r.violations[..r.violations.len().min(3)]
        );
        assert_eq!((s.width as i64, s.layers), (w, model.layers()));
        let h = model.h_layers()[0];
        assert!(s.vias.iter().all(|v| v.from == h && v.to.abs_diff(h) == 1));
        drawn += 1;
        let across = |w: &&crate::channel::solution::Wire| w.from.y == w.to.y && w.from.x != w.to.x;
        flat += s.wires.iter().filter(|w| w.layer != h && across(w)).count();
        upright += s
            .wires
            .iter()
            .filter(|w| w.layer == h && w.from.x == w.to.x && w.from.y != w.to.y)
            .count();
    }
    assert!(
        drawn > 200 && flat > 100 && upright > 100,
        "{drawn} {flat} {upright}"
    );
}

/// A piece's number must fit its key: more pieces are refused, not
/// mixed up.
#[test]
#[should_panic(expected = "more pieces than the search takes")]
fn more_pieces_than_the_search_takes_are_refused() {
    let p = ChannelProblem::from_rows("two", &[1, 0, 1], &[0, 1, 0], &[], &[]).unwrap();
    let items = vec![items_of(&p, Cut::Doglegs)[0]; MAX_PIECES + 1];
    ConflictFree::new(&p, &items);
}
