//! A progress bar for long counts, drawn on stderr.
//!
//! [`Progress`] is a [`Watcher`]: it learns the plan when the count starts and moves on each
//! finished task (never from inside the search). It shows tasks done out of the total, the
//! solutions found so far, the elapsed time, and an ETA. Tasks are sorted largest-first, so the
//! bar advances by each task's size estimate rather than by one per task: that keeps the ETA
//! from being far too pessimistic at the start.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::engine::plan::Plan;
use crate::engine::run::TaskOutcome;
use crate::long_run::Watcher;

const TEMPLATE: &str =
    "{elapsed_precise} [{wide_bar}] {tasks} tasks, {solutions} solutions, ETA {eta}";

/// A progress bar on stderr, or nothing at all.
pub struct Progress {
    bar: ProgressBar,
    label: String,
    /// Size estimate of each task, by plan index (the bar's units).
    sizes: OnceLock<Vec<u64>>,
    done: Arc<AtomicUsize>,
    total_tasks: Arc<AtomicUsize>,
    solutions: Arc<AtomicU64>,
}

impl Progress {
    /// A bar on stderr when `enabled` and stderr is a terminal; otherwise an invisible one.
    /// `label` names the count (`n = 18`).
    ///
    /// ```
    /// // Under a test harness stderr is captured, so this bar stays hidden.
    /// let progress = nqueens::progress::Progress::on_terminal(true, "n = 10");
    /// progress.finish();
    /// ```
    pub fn on_terminal(enabled: bool, label: &str) -> Progress {
        let visible = enabled && std::io::stderr().is_terminal();
        Progress::new(visible, label)
    }

    /// A bar drawn on stderr when `visible`, hidden otherwise.
    pub fn new(visible: bool, label: &str) -> Progress {
        let done = Arc::new(AtomicUsize::new(0));
        let total_tasks = Arc::new(AtomicUsize::new(0));
        let solutions = Arc::new(AtomicU64::new(0));
        let bar = if visible {
            ProgressBar::with_draw_target(Some(1), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        let (d, t, s) = (done.clone(), total_tasks.clone(), solutions.clone());
        let style = ProgressStyle::with_template(&format!("{label}: {TEMPLATE}"))
            .expect("the template is valid")
            .progress_chars("=> ")
            .with_key(
                "tasks",
                move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(
                        w,
                        "{}/{}",
                        d.load(Ordering::Relaxed),
                        t.load(Ordering::Relaxed)
                    );
                },
            )
            .with_key(
                "solutions",
                move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", s.load(Ordering::Relaxed));
                },
            );
        bar.set_style(style);
        Progress {
            bar,
            label: label.to_string(),
            sizes: OnceLock::new(),
            done,
            total_tasks,
            solutions,
        }
    }

    /// The label the bar was made with.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Tasks finished so far, resumed ones included.
    pub fn tasks_done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// Runs `f` (which may print to stderr) with the bar hidden, then redraws it.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
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

impl Watcher for Progress {
    fn start(&self, plan: &Plan, resumed: &[TaskOutcome]) {
        let sizes: Vec<u64> = plan.tasks.iter().map(|t| t.size_hint.max(1)).collect();
        let total: u64 = sizes.iter().sum();
        let already: u64 = resumed.iter().map(|o| sizes[o.index]).sum();
        for outcome in resumed {
            self.add_solutions(outcome);
        }
        self.total_tasks.store(plan.tasks.len(), Ordering::Relaxed);
        self.done.store(resumed.len(), Ordering::Relaxed);
        let _ = self.sizes.set(sizes);
        self.bar.set_length(total.max(1));
        self.bar.set_position(already);
        self.bar.reset_eta();
        if !self.bar.is_hidden() {
            // Keeps the elapsed time moving while long tasks run.
            self.bar.enable_steady_tick(Duration::from_millis(250));
        }
    }

    fn task_done(&self, outcome: &TaskOutcome) {
        self.done.fetch_add(1, Ordering::Relaxed);
        self.add_solutions(outcome);
        let size = self
            .sizes
            .get()
            .and_then(|s| s.get(outcome.index))
            .copied()
            .unwrap_or(1);
        self.bar.inc(size);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::plan::Strategy;
    use crate::{CountOptions, RunControl, count_with};

    #[test]
    fn a_hidden_bar_still_counts_tasks_and_solutions() {
        let progress = Progress::new(false, "n = 10");
        let control = RunControl {
            watcher: Some(&progress),
            ..RunControl::default()
        };
        let options = CountOptions {
            threads: 2,
            strategy: Strategy::Mirror,
            kernel: crate::Kernel::Auto,
        };
        let run = count_with(10, &options, &control).unwrap();
        assert_eq!(progress.tasks_done(), run.counts.tasks);
        assert_eq!(progress.solutions.load(Ordering::Relaxed), 724);
        assert_eq!(progress.bar.position(), progress.bar.length().unwrap());
        progress.finish();
        assert_eq!(progress.label(), "n = 10");
    }
}
