//! Progress on a terminal: one bar per job (steps counted, in order, with
//! the elapsed time and an ETA) or a spinner where the steps are not known
//! ahead (a router's width search, the stages of one layout). Drawn on
//! standard error only when [`progress_on`](super::progress_on) says so (a
//! terminal, no `-q`); in a pipe or with `-q` the bar is hidden and costs
//! nothing. Cleared when dropped, so the job's own output follows on a
//! clean line.

use std::borrow::Cow;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar or spinner, hidden off a terminal.
pub struct Progress(ProgressBar, Option<Reveal>);

/// The thread that shows a delayed spinner once its delay has passed,
/// and the line that tells it the work is done first.
struct Reveal {
    done: mpsc::Sender<()>,
    thread: JoinHandle<()>,
}

impl Progress {
    /// A bar of `total` steps, each step one of `what` (`"trials"`,
    /// `"cells"`, `"sizes"`).
    pub fn bar(total: u64, what: &'static str) -> Progress {
        let bar = if super::progress_on() {
            ProgressBar::new(total)
        } else {
            ProgressBar::hidden()
        };
        let style = ProgressStyle::with_template(
            "{prefix} {pos}/{len} {msg} [{elapsed_precise}, ETA {eta}] {wide_bar}",
        )
        .expect("the template is valid");
        bar.set_style(style);
        bar.set_prefix(what);
        Progress(bar, None)
    }

    /// A spinner for work whose steps are not counted ahead.
    pub fn spinner(what: String) -> Progress {
        let bar = if super::progress_on() {
            ProgressBar::new_spinner()
        } else {
            ProgressBar::hidden()
        };
        Progress(spinning(bar, what), None)
    }

    /// A spinner that shows only once the work has lasted `after` (and
    /// never off a terminal), so that quick work leaves no flicker.
    pub fn spinner_after(what: String, after: Duration) -> Progress {
        let bar = spinning(ProgressBar::hidden(), what);
        if !super::progress_on() {
            return Progress(bar, None);
        }
        let (done, wait) = mpsc::channel::<()>();
        let shown = bar.clone();
        let thread = std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(after) {
                shown.set_draw_target(ProgressDrawTarget::stderr());
            }
        });
        Progress(bar, Some(Reveal { done, thread }))
    }

    /// What the current step is.
    pub fn message(&self, text: impl Into<Cow<'static, str>>) {
        self.0.set_message(text);
    }

    /// One step done (from any thread: the count stays in order).
    pub fn step(&self) {
        self.0.inc(1);
    }
}

/// `bar` as a ticking spinner for `what`.
fn spinning(bar: ProgressBar, what: String) -> ProgressBar {
    let style = ProgressStyle::with_template("{spinner} {prefix}: {msg} [{elapsed_precise}]")
        .expect("the template is valid");
    bar.set_style(style);
    bar.set_prefix(what);
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(reveal) = self.1.take() {
            // The work is done: the spinner stays hidden if not yet shown.
            drop(reveal.done);
            let _ = reveal.thread.join();
        }
        self.0.finish_and_clear();
    }
}
