//! The routing algorithms of chapter 3: they choose which undelivered
//! messages to send in each delivery cycle.
//!
//! - RANDOM with TRY-GUESS (Figures 3-1 and 3-2): guesses of the load
//!   factor, squared and then doubled; for each guess, rounds of
//!   `(1/(r lambda))`-subsets with `lambda` halved between rounds.
//! - RANDOM' (Figure 3-6): passes of `z` cycles, each message in one
//!   random cycle of the pass, `z` doubled per pass.
//! - GREEDY (Figure 3-4): every undelivered message in every cycle.
//! - The butterfly fat-tree algorithm of section 3.5: RANDOM' with each pass
//!   repeated `(k + 1) lg n` times, `|M| = O(n^k)`.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::{Fabric, Message, Outcome, Policy};

/// RANDOM's constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandomConstants {
    /// Rounds per unit of the current `lambda`: TRY-GUESS runs
    /// `max(k1 lambda, k2 lg n)` subset rounds before halving `lambda`.
    pub k1: f64,
    /// Rounds per unit of `lg n`: every `lambda` gets at least `k2 lg n`
    /// rounds, and the first guesses are squared while `k1 guess < k2 lg n`.
    pub k2: f64,
    /// The congestion parameter used for the subset probability `1/(r lambda)`.
    pub r: f64,
    /// The guaranteed-finite variant (section 3.2): after every RANDOM cycle
    /// one cycle sends a single undelivered message alone, which always gets
    /// through, so the run ends even with drop-all switches.
    pub interleave: bool,
}

impl RandomConstants {
    /// The constants of the proof of Theorem 7 for congestion parameter `r`:
    /// `q = 1/(100 r ln r)`, `k1 = 4r/q = 400 r^2 ln r`, `k2 = 36 r`. The
    /// thesis's footnote 2 expects far smaller ones to work in practice.
    pub fn proof(r: f64) -> RandomConstants {
        RandomConstants {
            k1: 400.0 * r * r * r.ln(),
            k2: 36.0 * r,
            r,
            interleave: false,
        }
    }
}

/// A routing algorithm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Algorithm {
    /// RANDOM with TRY-GUESS (Figures 3-1 and 3-2), with its constants.
    Random(RandomConstants),
    /// RANDOM' (Figure 3-6): passes of `z` cycles, `z` doubled per pass.
    RandomPrime,
    /// GREEDY (Figure 3-4): every undelivered message in every cycle.
    Greedy,
    /// The butterfly fat-tree algorithm of section 3.5: RANDOM' with each
    /// pass repeated `(k + 1) lg n` times.
    ButterflyFatTree,
}

/// The routing algorithms by name, as the command line gives them (the
/// constants of RANDOM apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum AlgorithmKind {
    /// RANDOM with TRY-GUESS.
    Random,
    /// RANDOM', for capacities Omega(lg n).
    RandomPrime,
    /// GREEDY.
    Greedy,
    /// The butterfly fat-tree algorithm of section 3.5, wire by wire.
    ButterflyFatTree,
}

impl AlgorithmKind {
    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            AlgorithmKind::Random => "random",
            AlgorithmKind::RandomPrime => "random-prime",
            AlgorithmKind::Greedy => "greedy",
            AlgorithmKind::ButterflyFatTree => "butterfly-fat-tree",
        }
    }
}

impl Algorithm {
    /// The algorithm by name, its constants apart.
    pub fn kind(&self) -> AlgorithmKind {
        match self {
            Algorithm::Random(_) => AlgorithmKind::Random,
            Algorithm::RandomPrime => AlgorithmKind::RandomPrime,
            Algorithm::Greedy => AlgorithmKind::Greedy,
            Algorithm::ButterflyFatTree => AlgorithmKind::ButterflyFatTree,
        }
    }

    /// The command-line and report name, as [`AlgorithmKind::name`].
    pub fn name(&self) -> &'static str {
        match self {
            Algorithm::Random(_) => "random",
            Algorithm::RandomPrime => "random-prime",
            Algorithm::Greedy => "greedy",
            Algorithm::ButterflyFatTree => "butterfly-fat-tree",
        }
    }
}

