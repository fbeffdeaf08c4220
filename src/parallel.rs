//! Spare cores, shared by the whole process, and a deterministic "first
//! success in order" that uses them.
//!
//! Work that runs on another thread anyway (MulCh's second partition) holds
//! a core while it runs; speculative work (trying the next candidate routing
//! before the current one has failed) only runs on cores nobody holds. So a
//! run never has more busy threads than the machine has cores, and on one
//! core everything is sequential. Results never depend on the number of
//! threads or their timing.

#![warn(missing_docs)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// The thread count set by [`set_threads`], if any.
static THREADS: OnceLock<usize> = OnceLock::new();

/// Use at most `threads` threads for all parallel work of the process:
/// these spare cores and rayon's global pool both. Call it once, before
/// any parallel work; a second call, or one after rayon's pool has
/// started, changes nothing.
pub fn set_threads(threads: usize) {
    let threads = threads.max(1);
    if THREADS.set(threads).is_ok() {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global();
    }
}

/// Cores not yet held: one fewer than the threads allowed (the calling
/// thread's), by default the machine's cores.
fn spare() -> &'static AtomicUsize {
    static SPARE: OnceLock<AtomicUsize> = OnceLock::new();
    SPARE.get_or_init(|| {
        let cores = THREADS
            .get()
            .copied()
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        AtomicUsize::new(cores.saturating_sub(1))
    })
}

/// Cores held until dropped.
pub struct Cores(usize);

impl Cores {
    /// Up to `wanted` spare cores (possibly none).
    pub fn take(wanted: usize) -> Cores {
        let spare = spare();
        let mut now = spare.load(Ordering::Relaxed);
        loop {
            let k = now.min(wanted);
            if k == 0 {
                return Cores(0);
            }
            match spare.compare_exchange_weak(now, now - k, Ordering::AcqRel, Ordering::Relaxed) {
                Ok(_) => return Cores(k),
                Err(seen) => now = seen,
            }
        }
    }

    /// How many are held.
    pub fn count(&self) -> usize {
        self.0
    }
}

impl Drop for Cores {
    fn drop(&mut self) {
        if self.0 > 0 {
            spare().fetch_add(self.0, Ordering::AcqRel);
        }
    }
}

/// `a()` and `b()`: `b` on a second thread when `apart` (its caller holds
/// a spare core for it, [`Cores`]), else after `a` on this one. A panic in
/// either goes on in the caller.
pub fn join<A, B: Send>(
    apart: bool,
    a: impl FnOnce() -> A,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    if !apart {
        let x = a();
        return (x, b());
    }
    std::thread::scope(|scope| {
        let other = scope.spawn(b);
        let x = a();
        let y = other
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (x, y)
    })
}

/// [`join`] on a spare core when `wanted` and one is free (held while `b`
/// runs).
pub fn join_on_spare<A, B: Send>(
    wanted: bool,
    a: impl FnOnce() -> A,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    let cores = Cores::take(wanted as usize);
    join(cores.count() == 1, a, b)
}

/// The result of the first `k` in `0..n` (in that order) for which `run(k,
/// abandoned)` succeeds, exactly as `(0..n).find_map(..)`; with spare cores,
/// later candidates are tried at the same time as earlier ones. Each
/// candidate runs at most once, and none past a success already found is
/// started; `abandoned()` turns true for a running candidate once an
/// earlier one has succeeded (its result is not needed: it may return
/// `None` at once).
pub fn first_success<T: Send>(
    n: usize,
    run: impl Fn(usize, &dyn Fn() -> bool) -> Option<T> + Sync,
) -> Option<T> {
    let cores = Cores::take(n.saturating_sub(1));
    first_success_on(cores.count(), n, run)
}

/// [`first_success`] and, besides, `also()`, whose result is needed
/// whatever the candidates give: it runs on the first thread that finds no
/// candidate left to start (so on a core the candidates leave idle), or
/// after them on one core.
pub fn first_success_also<T: Send, U: Send>(
    n: usize,
    run: impl Fn(usize, &dyn Fn() -> bool) -> Option<T> + Sync,
    also: impl FnOnce() -> U + Send,
) -> (Option<T>, U) {
    first_success_also_starting(&(0..n).collect::<Vec<_>>(), run, also)
}

