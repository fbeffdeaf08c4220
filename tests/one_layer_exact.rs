//! An exact one-layer router by exhaustive search, independent of
//! `channel::separation` and `channel::routers::plane`: on every channel of up to
//! four columns (and random ones of five and six), the searched minimum
//! chapter 7 separation equals CHANNEL-SEPARATION, and the searched
//! minimum chapter 6 width equals the plane router's width.
//!
//! The search goes column by column over assignments of grid cells to nets,
//! keeping the connectivity of the last column's cells (which pieces are
//! joined, and which already hold a terminal).

use fabric::channel::analysis::crossing_pairs;
use fabric::channel::problem::ChannelProblem;
use fabric::channel::routers::plane::route_plane;
use fabric::channel::separation::{separation, Terminals};
use rand::{Rng, SeedableRng};

mod dp {
    use std::collections::HashSet;

    pub struct Grid {
        pub cols: usize,
        pub rows: usize,
        /// fixed[x][y]: Some(0) forced empty, Some(n) terminal of net n, None free.
        pub fixed: Vec<Vec<Option<u8>>>,
        /// rows where horizontal adjacency is forbidden
        pub hblock: Vec<bool>,
        /// nets 1..=k
        pub k: u8,
    }

    struct Uf(Vec<usize>);
    impl Uf {
        fn new(n: usize) -> Self {
            Uf((0..n).collect())
        }
        fn find(&mut self, mut v: usize) -> usize {
            while self.0[v] != v {
                self.0[v] = self.0[self.0[v]];
                v = self.0[v];
            }
            v
        }
        fn union(&mut self, a: usize, b: usize) {
            let (a, b) = (self.find(a), self.find(b));
            if a != b {
                self.0[a.max(b)] = a.min(b);
            }
        }
    }

    fn assignments(g: &Grid, x: usize) -> Vec<Vec<u8>> {
        let mut out = vec![Vec::new()];
        for y in 0..g.rows {
            let opts: Vec<u8> = match g.fixed[x][y] {
                Some(v) => vec![v],
                None => (0..=g.k).collect(),
            };
            let mut next = Vec::with_capacity(out.len() * opts.len());
            for a in &out {
                for &o in &opts {
                    let mut b = a.clone();
                    b.push(o);
                    next.push(b);
                }
            }
            out = next;
        }
        out
    }

    pub fn feasible(g: &Grid) -> bool {
        let r = g.rows;
        let k = g.k as usize;
        // last column holding a terminal of each net
        let mut last_col = vec![0usize; k + 1];
        for x in 0..g.cols {
            for y in 0..r {
                if let Some(n) = g.fixed[x][y] {
                    if n > 0 {
                        last_col[n as usize] = x;
                    }
                }
            }
        }
        // state: labels (r) + comp (r) + pinned mask (2 bytes)
        let mut states: HashSet<Vec<u8>> = HashSet::new();
        // virtual previous empty column
        let mut init = vec![0u8; r];
        init.extend(std::iter::repeat_n(255u8, r));
        init.extend([0, 0]);
        states.insert(init);
        for x in 0..g.cols {
            let asg = assignments(g, x);
            let mut next: HashSet<Vec<u8>> = HashSet::new();
            for s in &states {
                let (pl, rest) = s.split_at(r);
                let (pc, pm) = rest.split_at(r);
                let pmask = u16::from_le_bytes([pm[0], pm[1]]);
                'a: for a in &asg {
                    let mut uf = Uf::new(2 * r);
                    let mut pinned = vec![false; 2 * r];
                    for y in 0..r {
                        if pc[y] != 255 {
                            if pmask >> pc[y] & 1 == 1 {
                                pinned[y] = true;
                            }
                            for z in 0..y {
                                if pc[z] == pc[y] {
                                    uf.union(z, y);
                                }
                            }
                        }
                        if a[y] != 0 && g.fixed[x][y] == Some(a[y]) {
                            pinned[r + y] = true;
                        }
                        if y > 0 && a[y] != 0 && a[y] == a[y - 1] {
                            uf.union(r + y, r + y - 1);
                        }
                        if !g.hblock[y] && a[y] != 0 && a[y] == pl[y] {
                            uf.union(y, r + y);
                        }
                    }
                    let mut rp = vec![false; 2 * r];
                    for (v, &pin) in pinned.iter().enumerate() {
                        if pin {
                            let root = uf.find(v);
                            rp[root] = true;
                        }
                    }
                    let label = |v: usize| if v < r { pl[v] } else { a[v - r] };
                    let roots: Vec<usize> = (0..2 * r).map(|v| uf.find(v)).collect();
                    // vanishing prev comps
                    for y in 0..r {
                        if pl[y] == 0 || (0..y).any(|z| pl[z] != 0 && roots[z] == roots[y]) {
                            continue;
                        }
                        let root = roots[y];
                        if (r..2 * r).any(|v| roots[v] == root) || !rp[root] {
                            continue;
                        }
                        let n = pl[y];
                        if last_col[n as usize] >= x {
                            continue 'a;
                        }
                        for v in 0..2 * r {
                            if roots[v] != root && label(v) == n && rp[roots[v]] {
                                continue 'a;
                            }
                        }
                    }
                    // new state
                    let mut ns = a.clone();
                    let mut ids: Vec<usize> = Vec::new();
                    let mut comp = vec![255u8; r];
                    let mut mask = 0u16;
                    for y in 0..r {
                        if a[y] == 0 {
                            continue;
                        }
                        let root = roots[r + y];
                        let id = match ids.iter().position(|&q| q == root) {
                            Some(i) => i,
                            None => {
                                ids.push(root);
                                ids.len() - 1
                            }
                        };
                        comp[y] = id as u8;
                        if rp[root] {
                            mask |= 1 << id;
                        }
                    }
                    ns.extend(comp);
                    ns.extend(mask.to_le_bytes());
                    next.insert(ns);
                }
            }
            states = next;
            if states.is_empty() {
                return false;
            }
        }
        // final: each net has at most one pinned comp in the frontier
        'f: for s in &states {
            let (pl, rest) = s.split_at(r);
            let (pc, pm) = rest.split_at(r);
            let pmask = u16::from_le_bytes([pm[0], pm[1]]);
            let mut seen: Vec<Option<u8>> = vec![None; k + 1];
            for y in 0..r {
                if pl[y] == 0 || pmask >> pc[y] & 1 == 0 {
                    continue;
                }
                match seen[pl[y] as usize] {
                    None => seen[pl[y] as usize] = Some(pc[y]),
                    Some(c) if c == pc[y] => {}
                    Some(_) => continue 'f,
                }
            }
            return true;
        }
        false
    }
}

