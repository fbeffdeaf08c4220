//! Parallel work on rayon's pool, the one pool of the process, and a
//! deterministic "first success in order" built on it.
//!
//! Every parallel step runs on rayon's global pool (or the pool the caller
//! runs in, [`rayon::ThreadPool::install`]), so its size, set once by
//! [`set_threads`] (`-j/--threads`), bounds the threads at work (a caller
//! outside the pool, such as the program's main thread, works beside it
//! on its share); no thread is started outside it. Speculative work (trying the next
//! candidate routing before the current one has failed) is handed to the
//! pool as jobs that idle threads steal, so it only runs where a thread
//! would otherwise wait. Nothing here blocks a thread of the pool on work
//! another job must do: the only waits are rayon's own (`join`, `scope`),
//! which run other jobs meanwhile, and a candidate that needs what an
//! earlier one hands on is started only once that one has returned.
//!
//! Results never depend on the number of threads or their timing; with
//! one thread everything runs sequentially, in the order the sequential
//! code would take.

#![warn(missing_docs)]

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Use at most `threads` threads for all parallel work of the process:
/// the size of rayon's global pool. Call it once, before any parallel
/// work. Fails when the pool has already started or the system refuses
/// to start the threads; after a failure no parallel work may run (rayon
/// cannot start its global pool again), so the caller must stop.
pub fn set_threads(threads: usize) -> Result<(), rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build_global()
}

/// The threads parallel work may use from here: those of the pool the
/// caller runs in, else of the global pool.
pub fn threads() -> usize {
    rayon::current_num_threads()
}

/// `a()` and `b()`, in parallel on the pool when `split` (the work is
/// worth it) and the pool has a second thread, else `a` then `b` on this
/// thread. A panic in either goes on in the caller.
pub fn join<A: Send, B: Send>(
    split: bool,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    if split && threads() > 1 {
        rayon::join(a, b)
    } else {
        let x = a();
        (x, b())
    }
}

/// `first()` on this thread (it need not be `Send`) and each of `others`
/// beside it on the pool; with one thread, `first` and then the others in
/// order. The results in the order given.
pub fn beside<A, B: Send, F: FnOnce() -> B + Send>(
    first: impl FnOnce() -> A,
    others: Vec<F>,
) -> (A, Vec<B>) {
    if threads() == 1 || others.is_empty() {
        let a = first();
        return (a, others.into_iter().map(|f| f()).collect());
    }
    let mut slots: Vec<Option<B>> = others.iter().map(|_| None).collect();
    let a = rayon::in_place_scope(|scope| {
        for (slot, f) in slots.iter_mut().zip(others) {
            scope.spawn(move |_| *slot = Some(f()));
        }
        first()
    });
    let done = slots.into_iter();
    (
        a,
        done.map(|b| b.expect("the scope ran every job")).collect(),
    )
}

/// The result of the first `k` in `0..n` (in that order) for which `run(k,
/// abandoned)` succeeds, exactly as `(0..n).find_map(..)`; with more than
/// one thread, later candidates are tried at the same time as earlier
/// ones. Each candidate runs at most once, and none past a success already
/// found is started; `abandoned()` turns true for a running candidate once
/// an earlier one has succeeded (its result is not needed: it may return
/// `None` at once).
pub fn first_success<T: Send>(
    n: usize,
    run: impl Fn(usize, &dyn Fn() -> bool) -> Option<T> + Sync,
) -> Option<T> {
    let starts: Vec<usize> = (0..n).collect();
    first_success_also_starting(&starts, &[], run, || ()).0
}

/// [`first_success`] and, besides, `also()`, whose result is needed
/// whatever the candidates give: it runs on the first thread that finds no
/// candidate left to start (so on a thread the candidates leave idle), or
/// after them on one thread.
pub fn first_success_also<T: Send, U: Send>(
    n: usize,
    run: impl Fn(usize, &dyn Fn() -> bool) -> Option<T> + Sync,
    also: impl FnOnce() -> U + Send,
) -> (Option<T>, U) {
    first_success_also_starting(&(0..n).collect::<Vec<_>>(), &[], run, also)
}

