//! A streaming GDSII (Stream format release 6) writer.
//!
//! Records as the format defines them: a 2-byte length, a record type and
//! a data type, the data big-endian. The library's unit is the micron and
//! its database unit 1 nm; its time stamps are fixed (1 January 1970) so
//! the same drawing gives the same bytes. Rectangles are `BOUNDARY`
//! elements, paths `PATH` elements of path type 2 (ends extended by half
//! the width), labels `TEXT` elements, placements `SREF` elements.

use std::io::{self, Write};

use super::{CellId, GdsLayer, Rect, Sink, DBU_PER_MICRON};

const HEADER: u16 = 0x0002;
const BGNLIB: u16 = 0x0102;
const LIBNAME: u16 = 0x0206;
const UNITS: u16 = 0x0305;
const ENDLIB: u16 = 0x0400;
const BGNSTR: u16 = 0x0502;
const STRNAME: u16 = 0x0606;
const ENDSTR: u16 = 0x0700;
const BOUNDARY: u16 = 0x0800;
const PATH: u16 = 0x0900;
const SREF: u16 = 0x0A00;
const TEXT: u16 = 0x0C00;
const LAYER: u16 = 0x0D02;
const DATATYPE: u16 = 0x0E02;
const WIDTH: u16 = 0x0F03;
const XY: u16 = 0x1003;
const ENDEL: u16 = 0x1100;
const SNAME: u16 = 0x1206;
const TEXTTYPE: u16 = 0x1602;
const STRING: u16 = 0x1906;
const PATHTYPE: u16 = 0x2102;

/// Points one `XY` record holds (its length is a 2-byte count of bytes).
pub const MAX_XY_POINTS: usize = 8000;

/// The fixed time stamp: 1970-01-01 00:00:00, as modified and accessed.
const STAMP: [i16; 12] = [1970, 1, 1, 0, 0, 0, 1970, 1, 1, 0, 0, 0];

/// Writes a GDSII library to `W` as cells, shapes and placements arrive.
pub struct GdsWriter<W: Write> {
    out: W,
    buf: Vec<u8>,
    /// Cell names, one after the other, for the `SREF`s.
    names: String,
    /// Where each cell's name ends in `names`.
    ends: Vec<usize>,
    in_cell: bool,
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

fn coord(v: i64) -> io::Result<i32> {
    i32::try_from(v).map_err(|_| {
        invalid(format!(
            "coordinate {v} is out of GDSII's 32-bit range: use a smaller pitch or OASIS"
        ))
    })
}

/// A GDSII 8-byte real: sign, excess-64 base-16 exponent, 56-bit mantissa.
pub fn real8(v: f64) -> [u8; 8] {
    if v == 0.0 || !v.is_finite() {
        return [0; 8];
    }
    let sign = if v < 0.0 { 0x80u8 } else { 0 };
    let mut m = v.abs();
    let mut e: i32 = 64;
    while m >= 1.0 {
        m /= 16.0;
        e += 1;
    }
    while m < 1.0 / 16.0 {
        m *= 16.0;
        e -= 1;
    }
    let mut mantissa = (m * (1u64 << 56) as f64).round() as u64;
    if mantissa >= 1u64 << 56 {
        mantissa >>= 4;
        e += 1;
    }
    let mut out = [0u8; 8];
    out[0] = sign | (e.clamp(0, 127) as u8);
    out[1..].copy_from_slice(&mantissa.to_be_bytes()[1..]);
    out
}

impl<W: Write> GdsWriter<W> {
    /// Begin a library named `library` (HEADER, BGNLIB, LIBNAME, UNITS).
    pub fn new(out: W, library: &str) -> io::Result<GdsWriter<W>> {
        let mut w = GdsWriter {
            out,
            buf: Vec::with_capacity(1 << 16),
            names: String::new(),
            ends: Vec::new(),
            in_cell: false,
        };
        w.record(HEADER, &600i16.to_be_bytes())?;
        w.stamp(BGNLIB)?;
        w.string(LIBNAME, library)?;
        let dbu_in_microns = 1.0 / DBU_PER_MICRON as f64;
        let mut units = Vec::with_capacity(16);
        units.extend_from_slice(&real8(dbu_in_microns));
        units.extend_from_slice(&real8(dbu_in_microns * 1e-6));
        w.record(UNITS, &units)?;
        Ok(w)
    }

