//! The worker threads a run uses, the rayon way: the pool the caller is already on, the pool it
//! names, or else one the library keeps per thread count.
//!
//! # Which workers a run gets
//!
//! A run (a count, an estimate's sampling) asks for `threads` workers, `0` meaning "as many as
//! the pool it runs on has" (as `rayon::ThreadPoolBuilder::num_threads` reads `0`), and
//! spreads its work over that many jobs of one pool ([`spread`]):
//!
//! * given a pool ([`RunControl::pool`](crate::RunControl::pool)), it runs on that pool, on at
//!   most `threads` of its workers (all of them for `0`);
//! * called on a worker of a rayon pool (inside `rayon::ThreadPool::install`, a parallel
//!   iterator, a scope), it runs on that pool, on at most `threads` of its workers;
//! * called outside every pool, it runs on rayon's global pool for `0`, on the calling thread
//!   alone for `1`, and otherwise on the process's pool of exactly `threads` workers
//!   ([`shared_pool`]), built on first use and kept for later runs.
//!
//! The calling thread takes part when it is a worker of that pool, and waits for it the rayon
//! way otherwise: a worker of another pool goes on taking its own pool's jobs while it waits
//! (`rayon::ThreadPool::install`), so pools whose workers count on each other, nested pools and
//! parallel iterators over counts always finish; no worker is ever parked in an operating-system
//! wait for another pool. Small boards ([`INLINE_MAX_N`]) are searched on the calling thread
//! unless a pool is given: handing a few microseconds of work to other threads costs more than
//! the work.
//!
//! # The pools kept
//!
//! At most [`KEPT_POOLS`] pools (of distinct thread counts) are kept, holding together at most
//! [`kept_workers`] worker threads (four per logical CPU), the most recently used first; the
//! pool a run just took is always kept, and pools beyond either bound are dropped, least
//! recently used first. A dropped pool's threads exit once the runs still on it finish (at once
//! when none is), so a program that counts with ever new thread counts keeps no more than those
//! bounds' worth of idle threads. [`release_pools`] drops every kept pool (a long-running
//! program's way of giving back all idle workers); later runs build their pools again. No pool
//! is built with more than [`max_threads`] workers.

use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::error::Error;

/// The largest board a run searches on the calling thread alone, whatever its thread count
/// (unless it is given a pool).
pub const INLINE_MAX_N: u32 = 10;

/// The most worker threads a count, an estimate, a study or a placement takes on this machine:
/// eight per logical CPU, at least 64 and at most 4096.
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
#[must_use]
pub fn max_threads() -> usize {
    max_threads_on(num_cpus::get())
}

/// [`max_threads`] on a machine of `logical` logical CPUs.
pub(crate) fn max_threads_on(logical: usize) -> usize {
    logical.saturating_mul(8).clamp(64, 4096)
}

/// `Ok` for a thread count from 0 ("as many as the pool has") to [`max_threads`];
/// [`Error::TooManyThreads`] otherwise.
pub(crate) fn check_threads(threads: usize) -> Result<(), Error> {
    let max = max_threads();
    if threads > max {
        return Err(Error::TooManyThreads { threads, max });
    }
    Ok(())
}

/// `Ok` for a pool's size: from 1 to [`max_threads`].
pub(crate) fn check_pool_size(threads: usize) -> Result<(), Error> {
    match threads {
        0 => Err(Error::ZeroThreads),
        _ => check_threads(threads),
    }
}

/// How many pools (of distinct thread counts) stay built for later runs, at most.
pub(crate) const KEPT_POOLS: usize = 4;

