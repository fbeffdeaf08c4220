//! Fixed side terminals in one layer: the switchbox routability test of
//! thesis section 7.1.2. Floating side
//! terminals reduce to a plain channel instead
//! ([`super::side_extension`]).

use super::problem::NetId;

// ---------------------------------------------------------------------------
// Fixed side terminals: the routability test.

/// A switchbox with fixed terminals, in the chapter 7 convention: the
/// terminals lie on the boundary of the rectangle `[0, width] x [0, height]`
/// and wires may run along the boundary (thesis section 7.1; a chapter 6
/// channel of width `W` and `C` columns with fixed side exits is the
/// switchbox `[-1, C] x [0, W + 1]`, shifted by one column, since its
/// routings stay off the boundary except at their terminals).
///
/// Labels: `0` is no terminal. `top` and `bottom` give `x = 0 ..= width`
/// (the corners belong to them); `left` and `right` give `y = 1 ..
/// height`, bottom to top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Switchbox {
    /// The switchbox's name, for reports.
    pub name: String,
    /// The right edge's `x`: the box is `[0, width]` wide.
    pub width: i64,
    /// The top edge's `y`: the box is `[0, height]` high.
    pub height: i64,
    /// Labels on the top edge `y = height`, for `x = 0 ..= width`.
    pub top: Vec<u32>,
    /// Labels on the bottom edge `y = 0`, for `x = 0 ..= width`.
    pub bottom: Vec<u32>,
    /// Labels on the left edge `x = 0`, for `y = 1 .. height`.
    pub left: Vec<u32>,
    /// Labels on the right edge `x = width`, for `y = 1 .. height`.
    pub right: Vec<u32>,
}

/// A side of the switchbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Edge {
    /// `y = 0`, corners included.
    Bottom,
    /// `x = width`, corners excluded.
    Right,
    /// `y = height`, corners included.
    Top,
    /// `x = 0`, corners excluded.
    Left,
}

/// A terminal: where, which side, which net (label).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terminal {
    /// Column of the boundary point.
    pub x: i64,
    /// Row of the boundary point.
    pub y: i64,
    /// The edge the point lies on.
    pub edge: Edge,
    /// The net's label (never 0).
    pub net: u32,
}

/// A cut that fails: more nets must cross it than it has room for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsafeCut {
    /// One end `(x, y)` of the cut, on the boundary.
    pub from: (i64, i64),
    /// The other end `(x, y)`, on the boundary.
    pub to: (i64, i64),
    /// Nets that must cross the cut.
    pub flow: u32,
    /// Wires that fit across it: `max(|dx|, |dy|) + 1`.
    pub capacity: i64,
}

/// Why a switchbox cannot be routed in one layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unroutable {
    /// Two nets' terminals interleave around the boundary.
    Crossing(u32, u32),
    /// A critical cut is not safe.
    Cut(UnsafeCut),
}

impl std::fmt::Display for Unroutable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unroutable::Crossing(a, b) => write!(f, "nets {a} and {b} cross"),
            Unroutable::Cut(c) => write!(
                f,
                "the cut from ({}, {}) to ({}, {}) must carry {} wires but has room for {}",
                c.from.0, c.from.1, c.to.0, c.to.1, c.flow, c.capacity
            ),
        }
    }
}

/// Why a switchbox is malformed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SwitchboxError {
    /// Width or height below 1.
    #[error("a switchbox needs width and height of at least 1, not {width} x {height}")]
    TooSmall {
        /// The width given.
        width: i64,
        /// The height given.
        height: i64,
    },
    /// A side with the wrong number of entries.
    #[error("{side} has {entries} entries; a {width}-wide, {height}-high switchbox needs {want}")]
    Entries {
        /// The side: `top`, `bottom`, `left` or `right`.
        side: &'static str,
        /// The entries the side has.
        entries: usize,
        /// The switchbox's width.
        width: i64,
        /// The switchbox's height.
        height: i64,
        /// The entries the side needs.
        want: usize,
    },
    /// No net has a terminal.
    #[error("the switchbox has no terminals")]
    NoTerminals,
    /// A net (by label) with one terminal only.
    #[error("net {0} has a single terminal")]
    SingleTerminal(u32),
}

