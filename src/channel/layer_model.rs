//! How MulCh packs `L` layers into groups (thesis section 6.3), and the width lower bounds that follow.
//!
//! A group is HV (one horizontal and one vertical layer), HVH (two horizontal
//! layers sharing one vertical layer) or B (a single layer carrying a planar
//! subset of the nets in both directions). With `b` B layers the other
//! `m = L - b` layers are packed into as many HVH groups as possible and at
//! most two HV groups (Chameleon's packing); `m = 1` cannot be packed.
//!
//! [`LayerModel`] names the layer models of one group of reserved-layer
//! routing (HV, VH, HVH, VHV).

/// The layer models of reserved-layer routing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum LayerModel {
    /// Two layers: horizontal wires on layer 1, vertical on layer 2.
    #[cfg_attr(feature = "cli", value(name = "HV"))]
    Hv,
    /// Two layers: vertical wires on layer 1, horizontal on layer 2.
    #[cfg_attr(feature = "cli", value(name = "VH"))]
    Vh,
    /// Three layers: horizontal on layers 1 and 3, vertical on layer 2.
    #[cfg_attr(feature = "cli", value(name = "HVH"))]
    Hvh,
    /// Three layers: vertical on layers 1 and 3, horizontal on layer 2.
    #[cfg_attr(feature = "cli", value(name = "VHV"))]
    Vhv,
}

/// A name that is no layer model.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid variant: {0}")]
pub struct UnknownLayerModel(pub String);

impl std::str::FromStr for LayerModel {
    type Err = UnknownLayerModel;

    /// A model by its name, in any case (`HV`, `vhv`, ...).
    fn from_str(s: &str) -> Result<LayerModel, UnknownLayerModel> {
        LayerModel::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownLayerModel(s.into()))
    }
}

impl LayerModel {
    /// Every model, in declaration order.
    pub const ALL: [LayerModel; 4] = [
        LayerModel::Hv,
        LayerModel::Vh,
        LayerModel::Hvh,
        LayerModel::Vhv,
    ];

    /// The model's name, one letter a layer from layer 1 up.
    pub fn name(self) -> &'static str {
        match self {
            LayerModel::Hv => "HV",
            LayerModel::Vh => "VH",
            LayerModel::Hvh => "HVH",
            LayerModel::Vhv => "VHV",
        }
    }

    /// The model used for a layer count when none is asked for.
    pub fn default_for(layers: u32) -> Option<LayerModel> {
        match layers {
            2 => Some(LayerModel::Hv),
            3 => Some(LayerModel::Hvh),
            _ => None,
        }
    }

    /// The number of layers.
    pub fn layers(self) -> u32 {
        self.name().len() as u32
    }

    /// The layers that carry horizontal wires (1-based).
    pub fn h_layers(self) -> Vec<u32> {
        (1..=self.layers())
            .filter(|&l| self.name().as_bytes()[(l - 1) as usize] == b'H')
            .collect()
    }

    /// The layers that carry vertical wires (1-based).
    pub fn v_layers(self) -> Vec<u32> {
        (1..=self.layers())
            .filter(|&l| self.name().as_bytes()[(l - 1) as usize] == b'V')
            .collect()
    }
}

/// The groups of one configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Configuration {
    /// Total layers `L`: `b + 3·hvh + 2·hv`.
    pub layers: u32,
    /// Number of single-layer B groups.
    pub b: u32,
    /// Number of three-layer HVH groups.
    pub hvh: u32,
    /// Number of two-layer HV groups.
    pub hv: u32,
}

impl Configuration {
    /// Chameleon's packing of `layers` layers with `b` of them single-layer B
    /// groups; `None` when the rest (`layers - b = 1`) cannot be packed.
    pub fn new(layers: u32, b: u32) -> Option<Configuration> {
        if b > layers {
            return None;
        }
        let (hvh, hv) = pack_non_b(layers - b)?;
        Some(Configuration { layers, b, hvh, hv })
    }

    /// Number of layers that carry horizontal wires: `H(b) = b + 2·#HVH + #HV`.
    pub fn horizontal_layers(&self) -> u32 {
        self.b + 2 * self.hvh + self.hv
    }

    /// `ceil(d / H(b))`: no routing in this configuration is narrower, since
    /// each column position crossed by `d` nets needs `d` horizontal slots.
    pub fn width_lower_bound(&self, density: u32) -> u32 {
        let h = self.horizontal_layers();
        if h == 0 {
            0
        } else {
            density.div_ceil(h)
        }
    }

