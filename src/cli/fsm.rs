//! `fabric fsm`: a KISS2 machine's area from above (the PLA realisations
//! of thesis chapter 8, the encoded one checked by simulation and written
//! with `--pla` / `--svg`) and from below (the counting bounds of its
//! `(s, k)`), side by side; or, with `--family S K`, seeded random members
//! of the family `F_s` written as KISS2. Outputs are written whole or not
//! at all; a malformed file is refused with exit 2 before any output.

use std::path::{Path, PathBuf};

use crate::cli::{check_output_paths, read_text, write_all_or_nothing};
use crate::error::{Error, Result};
use crate::fsm::analysis::{analyse, MachineKind};
use crate::fsm::bounds::{lower_bounds, WORST_CASE};
use crate::fsm::check::check;
use crate::fsm::family::{check_family, member_kiss2, random_member};
use crate::fsm::kiss::parse_kiss2;
use crate::fsm::realise::{build, figures, Construction};
use crate::fsm::table::Table;
use crate::report::fsm::{coverage_text, fsm_table, pla_svg, FsmReport, LowerBounds, Realisation};

/// The longest `.pla` text written (characters).
pub const MAX_PLA_TEXT: u64 = 1 << 28;
/// Bytes the symbol table holds per cell, with room.
const BYTES_PER_CELL: u64 = 40;

fn parse_b0(s: &str) -> std::result::Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("`{s}`: b0 must be a positive number of bits")),
    }
}

/// Arguments of `fabric fsm`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["file", "family"])))]
pub struct FsmArgs {
    /// The machine, a KISS2 file (docs/fsm.md).
    pub file: Option<PathBuf>,
    /// Generate random members of the family F_s instead: S states and K
    /// symbols (K >= 2), written as KISS2.
    #[arg(long, num_args = 2, value_names = ["S", "K"], conflicts_with_all = ["file", "pla", "svg", "b0"])]
    pub family: Option<Vec<u32>>,
    /// --family: deterministic members or nondeterministic ones.
    #[arg(long, value_enum, default_value_t = MachineKind::Dfa, requires = "family")]
    pub kind: MachineKind,
    /// --family: how many members (with -o FILE and more than one, FILE's
    /// stem gets -0, -1, ...).
    #[arg(long, default_value_t = 1, requires = "family", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub count: u32,
    /// Seed of the generated members, and of the sampled PLA check of
    /// machines too large to check exhaustively.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Bits per unit square of layout (the thesis' CMOS example: about 6).
    #[arg(long, default_value_t = 6.0, value_parser = parse_b0)]
    pub b0: f64,
    /// Write the encoded PLA (DFA: this file's rows; NFA: one-hot) in
    /// Berkeley .pla format, after checking it against the machine.
    #[arg(long)]
    pub pla: Option<PathBuf>,
    /// Draw that PLA's AND and OR planes with its personality matrix.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Write the report (schema fabric.fsm; see --format); with
    /// --family, the KISS2 text.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The report's format (csv: one row per realisation).
    #[command(flatten)]
    pub format: super::FormatArgs,
}

