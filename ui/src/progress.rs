//! A progress bar for long counts, drawn on stderr.
//!
//! [`Progress`] is a [`Watcher`]: it learns the plan when the count starts and moves on each
//! finished task (never from inside the search). It shows tasks done out of the total, the
//! solutions found so far, the elapsed time, and an ETA. Tasks are sorted largest-first, so the
//! bar advances by each task's size estimate rather than by one per task: that keeps the ETA
//! from being far too pessimistic at the start. Until a task of this run has finished there is
//! nothing to estimate from, so the bar says it is waiting instead of showing an ETA. The bar has
//! a fixed width (`BAR_WIDTH`), whatever the terminal's. Lines printed while the bar is shown
//! go through `Progress::suspend` or a [`Notices`] handle, so that each is on its own line.
//!
//! When stderr is not a terminal (a batch job's log, `nohup`, CI) there is no bar: instead a
//! plain line is written every [`LOG_EVERY`] of wall time (`--progress-seconds` or else
//! [`INTERVAL_VAR`] sets another interval), none for a count that ends before the first, with no terminal codes:
//!
//! ```text
//! nqueens: n = 19: 1,234 of 4,321 tasks (28.6 % of the work), 2 min 03 s elapsed, about 5 min 10 s left
//! ```

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use nqueens::Plan;
use nqueens::TaskOutcome;
use nqueens::Watcher;

use super::human::{self, grouped};

/// Characters between the bar's brackets.
#[cfg(test)]
pub(crate) const BAR_WIDTH: usize = 20;

const TEMPLATE: &str =
    "{clock} [{bar:20}] {tasks} tasks, {solutions} solutions, {eta_once_timed}{msg}";

/// Shown in place of the ETA until a task of this run has finished.
pub(crate) const NO_ETA_YET: &str = "no ETA yet";

/// How often a count whose stderr is not a terminal writes its progress line.
pub const LOG_EVERY: Duration = Duration::from_secs(60);

/// The variable that sets another interval for the progress lines, in seconds (`0.5`, `300`).
pub const INTERVAL_VAR: &str = "NQUEENS_PROGRESS_SECONDS";

/// The shortest interval [`INTERVAL_VAR`] may ask for: ten lines a second at most, so that a
/// log grows with the time a count takes, not with how small a number was typed.
const SHORTEST_INTERVAL: Duration = Duration::from_millis(100);

/// The longest interval [`INTERVAL_VAR`] may ask for: a year.
const LONGEST_INTERVAL: Duration = Duration::from_secs(365 * 86_400);

/// The interval `--progress-seconds` gave, once set ([`set_log_interval`]).
static FLAG_INTERVAL: OnceLock<Duration> = OnceLock::new();

/// Makes `every` (`--progress-seconds`, checked by [`parse_progress_seconds`]) the interval of
/// the progress lines for the rest of the process: it wins over [`INTERVAL_VAR`], which is
/// then not read. `None` leaves the interval to the variable.
pub fn set_log_interval(every: Option<Duration>) {
    if let Some(every) = every {
        // Set once per process, by the one command that runs.
        let _ = FLAG_INTERVAL.set(every);
    }
}

/// The interval of the progress lines: `--progress-seconds` where it was given
/// ([`set_log_interval`]), else [`INTERVAL_VAR`] when it is set and not blank, else
/// [`LOG_EVERY`]; a value of the variable that is not a number of seconds from
/// `SHORTEST_INTERVAL` to a year is refused in one line.
pub fn log_interval() -> Result<Duration, String> {
    if let Some(&every) = FLAG_INTERVAL.get() {
        return Ok(every);
    }
    parse_interval(std::env::var_os(INTERVAL_VAR).as_deref())
}

/// Parses `--progress-seconds`: a number of seconds from `SHORTEST_INTERVAL` to a year, as
/// [`INTERVAL_VAR`] takes.
pub fn parse_progress_seconds(text: &str) -> Result<Duration, String> {
    seconds_in_bounds(text.trim()).ok_or_else(|| {
        format!(
            "'{}' is not a number of seconds from {} to {} (a year)",
            human::shorten(text),
            SHORTEST_INTERVAL.as_secs_f64(),
            LONGEST_INTERVAL.as_secs()
        )
    })
}