    /// The writer, once [`Sink::finish`] has run.
    pub fn into_inner(self) -> W {
        self.out
    }

    fn record(&mut self, kind: u16, data: &[u8]) -> io::Result<()> {
        let len = 4 + data.len();
        if len > 0xFFFF {
            return Err(invalid(format!("a GDSII record of {len} bytes")));
        }
        self.buf.extend_from_slice(&(len as u16).to_be_bytes());
        self.buf.extend_from_slice(&kind.to_be_bytes());
        self.buf.extend_from_slice(data);
        if self.buf.len() >= 1 << 16 {
            self.flush_buf()?;
        }
        Ok(())
    }

    fn flush_buf(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }

    fn stamp(&mut self, kind: u16) -> io::Result<()> {
        let mut data = Vec::with_capacity(24);
        for v in STAMP {
            data.extend_from_slice(&v.to_be_bytes());
        }
        self.record(kind, &data)
    }

    /// An ASCII string record, padded with a NUL to an even length.
    fn string(&mut self, kind: u16, s: &str) -> io::Result<()> {
        self.string_bytes(kind, s.as_bytes())
    }

    fn string_bytes(&mut self, kind: u16, s: &[u8]) -> io::Result<()> {
        let pad = s.len() % 2;
        let len = 4 + s.len() + pad;
        if len > 0xFFFF {
            return Err(invalid(format!("a GDSII string of {} bytes", s.len())));
        }
        self.buf.extend_from_slice(&(len as u16).to_be_bytes());
        self.buf.extend_from_slice(&kind.to_be_bytes());
        self.buf.extend_from_slice(s);
        if pad == 1 {
            self.buf.push(0);
        }
        Ok(())
    }

    fn int2(&mut self, kind: u16, v: u16) -> io::Result<()> {
        self.record(kind, &v.to_be_bytes())
    }

    fn xy(&mut self, points: &[(i64, i64)]) -> io::Result<()> {
        let mut data = Vec::with_capacity(points.len() * 8);
        for &(x, y) in points {
            data.extend_from_slice(&coord(x)?.to_be_bytes());
            data.extend_from_slice(&coord(y)?.to_be_bytes());
        }
        self.record(XY, &data)
    }

    fn layer(&mut self, layer: GdsLayer, datatype_kind: u16) -> io::Result<()> {
        self.int2(LAYER, layer.layer)?;
        self.int2(datatype_kind, layer.datatype)
    }

    fn check_in_cell(&self) -> io::Result<()> {
        if self.in_cell {
            Ok(())
        } else {
            Err(invalid("a shape outside a cell".into()))
        }
    }
}

impl<W: Write> Sink for GdsWriter<W> {
    fn begin_cell(&mut self, name: &str) -> io::Result<CellId> {
        if self.in_cell {
            return Err(invalid(format!("cell {name} begun inside another")));
        }
        self.stamp(BGNSTR)?;
        self.string(STRNAME, name)?;
        self.names.push_str(name);
        self.ends.push(self.names.len());
        self.in_cell = true;
        Ok(CellId(self.ends.len() as u32 - 1))
    }

    fn end_cell(&mut self) -> io::Result<()> {
        self.check_in_cell()?;
        self.in_cell = false;
        self.record(ENDSTR, &[])
    }

    fn rect(&mut self, layer: GdsLayer, r: Rect) -> io::Result<()> {
        self.check_in_cell()?;
        self.record(BOUNDARY, &[])?;
        self.layer(layer, DATATYPE)?;
        let (x0, y0, x1, y1) = (r.lo.0, r.lo.1, r.hi.0, r.hi.1);
        self.xy(&[(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)])?;
        self.record(ENDEL, &[])
    }

