//! The DEF reader: a routed channel back from the DEF that
//! [`super::def::def_text`] writes (or any DEF of the same shape).
//!
//! What it reads: `DESIGN` (the name), the design properties
//! `fabric_layers` and `fabric_groups`, `TRACKS X` and `TRACKS Y` (the
//! grid: the first X track is column -1, the first Y track row 0, the
//! step the pitch; `C + 2` and `W + 2` tracks), and in `NETS` each net
//! `netN`'s regular wiring: `ROUTED` / `FIXED` / `COVER` and `NEW`
//! statements of a layer `metalK`, points `( x y )` (`*` repeats a
//! coordinate) and vias `viaK_K+1` at the last point. Consecutive points
//! make a wire; consecutive contacts of a net at one point make one via
//! stack. Everything else is skipped; a point off the grid, a layer or via
//! of another name, or routing syntax it does not know is an error with
//! its line.

use crate::channel::solution::{ChannelSolution, GroupType, LayerGroup, Via, Wire};
use crate::error::ParseError;
use crate::geom::Point;

use super::def::{GROUPS_PROPERTY, LAYERS_PROPERTY};

const FORM: &str = "a DEF file";

/// A token and its line.
#[derive(Clone, Debug)]
struct Token<'a> {
    text: &'a str,
    line: usize,
}

/// Split DEF text into tokens: whitespace separates them, a double-quoted
/// string is one token (quotes kept), `#` starts a comment to the line's
/// end.
fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let mut rest = line;
        loop {
            rest = rest.trim_start();
            if rest.is_empty() || rest.starts_with('#') {
                break;
            }
            let end = if let Some(body) = rest.strip_prefix('"') {
                body.find('"').map_or(rest.len(), |e| e + 2)
            } else {
                rest.find(char::is_whitespace).unwrap_or(rest.len())
            };
            out.push(Token {
                text: &rest[..end],
                line: k + 1,
            });
            rest = &rest[end..];
        }
    }
    out
}

/// The grid the tracks give: origin (column -1, row 0) and pitch.
#[derive(Clone, Copy, Debug, Default)]
struct Tracks {
    start: i64,
    count: u64,
    step: i64,
}

struct Reader<'a> {
    file: &'a str,
    toks: Vec<Token<'a>>,
    at: usize,
}

impl<'a> Reader<'a> {
    fn err(&self, line: usize, message: String) -> ParseError {
        ParseError {
            file: self.file.to_string(),
            line,
            column: 0,
            form: Some(FORM),
            message,
        }
    }

    fn line(&self) -> usize {
        self.toks
            .get(self.at)
            .or(self.toks.last())
            .map_or(0, |t| t.line)
    }

    fn peek(&self) -> Option<&'a str> {
        self.toks.get(self.at).map(|t| t.text)
    }

    fn next(&mut self) -> Result<&'a str, ParseError> {
        let t = self
            .toks
            .get(self.at)
            .ok_or_else(|| self.err(self.line(), "unexpected end of file".into()))?;
        self.at += 1;
        Ok(t.text)
    }

    fn expect(&mut self, want: &str) -> Result<(), ParseError> {
        let line = self.line();
        let got = self.next()?;
        if got == want {
            Ok(())
        } else {
            Err(self.err(line, format!("expected `{want}`, found `{got}`")))
        }
    }

    fn number<T: std::str::FromStr>(&mut self, what: &str) -> Result<T, ParseError> {
        let line = self.line();
        let t = self.next()?;
        t.parse()
            .map_err(|_| self.err(line, format!("{what}: `{t}` is not a number")))
    }

    /// Skip to just past the next `;`.
    fn skip_statement(&mut self) -> Result<(), ParseError> {
        while self.next()? != ";" {}
        Ok(())
    }
}

/// What the header and sections give.
#[derive(Default)]
struct Design {
    name: String,
    layers: Option<u32>,
    groups: Vec<LayerGroup>,
    x: Option<Tracks>,
    y: Option<Tracks>,
    track_layers: u32,
    wires: Vec<Wire>,
    vias: Vec<Via>,
}

