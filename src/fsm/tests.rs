//! Unit tests of the fsm module: the worked example, the signatures of
//! the family, minimisation against the slow reference, and every PLA
//! construction simulated against its machine.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::fsm::analysis::{analyse, MachineKind};
use crate::fsm::bounds::{
    all_dfas, all_nfas, b_dfa, b_nfa, distinguishing_word, lower_bounds, signature, Member,
};
use crate::fsm::check::{check, Coverage};
use crate::fsm::family::{member_kiss2, random_member};
use crate::fsm::kiss::parse_kiss2;
use crate::fsm::minimise::{hopcroft, moore, Dfa};
use crate::fsm::realise::{build, figures, Construction};
use crate::fsm::table::Table;
use crate::fsm::{Cube, Machine};

fn read(text: &str) -> (Machine, Table) {
    let m = parse_kiss2(text, "test.kiss2").expect("valid KISS2");
    let t = Table::build(&m).expect("a consistent machine");
    (m, t)
}

fn example(name: &str) -> String {
    let path = format!("{}/benchmarks/fsm/{name}.kiss2", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("bundled example")
}

const EXAMPLES: [&str; 6] = [
    "counter",
    "detector_1011",
    "traffic",
    "parity",
    "ends_01",
    "f16_k2",
];

/// A worked example: an s = 16, k = 2 DFA of
/// F_s has an encoded PLA of 32 terms, 5 inputs and 4 outputs, 448
/// cells, and B = 64 bits; for generated members of every seed.
#[test]
fn the_worked_example_s16_k2() {
    for seed in 0..5 {
        let m = random_member(16, 2, MachineKind::Dfa, seed, 0);
        let (m, t) = read(&member_kiss2(&m, &[]));
        let a = analyse(&m, &t);
        assert_eq!((a.states, a.symbols, a.kind), (16, 2, MachineKind::Dfa));
        for c in [Construction::DfaThesis, Construction::DfaFile] {
            let f = figures(c, &m, &t).expect("a DFA construction applies");
            assert_eq!(
                (f.size.inputs, f.size.outputs, f.size.terms, f.area),
                (5, 4, 32, 448),
                "{c:?}"
            );
        }
        let [dfa, nfa] = lower_bounds(16, 2, 6.0);
        assert_eq!(dfa.bits, 64.0);
        assert_eq!(nfa.bits, 256.0);
        assert!((dfa.area - 64.0 / 6.0).abs() < 1e-12);
    }
    let (m, t) = read(&example("f16_k2"));
    let f = figures(Construction::DfaThesis, &m, &t).unwrap();
    assert_eq!((f.size.terms, f.area), (32, 448));
}

#[test]
fn bounds_follow_the_formulas() {
    assert_eq!(b_dfa(8, 3), 8.0 * 2.0 * 3.0);
    assert_eq!(b_nfa(8, 3), 64.0 * 2.0);
    assert_eq!(b_dfa(1, 2), 0.0);
    assert_eq!(b_dfa(5, 1), 0.0);
}

/// The distinguishing words tell all 256 DFAs of F_4
/// (k = 2) apart, and all 512 NFAs of F_3; and each answer is the edge.
#[test]
fn distinguishing_words_give_distinct_signatures() {
    for (members, want) in [(all_dfas(4, 2), 256), (all_nfas(3, 2), 512)] {
        assert_eq!(members.len(), want);
        let mut seen = std::collections::HashSet::new();
        for m in &members {
            let sig = signature(m);
            let mut edges = Vec::new();
            for i in 0..m.s {
                for j in 0..m.s {
                    edges.push(m.free[i as usize].contains(&j));
                }
            }
            assert_eq!(sig, edges, "the word answers for the edge");
            seen.insert(sig);
        }
        assert_eq!(seen.len(), want);
    }
}

/// The thesis' word `0^i 1 0^{s−j}` (not reduced mod s) is accepted by
/// the same members as the shorter `0^{(s−j) mod s}` this code uses.
#[test]
fn the_unreduced_word_agrees() {
    for m in all_dfas(3, 3) {
        for i in 0..3 {
            for sigma in 1..3 {
                for j in 0..3 {
                    let mut w = vec![0; i as usize];
                    w.push(sigma);
                    w.extend(std::iter::repeat_n(0, (3 - j) as usize));
                    assert_eq!(
                        m.accepts(&w),
                        m.accepts(&distinguishing_word(3, i, sigma, j))
                    );
                }
            }
        }
    }
}

fn random_dfa(rng: &mut ChaCha8Rng) -> Dfa {
    let n = rng.gen_range(1..40);
    let k = rng.gen_range(1..4);
    let labels = rng.gen_range(1..4);
    Dfa {
        n,
        k,
        delta: (0..n * k).map(|_| rng.gen_range(0..n as u32)).collect(),
        init: (0..n).map(|_| rng.gen_range(0..labels)).collect(),
    }
}

/// Hopcroft's partition equals Moore's on 500 random seeded machines.
#[test]
fn hopcroft_agrees_with_moore() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let mut merged = 0;
    for _ in 0..500 {
        let d = random_dfa(&mut rng);
        let h = hopcroft(&d);
        assert_eq!(h, moore(&d), "{d:?}");
        merged += usize::from(h.iter().max().map_or(0, |&c| c as usize + 1) < d.n);
    }
    assert!(
        merged > 50,
        "the machines should often merge states ({merged})"
    );
}