impl Switchbox {
    /// Check the sizes and that every net has two terminals at least.
    pub fn validate(&self) -> Result<(), SwitchboxError> {
        if self.width < 1 || self.height < 1 {
            return Err(SwitchboxError::TooSmall {
                width: self.width,
                height: self.height,
            });
        }
        let (w, h) = (self.width as usize, self.height as usize);
        for (name, row, want) in [
            ("top", &self.top, w + 1),
            ("bottom", &self.bottom, w + 1),
            ("left", &self.left, h - 1),
            ("right", &self.right, h - 1),
        ] {
            if row.len() != want {
                return Err(SwitchboxError::Entries {
                    side: name,
                    entries: row.len(),
                    width: self.width,
                    height: self.height,
                    want,
                });
            }
        }
        let mut count: std::collections::BTreeMap<u32, usize> = std::collections::BTreeMap::new();
        for t in self.terminals() {
            *count.entry(t.net).or_insert(0) += 1;
        }
        if count.is_empty() {
            return Err(SwitchboxError::NoTerminals);
        }
        if let Some((&net, _)) = count.iter().find(|&(_, &k)| k < 2) {
            return Err(SwitchboxError::SingleTerminal(net));
        }
        Ok(())
    }

    /// The terminals in boundary order: bottom left to right, right side
    /// bottom to top, top right to left, left side top to bottom.
    pub fn terminals(&self) -> Vec<Terminal> {
        let mut out = Vec::new();
        let mut push = |x: i64, y: i64, edge: Edge, net: u32| {
            if net != 0 {
                out.push(Terminal { x, y, edge, net });
            }
        };
        for (x, &n) in self.bottom.iter().enumerate() {
            push(x as i64, 0, Edge::Bottom, n);
        }
        for (k, &n) in self.right.iter().enumerate() {
            push(self.width, k as i64 + 1, Edge::Right, n);
        }
        for (x, &n) in self.top.iter().enumerate().rev() {
            push(x as i64, self.height, Edge::Top, n);
        }
        for (k, &n) in self.left.iter().enumerate().rev() {
            push(0, k as i64 + 1, Edge::Left, n);
        }
        out
    }

    /// Position of a boundary point along the boundary, in the order of
    /// [`Switchbox::terminals`] (0 at the bottom-left corner).
    fn param(&self, x: i64, y: i64) -> i64 {
        let (w, h) = (self.width, self.height);
        if y == 0 {
            x
        } else if x == w && y < h {
            w + y
        } else if y == h {
            w + h + (w - x)
        } else {
            2 * w + h + (h - y)
        }
    }

    /// Nets that must cross the straight segment between boundary points
    /// `a` and `b` (thesis 7.1: the wires incident at an end count), counted
    /// directly: O(terminals).
    pub fn flow(&self, a: (i64, i64), b: (i64, i64)) -> u32 {
        let (pa, pb) = (self.param(a.0, a.1), self.param(b.0, b.1));
        let (lo, hi) = (pa.min(pb), pa.max(pb));
        let mut inside = std::collections::HashSet::new();
        let mut outside = std::collections::HashSet::new();
        let mut ends = std::collections::HashSet::new();
        for t in self.terminals() {
            let p = self.param(t.x, t.y);
            if p == lo || p == hi {
                ends.insert(t.net);
            } else if lo < p && p < hi {
                inside.insert(t.net);
            } else {
                outside.insert(t.net);
            }
        }
        let mut crossing: std::collections::HashSet<u32> =
            inside.intersection(&outside).copied().collect();
        crossing.extend(ends);
        crossing.len() as u32
    }

    fn crossing(&self) -> Option<(u32, u32)> {
        let seq = self.terminals();
        let mut ids: std::collections::BTreeMap<u32, u32> = std::collections::BTreeMap::new();
        for t in &seq {
            let next = ids.len() as u32;
            ids.entry(t.net).or_insert(next);
        }
        let labels: Vec<u32> = ids.keys().copied().collect();
        let dense: Vec<NetId> = seq.iter().map(|t| NetId(ids[&t.net])).collect();
        let mut by_id = vec![0u32; labels.len()];
        for (&label, &id) in &ids {
            by_id[id as usize] = label;
        }
        super::analysis::crossing_pairs_of_sequence(&dense, labels.len())
            .first()
            .map(|&(a, b)| (by_id[a.index()], by_id[b.index()]))
    }
}

fn cut_check(sb: &Switchbox, a: (i64, i64), b: (i64, i64)) -> Result<(), Unroutable> {
    let flow = sb.flow(a, b);
    let capacity = (a.0 - b.0).abs().max((a.1 - b.1).abs()) + 1;
    if flow as i64 > capacity {
        return Err(Unroutable::Cut(UnsafeCut {
            from: a,
            to: b,
            flow,
            capacity,
        }));
    }
    Ok(())
}