/// `text` as a number of seconds from `SHORTEST_INTERVAL` to [`LONGEST_INTERVAL`].
fn seconds_in_bounds(text: &str) -> Option<Duration> {
    text.parse::<f64>()
        .ok()
        .filter(|s| (SHORTEST_INTERVAL.as_secs_f64()..=LONGEST_INTERVAL.as_secs_f64()).contains(s))
        .map(Duration::from_secs_f64)
}

/// The interval that a value of [`INTERVAL_VAR`] asks for ([`log_interval`]).
pub fn parse_interval(value: Option<&std::ffi::OsStr>) -> Result<Duration, String> {
    let Some(text) = human::variable_text(value) else {
        return Ok(LOG_EVERY);
    };
    seconds_in_bounds(&text).ok_or_else(|| {
        format!(
            "{INTERVAL_VAR}={}: expected a number of seconds from {} to {} (a year)",
            human::quoted(&text),
            SHORTEST_INTERVAL.as_secs_f64(),
            LONGEST_INTERVAL.as_secs()
        )
    })
}

/// A progress bar on stderr, plain progress lines on stderr, or nothing at all.
pub struct Progress {
    bar: ProgressBar,
    /// What is counted (`n = 18`).
    label: String,
    /// Size estimate of each task, by plan index (the bar's units; 4 bytes a task, 9 MB for
    /// the 2.3 million tasks of n = 32).
    sizes: OnceLock<Vec<u32>>,
    done: Arc<AtomicUsize>,
    total_tasks: Arc<AtomicUsize>,
    solutions: Arc<AtomicU64>,
    /// Whether a task of this run (not a resumed one) has finished.
    timed: Arc<AtomicBool>,
    /// Whether the bar is drawn nowhere (read once: indicatif locks the bar to tell).
    hidden: bool,
    /// The progress lines written when stderr is not a terminal, if any.
    log: Option<Log>,
}

/// The plain progress lines of a count whose stderr is not a terminal: a thread writes one
/// every `every` until the count finishes.
struct Log {
    label: String,
    every: Duration,
    /// The size estimates of the tasks this run has finished (not the resumed ones).
    work_done: Arc<AtomicU64>,
    /// The thread that writes the lines, once the count has started.
    ticker: Mutex<Option<Ticker>>,
}

/// A thread that writes a line on stderr every `every` until it is stopped ([`Ticker::stop`],
/// or dropped): the progress lines of a count or of a command made of steps.
struct Ticker {
    /// Tells the thread to stop (by being dropped), and the thread to wait for.
    stop: Option<(Sender<()>, JoinHandle<()>)>,
}

