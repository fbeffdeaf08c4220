//! Where a hop reads its packet's destination: a table (destinations
//! given, or fixed by an oracle as the run goes), or, for counter-based
//! random destinations ([`RandomRows`]), the generator itself, which
//! recomputes packet `i`'s output from `i` in a few multiplications
//! instead of a load from a random line of the table. The sweep is
//! compiled once per source, so neither pays for the other.

use crate::sim::packet::traffic::RandomRows;

/// A packet's destination, as the sweep consults it.
pub(super) trait Source: Copy {
    /// Packet `id`'s destination row; `dest` is the engine's table.
    fn row(self, dest: &[u64], id: u32) -> u64;

    /// Packet `id` reached output `row`: a counter-based run writes it to
    /// the table it never read, so the run reports where each packet went.
    fn reached(self, dest: &mut [u64], id: u32, row: usize);
}

/// The engine's table: given destinations, or an oracle's.
#[derive(Clone, Copy, Debug)]
pub(super) struct Table;

impl Source for Table {
    #[inline(always)]
    fn row(self, dest: &[u64], id: u32) -> u64 {
        dest[id as usize]
    }

    #[inline(always)]
    fn reached(self, _: &mut [u64], _: u32, _: usize) {}
}

impl Source for RandomRows {
    #[inline(always)]
    fn row(self, _: &[u64], id: u32) -> u64 {
        self.destination(id as u64)
    }

    #[inline(always)]
    fn reached(self, dest: &mut [u64], id: u32, row: usize) {
        dest[id as usize] = row as u64;
    }
}
