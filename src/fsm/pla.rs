//! A PLA: an AND plane of product terms over input lines (each line
//! offered true and complemented, two columns) and an OR plane summing
//! the terms into output lines. Its area in crosspoint cells is
//! `p · (2·in + out)`. Terms are sparse (only their literals and the
//! outputs they drive), so a one-hot PLA of many states stays small in
//! memory; [`Pla::berkeley`] writes the espresso `.pla` text.

use serde::Serialize;

/// One product term: the literals it ANDs (input line, value) in
/// increasing line order, the outputs it drives (ON), and the outputs it
/// leaves to a minimiser (don't care, written `-`, never driven).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Term {
    /// `(line, value)`: the term needs input `line` to be `value`.
    pub lits: Vec<(u32, bool)>,
    /// Output lines driven.
    pub outs: Vec<u32>,
    /// Output lines don't care.
    pub dc: Vec<u32>,
}

impl Term {
    /// Whether the term is on for the input bits `x` (bit `j` of word
    /// `j / 64` is line `j`).
    pub fn on(&self, x: &[u64]) -> bool {
        self.lits
            .iter()
            .all(|&(l, v)| (x[l as usize / 64] >> (l % 64) & 1 == 1) == v)
    }
}

/// A PLA's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PlaSize {
    /// Input lines.
    pub inputs: u64,
    /// Output lines.
    pub outputs: u64,
    /// Product terms.
    pub terms: u64,
}

impl PlaSize {
    /// `p · (2·in + out)` crosspoint cells (saturating).
    pub fn area(self) -> u64 {
        self.terms
            .saturating_mul(self.inputs.saturating_mul(2).saturating_add(self.outputs))
    }
}

/// A programmable logic array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pla {
    /// Input names, one per line.
    pub input_labels: Vec<String>,
    /// Output names, one per line.
    pub output_labels: Vec<String>,
    /// The product terms.
    pub terms: Vec<Term>,
}

impl Pla {
    /// Its size.
    pub fn size(&self) -> PlaSize {
        PlaSize {
            inputs: self.input_labels.len() as u64,
            outputs: self.output_labels.len() as u64,
            terms: self.terms.len() as u64,
        }
    }

    /// The output lines (as bits, like the inputs) the terms in `terms`
    /// that are on for `x` drive.
    pub fn eval_terms<'a>(&self, terms: impl Iterator<Item = &'a Term>, x: &[u64]) -> Vec<u64> {
        let mut out = vec![0u64; self.output_labels.len().div_ceil(64)];
        for t in terms.filter(|t| t.on(x)) {
            for &o in &t.outs {
                out[o as usize / 64] |= 1 << (o % 64);
            }
        }
        out
    }

    /// The outputs for the input bits `x`.
    pub fn eval(&self, x: &[u64]) -> Vec<u64> {
        self.eval_terms(self.terms.iter(), x)
    }

    /// Characters of the Berkeley text (to refuse huge ones before
    /// writing).
    pub fn text_len(&self) -> u64 {
        let s = self.size();
        s.terms.saturating_mul(s.inputs + s.outputs + 2)
    }

    /// The Berkeley (espresso) `.pla` text, type `fd`: `1` a driven
    /// output, `-` a don't care, `0` neither; `comments` open the file as
    /// `#` lines.
    pub fn berkeley(&self, comments: &[String]) -> String {
        let mut o = String::new();
        for c in comments {
            o += &format!("# {c}\n");
        }
        o += &format!(
            ".i {}\n.o {}\n",
            self.input_labels.len(),
            self.output_labels.len()
        );
        o += &format!(".ilb {}\n", self.input_labels.join(" "));
        o += &format!(".ob {}\n", self.output_labels.join(" "));
        o += &format!(".p {}\n", self.terms.len());
        let (ni, no) = (self.input_labels.len(), self.output_labels.len());
        let mut inp = vec![b'-'; ni];
        let mut out = vec![b'0'; no];
        for t in &self.terms {
            inp.fill(b'-');
            out.fill(b'0');
            for &(l, v) in &t.lits {
                inp[l as usize] = if v { b'1' } else { b'0' };
            }
            for &d in &t.dc {
                out[d as usize] = b'-';
            }
            for &d in &t.outs {
                out[d as usize] = b'1';
            }
            o += std::str::from_utf8(&inp).unwrap_or_default();
            o.push(' ');
            o += std::str::from_utf8(&out).unwrap_or_default();
            o.push('\n');
        }
        o += ".e\n";
        o
    }
}