impl Ticker {
    /// Starts writing `line(elapsed seconds)` (newline included) every `every`; `None` where
    /// no thread could be started.
    fn start(every: Duration, line: impl Fn(f64) -> String + Send + 'static) -> Option<Ticker> {
        let (sender, receiver) = mpsc::channel::<()>();
        let started = Instant::now();
        let thread = std::thread::Builder::new()
            .name("progress-log".into())
            .spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = receiver.recv_timeout(every) {
                    let line = line(started.elapsed().as_secs_f64());
                    let mut stderr = std::io::stderr().lock();
                    let _ = std::io::Write::write_all(&mut stderr, line.as_bytes());
                }
            })
            .ok()?;
        Some(Ticker {
            stop: Some((sender, thread)),
        })
    }

    /// Stops the lines and waits for the thread: no line comes after this returns.
    fn stop(&mut self) {
        if let Some((stop, thread)) = self.stop.take() {
            drop(stop);
            let _ = thread.join();
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Progress {
    /// A bar on stderr when stderr is a terminal and `--quiet` was not given; a line on stderr
    /// every [`log_interval`] when it is not a terminal and `--quiet` was not given (the default
    /// interval when [`INTERVAL_VAR`] is not understood: `count` refuses it first); otherwise
    /// nothing. `label` names the count (`n = 18`).
    pub fn on_terminal(label: &str) -> Progress {
        let mut progress = Progress::with_target(stderr_unless_quiet(), label);
        if !super::output::is_quiet() && !std::io::stderr().is_terminal() {
            progress.log_every(log_interval().unwrap_or(LOG_EVERY));
        }
        progress
    }

    /// Writes a progress line on stderr every `every` once the count starts (in place of the
    /// bar, which should be hidden).
    fn log_every(&mut self, every: Duration) {
        self.log = Some(Log {
            label: self.label.clone(),
            every,
            work_done: Arc::default(),
            ticker: Mutex::new(None),
        });
    }

    /// Whether the workers' finished tasks are shown anywhere.
    fn watched(&self) -> bool {
        !self.hidden || self.log.is_some()
    }

    /// A bar drawn on `target`.
    fn with_target(target: ProgressDrawTarget, label: &str) -> Progress {
        let done = Arc::new(AtomicUsize::new(0));
        let total_tasks = Arc::new(AtomicUsize::new(0));
        let solutions = Arc::new(AtomicU64::new(0));
        let timed = Arc::new(AtomicBool::new(false));
        let bar = ProgressBar::with_draw_target(Some(1), target);
        let (d, t, s, e) = (
            done.clone(),
            total_tasks.clone(),
            solutions.clone(),
            timed.clone(),
        );
        let style = with_clock(
            ProgressStyle::with_template(&format!("{label}: {TEMPLATE}"))
                .expect("the template is valid")
                .progress_chars("=> "),
        )
        .with_key(
            "tasks",
            move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(
                    w,
                    "{}/{}",
                    grouped(d.load(Ordering::Relaxed)),
                    grouped(t.load(Ordering::Relaxed))
                );
            },
        )
        .with_key(
            "solutions",
            move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{}", grouped(s.load(Ordering::Relaxed)));
            },
        )
        .with_key(
            "eta_once_timed",
            move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = if e.load(Ordering::Relaxed) {
                    write!(w, "ETA {}", human::clock(state.eta().as_secs_f64()))
                } else {
                    w.write_str(NO_ETA_YET)
                };
            },
        );
        bar.set_style(style);
        Progress {
            label: label.to_string(),
            log: None,
            hidden: bar.is_hidden(),
            bar,
            sizes: OnceLock::new(),
            done,
            total_tasks,
            solutions,
            timed,
        }
    }

    /// Tasks finished so far, resumed ones included.
    #[cfg(test)]
    pub(crate) fn tasks_done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }

    /// Removes the bar from the terminal, and stops the progress lines.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
        if let Some(log) = &self.log {
            let ticker = log.ticker.lock().map(|mut t| t.take()).unwrap_or_default();
            if let Some(mut ticker) = ticker {
                ticker.stop();
            }
        }
    }

    /// A handle that prints lines clear of this bar from anywhere, an interrupt handler
    /// included.
    pub fn notices(&self) -> Notices {
        Notices {
            bar: self.bar.clone(),
        }
    }

    fn add_solutions(&self, outcome: &TaskOutcome) {
        let add = u64::try_from(outcome.weighted()).unwrap_or(u64::MAX);
        let _ = self
            .solutions
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| {
                Some(s.saturating_add(add))
            });
    }
}

/// Prints lines on stderr clear of a [`Progress`] bar: the bar is taken off the terminal first,
/// so that a line never continues the bar's. Cloned handles act on the same bar.
#[derive(Clone, Debug)]
pub struct Notices {
    bar: ProgressBar,
}

impl Notices {
    /// Runs `f` (which prints whole lines to stderr) with the bar cleared, then redraws the bar
    /// below what `f` printed.
    pub fn above<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Removes the bar for good, then runs `f`: for a last word before the process exits.
    pub fn after<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.finish_and_clear();
        f()
    }

    /// Shows `text` at the end of the bar, when the bar is drawn: `false` when it is not (the
    /// caller prints the text on a line of its own instead).
    pub fn show(&self, text: &str) -> bool {
        if self.bar.is_hidden() {
            return false;
        }
        self.bar.set_message(format!("; {text}"));
        true
    }
}

