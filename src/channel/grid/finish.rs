//! A routed grid as a channel solution: tidied, its geometry labelled
//! with the problem's net labels, canonical.

use super::cleanup;
use super::Grid;
use crate::channel::layer_model::Directions;
use crate::channel::layer_model::LayerModel;
use crate::channel::problem::ChannelProblem;
use crate::channel::solution::{ChannelSolution, LayerGroup, Via, Wire};

/// Turn a routed grid into a solution, tidied under a direction rule.
pub fn finish(
    problem: &ChannelProblem,
    model: LayerModel,
    directions: Directions,
    mut g: Grid,
) -> ChannelSolution {
    cleanup::tidy(problem, &mut g, directions);
    // The labels in one small table: the nets themselves are far apart in
    // memory, and every wire and via asks for one.
    let labels: Vec<u32> = problem.net_ids().map(|id| problem.label(id)).collect();
    let (wires, vias) = g.geometry(|id| labels[id as usize]);
    // One more layer than the model's when the borrowed layer was used.
    let used = wires.iter().any(|w| w.layer > model.layers())
        || vias.iter().any(|v| v.to > model.layers());
    let layers = if used {
        g.extent.layers
    } else {
        model.layers()
    };
    solution(problem, model, layers, g.extent.width, wires, vias)
}

/// A routing of `problem` in one group of `model`'s layers (`layers` in
/// all: one more when a borrowed layer was used), canonical.
pub fn solution(
    problem: &ChannelProblem,
    model: LayerModel,
    layers: u32,
    width: i64,
    wires: Vec<Wire>,
    vias: Vec<Via>,
) -> ChannelSolution {
    let mut s = ChannelSolution {
        name: problem.name().to_string(),
        layers,
        width: width as u32,
        columns: problem.columns(),
        groups: vec![LayerGroup {
            kind: crate::channel::solution::GroupType::Model(model),
            layers: (1..=model.layers()).collect(),
        }],
        wires,
        vias,
    };
    s.canonicalize();
    s
}
