//! The CSV geometry of a layout report (docs/formats.md section 4c): one
//! file of nodes and one of edges, a header row and then one row per record,
//! gzip-compressed when written (read plain or compressed).
//!
//! Nodes: `id,kind,level,min_x,min_y,max_x,max_y` in 2-D,
//! `id,kind,level,min_x,min_y,min_z,max_x,max_y,max_z` in 3-D. Edges:
//! `id,from,to,path`, the path's points `x y` (`x y z`) joined by `;`.

use std::fmt::Write as _;
use std::io::{self, BufRead, BufReader, Read, Write};

use crate::error::ParseError;
use crate::layout::{Edge, Embedding, Node, P3};

const FORM: &str = "a layout's CSV geometry";

/// The header row of the nodes file of a `dimensions`-D layout.
pub fn node_header(dimensions: u32) -> &'static str {
    if dimensions == 3 {
        "id,kind,level,min_x,min_y,min_z,max_x,max_y,max_z"
    } else {
        "id,kind,level,min_x,min_y,max_x,max_y"
    }
}

/// The header row of the edges file.
pub const EDGE_HEADER: &str = "id,from,to,path";

fn gzip(out: &mut dyn Write) -> flate2::write::GzEncoder<&mut dyn Write> {
    flate2::write::GzEncoder::new(out, flate2::Compression::fast())
}

fn push_point(s: &mut String, p: &P3, dimensions: u32) {
    let _ = if dimensions == 3 {
        write!(s, "{} {} {}", p.x, p.y, p.z)
    } else {
        write!(s, "{} {}", p.x, p.y)
    };
}

/// A CSV field for `s`: as it is, or quoted when it holds a comma, a
/// quote, a line break or edge spaces.
fn field(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains([',', '"', '\n', '\r']) || s.trim() != s {
        format!("\"{}\"", s.replace('"', "\"\"")).into()
    } else {
        s.into()
    }
}

/// Write the nodes of `e` as gzip-compressed CSV.
pub fn write_nodes(e: &Embedding, out: &mut dyn Write) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, gzip(out));
    writeln!(out, "{}", node_header(e.dimensions))?;
    let mut line = String::new();
    for n in &e.nodes {
        line.clear();
        let _ = write!(line, "{},{},{},", n.id, field(&n.kind), n.level);
        for (k, p) in [&n.min, &n.max].into_iter().enumerate() {
            if k > 0 {
                line.push(',');
            }
            let _ = if e.dimensions == 3 {
                write!(line, "{},{},{}", p.x, p.y, p.z)
            } else {
                write!(line, "{},{}", p.x, p.y)
            };
        }
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    out.into_inner()
        .map_err(|e| io::Error::other(e.to_string()))?
        .finish()?
        .flush()
}

/// Write the edges of `e` as gzip-compressed CSV.
pub fn write_edges(e: &Embedding, out: &mut dyn Write) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, gzip(out));
    writeln!(out, "{EDGE_HEADER}")?;
    let mut line = String::new();
    for x in &e.edges {
        line.clear();
        let _ = write!(line, "{},{},{},", x.id, x.from, x.to);
        for (k, p) in x.path.iter().enumerate() {
            if k > 0 {
                line.push(';');
            }
            push_point(&mut line, p, e.dimensions);
        }
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    out.into_inner()
        .map_err(|e| io::Error::other(e.to_string()))?
        .finish()?
        .flush()
}

/// The bytes of `reader`, gunzipped when they start as gzip does.
fn plain(reader: Box<dyn Read + '_>) -> io::Result<Box<dyn Read + '_>> {
    let mut buffered = BufReader::with_capacity(1 << 16, reader);
    let gz = buffered.fill_buf()?.starts_with(&[0x1f, 0x8b]);
    Ok(if gz {
        Box::new(flate2::bufread::MultiGzDecoder::new(buffered))
    } else {
        Box::new(buffered)
    })
}

struct Rows<'a> {
    file: &'a str,
    csv: csv::Reader<Box<dyn Read + 'a>>,
    record: csv::StringRecord,
}