/// How many worker threads the pools kept for later runs hold together, at most (besides the
/// pool a run just took, which is kept whatever its size): four per logical CPU.
pub(crate) fn kept_workers() -> usize {
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
pub(crate) fn shared_pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, Error> {
    check_pool_size(threads)?;
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
/// A count or an estimate called outside every rayon pool, given no pool of its own and a
/// thread count above 1, runs on the process's pool of that thread count: built on first use
/// and kept for the work after it. At most 4 pools (of distinct thread counts) are kept,
/// holding together at most 4 worker threads per logical CPU, the most recently used first;
/// the pool just used is kept whatever its size, and the pools beyond either bound are
/// dropped, least recently used first. A dropped pool's threads exit once the work still on it
/// finishes (at once when there is none). This drops every kept pool: a long-running program's
/// way of giving back idle threads. Later work builds its pool again.
///
/// ```
/// use nqueens::{count, release_pools, CountOptions, Strategy};
/// let options = CountOptions::new(2, Strategy::Mirror);
/// assert_eq!(count(12, &options).unwrap().total, 14_200); // on a pool of 2 threads, kept
/// assert!(release_pools() >= 1);
/// assert_eq!(release_pools(), 0);
/// assert_eq!(count(12, &options).unwrap().total, 14_200); // on a pool built again
/// ```
#[must_use]
pub fn release_pools() -> usize {
    let released = std::mem::take(&mut *kept());
    released.len()
}

/// A new rayon pool of exactly `threads` workers (runs use [`shared_pool`]).
pub(crate) fn build_pool(threads: usize) -> Result<rayon::ThreadPool, Error> {
    check_pool_size(threads)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("nqueens-worker-{i}"))
        .build()
        .map_err(|e| Error::ThreadPool(e.into()))
}

/// The pool a run's jobs go to.
#[derive(Clone, Debug)]
enum Place<'p> {
    /// The calling thread alone.
    Here,
    /// The pool the calling thread is a worker of, or rayon's global pool outside every pool:
    /// wherever rayon puts the caller's parallel work.
    Ambient,
    /// A pool the caller gave.
    Given(&'p rayon::ThreadPool),
    /// The process's pool of the run's thread count.
    Kept(Arc<rayon::ThreadPool>),
}

/// The workers a run gets (see [which workers a run gets](self#which-workers-a-run-gets)): a
/// pool and how many of its workers.
#[derive(Clone, Debug)]
pub(crate) struct Workers<'p> {
    place: Place<'p>,
    width: usize,
}

/// `threads` of a pool of `size` workers: all of them for `0`, never more than it has.
fn of_pool(threads: usize, size: usize) -> usize {
    match threads {
        0 => size.max(1),
        t => t.min(size.max(1)),
    }
}

impl<'p> Workers<'p> {
    /// The workers a run of `threads` threads (`0`: as many as the pool has) gets, given
    /// `pool` or not, called from this thread. `small` says the work is too little to hand to
    /// other threads (a board up to [`INLINE_MAX_N`]); it counts only when no pool is given.
    /// Builds the process's pool of `threads` workers where the run goes there.
    pub(crate) fn for_run(
        threads: usize,
        small: bool,
        pool: Option<&'p rayon::ThreadPool>,
    ) -> Result<Workers<'p>, Error> {
        check_threads(threads)?;
        let (place, width) = match pool {
            Some(pool) => (
                Place::Given(pool),
                of_pool(threads, pool.current_num_threads()),
            ),
            None if small => (Place::Here, 1),
            None if rayon::current_thread_index().is_some() || threads == 0 => {
                match of_pool(threads, rayon::current_num_threads()) {
                    1 => (Place::Here, 1),
                    width => (Place::Ambient, width),
                }
            }
            None if threads == 1 => (Place::Here, 1),
            None => (Place::Kept(shared_pool(threads)?), threads),
        };
        Ok(Workers { place, width })
    }

    /// How many workers a run of `threads` threads (`0`: as many as the pool has) on `pool`
    /// (else the one the calling thread is on) gets: for `auto`'s choice and an estimate's
    /// figures, before anything runs. The kept pool it would run on is built now, as the run
    /// would build it.
    pub(crate) fn width_for(threads: usize, pool: Option<&rayon::ThreadPool>) -> usize {
        Workers::for_run(threads, false, pool).map_or(threads.max(1), |w| w.width)
    }

    /// How many workers: the jobs [`spread`] makes of the run's work.
    #[cfg(any(test, feature = "gpu"))]
    pub(crate) fn width(&self) -> usize {
        self.width
    }

    /// Runs `work` (given the width) where its parallel work goes to these workers: on this
    /// thread when it is one of them (or the run is the calling thread's alone), else inside
    /// their pool, the calling thread waiting the rayon way.
    pub(crate) fn run<R, F>(&self, work: F) -> R
    where
        F: FnOnce(usize) -> R + Send,
        R: Send,
    {
        let width = self.width;
        let pool = match &self.place {
            Place::Here | Place::Ambient => return work(width),
            Place::Given(pool) => *pool,
            Place::Kept(pool) => &**pool,
        };
        if pool.current_thread_index().is_some() {
            work(width)
        } else {
            pool.install(|| work(width))
        }
    }

    /// Starts `job` on one of these workers, without waiting for it, when there is more than
    /// one (and so a worker to spare while the caller goes on); `false` where nothing started.
    pub(crate) fn spawn(&self, job: impl FnOnce() + Send + 'static) -> bool {
        if self.width < 2 {
            return false;
        }
        match &self.place {
            Place::Here => return false,
            Place::Ambient => rayon::spawn(job),
            Place::Given(pool) => pool.spawn(job),
            Place::Kept(pool) => pool.spawn(job),
        }
        true
    }
}

