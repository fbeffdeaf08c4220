//! Unit tests of the clean-up, on raw routings of random channels.

use super::*;
use crate::channel::routers::yacr::tests::raw_grids;

/// The clean-up split over two threads (half the nets on a copy of the
/// grid) leaves the same wiring as on one, on raw routings of random
/// channels, and the clean-up changed something there.
#[test]
fn a_split_clean_up_is_the_one_thread_clean_up() {
    let mut changed = 0;
    for (p, g) in raw_grids(47, 150) {
        let (mut one, mut two) = (g.clone(), g.clone());
        tidy_split(&p, &mut one, Threads::One, Directions::Preferred);
        tidy_split(&p, &mut two, Threads::Two, Directions::Preferred);
        let wiring = one.geometry(|n| n);
        assert_eq!(wiring, two.geometry(|n| n), "{}", p.name());
        changed += (wiring != g.geometry(|n| n)) as usize;
    }
    assert!(changed > 100, "clean-up changed {changed} routings");
}
