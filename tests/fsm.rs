//! `fabric fsm` end to end: malformed KISS2 refused (exit 2, file, line
//! and column, no output), the worked example through the command line,
//! the PLA and SVG written, the generator's determinism.

use std::path::{Path, PathBuf};
use std::process::Command;

use fabric::fsm::kiss::{parse_kiss2, KissError, KissErrorKind};
use fabric::fsm::table::Table;

mod common;

fn fabric() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fabric"))
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-fsm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn example(name: &str) -> String {
    format!("{}/benchmarks/fsm/{name}.kiss2", env!("CARGO_MANIFEST_DIR"))
}

/// The reader and the table together, as the command line runs them.
fn read(text: &str) -> Result<Table, KissError> {
    let m = parse_kiss2(text, "bad.kiss2")?;
    Table::build(&m)
}

type Case = (
    &'static str,
    &'static str,
    usize,
    usize,
    fn(&KissErrorKind) -> bool,
);

/// Malformed files: name, text, line, column (0: not checked), and the
/// kind of error expected.
fn malformed() -> Vec<Case> {
    vec![
        ("no .i", ".o 1\n0 a a 0\n", 2, 1, |k| {
            matches!(k, KissErrorKind::MissingInputs)
        }),
        ("no .o", ".i 1\n0 a a 0\n", 2, 1, |k| {
            matches!(k, KissErrorKind::MissingOutputs)
        }),
        ("no headers, no rows", "# nothing\n", 0, 0, |k| {
            matches!(k, KissErrorKind::MissingInputs)
        }),
        ("two .i", ".i 1\n.o 1\n.i 1\n0 a a 0\n", 3, 1, |k| {
            matches!(k, KissErrorKind::DuplicateHeader { first: 1, .. })
        }),
        (
            "header after rows",
            ".i 1\n.o 1\n0 a a 0\n.s 1\n",
            4,
            1,
            |k| matches!(k, KissErrorKind::HeaderAfterRows(_)),
        ),
        (
            "unknown directive",
            ".i 1\n.o 1\n.type fr\n0 a a 0\n",
            3,
            1,
            |k| matches!(k, KissErrorKind::UnknownDirective(_)),
        ),
        ("missing argument", ".i\n.o 1\n", 1, 1, |k| {
            matches!(k, KissErrorKind::MissingArgument(_))
        }),
        ("extra argument", ".i 1 2\n.o 1\n", 1, 6, |k| {
            matches!(k, KissErrorKind::ExtraArgument { .. })
        }),
        ("bad number", ".i one\n.o 1\n", 1, 4, |k| {
            matches!(k, KissErrorKind::BadNumber { .. })
        }),
        ("negative number", ".i 1\n.o -1\n", 2, 4, |k| {
            matches!(k, KissErrorKind::BadNumber { .. })
        }),
        ("too many inputs", ".i 30\n.o 1\n", 1, 4, |k| {
            matches!(k, KissErrorKind::TooManyInputs { got: 30, .. })
        }),
        ("too many outputs", ".i 1\n.o 65\n", 2, 4, |k| {
            matches!(k, KissErrorKind::TooManyOutputs { got: 65, .. })
        }),
        ("label count", ".i 2\n.o 1\n.ilb a\n00 a a 0\n", 3, 0, |k| {
            matches!(
                k,
                KissErrorKind::LabelCount {
                    got: 1,
                    want: 2,
                    ..
                }
            )
        }),
        ("too few fields", ".i 1\n.o 1\n0 a a\n", 3, 0, |k| {
            matches!(
                k,
                KissErrorKind::FieldCount {
                    want: 4,
                    got: 3,
                    ..
                }
            )
        }),
        ("too many fields", ".i 1\n.o 1\n0 a a 0 1\n", 3, 9, |k| {
            matches!(
                k,
                KissErrorKind::FieldCount {
                    want: 4,
                    got: 5,
                    ..
                }
            )
        }),
        ("input width", ".i 2\n.o 1\n0 a a 0\n", 3, 1, |k| {
            matches!(
                k,
                KissErrorKind::InputWidth {
                    got: 1,
                    want: 2,
                    ..
                }
            )
        }),
        ("output width", ".i 1\n.o 2\n0 a a 0\n", 3, 7, |k| {
            matches!(
                k,
                KissErrorKind::OutputWidth {
                    got: 1,
                    want: 2,
                    ..
                }
            )
        }),
        (
            "bad input character",
            ".i 3\n.o 1\n0x1 a a 0\n",
            3,
            2,
            |k| matches!(k, KissErrorKind::BadInputChar('x')),
        ),
        (
            "bad output character",
            ".i 1\n.o 2\n0 a a 1~\n",
            3,
            8,
            |k| matches!(k, KissErrorKind::BadOutputChar('~')),
        ),
        ("bad state name", ".i 1\n.o 1\n0 a b<c 0\n", 3, 5, |k| {
            matches!(k, KissErrorKind::BadStateName(_))
        }),
        ("star as next state", ".i 1\n.o 1\n0 a * 0\n", 3, 5, |k| {
            matches!(k, KissErrorKind::StarNextState)
        }),
        ("no rows", ".i 1\n.o 1\n.e\n", 0, 0, |k| {
            matches!(k, KissErrorKind::NoRows)
        }),
        (
            "text after .e",
            ".i 1\n.o 1\n0 a a 0\n.e\n1 a a 0\n",
            5,
            1,
            |k| matches!(k, KissErrorKind::TextAfterEnd(_)),
        ),
        (
            ".s disagrees",
            ".i 1\n.o 1\n.s 3\n0 a b 0\n1 b a 0\n",
            3,
            4,
            |k| {
                matches!(
                    k,
                    KissErrorKind::StateCount {
                        declared: 3,
                        found: 2
                    }
                )
            },
        ),
        (
            ".p disagrees",
            ".i 1\n.o 1\n.p 3\n0 a b 0\n1 b a 0\n",
            3,
            4,
            |k| {
                matches!(
                    k,
                    KissErrorKind::TermCount {
                        declared: 3,
                        found: 2
                    }
                )
            },
        ),
        (
            "unknown reset state",
            ".i 1\n.o 1\n.r c\n0 a b 0\n",
            3,
            4,
            |k| matches!(k, KissErrorKind::UnknownResetState(_)),
        ),
        (
            "contradictory outputs",
            ".i 2\n.o 1\n0- a b 0\n-1 a b 1\n",
            4,
            0,
            |k| {
                matches!(
                    k,
                    KissErrorKind::Contradiction {
                        other: 3,
                        output: 0,
                        ..
                    }
                )
            },
        ),
        (
            "contradiction through *",
            ".i 1\n.o 2\n1 * a 1-\n1 b a 01\n",
            4,
            0,
            |k| {
                matches!(
                    k,
                    KissErrorKind::Contradiction {
                        other: 3,
                        output: 0,
                        ..
                    }
                )
            },
        ),
        (
            "table too large",
            ".i 24\n.o 0\n------------------------ a b\n",
            0,
            0,
            |k| matches!(k, KissErrorKind::TooLarge { .. }),
        ),
    ]
}