/// The table's minimisation on KISS2 text: parity's two odd states
/// merge; a machine whose states differ only in an unspecified transition
/// does not.
#[test]
fn minimisation_of_small_machines() {
    let (m, t) = read(&example("parity"));
    let a = analyse(&m, &t);
    assert_eq!(a.minimised.map(|x| (x.minimal, x.classes)), Some((2, 2)));
    let (m, t) = read(".i 1\n.o 1\n0 a b 0\n1 a a 0\n0 b a 0\n");
    let a = analyse(&m, &t);
    assert!(!a.complete);
    assert_eq!(a.unspecified_cells, 1);
    assert_eq!(a.minimised.map(|x| x.classes), Some(2));
}

/// A random machine in KISS2 text: some rows with `-`, `*`, outputs with
/// `-`, some cells left out; deterministic or not.
fn random_kiss2(rng: &mut ChaCha8Rng, nondeterministic: bool) -> String {
    let s = rng.gen_range(1..7);
    let i = rng.gen_range(0..4u32);
    let o = rng.gen_range(0..3u32);
    let mut rows = Vec::new();
    for q in 0..s {
        for x in 0..1u32 << i {
            if rng.gen_bool(0.15) {
                continue;
            }
            let cube: String = (0..i)
                .rev()
                .map(|b| if x >> b & 1 == 1 { '1' } else { '0' })
                .collect();
            let out: String = (0..o)
                .map(|_| ['0', '1', '-'][rng.gen_range(0..3)])
                .collect();
            let nexts = if nondeterministic && rng.gen_bool(0.4) {
                2
            } else {
                1
            };
            for _ in 0..nexts {
                rows.push(format!("{cube} s{q} s{} {out}", rng.gen_range(0..s)));
            }
        }
    }
    if rows.is_empty() {
        rows.push(format!(
            "{} s0 s0 {}",
            "0".repeat(i as usize),
            "0".repeat(o as usize)
        ));
    }
    format!(".i {i}\n.o {o}\n{}\n", rows.join("\n"))
}

/// Every construction that applies, built, has the counted figures and
/// agrees with its machine on every (state, input) pair; for the bundled
/// examples and 200 random machines, DFAs and NFAs.
#[test]
fn every_construction_simulates_its_machine() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut texts: Vec<String> = EXAMPLES.iter().map(|e| example(e)).collect();
    texts.extend((0..200).map(|n| random_kiss2(&mut rng, n % 2 == 1)));
    let mut nfas = 0;
    for text in &texts {
        let (m, t) = read(text);
        nfas += usize::from(!t.deterministic());
        for c in Construction::ALL {
            let Some(f) = figures(c, &m, &t) else {
                assert!(!t.deterministic());
                continue;
            };
            let pla = build(c, &m, &t).expect("applies");
            assert_eq!(pla.size(), f.size, "{c:?}\n{text}");
            let r = check(c, &pla, &m, &t, 1).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(r.coverage, Coverage::Exhaustive);
            assert_eq!(r.pairs, u64::from(t.states) << t.inputs);
        }
    }
    assert!(nfas > 50);
}