/// The test oracle: every critical cut checked directly (Lemma 27, with the
/// switchbox's critical cuts: between terminals on different sides, and
/// from every terminal straight across to the opposite side), each flow
/// counted from scratch. O(N^3) for N terminals.
pub fn routable_brute_force(sb: &Switchbox) -> Result<(), Unroutable> {
    if let Some((a, b)) = sb.crossing() {
        return Err(Unroutable::Crossing(a, b));
    }
    let ts = sb.terminals();
    for (i, p) in ts.iter().enumerate() {
        let across = match p.edge {
            Edge::Bottom => (p.x, sb.height),
            Edge::Top => (p.x, 0),
            Edge::Left => (sb.width, p.y),
            Edge::Right => (0, p.y),
        };
        cut_check(sb, (p.x, p.y), across)?;
        for q in &ts[i + 1..] {
            if q.edge != p.edge {
                cut_check(sb, (p.x, p.y), (q.x, q.y))?;
            }
        }
    }
    Ok(())
}

/// The routability test of thesis section 7.1.2: CHANNEL-SEPARATION on the
/// top and bottom terminals (side terminals placed far beyond the ends,
/// where every cut to them is sparse) must not exceed the height; the same
/// turned a quarter (left and right terminals as the channel, top and
/// bottom ones far beyond) must not exceed the width; and the corner cuts,
/// between a side terminal and a top or bottom terminal, must be safe.
///
/// The two sweeps are linear. The corner cuts are checked with flows
/// updated incrementally along the boundary, O(1) per cut, so the whole
/// test is O(N + S·N) for S side terminals (the thesis's linear diagonal-cut
/// argument is not used).
///
/// Far-placed terminals add straight cuts that no switchbox has; their flow
/// is at most the number of terminals on that side (every net crossing one
/// has a far terminal on its near side), which never exceeds the height (or
/// width) + 1, so they never fail the test.
pub fn routable(sb: &Switchbox) -> Result<(), Unroutable> {
    check(sb).result
}

/// The routability test's figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwitchboxCheck {
    /// Minimum separation of the top and bottom terminals (side terminals
    /// far beyond the ends): the height must be at least this.
    pub top_bottom_separation: Option<i64>,
    /// The same for the left and right terminals: the width must be at
    /// least this.
    pub left_right_separation: Option<i64>,
    /// `Ok` when the switchbox routes in one layer, else the reason it does not.
    pub result: Result<(), Unroutable>,
}

/// [`routable`] with the two sweeps' separations.
pub fn check(sb: &Switchbox) -> SwitchboxCheck {
    let mut out = SwitchboxCheck {
        top_bottom_separation: None,
        left_right_separation: None,
        result: Ok(()),
    };
    out.result = check_into(sb, &mut out);
    out
}

fn check_into(sb: &Switchbox, out: &mut SwitchboxCheck) -> Result<(), Unroutable> {
    if let Some((a, b)) = sb.crossing() {
        return Err(Unroutable::Crossing(a, b));
    }
    let ts = sb.terminals();
    let far = ts.len() as i64 + 2;
    let on = |edge: Edge| -> Vec<u32> {
        ts.iter()
            .filter(|t| t.edge == edge)
            .map(|t| t.net)
            .collect()
    };
    // 1. Top and bottom. Left terminals (boundary order: top to bottom) go
    //    far left on the bottom row, right ones (bottom to top) far right.
    let real: Vec<(u32, u32)> = (0..=sb.width as usize)
        .map(|x| (sb.top[x], sb.bottom[x]))
        .collect();
    let cols = far_ended(&on(Edge::Left), 0, &real, &on(Edge::Right), far);
    let (sep, verdict) = sweep_check(&cols, sb.height, |bx, tx| ((bx, 0), (tx, sb.height)));
    out.top_bottom_separation = sep;
    verdict?;
    // 2. Left and right, a quarter turn: the right side is the new bottom,
    //    the left side the new top (x' = y); bottom terminals (left to
    //    right) go far left, top ones (right to left) far right.
    let real: Vec<(u32, u32)> = (1..sb.height as usize)
        .map(|y| (sb.left[y - 1], sb.right[y - 1]))
        .collect();
    let cols = far_ended(&on(Edge::Bottom), 1, &real, &on(Edge::Top), far);
    let (sep, verdict) = sweep_check(&cols, sb.width, |by, ty| ((sb.width, by), (0, ty)));
    out.left_right_separation = sep;
    verdict?;
    // 3. Corner cuts, flows updated along the boundary from each side
    //    terminal.
    corner_cuts(&ts)
}