impl Watcher for Progress {
    fn start(&self, plan: &Plan, resumed: &[TaskOutcome]) {
        let sizes: Vec<u32> = plan
            .tasks()
            .map(|t| u32::try_from(t.size_hint.max(1)).unwrap_or(u32::MAX))
            .collect();
        let total: u64 = sizes.iter().map(|&s| u64::from(s)).sum();
        let already: u64 = resumed.iter().map(|o| u64::from(sizes[o.index])).sum();
        for outcome in resumed {
            self.add_solutions(outcome);
        }
        self.total_tasks
            .store(plan.tasks().len(), Ordering::Relaxed);
        self.done.store(resumed.len(), Ordering::Relaxed);
        let _ = self.sizes.set(sizes);
        self.bar.set_length(total.max(1));
        self.bar.set_position(already);
        self.bar.reset_eta();
        if !self.bar.is_hidden() {
            // Keeps the elapsed time moving while long tasks run.
            self.bar.enable_steady_tick(Duration::from_millis(250));
        }
        if let Some(log) = &self.log {
            log.start(
                self.done.clone(),
                plan.tasks().len(),
                (already, total.max(1)),
            );
        }
    }

    fn task_done(&self, outcome: &TaskOutcome) {
        // Each write takes a cache line from the other workers: none that nothing shows.
        if !self.watched() {
            return;
        }
        if !self.timed.load(Ordering::Relaxed) {
            self.timed.store(true, Ordering::Relaxed);
        }
        self.done.fetch_add(1, Ordering::Relaxed);
        self.add_solutions(outcome);
        let size = self
            .sizes
            .get()
            .and_then(|s| s.get(outcome.index))
            .map_or(1, |&s| u64::from(s));
        if let Some(log) = &self.log {
            log.work_done.fetch_add(size, Ordering::Relaxed);
        }
        if !self.hidden {
            self.bar.inc(size);
        }
    }
}

impl Log {
    /// Starts the thread that writes a line every `self.every` until [`Progress::finish`]:
    /// `done` counts the finished tasks (resumed ones included) of `tasks`, and `work` is the
    /// resumed tasks' size estimates and all the tasks'.
    fn start(&self, done: Arc<AtomicUsize>, tasks: usize, work: (u64, u64)) {
        let Ok(mut ticker) = self.ticker.lock() else {
            return;
        };
        if ticker.is_some() {
            return;
        }
        let (label, work_done) = (self.label.clone(), self.work_done.clone());
        *ticker = Ticker::start(self.every, move |elapsed| {
            progress_line(
                &label,
                (done.load(Ordering::Relaxed), tasks),
                (work.0, work_done.load(Ordering::Relaxed), work.1),
                elapsed,
            )
        });
    }
}

/// One progress line, newline included: `tasks` is the finished tasks (resumed ones included)
/// and all of them; `work` the size estimates of the resumed tasks, of the tasks this run
/// finished in `elapsed` seconds, and of all the tasks. The time left is the remaining work at
/// this run's pace, once a task of this run has finished.
///
/// `nqueens: n = 19: 1,234 of 4,321 tasks (28.6 % of the work), 2 min 03 s elapsed, about 5 min
/// 10 s left`
fn progress_line(
    label: &str,
    tasks: (usize, usize),
    work: (u64, u64, u64),
    elapsed: f64,
) -> String {
    let (resumed, now, total) = work;
    let done = resumed.saturating_add(now).min(total) as f64;
    let total = total.max(1) as f64;
    let percent = human::percent(done / total);
    let left = if now > 0 {
        let secs = elapsed * (total - done) / now as f64;
        format!("about {} left", human::clock(secs))
    } else {
        NO_ETA_YET.to_string()
    };
    format!(
        "nqueens: {label}: {} of {} tasks ({percent} of the work), {} elapsed, {left}\n",
        grouped(tasks.0),
        grouped(tasks.1),
        human::clock(elapsed),
    )
}

