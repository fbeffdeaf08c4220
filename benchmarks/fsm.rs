//! FSM analysis benchmarks: a random 10,000-state DFA of F_s (k = 2, and
//! k = 16) read from KISS2, expanded, analysed (reachability, Hopcroft
//! minimisation) and its five PLA realisations counted (issue target:
//! under 1 s); and the simulation check of its encoded PLA.
//!
//! Run with `cargo bench --bench fsm`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use fabric::fsm::analysis::{analyse, MachineKind};
use fabric::fsm::check::check;
use fabric::fsm::family::{member_kiss2, random_member};
use fabric::fsm::kiss::parse_kiss2;
use fabric::fsm::realise::{build, figures, Construction};
use fabric::fsm::table::Table;

/// Everything `fabric fsm FILE` computes before writing.
fn analyse_text(text: &str) -> (u32, u64) {
    let m = parse_kiss2(text, "bench.kiss2").expect("valid");
    let t = Table::build(&m).expect("consistent");
    let a = analyse(&m, &t);
    let area: u64 = Construction::ALL
        .iter()
        .filter_map(|&c| figures(c, &m, &t))
        .map(|f| f.area)
        .sum();
    (a.minimised.map_or(0, |x| x.minimal), area)
}

fn fsm_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("fsm");
    group.sample_size(10);
    for k in [2u32, 16] {
        let text = member_kiss2(&random_member(10_000, k, MachineKind::Dfa, 1, 0), &[]);
        let (minimal, area) = analyse_text(&text);
        eprintln!(
            "s = 10000, k = {k}: minimal states {minimal}, total area of the constructions {area}"
        );
        group.bench_function(format!("analyse-s10000-k{k}"), |b| {
            b.iter(|| analyse_text(black_box(&text)))
        });
    }
    let text = member_kiss2(&random_member(10_000, 2, MachineKind::Dfa, 1, 0), &[]);
    let m = parse_kiss2(&text, "bench.kiss2").expect("valid");
    let t = Table::build(&m).expect("consistent");
    let pla = build(Construction::DfaFile, &m, &t).expect("a DFA");
    group.bench_function("check-pla-s10000-k2", |b| {
        b.iter(|| check(Construction::DfaFile, black_box(&pla), &m, &t, 1).expect("agrees"))
    });
    group.finish();
}

criterion_group!(benches, fsm_benches);
criterion_main!(benches);