/// Channel columns `(x, top, bottom)`: the real columns `(top, bottom)` at
/// `x = first, first + 1, ...` (empty ones left out), with `before` on the
/// bottom row far to the left and `after` far to the right, both in the
/// given order, so that every cut to them is sparse.
fn far_ended(
    before: &[u32],
    first: i64,
    real: &[(u32, u32)],
    after: &[u32],
    far: i64,
) -> Vec<(i64, Option<u32>, Option<u32>)> {
    let k = before.len() as i64;
    let last = first + real.len() as i64 - 1;
    let mut cols: Vec<(i64, Option<u32>, Option<u32>)> = before
        .iter()
        .enumerate()
        .map(|(i, &net)| (first - far - k + i as i64, None, Some(net)))
        .collect();
    for (i, &(t, b)) in real.iter().enumerate() {
        if t != 0 || b != 0 {
            cols.push((
                first + i as i64,
                (t != 0).then_some(t),
                (b != 0).then_some(b),
            ));
        }
    }
    cols.extend(
        after
            .iter()
            .enumerate()
            .map(|(i, &net)| (last + far + i as i64, None, Some(net))),
    );
    cols
}

fn terminals_of(cols: &[(i64, Option<u32>, Option<u32>)]) -> super::separation::Terminals {
    super::separation::Terminals {
        x: cols.iter().map(|c| c.0).collect(),
        top: cols.iter().map(|c| c.1).collect(),
        bottom: cols.iter().map(|c| c.2).collect(),
    }
}

/// CHANNEL-SEPARATION on columns `(x, top, bottom)`: the separation, and a
/// failure when it exceeds `limit`, naming the deciding cut (mapped back to
/// the switchbox by `place`).
fn sweep_check(
    cols: &[(i64, Option<u32>, Option<u32>)],
    limit: i64,
    place: impl Fn(i64, i64) -> ((i64, i64), (i64, i64)),
) -> (Option<i64>, Result<(), Unroutable>) {
    let Some((sep, cut)) = super::separation::separation_with_cut(&terminals_of(cols)) else {
        return (None, Ok(()));
    };
    if sep > limit {
        let (from, to) = place(cut.bottom_x, cut.top_x);
        let unsafe_cut = UnsafeCut {
            from,
            to,
            flow: cut.flow,
            capacity: limit.max((cut.top_x - cut.bottom_x).abs()) + 1,
        };
        return (Some(sep), Err(Unroutable::Cut(unsafe_cut)));
    }
    (Some(sep), Ok(()))
}

/// Every cut from a side terminal to a top or bottom terminal, with the
/// flow kept up to date as the far end walks around the boundary.
fn corner_cuts(ts: &[Terminal]) -> Result<(), Unroutable> {
    let n = ts.len();
    let mut ids: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    for t in ts {
        let next = ids.len();
        ids.entry(t.net).or_insert(next);
    }
    let net: Vec<usize> = ts.iter().map(|t| ids[&t.net]).collect();
    let nets = ids.len();
    for i in 0..n {
        if !matches!(ts[i].edge, Edge::Left | Edge::Right) {
            continue;
        }
        // Walk j = i+1, i+2, ... (cyclically); `inner` counts terminals
        // strictly between i and j, `outer` strictly between j and i.
        let mut inner = vec![0u32; nets];
        let mut outer = vec![0u32; nets];
        for step in 2..n {
            outer[net[(i + step) % n]] += 1;
        }
        let mut both = 0u32;
        for step in 1..n {
            let j = (i + step) % n;
            if step > 1 {
                // Terminal j - 1 joins the inner arc; terminal j leaves the outer.
                let a = net[(i + step - 1) % n];
                inner[a] += 1;
                if inner[a] == 1 && outer[a] > 0 {
                    both += 1;
                }
                let b = net[j];
                outer[b] -= 1;
                if outer[b] == 0 && inner[b] > 0 {
                    both -= 1;
                }
            }
            if matches!(ts[j].edge, Edge::Bottom | Edge::Top) {
                let crossing = |k: usize| inner[k] > 0 && outer[k] > 0;
                let mut flow = both;
                if !crossing(net[i]) {
                    flow += 1;
                }
                if net[j] != net[i] && !crossing(net[j]) {
                    flow += 1;
                }
                let (a, b) = ((ts[i].x, ts[i].y), (ts[j].x, ts[j].y));
                let capacity = (a.0 - b.0).abs().max((a.1 - b.1).abs()) + 1;
                if flow as i64 > capacity {
                    return Err(Unroutable::Cut(UnsafeCut {
                        from: a,
                        to: b,
                        flow,
                        capacity,
                    }));
                }
            }
        }
    }
    Ok(())
}
