//! The report of `fabric fsm`: the machine's figures, the PLA realisations
//! (upper bounds) beside the counting lower bounds of its `(s, k)` with
//! their ratio, and the check of the PLA written; as the typed report
//! `fabric.fsm`, a terminal table, and an SVG of a PLA's AND and OR planes with its
//! personality matrix.

use svg::node::element::{Circle, Group, Line, Rectangle, Text};
use svg::Document;

use crate::fsm::analysis::MachineKind;
use crate::fsm::check::Coverage;
use crate::fsm::pla::Pla;
pub use crate::report::model::fsm::{FsmReport, LowerBounds, Realisation};

fn kind_name(k: MachineKind) -> &'static str {
    match k {
        MachineKind::Dfa => "DFA",
        MachineKind::Nfa => "NFA",
    }
}

/// How a check chose its pairs, in words.
pub fn coverage_text(c: Coverage) -> String {
    match c {
        Coverage::Exhaustive => "every state and input".to_string(),
        Coverage::Sampled { seed } => format!("sampled, seed {seed}"),
    }
}

/// The terminal table: the machine, then upper and lower bounds side by
/// side with their ratio.
pub fn fsm_table(r: &FsmReport) -> String {
    let m = &r.machine;
    let mut o = format!(
        "fsm {}: s {}, i {}, o {}, k {}, p {}; {}, {}, {} of {} states reachable\n",
        r.file,
        m.states,
        m.inputs,
        m.outputs,
        m.symbols,
        m.rows,
        match m.kind {
            MachineKind::Dfa => "deterministic".to_string(),
            MachineKind::Nfa => format!("nondeterministic ({} cells)", m.nondeterministic_cells),
        },
        if m.complete {
            "complete".to_string()
        } else {
            format!("incomplete ({} cells unspecified)", m.unspecified_cells)
        },
        m.reachable,
        m.states
    );
    if let Some(min) = m.minimised {
        o += &format!(
            "  minimised: {} states (input {}); {} classes of equivalent states in all\n",
            min.minimal, m.states, min.classes
        );
    }
    let lb = &r.lower_bounds;
    o += &format!(
        "  lower bounds, {} (s = {}, k = {}), b0 = {} bits per unit square:\n",
        lb.label, lb.s, lb.k, lb.b0
    );
    o += &format!(
        "    B_DFA = s(k-1) lg s = {:.1} bits, area >= {:.1};  B_NFA = s^2(k-1) = {:.0} bits, area >= {:.1}\n",
        lb.dfa.bits, lb.dfa.area, lb.nfa.bits, lb.nfa.area
    );
    o += &format!(
        "  {:<28} {:>7} {:>7} {:>9} {:>12} {:>9} {:>12} | {:>16} {:>9}\n",
        "upper bound (PLA)",
        "in",
        "out",
        "terms",
        "PLA cells",
        "decoder",
        "area",
        "lower B/b0",
        "ratio"
    );
    for x in &r.realisations {
        let f = &x.figures;
        let kind = f.construction.machine();
        o += &format!(
            "  {:<28} {:>7} {:>7} {:>9} {:>12} {:>9} {:>12} | {:>12.1} {} {:>9}\n",
            f.construction.label(),
            f.size.inputs,
            f.size.outputs,
            f.size.terms,
            f.pla_area,
            f.decoder_area,
            f.area,
            lb.of(kind).area,
            kind_name(kind),
            x.ratio.map_or("-".to_string(), |v| format!("{v:.2}"))
        );
    }
    for c in &r.not_applicable {
        o += &format!("  {:<28} (not for an NFA)\n", c.label());
    }
    if let Some(c) = &r.pla {
        o += &format!(
            "  PLA {} checked against the machine: {} pairs ({}), {} specified, all agree\n",
            c.construction.label(),
            c.pairs,
            coverage_text(c.coverage),
            c.specified
        );
    }
    o
}

/// The most crosspoints [`pla_svg`] draws.
pub const MAX_DRAWN: u64 = 200_000;

/// A PLA too large to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the PLA has {cells} crosspoint cells; at most {MAX_DRAWN} are drawn")]
pub struct TooLargeToDraw {
    /// Its cells.
    pub cells: u64,
}

/// Where the planes of a drawn PLA lie.
struct Geometry {
    /// One cell's side.
    u: f64,
    left: f64,
    top: f64,
    or_x: f64,
    or_w: f64,
    text_x: f64,
    inputs: usize,
    outputs: usize,
}

impl Geometry {
    /// The x of column `c` of the AND plane (`and`) or the OR plane.
    fn column(&self, c: usize, and: bool) -> f64 {
        let base = if and { self.left } else { self.or_x };
        base + (c as f64 + 0.5) * self.u
    }

    /// The y of term `r`.
    fn row(&self, r: usize) -> f64 {
        self.top + (r as f64 + 0.5) * self.u
    }
}

fn dot(x: f64, y: f64) -> Circle {
    Circle::new().set("cx", x).set("cy", y).set("r", 3.0)
}

