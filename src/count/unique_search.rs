//! The unique count's two symmetric searches ([`symmetric_fixed_counts`]) for one count, made
//! once by whichever thread claims them first: a pool's worker while the plan is made, the run's
//! first worker before its first task, or the caller after the run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use crate::engine::unique::{FixedCounts, symmetric_fixed_counts};
use crate::error::Error;

/// The symmetric searches of the `n`-board, shared by the threads that may make them.
pub(super) struct UniqueSearch {
    n: u32,
    /// Set by the thread that makes them (or by [`UniqueSearch::cancel`]).
    claimed: AtomicBool,
    /// What they found; `None` for a board too large for them.
    made: OnceLock<Option<FixedCounts>>,
}

impl UniqueSearch {
    /// The searches of the `n`-board, not started.
    pub(super) fn new(n: u32) -> Arc<UniqueSearch> {
        Arc::new(UniqueSearch {
            n,
            claimed: AtomicBool::new(false),
            made: OnceLock::new(),
        })
    }

    /// Starts them on a worker of `pool` (the caller goes on making the plan): nothing is waited
    /// for, and if no worker has taken them by the time they are needed, the thread that needs
    /// them makes them itself.
    pub(super) fn start_on(self: &Arc<UniqueSearch>, pool: &rayon::ThreadPool) {
        let search = Arc::clone(self);
        pool.spawn(move || search.make_unless_claimed());
    }

    /// Makes them here unless another thread has claimed them.
    pub(super) fn make_unless_claimed(&self) {
        if !self.claimed.swap(true, Ordering::AcqRel) {
            let _ = self.made.set(symmetric_fixed_counts(self.n).ok());
        }
    }

    /// Keeps a started search from being made by a worker that has not taken it yet (the count
    /// it was for is gone); one already being made finishes.
    pub(super) fn cancel(&self) {
        self.claimed.store(true, Ordering::Release);
    }

    /// What they found: made here if nobody has claimed them, else waited for (only while
    /// another thread is making them, so the wait always ends).
    pub(super) fn result(&self) -> Result<FixedCounts, Error> {
        self.make_unless_claimed();
        self.made.wait().ok_or(Error::BoardTooLarge { n: self.n })
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
            started.start_on(&pool);
            let here = UniqueSearch::new(n);
            assert_eq!(started.result().unwrap(), here.result().unwrap());
            assert_eq!(here.result().unwrap(), symmetric_fixed_counts(n).unwrap());
        }
        assert!(UniqueSearch::new(65).result().is_err());
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
        search.start_on(&pool);
        search.cancel();
        hold.send(()).unwrap();
        // Let the worker take the search: it finds it claimed and leaves it.
        pool.install(|| ());
        assert!(search.made.get().is_none());
    }
}
