//! Which GDS layer and datatype each drawn layer goes to.
//!
//! Drawn layers have fixed names: `metalK` (routing layer `K` of a
//! channel, plane `K` of a layout, from 1), `viaK` (the cuts between
//! `metalK` and `metalK+1`), `nodeK` (node boxes on plane `K`), `label`
//! (pin labels of a channel) and `boundary` (the outline). The defaults:
//! `metalK` on `10K/0`, `nodeK` on `10K+1/0`, `viaK` on `10K+5/0`, `label`
//! on `1/0`, `boundary` on `0/0`. A layer map file replaces the defaults of
//! the names it lists, one a line:
//!
//! ```text
//! # name   layer[/datatype] or layer datatype
//! metal1   31/0
//! via1     51 0
//! boundary 235
//! ```

use std::collections::BTreeMap;
use std::fmt;

use super::GdsLayer;

/// Largest layer or datatype number a map gives (GDSII's 2-byte signed
/// integers).
pub const MAX_NUMBER: u32 = 32767;

/// A drawn layer, by its name in the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LayerName {
    /// Wires on routing layer or plane `K` (from 1).
    Metal(u32),
    /// Cuts between `metalK` and `metalK+1`.
    Via(u32),
    /// Node boxes on plane `K`.
    Node(u32),
    /// Pin labels.
    Label,
    /// The outline of the channel or layout.
    Boundary,
}

impl fmt::Display for LayerName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayerName::Metal(k) => write!(f, "metal{k}"),
            LayerName::Via(k) => write!(f, "via{k}"),
            LayerName::Node(k) => write!(f, "node{k}"),
            LayerName::Label => f.write_str("label"),
            LayerName::Boundary => f.write_str("boundary"),
        }
    }
}

impl LayerName {
    /// The name as written in a map (`metal3`, `label`), if it is one.
    pub fn parse(s: &str) -> Option<LayerName> {
        match s {
            "label" => return Some(LayerName::Label),
            "boundary" => return Some(LayerName::Boundary),
            _ => {}
        }
        let numbered = |prefix: &str| -> Option<u32> {
            let digits = s.strip_prefix(prefix)?;
            if digits.is_empty() || digits.starts_with('0') {
                return None;
            }
            digits.parse().ok()
        };
        numbered("metal")
            .map(LayerName::Metal)
            .or_else(|| numbered("via").map(LayerName::Via))
            .or_else(|| numbered("node").map(LayerName::Node))
    }

    /// The default layer and datatype, if it is a number GDSII holds.
    pub fn default_layer(self) -> Option<GdsLayer> {
        let layer = match self {
            LayerName::Metal(k) => 10 * k as u64,
            LayerName::Node(k) => 10 * k as u64 + 1,
            LayerName::Via(k) => 10 * k as u64 + 5,
            LayerName::Label => 1,
            LayerName::Boundary => 0,
        };
        (layer <= MAX_NUMBER as u64).then_some(GdsLayer {
            layer: layer as u16,
            datatype: 0,
        })
    }
}

/// The defaults with a map file's entries over them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayerMap {
    entries: BTreeMap<LayerName, GdsLayer>,
}

impl LayerMap {
    /// The defaults alone.
    pub fn defaults() -> LayerMap {
        LayerMap::default()
    }

    /// A map file's text over the defaults. Errors name the line: an
    /// unknown name, a name given twice, a number past 32767, a bad line.
    pub fn parse(text: &str) -> Result<LayerMap, (usize, String)> {
        let mut entries = BTreeMap::new();
        for (k, raw) in text.lines().enumerate() {
            let line_no = k + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let name = LayerName::parse(words[0]).ok_or_else(|| {
                (
                    line_no,
                    format!(
                        "unknown layer name `{}` (metalK, viaK, nodeK for K from 1, label, boundary)",
                        words[0]
                    ),
                )
            })?;
            let (layer, datatype) = match words[1..] {
                [one] => match one.split_once('/') {
                    Some((l, d)) => (l, d),
                    None => (one, "0"),
                },
                [l, d] => (l, d),
                _ => {
                    return Err((
                        line_no,
                        format!("`{line}`: give NAME LAYER[/DATATYPE] or NAME LAYER DATATYPE"),
                    ))
                }
            };
            let number = |s: &str, what: &str| -> Result<u16, (usize, String)> {
                s.parse::<u32>()
                    .ok()
                    .filter(|&v| v <= MAX_NUMBER)
                    .map(|v| v as u16)
                    .ok_or_else(|| {
                        (
                            line_no,
                            format!("{what} `{s}` of {name}: give a number 0 to {MAX_NUMBER}"),
                        )
                    })
            };
            let value = GdsLayer {
                layer: number(layer, "layer")?,
                datatype: number(datatype, "datatype")?,
            };
            if entries.insert(name, value).is_some() {
                return Err((line_no, format!("{name} is mapped twice")));
            }
        }
        Ok(LayerMap { entries })
    }