/// Runs `job` `width` times at once on the current pool (the caller's, inside
/// [`Workers::run`]), each as a job of its own that any idle worker may take and the calling
/// worker takes part in, and returns their results in order. One job runs on the calling
/// thread alone.
pub(crate) fn spread<R, F>(width: usize, job: F) -> Vec<R>
where
    F: Fn() -> R + Sync,
    R: Send,
{
    if width <= 1 {
        return vec![job()];
    }
    (0..width)
        .into_par_iter()
        .with_max_len(1)
        .map(|_| job())
        .collect()
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
        assert_eq!(kept_workers(), 4 * num_cpus::get());
    }

    #[test]
    fn pools_are_kept_per_thread_count_until_released() {
        // A thread count no other test uses.
        let first = shared_pool(5).unwrap();
        assert_eq!(first.current_num_threads(), 5);
        assert!(release_pools() >= 1);
        assert!(!Arc::ptr_eq(&first, &shared_pool(5).unwrap()));
        assert!(matches!(shared_pool(0), Err(Error::ZeroThreads)));
        let too_many = max_threads() + 1;
        assert!(matches!(
            build_pool(too_many),
            Err(Error::TooManyThreads { .. })
        ));
    }

    /// Where a run goes and on how many workers, as the module's rule says.
    fn placed(
        threads: usize,
        small: bool,
        pool: Option<&rayon::ThreadPool>,
    ) -> (&'static str, usize) {
        let workers = Workers::for_run(threads, small, pool).unwrap();
        let place = match workers.place {
            Place::Here => "here",
            Place::Ambient => "ambient",
            Place::Given(_) => "given",
            Place::Kept(_) => "kept",
        };
        (place, workers.width())
    }

    #[test]
    fn a_run_takes_the_pool_it_is_on_or_is_given_and_else_a_kept_one() {
        let pool = build_pool(3).unwrap();
        // Outside every pool.
        assert_eq!(placed(2, false, None), ("kept", 2));
        assert_eq!(placed(1, false, None), ("here", 1));
        assert_eq!(placed(4, true, None), ("here", 1));
        let global = rayon::current_num_threads();
        assert_eq!(placed(0, false, None).1, global);
        // Given a pool: at most its size, all of it for 0, small boards too.
        assert_eq!(placed(0, false, Some(&pool)), ("given", 3));
        assert_eq!(placed(2, true, Some(&pool)), ("given", 2));
        assert_eq!(placed(9, false, Some(&pool)), ("given", 3));
        // On a worker: that pool, whatever thread count is asked beyond its size.
        pool.install(|| {
            assert_eq!(placed(0, false, None), ("ambient", 3));
            assert_eq!(placed(3, false, None), ("ambient", 3));
            assert_eq!(placed(8, false, None), ("ambient", 3));
            assert_eq!(placed(2, false, None), ("ambient", 2));
            assert_eq!(placed(1, false, None), ("here", 1));
        });
        assert_eq!(Workers::width_for(0, Some(&pool)), 3);
        assert!(matches!(
            Workers::for_run(max_threads() + 1, false, None),
            Err(Error::TooManyThreads { .. })
        ));
    }

    #[test]
    fn spread_jobs_run_on_the_workers_of_the_pool_they_are_run_in() {
        let pool = build_pool(2).unwrap();
        let workers = Workers::for_run(0, false, Some(&pool)).unwrap();
        let on: Vec<Option<usize>> =
            workers.run(|width| spread(width, || pool.current_thread_index()));
        assert_eq!(on.len(), 2);
        assert!(on.iter().all(Option::is_some));
        // From a worker of another pool: the caller's pool goes on meanwhile.
        let other = build_pool(1).unwrap();
        let handed = other.install(|| workers.run(|w| spread(w, || pool.current_thread_index())));
        assert!(handed.iter().all(Option::is_some));
        assert_eq!(spread(1, || 7), [7]);
    }
}