    fn path(&mut self, layer: GdsLayer, width: i64, points: &[(i64, i64)]) -> io::Result<()> {
        self.check_in_cell()?;
        // A path of more points than one XY record holds goes out as
        // several paths, each starting where the last one ended.
        let mut start = 0;
        loop {
            let end = (start + MAX_XY_POINTS).min(points.len());
            self.record(PATH, &[])?;
            self.layer(layer, DATATYPE)?;
            self.int2(PATHTYPE, 2)?;
            self.record(WIDTH, &coord(width)?.to_be_bytes())?;
            self.xy(&points[start..end])?;
            self.record(ENDEL, &[])?;
            if end >= points.len() {
                return Ok(());
            }
            start = end - 1;
        }
    }

    fn text(&mut self, layer: GdsLayer, at: (i64, i64), text: &str) -> io::Result<()> {
        self.check_in_cell()?;
        self.record(TEXT, &[])?;
        self.layer(layer, TEXTTYPE)?;
        self.xy(&[at])?;
        self.string(STRING, text)?;
        self.record(ENDEL, &[])
    }

    fn place(&mut self, cell: CellId, at: (i64, i64)) -> io::Result<()> {
        self.check_in_cell()?;
        let k = cell.0 as usize;
        let Some(&end) = self.ends.get(k) else {
            return Err(invalid(format!("placing cell {k}, which was never begun")));
        };
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        self.record(SREF, &[])?;
        let names = std::mem::take(&mut self.names);
        let named = self.string_bytes(SNAME, &names.as_bytes()[start..end]);
        self.names = names;
        named?;
        self.xy(&[at])?;
        self.record(ENDEL, &[])
    }

    fn finish(&mut self) -> io::Result<()> {
        if self.in_cell {
            return Err(invalid("the library ends inside a cell".into()));
        }
        self.record(ENDLIB, &[])?;
        self.flush_buf()?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reals_are_excess_64_base_16() {
        assert_eq!(real8(1.0), [0x41, 0x10, 0, 0, 0, 0, 0, 0]);
        assert_eq!(real8(-2.0), [0xC1, 0x20, 0, 0, 0, 0, 0, 0]);
        assert_eq!(real8(0.0), [0; 8]);
        // 1e-3 as KLayout and every other writer spell it.
        assert_eq!(
            real8(1e-3),
            [0x3E, 0x41, 0x89, 0x37, 0x4B, 0xC6, 0xA7, 0xF0]
        );
    }

    #[test]
    fn a_small_library_is_framed() {
        let mut w = GdsWriter::new(Vec::new(), "LIB").unwrap();
        crate::physical::write_sample_library(&mut w, 10, (5, 5), &[(0, 0), (0, 20), (10, 20)])
            .unwrap();
        let bytes = w.into_inner();
        assert_eq!(&bytes[..6], &[0, 6, 0, 2, 0x02, 0x58]);
        assert_eq!(&bytes[bytes.len() - 4..], &[0, 4, 4, 0]);
        // Every record's length adds up to the whole.
        let mut at = 0;
        while at < bytes.len() {
            let len = u16::from_be_bytes([bytes[at], bytes[at + 1]]) as usize;
            assert!(len >= 4 && len % 2 == 0);
            at += len;
        }
        assert_eq!(at, bytes.len());
    }

    #[test]
    fn out_of_range_coordinates_are_refused() {
        let mut w = GdsWriter::new(Vec::new(), "LIB").unwrap();
        w.begin_cell("A").unwrap();
        let far = Rect {
            lo: (0, 0),
            hi: (1 << 40, 1),
        };
        assert!(w
            .rect(
                GdsLayer {
                    layer: 1,
                    datatype: 0
                },
                far
            )
            .is_err());
    }
}
