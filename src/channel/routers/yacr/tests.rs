//! Unit tests of the reserved-layer router, and the helpers (random
//! channels, routed grids, cut grids) that the other modules' tests share.

use super::assign::assign;
use super::riser::Joints;
use super::*;
use super::{attempt::*, repair::*, setup::*};
use crate::channel::generate::{random_channel, ChannelShape};
use crate::channel::routers::greedy::lower_bound;
use crate::channel::solution::LayerGroup;
use crate::channel::verify::verify;
use rand::{Rng, SeedableRng};

/// A random channel of a random shape within the given ranges, and a
/// random HV or HVH model for it.
pub(crate) fn random_case(
    rng: &mut rand_chacha::ChaCha8Rng,
    columns: std::ops::Range<u32>,
    fill: std::ops::Range<f64>,
    max_span: std::ops::Range<u32>,
    side_probability: std::ops::Range<f64>,
) -> (ChannelProblem, LayerModel) {
    let shape = ChannelShape {
        columns: rng.gen_range(columns),
        fill: rng.gen_range(fill),
        max_span: rng.gen_range(max_span),
        side_probability: rng.gen_range(side_probability),
        acyclic: false,
    };
    let p = random_channel(rng, &shape);
    let model = if rng.gen_bool(0.5) {
        LayerModel::Hv
    } else {
        LayerModel::Hvh
    };
    (p, model)
}

/// A variant's assignment at `rows`, improved, as a width's candidate
/// gets it (`None` when the sweep runs out of slots).
fn improved_slots(
    p: &ChannelProblem,
    model: LayerModel,
    items: &[Item],
    rows: i64,
) -> Option<Vec<Slot>> {
    let h = model.h_layers();
    let mut slots = assign(p, items, rows, &h)?;
    improve(
        p,
        items,
        &PieceConstraints::new(p, items),
        &mut slots,
        rows,
        &h,
    );
    Some(slots)
}

/// A candidate without a borrowed layer.
fn plain_candidate<'a>(
    p: &'a ChannelProblem,
    model: LayerModel,
    rows: i64,
    items: &'a [Item],
    order: &'a Order,
    slots: &'a [Slot],
) -> Candidate<'a> {
    Candidate {
        problem: p,
        model,
        rows,
        items,
        order,
        slots,
        borrowed: None,
        directions: Directions::Preferred,
        spares: None,
    }
}

/// A random channel (shape from the ranges) at its lower bound of rows,
/// with a piece variant (`doglegs`, or drawn after the channel when
/// `None`) and its plain assignment; `None` when that runs out of slots.
#[allow(clippy::type_complexity)]
fn at_bound(
    rng: &mut rand_chacha::ChaCha8Rng,
    columns: std::ops::Range<u32>,
    fill: std::ops::Range<f64>,
    max_span: std::ops::Range<u32>,
    doglegs: Option<bool>,
) -> Option<(ChannelProblem, LayerModel, Vec<Item>, i64, Vec<Slot>, Order)> {
    let (p, model) = random_case(rng, columns, fill, max_span, 0.0..0.3);
    let items = items_of(
        &p,
        Cut::doglegs_if(doglegs.unwrap_or_else(|| rng.gen_bool(0.5))),
    );
    let rows = lower_bound(&p, model).max(1);
    let slots = assign(&p, &items, rows, &model.h_layers())?;
    let order = Order::new(&p, &items);
    Some((p, model, items, rows, slots, order))
}

/// Asserts that two ways of making one attempt agree: the same wiring
/// when both route, the same failure when neither does. The second
/// grid when they routed.
fn same_outcome(a: Result<Grid, Failure>, b: Result<Grid, Failure>, name: &str) -> Option<Grid> {
    match (a, b) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.geometry(|n| n), b.geometry(|n| n), "{name}");
            Some(b)
        }
        (Err(x), Err(y)) => {
            assert_eq!(x, y, "{name}");
            None
        }
        (a, b) => panic!("{name}: {:?} against {:?}", a.err(), b.err()),
    }
}

