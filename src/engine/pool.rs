//! The worker threads a run uses: one rayon pool per thread count, kept for later runs in a
//! small cache, and the rule that keeps a run called from inside a rayon worker from nesting.
//!
//! # The pools kept
//!
//! A run given no pool runs on the process's pool of its thread count ([`shared_pool`]): built
//! on first use and kept for the runs after it. At most [`KEPT_POOLS`] pools (of distinct
//! thread counts) are kept, holding together at most [`kept_workers`] worker threads (four per
//! logical CPU), the most recently used first; the pool a run just took is always kept, and
//! pools beyond either bound are dropped, least recently used first. A dropped pool's threads
//! exit once the runs still on it finish (at once when none is), so a program that counts with
//! ever new thread counts keeps no more than those bounds' worth of idle threads.
//! [`release_pools`] drops every kept pool (a long-running program's way of giving back all
//! idle workers); later runs build their pools again.
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

use crate::error::Error;

/// The largest board a run searches on the calling thread alone, whatever its thread count.
pub const INLINE_MAX_N: u32 = 10;

/// The most worker threads a count, an estimate or a study takes on this machine: eight per
/// logical CPU, at least 64 and at most 4096.
///
/// More threads than that only slow the work down (each waits longer for a CPU, and a pool of
/// thousands of threads takes long to start), and the plans a count is split into aim at 4096
/// tasks: beyond that many workers some would have no task at all. A larger thread count is
/// refused with [`Error::TooManyThreads`](crate::Error::TooManyThreads) before any thread
/// starts.
///
/// ```
/// use nqueens::{count, max_threads, CountOptions, Error, Strategy};
/// let most = max_threads();
/// assert!((64..=4096).contains(&most));
/// let options = CountOptions::new(most + 1, Strategy::Mirror);
/// assert!(matches!(count(8, &options), Err(Error::TooManyThreads { .. })));
/// ```
pub fn max_threads() -> usize {
    num_cpus::get().saturating_mul(8).clamp(64, 4096)
}

/// `Ok` for a thread count from 1 to [`max_threads`]; [`Error::ZeroThreads`] or
/// [`Error::TooManyThreads`] otherwise.
pub(crate) fn check_threads(threads: usize) -> Result<(), Error> {
    let max = max_threads();
    match threads {
        0 => Err(Error::ZeroThreads),
        t if t > max => Err(Error::TooManyThreads { threads, max }),
        _ => Ok(()),
    }
}

/// How many pools (of distinct thread counts) stay built for later runs, at most.
pub const KEPT_POOLS: usize = 4;

/// How many worker threads the pools kept for later runs hold together, at most (besides the
/// pool a run just took, which is kept whatever its size): four per logical CPU.
pub fn kept_workers() -> usize {
    4 * num_cpus::get().max(1)
}

/// The pools kept, most recently used last.
static POOLS: Mutex<Vec<Arc<rayon::ThreadPool>>> = Mutex::new(Vec::new());

/// The kept pools, locked.
fn kept() -> std::sync::MutexGuard<'static, Vec<Arc<rayon::ThreadPool>>> {
    POOLS.lock().unwrap_or_else(|p| p.into_inner())
}

/// The process's pool of exactly `threads` workers: the kept one, or one built now and kept
/// (see [the pools kept](self#the-pools-kept): the few most recently used thread counts keep
/// theirs).
pub fn shared_pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, Error> {
    check_threads(threads)?;
    let mut pools = kept();
    let pool = match pools
        .iter()
        .position(|p| p.current_num_threads() == threads)
    {
        Some(at) => pools.remove(at),
        None => Arc::new(build_pool(threads)?),
    };
    pools.push(Arc::clone(&pool));
    let sizes = pools.iter().rev().map(|p| p.current_num_threads());
    let going = pools.len() - kept_count(sizes, kept_workers());
    let dropped: Vec<Arc<rayon::ThreadPool>> = pools.drain(..going).collect();
    // Dropped outside the lock: each pool's threads are told to exit.
    drop(pools);
    drop(dropped);
    Ok(pool)
}

/// How many of the pools of `sizes` workers (the most recently used first) are kept: the most
/// recently used while they are at most [`KEPT_POOLS`] and hold at most `most_workers` workers
/// together, and the first whatever its size.
fn kept_count(sizes: impl Iterator<Item = usize>, most_workers: usize) -> usize {
    let mut workers = 0;
    sizes
        .take(KEPT_POOLS)
        .take_while(|&size| {
            workers += size;
            workers <= most_workers
        })
        .count()
        .max(1)
}

