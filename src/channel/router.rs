//! The interface every channel router implements, and the router registry.

use thiserror::Error;

pub use super::layer_model::Directions;
use super::layer_model::LayerModel;
use super::problem::ChannelProblem;
use super::solution::ChannelSolution;

/// What a caller asks of a router besides the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteOptions {
    /// Number of layers `L` of the channel.
    pub layers: u32,
    /// Layer model, for routers that offer more than one per layer count;
    /// `None` for the router's default.
    pub model: Option<super::layer_model::LayerModel>,
    /// How hard the router searches at a width before it widens the
    /// channel.
    pub effort: Effort,
    /// Whether wires may run against their layer's direction.
    pub directions: Directions,
}

impl Default for RouteOptions {
    fn default() -> Self {
        RouteOptions::layers(2)
    }
}

impl RouteOptions {
    /// Route in `layers` layers, with the router's default model and effort.
    pub fn layers(layers: u32) -> Self {
        RouteOptions {
            layers,
            model: None,
            effort: Effort::default(),
            directions: Directions::default(),
        }
    }
}

/// How hard a router searches at one width before it widens the channel:
/// the reserved-layer (`yacr`) router's jittered assignments, also used by
/// MulCh for its HV and HVH groups. Other routers ignore it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    /// The work budget at each width.
    pub level: EffortLevel,
    /// Jittered assignments tried at a width once the standard candidates
    /// fail there; `None`: as many as the level's work budget allows.
    pub starts: Option<u32>,
    /// Seed of the jittered assignments: the same problem, options and seed
    /// give the same routing.
    pub seed: u64,
}

/// The work budgets of [`Effort`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum EffortLevel {
    /// A conflict-free assignment at the lower bound or one above first (in
    /// models with one trunk layer), then no jittered starts.
    Fast,
    /// Jittered starts within a budget of grid cells.
    #[default]
    Normal,
    /// Four times the budget and four times the starts, and on channels
    /// within it both piece variants routed at the final width, the one
    /// with fewer vias kept.
    Thorough,
}

impl RouteOptions {
    /// What the reserved-layer router takes of these options besides the
    /// layer model.
    pub fn rules(&self) -> Rules {
        Rules {
            effort: self.effort,
            directions: self.directions,
        }
    }
}

/// How the reserved-layer router searches: its effort at each width and
/// the direction rule its routings keep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// How hard it searches at a width.
    pub effort: Effort,
    /// Whether wires may run against their layer's direction.
    pub directions: Directions,
}

/// Why a router gave no solution.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum RouteError {
    /// The router does not work in this many layers.
    #[error("the {router} router routes in {supported} layers, not {layers}")]
    Layers {
        /// The router's name.
        router: &'static str,
        /// The layer count asked for.
        layers: u32,
        /// The layer counts it supports, as text ("2 or 3").
        supported: &'static str,
    },
    /// Vertical constraints form a cycle the router cannot break; the nets of
    /// one cycle, by label, in constraint order (each above the next).
    #[error("the {router} router cannot route a cyclic vertical constraint graph: cycle {}; \
             the yacr and mulch routers route cyclic channels (--router yacr)", format_cycle(.cycle))]
    Cyclic {
        /// The router's name.
        router: &'static str,
        /// Labels of the nets on the cycle.
        cycle: Vec<u32>,
    },
    /// Any other reason the channel cannot be routed by this router.
    #[error("unroutable: {0}")]
    Unroutable(String),
}

fn format_cycle(cycle: &[u32]) -> String {
    let mut s: Vec<String> = cycle.iter().map(|l| format!("net {l}")).collect();
    if let Some(first) = cycle.first() {
        s.push(format!("net {first}"));
    }
    s.join(" above ")
}

/// A detailed channel router: a problem in, a routed channel out.
pub trait ChannelRouter {
    /// The name used on the command line.
    fn name(&self) -> &'static str;
    /// Route the channel. The result must pass [`super::verify::verify`].
    fn route(
        &self,
        problem: &ChannelProblem,
        options: &RouteOptions,
    ) -> Result<ChannelSolution, RouteError>;
    /// Route, telling an observer what is being tried (for progress on a
    /// terminal). Routers with long runs override it; the default just routes.
    fn route_observed(
        &self,
        problem: &ChannelProblem,
        options: &RouteOptions,
        observer: &mut dyn FnMut(RouteEvent),
    ) -> Result<ChannelSolution, RouteError> {
        let _ = observer;
        self.route(problem, options)
    }
    /// Route with the free space of a layer just above the router's own
    /// offered for repairs (another group's layer in MulCh, thesis section 6.4),
    /// numbered `options.layers + 1` in the result when used. Routers that
    /// cannot use it route without it (the default).
    fn route_borrowing(
        &self,
        problem: &ChannelProblem,
        options: &RouteOptions,
        borrowed: &Borrowed,
        observer: &mut dyn FnMut(RouteEvent),
    ) -> Result<ChannelSolution, RouteError> {
        let _ = borrowed;
        self.route_observed(problem, options, observer)
    }
}

/// Free space on a layer just above a router's own layers that it may use
/// for repairs (MulCh's B layers, thesis section 6.4: "unused space on layers
/// assigned to B groups is available for routing other nets"; track
/// assignment never uses it). Offered at widths from `from_width` up.
pub struct Borrowed<'a> {
    /// The narrowest width at which the layer is offered.
    pub from_width: u32,
    /// The points `(x, y)` the layer's own routing uses in a channel of a
    /// given width; `None` when it has no routing that wide.
    pub occupied: &'a dyn Fn(u32) -> Option<Vec<crate::geom::Point>>,
}

/// What a router reports while it works.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RouteEvent {
    /// Trying to route in this many tracks with the named method.
    Trying {
        /// The width, in tracks.
        width: u32,
        /// The method, as the router names it in progress output.
        method: &'static str,
    },
}

/// The layer model a caller asks for, checked against the layer count.
pub fn model_for(router: &'static str, options: &RouteOptions) -> Result<LayerModel, RouteError> {
    let model = match options.model {
        Some(m) => m,
        None => LayerModel::default_for(options.layers).ok_or(RouteError::Layers {
            router,
            layers: options.layers,
            supported: "2 (HV, VH) or 3 (HVH, VHV)",
        })?,
    };
    if model.layers() != options.layers {
        return Err(RouteError::Layers {
            router,
            layers: options.layers,
            supported: if model.layers() == 2 {
                "2 for HV and VH"
            } else {
                "3 for HVH and VHV"
            },
        });
    }
    Ok(model)
}
