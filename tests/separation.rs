//! CHANNEL-SEPARATION (linear time) against the brute-force check of every
//! cut, on random planar channels with multi-terminal nets and empty columns.

use fabric::channel::generate::random_planar_terminals as planar;
use fabric::channel::separation::{
    flow, separation, separation_brute_force, separation_critical_cuts, separation_with_cut,
};
use rand::{Rng, SeedableRng};

#[test]
fn linear_separation_equals_brute_force_on_random_planar_channels() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(27);
    let mut nontrivial = 0;
    for k in 0..10_000 {
        let columns = match k % 3 {
            0 => rng.gen_range(1..6),
            1 => rng.gen_range(6..14),
            _ => rng.gen_range(14..26),
        };
        let t = planar(&mut rng, columns);
        let fast = separation(&t);
        let slow = separation_brute_force(&t);
        assert_eq!(fast, slow, "{t:?}");
        assert_eq!(separation_critical_cuts(&t), slow, "{t:?}");
        // The reported cut is dense and decides the separation.
        if let Some((sep, cut)) = separation_with_cut(&t) {
            let i = t.x.iter().position(|&x| x == cut.bottom_x).unwrap();
            let j = t.x.iter().position(|&x| x == cut.top_x).unwrap();
            assert_eq!(flow(&t, i, j), cut.flow);
            let dx = (cut.top_x - cut.bottom_x).abs();
            assert!(dx == 0 || dx < cut.flow as i64 - 1);
            assert_eq!(cut.flow as i64 - 1, sep);
        }
        if slow.is_some_and(|s| s > 1) {
            nontrivial += 1;
        }
    }
    assert!(
        nontrivial > 1000,
        "only {nontrivial} instances with separation above 1"
    );
}