/// The check has teeth: dropping any term that drives an output, or
/// letting an encoded or one-hot term (one per transition) drive a
/// next-state line it should not, is caught.
/// (A term driving nothing, such as a transition to state code 0 with
/// outputs 0, can go unnoticed: the PLA without it is the same function.)
#[test]
fn a_wrong_pla_fails_its_check() {
    let (m, t) = read(&example("detector_1011"));
    for c in Construction::ALL {
        let pla = build(c, &m, &t).unwrap();
        assert!(check(c, &pla, &m, &t, 1).is_ok());
        let mut caught = 0;
        for k in 0..pla.terms.len() {
            if !pla.terms[k].outs.is_empty() {
                let mut bad = pla.clone();
                bad.terms.remove(k);
                assert!(check(c, &bad, &m, &t, 1).is_err(), "{c:?} without term {k}");
                caught += 1;
            }
            // A decoded term drives one line; its symbols may drive line 0
            // through another term already.
            if !c.decoded() && !pla.terms[k].outs.contains(&0) {
                let mut bad = pla.clone();
                bad.terms[k].outs.insert(0, 0);
                assert!(
                    check(c, &bad, &m, &t, 1).is_err(),
                    "{c:?} term {k} driving line 0"
                );
                caught += 1;
            }
        }
        assert!(caught >= pla.terms.len() / 2, "{c:?}");
    }
}

/// Above 16 bits of state and input the check samples, with its seed.
#[test]
fn large_machines_are_sampled() {
    let m = random_member(3000, 64, MachineKind::Dfa, 5, 0);
    let (m, t) = read(&member_kiss2(&m, &[]));
    let pla = build(Construction::DfaFile, &m, &t).unwrap();
    let r = check(Construction::DfaFile, &pla, &m, &t, 9).unwrap();
    assert_eq!(r.coverage, Coverage::Sampled { seed: 9 });
    assert_eq!(r.pairs, crate::fsm::check::SAMPLES);
}

/// The generator: same seed, same text; members are F_s's (symbol 0 is
/// the cycle) and read back with the right figures; member n does not
/// depend on how many are drawn.
#[test]
fn the_generator_is_seeded_and_in_the_family() {
    let a = member_kiss2(&random_member(7, 3, MachineKind::Nfa, 4, 2), &[]);
    let b = member_kiss2(&random_member(7, 3, MachineKind::Nfa, 4, 2), &[]);
    assert_eq!(a, b);
    assert_ne!(
        a,
        member_kiss2(&random_member(7, 3, MachineKind::Nfa, 5, 2), &[])
    );
    let member: Member = random_member(9, 3, MachineKind::Dfa, 1, 0);
    let (m, t) = read(&member_kiss2(&member, &[]));
    assert_eq!((t.states, t.symbols.len()), (9, 3));
    let id = |name: String| m.states.iter().position(|s| *s == name).unwrap() as u32;
    for q in 0..9u32 {
        let next = t.transitions(id(format!("s{q}")), 0);
        assert_eq!(next.len(), 1);
        assert_eq!(next[0].next, id(format!("s{}", (q + 1) % 9)));
        for sigma in 1..3u32 {
            let got = t.transitions(id(format!("s{q}")), sigma)[0].next;
            assert_eq!(
                got,
                id(format!("s{}", member.free[(q * 2 + sigma - 1) as usize][0]))
            );
        }
    }
}

#[test]
fn cube_minterms() {
    let c = Cube {
        care: 0b010,
        value: 0b010,
    };
    assert_eq!(c.minterms(3).collect::<Vec<_>>(), vec![2, 3, 6, 7]);
    assert_eq!(
        Cube { care: 0, value: 0 }.minterms(0).collect::<Vec<_>>(),
        vec![0]
    );
    assert!(c.contains(7) && !c.contains(5));
}

/// The Berkeley text: headers, one line a term, `-` outputs kept for a
/// minimiser.
#[test]
fn berkeley_text() {
    let (m, t) = read(&example("traffic"));
    let pla = build(Construction::DfaFile, &m, &t).unwrap();
    let text = pla.berkeley(&["traffic".into()]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "# traffic");
    assert_eq!(lines[1], ".i 5");
    assert_eq!(lines[2], ".o 6");
    assert_eq!(lines[3], ".ilb rst car long q0 q1");
    assert_eq!(lines[4], ".ob next_q0 next_q1 hwy_g hwy_y farm_g farm_y");
    assert_eq!(lines[5], ".p 11");
    assert_eq!(
        lines[6], "1---- 00----",
        "the reset row: any state, to hg (code 00)"
    );
    assert_eq!(lines[7], "00-00 001000");
    assert_eq!(*lines.last().unwrap(), ".e");
    assert_eq!(lines.len(), 6 + 11 + 1);
}

