//! One run of a scheme on a pattern: the messages drawn, made
//! into worms as the scheme says, routed, and the latency given in
//! flit-steps.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::engine::{run, Rules};
use super::{Arbitration, PathRule, Pattern, Scan, Scheme, Worm, WormError, WormNet};

/// What one run routes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The algorithm.
    pub scheme: Scheme,
    /// The traffic.
    pub pattern: Pattern,
    /// Flits per message, `L`.
    pub flits: u32,
    /// Queue size in units; `None` for the scheme's own
    /// ([`Scheme::default_queue`]).
    pub queue: Option<u32>,
    /// Up-link choice.
    pub path: PathRule,
    /// Input scan.
    pub scan: Scan,
    /// `R`: initial delays drawn from `0 .. R` (WORM: times `L lg N`
    /// flit-steps; STORE: packet-steps; SPLIT: flit-steps) and UNIV's
    /// priorities from `1 ..= R`. `R = 1` means no delays.
    pub r: u32,
}

impl Setup {
    /// The queue size used.
    pub fn q(&self) -> u32 {
        self.queue.unwrap_or(self.scheme.default_queue())
    }
}

/// The figures of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SchemeRun {
    /// Maximum communication latency in flit-steps: the step the last
    /// message's tail entered its ejection queue (STORE and UNIV:
    /// packet-steps times `L`).
    pub latency: u64,
    /// Realized congestion: the most worms whose heads crossed one link
    /// (for SPLIT, one-flit packets).
    pub congestion: u32,
    /// The longest path taken, in links.
    pub dilation: u32,
    /// Messages not addressed to their own source.
    pub messages: u32,
    /// Unit link crossings (flits for WORM and SPLIT, packets for STORE
    /// and UNIV).
    pub unit_hops: u64,
}

/// Draws `setup`'s messages on `net` from `rng`, routes them, and reports
/// the latency. Draw order: the destinations, then per message its delay,
/// priority and coins, then the engine's own draws.
pub fn run_scheme(
    net: &WormNet,
    setup: &Setup,
    rng: &mut ChaCha8Rng,
) -> Result<SchemeRun, WormError> {
    let n = net.processors();
    let lg = n.max(2).ilog2() as u64;
    let l = setup.flits;
    let r = setup.r.max(1);
    let dst = setup.pattern.destinations(n, rng);
    let mut worms = Vec::with_capacity(n as usize);
    for (src, &dst) in dst.iter().enumerate() {
        let x = rng.gen_range(0..r) as u64;
        let priority = rng.gen_range(1..=r);
        let worm = |coins: u64, len: u32, release: u64, priority: u32| Worm {
            src: src as u32,
            dst,
            len,
            release,
            priority,
            coins,
        };
        match setup.scheme {
            Scheme::Worm => worms.push(worm(rng.gen(), l, x * l as u64 * lg, 0)),
            Scheme::Store => worms.push(worm(rng.gen(), 1, x, 0)),
            Scheme::Univ => worms.push(worm(rng.gen(), 1, 0, priority)),
            Scheme::Split => {
                for _ in 0..l {
                    worms.push(worm(rng.gen(), 1, x, 0));
                }
            }
        }
    }
    let rules = Rules {
        q: setup.q(),
        path: setup.path,
        scan: setup.scan,
        arbitration: match setup.scheme {
            Scheme::Univ => Arbitration::Priority,
            _ => Arbitration::Scan,
        },
    };
    let out = run(net, &worms, rules, rng)?;
    let per_step = match setup.scheme {
        Scheme::Store | Scheme::Univ => l as u64,
        Scheme::Worm | Scheme::Split => 1,
    };
    Ok(SchemeRun {
        latency: out.latency * per_step,
        congestion: out.congestion,
        dilation: out.dilation,
        messages: dst
            .iter()
            .enumerate()
            .filter(|&(a, &d)| a as u32 != d)
            .count() as u32,
        unit_hops: out.unit_hops,
    })
}