/// A bar for a command made of steps: `compare`'s runs, `estimate`'s budget, and one per thread
/// count for `scale`; or, with no known number of steps, a spinner (`list` waiting for a
/// solution). It shows the label, the elapsed time, the steps done out of the total, and what
/// the command is doing now:
///
/// ```text
/// n = 12: 3 s [========>           ] 3/8 bitmask, instrumented
/// n = 40: ⠙ 7 s searching for solution 2 in lexicographic order
/// ```
///
/// It is drawn on stderr only when stderr is a terminal, and is removed from the terminal when
/// finished or dropped (an error leaves no bar behind). Lines printed while it is shown go
/// through [`Steps::notices`].
pub struct Steps {
    bar: ProgressBar,
    /// The plain progress lines written in place of the bar ([`Steps::logged`]), if any.
    log: Mutex<Option<Ticker>>,
}

impl Steps {
    /// A bar of `steps` steps on stderr, when stderr is a terminal and `--quiet` was not
    /// given.
    pub fn on_terminal(label: &str, steps: u64) -> Steps {
        Steps::with_target(stderr_unless_quiet(), label, Some(steps))
    }

    /// [`Steps::on_terminal`], and when stderr is not a terminal and `--quiet` was not given, a
    /// plain line on stderr every [`log_interval`] in place of the bar, as a count writes
    /// (`nqueens: n = 16: 4 of 12 runs done, measuring 2 threads, run 1 of 3, 1 min 02 s
    /// elapsed`): `unit` names a step (`run`). The default interval where [`INTERVAL_VAR`] is
    /// not understood: the command refuses it first.
    pub fn logged(label: &str, steps: u64, unit: &'static str) -> Steps {
        let mut shown = Steps::on_terminal(label, steps);
        if !super::output::is_quiet() && !std::io::stderr().is_terminal() {
            let every = log_interval().unwrap_or(LOG_EVERY);
            let (bar, label) = (shown.bar.clone(), label.to_string());
            shown.log = Mutex::new(Ticker::start(every, move |elapsed| {
                steps_line(
                    &label,
                    (bar.position(), steps),
                    unit,
                    &bar.message(),
                    elapsed,
                )
            }));
        }
        shown
    }

    /// A spinner on stderr, when stderr is a terminal and `--quiet` was not given: for work
    /// whose length is not known.
    pub fn spinner(label: &str) -> Steps {
        Steps::with_target(stderr_unless_quiet(), label, None)
    }

    /// A bar (`steps`) or a spinner (`None`) drawn on `target`.
    fn with_target(target: ProgressDrawTarget, label: &str, steps: Option<u64>) -> Steps {
        let bar = ProgressBar::with_draw_target(steps, target);
        let label = label.replace('{', "{{").replace('}', "}}");
        let template = match steps {
            Some(_) => format!("{label}: {{clock}} [{{bar:20}}] {{steps}} {{msg}}"),
            None => format!("{label}: {{spinner}} {{clock}} {{msg}}"),
        };
        let style = with_clock(
            ProgressStyle::with_template(&template)
                .expect("the template is valid")
                .progress_chars("=> "),
        )
        .with_key(
            "steps",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let of = state.len().map_or_else(String::new, grouped);
                let _ = write!(w, "{}/{of}", grouped(state.pos()));
            },
        );
        bar.set_style(style);
        if !bar.is_hidden() {
            // Keeps the elapsed time (and the spinner) moving between steps.
            bar.enable_steady_tick(Duration::from_millis(200));
        }
        Steps {
            bar,
            log: Mutex::new(None),
        }
    }

    /// Says what the command does now (shown after the steps).
    pub fn doing(&self, what: impl Into<std::borrow::Cow<'static, str>>) {
        self.bar.set_message(what);
    }

    /// One more step is done.
    pub fn step(&self) {
        self.bar.inc(1);
    }

    /// `done` of `of` steps are done (for work measured in other units than whole steps, such
    /// as a share of a time budget).
    pub fn set(&self, done: u64, of: u64) {
        self.bar.set_length(of);
        self.bar.set_position(done.min(of));
    }

    /// Steps done so far.
    #[cfg(test)]
    pub fn done(&self) -> u64 {
        self.bar.position()
    }

    /// Whether the bar is drawn (stderr is a terminal and it was enabled).
    pub fn is_visible(&self) -> bool {
        !self.bar.is_hidden()
    }

    /// A handle that prints lines clear of this bar, an interrupt handler's included.
    pub fn notices(&self) -> Notices {
        Notices {
            bar: self.bar.clone(),
        }
    }

    /// Removes the bar from the terminal, and stops the progress lines.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
        let ticker = self.log.lock().map(|mut t| t.take()).unwrap_or_default();
        if let Some(mut ticker) = ticker {
            ticker.stop();
        }
    }
}