/// Raw grids straight from the repairs (before clean-up): loops and
/// redundant vias are common there.
pub(crate) fn raw_grids(seed: u64, count: usize) -> Vec<(ChannelProblem, Grid)> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let (p, model) = random_case(&mut rng, 8..80, 0.4..1.0, 2..20, 0.0..0.3);
        let items = items_of(&p, Cut::Doglegs);
        let rows = lower_bound(&p, model).max(1) + rng.gen_range(0..2);
        let Some(slots) = improved_slots(&p, model, &items, rows) else {
            continue;
        };
        let order = Order::new(&p, &items);
        let c = plain_candidate(&p, model, rows, &items, &order, &slots);
        if let Ok(g) = c.attempt(&|| false) {
            out.push((p, g));
        }
    }
    out
}

/// The number of jittered starts follows the level's cell budget: all
/// of them on a small channel, fewer as columns times rows grow, none
/// past the budget (four times the budget and the starts when
/// thorough, none when fast); an asked-for number is taken as it is.
/// Only a thorough effort compares the piece variants.
#[test]
fn jittered_starts_follow_the_cell_budget() {
    use EffortLevel::{Fast, Normal, Thorough};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(71);
    let mut with = |columns: u32, level: EffortLevel, starts: Option<u32>, rows: i64| {
        let shape = ChannelShape {
            fill: 0.3,
            max_span: 5,
            ..ChannelShape::new(columns)
        };
        let p = random_channel(&mut rng, &shape);
        let effort = Effort {
            level,
            starts,
            seed: 0,
        };
        let made = Assignments::new(&p, LayerModel::Hv, effort, Directions::Preferred);
        (made.starts(rows), made.compares_variants(rows))
    };
    assert_eq!(with(175, Normal, None, 19), (MAX_STARTS as usize, false));
    assert_eq!(with(2_000, Normal, None, 10), (10, false));
    assert_eq!(with(10_000, Normal, None, 11), (1, false));
    assert_eq!(with(100_000, Normal, None, 12), (0, false));
    assert_eq!(with(100_000, Normal, Some(5), 12), (5, false));
    assert_eq!(with(175, Normal, Some(0), 19), (0, false));
    assert_eq!(with(175, Fast, None, 19), (0, false));
    assert_eq!(with(175, Fast, Some(3), 19), (3, false));
    assert_eq!(
        with(175, Thorough, None, 19),
        (4 * MAX_STARTS as usize, true)
    );
    assert_eq!(with(10_000, Thorough, None, 11), (7, true));
    assert_eq!(with(100_000, Thorough, None, 12), (0, false));
}

/// Free up to `most - 1` track cells of a grid, drawn at random (a
/// draw that meets a free or blocked cell frees nothing).
pub(crate) fn cut_at_random(rng: &mut rand_chacha::ChaCha8Rng, g: &mut Grid, most: usize) {
    for _ in 0..rng.gen_range(0..most) {
        let c = Cell::new(
            rng.gen_range(0..g.extent.columns),
            rng.gen_range(1..=g.extent.width),
            rng.gen_range(1..=g.extent.layers),
        );
        if let crate::channel::grid::PointState::Net(_) = g.state(c) {
            g.release(c);
        }
    }
}

/// Every net's pieces from one union-find pass against a flood per
/// net, on routed grids cut at random cells (so nets lie in several
/// pieces, some on pin points only).
#[test]
fn all_components_counted_at_once_are_each_nets_flood() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(19);
    let mut split = 0;
    for (p, mut g) in raw_grids(31, 120) {
        cut_at_random(&mut rng, &mut g, 30);
        let all = g.count_all_components();
        for id in p.net_ids() {
            let one = g.count_components(id.0);
            assert_eq!(all[id.index()], one, "{} net {}", p.name(), id.0);
            split += (one > 1) as usize;
        }
    }
    assert!(split > 200, "split nets seen: {split}");
}

