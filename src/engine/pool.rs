//! The worker threads a run uses: one rayon pool per thread count, built once per process and
//! reused, and the rule that keeps a run called from inside a rayon worker from nesting.
//!
//! A rayon worker that waits for anything rayon runs (`install`, `broadcast`, `join`, a scope),
//! whether in its own pool or another one, does not sleep: it takes other jobs of its own pool
//! while it waits. A count called from a parallel iterator would then wait on that iterator's
//! worker, which meanwhile takes the iterator's next item (another count), which waits in turn:
//! the counts nest on one stack until it overflows. So a run never waits like that from a
//! rayon worker ([`on_workers`]):
//!
//! * called from a thread that is not a rayon worker, it runs on the pool and waits for it (the
//!   thread sleeps);
//! * called from a worker of the very pool it would run on, or from a worker of a pool of the
//!   same size when no pool was given, or with one thread, it searches on the calling worker
//!   alone ([`Workers::Here`]): the pool's other workers are busy with the caller's own parallel
//!   work, and nothing is waited for;
//! * called from a worker of another pool, it hands the run to a plain thread that waits for
//!   the pool, and the worker sleeps until that thread is done (an operating-system wait, which
//!   takes no other job).
//!
//! Small boards ([`INLINE_MAX_N`]) are searched on the calling thread whatever the thread count,
//! unless a pool is given: handing a few microseconds of work to other threads costs more than
//! the work.

use std::sync::{Arc, Mutex};

use crate::Error;

/// The largest board a run searches on the calling thread alone, whatever its thread count.
pub const INLINE_MAX_N: u32 = 10;

/// How many pools (of distinct thread counts) stay built for later runs.
const KEPT_POOLS: usize = 4;

/// The pools built so far, most recently used last.
static POOLS: Mutex<Vec<Arc<rayon::ThreadPool>>> = Mutex::new(Vec::new());

/// The process's pool of exactly `threads` workers: built on first use, then reused by every
/// run with that thread count (the few most recently used thread counts keep theirs).
///
/// ```
/// use nqueens::engine::pool::shared_pool;
/// let a = shared_pool(2).unwrap();
/// let b = shared_pool(2).unwrap();
/// assert!(std::sync::Arc::ptr_eq(&a, &b));
/// assert_eq!(a.current_num_threads(), 2);
/// assert!(shared_pool(0).is_err());
/// ```
pub fn shared_pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, Error> {
    if threads == 0 {
        return Err(Error::ZeroThreads);
    }
    let mut pools = POOLS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(at) = pools
        .iter()
        .position(|p| p.current_num_threads() == threads)
    {
        let pool = pools.remove(at);
        pools.push(Arc::clone(&pool));
        return Ok(pool);
    }
    let pool = Arc::new(build_pool(threads)?);
    if pools.len() == KEPT_POOLS {
        pools.remove(0);
    }
    pools.push(Arc::clone(&pool));
    Ok(pool)
}

/// The process's pool of `threads` workers, built now, where a run of `threads` threads on a
/// board that is not `small` would use it (no pool given; see [`on_workers`]); `None` where the
/// run would search on the calling thread (or the pool cannot be built: the run reports it).
/// A count calls it before it makes its plan, so that the pool's threads start meanwhile (a new
/// thread can wait a scheduler tick, 4 ms, for a CPU) and one of them can make the unique
/// count's searches.
///
/// ```
/// use nqueens::engine::pool::start_shared;
/// assert_eq!(start_shared(3, false).unwrap().current_num_threads(), 3);
/// assert!(start_shared(3, true).is_none() && start_shared(1, false).is_none());
/// ```
pub fn start_shared(threads: usize, small: bool) -> Option<Arc<rayon::ThreadPool>> {
    if threads == 0 || runs_here(threads, small, None) {
        return None;
    }
    shared_pool(threads).ok()
}