/// The rules followed where the paper leaves a choice.
fn rules() -> Vec<String> {
    [
        "k = the input minterms some row covers; area = terms (2 in + out) crosspoint cells",
        "overlapping rows: same next state merge (a 0 against a 1 is refused), different next states make an NFA",
        "minimisation as specified: '-' outputs a third value, unspecified transitions one more behaviour",
        "lower bounds are the worst case over (s, k) machines (family F_s), not bounds for this machine",
        "decoded constructions add the decoder's k lg k; the machine's o outputs ride along in every PLA",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// `fabric fsm`.
pub fn run(args: &FsmArgs) -> Result<i32> {
    match (&args.family, &args.file) {
        (Some(sk), _) => run_family(args, sk[0], sk[1]),
        (None, Some(file)) => run_machine(args, file),
        (None, None) => Err(Error::Usage("give a KISS2 file or --family S K".into())),
    }
}

fn run_machine(args: &FsmArgs, file: &Path) -> Result<i32> {
    args.format.check::<FsmReport>()?;
    let outputs: Vec<&Path> = [&args.output, &args.pla, &args.svg]
        .into_iter()
        .flatten()
        .map(PathBuf::as_path)
        .collect();
    check_output_paths(&[file], &outputs)?;
    let text = read_text(file)?;
    let name = file.display().to_string();
    let m = parse_kiss2(&text, &name)?;
    let cells = u64::from(m.state_count()) << m.inputs;
    crate::limits::check(
        || format!("{name}: a symbol table of {cells} cells"),
        cells.saturating_mul(BYTES_PER_CELL),
    )?;
    let t = Table::build(&m)?;
    let analysis = analyse(&m, &t);
    let (s, k) = (u64::from(analysis.states), analysis.symbols);
    let [dfa, nfa] = lower_bounds(s, k, args.b0);
    let lower = LowerBounds {
        label: WORST_CASE.to_string(),
        s,
        k,
        b0: args.b0,
        dfa,
        nfa,
    };
    let mut realisations = Vec::new();
    let mut not_applicable = Vec::new();
    for c in Construction::ALL {
        match figures(c, &m, &t) {
            Some(f) => realisations.push(Realisation::of(f, &lower)),
            None => not_applicable.push(c),
        }
    }
    let mut written = Vec::new();
    let mut pla_check = None;
    if args.pla.is_some() || args.svg.is_some() {
        let c = match analysis.kind {
            MachineKind::Dfa => Construction::DfaFile,
            MachineKind::Nfa => Construction::NfaOneHot,
        };
        let not_applicable = || Error::NotApplicable { construction: c };
        let f = figures(c, &m, &t).ok_or_else(not_applicable)?;
        let chars = f
            .size
            .terms
            .saturating_mul(f.size.inputs + f.size.outputs + 2);
        if chars > MAX_PLA_TEXT {
            return Err(Error::Usage(format!(
                "the {} PLA would be {chars} characters of text; at most {MAX_PLA_TEXT} are written",
                c.label()
            )));
        }
        let pla = build(c, &m, &t).ok_or_else(not_applicable)?;
        let report = check(c, &pla, &m, &t, args.seed)?;
        pla_check = Some(report);
        if let Some(path) = &args.pla {
            let comments = vec![
                format!("{}: {} by fabric fsm", name, c.label()),
                format!(
                    "checked against the machine on {} (state, input) pairs ({})",
                    report.pairs,
                    coverage_text(report.coverage)
                ),
            ];
            written.push((path.clone(), pla.berkeley(&comments)));
        }
        if let Some(path) = &args.svg {
            let svg = pla_svg(&pla, &format!("{name}: {}", c.label()))
                .map_err(|e| Error::Usage(e.to_string()))?;
            written.push((path.clone(), svg));
        }
    }
    let report = FsmReport {
        header: <FsmReport as crate::report::model::Report>::header(),
        file: name,
        machine: analysis,
        lower_bounds: lower,
        realisations,
        not_applicable,
        pla: pla_check,
        rules: rules(),
    };
    if let Some(path) = &args.output {
        written.push((
            path.clone(),
            crate::report::model::render(&report, args.format.format)?,
        ));
    }
    write_all_or_nothing(&written)?;
    print!("{}", fsm_table(&report));
    Ok(0)
}

/// `path` with `-n` after its stem.
fn numbered(path: &Path, n: u32) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{n}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{n}"),
    };
    path.with_file_name(name)
}

fn run_family(args: &FsmArgs, s: u32, k: u32) -> Result<i32> {
    if args.format.format != crate::report::model::Format::Yaml {
        return Err(Error::Usage(
            "--family writes KISS2 machines, not a report: --format applies to a machine's report"
                .into(),
        ));
    }
    check_family(s, k, args.kind).map_err(|e| Error::Usage(e.to_string()))?;
    let per = u64::from(s)
        * u64::from(k)
        * if args.kind == MachineKind::Nfa {
            u64::from(s)
        } else {
            1
        };
    crate::limits::check(
        || format!("{} members of F_{s} with k = {k}", args.count),
        per.saturating_mul(32).saturating_mul(u64::from(args.count)),
    )?;
    let paths: Vec<PathBuf> = match &args.output {
        Some(p) if args.count == 1 => vec![p.clone()],
        Some(p) => (0..args.count).map(|n| numbered(p, n)).collect(),
        None => Vec::new(),
    };
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    check_output_paths(&[], &refs)?;
    let texts: Vec<String> = (0..args.count)
        .map(|n| {
            let m = random_member(s, k, args.kind, args.seed, u64::from(n));
            let kind = match args.kind {
                MachineKind::Dfa => "DFA",
                MachineKind::Nfa => "NFA",
            };
            member_kiss2(
                &m,
                &[
                    format!(
                        "a random {kind} of the family F_s: s = {s}, k = {k}, seed {}, member {n}",
                        args.seed
                    ),
                    "symbol 0 (all zeros) takes state i to i+1 mod s; acceptance is being in s0"
                        .into(),
                    "written by fabric fsm --family".into(),
                ],
            )
        })
        .collect();
    if paths.is_empty() {
        for t in &texts {
            print!("{t}");
        }
    } else {
        write_all_or_nothing(&paths.into_iter().zip(texts).collect::<Vec<_>>())?;
    }
    Ok(0)
}
