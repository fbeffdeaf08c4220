//! Bit-step time, control-register sizes and grid-unit area of a flexible
//! sorter (proof of Theorem 2; the cost model is described in
//! `docs/simulation.md`, "The sorting fat-tree's algorithm").

use super::{Sorter, SorterError};

/// Constants of the bit-step time model (the paper has none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CostModel {
    /// `c`: bit steps per `lg s` of the Lemma 9 column sorter, which sorts
    /// `s` words of `b` bits in `b + c·lg s`.
    pub c: u64,
}

impl Default for CostModel {
    /// `c = 1`.
    fn default() -> Self {
        CostModel { c: 1 }
    }
}

/// Grid-unit constants of the layout (the paper gives only the
/// asymptotic shape: height `O(s)`, length
/// `O(s·ceil(b/lg s) + (l/s)(b + lg l))`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AreaModel {
    /// Height of the Lemma 9 sorter per word sorted: it is `κ·s` high.
    pub sorter_height_per_word: u64,
    /// Its length per word and per `lg s`-bit slice of a word: it is
    /// `κ·s·ceil(b/lg s)` long.
    pub sorter_length_per_word: u64,
    /// Grid rows per cycle (the cells, plus the Omega registers laid out
    /// "horizontally parallel to one of the two cycles joined by the
    /// switch").
    pub rows_per_cycle: u64,
    /// Length of a cell per bit of word: its two `b`-bit shift registers.
    pub cell_length_per_bit: u64,
    /// Fixed length of a cell (exchange logic, cycle-closing switch).
    pub cell_overhead: u64,
    /// Length of one bit of a control shift register.
    pub register_length_per_bit: u64,
    /// Length of an Omega switch itself (one bit wide).
    pub switch_length: u64,
}

impl Default for AreaModel {
    /// Every constant 1, except two rows per cycle (cells and registers).
    fn default() -> Self {
        AreaModel {
            sorter_height_per_word: 1,
            sorter_length_per_word: 1,
            rows_per_cycle: 2,
            cell_length_per_bit: 1,
            cell_overhead: 1,
            register_length_per_bit: 1,
            switch_length: 1,
        }
    }
}

/// A layout's bounding box in grid units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extent {
    /// Horizontal extent (the paper's "length"): sorter, Omega network and
    /// cycles side by side.
    pub length: u64,
    /// Vertical extent: `O(s)`.
    pub height: u64,
}

impl Extent {
    /// `length × height`.
    pub fn area(&self) -> u128 {
        u128::from(self.length) * u128::from(self.height)
    }
}

impl Sorter {
    /// `lg s`.
    fn lg_s(&self) -> u64 {
        u64::from(self.s.trailing_zeros())
    }

    /// `lg(l/s)`: the largest `lg w`.
    fn lg_cells(&self) -> u64 {
        u64::from(self.cells().trailing_zeros())
    }

    /// Bit steps to sort `r ≤ l` words (this project's cost model):
    /// `b·ceil(r/s) + max(lg² w, w) + P·w(b + c·lg s) + P(w·b + lg s)` —
    /// shifting the input in, pre-shifting the control registers to the
    /// field of `w` (cells `lg² w` and Omega `w`, at once), `P` sort steps
    /// of `w` columns, and `P` Beneš permuting steps in the
    /// cube-connected-cycles style. `r = 0` costs nothing.
    ///
    /// It is piecewise linear: within one `w` it grows by `b` per column,
    /// at powers of two (`w ≥ 16`, where `w ≥ lg² w`) it is affine in `w`
    /// while `P` stays fixed, and its slope jumps by about 4× where the
    /// plan's depth grows. With `l = O(s^γ)` the depth is bounded, so the
    /// time is `O((b + lg s)·r/s)` as Theorem 2 claims. Saturates at
    /// `u64::MAX` (only reachable with an absurd `c`).
    pub fn time(&self, r: u64, cost: &CostModel) -> Result<u64, SorterError> {
        if r == 0 {
            return Ok(0);
        }
        let w = self.columns(r)?;
        let p = self.phases(r)?;
        let (b, lg_s, lg_w) = (
            u64::from(self.b),
            self.lg_s(),
            u64::from(w.trailing_zeros()),
        );
        let input = b * r.div_ceil(u64::from(self.s));
        let preshift = (lg_w * lg_w).max(w);
        let sort_step = w.saturating_mul(b.saturating_add(cost.c.saturating_mul(lg_s)));
        let sorting = p.saturating_mul(sort_step);
        let permuting = p.saturating_mul(w * b + lg_s);
        Ok(input
            .saturating_add(preshift)
            .saturating_add(sorting)
            .saturating_add(permuting))
    }

