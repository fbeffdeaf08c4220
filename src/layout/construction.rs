//! One interface for the layout families: a family's typed parameters
//! build its embedding with what the thesis' recurrences and closed forms
//! say of it, build the network the embedding realises, and print the
//! family's own figures beside the measured ones.

use super::error::SpecError;
use super::metrics::LayoutMetrics;
use super::Embedding;
use crate::network::Network;

/// Why a family cannot lay out the network asked for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// `--capacity` other than 1 for an H-tree of a power of 4 processors.
    #[error("an htree has capacity 1; use `fat-tree` for --capacity")]
    HtreeCapacity,
    /// `--alpha` for the 3-D fat-tree, whose processors have unit area.
    #[error("--alpha applies to 2-D fat-trees; fat-tree-3d has unit processors")]
    UnitProcessors,
    /// The family's construction refuses its parameters.
    #[error(transparent)]
    Spec(#[from] SpecError),
}

/// How a layout's measures break its closed forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormsError {
    /// A fat-pyramid wider or higher than its tiles.
    #[error("the layout is {width} x {height}, beyond its tiles' {tiles_w} x {tiles_h}")]
    BeyondTiles {
        /// Measured width.
        width: u64,
        /// Measured height.
        height: u64,
        /// The tiles' width.
        tiles_w: u64,
        /// The tiles' height.
        tiles_h: u64,
    },
    /// A 3-D fold-and-squash beyond its side or wire bound.
    #[error("the layout is {width} x {height} x {depth} with wires up to {max_wire} long, beyond the bounds 4nq = {side} and 8q - 4 = {wire}")]
    BeyondCube {
        /// Measured width.
        width: u64,
        /// Measured height.
        height: u64,
        /// Measured depth.
        depth: u64,
        /// Measured longest wire.
        max_wire: u64,
        /// The side bound.
        side: u64,
        /// The wire bound.
        wire: u64,
    },
    /// A layout whose measures are not its recurrence's.
    #[error("the layout is {width} x {height} with wires up to {max_wire} long, but the recurrence gives side {side} (closed form {closed}) and wires up to {formula_max_wire:?}")]
    NotTheRecurrence {
        /// Measured width.
        width: u64,
        /// Measured height.
        height: u64,
        /// Measured longest wire.
        max_wire: u64,
        /// The recurrence's side.
        side: u64,
        /// The closed form's side.
        closed: u64,
        /// The closed-form longest wire.
        formula_max_wire: Option<u64>,
    },
}

/// The options of `fabric layout` a family reads its parameters from,
/// besides the size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutOptions {
    /// `--capacity` as given (`None`: the family's default).
    pub capacity: Option<super::fattree::Capacity>,
    /// `--omega`: wires per unit of capacity.
    pub omega: u64,
    /// `--alpha`: processor area.
    pub alpha: u64,
    /// `--levels`: levels of a tree of meshes below its root.
    pub levels: Option<u32>,
    /// `--mesh-capacity`: parallel links between fat-pyramid mesh
    /// neighbours.
    pub mesh_capacity: u32,
    /// `--dims`: the dimensions of a mesh or torus (`None`: the default,
    /// [`Dims::Two`]).
    pub dims: Option<Dims>,
}

/// The dimensions `d` of a mesh or torus (`--dims`): a line, a grid in the
/// plane, or a grid in space. The line and the plane are laid out in 2-D,
/// the space in 3-D.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Dims {
    /// `d = 1`: a line (mesh) or a ring (torus).
    #[cfg_attr(feature = "cli", value(name = "1"))]
    One,
    /// `d = 2`: the plane.
    #[default]
    #[cfg_attr(feature = "cli", value(name = "2"))]
    Two,
    /// `d = 3`: space.
    #[cfg_attr(feature = "cli", value(name = "3"))]
    Three,
}

impl Dims {
    /// Every value, in order.
    pub const ALL: [Dims; 3] = [Dims::One, Dims::Two, Dims::Three];

    /// `d` as a number.
    pub fn count(self) -> u32 {
        match self {
            Dims::One => 1,
            Dims::Two => 2,
            Dims::Three => 3,
        }
    }

    /// The value of `d`, for `d` in `1 ..= 3`.
    pub fn from_count(d: u64) -> Option<Dims> {
        Dims::ALL.into_iter().find(|x| x.count() as u64 == d)
    }

    /// The dimensions of the layout: 2 for the line and the plane, 3 for
    /// space.
    pub fn layout_dimensions(self) -> u32 {
        self.count().max(2)
    }
}

