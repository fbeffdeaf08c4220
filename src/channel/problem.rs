//! The channel routing problem: raw input as parsed, and the validated model
//! that every algorithm takes.
//!
//! Columns are numbered `0 .. C-1`. Each column has an optional pin on the top
//! and on the bottom row. Nets are identified inside the library by a dense
//! [`NetId`] (an index into [`ChannelProblem::nets`]); the number written in the
//! input file is the net's `label` and is what every output shows.

use std::collections::BTreeMap;
use std::fmt;

/// A position in a source file (1-based line and column; 0 means unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SourceLoc {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub column: usize,
}

impl SourceLoc {
    /// No known position (for problems built in code).
    pub const UNKNOWN: SourceLoc = SourceLoc { line: 0, column: 0 };
}

/// One number of the input with where it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawEntry {
    /// The number: a net label, or 0 for no pin.
    pub value: u32,
    /// Where the number was written.
    pub loc: SourceLoc,
}

/// A channel as read from a file, before any check beyond "these are
/// non-negative integers".
#[derive(Clone, Debug, Default)]
pub struct RawChannel {
    /// The channel's name: the YAML `name`, else the file stem.
    pub name: String,
    /// The top pin row, one entry per column.
    pub top: Vec<RawEntry>,
    /// The bottom pin row, one entry per column.
    pub bottom: Vec<RawEntry>,
    /// Labels of the nets that leave on the left side, in input order.
    pub left: Vec<RawEntry>,
    /// Labels of the nets that leave on the right side, in input order.
    pub right: Vec<RawEntry>,
    /// Where the top and bottom rows were given (for row-level errors).
    pub top_loc: SourceLoc,
    /// Where the bottom row was given.
    pub bottom_loc: SourceLoc,
}

impl RawChannel {
    /// A raw channel from plain vectors, with no source positions.
    pub fn from_rows(name: &str, top: &[u32], bottom: &[u32], left: &[u32], right: &[u32]) -> Self {
        let wrap = |v: &[u32]| {
            v.iter()
                .map(|&value| RawEntry {
                    value,
                    loc: SourceLoc::UNKNOWN,
                })
                .collect()
        };
        RawChannel {
            name: name.to_string(),
            top: wrap(top),
            bottom: wrap(bottom),
            left: wrap(left),
            right: wrap(right),
            top_loc: SourceLoc::UNKNOWN,
            bottom_loc: SourceLoc::UNKNOWN,
        }
    }
}

/// Why a raw channel is not a valid problem, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidateError {
    /// The offending entry or row; [`SourceLoc::UNKNOWN`] for the channel as a
    /// whole.
    pub loc: SourceLoc,
    /// What is wrong, naming nets by label.
    pub message: String,
}

impl fmt::Display for ValidateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ValidateError {}

/// Dense net index into [`ChannelProblem::nets`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NetId(pub u32);

impl NetId {
    /// The id as an index into [`ChannelProblem::nets`] and per-net vectors.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Which pin row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// The bottom row, `y = 0`.
    Bottom,
    /// The top row, `y = W + 1`.
    Top,
}

/// A pin: a column on the top or bottom row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pin {
    /// The column, `0 .. C-1`.
    pub column: u32,
    /// The row the pin is on.
    pub side: Side,
}

/// A net of a validated problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Net {
    /// The number the input file uses for this net.
    pub label: u32,
    /// Pins sorted by column, bottom before top within a column.
    pub pins: Vec<Pin>,
    /// The net must leave through the left side.
    pub left: bool,
    /// The net must leave through the right side.
    pub right: bool,
}

impl Net {
    /// Leftmost pin column, if the net has pins.
    pub fn first_pin(&self) -> Option<u32> {
        self.pins.first().map(|p| p.column)
    }

    /// Rightmost pin column, if the net has pins.
    pub fn last_pin(&self) -> Option<u32> {
        self.pins.last().map(|p| p.column)
    }

    /// The net's span `[first, last]` in column coordinates, with a left side
    /// terminal at `-1` and a right one at `columns` (docs/formats.md section 3).
    pub fn span(&self, columns: u32) -> (i64, i64) {
        let first = if self.left {
            -1
        } else {
            self.first_pin().map_or(columns as i64, |c| c as i64)
        };
        let last = if self.right {
            columns as i64
        } else {
            self.last_pin().map_or(-1, |c| c as i64)
        };
        (first, last)
    }

