use super::*;

fn experiment(model: Model, protocol: Protocol, workload: Workload) -> Experiment {
    Experiment {
        model,
        protocol,
        workload,
        routing: Routing::Direct,
        split: SplitRule::Paper,
        k: 1,
        dropping: Dropping {
            scheme: Variant::BackToBack,
            capacity: Capacity::PerEdge,
            policy: DropPolicy::PushOut,
            ranks: RankRange::Auto,
        },
        trials: 4,
        seed: 9,
    }
}

/// A cell's trials are the same whatever the thread count, and trial i is
/// trial i run alone.
#[test]
fn cells_do_not_depend_on_threads() {
    let e = experiment(Model::G, Protocol::RandomPick, Workload::RandomDestinations);
    let cell = e.cell(8, 2).expect("runs");
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool")
        .install(|| e.cell(8, 2).expect("runs"));
    assert_eq!(cell, one);
    assert_eq!(cell.trials[2], e.trial(8, 2, 2).expect("runs"));
}

/// Combinations the paper does not define are refused before work.
#[test]
fn bad_combinations_are_refused() {
    let adv = experiment(Model::G, Protocol::Fifo, Workload::Adversary);
    assert!(matches!(
        adv.check(16, 2),
        Err(ExperimentError::Combination(_))
    ));
    let adv = experiment(Model::T, Protocol::PerEdgeOldest, Workload::Adversary);
    assert!(matches!(
        adv.check(16, 2),
        Err(ExperimentError::Adversary(_))
    ));
    let g = experiment(Model::G, Protocol::Fifo, Workload::RandomDestinations);
    assert!(matches!(g.check(8, 0), Err(ExperimentError::Engine(_))));
    let t = experiment(Model::G, Protocol::Fifo, Workload::Transpose);
    assert!(matches!(t.check(7, 2), Err(ExperimentError::Traffic(_))));
    assert!(t.check(40, 2).is_err());
}