/// [`first_success_also`] of the candidates `0 .. starts.len()`, with
/// threads starting them in the order `starts` gives (a permutation): the
/// same answer, the first candidate in index order that succeeds, and
/// every candidate before it run. A long candidate started early runs
/// beside the shorter ones before it rather than after them.
///
/// Each pair `(earlier, later)` of `after` (with `earlier < later`) holds
/// `later` back until `earlier` has returned: the thread that reaches
/// `later` in the start order first skips it when `earlier` still runs,
/// and the thread of `earlier` then runs it next. So `later` may take what
/// `earlier` handed on ([`Handoff`]) without waiting. With one thread the
/// candidates run in index order.
pub fn first_success_also_starting<T: Send, U: Send>(
    starts: &[usize],
    after: &[(usize, usize)],
    run: impl Fn(usize, &dyn Fn() -> bool) -> Option<T> + Sync,
    also: impl FnOnce() -> U + Send,
) -> (Option<T>, U) {
    let n = starts.len();
    debug_assert!(
        {
            let mut seen = starts.to_vec();
            seen.sort_unstable();
            seen.iter().copied().eq(0..n)
        },
        "a permutation of the candidates"
    );
    debug_assert!(
        after.iter().all(|&(e, l)| e < l && l < n),
        "each held-back candidate after the one it waits for"
    );
    let helpers = threads().saturating_sub(1).min(n.saturating_sub(1));
    if helpers == 0 {
        let found = (0..n).find_map(|k| run(k, &|| false));
        return (found, also());
    }
    let search = Search::new(starts, after, &run);
    let also = Mutex::new(Some(also));
    let also_gave: Mutex<Option<U>> = Mutex::new(None);
    let work = || {
        search.work();
        let job = lock(&also).take();
        if let Some(f) = job {
            let u = f();
            *lock(&also_gave) = Some(u);
        }
    };
    rayon::in_place_scope(|scope| {
        for _ in 0..helpers {
            scope.spawn(|_| work());
        }
        work();
    });
    let gave = also_gave.into_inner().unwrap_or_else(|e| e.into_inner());
    (
        search.answer(),
        gave.expect("the last thread out takes the job if nobody did"),
    )
}

/// A mutex's value, poisoned or not (a panic goes on in the caller anyway).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// [`Search::gate`]: the thread reaching a held-back candidate in the
/// start order has passed it.
const REACHED: u8 = 1;
/// [`Search::gate`]: the candidate it waits for has returned.
const READY: u8 = 2;

/// The shared state of one [`first_success_also_starting`].
struct Search<'a, T, R> {
    starts: &'a [usize],
    run: &'a R,
    /// The candidate each one waits for, if any.
    waits_for: Vec<Option<usize>>,
    /// The candidate held back until each one returns, if any.
    holds_back: Vec<Option<usize>>,
    /// Per held-back candidate, [`REACHED`] and [`READY`]: whoever sets
    /// the second of the two runs it.
    gate: Vec<AtomicU8>,
    /// The next place in `starts` to take.
    next: AtomicUsize,
    /// The least candidate known to succeed.
    least: AtomicUsize,
    found: Mutex<Vec<(usize, T)>>,
}

impl<'a, T: Send, R: Fn(usize, &dyn Fn() -> bool) -> Option<T> + Sync> Search<'a, T, R> {
    fn new(starts: &'a [usize], after: &[(usize, usize)], run: &'a R) -> Self {
        let n = starts.len();
        let mut waits_for = vec![None; n];
        let mut holds_back = vec![None; n];
        for &(earlier, later) in after {
            waits_for[later] = Some(earlier);
            holds_back[earlier] = Some(later);
        }
        Search {
            starts,
            run,
            waits_for,
            holds_back,
            gate: (0..n).map(|_| AtomicU8::new(0)).collect(),
            next: AtomicUsize::new(0),
            least: AtomicUsize::new(usize::MAX),
            found: Mutex::new(Vec::new()),
        }
    }

    /// Take candidates in the start order until none is left.
    fn work(&self) {
        loop {
            let at = self.next.fetch_add(1, Ordering::AcqRel);
            let Some(&k) = self.starts.get(at) else {
                return;
            };
            if self.waits_for[k].is_some()
                && self.gate[k].fetch_or(REACHED, Ordering::AcqRel) & READY == 0
            {
                // Its earlier candidate's thread runs it.
                continue;
            }
            self.run_from(k);
        }
    }

    /// Run candidate `k` unless it is past a known success, then the one
    /// it held back if that was reached meanwhile, and so on.
    fn run_from(&self, mut k: usize) {
        loop {
            // One past a known success is not needed (every candidate
            // before that success is taken by someone, as `least` only
            // falls), but one later in the start order may be.
            if k <= self.least.load(Ordering::Acquire) {
                let least = &self.least;
                if let Some(t) = (self.run)(k, &|| least.load(Ordering::Acquire) < k) {
                    self.least.fetch_min(k, Ordering::AcqRel);
                    lock(&self.found).push((k, t));
                }
            }
            match self.holds_back[k] {
                Some(l) if self.gate[l].fetch_or(READY, Ordering::AcqRel) & REACHED != 0 => k = l,
                _ => return,
            }
        }
    }