    /// A net that needs a horizontal track: its span covers more than one
    /// column position. Single-column nets (top and bottom pin of one column,
    /// no side terminal) run straight across on a vertical layer.
    pub fn needs_track(&self, columns: u32) -> bool {
        let (a, b) = self.span(columns);
        a < b
    }

    /// Where the net's trunk may dogleg: its side exits (`-1`, `columns`)
    /// and its pin columns, in increasing order. Consecutive entries bound
    /// the net's pieces (subnets).
    pub fn breakpoints(&self, columns: u32) -> Vec<i64> {
        let mut ends: Vec<i64> = Vec::new();
        if self.left {
            ends.push(-1);
        }
        ends.extend(self.pin_columns().into_iter().map(i64::from));
        if self.right {
            ends.push(columns as i64);
        }
        ends
    }

    /// Distinct pin columns in increasing order.
    pub fn pin_columns(&self) -> Vec<u32> {
        let mut cols: Vec<u32> = self.pins.iter().map(|p| p.column).collect();
        cols.dedup();
        cols
    }
}

/// Refuse rows of unequal length and a channel without columns.
fn check_rows(raw: &RawChannel) -> Result<(), ValidateError> {
    if raw.top.len() != raw.bottom.len() {
        let (short, long, loc) = if raw.top.len() < raw.bottom.len() {
            ("top", "bottom", raw.top_loc)
        } else {
            ("bottom", "top", raw.bottom_loc)
        };
        let (ns, nl) = if short == "top" {
            (raw.top.len(), raw.bottom.len())
        } else {
            (raw.bottom.len(), raw.top.len())
        };
        return Err(ValidateError {
            loc,
            message: format!(
                "unequal rows: the {short} row has {ns} columns but the {long} row has {nl}"
            ),
        });
    }
    if raw.top.is_empty() {
        return Err(ValidateError {
            loc: raw.top_loc,
            message: "empty channel: no columns".to_string(),
        });
    }
    Ok(())
}

/// Every label with the location of its first mention (rows, then side
/// lists); refused when there is none.
fn first_mentions(raw: &RawChannel) -> Result<BTreeMap<u32, SourceLoc>, ValidateError> {
    let mut first_seen: BTreeMap<u32, SourceLoc> = BTreeMap::new();
    for e in raw
        .top
        .iter()
        .chain(&raw.bottom)
        .chain(&raw.left)
        .chain(&raw.right)
    {
        if e.value != 0 {
            first_seen.entry(e.value).or_insert(e.loc);
        }
    }
    if first_seen.is_empty() {
        return Err(ValidateError {
            loc: raw.top_loc,
            message: "empty channel: no nets (every entry is 0)".to_string(),
        });
    }
    Ok(first_seen)
}

/// Which side list of a raw channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SideList {
    Left,
    Right,
}

impl SideList {
    fn name(self) -> &'static str {
        match self {
            SideList::Left => "left",
            SideList::Right => "right",
        }
    }
}

/// The nets of one side list, each marked as leaving on that side; refused
/// for net 0 and for a net listed twice.
fn side_list(
    entries: &[RawEntry],
    which: SideList,
    id_of: &BTreeMap<u32, NetId>,
    nets: &mut [Net],
) -> Result<Vec<NetId>, ValidateError> {
    let name = which.name();
    let mut out = Vec::new();
    for e in entries {
        if e.value == 0 {
            return Err(ValidateError {
                loc: e.loc,
                message: format!("the {name} side list names net 0 (0 means no pin)"),
            });
        }
        let id = id_of[&e.value];
        let net = &mut nets[id.index()];
        let flag = match which {
            SideList::Left => &mut net.left,
            SideList::Right => &mut net.right,
        };
        if *flag {
            return Err(ValidateError {
                loc: e.loc,
                message: format!("net {} is listed twice on the {name} side", e.value),
            });
        }
        *flag = true;
        out.push(id);
    }
    Ok(out)
}