#[test]
fn looped_vias_are_the_vias_whose_removal_keeps_the_net_whole() {
    let mut looped_seen = 0;
    for (p, mut g) in raw_grids(17, 120) {
        for id in p.net_ids() {
            let net = id.0;
            let fast = g.looped_vias(net);
            // The obvious way: drop each via and count the pieces.
            let pieces = g.count_components(net);
            let mut slow = Vec::new();
            for c in g.cells_of(net) {
                if g.owner(c) == net + 1 && g.flags(c) & crate::channel::grid::VIA != 0 {
                    g.clear_flag(c, crate::channel::grid::VIA);
                    if g.count_components(net) == pieces {
                        slow.push(g.index(c));
                    }
                    g.set_flag(c, crate::channel::grid::VIA);
                }
            }
            slow.sort_unstable();
            assert_eq!(fast, slow, "{} net {net}", p.name());
            looped_seen += fast.len();
        }
    }
    // The comparison saw looped vias, not only bridges.
    eprintln!("looped vias seen: {looped_seen}");
    assert!(looped_seen > 0);
}

#[test]
fn an_empty_borrowed_layer_is_used_and_saves_tracks_in_total() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
    let empty = |_: u32| Some(Vec::new());
    let borrowed = Borrowed {
        from_width: 0,
        occupied: &empty,
    };
    let (mut own, mut more, mut used) = (0, 0, 0);
    for _ in 0..150 {
        let shape = ChannelShape {
            columns: rng.gen_range(20..120),
            fill: rng.gen_range(0.6..1.0),
            max_span: rng.gen_range(4..30),
            side_probability: 0.0,
            acyclic: false,
        };
        let p = random_channel(&mut rng, &shape);
        for model in [LayerModel::Hv, LayerModel::Hvh] {
            let a = route_model(&p, model, &mut |_| {}).unwrap();
            let b =
                route_borrowing(&p, model, Some(&borrowed), Rules::default(), &mut |_| {}).unwrap();
            own += a.width;
            more += b.width;
            let top = model.layers() + 1;
            if b.wires.iter().any(|w| w.layer == top) {
                used += 1;
                // Legal as a channel with the borrowed layer as a free
                // layer of any direction.
                let mut check = b.clone();
                check.layers = top;
                check.groups.push(LayerGroup {
                    kind: "B".into(),
                    layers: vec![top],
                });
                let r = verify(&p, &check, None);
                assert!(r.is_legal_strict(), "{}: {:?}", p.name(), r.violations);
            }
        }
    }
    eprintln!(
        "tracks: {own} on the own layers, {more} with an empty borrowed layer (used {used} times)"
    );
    assert!(used > 0, "the borrowed layer was never used");
    assert!(
        more < own,
        "tracks with the borrowed layer {more}, without {own}"
    );
}

/// A repair joins the pieces of a net within its widest window and
/// leaves a piece out of every search's reach (here a pin 1,088 columns
/// away, as at another conflict of a long net) to its own repair: the
/// near pin is joined and the call succeeds.
#[test]
fn a_repair_leaves_pieces_out_of_reach_to_their_own() {
    let c = 1200usize;
    let mut top = vec!["0"; c];
    let mut bottom = vec!["0"; c];
    (top[1100], bottom[12], bottom[10]) = ("1", "1", "1");
    let text = format!("top: {}\nbottom: {}\n", top.join(" "), bottom.join(" "));
    let p = crate::io::parse_channel(&text, "far.txt").unwrap();
    let net = p.net_ids().next().unwrap().0;
    let model = LayerModel::Hv;
    let mut g = Grid::new(p.columns(), 3, model.layers(), p.nets().len());
    let top_row = g.top_row();
    for (x, y) in [(10, 0), (12, 0), (1100, top_row)] {
        for l in 1..=g.extent.layers {
            g.claim(Cell::new(x, y, l), net);
        }
    }
    assert!(g.run(Cell::new(10, 2, 1), Cell::new(1100, 2, 1), net));
    assert!(g.run(Cell::new(10, 0, 2), Cell::new(10, 2, 2), net));
    g.via(10, 2, 1, 2, net);
    assert_eq!(g.count_components(net), 3);
    let preferred = super::preferred(model, Directions::Preferred);
    assert!(connect_within(&p, &mut g, &preferred, 2, net, 12, 0));
    // The near pin joined the trunk; the far one is still apart.
    let comps = g.label_components(net);
    assert_eq!(comps.len(), 2);
    let far = comps.iter().find(|c| c.iter().all(|k| k.x == 1100));
    assert!(far.is_some(), "the far pin stays a piece of its own");
}

