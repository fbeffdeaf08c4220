//! The grid read back as geometry: maximal straight runs of joined cells
//! as wires, and via stacks, in the terms of docs/formats.md section 3.

use super::*;

impl Grid {
    /// The wires (maximal straight runs of joined cells) and via stacks of
    /// the whole grid; `label` maps a net index to its label. The grid is
    /// read in raster order (a column's cells lie a whole row apart), so
    /// the runs come out in no particular order.
    pub fn geometry(&self, label: impl Fn(u32) -> u32 + Sync) -> (Vec<Wire>, Vec<Via>) {
        // The runs of each layer and the vias up from it are found apart
        // from the other layers': on a large grid (and a pool of more than
        // one thread), the first layer in parallel with the rest.
        let large = self.extent.layers > 1 && self.owner.len() >= SPLIT_CELLS;
        let ((mut wires, mut vias), rest) = crate::parallel::join(
            large,
            || self.geometry_of(1..=1, &label),
            || self.geometry_of(2..=self.extent.layers, &label),
        );
        wires.extend(rest.0);
        vias.extend(rest.1);
        (wires, vias)
    }

    /// [`Grid::geometry`] of some layers: their runs and the vias up from
    /// them.
    pub(super) fn geometry_of(
        &self,
        of: std::ops::RangeInclusive<u32>,
        label: &impl Fn(u32) -> u32,
    ) -> (Vec<Wire>, Vec<Via>) {
        let cols = (self.extent.columns + 2) as usize;
        let rows = (self.extent.width + 2) as usize;
        let plane = cols * rows;
        let layers = self.extent.layers as usize;
        // Raster column `x` is grid column `x - 1`.
        let at = |x: usize, y: usize| Point::new(x as i64 - 1, y as i64);
        let net = |i: usize| label(self.owner[i] - 1);
        let mut wires = Vec::new();
        let mut vias = Vec::new();
        // The row where the vertical run through each column of the row
        // below began (`usize::MAX`: none).
        let mut up_from = vec![usize::MAX; cols];
        for layer in of.map(|l| l as usize) {
            let base = (layer - 1) * plane;
            up_from.iter_mut().for_each(|s| *s = usize::MAX);
            for y in 0..rows {
                let row = base + y * cols;
                let flags = &self.edges[row..row + cols];
                let mut x = 0;
                while x < cols {
                    if flags[x] & RIGHT != 0 {
                        let start = x;
                        while x < cols && flags[x] & RIGHT != 0 {
                            x += 1;
                        }
                        wires.push(Wire {
                            net: net(row + start),
                            layer: layer as u32,
                            from: at(start, y),
                            to: at(x, y),
                        });
                    }
                    x += 1;
                }
                for (x, &f) in flags.iter().enumerate() {
                    let from = &mut up_from[x];
                    if f & UP != 0 {
                        if *from == usize::MAX {
                            *from = y;
                        }
                    } else if *from != usize::MAX {
                        wires.push(Wire {
                            net: net(base + *from * cols + x),
                            layer: layer as u32,
                            from: at(x, *from),
                            to: at(x, y),
                        });
                        *from = usize::MAX;
                    }
                    if layer < layers
                        && f & VIA != 0
                        && (layer == 1 || self.edges[row + x - plane] & VIA == 0)
                    {
                        let mut top = layer;
                        while top < layers && self.edges[row + x + (top - layer) * plane] & VIA != 0
                        {
                            top += 1;
                        }
                        vias.push(Via {
                            net: net(row + x),
                            at: at(x, y),
                            from: layer as u32,
                            to: top as u32,
                        });
                    }
                }
            }
            // No run goes up out of the top row; should one, it ends there.
            for (x, &from) in up_from.iter().enumerate() {
                if from != usize::MAX {
                    wires.push(Wire {
                        net: net(base + from * cols + x),
                        layer: layer as u32,
                        from: at(x, from),
                        to: at(x, rows),
                    });
                }
            }
        }
        (wires, vias)
    }
}

/// Grids with fewer raster cells are read back on one thread.
const SPLIT_CELLS: usize = 1 << 20;
