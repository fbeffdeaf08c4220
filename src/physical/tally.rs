//! A [`Sink`] that writes nothing and counts: shapes and their bounding box
//! per layer, with placed cells flattened into their parents, as a reader
//! such as KLayout sees them from the top cell.

use std::io;

use super::{CellId, GdsLayer, Rect, Sink};

/// Shapes on one layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerTally {
    /// The layer.
    pub layer: GdsLayer,
    /// Rectangles, paths and texts on it, placed cells flattened.
    pub shapes: u64,
    /// Their bounding box (texts count as their point).
    pub bbox: Rect,
}

/// What a drawing holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Per cell, in the order begun: its layers, flattened.
    cells: Vec<Vec<LayerTally>>,
    /// Placements per cell.
    placements: Vec<u64>,
    open: Option<usize>,
}

impl Tally {
    /// An empty tally.
    pub fn new() -> Tally {
        Tally::default()
    }

    fn add(&mut self, layer: GdsLayer, shapes: u64, bbox: Rect) {
        let cell = &mut self.cells[self.open.expect("checked in a cell")];
        match cell.iter_mut().find(|t| t.layer == layer) {
            Some(t) => {
                t.shapes += shapes;
                t.bbox = t.bbox.union(bbox);
            }
            None => cell.push(LayerTally {
                layer,
                shapes,
                bbox,
            }),
        }
    }

    fn check_in_cell(&self) -> io::Result<()> {
        match self.open {
            Some(_) => Ok(()),
            None => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a shape outside a cell",
            )),
        }
    }

    /// Cells begun.
    pub fn cells(&self) -> usize {
        self.cells.len()
    }

    /// The last cell begun (the top cell of a drawing): its layers sorted,
    /// placed cells flattened.
    pub fn top_layers(&self) -> Vec<LayerTally> {
        let mut v = self.cells.last().cloned().unwrap_or_default();
        v.sort_by_key(|t| t.layer);
        v
    }

    /// Placements in the last cell begun.
    pub fn top_placements(&self) -> u64 {
        self.placements.last().copied().unwrap_or(0)
    }

    /// The bounding box of the last cell begun, flattened; `None` when
    /// it is empty.
    pub fn top_bbox(&self) -> Option<Rect> {
        self.cells
            .last()?
            .iter()
            .map(|t| t.bbox)
            .reduce(Rect::union)
    }

    /// Shapes in the last cell begun, flattened.
    pub fn top_shapes(&self) -> u64 {
        self.cells
            .last()
            .map_or(0, |c| c.iter().map(|t| t.shapes).sum())
    }
}

impl Sink for Tally {
    fn begin_cell(&mut self, _name: &str) -> io::Result<CellId> {
        self.cells.push(Vec::new());
        self.placements.push(0);
        self.open = Some(self.cells.len() - 1);
        Ok(CellId(self.cells.len() as u32 - 1))
    }

    fn end_cell(&mut self) -> io::Result<()> {
        self.check_in_cell()?;
        self.open = None;
        Ok(())
    }

    fn rect(&mut self, layer: GdsLayer, r: Rect) -> io::Result<()> {
        self.check_in_cell()?;
        self.add(layer, 1, r);
        Ok(())
    }

    fn path(&mut self, layer: GdsLayer, width: i64, points: &[(i64, i64)]) -> io::Result<()> {
        self.check_in_cell()?;
        let h = width / 2;
        let bbox = points
            .iter()
            .map(|&(x, y)| Rect::around(x, y, h))
            .reduce(Rect::union)
            .unwrap_or_default();
        self.add(layer, 1, bbox);
        Ok(())
    }

    fn text(&mut self, layer: GdsLayer, at: (i64, i64), _text: &str) -> io::Result<()> {
        self.check_in_cell()?;
        self.add(layer, 1, Rect::around(at.0, at.1, 0));
        Ok(())
    }

    fn place(&mut self, cell: CellId, at: (i64, i64)) -> io::Result<()> {
        self.check_in_cell()?;
        let k = cell.0 as usize;
        let n = self.cells.get(k).map(Vec::len).ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "placing an unknown cell")
        })?;
        for i in 0..n {
            let t = self.cells[k][i];
            self.add(t.layer, t.shapes, t.bbox.shifted(at.0, at.1));
        }
        *self.placements.last_mut().expect("a cell") += 1;
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}