/// Whether a run of `threads` threads on `pool` (`None`: the process's pool of `threads`
/// workers) called from this thread searches on the calling thread alone ([`Workers::Here`]):
/// called from a worker of that very pool, or with no pool given, for one thread, a `small`
/// board, or from a worker of a pool of the same size. The one rule [`on_workers`] and
/// [`start_shared`] follow.
pub fn runs_here(threads: usize, small: bool, pool: Option<&rayon::ThreadPool>) -> bool {
    match pool {
        Some(pool) => pool.current_thread_index().is_some(),
        None => {
            let in_worker = rayon::current_thread_index().is_some();
            small || threads == 1 || (in_worker && rayon::current_num_threads() == threads)
        }
    }
}

/// A new rayon pool of exactly `threads` workers (runs use [`shared_pool`]).
pub fn build_pool(threads: usize) -> Result<rayon::ThreadPool, Error> {
    if threads == 0 {
        return Err(Error::ZeroThreads);
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("nqueens-worker-{i}"))
        .build()
        .map_err(|e| Error::ThreadPool(e.to_string()))
}

/// Where a run's work goes.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub enum Workers<'p> {
    /// Every worker of this pool; the calling thread is not one of its workers and may wait.
    Pool(&'p rayon::ThreadPool),
    /// The calling thread alone, which must not wait for other threads.
    Here,
}

/// Runs `work` with the workers a run of `threads` threads gets: `pool` when given (its size
/// then wins over `threads`), else the process's pool of `threads` workers, or the calling
/// thread alone (see the [module documentation](self) for the rule). `small` says the work is
/// too little to hand to other threads (a board up to [`INLINE_MAX_N`]); it counts only when no
/// pool is given.
///
/// ```
/// use nqueens::engine::pool::{on_workers, Workers};
/// let on_pool = on_workers(2, false, None, |w| matches!(w, Workers::Pool(_))).unwrap();
/// assert!(on_pool);
/// let small = on_workers(2, true, None, |w| matches!(w, Workers::Here)).unwrap();
/// assert!(small);
/// ```
pub fn on_workers<R, F>(
    threads: usize,
    small: bool,
    pool: Option<&rayon::ThreadPool>,
    work: F,
) -> Result<R, Error>
where
    F: FnOnce(Workers<'_>) -> R + Send,
    R: Send,
{
    if threads == 0 {
        return Err(Error::ZeroThreads);
    }
    if runs_here(threads, small, pool) {
        return Ok(work(Workers::Here));
    }
    let shared;
    let pool = match pool {
        Some(pool) => pool,
        None => {
            shared = shared_pool(threads)?;
            &*shared
        }
    };
    if rayon::current_thread_index().is_none() {
        return Ok(work(Workers::Pool(pool)));
    }
    // A worker of another pool: a plain thread waits for the pool, this worker sleeps.
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .name("nqueens-waiter".to_string())
            .spawn_scoped(scope, || work(Workers::Pool(pool)))
        {
            Ok(waiter) => waiter
                .join()
                .map_err(|panic| std::panic::resume_unwind(panic)),
            Err(e) => Err(Error::ThreadPool(e.to_string())),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_are_kept_per_thread_count_and_the_oldest_goes() {
        // Thread counts no other test uses, so that the order below is this test's alone.
        let first = shared_pool(5).unwrap();
        assert!(Arc::ptr_eq(&first, &shared_pool(5).unwrap()));
        for threads in 6..6 + KEPT_POOLS {
            shared_pool(threads).unwrap();
        }
        assert!(!Arc::ptr_eq(&first, &shared_pool(5).unwrap()));
    }

    #[test]
    fn a_worker_of_the_pool_runs_here_and_a_plain_thread_on_the_pool() {
        let pool = build_pool(2).unwrap();
        let outside = on_workers(2, false, Some(&pool), |w| matches!(w, Workers::Pool(_))).unwrap();
        assert!(outside);
        let inside = pool
            .install(|| on_workers(2, false, Some(&pool), |w| matches!(w, Workers::Here)).unwrap());
        assert!(inside);
        // A worker of another pool: the run goes to the pool, from a thread that is no worker.
        let other = build_pool(1).unwrap();
        let handed = other.install(|| {
            on_workers(2, false, Some(&pool), |w| {
                matches!(w, Workers::Pool(_)) && rayon::current_thread_index().is_none()
            })
            .unwrap()
        });
        assert!(handed);
    }
}
