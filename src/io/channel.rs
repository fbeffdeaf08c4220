//! Channel problem readers: the classic two-row text form, the YACR2
//! `column bottom top` form (auto-detected), and YAML (docs/formats.md 1–2).
//!
//! Every reader produces a [`RawChannel`] with the source position of each
//! number, which is then validated; errors name file, line and column.

use crate::channel::problem::{ChannelProblem, RawChannel, RawEntry, SourceLoc};
use crate::error::ParseError;

/// The input forms of a channel problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelForm {
    /// `top: ...` / `bottom: ...` rows, optional `left:` / `right:`.
    Classic,
    /// One column per line: `column bottom top`.
    Yacr,
    /// A YAML mapping with `name`, `top`, `bottom`, `left`, `right`.
    Yaml,
}

impl ChannelForm {
    /// The form's name for parse errors, which end with `(read as <name>)`.
    pub fn describe(self) -> &'static str {
        match self {
            ChannelForm::Classic => "the classic two-row text form",
            ChannelForm::Yacr => "the YACR2 `column bottom top` form",
            ChannelForm::Yaml => "YAML",
        }
    }
}

/// Decide the form from the file name and the first meaningful line.
pub fn detect_form(text: &str, file: &str) -> ChannelForm {
    let lower = file.to_ascii_lowercase();
    if lower.ends_with(".yaml") || lower.ends_with(".yml") {
        return ChannelForm::Yaml;
    }
    let first = text
        .lines()
        .map(|l| strip_comment(l).trim())
        .find(|l| !l.is_empty() && *l != "---");
    match first {
        None => ChannelForm::Classic,
        Some(l) if l.starts_with("name:") || l.contains('[') || l.starts_with("---") => {
            ChannelForm::Yaml
        }
        Some(l) if l.starts_with(|ch: char| ch.is_ascii_alphabetic()) => ChannelForm::Classic,
        Some(_) => ChannelForm::Yacr,
    }
}

/// The name a problem gets from its file: the file stem.
pub fn name_from_path(file: &str) -> String {
    std::path::Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "channel".to_string())
}

/// Parse and validate a channel problem; `file` is used for the default
/// name, for form detection by extension, and in error messages.
///
/// # Example
///
/// ```
/// let p = fabric::io::parse_channel("top: 1 0 2\nbottom: 2 1 0\n", "small.txt").unwrap();
/// assert_eq!((p.name(), p.columns(), p.nets().len()), ("small", 3, 2));
/// // Errors name the file, line and column.
/// let e = fabric::io::parse_channel("top: 1 x\nbottom: 1 0\n", "bad.txt").unwrap_err();
/// assert_eq!((e.line, e.column), (1, 8));
/// ```
pub fn parse_channel(text: &str, file: &str) -> Result<ChannelProblem, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let form = detect_form(text, file);
    let raw = match form {
        ChannelForm::Classic => parse_classic(text, file),
        ChannelForm::Yacr => parse_yacr(text, file),
        ChannelForm::Yaml => parse_yaml(text, file),
    }?;
    ChannelProblem::validate(&raw).map_err(|e| ParseError {
        file: file.to_string(),
        line: e.loc.line,
        column: e.loc.column,
        form: Some(form.describe()),
        message: e.message,
    })
}

/// The position just after the last line of a text.
fn end_of(text: &str) -> SourceLoc {
    SourceLoc {
        line: text.lines().count() + 1,
        column: 1,
    }
}

pub(crate) fn strip_comment(line: &str) -> &str {
    match line.find('#') {
        Some(i) => &line[..i],
        None => line,
    }
}

fn error(file: &str, form: ChannelForm, loc: SourceLoc, message: String) -> ParseError {
    ParseError {
        file: file.to_string(),
        line: loc.line,
        column: loc.column,
        form: Some(form.describe()),
        message,
    }
}

/// Whitespace-separated tokens of a line with their 1-based char columns.
pub(crate) fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut char_col = 0usize;
    let mut start_col = 0usize;
    for (i, ch) in line.char_indices() {
        char_col += 1;
        if ch.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((start_col, &line[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
            start_col = char_col;
        }
    }
    if let Some(s) = start {
        out.push((start_col, &line[s..]));
    }
    out
}

/// Why a token is no net id.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum NetIdError {
    /// A negative integer.
    #[error("negative net id {0}: ids are 0 (no pin) or positive")]
    Negative(String),
    /// Not an integer at all.
    #[error("'{0}' is not an integer net id")]
    NotInteger(String),
    /// An integer over `u32::MAX`.
    #[error("net id {0} is too large (at most {max})", max = u32::MAX)]
    TooLarge(String),
}

/// A net id: a non-negative integer that fits in 32 bits.
pub(crate) fn net_id(token: &str) -> Result<u32, NetIdError> {
    let t = token;
    if let Some(rest) = t.strip_prefix('-') {
        if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()) {
            return Err(NetIdError::Negative(token.into()));
        }
    }
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit()) {
        return Err(NetIdError::NotInteger(token.into()));
    }
    t.parse::<u32>()
        .map_err(|_| NetIdError::TooLarge(token.into()))
}

