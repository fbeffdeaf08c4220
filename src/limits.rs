//! What one run may ask for, checked before anything large is allocated or
//! built.
//!
//! Every size a file or a flag gives is turned into an estimate of the
//! memory the job would take, and the job is refused (exit 2) when that is
//! over the memory budget: by default [`DEFAULT_BUDGET`], 16 GiB, what fits
//! on the project's 24 GiB machines with room for the system and a second
//! job; `fabric --memory GIB` sets another. An allocation that fails aborts
//! a Rust process, so refusing early is the only way to fail cleanly.
//!
//! The per-item figures below were measured with `/usr/bin/time` (peak
//! resident memory) and are doubled for headroom; `docs/limits.md` lists
//! them with the sizes they allow.

#![warn(missing_docs)]

use std::sync::atomic::{AtomicU64, Ordering};

use thiserror::Error;

/// The memory budget unless `--memory` says otherwise: 16 GiB.
pub const DEFAULT_BUDGET: u64 = 16 << 30;

static BUDGET: AtomicU64 = AtomicU64::new(DEFAULT_BUDGET);

/// The memory budget in force, in bytes.
pub fn budget() -> u64 {
    BUDGET.load(Ordering::Relaxed)
}

/// Set the memory budget (the CLI's `--memory`), in bytes.
pub fn set_budget(bytes: u64) {
    BUDGET.store(bytes, Ordering::Relaxed);
}

/// A job refused before it started.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum LimitError {
    /// Its memory estimate is over the budget.
    #[error(
        "{what} would need about {} of memory, more than the budget of {} \
         (fabric --memory GIB sets it; see docs/limits.md)",
        gib(*.needed),
        gib(*.budget)
    )]
    Memory {
        /// What was asked for, in the user's terms.
        what: String,
        /// The estimate, in bytes.
        needed: u64,
        /// The budget in force, in bytes.
        budget: u64,
    },
    /// A count over one of the fixed limits below.
    #[error(
        "{what}: {count} is over fabric's limit of {limit} {unit} ({why}; see docs/limits.md)"
    )]
    Count {
        /// What was counted, in the user's terms.
        what: String,
        /// The count the job would reach.
        count: u64,
        /// The largest count allowed.
        limit: u64,
        /// What is counted, plural ("events", "grid points").
        unit: &'static str,
        /// Why the limit exists: the work that grows with the count.
        why: &'static str,
    },
}

/// Bytes as GiB with two decimals.
pub fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / (1u64 << 30) as f64)
}

/// Refuse `what` if `bytes` (an estimate) is over the budget.
pub fn check(what: impl FnOnce() -> String, bytes: u64) -> Result<(), LimitError> {
    let budget = budget();
    if bytes > budget {
        return Err(LimitError::Memory {
            what: what(),
            needed: bytes,
            budget,
        });
    }
    Ok(())
}

/// Routing grid memory per grid point (cell of one layer), all threads of
/// a routing together: 115 MB for a 100,000-column channel of density 8 in
/// HV (2 million points), about 57 bytes a point, doubled.
pub const ROUTE_BYTES_PER_POINT: u64 = 128;

/// Estimated memory of routing a channel: its grid points at the density
/// (every model routes about `density` tracks' worth of horizontal wire,
/// with a vertical layer beside each horizontal one) times
/// [`ROUTE_BYTES_PER_POINT`].
pub fn route_bytes(columns: u64, density: u64) -> u64 {
    columns
        .saturating_add(2)
        .saturating_mul(density.saturating_add(2))
        .saturating_mul(2)
        .saturating_mul(ROUTE_BYTES_PER_POINT)
}

/// Simulation memory per message and concurrent trial: 20-21 bytes
/// measured (fat-tree of 256 processors, 256,000 and 1,024,000 messages,
/// random and greedy), doubled and rounded up.
pub const SIM_BYTES_PER_MESSAGE: u64 = 48;

/// Estimated memory of simulating `messages` messages per trial with
/// `concurrent` trials at a time.
pub fn simulate_bytes(messages: u64, concurrent: u64) -> u64 {
    messages
        .saturating_mul(concurrent.max(1))
        .saturating_mul(SIM_BYTES_PER_MESSAGE)
}

/// Layout memory per node of a mesh, any dimensions: 720 bytes measured
/// at `n = 1024` and 2048 in 2-D, 941 at `n = 100` in 3-D, 503 at
/// `n = 10^6` on a line; doubled and rounded up.
pub const MESH_BYTES: u64 = 2_000;

/// Layout memory per node of a torus on a line or in the plane: 1,034
/// bytes measured at `n = 512` and 1,015 at 1024 in 2-D (25 raster points
/// a node), 611 at `n = 10^6` on a line; doubled and rounded up.
pub const TORUS_2D_BYTES: u64 = 2_100;

/// Layout memory per node of a torus in space (125 raster points a node):
/// 3,644 bytes measured at `n = 32` and 3,510 at 64; doubled and rounded
/// up.
pub const TORUS_3D_BYTES: u64 = 7_500;

/// Layout memory per leaf of the pruned butterfly and the sorting
/// fat-tree: their area per leaf grows as `9 lg^2 N` grid points (1,282
/// at `N = 4096`) and about `3 lg^2 N` (557 at `N = 16384`), about 25
/// bytes each in the checker's rasters; this covers `N = 4^8` (some 1,440
/// points a leaf) with room to spare.
pub const PRUNED_BUTTERFLY_BYTES: u64 = 80_000;