/// [`first_success_also`] of the candidates `0 .. starts.len()`, with
/// spare cores started in the order `starts` gives (a permutation): the
/// same answer, the first candidate in index order that succeeds, and
/// every candidate before it run. A long candidate started early runs
/// beside the shorter ones before it rather than after them. On one core
/// the candidates run in index order.
pub fn first_success_also_starting<T: Send, U: Send>(
    starts: &[usize],
    run: impl Fn(usize, &dyn Fn() -> bool) -> Option<T> + Sync,
    also: impl FnOnce() -> U + Send,
) -> (Option<T>, U) {
    let cores = Cores::take(starts.len().saturating_sub(1));
    first_success_also_on(cores.count(), starts, run, also)
}

/// [`first_success`] with `helpers` threads besides the caller's.
fn first_success_on<T: Send>(
    helpers: usize,
    n: usize,
    run: impl Fn(usize, &dyn Fn() -> bool) -> Option<T> + Sync,
) -> Option<T> {
    first_success_also_on(helpers, &(0..n).collect::<Vec<_>>(), run, || ()).0
}

/// [`first_success_also_starting`] with `helpers` threads besides the
/// caller's.
fn first_success_also_on<T: Send, U: Send>(
    helpers: usize,
    starts: &[usize],
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
    if helpers == 0 {
        let found = (0..n).find_map(|k| run(k, &|| false));
        return (found, also());
    }
    let next = AtomicUsize::new(0);
    // The least candidate known to succeed.
    let least = AtomicUsize::new(usize::MAX);
    let found: Mutex<Vec<(usize, T)>> = Mutex::new(Vec::new());
    let also = Mutex::new(Some(also));
    let also_gave: Mutex<Option<U>> = Mutex::new(None);
    let work = || {
        loop {
            // Candidates are taken in their start order; one past a known
            // success is not needed (every candidate before that success
            // is taken by someone, as `least` only falls), but one later in
            // the start order may be.
            let at = next.fetch_add(1, Ordering::AcqRel);
            let Some(&k) = starts.get(at) else {
                break;
            };
            if k > least.load(Ordering::Acquire) {
                continue;
            }
            if let Some(t) = run(k, &|| least.load(Ordering::Acquire) < k) {
                least.fetch_min(k, Ordering::AcqRel);
                found.lock().unwrap_or_else(|e| e.into_inner()).push((k, t));
            }
        }
        let job = also.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(f) = job {
            let u = f();
            *also_gave.lock().unwrap_or_else(|e| e.into_inner()) = Some(u);
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..helpers {
            scope.spawn(work);
        }
        work();
    });
    let found = found.into_inner().unwrap_or_else(|e| e.into_inner());
    let gave = also_gave.into_inner().unwrap_or_else(|e| e.into_inner());
    (
        found.into_iter().min_by_key(|&(k, _)| k).map(|(_, t)| t),
        gave.expect("the last thread out takes the job if nobody did"),
    )
}

/// A value one candidate of [`first_success`] hands on to a later one,
/// which waits for it. Candidates start in order, so the giver is running
/// or done by the time the taker waits (on one core it is done).
pub struct Handoff<T> {
    slot: Mutex<Option<Option<T>>>,
    given: std::sync::Condvar,
}

impl<T> Default for Handoff<T> {
    fn default() -> Self {
        Handoff {
            slot: Mutex::new(None),
            given: std::sync::Condvar::new(),
        }
    }
}