    /// Bits of each Omega switch's control register, in units of `β`:
    /// one field of `2βw` bits per valid `w = 2^k`, `k = 0..=lg(l/s)`, so
    /// `Σ_k 2·2^k`. Fig. 4 (`s = 8, l = 64`): 30.
    pub fn omega_register_per_beta(&self) -> u64 {
        (0..=self.lg_cells()).map(|k| 2 << k).sum()
    }

    /// Bits of the control register at the cell labelled `label` (cells
    /// are labelled `1..=l/s` from the right), in units of `β`. Odd cells
    /// have none. An even cell with label in `(2^(m−1), 2^m]` takes part
    /// in every `w ≥ 2^m` and holds a field of `2β·lg w` bits for each:
    /// `Σ_{k=m}^{lg(l/s)} 2k`. Fig. 4: cells 2, 4, 6, 8 hold 12, 10, 6, 6.
    pub fn cell_register_per_beta(&self, label: u32) -> Result<u64, SorterError> {
        if label == 0 || label > self.cells() {
            return Err(SorterError::BadCellLabel {
                label,
                cells: self.cells(),
            });
        }
        Ok(self.cell_register(label))
    }

    /// [`Sorter::cell_register_per_beta`] for a label known to be valid.
    fn cell_register(&self, label: u32) -> u64 {
        if label % 2 == 1 {
            return 0;
        }
        let m = u64::from(label.next_power_of_two().trailing_zeros());
        (m..=self.lg_cells()).map(|k| 2 * k).sum()
    }

    /// The Omega network's switches: `lg s` stages of `s/2`.
    pub fn omega_switches(&self) -> (u32, u32) {
        (self.s.trailing_zeros(), self.s / 2)
    }

    /// Bounding box of the layout, with `β` from [`Sorter::beta`]:
    /// - height `max(κ_sorter·s, rows_per_cycle·s)`;
    /// - length = column sorter `κ·s·ceil(b/lg s)` (Lemma 9)
    ///   + Omega network: `lg s` stages, each a switch and its control
    ///     register (`2β(2l/s − 1)` bits, the paper's "each stage of the
    ///     Omega network has length `O(l/s)`")
    ///   + a cycle: `l/s` cells of `κ·b + κ0` plus the even cells'
    ///     control registers laid out between them.
    ///
    /// Totals `O(s·ceil(b/lg s) + (l/s)(b + lg l))` for constant `β`.
    /// Saturates at `u64::MAX` (only reachable with absurd constants).
    pub fn extent(&self, model: &AreaModel) -> Extent {
        let s = u64::from(self.s);
        let beta = self.beta();
        let height = (model.sorter_height_per_word.saturating_mul(s))
            .max(model.rows_per_cycle.saturating_mul(s));
        let sorter = model
            .sorter_length_per_word
            .saturating_mul(s * u64::from(self.b).div_ceil(self.lg_s()));
        // Register lengths: per-bit constant × β × bits per β.
        let registers = |per_beta: u64| {
            model
                .register_length_per_bit
                .saturating_mul(beta)
                .saturating_mul(per_beta)
        };
        let omega = self.lg_s().saturating_mul(
            model
                .switch_length
                .saturating_add(registers(self.omega_register_per_beta())),
        );
        let cell_registers: u64 = (1..=self.cells()).map(|c| self.cell_register(c)).sum();
        let cell = model
            .cell_length_per_bit
            .saturating_mul(u64::from(self.b))
            .saturating_add(model.cell_overhead);
        let cycle = u64::from(self.cells())
            .saturating_mul(cell)
            .saturating_add(registers(cell_registers));
        Extent {
            length: sorter.saturating_add(omega).saturating_add(cycle),
            height,
        }
    }
}
