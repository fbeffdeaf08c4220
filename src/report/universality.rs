//! The report of `fabric universality` (thesis chapter 4): every number
//! with the theorem it comes from, the bound it is held against where the
//! source gives one with a constant, and whether it held; as the typed
//! report `fabric.universality` and a terminal table.

pub use crate::report::model::universality::{Claim, UniversalityReport, Verdict};
use crate::report::model::Report;
use crate::sim::universality::{
    Dimensions, MaxAt, ProcessorTheorem, RangePlace, Setting, TimeSource, Universality,
};

fn bounded(quantity: String, value: f64, source: &str, bound: f64) -> Claim {
    Claim {
        quantity,
        value,
        source: source.to_string(),
        bound: Some(bound),
        verdict: Verdict::of(value, bound),
    }
}

fn shape(quantity: String, value: f64, source: &str) -> Claim {
    Claim {
        quantity,
        value,
        source: source.to_string(),
        bound: None,
        verdict: Verdict::Shape,
    }
}

/// The rules followed where the thesis leaves a choice.
fn rules(s: &Setting) -> Vec<String> {
    let mut r = vec![
        "competitor: the densest mesh of its area; one message each way across every unit of \
         shared processor side (face) in unit time (alpha = 1: 4 neighbours in 2-D, 6 in 3-D)"
            .to_string(),
        "recursive bisection: cut across the longest side, x first on ties; leaves in that order"
            .to_string(),
        "load of a channel: messages crossing its piece's boundary one way (up = down)".to_string(),
        "delta(lambda, n): O() shapes of the routing delays of thesis chapter 3 in bit-times, no constants; \
         delta(x) = delta(x, 2^x)"
            .to_string(),
    ];
    if s.dims == Dimensions::Two {
        r.push(
            "Theorems 19-20 rely on a balanced decomposition and do not hold under nonunit \
             wire delay (thesis section 4.4)"
                .to_string(),
        );
        r.push(
            "Delta delta with the real fat-pyramid switch count divides by the unit-delay \
             cycle's real count 2 (lg b + K), as the thesis divides lg d by the height lg A"
                .to_string(),
        );
    }
    r
}

fn claims(s: &Setting, u: &Universality) -> Vec<Claim> {
    let m = &u.lemma10;
    let source = match s.dims {
        Dimensions::Two => "Lemma 10 (eq. 4.2; bound 3 sqrt 2 lg(A/alpha) derived)",
        Dimensions::Three => "section 5.3 (bound 2^(8/3) lg V derived)",
    };
    let mut c = vec![
        bounded("lambda (mesh competitor)".into(), m.lambda, source, m.bound),
        bounded(
            "lambda / lg(A/alpha)".into(),
            m.per_lg,
            source,
            m.bound_factor,
        ),
    ];
    let p = &u.processor_size;
    for row in &p.rows {
        c.push(shape(
            format!("Delta, {}", row.routing.name()),
            row.big_delta,
            p.theorem.name(),
        ));
    }
    c.push(shape(
        "Delta, LMR in range".into(),
        p.corollary17,
        "Corollary 17",
    ));
    for l in &u.larger {
        let theorem = match l.theorem {
            crate::sim::universality::LargerTheorem::Theorem19 => "Theorem 19",
            crate::sim::universality::LargerTheorem::Theorem20 => "Theorem 20",
        };
        c.push(shape(
            format!(
                "delta, A_R = {:.3e} ({})",
                l.competitor_area,
                s.routing.name()
            ),
            l.delta,
            theorem,
        ));
    }
    if let Some(w) = &u.wire_delay {
        let dd = |name: &str, v: MaxAt| format!("Delta delta, {name} (max at d = {})", v.at);
        c.push(bounded(
            dd("thesis's lg d", w.thesis),
            w.thesis.value,
            "section 4.3",
            w.bound,
        ));
        c.push(bounded(
            dd("real switches", w.real),
            w.real.value,
            "section 4.3",
            w.bound,
        ));
        c.push(bounded(
            dd("real switches, d >= lg A", w.real_far),
            w.real_far.value,
            "section 4.3",
            w.bound,
        ));
        if let Some(meas) = w.measured {
            let name = format!("Delta delta, layout wires (max at d = {})", meas.at);
            c.push(bounded(name, meas.value, "section 4.3", w.bound));
        }
    }
    c.push(shape(
        "asynchrony slowdown max{f, g}".into(),
        u.asynchrony.slowdown,
        "Lemma 21",
    ));
    c
}

