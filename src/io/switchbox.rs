//! Reader of switchbox files with fixed side terminals (docs/formats.md
//! section 2).
//!
//! ```text
//! # terminals on the boundary of [0, width] x [0, height]
//! height: 3
//! top:    0 2 0 3     # x = 0 .. width
//! bottom: 1 0 2 0
//! left:   1 0         # y = 1 .. height-1, bottom to top
//! right:  0 3
//! ```

use super::channel::{name_from_path, net_id, strip_comment, tokens};
use crate::channel::switchbox::Switchbox;
use crate::error::ParseError;

const FORM: &str = "a switchbox file";

fn error(file: &str, line: usize, column: usize, message: String) -> ParseError {
    ParseError {
        file: file.to_string(),
        line,
        column,
        form: Some(FORM),
        message,
    }
}

/// The keys of a switchbox file, in slot order.
const KEYS: [&str; 5] = ["top", "bottom", "left", "right", "height"];
/// Slots of [`KEYS`].
const TOP: usize = 0;
const BOTTOM: usize = 1;
const LEFT: usize = 2;
const RIGHT: usize = 3;
const HEIGHT: usize = 4;

/// The values of one key's line and where the key stands (line, column).
#[derive(Clone, Debug)]
struct KeyLine {
    values: Vec<u32>,
    line: usize,
    column: usize,
}

/// Parse and validate a switchbox.
pub fn parse_switchbox(text: &str, file: &str) -> Result<Switchbox, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rows = read_keys(text, file)?;
    let end = text.lines().count() + 1;
    let take = |slot: usize| -> Result<KeyLine, ParseError> {
        rows[slot].clone().ok_or_else(|| {
            error(
                file,
                end,
                1,
                format!("no `{}:` line before the end of the file", KEYS[slot]),
            )
        })
    };
    let height = read_height(take(HEIGHT)?, file)?;
    let top = take(TOP)?;
    let bottom = take(BOTTOM)?;
    if top.values.len() < 2 {
        return Err(error(
            file,
            top.line,
            top.column,
            format!(
                "`top:` has {} entries; a switchbox is at least 1 wide (2 entries, x = 0 and 1)",
                top.values.len()
            ),
        ));
    }
    if bottom.values.len() != top.values.len() {
        return Err(error(
            file,
            bottom.line,
            bottom.column,
            format!(
                "`bottom:` has {} entries but `top:` has {}",
                bottom.values.len(),
                top.values.len()
            ),
        ));
    }
    let left = side_values(&rows, LEFT, height, file)?;
    let right = side_values(&rows, RIGHT, height, file)?;
    let sb = Switchbox {
        name: name_from_path(file),
        width: top.values.len() as i64 - 1,
        height,
        top: top.values,
        bottom: bottom.values,
        left,
        right,
    };
    sb.validate()
        .map_err(|e| error(file, 0, 0, e.to_string()))?;
    Ok(sb)
}

/// Every key line of the file, by slot of [`KEYS`]; refused for a line
/// that is not `key: integers`, an unknown key or a key given twice.
fn read_keys(text: &str, file: &str) -> Result<[Option<KeyLine>; 5], ParseError> {
    let mut rows: [Option<KeyLine>; 5] = Default::default();
    for (n, line) in text.lines().enumerate() {
        let body = strip_comment(line);
        if body.trim().is_empty() {
            continue;
        }
        let lineno = n + 1;
        let indent = body.chars().count() - body.trim_start().chars().count();
        let trimmed = body.trim_start();
        let expected =
            "expected `height:`, `top:`, `bottom:`, `left:` or `right:` followed by integers";
        let Some(colon) = trimmed.find(':') else {
            return Err(error(file, lineno, indent + 1, expected.into()));
        };
        let key = trimmed[..colon].trim();
        let Some(slot) = KEYS.iter().position(|&k| k == key) else {
            return Err(error(
                file,
                lineno,
                indent + 1,
                format!("unknown key `{key}`: {expected}"),
            ));
        };
        if rows[slot].is_some() {
            return Err(error(
                file,
                lineno,
                indent + 1,
                format!("`{key}` is given twice"),
            ));
        }
        let offset = indent + trimmed[..=colon].chars().count();
        let mut values = Vec::new();
        for (col, tok) in tokens(&trimmed[colon + 1..]) {
            values.push(net_id(tok).map_err(|e| error(file, lineno, offset + col, e.to_string()))?);
        }
        rows[slot] = Some(KeyLine {
            values,
            line: lineno,
            column: indent + 1,
        });
    }
    Ok(rows)
}

/// The height of the `height:` line: one positive integer within
/// [`crate::limits::MAX_SWITCHBOX_SIDE`].
fn read_height(h: KeyLine, file: &str) -> Result<i64, ParseError> {
    if h.values.len() != 1 || h.values[0] == 0 {
        return Err(error(
            file,
            h.line,
            h.column,
            "`height:` takes one positive integer".into(),
        ));
    }
    let most = crate::limits::MAX_SWITCHBOX_SIDE;
    if h.values[0] as u64 > most {
        return Err(error(
            file,
            h.line,
            h.column,
            format!(
                "height {} is over fabric's limit of {most} for a switchbox side \
                 (side terminals are stored one entry per boundary point; see docs/limits.md)",
                h.values[0]
            ),
        ));
    }
    Ok(h.values[0] as i64)
}

/// The terminals of side `slot` (left or right): `height - 1` entries, all
/// 0 when the file has no line for that side.
fn side_values(
    rows: &[Option<KeyLine>; 5],
    slot: usize,
    height: i64,
    file: &str,
) -> Result<Vec<u32>, ParseError> {
    let (values, line, col) = match &rows[slot] {
        Some(r) => (r.values.clone(), r.line, r.column),
        None => (vec![0; height as usize - 1], 0, 0),
    };
    if values.len() != height as usize - 1 {
        return Err(error(
            file,
            line,
            col,
            format!(
                "`{}:` has {} entries; a switchbox {height} high has {} side positions (y = 1 .. {})",
                KEYS[slot],
                values.len(),
                height - 1,
                height - 1
            ),
        ));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_documented_example() {
        let text =
            "# example\nheight: 3\ntop:    0 2 0 3\nbottom: 1 0 2 0\nleft:   1 0\nright:  0 3\n";
        let sb = parse_switchbox(text, "ex.txt").unwrap();
        assert_eq!((sb.width, sb.height), (3, 3));
        assert_eq!(sb.left, vec![1, 0]);
        assert!(crate::channel::switchbox::routable(&sb).is_ok());
    }

    #[test]
    fn errors_name_the_line_and_column() {
        let e = parse_switchbox("height: 3\ntop: 1 0\nbottom: 1 x\n", "b.txt").unwrap_err();
        assert_eq!((e.line, e.column), (3, 11), "{e}");
        let e =
            parse_switchbox("height: 3\ntop: 1 0\nbottom: 1 0\nleft: 1\n", "b.txt").unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        assert!(e.message.contains("side positions"), "{e}");
        let e = parse_switchbox("top: 1 1\nbottom: 0 0\n", "b.txt").unwrap_err();
        assert!(e.message.contains("height"), "{e}");
        let e = parse_switchbox("height: 2\ntop: 1 2\nbottom: 0 0\n", "b.txt").unwrap_err();
        assert!(e.message.contains("single terminal"), "{e}");
    }
}