    /// The least candidate that succeeded, once all are done.
    fn answer(self) -> Option<T> {
        let found = self.found.into_inner().unwrap_or_else(|e| e.into_inner());
        found.into_iter().min_by_key(|&(k, _)| k).map(|(_, t)| t)
    }
}

/// A value one candidate of [`first_success_also_starting`] hands on to a
/// later one that waits for it (`after`): the later one starts only once
/// the earlier has returned, so taking never waits.
pub struct Handoff<T> {
    slot: Mutex<Option<Option<T>>>,
}

impl<T> Default for Handoff<T> {
    fn default() -> Self {
        Handoff {
            slot: Mutex::new(None),
        }
    }
}

impl<T> Handoff<T> {
    /// Hand on `value` (`None`: nothing); only the first call counts.
    pub fn give(&self, value: Option<T>) {
        let mut slot = lock(&self.slot);
        if slot.is_none() {
            *slot = Some(value);
        }
    }

    /// What was handed on (taken: a second call gets `None`). The giver
    /// has returned, so its [`Handoff::guard`] has handed on at least
    /// nothing.
    pub fn take(&self) -> Option<T> {
        let mut slot = lock(&self.slot);
        debug_assert!(slot.is_some(), "taken before the giver returned");
        slot.as_mut().and_then(Option::take)
    }