fn parse_classic(text: &str, file: &str) -> Result<RawChannel, ParseError> {
    let form = ChannelForm::Classic;
    let mut raw = RawChannel {
        name: name_from_path(file),
        ..RawChannel::default()
    };
    let mut seen = [false; 4];
    for (n, line) in text.lines().enumerate() {
        let body = strip_comment(line);
        if body.trim().is_empty() {
            continue;
        }
        let lineno = n + 1;
        let indent = body.chars().count() - body.trim_start().chars().count();
        let trimmed = body.trim_start();
        let Some(colon) = trimmed.find(':') else {
            return Err(error(
                file,
                form,
                SourceLoc {
                    line: lineno,
                    column: indent + 1,
                },
                "expected `top:`, `bottom:`, `left:` or `right:` followed by net ids".into(),
            ));
        };
        let key = trimmed[..colon].trim();
        let slot = match key {
            "top" => 0,
            "bottom" => 1,
            "left" => 2,
            "right" => 3,
            _ => {
                return Err(error(
                    file,
                    form,
                    SourceLoc {
                        line: lineno,
                        column: indent + 1,
                    },
                    format!("unknown row `{key}` (expected top, bottom, left or right)"),
                ))
            }
        };
        let key_loc = SourceLoc {
            line: lineno,
            column: indent + 1,
        };
        if seen[slot] {
            return Err(error(
                file,
                form,
                key_loc,
                format!("the `{key}` row is given twice"),
            ));
        }
        seen[slot] = true;
        let offset = indent + trimmed[..=colon].chars().count();
        let mut entries = Vec::new();
        for (col, tok) in tokens(&trimmed[colon + 1..]) {
            let loc = SourceLoc {
                line: lineno,
                column: offset + col,
            };
            let value = net_id(tok).map_err(|e| error(file, form, loc, e.to_string()))?;
            entries.push(RawEntry { value, loc });
        }
        match slot {
            0 => {
                raw.top = entries;
                raw.top_loc = key_loc;
            }
            1 => {
                raw.bottom = entries;
                raw.bottom_loc = key_loc;
            }
            2 => raw.left = entries,
            _ => raw.right = entries,
        }
    }
    for (slot, key) in [(0, "top"), (1, "bottom")] {
        if !seen[slot] {
            return Err(error(
                file,
                form,
                end_of(text),
                format!("no `{key}:` row before the end of the file"),
            ));
        }
    }
    Ok(raw)
}

fn parse_yacr(text: &str, file: &str) -> Result<RawChannel, ParseError> {
    let form = ChannelForm::Yacr;
    let mut raw = RawChannel {
        name: name_from_path(file),
        ..RawChannel::default()
    };
    let mut expected_column: Option<u64> = None;
    for (n, line) in text.lines().enumerate() {
        let body = strip_comment(line);
        let toks = tokens(body);
        if toks.is_empty() {
            continue;
        }
        let lineno = n + 1;
        let loc = |col: usize| SourceLoc {
            line: lineno,
            column: col,
        };
        if toks.len() != 3 {
            return Err(error(
                file,
                form,
                loc(toks[0].0),
                format!(
                    "expected three integers `column bottom top`, found {} fields",
                    toks.len()
                ),
            ));
        }
        let column: u64 = Some(toks[0].1)
            .filter(|t| t.chars().all(|c| c.is_ascii_digit()))
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| {
                error(
                    file,
                    form,
                    loc(toks[0].0),
                    format!(
                        "column number '{}' is not a non-negative integer",
                        toks[0].1
                    ),
                )
            })?;
        if let Some(want) = expected_column {
            if column != want {
                return Err(error(
                    file,
                    form,
                    loc(toks[0].0),
                    format!("column {column} out of order: expected column {want}"),
                ));
            }
        } else if column > 1 {
            return Err(error(
                file,
                form,
                loc(toks[0].0),
                format!("the first column is {column}: columns must start at 0 or 1"),
            ));
        }
        expected_column = Some(column + 1);
        let entry = |k: usize| -> Result<RawEntry, ParseError> {
            let l = loc(toks[k].0);
            let value = net_id(toks[k].1).map_err(|e| error(file, form, l, e.to_string()))?;
            Ok(RawEntry { value, loc: l })
        };
        let bottom = entry(1)?;
        let top = entry(2)?;
        if raw.top.is_empty() {
            raw.top_loc = loc(1);
            raw.bottom_loc = loc(1);
        }
        raw.bottom.push(bottom);
        raw.top.push(top);
    }
    Ok(raw)
}