/// The empty row is opened everywhere in narrow channels and at
/// [`OPEN_ROWS`] places spread from bottom to top in wide ones.
#[test]
fn empty_rows_are_opened_at_a_bounded_spread_of_places() {
    for rows in 2..=OPEN_ROWS {
        assert_eq!(open_rows(rows), (1..=rows).collect::<Vec<_>>());
    }
    for rows in [OPEN_ROWS + 1, 40, 234, 673, 10_000] {
        let places = open_rows(rows);
        assert_eq!(places.len() as i64, OPEN_ROWS, "{rows} rows");
        assert_eq!((places[0], *places.last().unwrap()), (1, rows));
        let gaps: Vec<i64> = places.windows(2).map(|w| w[1] - w[0]).collect();
        let (lo, hi) = (gaps.iter().min().unwrap(), gaps.iter().max().unwrap());
        assert!(*lo >= 1 && hi - lo <= 1, "{rows} rows: gaps {gaps:?}");
    }
}

/// An attempt draws the channel just ahead of its repairs; the grid it
/// ends with (each net's cells in claim order included, which decide
/// component numbering and so later choices) must be the one it gives
/// when the whole channel is drawn first. Channels long enough for the
/// lazy set-up to matter, short and long nets, side terminals.
#[test]
fn lazy_set_up_routes_as_the_full_set_up() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
    let (mut routed, mut failed) = (0, 0);
    for _ in 0..24 {
        let (p, model) = random_case(&mut rng, 1500..3500, 0.6..1.0, 3..60, 0.0..0.4);
        let variant = rng.gen_bool(0.5);
        let items = items_of(&p, Cut::doglegs_if(variant));
        let rows = lower_bound(&p, model).max(1) + rng.gen_range(0..2);
        let Some(slots) = improved_slots(&p, model, &items, rows) else {
            continue;
        };
        let order = Order::new(&p, &items);
        let c = plain_candidate(&p, model, rows, &items, &order, &slots);
        let run = |drawing| c.run(&|| false, drawing, None).ok();
        match (run(Drawing::Lazy), run(Drawing::Full)) {
            (Some(a), Some(b)) => {
                routed += 1;
                assert_eq!(a.geometry(|n| n), b.geometry(|n| n), "{}", p.name());
                for id in p.net_ids() {
                    assert_eq!(
                        a.claims_of(id.0),
                        b.claims_of(id.0),
                        "{} net {}",
                        p.name(),
                        id.0
                    );
                }
            }
            (None, None) => failed += 1,
            (a, b) => panic!("{}: lazy {} full {}", p.name(), a.is_some(), b.is_some()),
        }
    }
    eprintln!("{routed} attempts routed, {failed} failed, alike");
    assert!(
        routed >= 5 && failed >= 2,
        "routed {routed}, failed {failed}"
    );
}