    /// Where `name` goes: the map's entry, else the default.
    pub fn get(&self, name: LayerName) -> Result<GdsLayer, String> {
        if let Some(&l) = self.entries.get(&name) {
            return Ok(l);
        }
        name.default_layer().ok_or_else(|| {
            format!(
                "{name} has no default GDS layer (10K past {MAX_NUMBER}): map it in a --layer-map file"
            )
        })
    }

    /// The layers of `names`, in that order, refused when two names land
    /// on the same layer and datatype (their shapes could not be told
    /// apart) or a name has no default.
    pub fn resolve(&self, names: &[LayerName]) -> Result<Vec<GdsLayer>, String> {
        let mut seen: BTreeMap<GdsLayer, LayerName> = BTreeMap::new();
        let mut out = Vec::with_capacity(names.len());
        for &name in names {
            let l = self.get(name)?;
            if let Some(other) = seen.insert(l, name) {
                if other != name {
                    return Err(format!(
                        "{other} and {name} are both mapped to GDS layer {l}: give each drawn layer its own layer/datatype"
                    ));
                }
            }
            out.push(l);
        }
        Ok(out)
    }
}

/// The layers a drawing uses, resolved once: `metal`, `via` and `node`
/// indexed by `K - 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layers {
    /// `metal1 ..= metalN`.
    pub metal: Vec<GdsLayer>,
    /// `via1 ..= via(N-1)`.
    pub via: Vec<GdsLayer>,
    /// `node1 ..= nodeN`, or none.
    pub node: Vec<GdsLayer>,
    /// `label`.
    pub label: GdsLayer,
    /// `boundary`.
    pub boundary: GdsLayer,
}

impl Layers {
    /// Every drawn layer with its name.
    pub fn named(&self) -> Vec<(LayerName, GdsLayer)> {
        let mut v = vec![
            (LayerName::Boundary, self.boundary),
            (LayerName::Label, self.label),
        ];
        let numbered = |list: &[GdsLayer], name: fn(u32) -> LayerName| {
            list.iter()
                .enumerate()
                .map(move |(k, &l)| (name(k as u32 + 1), l))
                .collect::<Vec<_>>()
        };
        v.extend(numbered(&self.metal, LayerName::Metal));
        v.extend(numbered(&self.via, LayerName::Via));
        v.extend(numbered(&self.node, LayerName::Node));
        v
    }

    /// The layers of a drawing of `planes` metal layers, with node layers
    /// when `nodes`.
    pub fn resolve(map: &LayerMap, planes: u32, nodes: bool) -> Result<Layers, String> {
        let mut names = vec![LayerName::Boundary, LayerName::Label];
        names.extend((1..=planes).map(LayerName::Metal));
        names.extend((1..planes).map(LayerName::Via));
        if nodes {
            names.extend((1..=planes).map(LayerName::Node));
        }
        let all = map.resolve(&names)?;
        let p = planes as usize;
        let v = p.saturating_sub(1);
        Ok(Layers {
            boundary: all[0],
            label: all[1],
            metal: all[2..2 + p].to_vec(),
            via: all[2 + p..2 + p + v].to_vec(),
            node: all[2 + p + v..].to_vec(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_pattern() {
        let m = LayerMap::defaults();
        let g = |n| m.get(n).unwrap();
        assert_eq!(
            g(LayerName::Metal(1)),
            GdsLayer {
                layer: 10,
                datatype: 0
            }
        );
        assert_eq!(
            g(LayerName::Via(2)),
            GdsLayer {
                layer: 25,
                datatype: 0
            }
        );
        assert_eq!(
            g(LayerName::Node(3)),
            GdsLayer {
                layer: 31,
                datatype: 0
            }
        );
        assert!(m.get(LayerName::Metal(3277)).is_err());
    }

    #[test]
    fn a_file_overrides_and_is_checked() {
        let m = LayerMap::parse("# map\nmetal1 31/2\nvia1 51 0 # cut\nboundary 235\n").unwrap();
        assert_eq!(
            m.get(LayerName::Metal(1)).unwrap(),
            GdsLayer {
                layer: 31,
                datatype: 2
            }
        );
        assert_eq!(
            m.get(LayerName::Boundary).unwrap(),
            GdsLayer {
                layer: 235,
                datatype: 0
            }
        );
        assert_eq!(m.get(LayerName::Metal(2)).unwrap().layer, 20);
        assert_eq!(LayerMap::parse("metal0 1\n").unwrap_err().0, 1);
        assert!(LayerMap::parse("poly 1\n").is_err());
        assert!(LayerMap::parse("metal1 1\nmetal1 2\n").is_err());
        assert!(LayerMap::parse("metal1 40000\n").is_err());
        let clash = LayerMap::parse("metal1 20\n").unwrap();
        assert!(Layers::resolve(&clash, 2, false).is_err());
        assert!(Layers::resolve(&clash, 1, false).is_ok());
    }

    #[test]
    fn layers_resolve_in_order() {
        let l = Layers::resolve(&LayerMap::defaults(), 3, true).unwrap();
        assert_eq!(l.metal.len(), 3);
        assert_eq!(l.via.len(), 2);
        assert_eq!(l.node[2].layer, 31);
        assert_eq!(l.via[1].layer, 25);
    }
}