impl<T> Handoff<T> {
    /// Hand on `value` (`None`: nothing); only the first call counts.
    pub fn give(&self, value: Option<T>) {
        let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(value);
            self.given.notify_all();
        }
    }

    /// What was handed on, once it is (taken: a second call gets `None`).
    pub fn take(&self) -> Option<T> {
        let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        while slot.is_none() {
            slot = self.given.wait(slot).unwrap_or_else(|e| e.into_inner());
        }
        slot.as_mut().and_then(Option::take)
    }

    /// A guard that hands on nothing when dropped before [`Handoff::give`]
    /// was called (say, when the giver returns early or panics), so the
    /// taker never waits for ever.
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
    use std::sync::atomic::AtomicU64;

    /// Against `find_map` on random success patterns with random delays,
    /// with no helper and with one to three, candidates started in index
    /// order or a random one: the same answer, every candidate up to it
    /// run exactly once (none twice), and the job besides them run once.
    #[test]
    fn first_success_is_find_map() {
        use rand::seq::SliceRandom;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let (mut overlapped, mut shuffled) = (0, 0);
        for round in 0..480 {
            let helpers = round % 4;
            let n = rng.gen_range(0..12);
            let ok: Vec<bool> = (0..n).map(|_| rng.gen_bool(0.3)).collect();
            let delay: Vec<u64> = (0..n).map(|_| rng.gen_range(0..300)).collect();
            let runs: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0)).collect();
            let also_runs = AtomicU64::new(0);
            let mut starts: Vec<usize> = (0..n).collect();
            if round % 8 >= 4 {
                starts.shuffle(&mut rng);
                shuffled += starts.iter().enumerate().any(|(i, &k)| i != k) as usize;
            }
            let (got, also) = first_success_also_on(
                helpers,
                &starts,
                |k, abandoned| {
                    runs[k].fetch_add(1, Ordering::Relaxed);
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
            );
            assert_eq!((also, also_runs.load(Ordering::Relaxed)), (n + 7, 1));
            let want = (0..n).find(|&k| ok[k]);
            assert_eq!(
                got,
                want.map(|k| k * 10),
                "{ok:?} with {helpers} helpers, started {starts:?}"
            );
            let end = want.unwrap_or(n.saturating_sub(1));
            for (k, r) in runs.iter().enumerate() {
                let r = r.load(Ordering::Relaxed);
                assert!(r <= 1, "candidate {k} ran {r} times");
                if k <= end {
                    assert_eq!(r, 1, "candidate {k}, not after the answer, ran");
                } else if r == 1 {
                    overlapped += 1;
                }
            }
            if helpers == 0 {
                let past = runs.iter().skip(end + 1);
                assert!(past.map(|r| r.load(Ordering::Relaxed)).all(|r| r == 0));
            }
        }
        // Helpers did start candidates past the answer at times (the
        // speculation happened), and start orders were shuffled.
        assert!(overlapped > 0 && shuffled > 100, "{overlapped} {shuffled}");
    }

    /// Both jobs run once and give their results, on one thread or two; a
    /// panic in the second thread's job reaches the caller.
    #[test]
    fn join_runs_both_and_passes_a_panic_on() {
        for apart in [false, true] {
            let ran = AtomicU64::new(0);
            let (a, b) = join(
                apart,
                || {
                    ran.fetch_add(1, Ordering::Relaxed);
                    std::thread::current().id()
                },
                || {
                    ran.fetch_add(10, Ordering::Relaxed);
                    std::thread::current().id()
                },
            );
            assert_eq!(ran.load(Ordering::Relaxed), 11);
            assert_eq!(a != b, apart, "apart {apart}");
        }
        let caught = std::panic::catch_unwind(|| join(true, || 1, || -> u8 { panic!("in b") }));
        assert!(caught.is_err());
    }

    /// A candidate takes what an earlier one handed on, whatever the
    /// helpers and delays: the value, or nothing when the giver handed on
    /// nothing or returned early (its guard), and never a wait for ever.
    #[test]
    fn a_later_candidate_takes_what_an_earlier_one_handed_on() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let mut taken = [0; 2];
        for round in 0..120 {
            let helpers = round % 4;
            let gives: Option<u64> = rng.gen_bool(0.6).then(|| rng.gen_range(1..100));
            let early = rng.gen_bool(0.3);
            let delay: Vec<u64> = (0..3).map(|_| rng.gen_range(0..300)).collect();
            let handoff: Handoff<u64> = Handoff::default();
            let got = first_success_on(helpers, 3, |k, _| {
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
            });
            let want = if early { None } else { gives };
            assert_eq!(got, Some(want), "round {round}");
            taken[want.is_some() as usize] += 1;
        }
        assert!(taken[0] > 10 && taken[1] > 10, "{taken:?}");
    }
}
