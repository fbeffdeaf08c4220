//! The KISS2 reader (the Berkeley/MCNC state-table format).
//!
//! ```text
//! # a comment, to the end of the line
//! .i 1          input bits (required, before the rows)
//! .o 1          output bits (required, before the rows; 0 allowed)
//! .s 2          states (optional; checked against the rows)
//! .p 4          rows (optional; checked against the rows)
//! .r even       reset state (optional; default the first row's state)
//! .ilb a        input names (optional, .i of them)
//! .ob z         output names (optional, .o of them)
//! 0 even even 0 one row: input cube, present, next, outputs
//! 1 * odd 1     `*` as present state: the row applies in every state
//! .e            the end (or `.end`; optional; nothing may follow)
//! ```
//!
//! Cubes use `0`, `1` and `-`; with `.i 0` (or `.o 0`) the input (output)
//! field is left out. Every header comes before the first row and appears
//! once. The reader checks the file alone; [`crate::fsm::table::Table`]
//! then expands the rows and refuses contradictory ones. Every refusal is a
//! [`KissError`] naming the file, line and column (1-based; line 0 for the
//! file as a whole).

use std::collections::HashMap;

use crate::fsm::machine::{Machine, Present, Row};
use crate::fsm::{Cube, OutBits, StateId};

mod error;

pub use error::{KissError, KissErrorKind};

/// The most input bits a machine may have (the symbol table expands
/// `2^i` minterms per state).
pub const MAX_INPUTS: u32 = 24;
/// The most output bits.
pub const MAX_OUTPUTS: u32 = 64;
/// The most states.
pub const MAX_STATES: usize = 1 << 20;

/// A word of a line and its 1-based column.
#[derive(Clone, Copy, Debug)]
struct Word<'a> {
    text: &'a str,
    column: usize,
}

/// The words of `line` (comments already cut), with their columns.
fn words(line: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (col, (at, ch)) in line.char_indices().enumerate() {
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some((at, col + 1)),
            (true, Some((s, c))) => {
                out.push(Word {
                    text: &line[s..at],
                    column: c,
                });
                start = None;
            }
            _ => {}
        }
    }
    if let Some((s, c)) = start {
        out.push(Word {
            text: &line[s..],
            column: c,
        });
    }
    out
}

/// The headers seen, each with its line.
#[derive(Default)]
struct Headers {
    inputs: Option<(u32, usize)>,
    outputs: Option<(u32, usize)>,
    states: Option<(u64, usize, usize)>,
    terms: Option<(u64, usize, usize)>,
    reset: Option<(String, usize, usize)>,
    input_labels: Option<(Vec<String>, usize)>,
    output_labels: Option<(Vec<String>, usize)>,
}

/// The reader's state over one file.
struct Reader<'a> {
    file: &'a str,
    headers: Headers,
    names: HashMap<String, StateId>,
    states: Vec<String>,
    rows: Vec<Row>,
    ended: bool,
}

fn valid_name(name: &str) -> bool {
    !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || "_-.[]$:/@".contains(c))
}

impl<'a> Reader<'a> {
    fn err(&self, line: usize, column: usize, kind: KissErrorKind) -> KissError {
        KissError {
            file: self.file.to_string(),
            line,
            column,
            kind: Box::new(kind),
        }
    }

    fn line(&mut self, n: usize, text: &str) -> Result<(), KissError> {
        let text = text.split('#').next().unwrap_or("");
        let ws = words(text);
        let Some(first) = ws.first() else {
            return Ok(());
        };
        if self.ended {
            return Err(self.err(
                n,
                first.column,
                KissErrorKind::TextAfterEnd(text.trim().to_string()),
            ));
        }
        if first.text.starts_with('.') {
            self.directive(n, &ws)
        } else {
            self.row(n, &ws)
        }
    }

