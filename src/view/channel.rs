//! The data block of a routed channel's viewer.

use std::collections::BTreeSet;

use super::pack::JsonObject;
use super::{check_count, coordinate, page, ViewError, MAX_LAYERS};
use crate::channel::problem::ChannelProblem;
use crate::channel::solution::{ChannelSolution, GroupType, Metrics};

/// `layer k (H)`: each layer's name with the direction its group gives it
/// (`B` for a single-layer group carrying both).
fn layer_names(s: &ChannelSolution) -> Vec<String> {
    (1..=s.layers)
        .map(|layer| {
            let role = s.groups.iter().find_map(|g| {
                let k = g.layers.iter().position(|&l| l == layer)?;
                Some(match &g.kind {
                    GroupType::Model(m) => m.name()[k..=k].to_string(),
                    GroupType::B => "B".to_string(),
                    GroupType::Other(name) => name.clone(),
                })
            });
            match role {
                Some(r) => format!("layer {layer} ({r})"),
                None => format!("layer {layer}"),
            }
        })
        .collect()
}

/// The viewer of a routed channel: wires `[x0, y0, x1, y1, layer, net]`
/// with `x0 <= x1`, `y0 <= y1`, vias `[x, y, low layer, high layer, net]`
/// and, with the problem, pins `[x, y, net]` on rows 0 and `W + 1`; nets
/// by index into the sorted labels. `summary` is the table beside the
/// drawing.
pub fn channel_html(
    problem: Option<&ChannelProblem>,
    s: &ChannelSolution,
    summary: &[(String, String)],
) -> Result<String, ViewError> {
    check_layers(s)?;
    let mut labels: BTreeSet<u32> = s.wires.iter().map(|w| w.net).collect();
    labels.extend(s.vias.iter().map(|v| v.net));
    let mut pins: Vec<(i64, i64, u32)> = Vec::new();
    if let Some(p) = problem {
        for (row, y) in [(p.bottom(), 0), (p.top(), i64::from(s.width) + 1)] {
            for (x, id) in row.iter().enumerate() {
                if let Some(id) = id {
                    pins.push((x as i64, y, p.label(*id)));
                }
            }
        }
    }
    labels.extend(pins.iter().map(|p| p.2));
    let labels: Vec<u32> = labels.into_iter().collect();
    let net = |label: u32| labels.binary_search(&label).expect("every label listed") as i32;
    check_count(s.wires.len() + s.vias.len() + pins.len())?;
    let mut wires = Vec::with_capacity(6 * s.wires.len());
    for w in &s.wires {
        let what = || format!("the wire of net {} from {} to {}", w.net, w.from, w.to);
        let (a, b) = (w.from, w.to);
        for v in [a.x.min(b.x), a.y.min(b.y), a.x.max(b.x), a.y.max(b.y)] {
            wires.push(coordinate(v, what)?);
        }
        wires.extend([w.layer as i32, net(w.net)]);
    }
    let mut vias = Vec::with_capacity(5 * s.vias.len());
    for v in &s.vias {
        let what = || format!("the via of net {} at {}", v.net, v.at);
        vias.extend([coordinate(v.at.x, what)?, coordinate(v.at.y, what)?]);
        vias.extend([v.from.min(v.to) as i32, v.from.max(v.to) as i32, net(v.net)]);
    }
    let mut packed_pins = Vec::with_capacity(3 * pins.len());
    for &(x, y, label) in &pins {
        let what = || format!("the pin of net {label} at column {x}");
        packed_pins.extend([coordinate(x, what)?, coordinate(y, what)?, net(label)]);
    }
    let mut o = JsonObject::new();
    o.string("kind", "channel");
    o.string("title", &s.name);
    o.int("columns", i64::from(s.columns));
    o.int("width", i64::from(s.width));
    o.int("layers", i64::from(s.layers));
    o.strings("layerNames", &layer_names(s));
    o.strings(
        "nets",
        &labels.iter().map(ToString::to_string).collect::<Vec<_>>(),
    );
    o.packed("wires", &wires);
    o.packed("vias", &vias);
    o.packed("pins", &packed_pins);
    o.pairs("summary", summary);
    Ok(page(&o.finish()))
}

/// Refuse more than [`MAX_LAYERS`] layers, and wires or vias off the
/// routing's layers (a routed-channel file is read unverified).
fn check_layers(s: &ChannelSolution) -> Result<(), ViewError> {
    if s.layers > MAX_LAYERS {
        return Err(ViewError::Layers { layers: s.layers });
    }
    let off = |layer: u32| layer == 0 || layer > s.layers;
    let error = |what: String, layer: u32| ViewError::Layer {
        what,
        layer,
        layers: s.layers,
    };
    if let Some(w) = s.wires.iter().find(|w| off(w.layer)) {
        let what = format!("the wire of net {} from {} to {}", w.net, w.from, w.to);
        return Err(error(what, w.layer));
    }
    if let Some(v) = s.vias.iter().find(|v| off(v.from) || off(v.to)) {
        let layer = if off(v.from) { v.from } else { v.to };
        return Err(error(
            format!("the via of net {} at {}", v.net, v.at),
            layer,
        ));
    }
    Ok(())
}

/// The summary table of a routing: its figures against the lower bound,
/// with the router and the time when known.
pub fn channel_summary(
    s: &ChannelSolution,
    m: &Metrics,
    router: Option<&str>,
    bound: Option<u32>,
    seconds: Option<f64>,
) -> Vec<(String, String)> {
    let nets: BTreeSet<u32> = s.wires.iter().map(|w| w.net).collect();
    let mut rows = vec![("channel".to_string(), s.name.clone())];
    if let Some(r) = router {
        rows.push(("router".into(), r.to_string()));
    }
    rows.extend([
        ("layers".into(), s.layers.to_string()),
        (
            "groups".into(),
            s.groups
                .iter()
                .map(|g| g.kind.name().to_string())
                .collect::<Vec<_>>()
                .join(" + "),
        ),
        ("columns".into(), s.columns.to_string()),
        ("nets routed".into(), nets.len().to_string()),
        ("density".into(), m.density.to_string()),
        ("width (tracks)".into(), m.width.to_string()),
    ]);
    if let Some(b) = bound {
        rows.push(("width lower bound".into(), b.to_string()));
    }
    rows.extend([
        ("net length".into(), m.net_length.to_string()),
        ("vias".into(), m.vias.to_string()),
        ("wires".into(), s.wires.len().to_string()),
        ("via stacks".into(), s.vias.len().to_string()),
    ]);
    if let Some(t) = seconds {
        rows.push(("time".into(), format!("{t:.3} s")));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::solution::{Via, Wire};
    use crate::geom::Point;

    fn routing(wire_layer: u32) -> ChannelSolution {
        ChannelSolution {
            name: "t".into(),
            layers: 2,
            width: 1,
            columns: 2,
            groups: Vec::new(),
            wires: vec![Wire {
                net: 7,
                layer: wire_layer,
                from: Point::new(0, 1),
                to: Point::new(1, 1),
            }],
            vias: vec![Via {
                net: 7,
                at: Point::new(0, 1),
                from: 1,
                to: 2,
            }],
        }
    }

    #[test]
    fn shapes_off_the_layers_are_refused() {
        assert!(channel_html(None, &routing(2), &[]).is_ok());
        for layer in [0, 3] {
            let e = channel_html(None, &routing(layer), &[]).unwrap_err();
            assert!(
                matches!(e, ViewError::Layer { layer: l, .. } if l == layer),
                "{e}"
            );
        }
    }
}
