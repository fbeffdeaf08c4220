//! The undo log of a grid's trials: the changes since the first open
//! mark, popped back to a mark on a rollback.

/// One logged change of the grid.
#[derive(Clone, Copy, Debug)]
pub(super) enum Change {
    /// A cell's owner and edge flags before a write.
    Cell { index: u32, owner: u32, edges: u8 },
    /// A cell index pushed onto a net's list.
    Pushed { net: u32 },
}

/// A point in the undo log to roll back to.
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    len: usize,
    was_logging: bool,
}

/// The undo log: the changes since the first open mark, logged while a
/// trial is open.
#[derive(Clone, Debug, Default)]
pub(super) struct Journal {
    changes: Vec<Change>,
    /// Whether changes are being logged (a trial is open).
    logging: bool,
}

impl Journal {
    /// Open a trial: every change from here on is logged.
    pub(super) fn open(&mut self) -> Mark {
        let m = Mark {
            len: self.changes.len(),
            was_logging: self.logging,
        };
        self.logging = true;
        m
    }

    /// Whether a trial is open.
    pub(super) fn is_logging(&self) -> bool {
        self.logging
    }

    /// Log a change, when a trial is open.
    #[inline]
    pub(super) fn log(&mut self, change: Change) {
        if self.logging {
            self.changes.push(change);
        }
    }

    /// The latest change since mark `m`, taken off the log (`None` when
    /// none is left).
    pub(super) fn undo(&mut self, m: Mark) -> Option<Change> {
        if self.changes.len() > m.len {
            self.changes.pop()
        } else {
            None
        }
    }

    /// Close the trial of mark `m`: logging goes on as it was when the
    /// mark was opened, and the log empties when no trial is left open.
    pub(super) fn close(&mut self, m: Mark) {
        self.logging = m.was_logging;
        if !self.logging {
            self.changes.clear();
        }
    }

    /// Stop logging; what [`Journal::resume`] takes back.
    pub(super) fn pause(&mut self) -> bool {
        std::mem::replace(&mut self.logging, false)
    }

    /// Log again as before [`Journal::pause`].
    pub(super) fn resume(&mut self, was: bool) {
        self.logging = was;
    }

    /// Empty the log, keeping its room (no trial open).
    pub(super) fn clear(&mut self) {
        self.changes.clear();
        self.logging = false;
    }
}