/// Per term: its line across both planes, a dot at each programmed
/// crosspoint, and its personality row as text.
fn terms_drawn(pla: &Pla, g: &Geometry) -> (Group, Group, Group) {
    let mut lines = Group::new().set("stroke", "#bbb").set("stroke-width", 0.5);
    let mut dots = Group::new().set("fill", "#1f4e9c");
    let mut rows = Group::new()
        .set("font-family", "monospace")
        .set("font-size", 11);
    for (r, t) in pla.terms.iter().enumerate() {
        let y = g.row(r);
        lines = lines.add(
            Line::new()
                .set("x1", g.left)
                .set("x2", g.or_x + g.or_w)
                .set("y1", y)
                .set("y2", y),
        );
        let mut text: Vec<char> = vec!['-'; g.inputs];
        for &(l, v) in &t.lits {
            dots = dots.add(dot(g.column(2 * l as usize + usize::from(!v), true), y));
            text[l as usize] = if v { '1' } else { '0' };
        }
        text.push(' ');
        let mut outs = vec!['.'; g.outputs];
        for &d in &t.dc {
            outs[d as usize] = '-';
        }
        for &d in &t.outs {
            dots = dots.add(dot(g.column(d as usize, false), y));
            outs[d as usize] = '1';
        }
        text.extend(outs);
        rows = rows.add(
            Text::new(text.into_iter().collect::<String>())
                .set("x", g.text_x)
                .set("y", y + 4.0),
        );
    }
    (lines, dots, rows)
}

/// The column lines of both planes and their rotated labels.
fn columns_drawn(pla: &Pla, g: &Geometry, bottom: f64) -> (Group, Group) {
    let mut lines = Group::new().set("stroke", "#bbb").set("stroke-width", 0.5);
    let mut labels = Group::new()
        .set("font-family", "monospace")
        .set("font-size", 9);
    let mut heads: Vec<(f64, String)> = Vec::new();
    for (i, l) in pla.input_labels.iter().enumerate() {
        heads.push((g.column(2 * i, true), l.clone()));
        heads.push((g.column(2 * i + 1, true), format!("~{l}")));
    }
    for (j, l) in pla.output_labels.iter().enumerate() {
        heads.push((g.column(j, false), l.clone()));
    }
    for (x, l) in heads {
        lines = lines.add(
            Line::new()
                .set("x1", x)
                .set("x2", x)
                .set("y1", g.top)
                .set("y2", bottom),
        );
        let y = g.top - 4.0;
        labels = labels.add(
            Text::new(l)
                .set("x", x + 3.0)
                .set("y", y)
                .set("transform", format!("rotate(-90 {} {y})", x + 3.0)),
        );
    }
    (lines, labels)
}

/// The PLA's AND plane (two columns per input: true, complement) and OR
/// plane (one per output), one row per term, a dot at each programmed
/// crosspoint; the personality matrix (`0 1 -` per input, `1 -` or `.`
/// per output, as in the `.pla` text) to the right of each row.
pub fn pla_svg(pla: &Pla, title: &str) -> Result<String, TooLargeToDraw> {
    let size = pla.size();
    let cells = size.area();
    if cells > MAX_DRAWN {
        return Err(TooLargeToDraw { cells });
    }
    let (ni, no, p) = (size.inputs as usize, size.outputs as usize, pla.terms.len());
    let u = 14.0;
    let longest = pla
        .input_labels
        .iter()
        .chain(&pla.output_labels)
        .map(|l| l.chars().count() + 1)
        .max()
        .unwrap_or(1);
    let left = 40.0;
    let top = 40.0 + 6.0 * longest as f64;
    let or_x = left + 2.0 * ni as f64 * u + u;
    let or_w = no as f64 * u;
    let g = Geometry {
        u,
        left,
        top,
        or_x,
        or_w,
        text_x: or_x + or_w + u,
        inputs: ni,
        outputs: no,
    };
    let heading_text = format!(
        "{title}: {ni} inputs, {no} outputs, {p} terms, {cells} cells (AND plane | OR plane | personality)"
    );
    let width =
        (g.text_x + 8.0 * (ni + no + 2) as f64 + 20.0).max(left + 7.0 * heading_text.len() as f64);
    let bottom = top + p as f64 * u;
    let mut planes = Group::new();
    for (x, w, fill) in [(left, or_x - u - left, "#eef3fb"), (or_x, or_w, "#fbf1e8")] {
        planes = planes.add(
            Rectangle::new()
                .set("x", x)
                .set("y", top)
                .set("width", w)
                .set("height", p as f64 * u)
                .set("fill", fill)
                .set("stroke", "#888"),
        );
    }
    let (column_lines, labels) = columns_drawn(pla, &g, bottom);
    let (term_lines, dots, rows) = terms_drawn(pla, &g);
    let heading = Text::new(heading_text)
        .set("x", left)
        .set("y", 18.0)
        .set("font-family", "sans-serif")
        .set("font-size", 12);
    let height = bottom + 20.0;
    let doc = Document::new()
        .set("viewBox", (0.0, 0.0, width, height))
        .set("width", width)
        .set("height", height)
        .add(
            Rectangle::new()
                .set("width", width)
                .set("height", height)
                .set("fill", "white"),
        )
        .add(heading)
        .add(planes)
        .add(column_lines)
        .add(term_lines)
        .add(labels)
        .add(dots)
        .add(rows);
    Ok(doc.to_string())
}