/// What the repairs of a conflict in column `x` rely on: once the set-up
/// has drawn `ahead_of(x)`, every cell within the repair's reach is as a
/// full set-up draws it, and every net owning one of them has all its
/// cells, in the same order.
#[test]
fn lazy_set_up_draws_all_a_repair_can_see() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(32);
    let mut compared = 0;
    for f in full_set_ups(&mut rng, 30) {
        for _ in 0..4 {
            let x = rng.gen_range(0..f.p.columns() as i64);
            let (mut lazy, mut setup) = f.fresh();
            let upto = setup.ahead_of(x);
            assert!(setup.draw(&mut lazy, upto));
            let seen = (x + SEEN_BEYOND).min(f.p.columns() as i64);
            let nets = same_cells(&lazy, &f.full, -1..=seen, f.p.name());
            for n in nets {
                assert_eq!(
                    lazy.claims_of(n),
                    f.full.claims_of(n),
                    "{} net {n}",
                    f.p.name()
                );
            }
            // Only conflicts up to the drawn columns are listed, and
            // those as the full set-up lists them.
            let listed: Vec<i64> = setup.conflicts.iter().map(|c| c.0).collect();
            assert_eq!(listed, f.conflicts[..listed.len()]);
            compared += 1;
        }
    }
    assert!(compared >= 40, "{compared} comparisons");
}

/// A random channel of 600-2,500 columns with a random trunk-piece
/// variant assigned one row above its lower bound, and the grid and
/// conflict columns of its full set-up: what the set-up tests compare
/// partial set-ups against.
struct FullSetUp {
    p: ChannelProblem,
    model: LayerModel,
    items: Vec<Item>,
    rows: i64,
    slots: Vec<Slot>,
    order: Order,
    full: Grid,
    conflicts: Vec<i64>,
}

/// Of `tries` random channels, those that assign and set up.
fn full_set_ups(rng: &mut rand_chacha::ChaCha8Rng, tries: usize) -> Vec<FullSetUp> {
    let mut out = Vec::new();
    for _ in 0..tries {
        let (p, model) = random_case(rng, 600..2500, 0.5..1.0, 2..80, 0.0..0.3);
        let items = items_of(&p, Cut::doglegs_if(rng.gen_bool(0.5)));
        let rows = lower_bound(&p, model).max(1) + 1;
        let Some(slots) = assign(&p, &items, rows, &model.h_layers()) else {
            continue;
        };
        let order = Order::new(&p, &items);
        let mut full = Grid::new(p.columns(), rows as u32, model.layers(), p.nets().len());
        let mut all = Setup::new(&p, model, &full, &items, &slots, &order);
        if !all.draw(&mut full, i64::MAX) {
            continue;
        }
        let conflicts = all.conflicts.iter().map(|c| c.0).collect();
        out.push(FullSetUp {
            p,
            model,
            items,
            rows,
            slots,
            order,
            full,
            conflicts,
        });
    }
    out
}

impl FullSetUp {
    /// An empty grid and a set-up of it, nothing drawn yet.
    fn fresh(&self) -> (Grid, Setup<'_>) {
        let p = &self.p;
        let g = Grid::new(
            p.columns(),
            self.rows as u32,
            self.model.layers(),
            p.nets().len(),
        );
        let setup = Setup::new(p, self.model, &g, &self.items, &self.slots, &self.order);
        (g, setup)
    }
}

/// Asserts that two grids agree (owners and joints) in some columns;
/// the nets owning cells there.
fn same_cells(
    a: &Grid,
    b: &Grid,
    columns: std::ops::RangeInclusive<i64>,
    name: &str,
) -> std::collections::BTreeSet<u32> {
    let mut nets = std::collections::BTreeSet::new();
    for l in 1..=a.extent.layers {
        for y in 0..=a.extent.width + 1 {
            for c in columns.clone() {
                let cell = Cell::new(c, y, l);
                assert_eq!(a.owner(cell), b.owner(cell), "{name} {cell:?}");
                assert_eq!(a.flags(cell), b.flags(cell), "{name} {cell:?}");
                if a.owner(cell) != 0 {
                    nets.insert(a.owner(cell) - 1);
                }
            }
        }
    }
    nets
}

