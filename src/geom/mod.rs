//! Integer grid geometry shared by the channel router and the layout engine.
//!
//! Coordinates are `i64` grid units; nothing in geometry is a float.

#![warn(missing_docs)]

use std::fmt;

/// A point of the integer grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Point {
    /// Horizontal coordinate, growing to the right (a column in a channel).
    pub x: i64,
    /// Vertical coordinate, growing upwards (a row or track in a channel).
    pub y: i64,
}

impl Point {
    /// The point `(x, y)`.
    pub const fn new(x: i64, y: i64) -> Self {
        Point { x, y }
    }

    /// The coordinate along `dir`.
    pub fn coord(self, dir: Dir) -> i64 {
        match dir {
            Dir::Horizontal => self.x,
            Dir::Vertical => self.y,
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// An axis of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dir {
    /// Along `x`: rows and tracks run this way.
    Horizontal,
    /// Along `y`: columns run this way.
    Vertical,
}

impl Dir {
    /// The perpendicular axis.
    pub fn other(self) -> Dir {
        match self {
            Dir::Horizontal => Dir::Vertical,
            Dir::Vertical => Dir::Horizontal,
        }
    }
}

/// A closed integer interval `[lo, hi]` (both ends included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    /// Smaller end, included.
    pub lo: i64,
    /// Larger end, included; [`Span::new`] keeps `lo <= hi`.
    pub hi: i64,
}

impl Span {
    /// The span between two coordinates, in either order.
    pub fn new(a: i64, b: i64) -> Self {
        Span {
            lo: a.min(b),
            hi: a.max(b),
        }
    }

    /// True when `lo <= v <= hi`.
    pub fn contains(self, v: i64) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// True when the two closed spans share at least one point.
    pub fn overlaps(self, other: Span) -> bool {
        self.lo <= other.hi && other.lo <= self.hi
    }

    /// Number of unit edges inside the span.
    pub fn length(self) -> i64 {
        self.hi - self.lo
    }

    /// The smallest span covering both spans (and any gap between them).
    pub fn hull(self, other: Span) -> Span {
        Span {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }
}

/// An axis-parallel segment between two points, ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Segment {
    /// First end; [`Segment::points`] starts here.
    pub from: Point,
    /// Last end; the ends may come in either order along the axis.
    pub to: Point,
}

impl Segment {
    /// The segment from `from` to `to`, kept in that order; nothing checks
    /// that it is axis-parallel.
    pub fn new(from: Point, to: Point) -> Self {
        Segment { from, to }
    }

    /// The axis the segment runs along; `None` for a diagonal segment.
    /// A single point counts as horizontal.
    pub fn dir(&self) -> Option<Dir> {
        if self.from.y == self.to.y {
            Some(Dir::Horizontal)
        } else if self.from.x == self.to.x {
            Some(Dir::Vertical)
        } else {
            None
        }
    }

    /// Unit edges covered (0 for a point; meaningless for a diagonal).
    pub fn length(&self) -> i64 {
        let d = self
            .from
            .x
            .abs_diff(self.to.x)
            .saturating_add(self.from.y.abs_diff(self.to.y));
        d.min(i64::MAX as u64) as i64
    }

    /// The points of an axis-parallel segment in order from `from` to `to`.
    pub fn points(self) -> impl Iterator<Item = Point> {
        let dx = (self.to.x - self.from.x).signum();
        let dy = (self.to.y - self.from.y).signum();
        let n = self.length();
        let from = self.from;
        (0..=n).map(move |k| Point::new(from.x + dx * k, from.y + dy * k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn span_overlap_is_inclusive() {
        assert!(Span::new(0, 3).overlaps(Span::new(3, 5)));
        assert!(!Span::new(0, 2).overlaps(Span::new(3, 5)));
        assert_eq!(Span::new(5, 1), Span { lo: 1, hi: 5 });
        assert_eq!(Span::new(1, 5).length(), 4);
    }

    #[test]
    fn segment_points_run_from_start_to_end() {
        let s = Segment::new(Point::new(3, 2), Point::new(3, -1));
        let pts: Vec<_> = s.points().collect();
        assert_eq!(pts.len(), 4);
        assert_eq!(pts[0], Point::new(3, 2));
        assert_eq!(pts[3], Point::new(3, -1));
        assert_eq!(s.dir(), Some(Dir::Vertical));
        assert_eq!(Segment::new(Point::new(0, 0), Point::new(1, 1)).dir(), None);
    }
}