/// How a layout's measures must match its [`ClosedForms`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Width, height (and depth), the closed form and the longest wire are
    /// exactly the recurrence's.
    Exact,
    /// Fat-pyramid: width and height at most the tile grid's (the last
    /// bands' outer tracks may go unused); its tile pitch and tracks per
    /// band.
    Tiles {
        /// Width and height of one tile.
        pitch: (i64, i64),
        /// Vertical and horizontal tracks per band.
        tracks: (i64, i64),
    },
    /// 3-D fold-and-squash: every side at most the side, every wire at
    /// most `wire` (the extreme auxiliary planes may go unused).
    Cube {
        /// The longest wire's bound.
        wire: u64,
    },
}

/// What a family's recurrence and closed forms say of its layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClosedForms {
    /// The side by the recurrence (the height of a layout that is not
    /// square; a bound unless [`Bound::Exact`]).
    pub side: u64,
    /// The width (the side, unless the layout is not square).
    pub width: u64,
    /// The side by the closed form.
    pub closed: u64,
    /// The closed-form longest wire, for constructions that have one.
    pub max_wire: Option<u64>,
    /// How the measures must match.
    pub bound: Bound,
}

impl ClosedForms {
    /// Exact forms of a square layout.
    pub fn square(side: u64, closed: u64, max_wire: Option<u64>) -> ClosedForms {
        ClosedForms {
            side,
            width: side,
            closed,
            max_wire,
            bound: Bound::Exact,
        }
    }

    /// Holds the measures `m` of a layout of `dimensions` dimensions
    /// against the forms; the disagreement otherwise.
    pub fn check(&self, m: &LayoutMetrics, dimensions: u32) -> Result<(), FormsError> {
        let side = self.side;
        match self.bound {
            Bound::Tiles { .. } => {
                let (w, h) = (self.width, self.side);
                if m.width > w || m.height > h {
                    return Err(FormsError::BeyondTiles {
                        width: m.width,
                        height: m.height,
                        tiles_w: w,
                        tiles_h: h,
                    });
                }
            }
            Bound::Cube { wire } => {
                if m.width.max(m.height).max(m.depth) > side || m.max_wire_length > wire {
                    return Err(FormsError::BeyondCube {
                        width: m.width,
                        height: m.height,
                        depth: m.depth,
                        max_wire: m.max_wire_length,
                        side,
                        wire,
                    });
                }
            }
            Bound::Exact => {
                if m.width != self.width
                    || m.height != side
                    || (dimensions == 3 && m.depth != side)
                    || self.closed != side
                    || self.max_wire.is_some_and(|w| w != m.max_wire_length)
                {
                    return Err(FormsError::NotTheRecurrence {
                        width: m.width,
                        height: m.height,
                        max_wire: m.max_wire_length,
                        side,
                        closed: self.closed,
                        formula_max_wire: self.max_wire,
                    });
                }
            }
        }
        Ok(())
    }
}

/// A layout a family built, with its closed forms.
#[derive(Clone, Debug)]
pub struct Laid {
    /// The embedding.
    pub embedding: Embedding,
    /// What the family's recurrence and closed forms say of it.
    pub forms: ClosedForms,
}

/// A built layout as measured, for a family's figures.
pub struct Measured<'a> {
    /// The layout and its closed forms.
    pub laid: &'a Laid,
    /// Its measures.
    pub metrics: &'a LayoutMetrics,
    /// Wire crossings the checker counted.
    pub crossings: u64,
    /// Seconds spent building, checking and measuring.
    pub seconds: f64,
    /// `--delay` as given.
    pub delay: &'a str,
}

impl Measured<'_> {
    /// The common line of families measured against a recurrence:
    /// `recurrence` names it and its closed form.
    pub fn recurrence_line(&self, recurrence: &str) -> String {
        format!(
            "  side {} = recurrence {recurrence} {}; verified legal ({} crossings), realises its network; {:.3} ms",
            self.laid.forms.side,
            self.laid.forms.closed,
            self.crossings,
            self.seconds * 1e3
        )
    }
}

/// A layout family's construction at one size, from its typed parameters.
pub trait Construction {
    /// Lays the network out, with what its recurrence and closed forms say
    /// of the layout.
    fn build(&self) -> Result<Laid, LayoutError>;

    /// The network a layout of these parameters realises, built from the
    /// parameters alone.
    fn network(&self) -> Result<Network, LayoutError>;

    /// The family's figures for `fabric layout --size`, line by line: the
    /// measures held against the thesis' recurrence, closed forms and
    /// bounds.
    fn figures(&self, m: &Measured) -> Vec<String>;
}
