//! The obvious count the closed form of [`super::lemma10`] is tested
//! against: bisect the competitor recursively to number its processors,
//! then take every unit edge (face) of the mesh whose two sides lie in
//! different processors, send one message each way across it, and walk
//! each message up the tree, adding one to every channel it climbs and
//! descends.

use super::lemma10::longest;
use super::Dimensions;

/// The fat-tree leaf of every processor, indexed `x + side (y + side z)`:
/// recursive bisection, each cut across the longest extent (lowest axis on
/// ties), the lower half numbered first.
fn leaves(d: usize, side: u64) -> Vec<u64> {
    let total = side.pow(d as u32);
    let mut map = vec![0u64; total as usize];
    let mut next = 0;
    let mut stack = vec![(vec![0u64; d], vec![side; d])];
    while let Some((lo, e)) = stack.pop() {
        if e.iter().all(|&x| x == 1) {
            let index = lo.iter().rev().fold(0, |acc, &c| acc * side + c);
            map[index as usize] = next;
            next += 1;
            continue;
        }
        let a = longest(&e);
        let mut half = e.clone();
        half[a] /= 2;
        let mut upper = lo.clone();
        upper[a] += half[a];
        stack.push((upper, half.clone()));
        stack.push((lo, half));
    }
    map
}

/// The largest one-way load at each level `0 .. lg n` of the mesh of
/// `area` with processors of `alpha` (in 3-D `alpha` is 1), counted edge by
/// edge.
pub fn loads_by_edges(dims: Dimensions, area: u64, alpha: u64) -> Vec<u64> {
    let d = dims.count();
    let n = area / alpha;
    let side = 1u64 << (n.trailing_zeros() / d as u32);
    let unit = 1u64 << (alpha.trailing_zeros() / d as u32);
    let grid = side * unit;
    let leaf = leaves(d, side);
    let k = n.trailing_zeros();
    let mut up: Vec<Vec<u64>> = (0..k).map(|i| vec![0; (n >> i) as usize]).collect();
    let mut down = up.clone();
    let mut walk = |a: u64, b: u64| {
        for i in 0..k {
            if a >> i != b >> i {
                up[i as usize][(a >> i) as usize] += 1;
                down[i as usize][(b >> i) as usize] += 1;
            }
        }
    };
    let processor = |cell: &[u64]| {
        let index = cell.iter().rev().fold(0, |acc, &c| acc * side + c / unit);
        leaf[index as usize]
    };
    for flat in 0..grid.pow(d as u32) {
        let cell: Vec<u64> = (0..d).map(|a| flat / grid.pow(a as u32) % grid).collect();
        for a in 0..d {
            if cell[a] + 1 == grid {
                continue;
            }
            let mut other = cell.clone();
            other[a] += 1;
            let (p, q) = (processor(&cell), processor(&other));
            if p != q {
                walk(p, q);
                walk(q, p);
            }
        }
    }
    (0..k as usize)
        .map(|i| up[i].iter().chain(&down[i]).max().copied().unwrap_or(0))
        .collect()
}