/// The undelivered messages and the running counts.
struct State<'a, F: Fabric> {
    fabric: &'a F,
    msgs: &'a [Message],
    policy: Policy,
    max_cycles: u64,
    /// Undelivered ids, increasing; may hold delivered ones until compacted.
    pending: Vec<u32>,
    done: Vec<bool>,
    live: usize,
    cycles: u64,
    steps: u64,
    sent: u64,
    work: F::Work,
    batch: Vec<u32>,
    delivered: Vec<u32>,
}

impl<'a, F: Fabric> State<'a, F> {
    fn new(fabric: &'a F, msgs: &'a [Message], policy: Policy, max_cycles: u64) -> Self {
        State {
            fabric,
            msgs,
            policy,
            max_cycles,
            pending: (0..msgs.len() as u32).collect(),
            done: vec![false; msgs.len()],
            live: msgs.len(),
            cycles: 0,
            steps: 0,
            sent: 0,
            work: F::Work::default(),
            batch: Vec::new(),
            delivered: Vec::new(),
        }
    }

    /// Whether to keep going: messages left and cycles left.
    fn going(&self) -> bool {
        self.live > 0 && self.cycles < self.max_cycles
    }

    /// Run one delivery cycle for `self.batch` (increasing ids of undelivered
    /// messages).
    fn send_batch(&mut self, rng: &mut ChaCha8Rng) {
        self.delivered.clear();
        self.steps += self.fabric.cycle(
            self.msgs,
            &self.batch,
            self.policy,
            self.cycles,
            rng,
            &mut self.work,
            &mut self.delivered,
        );
        self.cycles += 1;
        self.sent += self.batch.len() as u64;
        for &id in &self.delivered {
            assert!(!self.done[id as usize], "message {id} delivered twice");
            self.done[id as usize] = true;
        }
        self.live -= self.delivered.len();
        if self.pending.len() > 2 * self.live + 64 {
            let done = &self.done;
            self.pending.retain(|&id| !done[id as usize]);
        }
    }

    /// Send every undelivered message.
    fn send_all(&mut self, rng: &mut ChaCha8Rng) {
        self.batch.clear();
        let done = &self.done;
        self.batch.extend(
            self.pending
                .iter()
                .copied()
                .filter(|&id| !done[id as usize]),
        );
        self.send_batch(rng);
    }

    /// Send the first undelivered message alone (if any are left and cycles
    /// remain).
    fn send_one(&mut self, rng: &mut ChaCha8Rng) {
        if !self.going() {
            return;
        }
        let done = &self.done;
        let Some(&id) = self.pending.iter().find(|&&id| !done[id as usize]) else {
            return;
        };
        self.batch.clear();
        self.batch.push(id);
        self.send_batch(rng);
    }

    /// Send a `p`-subset of the undelivered messages (each independently
    /// with probability `p`), drawn by geometric skips so a small subset
    /// costs little.
    fn send_subset(&mut self, p: f64, rng: &mut ChaCha8Rng) {
        if p >= 1.0 {
            return self.send_all(rng);
        }
        self.batch.clear();
        let ln_q = (-p).ln_1p();
        let mut i = 0usize;
        loop {
            let u: f64 = rng.gen::<f64>();
            // Skip Geometric(p) - 1 entries: P(skip >= s) = (1 - p)^s.
            let skip = ((1.0 - u).ln() / ln_q).floor();
            if skip >= (self.pending.len() - i) as f64 {
                break;
            }
            i += skip as usize;
            let id = self.pending[i];
            if !self.done[id as usize] {
                self.batch.push(id);
            }
            i += 1;
        }
        self.send_batch(rng);
    }

    fn outcome(&self) -> Outcome {
        Outcome {
            cycles: self.cycles,
            delivered: self.msgs.len() - self.live,
            complete: self.live == 0,
            steps: self.steps,
            sent: self.sent,
        }
    }
}