    fn directive(&mut self, n: usize, ws: &[Word<'_>]) -> Result<(), KissError> {
        let d = ws[0];
        if d.text == ".e" || d.text == ".end" {
            if let Some(extra) = ws.get(1) {
                return Err(self.err(
                    n,
                    extra.column,
                    KissErrorKind::ExtraArgument {
                        directive: d.text.into(),
                        extra: extra.text.into(),
                    },
                ));
            }
            self.ended = true;
            return Ok(());
        }
        let known = [".i", ".o", ".s", ".p", ".r", ".ilb", ".ob"];
        if !known.contains(&d.text) {
            return Err(self.err(n, d.column, KissErrorKind::UnknownDirective(d.text.into())));
        }
        if !self.rows.is_empty() {
            return Err(self.err(n, d.column, KissErrorKind::HeaderAfterRows(d.text.into())));
        }
        let h = &self.headers;
        let first = match d.text {
            ".i" => h.inputs.map(|x| x.1),
            ".o" => h.outputs.map(|x| x.1),
            ".s" => h.states.map(|x| x.1),
            ".p" => h.terms.map(|x| x.1),
            ".r" => h.reset.as_ref().map(|x| x.1),
            ".ilb" => h.input_labels.as_ref().map(|x| x.1),
            _ => h.output_labels.as_ref().map(|x| x.1),
        };
        if let Some(first) = first {
            return Err(self.err(
                n,
                d.column,
                KissErrorKind::DuplicateHeader {
                    directive: d.text.into(),
                    first,
                },
            ));
        }
        if ws.len() < 2 {
            return Err(self.err(n, d.column, KissErrorKind::MissingArgument(d.text.into())));
        }
        if d.text == ".ilb" || d.text == ".ob" {
            let names: Vec<String> = ws[1..].iter().map(|w| w.text.to_string()).collect();
            if d.text == ".ilb" {
                self.headers.input_labels = Some((names, n));
            } else {
                self.headers.output_labels = Some((names, n));
            }
            return Ok(());
        }
        if let Some(extra) = ws.get(2) {
            return Err(self.err(
                n,
                extra.column,
                KissErrorKind::ExtraArgument {
                    directive: d.text.into(),
                    extra: extra.text.into(),
                },
            ));
        }
        let arg = ws[1];
        if d.text == ".r" {
            if !valid_name(arg.text) || arg.text == "*" {
                return Err(self.err(n, arg.column, KissErrorKind::BadStateName(arg.text.into())));
            }
            self.headers.reset = Some((arg.text.into(), n, arg.column));
            return Ok(());
        }
        let value: u64 = arg.text.parse().map_err(|_| {
            self.err(
                n,
                arg.column,
                KissErrorKind::BadNumber {
                    directive: d.text.into(),
                    text: arg.text.into(),
                },
            )
        })?;
        match d.text {
            ".i" if value > u64::from(MAX_INPUTS) => Err(self.err(
                n,
                arg.column,
                KissErrorKind::TooManyInputs {
                    got: value,
                    limit: MAX_INPUTS,
                },
            )),
            ".o" if value > u64::from(MAX_OUTPUTS) => Err(self.err(
                n,
                arg.column,
                KissErrorKind::TooManyOutputs {
                    got: value,
                    limit: MAX_OUTPUTS,
                },
            )),
            ".i" => {
                self.headers.inputs = Some((value as u32, n));
                Ok(())
            }
            ".o" => {
                self.headers.outputs = Some((value as u32, n));
                Ok(())
            }
            ".s" => {
                self.headers.states = Some((value, n, arg.column));
                Ok(())
            }
            _ => {
                self.headers.terms = Some((value, n, arg.column));
                Ok(())
            }
        }
    }

    fn state(&mut self, n: usize, w: Word<'_>) -> Result<StateId, KissError> {
        if !valid_name(w.text) {
            return Err(self.err(n, w.column, KissErrorKind::BadStateName(w.text.into())));
        }
        if let Some(&id) = self.names.get(w.text) {
            return Ok(id);
        }
        if self.states.len() >= MAX_STATES {
            return Err(self.err(n, w.column, KissErrorKind::TooManyStates(MAX_STATES)));
        }
        let id = StateId(self.states.len() as u32);
        self.names.insert(w.text.to_string(), id);
        self.states.push(w.text.to_string());
        Ok(id)
    }

    fn row(&mut self, n: usize, ws: &[Word<'_>]) -> Result<(), KissError> {
        let Some((i, _)) = self.headers.inputs else {
            return Err(self.err(n, ws[0].column, KissErrorKind::MissingInputs));
        };
        let Some((o, _)) = self.headers.outputs else {
            return Err(self.err(n, ws[0].column, KissErrorKind::MissingOutputs));
        };
        let want = usize::from(i > 0) + 2 + usize::from(o > 0);
        if ws.len() != want {
            let layout = match (i > 0, o > 0) {
                (true, true) => "input present next output",
                (true, false) => "input present next",
                (false, true) => "present next output",
                (false, false) => "present next",
            };
            let column = ws.get(want).map_or(0, |w| w.column);
            return Err(self.err(
                n,
                column,
                KissErrorKind::FieldCount {
                    want,
                    got: ws.len(),
                    layout,
                },
            ));
        }
        let mut k = 0;
        let mut input = Cube { care: 0, value: 0 };
        if i > 0 {
            input = self.cube(n, ws[0], i)?;
            k = 1;
        }
        let present = if ws[k].text == "*" {
            Present::Any
        } else {
            Present::State(self.state(n, ws[k])?)
        };
        if ws[k + 1].text == "*" {
            return Err(self.err(n, ws[k + 1].column, KissErrorKind::StarNextState));
        }
        let next = self.state(n, ws[k + 1])?;
        let out = if o > 0 {
            self.outputs(n, ws[k + 2], o)?
        } else {
            OutBits::default()
        };
        self.rows.push(Row {
            line: n,
            input,
            present,
            next,
            out,
        });
        Ok(())
    }

    fn cube(&self, n: usize, w: Word<'_>, i: u32) -> Result<Cube, KissError> {
        let got = w.text.chars().count();
        if got != i as usize {
            return Err(self.err(
                n,
                w.column,
                KissErrorKind::InputWidth {
                    cube: w.text.into(),
                    got,
                    want: i,
                },
            ));
        }
        let mut cube = Cube { care: 0, value: 0 };
        for (b, ch) in w.text.chars().enumerate() {
            let bit = 1u32 << (i as usize - 1 - b);
            match ch {
                '0' => cube.care |= bit,
                '1' => {
                    cube.care |= bit;
                    cube.value |= bit;
                }
                '-' => {}
                c => return Err(self.err(n, w.column + b, KissErrorKind::BadInputChar(c))),
            }
        }
        Ok(cube)
    }

    fn outputs(&self, n: usize, w: Word<'_>, o: u32) -> Result<OutBits, KissError> {
        let got = w.text.chars().count();
        if got != o as usize {
            return Err(self.err(
                n,
                w.column,
                KissErrorKind::OutputWidth {
                    field: w.text.into(),
                    got,
                    want: o,
                },
            ));
        }
        let mut out = OutBits::default();
        for (b, ch) in w.text.chars().enumerate() {
            let bit = 1u64 << (o as usize - 1 - b);
            match ch {
                '0' => out.care |= bit,
                '1' => {
                    out.care |= bit;
                    out.ones |= bit;
                }
                '-' => {}
                c => return Err(self.err(n, w.column + b, KissErrorKind::BadOutputChar(c))),
            }
        }
        Ok(out)
    }

    /// The checks on the whole file, and the machine.
    fn finish(mut self) -> Result<Machine, KissError> {
        let h = std::mem::take(&mut self.headers);
        let Some((inputs, _)) = h.inputs else {
            return Err(self.err(0, 0, KissErrorKind::MissingInputs));
        };
        let Some((outputs, _)) = h.outputs else {
            return Err(self.err(0, 0, KissErrorKind::MissingOutputs));
        };
        for (labels, directive, want) in [
            (&h.input_labels, ".ilb", inputs),
            (&h.output_labels, ".ob", outputs),
        ] {
            if let Some((names, line)) = labels {
                if names.len() != want as usize {
                    return Err(self.err(
                        *line,
                        0,
                        KissErrorKind::LabelCount {
                            directive: directive.into(),
                            got: names.len(),
                            want,
                        },
                    ));
                }
            }
        }
        if self.rows.is_empty() {
            return Err(self.err(0, 0, KissErrorKind::NoRows));
        }
        if let Some((declared, line, column)) = h.terms {
            if declared != self.rows.len() as u64 {
                return Err(self.err(
                    line,
                    column,
                    KissErrorKind::TermCount {
                        declared,
                        found: self.rows.len(),
                    },
                ));
            }
        }
        if let Some((declared, line, column)) = h.states {
            if declared != self.states.len() as u64 {
                return Err(self.err(
                    line,
                    column,
                    KissErrorKind::StateCount {
                        declared,
                        found: self.states.len(),
                    },
                ));
            }
        }
        let reset = match &h.reset {
            Some((name, line, column)) => *self.names.get(name).ok_or_else(|| {
                self.err(
                    *line,
                    *column,
                    KissErrorKind::UnknownResetState(name.clone()),
                )
            })?,
            None => match self.rows.iter().find_map(|r| match r.present {
                Present::State(q) => Some(q),
                Present::Any => None,
            }) {
                Some(q) => q,
                None => self.rows[0].next,
            },
        };
        Ok(Machine {
            file: self.file.to_string(),
            inputs,
            outputs,
            states: self.states,
            reset,
            rows: self.rows,
            input_labels: h.input_labels.map(|x| x.0),
            output_labels: h.output_labels.map(|x| x.0),
        })
    }
}

/// Read a KISS2 machine from `text`; `file` names it in errors.
pub fn parse_kiss2(text: &str, file: &str) -> Result<Machine, KissError> {
    let mut reader = Reader {
        file,
        headers: Headers::default(),
        names: HashMap::new(),
        states: Vec::new(),
        rows: Vec::new(),
        ended: false,
    };
    for (k, line) in text.lines().enumerate() {
        reader.line(k + 1, line)?;
    }
    reader.finish()
}