/// Refuse the first net with fewer than two terminals (pins plus side
/// terminals), at its first mention.
fn check_terminals(
    nets: &[Net],
    first_seen: &BTreeMap<u32, SourceLoc>,
) -> Result<(), ValidateError> {
    for net in nets {
        let terminals = net.pins.len() + net.left as usize + net.right as usize;
        if terminals < 2 {
            let loc = first_seen[&net.label];
            let message = if net.pins.len() == 1 {
                format!(
                    "net {} has a single pin and no side terminal: nothing to connect it to",
                    net.label
                )
            } else {
                format!(
                    "net {} has only one terminal (a side terminal and no pin): nothing to connect it to",
                    net.label
                )
            };
            return Err(ValidateError { loc, message });
        }
    }
    Ok(())
}

/// A validated channel routing problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelProblem {
    name: String,
    top: Vec<Option<NetId>>,
    bottom: Vec<Option<NetId>>,
    nets: Vec<Net>,
    left: Vec<NetId>,
    right: Vec<NetId>,
}

impl ChannelProblem {
    /// Check a raw channel and build the model.
    ///
    /// Refused: unequal rows, no columns, no nets, side lists naming a net twice
    /// or naming net 0, and any net with fewer than two terminals (pins plus
    /// side terminals).
    pub fn validate(raw: &RawChannel) -> Result<ChannelProblem, ValidateError> {
        check_rows(raw)?;
        let first_seen = first_mentions(raw)?;
        let labels: Vec<u32> = first_seen.keys().copied().collect();
        let id_of: BTreeMap<u32, NetId> = labels
            .iter()
            .enumerate()
            .map(|(i, &l)| (l, NetId(i as u32)))
            .collect();
        let mut nets: Vec<Net> = labels
            .iter()
            .map(|&label| Net {
                label,
                pins: Vec::new(),
                left: false,
                right: false,
            })
            .collect();
        let row = |entries: &[RawEntry]| -> Vec<Option<NetId>> {
            entries
                .iter()
                .map(|e| (e.value != 0).then(|| id_of[&e.value]))
                .collect()
        };
        let top = row(&raw.top);
        let bottom = row(&raw.bottom);
        for (c, (b, t)) in bottom.iter().zip(&top).enumerate() {
            if let Some(n) = b {
                nets[n.index()].pins.push(Pin {
                    column: c as u32,
                    side: Side::Bottom,
                });
            }
            if let Some(n) = t {
                nets[n.index()].pins.push(Pin {
                    column: c as u32,
                    side: Side::Top,
                });
            }
        }
        let left = side_list(&raw.left, SideList::Left, &id_of, &mut nets)?;
        let right = side_list(&raw.right, SideList::Right, &id_of, &mut nets)?;
        check_terminals(&nets, &first_seen)?;
        Ok(ChannelProblem {
            name: raw.name.clone(),
            top,
            bottom,
            nets,
            left,
            right,
        })
    }

    /// Build a problem from plain rows (labels, 0 = no pin), validating it.
    pub fn from_rows(
        name: &str,
        top: &[u32],
        bottom: &[u32],
        left: &[u32],
        right: &[u32],
    ) -> Result<ChannelProblem, ValidateError> {
        Self::validate(&RawChannel::from_rows(name, top, bottom, left, right))
    }

    /// The channel's name, as read or given to [`ChannelProblem::from_rows`].
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of columns `C`.
    pub fn columns(&self) -> u32 {
        self.top.len() as u32
    }

    /// The top pin row: the net of each column's pin, `None` for no pin.
    pub fn top(&self) -> &[Option<NetId>] {
        &self.top
    }

    /// The bottom pin row: the net of each column's pin, `None` for no pin.
    pub fn bottom(&self) -> &[Option<NetId>] {
        &self.bottom
    }

    /// Every net, indexed by [`NetId`] (increasing label order).
    pub fn nets(&self) -> &[Net] {
        &self.nets
    }

    /// The net with id `id`.
    pub fn net(&self, id: NetId) -> &Net {
        &self.nets[id.index()]
    }

    /// Every net id, `0 .. N-1`.
    pub fn net_ids(&self) -> impl Iterator<Item = NetId> {
        (0..self.nets.len() as u32).map(NetId)
    }

    /// Nets with a left side terminal, in input order.
    pub fn left(&self) -> &[NetId] {
        &self.left
    }

    /// Nets with a right side terminal, in input order.
    pub fn right(&self) -> &[NetId] {
        &self.right
    }

    /// The net with a given label.
    pub fn by_label(&self, label: u32) -> Option<NetId> {
        self.nets
            .binary_search_by_key(&label, |n| n.label)
            .ok()
            .map(|i| NetId(i as u32))
    }

