//! The unique count's two symmetric searches ([`symmetric_fixed_counts_with_stop`]) for one
//! count, made once by whichever thread claims them first: a pool's worker while the plan is
//! made, the run's first worker before its first task, or the caller after the run. The count's
//! stop flag ends them, wherever they run, and nothing waits for them once it is raised.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crate::engine::pool::Workers;
use crate::engine::unique::{FixedCounts, symmetric_fixed_counts_with_stop};
use crate::error::Error;

/// How often a thread waiting on (or watching) searches made elsewhere reads the stop flag.
const POLL: Duration = Duration::from_millis(2);

/// The symmetric searches of the `n`-board, shared by the threads that may make them.
pub(super) struct UniqueSearch {
    n: u32,
    /// Set by the thread that makes them (or by [`UniqueSearch::cancel`]).
    claimed: AtomicBool,
    /// Raised to end searches made on a worker that cannot see the count's stop flag.
    abort: AtomicBool,
    /// What they found: the counts, or `None` once stopped.
    made: OnceLock<Option<FixedCounts>>,
}

impl UniqueSearch {
    /// The searches of the `n`-board, not started.
    pub(super) fn new(n: u32) -> Arc<UniqueSearch> {
        Arc::new(UniqueSearch {
            n,
            claimed: AtomicBool::new(false),
            abort: AtomicBool::new(false),
            made: OnceLock::new(),
        })
    }

    /// Starts them on one of `workers` (the caller goes on making the plan): nothing is waited
    /// for, and if no worker has taken them by the time they are needed, the thread that needs
    /// them makes them itself. They end early once [`UniqueSearch::cancel`] is called.
    pub(super) fn start_on(self: &Arc<UniqueSearch>, workers: &Workers<'_>) {
        workers.spawn(self.job());
    }

    /// The job that makes them on whichever thread runs it, unless claimed.
    fn job(self: &Arc<UniqueSearch>) -> impl FnOnce() + Send + 'static {
        let search = Arc::clone(self);
        move || search.make_unless_claimed(&search.abort)
    }

    /// Makes them here, until `stop` is raised, unless another thread has claimed them.
    pub(super) fn make_unless_claimed(&self, stop: &AtomicBool) {
        if !self.claimed.swap(true, Ordering::AcqRel) {
            let _ = self
                .made
                .set(symmetric_fixed_counts_with_stop(self.n, stop).ok());
        }
    }

    /// Keeps a started search from being made by a worker that has not taken it yet, and ends
    /// one being made (the count it was for is gone or stopped).
    pub(super) fn cancel(&self) {
        self.claimed.store(true, Ordering::Release);
        self.abort.store(true, Ordering::Relaxed);
    }

    /// Whether another thread is making them now.
    pub(super) fn is_being_made(&self) -> bool {
        self.claimed.load(Ordering::Acquire) && self.made.get().is_none()
    }

    /// Ends them once `stop` is raised, until they are made or `done` is raised: for searches
    /// made on a worker that cannot read `stop` itself.
    pub(super) fn cancel_on(&self, stop: &AtomicBool, done: &AtomicBool) {
        while self.made.get().is_none() && !done.load(Ordering::Relaxed) {
            if stop.load(Ordering::Relaxed) {
                self.cancel();
                return;
            }
            std::thread::sleep(POLL);
        }
    }

    /// What they found: made here if nobody has claimed them, else waited for while another
    /// thread makes them. `None` once `stop` is raised, which ends the wait at once.
    /// Refused for a board above [`MAX_N`](crate::Plan::MAX_N), which has none.
    pub(super) fn result(&self, stop: &AtomicBool) -> Result<Option<FixedCounts>, Error> {
        if self.n > crate::engine::kernel::MAX_N {
            return Err(Error::BoardTooLarge { n: self.n });
        }
        self.make_unless_claimed(stop);
        loop {
            match self.made.get() {
                Some(made) => return Ok(*made),
                None if stop.load(Ordering::Relaxed) => {
                    self.cancel();
                    return Ok(None);
                }
                None => std::thread::sleep(POLL),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_once_by_whoever_claims_them_first() {
        let pool = crate::engine::pool::build_pool(2).unwrap();
        for n in [8, 12] {
            let started = UniqueSearch::new(n);
            pool.spawn(started.job());
            let here = UniqueSearch::new(n);
            let go = AtomicBool::new(false);
            assert_eq!(started.result(&go).unwrap(), here.result(&go).unwrap());
            assert_eq!(
                here.result(&go).unwrap(),
                Some(crate::engine::unique::symmetric_fixed_counts(n).unwrap())
            );
        }
        assert!(
            UniqueSearch::new(65)
                .result(&AtomicBool::new(false))
                .is_err()
        );
    }

    #[test]
    fn a_cancelled_search_is_not_made_by_a_worker_that_takes_it_late() {
        let pool = crate::engine::pool::build_pool(1).unwrap();
        let (hold, release) = std::sync::mpsc::channel::<()>();
        // The pool's one worker is busy until released, so the search waits in its queue.
        pool.spawn(move || {
            let _ = release.recv();
        });
        let search = UniqueSearch::new(10);
        pool.spawn(search.job());
        search.cancel();
        hold.send(()).unwrap();
        // Let the worker take the search: it finds it claimed and leaves it.
        pool.install(|| ());
        assert!(search.made.get().is_none());
    }

    #[test]
    fn a_raised_stop_flag_ends_a_search_made_on_a_worker_and_the_wait_for_it() {
        let pool = crate::engine::pool::build_pool(1).unwrap();
        // The 30-board's searches take minutes: started on the worker, they are still running
        // when the stop flag is raised.
        let search = UniqueSearch::new(30);
        pool.spawn(search.job());
        while !search.is_being_made() {
            std::thread::yield_now();
        }
        let stop = AtomicBool::new(false);
        let done = AtomicBool::new(false);
        let started = std::time::Instant::now();
        std::thread::scope(|s| {
            s.spawn(|| search.cancel_on(&stop, &done));
            std::thread::sleep(Duration::from_millis(20));
            stop.store(true, Ordering::Relaxed);
        });
        assert_eq!(search.result(&stop).unwrap(), None);
        // The worker is free again: the searches ended.
        pool.install(|| ());
        assert_eq!(search.made.get(), Some(&None));
        // A hang bound, not a timing claim.
        assert!(started.elapsed().as_secs() < 10);
    }
}
