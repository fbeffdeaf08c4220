//! A window of a channel's columns to draw: `--columns A..B`.

use std::fmt;
use std::str::FromStr;

/// The columns `first ..= last` of a channel (both included), as written
/// `A..B`; a routed channel's drawing shows only them, its axes labelled
/// with the channel's own column numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnWindow {
    /// The first column drawn.
    pub first: u32,
    /// The last column drawn (included).
    pub last: u32,
}

/// Why a column window is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ColumnWindowError {
    /// Not `A..B` with two column numbers.
    #[error("`{0}` is not a column window: write A..B with column numbers A <= B (both drawn), say 10..40")]
    Syntax(String),
    /// `A > B`: no column.
    #[error("the column window {first}..{last} is empty: its first column is after its last")]
    Empty {
        /// The first column given.
        first: u32,
        /// The last column given.
        last: u32,
    },
    /// Past the channel's last column.
    #[error("the column window {first}..{last} ends past the channel's last column: the channel has columns 0..{}", .columns.saturating_sub(1))]
    OutOfRange {
        /// The first column given.
        first: u32,
        /// The last column given.
        last: u32,
        /// The channel's columns.
        columns: u32,
    },
}

impl FromStr for ColumnWindow {
    type Err = ColumnWindowError;

    fn from_str(s: &str) -> Result<ColumnWindow, ColumnWindowError> {
        let syntax = || ColumnWindowError::Syntax(s.to_string());
        let (a, b) = s.trim().split_once("..").ok_or_else(syntax)?;
        let number = |t: &str| t.trim().parse::<u32>().map_err(|_| syntax());
        let (first, last) = (number(a)?, number(b)?);
        if first > last {
            return Err(ColumnWindowError::Empty { first, last });
        }
        Ok(ColumnWindow { first, last })
    }
}

impl fmt::Display for ColumnWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.first, self.last)
    }
}

impl ColumnWindow {
    /// The window, checked against a channel of `columns` columns.
    pub fn within(self, columns: u32) -> Result<ColumnWindow, ColumnWindowError> {
        if self.last >= columns {
            return Err(ColumnWindowError::OutOfRange {
                first: self.first,
                last: self.last,
                columns,
            });
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_parse_and_bad_ones_are_refused() {
        assert_eq!(
            "10..40".parse(),
            Ok(ColumnWindow {
                first: 10,
                last: 40
            })
        );
        assert_eq!(
            "7..7".parse::<ColumnWindow>().map(|w| (w.first, w.last)),
            Ok((7, 7))
        );
        for bad in ["", "10", "10..", "..40", "a..b", "-1..4", "1..2..3"] {
            assert!(
                matches!(
                    bad.parse::<ColumnWindow>(),
                    Err(ColumnWindowError::Syntax(_))
                ),
                "{bad}"
            );
        }
        assert_eq!(
            "40..10".parse::<ColumnWindow>(),
            Err(ColumnWindowError::Empty {
                first: 40,
                last: 10
            })
        );
        let w: ColumnWindow = "10..40".parse().unwrap();
        assert!(w.within(41).is_ok());
        assert!(matches!(
            w.within(40),
            Err(ColumnWindowError::OutOfRange { columns: 40, .. })
        ));
    }
}
