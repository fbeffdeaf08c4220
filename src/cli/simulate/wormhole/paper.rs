//! The paper's reference values and their acceptance bands.
//!
//! Source: R. I. Greenberg and H.-C. Oh, "Universal Wormhole Routing",
//! Table I (maximum latency in flit-steps, STORE and WORM, random,
//! complement and many-to-1 traffic) and Table II (WORM on random traffic:
//! realized congestion `c` and latency / `c`). Both tables are for the
//! butterfly fat-tree with RP paths and RR scans, `L = 32` flits, `R = 1`
//! and each scheme's own queue size.
//!
//! Bands: many-to-1 is exact (closed forms WORM = `cL + d - 2`, STORE =
//! `(2c + d - 3) L` with `c = N/2`, `d = lg N`); the WORM columns and
//! Table II within 5 %; STORE random and complement within 10 %.

use crate::report::model::wormhole::{CellReport, Comparison, PaperFigure};
use crate::sim::wormhole::{PathRule, Pattern, Scan, Scheme};

use super::args::WormNetwork;

/// Table I: `N`, then STORE random, complement, many-to-1, then WORM
/// random, complement, many-to-1, in flit-steps.
const TABLE_ONE: [(u32, [f64; 6]); 5] = [
    (16, [269.0, 198.0, 544.0, 125.0, 68.0, 258.0]),
    (64, [534.0, 442.0, 2144.0, 233.0, 161.0, 1028.0]),
    (256, [944.0, 829.0, 8352.0, 441.0, 301.0, 4102.0]),
    (1024, [1677.0, 1565.0, 32992.0, 843.0, 583.0, 16392.0]),
    (4096, [3031.0, 2896.0, 131360.0, 1592.0, 1123.0, 65546.0]),
];

/// Table II: `N`, WORM's mean `c` and latency / `c` on random traffic.
const TABLE_TWO: [(u32, f64, f64); 5] = [
    (16, 3.5, 35.6),
    (64, 5.6, 41.9),
    (256, 10.2, 43.4),
    (1024, 18.6, 45.3),
    (4096, 34.3, 46.4),
];

/// The flits per message of both tables.
pub const PAPER_FLITS: u32 = 32;

/// Whether `cell` runs the tables' configuration.
fn in_tables(cell: &CellReport, network: WormNetwork, flits: u32) -> bool {
    network == WormNetwork::ButterflyFatTree
        && matches!(cell.scheme, Scheme::Store | Scheme::Worm)
        && cell.path == PathRule::Random
        && cell.scan == Scan::RoundRobin
        && flits == PAPER_FLITS
        && cell.r == 1
        && cell.q == cell.scheme.default_queue()
}

/// Table I's column and band for a scheme and traffic (STORE or WORM).
fn column(scheme: Scheme, traffic: Pattern) -> (usize, f64) {
    let base = if scheme == Scheme::Worm { 3 } else { 0 };
    let offset = match traffic {
        Pattern::Random => 0,
        Pattern::Complement => 1,
        Pattern::ManyToOne => 2,
    };
    let band = match (traffic, scheme) {
        (Pattern::ManyToOne, _) => 0.0,
        (_, Scheme::Worm) => 0.05,
        _ => 0.10,
    };
    (base + offset, band)
}

/// The paper's values for `cell`, beside its measurements; empty when the
/// paper has none for its configuration.
pub fn comparisons(cell: &CellReport, network: WormNetwork, flits: u32) -> Vec<Comparison> {
    if !in_tables(cell, network, flits) {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some((_, row)) = TABLE_ONE.iter().find(|(n, _)| *n == cell.processors) {
        let (k, band) = column(cell.scheme, cell.traffic);
        out.push(Comparison::new(
            PaperFigure::Latency,
            cell.latency.mean,
            row[k],
            band,
        ));
    }
    let table_two = TABLE_TWO.iter().find(|(n, _, _)| *n == cell.processors);
    if let (Some(&(_, c, per_c)), Scheme::Worm, Pattern::Random) =
        (table_two, cell.scheme, cell.traffic)
    {
        out.push(Comparison::new(
            PaperFigure::Congestion,
            cell.congestion,
            c,
            0.05,
        ));
        out.push(Comparison::new(
            PaperFigure::LatencyPerC,
            cell.latency_per_c,
            per_c,
            0.05,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The many-to-1 columns are the closed forms.
    #[test]
    fn many_to_one_columns_are_the_closed_forms() {
        for (n, row) in TABLE_ONE {
            let (c, d) = (n as f64 / 2.0, n.ilog2() as f64);
            assert_eq!(row[5], c * 32.0 + d - 2.0, "WORM N {n}");
            assert_eq!(row[2], (2.0 * c + d - 3.0) * 32.0, "STORE N {n}");
        }
    }

    #[test]
    fn columns_follow_scheme_and_traffic() {
        assert_eq!(column(Scheme::Store, Pattern::Random), (0, 0.10));
        assert_eq!(column(Scheme::Store, Pattern::Complement), (1, 0.10));
        assert_eq!(column(Scheme::Store, Pattern::ManyToOne), (2, 0.0));
        assert_eq!(column(Scheme::Worm, Pattern::Random), (3, 0.05));
        assert_eq!(column(Scheme::Worm, Pattern::Complement), (4, 0.05));
        assert_eq!(column(Scheme::Worm, Pattern::ManyToOne), (5, 0.0));
    }
}