/// Every kind of malformed file is refused by the library with its kind,
/// line and column.
#[test]
fn malformed_files_are_refused_with_their_place() {
    let cases = malformed();
    let mut kinds = std::collections::HashSet::new();
    for (name, text, line, column, kind) in &cases {
        let e = read(text).expect_err(name);
        assert!(kind(&e.kind), "{name}: {e}");
        assert_eq!(e.line, *line, "{name}: {e}");
        if *column > 0 {
            assert_eq!(e.column, *column, "{name}: {e}");
        }
        assert_eq!(e.file, "bad.kiss2");
        kinds.insert(std::mem::discriminant(&*e.kind));
    }
    assert!(kinds.len() >= 20, "{} kinds", kinds.len());
}

/// The command line refuses each malformed file with exit 2, naming the
/// file and line, and writes no output.
#[test]
fn malformed_files_exit_2_without_output() {
    for (k, (name, text, line, _, _)) in malformed().iter().enumerate() {
        let file = tmp(&format!("bad{k}.kiss2"));
        std::fs::write(&file, text).unwrap();
        let yaml = tmp(&format!("bad{k}.yaml"));
        let pla = tmp(&format!("bad{k}.pla"));
        let o = fabric()
            .arg("fsm")
            .arg(&file)
            .arg("-o")
            .arg(&yaml)
            .arg("--pla")
            .arg(&pla)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&o.stderr);
        let place = if *line > 0 {
            format!("{}:{line}", file.display())
        } else {
            file.display().to_string()
        };
        assert!(err.contains(&place), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
        assert!(!yaml.exists() && !pla.exists(), "{name}");
    }
}

/// A report read back and checked against its schema.
fn yaml_of(path: &Path) -> serde_json::Value {
    common::checked_report(&std::fs::read_to_string(path).unwrap())
}

/// The worked example through the command line: 32 terms, 5 inputs, 4
/// outputs, 448 cells; B = 64 bits, B/b0 at the b0 given.
#[test]
fn the_worked_example_through_the_command_line() {
    let yaml = tmp("f16.yaml");
    let o = fabric()
        .args(["fsm", &example("f16_k2"), "--b0", "4", "-o"])
        .arg(&yaml)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("worst case over (s, k) machines"), "{out}");
    let doc = yaml_of(&yaml);
    assert_eq!(doc["schema"].as_str(), Some("fabric.fsm"));
    assert_eq!(doc["schema_version"].as_u64(), Some(2));
    assert_eq!(doc["machine"]["states"].as_u64(), Some(16));
    assert_eq!(doc["machine"]["kind"].as_str(), Some("dfa"));
    let lb = &doc["lower_bounds"];
    assert_eq!(
        lb["label"].as_str(),
        Some("worst case over (s, k) machines")
    );
    assert_eq!(lb["dfa"]["bits"].as_f64(), Some(64.0));
    assert_eq!(lb["dfa"]["area"].as_f64(), Some(16.0));
    assert_eq!(lb["nfa"]["bits"].as_f64(), Some(256.0));
    let thesis = &doc["realisations"][0];
    assert_eq!(thesis["construction"].as_str(), Some("dfa_thesis"));
    assert_eq!(thesis["inputs"].as_u64(), Some(5));
    assert_eq!(thesis["outputs"].as_u64(), Some(4));
    assert_eq!(thesis["terms"].as_u64(), Some(32));
    assert_eq!(thesis["area"].as_u64(), Some(448));
    assert_eq!(thesis["ratio"].as_f64(), Some(28.0));
}