/// A stretch's set-up (`start_at`) draws what the full set-up draws in
/// every column its repairs can see, and lists the full set-up's
/// conflicts from its first column on; mutating what it skips (say,
/// trunks ending a column further right) fails this.
#[test]
fn a_stretch_sets_up_what_its_repairs_see() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
    let mut compared = 0;
    for f in full_set_ups(&mut rng, 30) {
        for _ in 0..4 {
            let from = rng.gen_range(0..f.p.columns() as i64);
            let to = from + rng.gen_range(0..2 * RESTART_REACH);
            let (mut part, mut setup) = f.fresh();
            setup.start_at(from);
            let upto = setup.ahead_of(to);
            assert!(setup.draw(&mut part, upto));
            let first = (from - SEEN_BEYOND).max(0);
            let seen = (to + SEEN_BEYOND).min(f.p.columns() as i64);
            same_cells(&part, &f.full, first..=seen, f.p.name());
            let listed: Vec<i64> = setup.conflicts.iter().map(|c| c.0).collect();
            let want: Vec<i64> = f
                .conflicts
                .iter()
                .copied()
                .filter(|&x| x >= from && x < setup.drawn())
                .collect();
            assert_eq!(listed, want, "{} from {from}", f.p.name());
            compared += 1;
        }
    }
    assert!(compared >= 40, "{compared} comparisons");
}

/// A stretch from the first column to beyond the last is the attempt:
/// the same grid when it routes, the same failing column when not.
#[test]
fn a_stretch_over_the_whole_channel_is_the_attempt() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(43);
    let (mut routed, mut failed) = (0, 0);
    for _ in 0..300 {
        let Some((p, model, items, rows, slots, order)) =
            at_bound(&mut rng, 20..300, 0.5..1.0, 2..40, Some(true))
        else {
            continue;
        };
        let c = plain_candidate(&p, model, rows, &items, &order, &slots);
        let whole = Stretch {
            from: 0,
            to: i64::MAX,
        };
        match (
            c.attempt(&|| false),
            c.run(&|| false, Drawing::Lazy, Some(whole)),
        ) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.geometry(|n| n), b.geometry(|n| n), "{}", p.name());
                routed += 1;
            }
            (Err(Some(x)), Err(Some(y))) => {
                assert_eq!(x, y, "{}", p.name());
                failed += 1;
            }
            (a, b) => panic!("{}: attempt {:?}, stretch {:?}", p.name(), a.err(), b.err()),
        }
    }
    assert!(
        routed > 100 && failed > 20,
        "{routed} routed, {failed} failed"
    );
}

/// Attempts on grids made from the spares of earlier ones (of other
/// channels, larger and smaller) route as on new grids: the same grid
/// when they route, the same failing column when not.
#[test]
fn grids_from_spares_route_as_new_ones() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(47);
    let pool = SparePool::default();
    let (mut routed, mut failed) = (0, 0);
    for _ in 0..200 {
        let Some((p, model, items, rows, slots, order)) =
            at_bound(&mut rng, 10..400, 0.5..1.0, 2..40, None)
        else {
            continue;
        };
        // Half of them with a borrowed layer above, partly taken.
        let taken: Vec<Point> = (0..p.columns() as i64)
            .flat_map(|x| (1..=rows).map(move |y| Point::new(x, y)))
            .filter(|_| rng.gen_bool(0.3))
            .collect();
        let new = Candidate {
            borrowed: rng.gen_bool(0.5).then_some(&taken[..]),
            ..plain_candidate(&p, model, rows, &items, &order, &slots)
        };
        let reusing = Candidate {
            directions: Directions::Preferred,
            spares: Some(&pool),
            ..new
        };
        match same_outcome(new.attempt(&|| false), reusing.attempt(&|| false), p.name()) {
            Some(b) => {
                // A routed grid goes back to the pool too (a probe's does).
                pool.give(b);
                routed += 1;
            }
            None => failed += 1,
        }
        assert!(pool.all_free(), "{}: a spare with cells in use", p.name());
    }
    assert!(
        routed > 60 && failed > 10,
        "{routed} routed, {failed} failed"
    );
}

