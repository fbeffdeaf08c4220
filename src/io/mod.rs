//! Parsing of input files from text into validated models, and
//! [`network`]: a laid-out network written for other tools. Nothing here
//! opens a file: callers pass the text (and a function opening the files a
//! layout report names) and the file name for messages, and take the text
//! written.

#![warn(missing_docs)]

pub mod channel;
pub mod layout;
pub mod layout_csv;
pub mod network;
pub mod solution;
pub mod switchbox;

pub use channel::{parse_channel, ChannelForm};
pub use layout::{parse_layout, parse_layout_with, LayoutFile, Sidecars};
pub use solution::{parse_solution, SolutionFile};
pub use switchbox::parse_switchbox;

/// Refuse YAML tags (`!foo`, `!!python/object:...`): fabric's YAML files
/// hold plain numbers, strings, lists and maps, and a tag would make a
/// reader give the text a meaning fabric never checks. Quoted strings and
/// comments are skipped.
pub(crate) fn refuse_tags(
    text: &str,
    file: &str,
    form: Option<&'static str>,
) -> Result<(), crate::ParseError> {
    for (k, line) in text.lines().enumerate() {
        let mut quote: Option<char> = None;
        let mut before = ' ';
        for (col, (at, c)) in line.char_indices().enumerate() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if c == '"' || c == '\'' => quote = Some(c),
                None if c == '#' && before.is_whitespace() => break,
                None if c == '!' && (before.is_whitespace() || "[{,:-".contains(before)) => {
                    let tag = line[at..]
                        .split(|c: char| c.is_whitespace() || c == ',')
                        .next()
                        .unwrap_or("!");
                    return Err(crate::ParseError {
                        file: file.to_string(),
                        line: k + 1,
                        column: col + 1,
                        form,
                        message: format!(
                            "YAML tag `{tag}`: fabric's files take plain values, no tags"
                        ),
                    });
                }
                None => {}
            }
            before = c;
        }
    }
    Ok(())
}

/// The 1-based line of a top-level `key:` in a YAML text; 0 when absent.
pub(crate) fn key_line(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| {
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .map_or(0, |k| k + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_refused_where_they_stand() {
        let e = refuse_tags(
            "top: [1, 2]\nbottom: !!python/object:os.system [2, 1]\n",
            "f",
            None,
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (2, 9));
        assert!(
            e.message.contains("`!!python/object:os.system`"),
            "{}",
            e.message
        );
        assert!(refuse_tags("x: [1, !foo 2]\n", "f", None).is_err());
        // Not tags: inside quotes, in comments, inside a word.
        assert!(refuse_tags("name: \"a !b\"\ny: 'c !d' # !e\nz: a!b\n", "f", None).is_ok());
    }

    #[test]
    fn keys_are_found_by_line() {
        let t = "network: x\ndimensions: 4\nnodes:\n  - id: 1\n    min: [0]\n  - {id: 12, min: [0]}\nedges:\n  - id: 12\n";
        assert_eq!(key_line(t, "dimensions"), 2);
        assert_eq!(key_line(t, "depth"), 0);
    }
}