/// Read a routed channel from DEF text (`file` names it in errors).
pub fn parse_def(text: &str, file: &str) -> Result<ChannelSolution, ParseError> {
    let mut r = Reader {
        file,
        toks: tokens(text),
        at: 0,
    };
    let mut d = Design::default();
    while let Some(word) = r.peek() {
        let line = r.line();
        match word {
            "DESIGN" => {
                r.next()?;
                d.name = r.next()?.to_string();
                r.skip_statement()?;
            }
            "PROPERTYDEFINITIONS" => {
                r.next()?;
                read_properties(&mut r, &mut d)?;
            }
            "TRACKS" => {
                r.next()?;
                read_tracks(&mut r, &mut d, line)?;
            }
            "NETS" => {
                r.next()?;
                r.skip_statement()?;
                read_nets(&mut r, &mut d)?;
            }
            "END" => {
                r.next()?;
                if r.next()? == "DESIGN" {
                    break;
                }
            }
            "-" => {
                // A statement of a section this reader skips.
                r.skip_statement()?;
            }
            _ => r.skip_statement()?,
        }
    }
    finish(r, d)
}

fn read_properties(r: &mut Reader<'_>, d: &mut Design) -> Result<(), ParseError> {
    loop {
        let line = r.line();
        let object = r.next()?;
        if object == "END" {
            r.expect("PROPERTYDEFINITIONS")?;
            return Ok(());
        }
        let name = r.next()?;
        let mut rest: Vec<&str> = Vec::new();
        loop {
            let t = r.next()?;
            if t == ";" {
                break;
            }
            rest.push(t);
        }
        if object != "DESIGN" {
            continue;
        }
        let value = rest.last().copied().unwrap_or("");
        if name == LAYERS_PROPERTY {
            d.layers = Some(value.parse().map_err(|_| {
                r.err(
                    line,
                    format!("{LAYERS_PROPERTY}: `{value}` is not a layer count"),
                )
            })?);
        } else if name == GROUPS_PROPERTY {
            d.groups = parse_groups(value.trim_matches('"'))
                .ok_or_else(|| r.err(line, format!("{GROUPS_PROPERTY}: cannot read `{value}`")))?;
        }
    }
}

/// `HV 1 2, B 3` back into groups (refused when a group's name holds a
/// character DEF property values may not: `"`, `;`, `#`).
fn parse_groups(text: &str) -> Option<Vec<LayerGroup>> {
    if text.contains(['"', ';', '#']) {
        return None;
    }
    text.split(',')
        .map(str::trim)
        .filter(|g| !g.is_empty())
        .map(|g| {
            let mut words = g.split_whitespace();
            let kind = GroupType::from(words.next()?);
            let layers = words
                .map(|w| w.parse().ok())
                .collect::<Option<Vec<u32>>>()?;
            Some(LayerGroup { kind, layers })
        })
        .collect()
}

fn read_tracks(r: &mut Reader<'_>, d: &mut Design, line: usize) -> Result<(), ParseError> {
    let axis = r.next()?;
    let start = r.number("TRACKS start")?;
    r.expect("DO")?;
    let count = r.number("TRACKS count")?;
    r.expect("STEP")?;
    let step: i64 = r.number("TRACKS step")?;
    if step <= 0 {
        return Err(r.err(line, format!("TRACKS step {step}: not positive")));
    }
    let mut layers = 0;
    loop {
        let t = r.next()?;
        if t == ";" {
            break;
        }
        if let Some(k) = t.strip_prefix("metal").and_then(|k| k.parse::<u32>().ok()) {
            layers = layers.max(k);
        }
    }
    d.track_layers = d.track_layers.max(layers);
    let tracks = Some(Tracks { start, count, step });
    match axis {
        "X" => d.x = tracks,
        "Y" => d.y = tracks,
        _ => return Err(r.err(line, format!("TRACKS `{axis}`: give X or Y"))),
    }
    Ok(())
}

