//! Route random permutations on a fat-tree of 256 processors with GREEDY,
//! one trial per seed stream, and compare the delivery cycles with the
//! message set's load factor, the lower bound on any schedule.
//!
//! `cargo run --release --example fat_tree_simulation`

use fabric::sim::algorithms::{route, Algorithm};
use fabric::sim::fattree::FatTree;
use fabric::sim::traffic::{generate, Traffic};
use fabric::sim::{trial_rng, Policy};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A universal fat-tree's capacities: 2^ceil(i/2) wires above a subtree
    // of 2^i processors.
    let n: u32 = 256;
    let capacities: Vec<u32> = (0..=n.trailing_zeros())
        .map(|i| 1 << i.div_ceil(2))
        .collect();
    let tree = FatTree::new(n, capacities)?;
    let seed = 1;
    for index in 0..4 {
        // Trial `index` draws its messages and its routing choices from its
        // own stream: the same seed gives the same results on any thread.
        let mut rng = trial_rng(seed, index);
        let mut messages = generate(Traffic::Permutation, n, 1, Policy::IdealRandom, &mut rng)?;
        messages.sort_by_key(|m| m.src);
        let load = tree.load_factor(&messages);
        let outcome = route(
            &tree,
            &messages,
            &Algorithm::Greedy,
            Policy::IdealRandom,
            10_000,
            &mut rng,
        );
        assert!(outcome.complete, "GREEDY delivers a permutation");
        assert!(
            outcome.cycles as f64 >= load.lambda.ceil(),
            "no schedule beats the load factor"
        );
        println!(
            "trial {index}: {} messages, load factor {:.2}, delivered in {} cycles",
            messages.len(),
            load.lambda,
            outcome.cycles
        );
    }
    Ok(())
}