impl Drop for Steps {
    fn drop(&mut self) {
        self.finish();
    }
}

/// One progress line of a command made of steps, newline included: `steps` is those done and
/// all of them, `unit` names one, `doing` what the command does now.
///
/// `nqueens: n = 16: 4 of 12 runs done, measuring 2 threads, run 1 of 3, 1 min 02 s elapsed`
fn steps_line(label: &str, steps: (u64, u64), unit: &str, doing: &str, elapsed: f64) -> String {
    let doing = if doing.is_empty() {
        String::new()
    } else {
        format!("{doing}, ")
    };
    format!(
        "nqueens: {label}: {} of {} done, {doing}{} elapsed\n",
        grouped(steps.0.min(steps.1)),
        human::plural(steps.1, unit),
        human::clock(elapsed),
    )
}

/// `style` with the key `{clock}`: the elapsed time as every duration of the tool reads
/// ([`human::clock`]: `34 s`, `2 min 34 s`), not indicatif's `00:02:34`.
fn with_clock(style: ProgressStyle) -> ProgressStyle {
    style.with_key(
        "clock",
        |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&human::clock(state.elapsed().as_secs_f64()));
        },
    )
}

/// Stderr when it is a terminal and `--quiet` was not given
/// ([`output::is_quiet`](super::output::is_quiet)), else nowhere.
fn stderr_unless_quiet() -> ProgressDrawTarget {
    if !super::output::is_quiet() && std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}