    /// The label of net `id`, as the input wrote it.
    pub fn label(&self, id: NetId) -> u32 {
        self.nets[id.index()].label
    }

    /// Number of pins on the top and bottom rows.
    pub fn pin_count(&self) -> usize {
        self.nets.iter().map(|n| n.pins.len()).sum()
    }

    /// The row as labels (0 = no pin), for writing back out.
    pub fn top_labels(&self) -> Vec<u32> {
        self.labels(&self.top)
    }

    /// The bottom row as labels (0 = no pin), for writing back out.
    pub fn bottom_labels(&self) -> Vec<u32> {
        self.labels(&self.bottom)
    }

    fn labels(&self, row: &[Option<NetId>]) -> Vec<u32> {
        row.iter()
            .map(|p| p.map_or(0, |id| self.label(id)))
            .collect()
    }

    /// The same channel restricted to a subset of nets (the others' pins
    /// become empty). Nets keep their labels. Used to route net groups.
    pub fn restricted(&self, keep: &[NetId]) -> Result<ChannelProblem, ValidateError> {
        let mut mask = vec![false; self.nets.len()];
        for &id in keep {
            mask[id.index()] = true;
        }
        let pick = |row: &[Option<NetId>]| -> Vec<u32> {
            row.iter()
                .map(|p| match p {
                    Some(id) if mask[id.index()] => self.label(*id),
                    _ => 0,
                })
                .collect()
        };
        let side = |ids: &[NetId]| -> Vec<u32> {
            ids.iter()
                .filter(|id| mask[id.index()])
                .map(|&id| self.label(id))
                .collect()
        };
        Self::from_rows(
            &self.name,
            &pick(&self.top),
            &pick(&self.bottom),
            &side(&self.left),
            &side(&self.right),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_nets_from_rows() {
        let p = ChannelProblem::from_rows("t", &[1, 0, 2], &[2, 1, 0], &[], &[]).unwrap();
        assert_eq!(p.columns(), 3);
        assert_eq!(p.nets().len(), 2);
        let n1 = p.net(p.by_label(1).unwrap());
        assert_eq!(n1.pin_columns(), vec![0, 1]);
        assert_eq!(p.pin_count(), 4);
        assert_eq!(p.top_labels(), vec![1, 0, 2]);
    }

    #[test]
    fn refuses_bad_channels() {
        let e = ChannelProblem::from_rows("t", &[1, 2], &[1], &[], &[]).unwrap_err();
        assert!(e.message.contains("unequal rows"), "{}", e.message);
        let e = ChannelProblem::from_rows("t", &[], &[], &[], &[]).unwrap_err();
        assert!(e.message.contains("no columns"));
        let e = ChannelProblem::from_rows("t", &[0, 0], &[0, 0], &[], &[]).unwrap_err();
        assert!(e.message.contains("no nets"));
        let e = ChannelProblem::from_rows("t", &[1, 2], &[1, 0], &[], &[]).unwrap_err();
        assert!(
            e.message.contains("net 2 has a single pin"),
            "{}",
            e.message
        );
        let e = ChannelProblem::from_rows("t", &[1, 2], &[1, 0], &[2, 2], &[]).unwrap_err();
        assert!(e.message.contains("listed twice"));
        let e = ChannelProblem::from_rows("t", &[1, 2], &[1, 0], &[0], &[]).unwrap_err();
        assert!(e.message.contains("net 0"));
    }

    #[test]
    fn side_terminal_makes_single_pin_net_legal() {
        let p = ChannelProblem::from_rows("t", &[1, 2], &[1, 0], &[2], &[]).unwrap();
        let n2 = p.net(p.by_label(2).unwrap());
        assert!(n2.left);
        assert_eq!(n2.span(2), (-1, 1));
        assert!(n2.needs_track(2));
        let n1 = p.net(p.by_label(1).unwrap());
        assert!(!n1.needs_track(2));
    }

    #[test]
    fn restriction_keeps_labels() {
        let p = ChannelProblem::from_rows("t", &[1, 2, 3], &[2, 1, 3], &[], &[]).unwrap();
        let q = p.restricted(&[p.by_label(2).unwrap()]).unwrap();
        assert_eq!(q.top_labels(), vec![0, 2, 0]);
        assert_eq!(q.nets().len(), 1);
    }
}