/// The report of `u`, computed for `s` with the delay written `delay`.
pub fn universality_report(s: &Setting, delay: &str, u: Universality) -> UniversalityReport {
    UniversalityReport {
        header: UniversalityReport::header(),
        dims: s.dims,
        area: s.area,
        processor_area: s.processor_area,
        competitor_processor_area: s.competitor_processor_area,
        routing: s.routing,
        delay: delay.to_string(),
        rules: rules(s),
        claims: claims(s, &u),
        detail: u,
    }
}

fn lemma10_table(r: &UniversalityReport) -> String {
    let m = &r.detail.lemma10;
    let mut o = format!(
        "{} (mesh competitor, c(p) = {}, lg = {:.0}):\n",
        match r.dims {
            Dimensions::Two => "Lemma 10",
            Dimensions::Three => "Section 5.3",
        },
        m.capacity,
        m.lg
    );
    o += &format!(
        "  {:>5} {:>12} {:>14} {:>10} {:>8} {:>8} {:>9} {:>8}\n",
        "level", "processors", "piece", "channels", "load", "c", "load/c", "/lg"
    );
    for l in &m.levels {
        let piece: Vec<String> = l.piece.iter().map(u64::to_string).collect();
        o += &format!(
            "  {:>5} {:>12} {:>14} {:>10} {:>8} {:>8} {:>9.2} {:>8.3}{}\n",
            l.level,
            l.processors,
            piece.join(" x "),
            l.channels,
            l.load,
            l.capacity,
            l.ratio,
            l.ratio / m.lg,
            if l.level == m.at_level {
                "  <- lambda"
            } else {
                ""
            }
        );
    }
    o
}

fn processor_table(r: &UniversalityReport) -> String {
    let p = &r.detail.processor_size;
    let theorem = match p.theorem {
        ProcessorTheorem::Outside => {
            "no theorem applies: alpha_F < lg A (Theorem 15's formula shown)".to_string()
        }
        t => format!("{} applies", t.name()),
    };
    let mut o = format!(
        "Processor size (Theorems 11-17): alpha_F = {}, alpha_R = {}, lg(A/alpha_F) = {:.1}, \
         alpha_F/alpha_R = {:.3}; {theorem}\n",
        p.alpha_f, p.alpha_r, p.load_factor, p.compute
    );
    o += &format!(
        "  {:<8} {:>12} {:>12} {:>26} {:>8}\n",
        "routing", "delta", "Delta", "Cor 16 range for alpha_F", "alpha_F"
    );
    for row in &p.rows {
        let place = match row.place {
            RangePlace::Below => "below",
            RangePlace::Inside => "inside",
            RangePlace::Above => "above",
        };
        o += &format!(
            "  {:<8} {:>12.4e} {:>12.4e} {:>26} {:>8}\n",
            row.routing.name(),
            row.delta,
            row.big_delta,
            format!("[{:.0}, {:.4e}]", row.recommended[0], row.recommended[1]),
            place
        );
    }
    o += &format!(
        "  Corollary 17 (LMR, alpha_F in range): Delta = {:.4e} = O(lg^2 A)\n",
        p.corollary17
    );
    o
}