/// An attempt paused before some restart and then resumed is the
/// attempt: the same grid when it routes, the same failing column when
/// not (the whole-net variant's two candidates rest on this).
#[test]
fn a_paused_attempt_resumed_is_the_attempt() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(59);
    let mut paused = [0; 3];
    for _ in 0..400 {
        let Some((p, model, items, rows, slots, order)) =
            at_bound(&mut rng, 40..300, 0.8..1.0, 10..40, None)
        else {
            continue;
        };
        let c = plain_candidate(&p, model, rows, &items, &order, &slots);
        let at = rng.gen_range(0..3);
        let two_parts = match c.attempt_until(&|| false, at) {
            Err(Stop::Paused(state)) => {
                paused[at] += 1;
                c.resume(state, &|| false)
            }
            Err(Stop::Failed(failure)) => Err(failure),
            Ok(g) => Ok(g),
        };
        same_outcome(c.attempt(&|| false), two_parts, p.name());
    }
    assert!(paused.iter().all(|&n| n >= 5), "paused {paused:?}");
}

/// The candidates of one width may be tried on several threads; the
/// routing must be the one the sequential order gives. Each channel is
/// routed in a pool of one thread (so sequentially) and in one of four
/// (so with speculation whenever a thread is idle).
#[test]
fn routings_do_not_depend_on_the_thread_count() {
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .expect("a pool")
    };
    let (one, four) = (pool(1), pool(4));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(77);
    for _ in 0..40 {
        let (p, model) = random_case(&mut rng, 20..160, 0.6..1.0, 4..30, 0.0..0.2);
        let alone = one.install(|| route_model(&p, model, &mut |_| {}).expect("routes"));
        let beside = four.install(|| route_model(&p, model, &mut |_| {}).expect("routes"));
        assert_eq!(alone, beside, "{} in {}", p.name(), model.name());
    }
}

/// A riser's joints keep the order they were given in, past the two kept
/// in place.
#[test]
fn joints_keep_their_order_past_the_two_kept_in_place() {
    let mut joints = Joints::default();
    for k in 0..5i64 {
        joints.push((k, k as u32 + 1));
        let want: Vec<(i64, u32)> = (0..=k).map(|j| (j, j as u32 + 1)).collect();
        assert_eq!(joints.iter().copied().collect::<Vec<_>>(), want);
    }
}

/// The width loop announces its strategies width by width, each width's
/// in the order of [`Strategy::PORTFOLIO`], and the widths rise; on the
/// random channels the routings need more than one width and every
/// strategy but the fallback runs.
#[test]
fn the_portfolio_runs_in_its_order() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(83);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..40 {
        let (p, model) = random_case(&mut rng, 10..60, 0.3..0.9, 3..20, 0.0..0.2);
        let mut events = Vec::new();
        route_model(&p, model, &mut |e| {
            let RouteEvent::Trying { width, method } = e;
            events.push((width, method));
        })
        .expect("the yacr router routes every channel");
        let place = |method: &str| {
            Strategy::PORTFOLIO
                .iter()
                .position(|s| s.name() == method)
                .expect("every announced method is a strategy")
        };
        for pair in events.windows(2) {
            let ((w0, m0), (w1, m1)) = (pair[0], pair[1]);
            assert!(
                w0 < w1 || (w0 == w1 && place(m0) < place(m1)),
                "{}: {m0} at {w0} tracks, then {m1} at {w1}",
                p.name()
            );
        }
        seen.extend(events.iter().map(|&(_, m)| place(m)));
    }
    assert!(seen.len() >= 3, "strategies announced: {seen:?}");
}