/// The grid point of a DEF point, or why not.
fn grid(d: &Design, p: (i64, i64)) -> Result<Point, String> {
    let (Some(x), Some(y)) = (d.x, d.y) else {
        return Err("routing before the TRACKS X and Y that give the grid".into());
    };
    let off = || format!("point ( {} {} ) is off the grid", p.0, p.1);
    let (Some(dx), Some(dy)) = (p.0.checked_sub(x.start), p.1.checked_sub(y.start)) else {
        return Err(off());
    };
    if dx % x.step != 0 || dy % y.step != 0 {
        return Err(off());
    }
    let column = (dx / x.step).checked_sub(1).ok_or_else(off)?;
    Ok(Point::new(column, dy / y.step))
}

fn read_nets(r: &mut Reader<'_>, d: &mut Design) -> Result<(), ParseError> {
    loop {
        let line = r.line();
        match r.next()? {
            "END" => {
                r.expect("NETS")?;
                return Ok(());
            }
            "-" => {
                let name = r.next()?;
                let net = name
                    .strip_prefix("net")
                    .and_then(|n| n.parse::<u32>().ok())
                    .ok_or_else(|| r.err(line, format!("net `{name}`: give netN, N its label")))?;
                read_net(r, d, net)?;
            }
            other => return Err(r.err(line, format!("in NETS: unexpected `{other}`"))),
        }
    }
}

/// One net's statement after its name, to its `;`.
fn read_net(r: &mut Reader<'_>, d: &mut Design, net: u32) -> Result<(), ParseError> {
    loop {
        let t = r.next()?;
        match t {
            ";" => return Ok(()),
            "(" => {
                // A connection: ( PIN name ) or ( component pin ).
                while r.next()? != ")" {}
            }
            "+" => {
                let key = r.next()?;
                if matches!(key, "ROUTED" | "FIXED" | "COVER" | "NOSHIELD") {
                    read_wiring(r, d, net)?;
                }
            }
            _ => {}
        }
    }
}

/// Wiring statements (`layer points...`, then `NEW layer points...`) up to
/// the next `+` or `;`, which is left for the caller.
fn read_wiring(r: &mut Reader<'_>, d: &mut Design, net: u32) -> Result<(), ParseError> {
    let mut layer = read_layer(r)?;
    let mut prev: Option<(i64, i64)> = None;
    while let Some(t) = r.peek() {
        let line = r.line();
        match t {
            "+" | ";" => return Ok(()),
            "NEW" => {
                r.next()?;
                layer = read_layer(r)?;
                prev = None;
            }
            "(" => {
                r.next()?;
                let coord = |r: &mut Reader<'_>, old: Option<i64>| -> Result<i64, ParseError> {
                    let line = r.line();
                    let v = r.next()?;
                    match (v, old) {
                        ("*", Some(o)) => Ok(o),
                        ("*", None) => Err(r.err(line, "`*` with no point before it".into())),
                        _ => v
                            .parse()
                            .map_err(|_| r.err(line, format!("`{v}` is not a coordinate"))),
                    }
                };
                let x = coord(r, prev.map(|p| p.0))?;
                let y = coord(r, prev.map(|p| p.1))?;
                if r.next()? != ")" {
                    return Err(r.err(line, "wire extensions are not read: give ( x y )".into()));
                }
                let here = grid(d, (x, y)).map_err(|m| r.err(line, m))?;
                if let Some(p) = prev {
                    let from = grid(d, p).map_err(|m| r.err(line, m))?;
                    if from.x != here.x && from.y != here.y {
                        return Err(r.err(line, format!("a diagonal wire {from} to {here}")));
                    }
                    d.wires.push(Wire {
                        net,
                        layer,
                        from,
                        to: here,
                    });
                }
                prev = Some((x, y));
            }
            via => {
                r.next()?;
                let (a, b) = via_layers(via).ok_or_else(|| {
                    r.err(
                        line,
                        format!("`{via}`: not a via viaK_K+1 or routing this reader takes"),
                    )
                })?;
                let Some(p) = prev else {
                    return Err(r.err(line, format!("via {via} with no point before it")));
                };
                let at = grid(d, p).map_err(|m| r.err(line, m))?;
                layer = if layer == a {
                    b
                } else if layer == b {
                    a
                } else {
                    return Err(r.err(line, format!("via {via} on layer metal{layer}")));
                };
                add_contact(&mut d.vias, net, at, a);
            }
        }
    }
    Ok(())
}