fn larger_and_wire(r: &UniversalityReport) -> String {
    let mut o = String::new();
    if !r.detail.larger.is_empty() {
        o += &format!(
            "Larger competitors (Theorems 19-20, {}; balanced decomposition, unit wire delay \
             only):\n  {:>12} {:>12} {:>12} {:>11} {:>12}\n",
            r.routing.name(),
            "A_R",
            "lambda19",
            "lambda20",
            "theorem",
            "delta"
        );
        for l in &r.detail.larger {
            o += &format!(
                "  {:>12.4e} {:>12.2} {:>12.2} {:>11} {:>12.4e}\n",
                l.competitor_area,
                l.lambda19,
                l.lambda20,
                match l.theorem {
                    crate::sim::universality::LargerTheorem::Theorem19 => "19",
                    crate::sim::universality::LargerTheorem::Theorem20 => "20",
                },
                l.delta
            );
        }
    }
    if let Some(w) = &r.detail.wire_delay {
        o += &format!(
            "Wire delay (section 4.3, w = {}): fat-pyramid beta = {}, K = {}, d = 1..{}\n",
            r.delay, w.beta, w.k, w.max_distance
        );
    }
    let a = &r.detail.asynchrony;
    let source = |s: TimeSource| match s {
        TimeSource::Given => "given",
        TimeSource::Delivery => "delta(lg(A/alpha_F))",
        TimeSource::Computation => "max(1, alpha_F/alpha_R)",
    };
    o += &format!(
        "Asynchrony (Lemma 21): f = {:.4e} ({}), g = {:.4} ({}); time t takes t max{{f, g}} = \
         {:.4e} t\n",
        a.f,
        source(a.f_source),
        a.g,
        source(a.g_source),
        a.slowdown
    );
    o
}

/// The terminal table.
pub fn universality_table(r: &UniversalityReport) -> String {
    let mut o = format!(
        "fabric universality: {}-D, {} = {}, alpha_F = {}, alpha_R = {}\n",
        r.dims.count(),
        match r.dims {
            Dimensions::Two => "A",
            Dimensions::Three => "V",
        },
        r.area,
        r.processor_area,
        r.competitor_processor_area
    );
    for rule in &r.rules {
        o += &format!("  rule: {rule}\n");
    }
    o += &lemma10_table(r);
    o += &processor_table(r);
    o += &larger_and_wire(r);
    o += "Claims:\n";
    o += &format!(
        "  {:<52} {:>12} {:>12}  {:<20} {}\n",
        "quantity", "value", "bound", "verdict", "from"
    );
    for c in &r.claims {
        o += &format!(
            "  {:<52} {:>12.4} {:>12}  {:<20} {}\n",
            c.quantity,
            c.value,
            c.bound.map_or("-".to_string(), |b| format!("{b:.4}")),
            c.verdict.name(),
            c.source
        );
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::metrics::Delay;
    use crate::report::model::{render, Format};
    use crate::sim::universality::{universality, PyramidMeasure, Routing};

    #[test]
    fn every_claim_names_its_source_and_a_bound_has_a_verdict() {
        let s = Setting {
            dims: Dimensions::Two,
            area: 1 << 12,
            processor_area: 16,
            competitor_processor_area: 1,
            competitor_area: None,
            routing: Routing::Lmr,
            delay: Delay::SquareRoot,
            message_time: None,
            compute_time: None,
            measure: PyramidMeasure::Never,
        };
        let r = universality_report(&s, "sqrt", universality(&s).unwrap());
        assert!(r.claims.iter().all(|c| !c.source.is_empty()));
        for c in &r.claims {
            match c.bound {
                Some(b) => assert_eq!(c.verdict == Verdict::Held, c.value <= b + 1e-9),
                None => assert_eq!(c.verdict, Verdict::Shape),
            }
        }
        let text = render(&r, Format::Yaml).unwrap();
        let y: serde_norway::Value = serde_norway::from_str(&text).unwrap();
        assert_eq!(y["schema"].as_str(), Some("fabric.universality"));
        assert_eq!(y["dims"].as_u64(), Some(2));
        assert_eq!(y["lemma10"]["levels"].as_sequence().unwrap().len(), 8);
        let table = universality_table(&r);
        assert!(table.contains("Lemma 10") && table.contains("Lemma 21"));
    }
}
