//! A streaming OASIS (SEMI P39) writer, uncompressed and non-strict.
//!
//! The file: the magic bytes, `START` (version 1.0, 1000 database units
//! per micron, table offsets in `START`, all zero: no name tables), then
//! per cell an implicitly numbered `CELLNAME` and a `CELL` by reference
//! number with its elements, then `END` padded to 256 bytes with no
//! validation. Elements use the modal variables: layer, datatype, sizes,
//! path half-width and extensions are written only when they change, and
//! coordinates go relative (`XYRELATIVE`) from the first one that is not
//! the cell's origin. Rectangles are `RECTANGLE` records (squares with the
//! `S` bit), paths `PATH` records with Manhattan 2-deltas and half-width
//! extensions at both ends, labels `TEXT` records with the string inline,
//! placements `PLACEMENT` records by reference number.

use std::io::{self, Write};

use super::{CellId, GdsLayer, Rect, Sink, DBU_PER_MICRON};

const MAGIC: &[u8] = b"%SEMI-OASIS\r\n";
const START: u8 = 1;
const END: u8 = 2;
const CELLNAME: u8 = 3;
const CELL: u8 = 13;
const XYRELATIVE: u8 = 16;
const PLACEMENT: u8 = 17;
const TEXT: u8 = 19;
const RECTANGLE: u8 = 20;
const PATH: u8 = 22;

/// The length of the `END` record, padding included.
const END_LENGTH: usize = 256;

/// An unsigned integer: 7 bits a byte, lowest first, high bit set on every
/// byte but the last.
pub fn put_unsigned(buf: &mut Vec<u8>, mut v: u64) {
    loop {
        let low = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            buf.push(low);
            return;
        }
        buf.push(low | 0x80);
    }
}

/// A signed integer: the magnitude shifted left by one, the sign in bit 0.
pub fn put_signed(buf: &mut Vec<u8>, v: i64) {
    put_unsigned(buf, (v.unsigned_abs() << 1) | (v < 0) as u64);
}

/// A string: its length, then its bytes.
fn put_string(buf: &mut Vec<u8>, s: &str) {
    put_unsigned(buf, s.len() as u64);
    buf.extend_from_slice(s.as_bytes());
}

/// The modal variables of the cell being written.
#[derive(Default)]
struct Modal {
    relative: bool,
    layer: Option<u16>,
    datatype: Option<u16>,
    text_layer: Option<u16>,
    text_type: Option<u16>,
    width: Option<u64>,
    height: Option<u64>,
    half_width: Option<u64>,
    extension: Option<u64>,
    geometry: (i64, i64),
    placement: (i64, i64),
    text: (i64, i64),
}

/// Writes an OASIS file to `W` as cells, shapes and placements arrive.
pub struct OasisWriter<W: Write> {
    out: W,
    buf: Vec<u8>,
    cells: u32,
    in_cell: bool,
    modal: Modal,
    /// The 2-deltas of the path being written.
    deltas: Vec<u64>,
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

impl<W: Write> OasisWriter<W> {
    /// Begin a file: the magic bytes and `START`.
    pub fn new(out: W) -> io::Result<OasisWriter<W>> {
        let mut w = OasisWriter {
            out,
            buf: Vec::with_capacity(1 << 16),
            cells: 0,
            in_cell: false,
            modal: Modal::default(),
            deltas: Vec::new(),
        };
        w.buf.extend_from_slice(MAGIC);
        w.buf.push(START);
        put_string(&mut w.buf, "1.0");
        // unit: a positive whole real (type 0), grid steps per micron.
        w.buf.push(0);
        put_unsigned(&mut w.buf, DBU_PER_MICRON as u64);
        // offset-flag 0: the table offsets follow here, all absent.
        put_unsigned(&mut w.buf, 0);
        for _ in 0..12 {
            put_unsigned(&mut w.buf, 0);
        }
        Ok(w)
    }

    /// The writer, once [`Sink::finish`] has run.
    pub fn into_inner(self) -> W {
        self.out
    }

