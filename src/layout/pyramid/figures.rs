//! The fat-pyramid's figures for `fabric layout --size`: blocks and tiles,
//! area per processor, wires per level, Delta delta per delay function and
//! Theorem 18's survey.

use super::{delta_delta, level_wires, survey, PyramidSpec};
use crate::layout::construction::{Bound, Measured};
use crate::layout::metrics::Delay;

/// The figures' lines for the fat-pyramid of `spec` as measured.
pub(super) fn figures(spec: &PyramidSpec, m: &Measured) -> Vec<String> {
    let embedding = &m.laid.embedding;
    let Bound::Tiles { pitch, tracks } = m.laid.forms.bound else {
        unreachable!("a fat-pyramid's forms are bounded by its tiles")
    };
    let size = spec.processors;
    let lg_a = (size as f64).log2();
    let mut out = vec![
        format!(
            "  {} blocks of {} processors (H-trees) under {}; tiles {} x {} ({} vertical and {} horizontal tracks per band); verified legal ({} crossings), realises its network; {:.3} ms",
            spec.blocks(),
            spec.block(),
            crate::report::table::plural(spec.k(), "butterfly level"),
            pitch.0,
            pitch.1,
            tracks.0,
            tracks.1,
            m.crossings,
            m.seconds * 1e3
        ),
        format!(
            "  area / A = {:.2} (A = n = {size}, unit processors)",
            m.metrics.area as f64 / size as f64
        ),
    ];
    for (h, tree, mesh) in level_wires(embedding, *spec) {
        let unit = (1u64 << h) as f64 * lg_a;
        out.push(format!(
            "  level {h}: longest tree wire {tree} ({:.2} 2^h lg A), mesh wire {mesh} ({:.2} 2^h lg A)",
            tree as f64 / unit,
            mesh as f64 / unit
        ));
    }
    let named = !matches!(m.delay, "unit" | "log" | "logarithmic" | "sqrt" | "linear");
    for (name, w) in [
        ("unit", Delay::Unit),
        ("log", Delay::Logarithmic),
        ("sqrt", Delay::SquareRoot),
        ("linear", Delay::Linear),
    ]
    .into_iter()
    .chain(named.then(|| (m.delay, Delay::parse(m.delay).expect("checked"))))
    {
        let dd = delta_delta(embedding, *spec, &w);
        out.push(format!(
            "  wire delay w = {name}: delivery-cycle change / competitor's change (Delta delta) at most {:.2} (at d = {}); the thesis's w(d + lg A) lg d / (w(d) lg A) at most {:.2}",
            dd.max, dd.at, dd.thesis_max
        ));
    }
    let survey = survey(embedding, *spec, 0);
    out.push(format!(
        "  Theorem 18 over {} pairs of a competing mesh of area A: max path / (d + lg A) = {:.2} (best parents), {:.2} (worst parents)",
        survey.pairs, survey.max_best, survey.max_worst
    ));
    if let Some(w) = survey.worst {
        out.push(format!(
            "    worst pair ({}, {}) -> ({}, {}): d = {}, path {} (turns at level {})",
            w.from.0, w.from.1, w.to.0, w.to.1, w.d, w.worst, w.level
        ));
    }
    out
}