/// Route a message set (sorted by source, as the generators return it): run
/// `algorithm` until every message is delivered or `max_cycles` cycles have
/// run. The count stops at the cycle that delivers the last message; the
/// rounds of TRY-GUESS or the slots of a RANDOM' pass that would follow,
/// empty, are not counted (docs/simulation.md).
///
/// # Panics
/// If `msgs` is not sorted by source: the fabrics group a channel's
/// arrivals by runs of equal sources.
pub fn route<F: Fabric>(
    fabric: &F,
    msgs: &[Message],
    algorithm: &Algorithm,
    policy: Policy,
    max_cycles: u64,
    rng: &mut ChaCha8Rng,
) -> Outcome {
    assert!(
        msgs.windows(2).all(|w| w[0].src <= w[1].src),
        "message sets must be sorted by source"
    );
    let mut s = State::new(fabric, msgs, policy, max_cycles);
    let lgn = super::lg(fabric.processors());
    match *algorithm {
        Algorithm::Greedy => {
            while s.going() {
                s.send_all(rng);
            }
        }
        Algorithm::Random(c) => {
            if s.going() {
                s.send_all(rng);
                if c.interleave {
                    s.send_one(rng);
                }
            }
            let mut guess = 2.0f64;
            while c.k1 * guess < c.k2 * lgn && s.going() {
                try_guess(&mut s, guess, &c, lgn, rng);
                guess *= guess;
            }
            guess = (c.k2 / c.k1) * lgn * lgn.log2().max(1.0);
            while s.going() {
                try_guess(&mut s, guess, &c, lgn, rng);
                guess *= 2.0;
            }
        }
        Algorithm::RandomPrime => random_prime(&mut s, 1, rng),
        Algorithm::ButterflyFatTree => {
            // |M| = O(n^k): k = max(1, ceil(log_n |M|)).
            let n = fabric.processors().max(2) as f64;
            let k = ((msgs.len().max(1) as f64).ln() / n.ln()).ceil().max(1.0);
            let repeats = ((k + 1.0) * lgn).ceil() as u64;
            random_prime(&mut s, repeats, rng);
        }
    }
    s.outcome()
}

/// TRY-GUESS (Figure 3-2).
fn try_guess<F: Fabric>(
    s: &mut State<F>,
    guess: f64,
    c: &RandomConstants,
    lgn: f64,
    rng: &mut ChaCha8Rng,
) {
    let mut lambda = guess;
    while lambda > 1.0 {
        let rounds = (c.k1 * lambda).max(c.k2 * lgn).ceil() as u64;
        for _ in 0..rounds {
            if !s.going() {
                return;
            }
            s.send_subset(1.0 / (c.r * lambda), rng);
            if c.interleave {
                s.send_one(rng);
            }
        }
        lambda /= 2.0;
    }
    if s.going() {
        s.send_all(rng);
        if c.interleave {
            s.send_one(rng);
        }
    }
}

/// RANDOM' (Figure 3-6), each pass of `z` cycles run `repeats` times.
fn random_prime<F: Fabric>(s: &mut State<F>, repeats: u64, rng: &mut ChaCha8Rng) {
    let mut z: u64 = 1;
    let mut slot_of: Vec<u64> = Vec::new();
    let mut order: Vec<u32> = Vec::new();
    while s.going() {
        for _ in 0..repeats {
            if !s.going() {
                return;
            }
            // Each undelivered message picks a slot; bucket them in id order.
            let done = &s.done;
            let live: Vec<u32> = s
                .pending
                .iter()
                .copied()
                .filter(|&id| !done[id as usize])
                .collect();
            slot_of.clear();
            slot_of.extend(live.iter().map(|_| rng.gen_range(0..z)));
            let mut pairs: Vec<(u64, u32)> =
                slot_of.iter().copied().zip(live.iter().copied()).collect();
            pairs.sort_unstable();
            order.clear();
            order.extend(pairs.iter().map(|p| p.1));
            let mut at = 0usize;
            let mut slot = 0u64;
            while slot < z && s.going() {
                let begin = at;
                while at < pairs.len() && pairs[at].0 == slot {
                    at += 1;
                }
                s.batch.clear();
                s.batch.extend_from_slice(&order[begin..at]);
                s.send_batch(rng);
                slot += 1;
            }
        }
        z *= 2;
    }
}