/// Drops the pools of worker threads the library keeps for later work, and returns how many
/// it dropped.
///
/// A count, an estimate or a study given no pool of its own
/// ([`RunControl::pool`](crate::RunControl::pool)) runs on the process's pool of its thread
/// count: built on first use and kept for the work after it. At most 4 pools (of distinct
/// thread counts) are kept, holding together at most 4 worker threads per logical CPU, the most
/// recently used first; the pool just used is kept whatever its size, and the pools beyond
/// either bound are dropped, least recently used first. A dropped pool's threads exit once the
/// work still on it finishes (at once when there is none). This drops every kept pool: a
/// long-running program's way of giving back idle threads. Later work builds its pool again.
///
/// ```
/// use nqueens::{count, release_pools, CountOptions, Strategy};
/// let options = CountOptions::new(2, Strategy::Mirror);
/// assert_eq!(count(12, &options).unwrap().total, 14_200); // on a pool of 2 threads, kept
/// assert!(release_pools() >= 1);
/// assert_eq!(release_pools(), 0);
/// assert_eq!(count(12, &options).unwrap().total, 14_200); // on a pool built again
/// ```
pub fn release_pools() -> usize {
    let released = std::mem::take(&mut *kept());
    released.len()
}

/// The process's pool of `threads` workers, built now, where a run of `threads` threads on a
/// board that is not `small` would use it (no pool given; see [`on_workers`]); `None` where the
/// run would search on the calling thread (or the pool cannot be built: the run reports it).
/// A count calls it before it makes its plan, so that the pool's threads start meanwhile (a new
/// thread can wait a scheduler tick, 4 ms, for a CPU) and one of them can make the unique
/// count's searches.
pub fn start_shared(threads: usize, small: bool) -> Option<Arc<rayon::ThreadPool>> {
    if check_threads(threads).is_err() || runs_here(threads, small, None) {
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
    check_threads(threads)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("nqueens-worker-{i}"))
        .build()
        .map_err(|e| Error::ThreadPool(e.into()))
}

/// Where a run's work goes.
#[derive(Clone, Copy, Debug)]
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
    check_threads(threads)?;
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
            Err(e) => Err(Error::ThreadPool(e.into())),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_recent_pools_are_kept_within_both_bounds() {
        let kept = |sizes: &[usize], most| kept_count(sizes.iter().copied(), most);
        // At most KEPT_POOLS pools, the oldest going first.
        assert_eq!(kept(&[5, 6, 7, 8, 9], 100), KEPT_POOLS);
        assert_eq!(kept(&[5, 6], 100), 2);
        // At most `most` workers together: 3 + 4, not 3 + 4 + 2.
        assert_eq!(kept(&[3, 4, 2], 8), 2);
        // The pool just used is kept whatever its size; the older ones go.
        assert_eq!(kept(&[40, 39, 38], 8), 1);
    }

    #[test]
    fn pools_are_kept_per_thread_count_until_released() {
        // A thread count no other test uses.
        let first = shared_pool(5).unwrap();
        assert_eq!(first.current_num_threads(), 5);
        assert!(release_pools() >= 1);
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

#[cfg(test)]
mod examples {
    //! The examples of the items above, as tests (the items are not public).

    #[test]
    fn kept_workers_example() {
        use crate::engine::pool::kept_workers;
        assert_eq!(kept_workers(), 4 * num_cpus::get());
    }

    #[test]
    fn shared_pool_example() {
        use crate::engine::pool::shared_pool;
        // (That a second call gets the same pool is checked in a process of its own, where no
        // other test's pools can push it out of the kept ones in between.)
        let a = shared_pool(2).unwrap();
        assert_eq!(a.current_num_threads(), 2);
        assert!(shared_pool(0).is_err());
    }

    #[test]
    fn start_shared_example() {
        use crate::engine::pool::start_shared;
        assert_eq!(start_shared(3, false).unwrap().current_num_threads(), 3);
        assert!(start_shared(3, true).is_none() && start_shared(1, false).is_none());
    }

    #[test]
    fn on_workers_example() {
        use crate::engine::pool::{Workers, on_workers};
        let on_pool = on_workers(2, false, None, |w| matches!(w, Workers::Pool(_))).unwrap();
        assert!(on_pool);
        let small = on_workers(2, true, None, |w| matches!(w, Workers::Here)).unwrap();
        assert!(small);
    }
}