/// The Berkeley text read back (a minimal reader of our own output) is
/// the PLA that was checked: same labels, same terms, same don't cares.
#[test]
fn berkeley_text_reads_back_as_the_checked_pla() {
    for name in EXAMPLES {
        let (m, t) = read(&example(name));
        let c = if t.deterministic() {
            Construction::DfaFile
        } else {
            Construction::NfaOneHot
        };
        let pla = build(c, &m, &t).unwrap();
        let text = pla.berkeley(&[]);
        let mut terms = Vec::new();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('.') && !l.starts_with('#'))
        {
            let (inp, out) = line.split_once(' ').expect("two fields");
            let lits: Vec<(u32, bool)> = inp
                .chars()
                .enumerate()
                .filter(|&(_, ch)| ch != '-')
                .map(|(j, ch)| (j as u32, ch == '1'))
                .collect();
            let pick = |want: char| -> Vec<u32> {
                out.chars()
                    .enumerate()
                    .filter(|&(_, ch)| ch == want)
                    .map(|(j, _)| j as u32)
                    .collect()
            };
            terms.push(crate::fsm::pla::Term {
                lits,
                outs: pick('1'),
                dc: pick('-'),
            });
        }
        let mut sorted = pla.terms.clone();
        for t in &mut sorted {
            t.dc.sort_unstable();
        }
        assert_eq!(terms, sorted, "{name}");
        assert!(text.contains(&format!(".p {}\n", pla.terms.len())));
        assert!(text.contains(&format!(".ilb {}\n", pla.input_labels.join(" "))));
    }
}

/// Token soup: 3,000 seeded random files of rows and KISS2's own words.
/// Each is refused with a line inside the file, or it is read, and then
/// every construction that applies simulates it exactly (no panic on any).
#[test]
fn random_token_soup_is_refused_or_realised() {
    let words = [
        ".i", ".o", ".s", ".p", ".r", ".e", ".end", ".ilb", ".ob", "0", "1", "2", "-", "01", "1-",
        "-0", "a", "b", "c", "*", "#", "x", "00", "11", "\n", "\n", "\n", "\n",
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let (mut ok, mut refused) = (0, 0);
    for _ in 0..3000 {
        let mut text = String::new();
        let (i, o) = (rng.gen_range(0..3usize), rng.gen_range(0..3usize));
        if rng.gen_bool(0.9) {
            text += &format!(".i {i}\n.o {o}\n");
        }
        let cube = |rng: &mut ChaCha8Rng, n: usize| -> String {
            (0..n)
                .map(|_| ['0', '1', '-'][rng.gen_range(0..3)])
                .collect()
        };
        for _ in 0..rng.gen_range(0..12) {
            if rng.gen_bool(0.9) {
                let states = ["a", "b", "c", "*"];
                let (p, n) = (states[rng.gen_range(0..4)], states[rng.gen_range(0..3)]);
                text += &format!("{} {p} {n} {}\n", cube(&mut rng, i), cube(&mut rng, o));
            } else {
                text += words[rng.gen_range(0..words.len())];
                text.push(if rng.gen_bool(0.5) { ' ' } else { '\n' });
            }
        }
        let lines = text.lines().count();
        match parse_kiss2(&text, "soup").and_then(|m| Table::build(&m).map(|t| (m, t))) {
            Err(e) => {
                refused += 1;
                assert!(e.line <= lines, "{e}\n{text}");
                assert!(!e.kind.to_string().is_empty());
            }
            Ok((m, t)) => {
                ok += 1;
                for c in Construction::ALL {
                    if let Some(pla) = build(c, &m, &t) {
                        check(c, &pla, &m, &t, 1).unwrap_or_else(|e| panic!("{e}\n{text}"));
                    }
                }
            }
        }
    }
    assert!(ok > 300 && refused > 300, "ok {ok}, refused {refused}");
}
