//! YAML writers for the reports not yet in [`crate::report::model`]:
//! simulation reports in `simulation`.
//! Written by hand, ordered and byte-identical from run to run.

mod simulation;

pub use simulation::simulation_yaml;

use std::fmt::Write;

/// A YAML scalar for a string: plain when it cannot be read as anything but
/// that string (letters, digits, `_`, `-`, `.`, starting with a letter, not a
/// YAML keyword), double-quoted otherwise.
pub fn scalar(s: &str) -> String {
    let plain = s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n" | "null" | "nan" | "inf"
        );
    if plain {
        s.to_string()
    } else {
        quote(s)
    }
}

/// A YAML double-quoted scalar.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}') => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_escapes() {
        assert_eq!(quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        for s in [
            "x: [y] # z \u{1}",
            "a\u{85}b\u{9f}",
            "true",
            "12",
            "",
            "HVH+B",
            "dde",
        ] {
            let parsed: String = serde_norway::from_str(&scalar(s)).unwrap();
            assert_eq!(parsed, s);
        }
        assert_eq!(scalar("dde_zhou"), "dde_zhou");
        assert_eq!(scalar("HV"), "HV");
    }
}