/// Makes an interrupt (SIGINT, SIGTERM, SIGHUP) of a command that keeps nothing by stopping
/// gently remove `bar` from the terminal, then end the process as
/// [`output::quit_interrupted`](super::output::quit_interrupted) does (`nqueens: interrupted`,
/// exit code 130, no temporary file left behind).
pub fn quit_on_interrupt(bar: Notices) {
    super::signals::on_interrupt(move || bar.after(super::output::quit_interrupted));
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens::Strategy;
    use nqueens::{CountOptions, CountRun, RunControl, count_with};

    /// Counts n = 10 on `threads` threads, watched by `progress`.
    fn count_ten(progress: &Progress, threads: usize) -> CountRun {
        let control = RunControl::default().with_watcher(progress);
        count_with(10, &CountOptions::new(threads, Strategy::Mirror), &control).unwrap()
    }

    #[test]
    fn a_progress_line_is_plain_and_says_the_time_left() {
        let line = progress_line("n = 19", (1234, 4321), (0, 286, 1000), 123.0);
        assert_eq!(
            line,
            "nqueens: n = 19: 1,234 of 4,321 tasks (28.6 % of the work), 2 min 03 s elapsed, \
             about 5 min 07 s left\n"
        );
        // The resumed work counts as done, but the pace is this run's alone.
        let line = progress_line("n = 19", (2000, 4321), (500, 0, 1000), 61.0);
        assert_eq!(
            line,
            "nqueens: n = 19: 2,000 of 4,321 tasks (50.0 % of the work), 1 min 01 s elapsed, \
             no ETA yet\n"
        );
        let line = progress_line("n = 19", (3000, 4321), (500, 250, 1000), 10.0);
        assert!(
            line.contains("(75.0 % of the work), 10 s elapsed, about 10 s left"),
            "{line}"
        );
    }

    #[test]
    fn a_steps_line_is_plain_and_says_how_far_the_command_is() {
        assert_eq!(
            steps_line(
                "n = 16",
                (4, 12),
                "run",
                "measuring 2 threads, run 1 of 3",
                62.0
            ),
            "nqueens: n = 16: 4 of 12 runs done, measuring 2 threads, run 1 of 3, 1 min 02 s \
             elapsed\n"
        );
        assert_eq!(
            steps_line("n = 9", (0, 1), "run", "", 0.4),
            "nqueens: n = 9: 0 of 1 run done, 0 s elapsed\n"
        );
    }

    #[test]
    fn the_interval_of_the_lines_is_a_positive_number_of_seconds() {
        let parse = |text: &str| parse_interval(Some(std::ffi::OsStr::new(text)));
        assert_eq!(parse_interval(None), Ok(LOG_EVERY));
        assert_eq!(parse("  "), Ok(LOG_EVERY));
        assert_eq!(parse("0.2"), Ok(Duration::from_millis(200)));
        assert_eq!(parse(" 300 "), Ok(Duration::from_secs(300)));
        assert_eq!(parse("0.1"), Ok(SHORTEST_INTERVAL));
        assert_eq!(parse("31536000"), Ok(LONGEST_INTERVAL));
        for bad in [
            "0",
            "-1",
            "abc",
            "NaN",
            "inf",
            "-inf",
            "1e12",
            "1e300",
            "1 min",
            "1e-9",
            "0.099",
            "31536000.5",
        ] {
            let why = parse(bad).unwrap_err();
            assert!(why.starts_with("NQUEENS_PROGRESS_SECONDS=\""), "{why}");
            assert!(!why.contains('\n'), "{why}");
        }
    }

    #[test]
    fn a_log_counts_the_work_of_the_tasks_and_stops_when_finished() {
        let mut progress = Progress::with_target(ProgressDrawTarget::hidden(), "n = 10");
        // Longer than the count: no line is written.
        progress.log_every(Duration::from_secs(3600));
        count_ten(&progress, 2);
        let tasks = progress.total_tasks.load(Ordering::Relaxed);
        assert!(tasks > 1);
        assert_eq!(progress.tasks_done(), tasks);
        let work: u64 = progress
            .sizes
            .get()
            .unwrap()
            .iter()
            .map(|&s| u64::from(s))
            .sum();
        let log = progress.log.as_ref().unwrap();
        assert_eq!(log.work_done.load(Ordering::Relaxed), work);
        assert_eq!(progress.bar.position(), 0);
        progress.finish();
        assert!(log.ticker.lock().unwrap().is_none());
    }

    #[test]
    fn a_hidden_bar_is_left_alone_by_the_workers() {
        // Nothing draws it: its counters and position would cost the workers atomic writes and
        // a clock read per task for nothing.
        let progress = Progress::with_target(ProgressDrawTarget::hidden(), "n = 10");
        count_ten(&progress, 2);
        assert_eq!(progress.tasks_done(), 0);
        assert_eq!(progress.solutions.load(Ordering::Relaxed), 0);
        assert_eq!(progress.bar.position(), 0);
        progress.finish();
    }

    /// A terminal that keeps what is written to it, one entry per write.
    #[derive(Clone, Debug)]
    struct Screen {
        width: u16,
        writes: Arc<std::sync::Mutex<Vec<String>>>,
    }

    impl Screen {
        fn new(width: u16) -> Screen {
            Screen {
                width,
                writes: Arc::default(),
            }
        }

        /// The last bar line drawn.
        fn bar_line(&self) -> String {
            let writes = self.writes.lock().unwrap();
            let line = writes.iter().rev().find(|w| w.contains(" tasks, "));
            line.cloned().expect("the bar was drawn")
        }

        fn push(&self, text: &str) -> std::io::Result<()> {
            self.writes.lock().unwrap().push(text.to_string());
            Ok(())
        }
    }

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            self.width
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.push(s)
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.push(s)
        }
        fn clear_line(&self) -> std::io::Result<()> {
            self.push("<clear>")
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Draws the bar now (a manual tick does nothing while the steady tick runs).
    fn redraw(progress: &Progress) {
        progress.bar.disable_steady_tick();
        progress.bar.tick();
    }

    fn on_screen(screen: &Screen) -> Progress {
        let target = ProgressDrawTarget::term_like(Box::new(screen.clone()));
        Progress::with_target(target, "n = 10")
    }

    #[test]
    fn no_eta_before_the_first_task_and_a_fixed_width_bar() {
        let mut lines = Vec::new();
        for width in [40, 80, 250] {
            let screen = Screen::new(width);
            let progress = on_screen(&screen);
            let plan = Plan::new(10, Strategy::Mirror, 8).unwrap();
            progress.start(&plan, &[]);
            redraw(&progress);
            let line = screen.bar_line();
            assert!(line.ends_with(NO_ETA_YET), "{line}");
            assert!(!line.contains("ETA 0"), "{line}");
            let (open, close) = (line.find('[').unwrap(), line.rfind(']').unwrap());
            assert_eq!(line[open + 1..close].chars().count(), BAR_WIDTH, "{line}");
            progress.finish();
            lines.push(line);
        }
        assert!(lines.windows(2).all(|w| w[0] == w[1]), "{lines:?}");
    }

    #[test]
    fn the_eta_appears_once_a_task_has_finished() {
        let screen = Screen::new(120);
        let progress = on_screen(&screen);
        count_ten(&progress, 1);
        redraw(&progress);
        let line = screen.bar_line();
        assert!(line.contains(", ETA "), "{line}");
        assert!(!line.contains(NO_ETA_YET), "{line}");
        // The clock reads like every duration of the tool: `0 s`, not `00:00:00`.
        assert!(line.starts_with("n = 10: 0 s ["), "{line}");
        assert!(line.ends_with(" s"), "{line}");
        progress.finish();
    }

    #[test]
    fn steps_show_the_count_and_what_is_done_now() {
        let screen = Screen::new(120);
        let target = ProgressDrawTarget::term_like(Box::new(screen.clone()));
        let steps = Steps::with_target(target, "n = 10", Some(8000));
        steps.bar.disable_steady_tick();
        steps.set(2000, 8000);
        steps.doing("bitmask, instrumented");
        steps.bar.tick();
        let writes = screen.writes.lock().unwrap().clone();
        let line = writes.iter().rev().find(|w| w.contains("2,000/")).unwrap();
        assert!(line.starts_with("n = 10: 0 s ["), "{line}");
        assert!(
            line.ends_with("2,000/8,000 bitmask, instrumented"),
            "{line}"
        );
        assert_eq!(steps.done(), 2000);
        drop(steps);
        assert_eq!(screen.writes.lock().unwrap().last().unwrap(), "<clear>");
    }

    #[test]
    fn a_shown_word_ends_the_bar_line() {
        let screen = Screen::new(200);
        let progress = on_screen(&screen);
        let plan = Plan::new(10, Strategy::Mirror, 8).unwrap();
        progress.start(&plan, &[]);
        assert!(progress.notices().show("stopping"));
        redraw(&progress);
        assert!(
            screen.bar_line().ends_with("; stopping"),
            "{}",
            screen.bar_line()
        );
        progress.finish();
        assert!(
            !Progress::with_target(ProgressDrawTarget::hidden(), "n = 10")
                .notices()
                .show("stopping")
        );
    }

    #[test]
    fn notices_clear_the_bar_before_their_line() {
        let screen = Screen::new(120);
        let progress = on_screen(&screen);
        let plan = Plan::new(10, Strategy::Mirror, 8).unwrap();
        progress.start(&plan, &[]);
        redraw(&progress);
        let notices = progress.notices();
        // What `f` prints is not seen by the screen; mark where it ran.
        notices.above(|| screen.push("<notice>").unwrap());
        {
            let writes = screen.writes.lock().unwrap();
            let at = writes.iter().position(|w| w == "<notice>").unwrap();
            assert_eq!(writes[at - 1], "<clear>", "{writes:?}");
            // Redrawn below the notice.
            assert!(writes[at + 1..].iter().any(|w| w.contains(" tasks, ")));
        }
        notices.after(|| screen.push("<last word>").unwrap());
        let writes = screen.writes.lock().unwrap();
        let at = writes.iter().position(|w| w == "<last word>").unwrap();
        assert_eq!(writes[at - 1], "<clear>", "{writes:?}");
        assert!(progress.bar.is_finished());
    }
}

/// The examples that the items' documentation gave, as tests (a binary's doc examples do not run).
#[cfg(test)]
mod examples {
    #[test]
    fn a_bar_on_captured_stderr_stays_hidden() {
        // Under a test harness stderr is captured, so this bar stays hidden.
        let progress = crate::progress::Progress::on_terminal("n = 10");
        progress.finish();
    }
}
