//! Paths fixed at the source, and the congestion, dilation and exact
//! lower bound they give before anything is routed.
//!
//! Under [`PathRule::Fixed`](crate::sim::wormhole::PathRule::Fixed) a head
//! that has crossed `i` links (the injection link is the first) and is
//! still below the lowest common ancestor of its ends takes up link
//! `ups[(coins >> (i mod 64)) mod ups.len()]`; once its node covers the
//! destination it takes the unique down link towards it. A shortest path
//! thus climbs to the apex and comes down, and [`fixed_path`] reproduces it
//! link by link.

use serde::Serialize;

use super::error::AlgorithmAError;
use crate::sim::wormhole::WormNet;

/// The links, in order, of the path a worm from `src` to `dst` with
/// `coins` takes under the fixed path rule: empty when `src == dst`, else
/// the injection link, the up links to the apex, the down links and the
/// ejection link.
pub fn fixed_path(
    net: &WormNet,
    src: u32,
    dst: u32,
    coins: u64,
) -> Result<Vec<u32>, AlgorithmAError> {
    let n = net.processors();
    if let Some(&node) = [src, dst].iter().find(|&&v| v >= n) {
        return Err(AlgorithmAError::NotProcessor {
            node,
            processors: n,
        });
    }
    if src == dst {
        return Ok(Vec::new());
    }
    let mut path = vec![net.injection(src)];
    let mut v = net.head_of(path[0]);
    while v >= n {
        let e = if net.covers(v, dst) {
            net.down_towards(v, dst)
        } else {
            let ups = net.ups(v);
            let i = path.len() as u64 % 64;
            ups[((coins >> i) % ups.len() as u64) as usize]
        };
        path.push(e);
        v = net.head_of(e);
    }
    Ok(path)
}

/// What a set of fixed paths asks of the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PathLoad {
    /// `c`: the most paths through one directed link (injection and
    /// ejection links included).
    pub congestion: u32,
    /// `d`: the longest path, in links.
    pub dilation: u32,
    /// The longest worm on the paths, in flits.
    pub longest: u32,
    /// A lower bound on the steps any schedule of the engine needs to
    /// deliver the worms with queues of `q` flits: over links `e`, the
    /// fewest links a worm crosses before `e`, plus the steps the flits of
    /// all worms through `e` need to cross it, plus the fewest links a
    /// worm crosses after `e`. A flit enters a queue only if the queue
    /// held fewer than `q` flits at the start of the step, so with `q = 1`
    /// a link takes a flit at most every other step (`2F - 1` steps for
    /// `F` flits), with larger queues every step (`F` steps). A lone worm
    /// meets the bound.
    pub floor: u64,
}

impl PathLoad {
    /// The load of the worms `ids`, path `paths[i]` and `lens[i]` flits
    /// each, on `net`'s directed links with queues of `q` flits.
    pub fn of(net: &WormNet, paths: &[Vec<u32>], lens: &[u32], ids: &[usize], q: u32) -> PathLoad {
        let gap = if q == 1 { 2 } else { 1 };
        let links = net.links() as usize;
        let mut count = vec![0u32; links];
        let mut flits = vec![0u64; links];
        let mut before = vec![u32::MAX; links];
        let mut after = vec![u32::MAX; links];
        let (mut dilation, mut longest) = (0u32, 0u32);
        for &i in ids {
            let p = &paths[i];
            let m = p.len() as u32;
            dilation = dilation.max(m);
            if m > 0 {
                longest = longest.max(lens[i]);
            }
            for (h, &e) in p.iter().enumerate() {
                let e = e as usize;
                count[e] += 1;
                flits[e] += lens[i] as u64;
                before[e] = before[e].min(h as u32);
                after[e] = after[e].min(m - 1 - h as u32);
            }
        }
        let floor = (0..links)
            .filter(|&e| count[e] > 0)
            .map(|e| before[e] as u64 + gap * (flits[e] - 1) + 1 + after[e] as u64)
            .max()
            .unwrap_or(0);
        PathLoad {
            congestion: count.iter().copied().max().unwrap_or(0),
            dilation,
            longest,
            floor,
        }
    }
}