fn read_layer(r: &mut Reader<'_>) -> Result<u32, ParseError> {
    let line = r.line();
    let name = r.next()?;
    name.strip_prefix("metal")
        .and_then(|k| k.parse().ok())
        .filter(|&k: &u32| k >= 1)
        .ok_or_else(|| r.err(line, format!("layer `{name}`: give metalK")))
}

/// `viaK_K+1` as `(K, K+1)`.
fn via_layers(name: &str) -> Option<(u32, u32)> {
    let (a, b) = name.strip_prefix("via")?.split_once('_')?;
    let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
    (a >= 1 && b == a + 1).then_some((a, b))
}

/// The contact `lower`..`lower+1`, joined to the last via when that one
/// is the same net's at the same point and ends where this one starts.
fn add_contact(vias: &mut Vec<Via>, net: u32, at: Point, lower: u32) {
    if let Some(v) = vias.last_mut() {
        if v.net == net && v.at == at && v.from.max(v.to) == lower && v.from < v.to {
            v.to = lower + 1;
            return;
        }
    }
    vias.push(Via {
        net,
        at,
        from: lower,
        to: lower + 1,
    });
}

fn finish(r: Reader<'_>, d: Design) -> Result<ChannelSolution, ParseError> {
    let (Some(x), Some(y)) = (d.x, d.y) else {
        return Err(r.err(
            0,
            "no TRACKS X and Y: the grid (pitch, origin, columns, rows) is unknown".into(),
        ));
    };
    let columns = x.count.checked_sub(2).and_then(|c| u32::try_from(c).ok());
    let width = y.count.checked_sub(2).and_then(|w| u32::try_from(w).ok());
    let (Some(columns), Some(width)) = (columns, width) else {
        return Err(r.err(0, "TRACKS: fewer than 2 tracks on an axis".into()));
    };
    Ok(ChannelSolution {
        name: d.name,
        layers: d.layers.unwrap_or(d.track_layers),
        width,
        columns,
        groups: d.groups,
        wires: d.wires,
        vias: d.vias,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_keep_strings_whole_and_drop_comments() {
        let t = tokens("A \"x y\" ; # note\n( 1 2 )");
        let words: Vec<&str> = t.iter().map(|t| t.text).collect();
        assert_eq!(words, ["A", "\"x y\"", ";", "(", "1", "2", ")"]);
        assert_eq!(t[3].line, 2);
    }

    #[test]
    fn groups_and_vias_parse() {
        let g = parse_groups("HV 1 2, B 3").unwrap();
        assert_eq!(g.len(), 2);
        assert_eq!(g[1].layers, [3]);
        assert_eq!(via_layers("via2_3"), Some((2, 3)));
        assert_eq!(via_layers("via2_4"), None);
    }

    #[test]
    fn a_small_design_reads_back() {
        let text = "DESIGN c ;\nTRACKS X -200 DO 5 STEP 200 LAYER metal1 metal2 ;\n\
            TRACKS Y 0 DO 4 STEP 200 LAYER metal1 metal2 ;\n\
            NETS 1 ;\n- net7 ( PIN B0 )\n  + ROUTED metal2 ( 0 0 ) ( 0 400 )\n\
            NEW metal1 ( 0 400 ) ( 400 * )\n    NEW metal1 ( 0 400 ) via1_2\n  + USE SIGNAL ;\nEND NETS\nEND DESIGN\n";
        let s = parse_def(text, "c.def").unwrap();
        assert_eq!((s.columns, s.width, s.layers), (3, 2, 2));
        assert_eq!(s.wires.len(), 2);
        assert_eq!(s.wires[1].to, Point::new(2, 2));
        assert_eq!(
            s.vias,
            [Via {
                net: 7,
                at: Point::new(0, 2),
                from: 1,
                to: 2
            }]
        );
        let bad = text.replace("( 400 * )", "( 450 * )");
        let e = parse_def(&bad, "c.def").unwrap_err();
        assert_eq!(e.line, 7);
    }
}