impl<'a> Rows<'a> {
    fn new(
        reader: Box<dyn Read + 'a>,
        file: &'a str,
        header: &str,
    ) -> Result<Rows<'a>, ParseError> {
        let reader = plain(reader).map_err(|e| error(file, 0, format!("cannot read: {e}")))?;
        let mut rows = Rows {
            file,
            csv: csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .from_reader(reader),
            record: csv::StringRecord::new(),
        };
        let want: Vec<&str> = header.split(',').collect();
        match rows.next()? {
            Some(1) if rows.record.iter().eq(want.iter().copied()) => Ok(rows),
            Some(line) => Err(error(
                file,
                line,
                format!("the header row must be `{header}`"),
            )),
            None => Err(error(
                file,
                0,
                format!("empty: a header row `{header}` is needed"),
            )),
        }
    }

    /// The next row's line, its fields in `self.record`; `None` at the end.
    fn next(&mut self) -> Result<Option<usize>, ParseError> {
        let line = self.csv.position().line() as usize;
        match self.csv.read_record(&mut self.record) {
            Ok(true) => Ok(Some(
                self.record.position().map_or(line, |p| p.line() as usize),
            )),
            Ok(false) => Ok(None),
            Err(e) => Err(error(
                self.file,
                e.position().map_or(line, |p| p.line() as usize),
                e.to_string(),
            )),
        }
    }

    fn fields(&self, line: usize, count: usize) -> Result<(), ParseError> {
        if self.record.len() == count {
            Ok(())
        } else {
            Err(error(
                self.file,
                line,
                format!("{} fields; a row here has {count}", self.record.len()),
            ))
        }
    }

    fn number<T: std::str::FromStr>(
        &self,
        line: usize,
        k: usize,
        name: &str,
    ) -> Result<T, ParseError> {
        let field = self.record.get(k).unwrap_or_default();
        field.trim().parse().map_err(|_| {
            error(
                self.file,
                line,
                format!("{name} `{field}` is not a whole number in range"),
            )
        })
    }
}

fn error(file: &str, line: usize, message: String) -> ParseError {
    ParseError {
        file: file.to_string(),
        line,
        column: 0,
        form: Some(FORM),
        message,
    }
}

/// The nodes of a `dimensions`-D layout from its CSV file (`file` names it
/// in messages).
pub fn read_nodes(
    reader: Box<dyn Read + '_>,
    file: &str,
    dimensions: u32,
) -> Result<Vec<Node>, ParseError> {
    let header = node_header(dimensions);
    let mut rows = Rows::new(reader, file, header)?;
    let d = dimensions as usize;
    let mut nodes = Vec::new();
    while let Some(line) = rows.next()? {
        rows.fields(line, 3 + 2 * d)?;
        let point = |at: usize, name: &str| -> Result<P3, ParseError> {
            let c =
                |k: usize, axis: &str| rows.number::<i64>(line, at + k, &format!("{name}_{axis}"));
            Ok(P3::new(
                c(0, "x")?,
                c(1, "y")?,
                if d == 3 { c(2, "z")? } else { 0 },
            ))
        };
        nodes.push(Node {
            id: rows.number(line, 0, "id")?,
            kind: rows.record.get(1).unwrap_or_default().to_string(),
            level: rows.number(line, 2, "level")?,
            min: point(3, "min")?,
            max: point(3 + d, "max")?,
        });
    }
    Ok(nodes)
}

/// The edges of a `dimensions`-D layout from its CSV file.
pub fn read_edges(
    reader: Box<dyn Read + '_>,
    file: &str,
    dimensions: u32,
) -> Result<Vec<Edge>, ParseError> {
    let mut rows = Rows::new(reader, file, EDGE_HEADER)?;
    let d = dimensions as usize;
    let mut edges = Vec::new();
    while let Some(line) = rows.next()? {
        rows.fields(line, 4)?;
        let text = rows.record.get(3).unwrap_or_default();
        let mut path = Vec::new();
        for point in text.split(';').filter(|p| !p.trim().is_empty()) {
            let c: Vec<i64> = point
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|_| {
                    error(
                        file,
                        line,
                        format!("path point `{point}` is not {d} whole numbers"),
                    )
                })?;
            if c.len() != d {
                return Err(error(
                    file,
                    line,
                    format!(
                        "path point `{point}` has {} coordinates; a {d}-D layout needs {d}",
                        c.len()
                    ),
                ));
            }
            path.push(P3::new(c[0], c[1], if d == 3 { c[2] } else { 0 }));
        }
        edges.push(Edge {
            id: rows.number(line, 0, "id")?,
            from: rows.number(line, 1, "from")?,
            to: rows.number(line, 2, "to")?,
            path,
        });
    }
    Ok(edges)
}
