//! The lines `fabric layout mesh|torus --size n` prints: the measures
//! beside the closed forms of the module comment.

use super::{Dims, MeshSpec, Topology, TORUS_END_WIRE, TORUS_PITCH};
use crate::layout::construction::Measured;

/// The closed forms as the lines print them, for one spec.
struct Texts {
    width: String,
    height: String,
    depth: String,
    area: String,
    longest: String,
    total: &'static str,
    /// `None` when wires never cross.
    crossings: Option<&'static str>,
}

impl Texts {
    fn of(spec: MeshSpec) -> Texts {
        let d = spec.dims().count();
        match spec.topology() {
            Topology::Mesh => Texts {
                width: "n".into(),
                height: if d == 1 { "1" } else { "n" }.into(),
                depth: "n".into(),
                area: if d == 1 { "n".into() } else { format!("n^{d}") },
                longest: "a unit wire, whatever n".into(),
                total: "d n^(d-1) (n - 1)",
                crossings: None,
            },
            Topology::Torus => {
                let side = if spec.side() >= 4 { "5n" } else { "5n - 1" };
                let (width, height, area) = match spec.dims() {
                    Dims::One => {
                        let h = if spec.side() >= 4 { "3" } else { "2" };
                        ("5n - 2".into(), h.to_string(), format!("{h} (5n - 2)"))
                    }
                    Dims::Two | Dims::Three => {
                        (side.to_string(), side.to_string(), format!("({side})^{d}"))
                    }
                };
                Texts {
                    width,
                    height,
                    depth: side.into(),
                    area,
                    longest: format!(
                        "a chain link, 2 x {TORUS_PITCH} - 2 along its axis + 2 to its track and back, whatever n; end links {TORUS_END_WIRE}"
                    ),
                    total: "d n^(d-1) (10n - 14)",
                    crossings: match spec.dims() {
                        Dims::One => None,
                        Dims::Two => Some("4 (n - 1) (n - 2)"),
                        Dims::Three => Some("6n (n - 2)"),
                    },
                }
            }
        }
    }
}

/// `=` when a measure is its closed form, `!=` otherwise.
fn agree(measured: u64, closed: u64) -> &'static str {
    if measured == closed {
        "="
    } else {
        "!="
    }
}

/// The family's lines: the network, the extents and area, the wires.
pub(super) fn figures(spec: MeshSpec, m: &Measured) -> Vec<String> {
    let f = spec.forms();
    let t = Texts::of(spec);
    let metrics = m.metrics;
    let (n, d) = (spec.side(), spec.dims().count());
    let (nodes, links) = spec.counts();
    let shape = match spec.topology() {
        Topology::Mesh => "nodes at unit pitch, every link a unit wire".to_string(),
        Topology::Torus => {
            format!("rings folded 0, n-1, 1, n-2, ...; node boxes of side 3 at pitch {TORUS_PITCH}")
        }
    };
    let mut extents = format!(
        "  width {} {} {} = {}, height {} {} {} = {}",
        metrics.width,
        agree(metrics.width, f.width),
        t.width,
        f.width,
        metrics.height,
        agree(metrics.height, f.height),
        t.height,
        f.height
    );
    if spec.dims() == Dims::Three {
        extents += &format!(
            ", depth {} {} {} = {}",
            metrics.depth,
            agree(metrics.depth, f.depth),
            t.depth,
            f.depth
        );
    }
    extents += &format!(
        "; {} {} {} {} = {} ({:.3} per node)",
        if spec.dims() == Dims::Three {
            "volume"
        } else {
            "area"
        },
        metrics.area,
        agree(metrics.area, f.area),
        t.area,
        f.area,
        metrics.area as f64 / nodes as f64
    );
    let crossings = match t.crossings {
        Some(form) => format!(
            "{} crossings {} {form} = {}",
            m.crossings,
            agree(m.crossings, f.crossings),
            f.crossings
        ),
        None => format!(
            "{} crossings {} none",
            m.crossings,
            agree(m.crossings, f.crossings)
        ),
    };
    vec![
        format!(
            "  {} {n}^{d}: {nodes} nodes, {links} links; {shape}; verified legal ({crossings}), realises its network; {:.3} ms",
            spec.topology().name(),
            m.seconds * 1e3
        ),
        extents,
        format!(
            "  longest wire {} {} {} ({}); total wire length {} {} {} = {}",
            metrics.max_wire_length,
            agree(metrics.max_wire_length, f.longest_wire),
            f.longest_wire,
            t.longest,
            metrics.total_wire_length,
            agree(metrics.total_wire_length, f.total_wire_length),
            t.total,
            f.total_wire_length
        ),
    ]
}
