//! MulCh's group-type selection loop:
//! how many B layers to use, each configuration tried by net assignment.

use super::assign::assign_nets;
use super::partition::{AssignOptions, Context, Partition};
use crate::channel::layer_model::{candidate_b_values, Configuration};
use crate::channel::problem::NetId;

/// One step of the group-type selection loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// Number of B layers tried.
    pub b: u32,
    /// The configuration for that `b`.
    pub config: Configuration,
    /// `None` when the nets could not all be assigned.
    pub estimate: Option<u32>,
}

/// Options of the selection loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SelectOptions {
    /// Options of net assignment for every configuration tried.
    pub assign: AssignOptions,
    /// Use B layers at all (`false`: Chameleon's configuration only).
    pub no_b_layers: bool,
    /// Also try this many more B layers than the loop settles on (0, 1 or 2).
    pub extra: u32,
    /// How hard the HV and HVH groups' router searches at a width, and
    /// the direction rule their routings keep.
    pub rules: crate::channel::router::Rules,
}

/// The outcome of the selection loop.
#[derive(Clone, Debug)]
pub struct Selection {
    /// Every configuration tried, in order.
    pub attempts: Vec<Attempt>,
    /// The partition the loop settles on.
    pub chosen: Partition,
    /// Chameleon's partition (`b = 0`) when it is not the chosen one.
    pub chameleon: Option<Partition>,
    /// Partitions with one or two more B layers (extra effort).
    pub extra: Vec<Partition>,
}

/// Why no partition exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SelectError {
    /// One layer and crossing nets (the two given by id).
    NotPlanar(NetId, NetId),
    /// No configuration: one layer and B layers switched off.
    NoConfiguration,
}

/// MulCh's selection loop: start with no B layers,
/// add B layers while the area estimate is at least as good, settle on the
/// best (ties to more B layers).
pub fn select(
    ctx: &Context,
    layers: u32,
    options: SelectOptions,
) -> Result<Selection, SelectError> {
    if layers == 1 {
        if options.no_b_layers {
            return Err(SelectError::NoConfiguration);
        }
        if let Some((a, &b)) = ctx
            .crossings
            .iter()
            .enumerate()
            .find_map(|(a, l)| l.first().map(|b| (a, b)))
        {
            return Err(SelectError::NotPlanar(NetId(a as u32), NetId(b)));
        }
    }
    let mut attempts = Vec::new();
    let mut best: Option<Partition> = None;
    let mut chameleon = None;
    let candidates = if options.no_b_layers {
        vec![0]
    } else {
        candidate_b_values(layers)
    };
    for b in candidates {
        let config = Configuration::new(layers, b).ok_or(SelectError::NoConfiguration)?;
        let p = assign_nets(ctx, config, options.assign);
        attempts.push(Attempt {
            b,
            config,
            estimate: p.as_ref().map(|p| p.estimate),
        });
        let Some(p) = p else { break };
        if b == 0 {
            chameleon = Some(p.clone());
        }
        match &best {
            Some(q) if p.estimate > q.estimate => break,
            _ => best = Some(p),
        }
    }
    let chosen =
        best.expect("the first configuration (b = 0, or one planar B layer) always assigns");
    let mut extra = Vec::new();
    for b in (1..=options.extra.min(2)).map(|k| chosen.b() + k) {
        if let Some(config) = Configuration::new(layers, b) {
            // A configuration the loop already assigned is not assigned again.
            if let Some(a) = attempts.iter().find(|a| a.b == b).cloned() {
                if a.estimate.is_some() {
                    extra.extend(assign_nets(ctx, config, options.assign));
                }
                continue;
            }
            let p = assign_nets(ctx, config, options.assign);
            attempts.push(Attempt {
                b,
                config,
                estimate: p.as_ref().map(|p| p.estimate),
            });
            extra.extend(p);
        }
    }
    let chameleon = chameleon.filter(|c| c.b() != chosen.b());
    Ok(Selection {
        attempts,
        chosen,
        chameleon,
        extra,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::problem::ChannelProblem;
    use crate::channel::routers::mulch::partition::GroupKind;

    fn problem(top: &[u32], bottom: &[u32]) -> ChannelProblem {
        ChannelProblem::from_rows("t", top, bottom, &[], &[]).unwrap()
    }

    #[test]
    fn chameleon_only_without_b_layers() {
        let p = problem(&[1, 2, 0, 3, 2], &[2, 0, 1, 1, 3]);
        let ctx = Context::new(&p);
        let s = select(
            &ctx,
            4,
            SelectOptions {
                no_b_layers: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(s.chosen.b(), 0);
        assert_eq!(s.attempts.len(), 1);
        assert!(s.chosen.groups.iter().all(|g| g.kind == GroupKind::Hv));
    }
}