    /// Short name such as `HVH+2HV+B`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        let mut push = |count: u32, name: &str| match count {
            0 => {}
            1 => parts.push(name.to_string()),
            k => parts.push(format!("{k}{name}")),
        };
        push(self.hvh, "HVH");
        push(self.hv, "HV");
        push(self.b, "B");
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join("+")
        }
    }
}

/// `(#HVH, #HV)` for `m` non-B layers, or `None` for `m = 1`.
pub fn pack_non_b(m: u32) -> Option<(u32, u32)> {
    match m % 3 {
        0 => Some((m / 3, 0)),
        2 => Some(((m - 2) / 3, 1)),
        _ if m >= 4 => Some(((m - 4) / 3, 2)),
        _ => None,
    }
}

/// The B-layer counts MulCh tries, in order: `b = 0` first (Chameleon; a
/// single layer is all-B), then each next smallest `b` that raises `H(b)`.
pub fn candidate_b_values(layers: u32) -> Vec<u32> {
    if layers == 0 {
        return Vec::new();
    }
    if layers == 1 {
        return vec![1];
    }
    let mut out = vec![0];
    let mut best_h = Configuration::new(layers, 0)
        .expect("L >= 2 packs with b = 0")
        .horizontal_layers();
    for b in 1..=layers {
        if let Some(c) = Configuration::new(layers, b) {
            if c.horizontal_layers() > best_h {
                best_h = c.horizontal_layers();
                out.push(b);
            }
        }
    }
    out
}

/// The candidate configurations for `layers`, in the order MulCh tries them.
pub fn candidate_configurations(layers: u32) -> Vec<Configuration> {
    candidate_b_values(layers)
        .into_iter()
        .filter_map(|b| Configuration::new(layers, b))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_parse_by_name_in_any_case() {
        for m in LayerModel::ALL {
            assert_eq!(m.name().parse(), Ok(m));
            assert_eq!(m.name().to_lowercase().parse(), Ok(m));
        }
        assert_eq!(
            "HVX".parse::<LayerModel>(),
            Err(UnknownLayerModel("HVX".into()))
        );
    }

    fn h(l: u32, b: u32) -> Option<u32> {
        Configuration::new(l, b).map(|c| c.horizontal_layers())
    }

    #[test]
    fn eight_layers_match_the_spec_table() {
        let hs: Vec<Option<u32>> = (0..=8).map(|b| h(8, b)).collect();
        assert_eq!(
            hs,
            vec![
                Some(5),
                Some(5),
                Some(6),
                Some(6),
                Some(6),
                Some(7),
                Some(7),
                None,
                Some(8)
            ]
        );
        assert_eq!(candidate_b_values(8), vec![0, 2, 5, 8]);
    }

    #[test]
    fn small_layer_counts_match_the_spec_table() {
        let names = |l: u32| -> Vec<String> {
            candidate_configurations(l)
                .iter()
                .map(|c| format!("{}({})", c.describe(), c.horizontal_layers()))
                .collect()
        };
        assert_eq!(names(1), vec!["B(1)"]);
        assert_eq!(names(2), vec!["HV(1)", "2B(2)"]);
        assert_eq!(names(3), vec!["HVH(2)", "3B(3)"]);
        assert_eq!(names(4), vec!["2HV(2)", "HVH+B(3)", "4B(4)"]);
        assert_eq!(names(5), vec!["HVH+HV(3)", "HVH+2B(4)", "5B(5)"]);
        assert_eq!(names(6), vec!["2HVH(4)", "HVH+3B(5)", "6B(6)"]);
        assert_eq!(
            names(7),
            vec!["HVH+2HV(4)", "2HVH+B(5)", "HVH+4B(6)", "7B(7)"]
        );
    }

    #[test]
    fn lower_bound_is_a_ceiling() {
        let c = Configuration::new(3, 0).unwrap();
        assert_eq!(c.width_lower_bound(19), 10);
        assert_eq!(Configuration::new(2, 0).unwrap().width_lower_bound(19), 19);
        assert_eq!(pack_non_b(1), None);
    }
}

/// The rule a routing keeps for the directions of the layers of its
/// reserved-layer groups (HV, VH, HVH, VHV; B layers have no direction).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Directions {
    /// Each layer has a preferred direction; a wire may run against it at
    /// a cost (a jog of a maze repair, a pin entered on a horizontal
    /// layer), as the maze steps of YACR2 allow.
    #[default]
    Preferred,
    /// No wire runs against its layer's direction, and pins are entered on
    /// the vertical layers: the classic reserved-layer model, the one
    /// `fabric verify --reserved` checks.
    Reserved,
}
