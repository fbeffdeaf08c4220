//! The fat-tree and the H-tree as [`Construction`]s: their recurrence
//! (4.1), its closed form and the longest wire, and their network twins.

use super::{closed_form_side, fat_tree, htree, Capacity, FatTreeSpec};
use crate::layout::construction::{
    ClosedForms, Construction, Laid, LayoutError, LayoutOptions, Measured,
};
use crate::network::Network;

/// The recurrence and closed form the fat-tree's figures name.
const RECURRENCE: &str = "S(n) = 2 S(n/4) + t(n); closed form";

impl FatTreeSpec {
    /// The spec `fabric layout fat-tree --size n` asks for (`--capacity`
    /// defaults to `sqrt-over-lg`).
    pub fn from_options(n: u64, o: &LayoutOptions) -> Result<FatTreeSpec, LayoutError> {
        Ok(FatTreeSpec {
            processors: n,
            capacity: o.capacity.clone().unwrap_or(Capacity::SqrtOverLg),
            omega: o.omega,
            alpha: o.alpha,
        })
    }
}

impl Construction for FatTreeSpec {
    fn build(&self) -> Result<Laid, LayoutError> {
        let (embedding, rec) = fat_tree(self)?;
        let k = rec.sides.len() - 1;
        // Bundle wires of F_j are S_{j-2} + 1 long; at j = 1 the half-node
        // to root wires are s1 - t(1) + 1.
        let mut longest = if k >= 1 {
            (rec.leaf_side - rec.tracks[0] + 1).max(1)
        } else {
            0
        };
        if k >= 2 {
            longest = longest.max(rec.sides[k - 2] + 1);
        }
        let side = *rec.sides.last().expect("k + 1 sides");
        Ok(Laid {
            embedding,
            forms: ClosedForms::square(side, closed_form_side(&rec), Some(longest)),
        })
    }

    fn network(&self) -> Result<Network, LayoutError> {
        Ok(Network::fat_tree(self)?)
    }

    fn figures(&self, m: &Measured) -> Vec<String> {
        vec![m.recurrence_line(RECURRENCE)]
    }
}

/// Parameters of an H-tree: `n` a power of 4 is the fat-tree of capacity 1
/// (with `omega` and `alpha`); `n = 2·4^k` is two H-trees of `n / 2`
/// leaves turned towards a root between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HtreeSpec {
    /// Number of processors, a power of 2.
    pub processors: u64,
    /// Wires per unit of capacity (powers of 4 only).
    pub omega: u64,
    /// Processor area (powers of 4 only).
    pub alpha: u64,
}

impl HtreeSpec {
    /// The spec `fabric layout htree --size n` asks for; a power of 4
    /// refuses a `--capacity` other than 1 (or the default).
    pub fn from_options(n: u64, o: &LayoutOptions) -> Result<HtreeSpec, LayoutError> {
        let spec = HtreeSpec {
            processors: n,
            omega: o.omega,
            alpha: o.alpha,
        };
        if spec.fat_tree().is_some()
            && !matches!(
                o.capacity,
                None | Some(Capacity::SqrtOverLg | Capacity::One)
            )
        {
            return Err(LayoutError::HtreeCapacity);
        }
        Ok(spec)
    }

    /// The fat-tree of capacity 1 it is, when `processors` is a power of 4.
    fn fat_tree(&self) -> Option<FatTreeSpec> {
        let n = self.processors;
        (n.is_power_of_two() && n.trailing_zeros() % 2 == 0).then_some(FatTreeSpec {
            processors: n,
            capacity: Capacity::One,
            omega: self.omega,
            alpha: self.alpha,
        })
    }
}

impl Construction for HtreeSpec {
    fn build(&self) -> Result<Laid, LayoutError> {
        if let Some(spec) = self.fat_tree() {
            return spec.build();
        }
        // Two H-trees of size / 2 leaves, turned towards a root between
        // them (sizes that are not powers of 2 are refused by `htree`).
        let embedding = htree(self.processors)?;
        let k = self.processors.trailing_zeros() / 2;
        let s = (1u64 << (k + 1)) - 1;
        let mut forms = ClosedForms::square(s, (1u64 << (k + 1)) - 1, Some(1u64 << k));
        forms.width = 2 * s + 1;
        Ok(Laid { embedding, forms })
    }

    fn network(&self) -> Result<Network, LayoutError> {
        let spec = self.fat_tree().unwrap_or(FatTreeSpec {
            processors: self.processors,
            capacity: Capacity::One,
            omega: 1,
            alpha: 1,
        });
        Ok(Network::fat_tree(&spec)?)
    }

    fn figures(&self, m: &Measured) -> Vec<String> {
        vec![m.recurrence_line(RECURRENCE)]
    }
}