/// --pla and --svg: the PLA checked (exhaustively here) and written in
/// Berkeley format, its drawing beside it; an NFA gets its one-hot PLA
/// and no DFA rows.
#[test]
fn the_pla_is_checked_and_written() {
    let (pla, svg, yaml) = (tmp("tl.pla"), tmp("tl.svg"), tmp("tl.yaml"));
    let o = fabric()
        .args(["fsm", &example("traffic"), "--pla"])
        .arg(&pla)
        .arg("--svg")
        .arg(&svg)
        .arg("-o")
        .arg(&yaml)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&pla).unwrap();
    assert!(text.contains(".i 5\n.o 6\n"), "{text}");
    assert!(text.contains(".p 11\n") && text.ends_with(".e\n"), "{text}");
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let doc = yaml_of(&yaml);
    assert_eq!(doc["pla"]["construction"].as_str(), Some("dfa_file"));
    assert_eq!(doc["pla"]["coverage"]["kind"].as_str(), Some("exhaustive"));
    assert_eq!(doc["pla"]["pairs"].as_u64(), Some(32));

    let nfa_pla = tmp("nfa.pla");
    let o = fabric()
        .args(["fsm", &example("ends_01"), "--pla"])
        .arg(&nfa_pla)
        .arg("-o")
        .arg(&yaml)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let doc = yaml_of(&yaml);
    assert_eq!(doc["machine"]["kind"].as_str(), Some("nfa"));
    assert_eq!(doc["pla"]["construction"].as_str(), Some("nfa_one_hot"));
    assert_eq!(doc["not_applicable"].as_array().map(Vec::len), Some(3));
    assert!(std::fs::read_to_string(&nfa_pla)
        .unwrap()
        .contains(".ilb sym_b0 a b c\n"));
}

/// An output naming the input, or two outputs the same file: exit 2,
/// nothing written.
#[test]
fn output_paths_are_checked_first() {
    let file = tmp("copy.kiss2");
    std::fs::copy(example("parity"), &file).unwrap();
    let o = fabric()
        .arg("fsm")
        .arg(&file)
        .arg("-o")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let same = tmp("same.out");
    let o = fabric()
        .arg("fsm")
        .arg(&file)
        .arg("-o")
        .arg(&same)
        .arg("--pla")
        .arg(&same)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(!same.exists());
    let o = fabric()
        .args(["fsm", &example("parity"), "--b0", "0"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// The generator: the same seed gives the same bytes; several members go
/// to numbered files; each reads back as an F_s member of the right size.
#[test]
fn the_generator_repeats_and_reads_back() {
    let run = |seed: &str| {
        let o = fabric()
            .args([
                "fsm", "--family", "5", "3", "--kind", "nfa", "--count", "2", "--seed", seed,
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o.stdout
    };
    assert_eq!(run("3"), run("3"));
    assert_ne!(run("3"), run("4"));
    let out = tmp("fam.kiss2");
    let o = fabric()
        .args([
            "fsm", "--family", "6", "2", "--count", "3", "--seed", "1", "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for n in 0..3 {
        let path = tmp(&format!("fam-{n}.kiss2"));
        let yaml = tmp(&format!("fam-{n}.yaml"));
        let o = fabric()
            .arg("fsm")
            .arg(&path)
            .arg("-o")
            .arg(&yaml)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let doc = yaml_of(&yaml);
        assert_eq!(doc["machine"]["states"].as_u64(), Some(6));
        assert_eq!(doc["machine"]["symbols"].as_u64(), Some(2));
        assert_eq!(doc["machine"]["rows"].as_u64(), Some(12));
    }
    let o = fabric()
        .args(["fsm", "--family", "4", "1"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = fabric()
        .args(["fsm", "--family", "4", "2", "--pla", "x.pla"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// The same file gives the same report and PLA, byte for byte.
#[test]
fn reports_repeat_byte_for_byte() {
    let run = |tag: &str| {
        let (yaml, pla) = (tmp(&format!("r{tag}.yaml")), tmp(&format!("r{tag}.pla")));
        let o = fabric()
            .args(["fsm", &example("counter"), "-o"])
            .arg(&yaml)
            .arg("--pla")
            .arg(&pla)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (
            std::fs::read(yaml).unwrap(),
            std::fs::read(pla).unwrap(),
            o.stdout,
        )
    };
    assert_eq!(run("a"), run("b"));
}