    fn flush_if_full(&mut self) -> io::Result<()> {
        if self.buf.len() >= 1 << 16 {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    fn check_in_cell(&self) -> io::Result<()> {
        if self.in_cell {
            Ok(())
        } else {
            Err(invalid("a shape outside a cell".into()))
        }
    }

    /// Switch to relative coordinates once a point is not the origin.
    fn relative_for(&mut self, x: i64, y: i64) {
        if !self.modal.relative && (x != 0 || y != 0) {
            self.buf.push(XYRELATIVE);
            self.modal.relative = true;
        }
    }

    /// The bits `X` and `Y` (given as `xbit`, `ybit`) for a point against
    /// the modal one, and the values to write; updates the modal point.
    fn point(
        &mut self,
        which: fn(&mut Modal) -> &mut (i64, i64),
        at: (i64, i64),
        bits: (u8, u8),
    ) -> (u8, [Option<i64>; 2]) {
        self.relative_for(at.0, at.1);
        let relative = self.modal.relative;
        let m = which(&mut self.modal);
        let mut info = 0;
        let mut vals = [None, None];
        for (k, (&v, old)) in [at.0, at.1].iter().zip([m.0, m.1]).enumerate() {
            if v != old {
                info |= if k == 0 { bits.0 } else { bits.1 };
                vals[k] = Some(if relative { v - old } else { v });
            }
        }
        *m = at;
        (info, vals)
    }

    /// The `L` and `D` bits and values for a layer against the modal one.
    fn layer_bits(&mut self, layer: GdsLayer, text: bool) -> (u8, [Option<u16>; 2]) {
        let (l, d) = if text {
            (&mut self.modal.text_layer, &mut self.modal.text_type)
        } else {
            (&mut self.modal.layer, &mut self.modal.datatype)
        };
        let mut info = 0;
        let mut vals = [None, None];
        if *l != Some(layer.layer) {
            info |= 1;
            vals[0] = Some(layer.layer);
            *l = Some(layer.layer);
        }
        if *d != Some(layer.datatype) {
            info |= 2;
            vals[1] = Some(layer.datatype);
            *d = Some(layer.datatype);
        }
        (info, vals)
    }

    fn put_layer(&mut self, vals: [Option<u16>; 2]) {
        for v in vals.into_iter().flatten() {
            put_unsigned(&mut self.buf, v as u64);
        }
    }

    fn put_point(&mut self, vals: [Option<i64>; 2]) {
        for v in vals.into_iter().flatten() {
            put_signed(&mut self.buf, v);
        }
    }
}

/// Manhattan 2-delta of a step: magnitude shifted left by two, direction
/// (0 east, 1 north, 2 west, 3 south) in the low bits.
fn two_delta(from: (i64, i64), to: (i64, i64)) -> io::Result<u64> {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let (mag, dir) = match (dx, dy) {
        (dx, 0) if dx > 0 => (dx as u64, 0),
        (0, dy) if dy > 0 => (dy as u64, 1),
        (dx, 0) if dx < 0 => (dx.unsigned_abs(), 2),
        (0, dy) if dy < 0 => (dy.unsigned_abs(), 3),
        _ => {
            return Err(invalid(format!(
                "path step {from:?} -> {to:?} is not a Manhattan step"
            )))
        }
    };
    Ok(mag << 2 | dir)
}

impl<W: Write> Sink for OasisWriter<W> {
    fn begin_cell(&mut self, name: &str) -> io::Result<CellId> {
        if self.in_cell {
            return Err(invalid(format!("cell {name} begun inside another")));
        }
        self.buf.push(CELLNAME);
        put_string(&mut self.buf, name);
        self.buf.push(CELL);
        put_unsigned(&mut self.buf, self.cells as u64);
        self.cells += 1;
        self.in_cell = true;
        self.modal = Modal::default();
        self.flush_if_full()?;
        Ok(CellId(self.cells - 1))
    }

    fn end_cell(&mut self) -> io::Result<()> {
        self.check_in_cell()?;
        self.in_cell = false;
        Ok(())
    }

    fn rect(&mut self, layer: GdsLayer, r: Rect) -> io::Result<()> {
        self.check_in_cell()?;
        let (w, h) = ((r.hi.0 - r.lo.0) as u64, (r.hi.1 - r.lo.1) as u64);
        let (mut info, layer_vals) = self.layer_bits(layer, false);
        let (xy, point_vals) = self.point(|m| &mut m.geometry, r.lo, (0x10, 0x08));
        info |= xy;
        let square = w == h;
        if square {
            info |= 0x80;
        }
        let write_w = self.modal.width != Some(w);
        let write_h = !square && self.modal.height != Some(h);
        if write_w {
            info |= 0x40;
        }
        if write_h {
            info |= 0x20;
        }
        self.modal.width = Some(w);
        self.modal.height = Some(h);
        self.buf.push(RECTANGLE);
        self.buf.push(info);
        self.put_layer(layer_vals);
        if write_w {
            put_unsigned(&mut self.buf, w);
        }
        if write_h {
            put_unsigned(&mut self.buf, h);
        }
        self.put_point(point_vals);
        self.flush_if_full()
    }

    fn path(&mut self, layer: GdsLayer, width: i64, points: &[(i64, i64)]) -> io::Result<()> {
        self.check_in_cell()?;
        if points.len() < 2 {
            return Err(invalid("a path of fewer than two points".into()));
        }
        let half = (width / 2) as u64;
        let mut deltas = std::mem::take(&mut self.deltas);
        deltas.clear();
        for pair in points.windows(2) {
            deltas.push(two_delta(pair[0], pair[1])?);
        }
        let (mut info, layer_vals) = self.layer_bits(layer, false);
        let (xy, point_vals) = self.point(|m| &mut m.geometry, points[0], (0x10, 0x08));
        info |= xy | 0x20; // P: the point list is always given
        let write_w = self.modal.half_width != Some(half);
        let write_e = self.modal.extension != Some(half);
        if write_w {
            info |= 0x40;
        }
        if write_e {
            info |= 0x80;
        }
        self.modal.half_width = Some(half);
        self.modal.extension = Some(half);
        self.buf.push(PATH);
        self.buf.push(info);
        self.put_layer(layer_vals);
        if write_w {
            put_unsigned(&mut self.buf, half);
        }
        if write_e {
            // 0000SSEE: start and end extension both half the width.
            put_unsigned(&mut self.buf, 0b1010);
        }
        self.buf.push(2); // point list of Manhattan 2-deltas
        put_unsigned(&mut self.buf, deltas.len() as u64);
        for &d in &deltas {
            put_unsigned(&mut self.buf, d);
        }
        self.deltas = deltas;
        self.put_point(point_vals);
        self.flush_if_full()
    }

    fn text(&mut self, layer: GdsLayer, at: (i64, i64), text: &str) -> io::Result<()> {
        self.check_in_cell()?;
        let (layer_bits, layer_vals) = self.layer_bits(layer, true);
        let (xy, point_vals) = self.point(|m| &mut m.text, at, (0x10, 0x08));
        // 0CNXYRTL: C, the string follows inline; T and L from the layer bits.
        let info = 0x40 | xy | layer_bits;
        self.buf.push(TEXT);
        self.buf.push(info);
        put_string(&mut self.buf, text);
        self.put_layer(layer_vals);
        self.put_point(point_vals);
        self.flush_if_full()
    }

    fn place(&mut self, cell: CellId, at: (i64, i64)) -> io::Result<()> {
        self.check_in_cell()?;
        if cell.0 >= self.cells {
            return Err(invalid(format!(
                "placing cell {}, which was never begun",
                cell.0
            )));
        }
        let (xy, point_vals) = self.point(|m| &mut m.placement, at, (0x20, 0x10));
        // CNXYRAAF: the cell by reference number, no rotation or flip.
        let info = 0xC0 | xy;
        self.buf.push(PLACEMENT);
        self.buf.push(info);
        put_unsigned(&mut self.buf, cell.0 as u64);
        self.put_point(point_vals);
        self.flush_if_full()
    }

    fn finish(&mut self) -> io::Result<()> {
        if self.in_cell {
            self.in_cell = false;
        }
        // END, padding, validation scheme 0: 256 bytes in all.
        let mut end = vec![END];
        let pad = END_LENGTH - 1 - 2 - 1;
        put_unsigned(&mut end, pad as u64);
        end.resize(end.len() + pad, 0);
        put_unsigned(&mut end, 0);
        debug_assert_eq!(end.len(), END_LENGTH);
        self.buf.extend_from_slice(&end);
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_7_bit_groups() {
        let enc = |v: u64| {
            let mut b = Vec::new();
            put_unsigned(&mut b, v);
            b
        };
        assert_eq!(enc(0), [0]);
        assert_eq!(enc(127), [127]);
        assert_eq!(enc(128), [0x80, 1]);
        assert_eq!(enc(1000), [0xE8, 0x07]);
        let mut b = Vec::new();
        put_signed(&mut b, -3);
        put_signed(&mut b, 3);
        assert_eq!(b, [7, 6]);
    }

    #[test]
    fn steps_are_2_deltas() {
        assert_eq!(two_delta((0, 0), (5, 0)).unwrap(), 20);
        assert_eq!(two_delta((0, 0), (0, -2)).unwrap(), 11);
        assert!(two_delta((0, 0), (1, 1)).is_err());
    }

    #[test]
    fn the_file_ends_in_a_256_byte_end_record() {
        let mut w = OasisWriter::new(Vec::new()).unwrap();
        crate::physical::write_sample_library(&mut w, 4, (10, 0), &[(0, 0), (0, 8), (6, 8)])
            .unwrap();
        let bytes = w.into_inner();
        assert!(bytes.starts_with(MAGIC));
        let end = &bytes[bytes.len() - END_LENGTH..];
        assert_eq!(end[0], END);
        assert_eq!(*end.last().unwrap(), 0);
        // The square rectangle of cell A at the origin: S W D L, no X or Y.
        let a = bytes.windows(2).position(|p| p == [RECTANGLE, 0xC3]);
        assert!(a.is_some());
    }
}