    /// A guard that hands on nothing when dropped before [`Handoff::give`]
    /// was called (say, when the giver returns early or panics).
    pub fn guard(&self) -> impl Drop + '_ {
        struct Guard<'h, T>(&'h Handoff<T>);
        impl<T> Drop for Guard<'_, T> {
            fn drop(&mut self) {
                self.0.give(None);
            }
        }
        Guard(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use std::sync::atomic::{AtomicBool, AtomicU64};

    /// Pools of one to four threads.
    fn pools() -> Vec<rayon::ThreadPool> {
        (1..=4)
            .map(|n| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .expect("a pool")
            })
            .collect()
    }

    /// Against `find_map` on random success patterns with random delays,
    /// on one to four threads, candidates started in index order or a
    /// random one, some held back until an earlier one returns: the same
    /// answer, every candidate up to it run exactly once (none twice), a
    /// held-back one only after the one it waits for returned, and the job
    /// besides them run once.
    #[test]
    fn first_success_is_find_map() {
        use rand::seq::SliceRandom;
        let pools = pools();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let (mut overlapped, mut shuffled, mut held) = (0, 0, 0);
        for round in 0..480 {
            let pool = &pools[round % 4];
            let n = rng.gen_range(0..12);
            let ok: Vec<bool> = (0..n).map(|_| rng.gen_bool(0.3)).collect();
            let delay: Vec<u64> = (0..n).map(|_| rng.gen_range(0..300)).collect();
            let runs: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0)).collect();
            let returned: Vec<AtomicBool> = (0..n).map(|_| AtomicBool::new(false)).collect();
            let also_runs = AtomicU64::new(0);
            let mut starts: Vec<usize> = (0..n).collect();
            if round % 8 >= 4 {
                starts.shuffle(&mut rng);
                shuffled += starts.iter().enumerate().any(|(i, &k)| i != k) as usize;
            }
            let after: Vec<(usize, usize)> = if n >= 3 && rng.gen_bool(0.5) {
                let e = rng.gen_range(0..n - 1);
                vec![(e, rng.gen_range(e + 1..n))]
            } else {
                Vec::new()
            };
            let (got, also) = pool.install(|| {
                first_success_also_starting(
                    &starts,
                    &after,
                    |k, abandoned| {
                        runs[k].fetch_add(1, Ordering::Relaxed);
                        for &(e, _) in after.iter().filter(|&&(_, l)| l == k) {
                            assert!(returned[e].load(Ordering::Acquire), "{k} before {e}");
                        }
                        let _returns = Returns(&returned[k]);
                        for _ in 0..delay[k] / 10 {
                            if abandoned() {
                                // Later than the answer: any result will do.
                                return Some(usize::MAX);
                            }
                            std::thread::sleep(std::time::Duration::from_micros(10));
                        }
                        ok[k].then_some(k * 10)
                    },
                    || {
                        also_runs.fetch_add(1, Ordering::Relaxed);
                        n + 7
                    },
                )
            });
            assert_eq!((also, also_runs.load(Ordering::Relaxed)), (n + 7, 1));
            let want = (0..n).find(|&k| ok[k]);
            let threads = pool.current_num_threads();
            assert_eq!(
                got,
                want.map(|k| k * 10),
                "{ok:?} on {threads} threads, started {starts:?}, held {after:?}"
            );
            let end = want.unwrap_or(n.saturating_sub(1));
            for (k, r) in runs.iter().enumerate() {
                let r = r.load(Ordering::Relaxed);
                assert!(r <= 1, "candidate {k} ran {r} times");
                if k <= end {
                    assert_eq!(r, 1, "candidate {k}, not after the answer, ran");
                    held += after.iter().any(|&(_, l)| l == k) as usize;
                } else if r == 1 {
                    overlapped += 1;
                }
            }
            if threads == 1 {
                let past = runs.iter().skip(end + 1);
                assert!(past.map(|r| r.load(Ordering::Relaxed)).all(|r| r == 0));
            }
        }
        // Threads did start candidates past the answer at times (the
        // speculation happened), start orders were shuffled, and held-back
        // candidates ran.
        assert!(
            overlapped > 0 && shuffled > 100 && held > 20,
            "{overlapped} {shuffled} {held}"
        );
    }

    /// Marks a candidate returned when dropped.
    struct Returns<'a>(&'a AtomicBool);

    impl Drop for Returns<'_> {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Release);
        }
    }

    /// Both jobs run once and give their results, split or not, on one
    /// thread or two (on one, on the caller's thread); a panic in either
    /// reaches the caller.
    #[test]
    fn join_runs_both_and_passes_a_panic_on() {
        for pool in &pools()[..2] {
            for split in [false, true] {
                let ran = AtomicU64::new(0);
                let ((a, x), (b, y)) = pool.install(|| {
                    join(
                        split,
                        || {
                            (
                                std::thread::current().id(),
                                ran.fetch_add(1, Ordering::Relaxed),
                            )
                        },
                        || {
                            (
                                std::thread::current().id(),
                                ran.fetch_add(10, Ordering::Relaxed),
                            )
                        },
                    )
                });
                assert_eq!(ran.load(Ordering::Relaxed), 11);
                assert!((x, y) == (0, 1) || (x, y) == (10, 0), "{x} {y}");
                if pool.current_num_threads() == 1 || !split {
                    assert_eq!((a, x, y), (b, 0, 1), "in order on one thread");
                }
            }
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                pool.install(|| join(true, || 1, || -> u8 { panic!("in b") }))
            }));
            assert!(caught.is_err());
        }
    }

    /// The first job runs on the caller's thread and every other once,
    /// their results in the order given; on one thread in that order.
    #[test]
    fn beside_runs_the_first_here_and_the_others_on_the_pool() {
        for pool in &pools() {
            let order = Mutex::new(Vec::new());
            let (here, got) = pool.install(|| {
                let me = std::thread::current().id();
                let others: Vec<_> = (1..6)
                    .map(|k| {
                        let order = &order;
                        move || {
                            lock(order).push(k);
                            k * k
                        }
                    })
                    .collect();
                beside(
                    || {
                        lock(&order).push(0);
                        std::thread::current().id() == me
                    },
                    others,
                )
            });
            assert!(here);
            assert_eq!(got, vec![1, 4, 9, 16, 25]);
            let order = order.into_inner().unwrap();
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..6).collect::<Vec<_>>());
            if pool.current_num_threads() == 1 {
                assert_eq!(order, sorted, "in order on one thread");
            }
        }
    }

    /// A candidate held back until an earlier one returns takes what that
    /// one handed on, whatever the threads and delays: the value, or
    /// nothing when the giver handed on nothing or returned early (its
    /// guard), and never a wait.
    #[test]
    fn a_later_candidate_takes_what_an_earlier_one_handed_on() {
        let pools = pools();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let mut taken = [0; 2];
        for round in 0..120 {
            let gives: Option<u64> = rng.gen_bool(0.6).then(|| rng.gen_range(1..100));
            let early = rng.gen_bool(0.3);
            let delay: Vec<u64> = (0..3).map(|_| rng.gen_range(0..300)).collect();
            let starts = if rng.gen_bool(0.5) {
                [0, 1, 2]
            } else {
                [2, 0, 1]
            };
            let handoff: Handoff<u64> = Handoff::default();
            let got = pools[round % 4].install(|| {
                first_success_also_starting(
                    &starts,
                    &[(0, 2)],
                    |k, _| {
                        std::thread::sleep(std::time::Duration::from_micros(delay[k]));
                        match k {
                            0 => {
                                let _guard = handoff.guard();
                                if !early {
                                    handoff.give(gives);
                                }
                                None
                            }
                            1 => None,
                            _ => Some(handoff.take()),
                        }
                    },
                    || (),
                )
                .0
            });
            let want = if early { None } else { gives };
            assert_eq!(got, Some(want), "round {round}");
            taken[want.is_some() as usize] += 1;
        }
        assert!(taken[0] > 10 && taken[1] > 10, "{taken:?}");
    }
}
