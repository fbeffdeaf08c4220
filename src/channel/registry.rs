//! The router registry: every channel router by its command-line name.
//! Apart from [`super::router`], which the routers themselves use, so that
//! no import runs both ways.

use super::router::ChannelRouter;
use super::routers::left_edge::LeftEdgeRouter;

/// The channel routers, by their command-line names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum RouterKind {
    /// MulCh: any number of layers, HV, HVH and single-layer B groups.
    Mulch,
    /// The reserved-layer router in one layer model (2 or 3 layers).
    Yacr,
    /// The greedy (Rivest–Fiduccia) sweep alone.
    Greedy,
    /// The baseline left-edge router (2 layers, acyclic constraints).
    LeftEdge,
    /// The single-layer router for planar channels.
    Plane,
}

impl RouterKind {
    /// Every router.
    pub const ALL: [RouterKind; 5] = [
        RouterKind::Mulch,
        RouterKind::Yacr,
        RouterKind::Greedy,
        RouterKind::LeftEdge,
        RouterKind::Plane,
    ];

    /// The router itself.
    pub fn router(self) -> Box<dyn ChannelRouter> {
        match self {
            RouterKind::Mulch => Box::new(super::routers::mulch::MulchRouter::default()),
            RouterKind::LeftEdge => Box::new(LeftEdgeRouter),
            RouterKind::Yacr => Box::new(super::routers::yacr::YacrRouter),
            RouterKind::Greedy => Box::new(super::routers::greedy::GreedyRouter),
            RouterKind::Plane => Box::new(super::routers::plane::PlaneRouter),
        }
    }

    /// The command-line name.
    pub fn name(self) -> &'static str {
        self.router().name()
    }
}

/// The router with a given command-line name.
pub fn router_by_name(name: &str) -> Option<Box<dyn ChannelRouter>> {
    RouterKind::ALL
        .into_iter()
        .find(|k| k.name() == name)
        .map(RouterKind::router)
}