fn parse_yaml(text: &str, file: &str) -> Result<RawChannel, ParseError> {
    let form = ChannelForm::Yaml;
    super::refuse_tags(text, file, Some(form.describe()))?;
    let value: serde_norway::Value = serde_norway::from_str(text).map_err(|e| {
        let loc = e
            .location()
            .map(|l| SourceLoc {
                line: l.line(),
                column: l.column(),
            })
            .unwrap_or_default();
        error(file, form, loc, format!("not valid YAML: {e}"))
    })?;
    let serde_norway::Value::Mapping(map) = value else {
        return Err(error(
            file,
            form,
            SourceLoc { line: 1, column: 1 },
            "expected a mapping with `top` and `bottom` lists".into(),
        ));
    };
    let mut raw = RawChannel {
        name: name_from_path(file),
        ..RawChannel::default()
    };
    let mut have = (false, false);
    for (k, v) in &map {
        let key = k.as_str().unwrap_or("");
        let key_loc = yaml_key_loc(text, key);
        match key {
            "name" => match v {
                serde_norway::Value::String(s) => raw.name = s.clone(),
                serde_norway::Value::Number(n) => raw.name = n.to_string(),
                _ => return Err(error(file, form, key_loc, "`name` must be a string".into())),
            },
            "top" | "bottom" | "left" | "right" => {
                let entries = yaml_list(text, file, key, v)?;
                match key {
                    "top" => {
                        raw.top = entries;
                        raw.top_loc = key_loc;
                        have.0 = true;
                    }
                    "bottom" => {
                        raw.bottom = entries;
                        raw.bottom_loc = key_loc;
                        have.1 = true;
                    }
                    "left" => raw.left = entries,
                    _ => raw.right = entries,
                }
            }
            other => {
                return Err(error(
                    file,
                    form,
                    key_loc,
                    format!("unknown key `{other}` (expected name, top, bottom, left or right)"),
                ))
            }
        }
    }
    for (present, key) in [(have.0, "top"), (have.1, "bottom")] {
        if !present {
            return Err(error(
                file,
                form,
                end_of(text),
                format!("no `{key}` list before the end of the file"),
            ));
        }
    }
    Ok(raw)
}

/// Where a top-level key is written (line of `key:`), best effort.
fn yaml_key_loc(text: &str, key: &str) -> SourceLoc {
    for (n, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix(key) {
            if rest.trim_start().starts_with(':') {
                return SourceLoc {
                    line: n + 1,
                    column: 1,
                };
            }
        }
    }
    SourceLoc::UNKNOWN
}

/// Positions of the scalar items of a top-level list, flow or block style.
fn yaml_item_locs(text: &str, key: &str) -> Vec<SourceLoc> {
    let start = yaml_key_loc(text, key);
    if start.line == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut flow = false;
    for (n, line) in text.lines().enumerate().skip(start.line - 1) {
        let mut body = strip_comment(line);
        let mut base = 0;
        if n + 1 == start.line {
            let colon = body.find(':').unwrap_or(0);
            base = body[..=colon].chars().count();
            body = &body[colon + 1..];
            if body.trim_start().starts_with('[') {
                flow = true;
            } else if !body.trim().is_empty() {
                return Vec::new();
            }
        } else if !flow {
            let t = body.trim_start();
            if t.is_empty() {
                continue;
            }
            if !t.starts_with('-') {
                break;
            }
        }
        let mut col = base;
        let mut token_start: Option<usize> = None;
        let mut done = false;
        let chars: Vec<char> = body.chars().chain(std::iter::once(' ')).collect();
        for (k, &ch) in chars.iter().enumerate() {
            col += 1;
            // A block list's item marker is a `-` followed by white space.
            let marker = !flow && ch == '-' && chars.get(k + 1).is_some_and(|c| c.is_whitespace());
            let separator = ch.is_whitespace() || matches!(ch, '[' | ']' | ',');
            if separator {
                if let Some(s) = token_start.take() {
                    out.push(SourceLoc {
                        line: n + 1,
                        column: s,
                    });
                }
                if ch == ']' {
                    done = true;
                    break;
                }
            } else if token_start.is_none() && !marker {
                token_start = Some(col);
            }
        }
        if done {
            break;
        }
    }
    out
}

fn yaml_list(
    text: &str,
    file: &str,
    key: &str,
    value: &serde_norway::Value,
) -> Result<Vec<RawEntry>, ParseError> {
    let form = ChannelForm::Yaml;
    let key_loc = yaml_key_loc(text, key);
    let items: &[serde_norway::Value] = match value {
        serde_norway::Value::Sequence(s) => s,
        serde_norway::Value::Null => &[],
        _ => {
            return Err(error(
                file,
                form,
                key_loc,
                format!("`{key}` must be a list of net ids"),
            ))
        }
    };
    let locs = yaml_item_locs(text, key);
    let locs_ok = locs.len() == items.len();
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let loc = if locs_ok { locs[i] } else { key_loc };
        let token = match item {
            serde_norway::Value::Number(n) => n.to_string(),
            serde_norway::Value::String(s) => format!("\"{s}\""),
            other => format!("{other:?}"),
        };
        let value = net_id(&token)
            .map_err(|m| error(file, form, loc, format!("`{key}` item {}: {m}", i + 1)))?;
        out.push(RawEntry { value, loc });
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