/// Chapter 7: rows `0 ..= w`, terminals on rows 0 and `w`, runs along the
/// boundary allowed.
fn ch7_feasible(top: &[u32], bottom: &[u32], k: u8, w: usize) -> bool {
    let c = top.len();
    let rows = w + 1;
    let mut fixed = vec![vec![None; rows]; c];
    for x in 0..c {
        let (t, b) = (top[x] as u8, bottom[x] as u8);
        if b != 0 {
            fixed[x][0] = Some(b);
        }
        if t != 0 {
            if let Some(v) = fixed[x][w] {
                if v != t {
                    return false;
                }
            }
            fixed[x][w] = Some(t);
        }
    }
    dp::feasible(&dp::Grid {
        cols: c,
        rows,
        fixed,
        hblock: vec![false; rows],
        k,
    })
}

/// Chapter 6: rows `0 ..= W + 1`; the pin rows hold only pins and no runs.
fn ch6_feasible(top: &[u32], bottom: &[u32], k: u8, wd: usize) -> bool {
    let c = top.len();
    let rows = wd + 2;
    let mut fixed = vec![vec![None; rows]; c];
    let mut hblock = vec![false; rows];
    hblock[0] = true;
    hblock[rows - 1] = true;
    for col in fixed.iter_mut() {
        col[0] = Some(0);
        col[rows - 1] = Some(0);
    }
    for x in 0..c {
        let (t, b) = (top[x] as u8, bottom[x] as u8);
        fixed[x][0] = Some(b);
        fixed[x][rows - 1] = Some(t);
        // A pin reaches the channel only through the cell next to it.
        if wd >= 1 {
            if b != 0 {
                fixed[x][1] = Some(b);
            }
            if t != 0 {
                if let Some(v) = fixed[x][wd] {
                    if v != 0 && v != t {
                        return false;
                    }
                }
                fixed[x][wd] = Some(t);
            }
        }
    }
    dp::feasible(&dp::Grid {
        cols: c,
        rows,
        fixed,
        hblock,
        k,
    })
}

/// Check one channel; returns whether it was planar.
fn check(top: &[u32], bottom: &[u32]) -> bool {
    let Ok(p) = ChannelProblem::from_rows("exact", top, bottom, &[], &[]) else {
        return false;
    };
    if !crossing_pairs(&p).is_empty() {
        return false;
    }
    let k = top.iter().chain(bottom).copied().max().unwrap() as u8;
    let cs = separation(&Terminals::of_problem(&p)).unwrap();
    let searched_cs = (0..=8).find(|&w| ch7_feasible(top, bottom, k, w)).unwrap() as i64;
    // A separation of 0 puts both terminal rows on one line.
    assert_eq!(cs.max(0), searched_cs, "chapter 7: {top:?} {bottom:?}");
    let routed = route_plane(&p).unwrap();
    let searched_w = (0..=9).find(|&w| ch6_feasible(top, bottom, k, w)).unwrap() as u32;
    assert_eq!(routed.width, searched_w, "chapter 6: {top:?} {bottom:?}");
    true
}

#[test]
fn every_channel_up_to_four_columns() {
    let mut planar = 0;
    for c in 1..=4usize {
        // Labels in order of first appearance (bottom row first), so each
        // channel is seen once up to renaming.
        let slots = 2 * c;
        let mut labels = vec![0u32; slots];
        loop {
            let mut next = 1;
            let canonical = labels.iter().all(|&l| {
                if l == 0 || l < next {
                    true
                } else if l == next {
                    next += 1;
                    true
                } else {
                    false
                }
            });
            if canonical && check(&labels[c..], &labels[..c]) {
                planar += 1;
            }
            // Next labelling.
            let mut i = 0;
            loop {
                if i == slots {
                    break;
                }
                labels[i] += 1;
                if labels[i] as usize <= c {
                    break;
                }
                labels[i] = 0;
                i += 1;
            }
            if i == slots {
                break;
            }
        }
    }
    assert!(planar > 1_000, "{planar}");
}

#[test]
fn random_channels_of_five_and_six_columns() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1005);
    let mut planar = 0;
    while planar < 400 {
        let c = rng.gen_range(5..=6);
        let k = rng.gen_range(1..=4);
        let row = |rng: &mut rand_chacha::ChaCha8Rng| -> Vec<u32> {
            (0..c)
                .map(|_| {
                    if rng.gen_bool(0.3) {
                        0
                    } else {
                        rng.gen_range(1..=k)
                    }
                })
                .collect()
        };
        let (top, bottom) = (row(&mut rng), row(&mut rng));
        if check(&top, &bottom) {
            planar += 1;
        }
    }
}