/// Estimated peak memory of building, checking and measuring one layout
/// of `kind` at `size`: bytes per unit of size (a processor; the root
/// mesh's side squared for trees of meshes, cubed in 3-D; the rows squared
/// for the butterfly `B(n)`), measured on the project's 24 GB machine and
/// doubled: htree and fat-tree 4^12 processors 13.7 GB (4^9 219 MB);
/// fat-pyramid 4^9 227 MB; butterfly and scalable fat-trees 4^12 8 and 6
/// GB; tree-of-meshes side 512 2.8 GB; tree-of-meshes-3d side 32 3.2 GB;
/// fat-tree-3d 8^7 1.7 GB; butterfly 1024 / 2048 / 4096 rows 163 / 604 /
/// 2,287 MB (155 / 144 / 136 bytes per N^2). The mesh and torus take
/// bytes per node, `n^d` of them for side `n` in `dims` dimensions
/// ([`MESH_BYTES`], [`TORUS_2D_BYTES`], [`TORUS_3D_BYTES`]); `dims` is
/// read for them alone.
pub fn layout_bytes(kind: crate::layout::LayoutKind, size: u64, dims: crate::layout::Dims) -> u64 {
    use crate::layout::{Dims, LayoutKind};
    let (bytes, power) = match kind {
        LayoutKind::Mesh => (MESH_BYTES, dims.count()),
        LayoutKind::Torus => match dims {
            Dims::One | Dims::Two => (TORUS_2D_BYTES, dims.count()),
            Dims::Three => (TORUS_3D_BYTES, 3),
        },
        LayoutKind::ButterflyFatTree => (1_000, 1),
        LayoutKind::ScalableFatTree => (750, 1),
        LayoutKind::TreeOfMeshes | LayoutKind::FoldedTreeOfMeshes => (22_000, 2),
        LayoutKind::TreeOfMeshes3d => (200_000, 3),
        LayoutKind::Butterfly => (320, 2),
        LayoutKind::PrunedButterfly | LayoutKind::SortingFatTree => (PRUNED_BUTTERFLY_BYTES, 1),
        LayoutKind::Htree
        | LayoutKind::FatTree
        | LayoutKind::FatPyramid
        | LayoutKind::FatTree3d => (1_800, 1),
    };
    size.saturating_pow(power).saturating_mul(bytes)
}

/// The largest switchbox side, in grid units. Side terminal lists are
/// stored densely (one entry per boundary point) and walked by the
/// routability test, so a side is bounded to keep both small: 2^24 points
/// are 64 MiB a side and a fraction of a second to walk. Wider boxes add
/// only empty boundary, which changes no answer the test can give.
pub const MAX_SWITCHBOX_SIDE: u64 = 1 << 24;

/// Crossing events a channel analysis walks at most: 2^27, a couple of
/// seconds. The events grow with how often nets' terminals alternate (a
/// 100,000-column channel of 1,000 nets in round robin has about 10^8),
/// not with the channel's size alone.
pub const MAX_CROSSING_EVENTS: u64 = 1 << 27;

/// Refuse a channel whose crossing analysis or routing is over the limits:
/// the crossing events ([`MAX_CROSSING_EVENTS`]), and, when `route_layers`
/// is given, the routing's memory ([`route_bytes`]) and the verifier's grid
/// at the density ([`crate::channel::verify::MAX_POINTS`]).
pub fn check_channel(
    problem: &crate::channel::ChannelProblem,
    route_layers: Option<u32>,
) -> Result<(), LimitError> {
    use crate::channel::analysis::{crossing_events, density};
    let events = crossing_events(problem);
    if events > MAX_CROSSING_EVENTS {
        return Err(LimitError::Count {
            what: format!("{}: crossing events of its nets", problem.name()),
            count: events,
            limit: MAX_CROSSING_EVENTS,
            unit: "events",
            why: "the crossing analysis walks each one",
        });
    }
    let Some(layers) = route_layers else {
        return Ok(());
    };
    let (columns, d) = (problem.columns() as u64, density(problem) as u64);
    check(
        || {
            format!(
                "routing {} ({columns} columns, density {d})",
                problem.name()
            )
        },
        route_bytes(columns, d),
    )?;
    let points = crate::channel::verify::grid_points(columns, d, layers as u64);
    let most = crate::channel::verify::MAX_POINTS;
    if points > most {
        return Err(LimitError::Count {
            what: format!(
                "{}: grid points of a {layers}-layer routing at the density ({columns} columns, density {d})",
                problem.name()
            ),
            count: points,
            limit: most,
            unit: "grid points",
            why: "the verifier checks every routing point by point",
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_saturate_and_are_refused() {
        assert_eq!(route_bytes(u64::MAX, u64::MAX), u64::MAX);
        assert!(check(|| "x".into(), route_bytes(u64::MAX, 3)).is_err());
        assert!(check(|| "x".into(), simulate_bytes(16_000_000_000, 1)).is_err());
        assert!(check(|| "x".into(), simulate_bytes(1000, 2)).is_ok());
        let e = check(|| "a job".into(), DEFAULT_BUDGET + 1).unwrap_err();
        assert!(
            e.to_string().contains("a job would need about 16.00 GiB"),
            "{e}"
        );
        assert!(e.to_string().contains("budget of 16.00 GiB"), "{e}");
    }
}
