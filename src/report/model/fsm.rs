//! `fabric.fsm`: the report of `fabric fsm FILE`, the machine's figures,
//! the PLA realisations beside the counting lower bounds of its `(s, k)`
//! and the check of the PLA written; `--format csv` writes the
//! realisations, one row each.

use schemars::JsonSchema;
use serde::Serialize;

use super::{Header, Report};
use crate::fsm::analysis::{Analysis, MachineKind};
use crate::fsm::bounds::LowerBound;
use crate::fsm::check::CheckReport;
use crate::fsm::realise::{Construction, Figures};

/// The report of `fabric fsm FILE`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct FsmReport {
    /// Schema, its version, and the writer's version.
    #[serde(flatten)]
    pub header: Header,
    /// The KISS2 file as given.
    pub file: String,
    /// The machine's figures.
    pub machine: Analysis,
    /// The lower bounds for the machine's `(s, k)`.
    pub lower_bounds: LowerBounds,
    /// The constructions that apply, with their ratio to the lower bound
    /// of their kind.
    pub realisations: Vec<Realisation>,
    /// Constructions that do not apply (the DFA ones, for an NFA).
    pub not_applicable: Vec<Construction>,
    /// The PLA checked and written with `--pla` or `--svg`; `null`
    /// without them.
    pub pla: Option<CheckReport>,
    /// The rules followed where the paper leaves a choice.
    pub rules: Vec<String>,
}

/// The counting bounds (thesis §8.2–§8.4).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LowerBounds {
    /// Always [`crate::fsm::bounds::WORST_CASE`]: the bound is for some machine with this
    /// `(s, k)`, not for this machine.
    pub label: String,
    /// `s`.
    pub s: u64,
    /// `k`.
    pub k: u64,
    /// Bits per unit square.
    pub b0: f64,
    /// `B_DFA = s(k−1) lg s` and `B_DFA / b0`.
    pub dfa: LowerBound,
    /// `B_NFA = s²(k−1)` and `B_NFA / b0`.
    pub nfa: LowerBound,
}

impl LowerBounds {
    /// The bound of machines of `kind`.
    pub fn of(&self, kind: MachineKind) -> &LowerBound {
        match kind {
            MachineKind::Dfa => &self.dfa,
            MachineKind::Nfa => &self.nfa,
        }
    }
}

/// One construction beside its lower bound.
#[derive(Clone, Copy, Debug, Serialize, JsonSchema)]
pub struct Realisation {
    /// The PLA's figures.
    #[serde(flatten)]
    pub figures: Figures,
    /// `area / (B / b0)` for the construction's kind; `None` when the
    /// bound is 0 (`s = 1` or `k = 1`).
    pub ratio: Option<f64>,
}

impl Realisation {
    /// `figures` beside `bounds`.
    pub fn of(figures: Figures, bounds: &LowerBounds) -> Realisation {
        let lower = bounds.of(figures.construction.machine()).area;
        Realisation {
            figures,
            ratio: (lower > 0.0).then(|| figures.area as f64 / lower),
        }
    }
}

/// A row of the CSV: one realisation, its figures flattened.
#[derive(Clone, Copy, Debug, Serialize)]
struct RealisationRow {
    construction: Construction,
    inputs: u64,
    outputs: u64,
    terms: u64,
    pla_area: u64,
    decoder_area: u64,
    area: u64,
    ratio: Option<f64>,
}

impl Report for FsmReport {
    const SCHEMA: &'static str = "fabric.fsm";
    const VERSION: u32 = 2;
    const TABLE: Option<&'static str> = Some("realisations");

    fn csv(&self) -> Option<Result<String, csv::Error>> {
        let rows: Vec<RealisationRow> = self
            .realisations
            .iter()
            .map(|r| RealisationRow {
                construction: r.figures.construction,
                inputs: r.figures.size.inputs,
                outputs: r.figures.size.outputs,
                terms: r.figures.size.terms,
                pla_area: r.figures.pla_area,
                decoder_area: r.figures.decoder_area,
                area: r.figures.area,
                ratio: r.ratio,
            })
            .collect();
        Some(super::csv_rows(&rows))
    }
}
