//! Worker threads placed on chosen CPUs: one per physical core first, or SMT siblings together,
//! so that runs with SMT on and off, or on one socket and on two, can be compared on one
//! machine. (Not to be confused with [`board::Placement`](nqueens::board::Placement), queens on a
//! board.)
//!
//! The CPUs are those the process may run on (its affinity mask, as `taskset` or a batch system
//! leaves it); which of them share a core and a socket is read from Linux's
//! `/sys/devices/system/cpu/cpuN/topology` ([`allowed_cpus`]). Worker `i` of a pool of `T` is
//! pinned to the `i`-th CPU of the placement's order ([`order`]), so the first `T` CPUs of that
//! order are used. Elsewhere than Linux, and with more threads than CPUs to place them on, a
//! placement is refused ([`PinError`]).
//!
//! A [`Placement`] keeps the pinned pools it builds, one per thread count, so that runs of the
//! same thread count share one pool and its threads are placed once.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Where the worker threads run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Pin {
    /// Wherever the operating system puts them (no pinning).
    #[default]
    None,
    /// One worker per physical core first (socket by socket), then the cores' second SMT
    /// threads, and so on: SMT is used only when there are more workers than cores.
    Cores,
    /// SMT siblings together: both threads of the first core, then of the next: the fewest
    /// cores for the workers.
    Siblings,
}

impl Pin {
    /// Every placement, in the order they are listed.
    pub const ALL: [Pin; 3] = [Pin::None, Pin::Cores, Pin::Siblings];

    /// The placement's name: `none`, `cores` or `siblings`.
    pub fn name(self) -> &'static str {
        match self {
            Pin::None => "none",
            Pin::Cores => "cores",
            Pin::Siblings => "siblings",
        }
    }
}

impl fmt::Display for Pin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One CPU the process may run on, with where it sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Cpu {
    /// The CPU's number (as `taskset` and `/proc/cpuinfo` number them).
    pub id: usize,
    /// Its socket (`physical_package_id`).
    pub package: usize,
    /// Its core within the socket (`core_id`); CPUs with the same package and core are SMT
    /// siblings.
    pub core: usize,
}

impl Cpu {
    /// CPU `id`, on core `core` of socket `package`.
    pub fn new(id: usize, package: usize, core: usize) -> Cpu {
        Cpu { id, package, core }
    }
}

/// Why workers cannot be placed as asked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PinError {
    /// This system does not tell which CPUs share a core (placements need Linux).
    #[cfg_attr(
        target_os = "linux",
        allow(dead_code, reason = "made elsewhere than Linux")
    )]
    #[error("this system does not place threads on chosen CPUs")]
    Unsupported,
    /// The CPUs the process may run on could not be read.
    #[error("cannot read the CPUs this process may run on")]
    NoCpus,
    /// A CPU's topology could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Topology {
        /// The file read.
        path: PathBuf,
        /// Why it could not be read.
        source: std::io::Error,
    },
    /// More threads than CPUs to place them on.
    #[error("{threads} threads, but this process may run on only {cpus} CPUs to place them on")]
    TooManyThreads {
        /// The placement asked for.
        pin: Pin,
        /// The threads to place.
        threads: usize,
        /// The CPUs there are to place them on.
        cpus: usize,
    },
    /// The pool could not be built.
    #[error("could not start the worker threads")]
    ThreadPool(#[source] rayon::ThreadPoolBuildError),
    /// The system refused to run a worker on its CPU.
    #[error("the system refused to place the threads on CPUs {placement}")]
    Refused {
        /// The placement and the CPUs of the workers, as [`Placement::describe`] writes them.
        placement: String,
    },
}

/// The CPUs in the order `pin` gives them to workers: worker `i` runs on the `i`-th. Empty for
/// [`Pin::None`].
pub fn order(pin: Pin, cpus: &[Cpu]) -> Vec<usize> {
    // Cores by socket and number, each with its CPUs ascending.
    let mut cores: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for cpu in cpus {
        cores
            .entry((cpu.package, cpu.core))
            .or_default()
            .push(cpu.id);
    }
    for siblings in cores.values_mut() {
        siblings.sort_unstable();
    }
    match pin {
        Pin::None => Vec::new(),
        Pin::Siblings => cores.into_values().flatten().collect(),
        Pin::Cores => {
            let depth = cores.values().map(Vec::len).max().unwrap_or(0);
            (0..depth)
                .flat_map(|level| cores.values().filter_map(move |s| s.get(level).copied()))
                .collect()
        }
    }
}

/// The CPUs this process may run on, with their socket and core read from
/// `/sys/devices/system/cpu`; [`PinError::Unsupported`] elsewhere than Linux.
#[cfg(target_os = "linux")]
pub fn allowed_cpus() -> Result<Vec<Cpu>, PinError> {
    let ids = core_affinity::get_core_ids().ok_or(PinError::NoCpus)?;
    ids.into_iter()
        .map(|core_affinity::CoreId { id }| {
            let read = |what: &str| -> Result<usize, PinError> {
                let path =
                    PathBuf::from(format!("/sys/devices/system/cpu/cpu{id}/topology/{what}"));
                let text = std::fs::read_to_string(&path)
                    .map_err(|source| PinError::Topology { path, source })?;
                // A package id of -1 means "not reported": one socket.
                Ok(text.trim().parse::<i64>().map_or(0, |v| v.max(0) as usize))
            };
            Ok(Cpu::new(id, read("physical_package_id")?, read("core_id")?))
        })
        .collect()
}

/// The CPUs this process may run on, with their socket and core read from
/// `/sys/devices/system/cpu`; [`PinError::Unsupported`] elsewhere than Linux.
#[cfg(not(target_os = "linux"))]
pub fn allowed_cpus() -> Result<Vec<Cpu>, PinError> {
    Err(PinError::Unsupported)
}

/// The pinned pools built so far, by thread count.
type Pools = Vec<(usize, Arc<rayon::ThreadPool>)>;

/// The placement of a run's workers: which CPUs, in which order, and the pinned pools built on
/// them.
///
/// Two placements are equal when they place workers alike, whatever pools they have built.
#[derive(Debug)]
pub struct Placement {
    /// How the CPUs were chosen.
    pin: Pin,
    /// The CPUs in the order workers take them.
    order: Vec<usize>,
    /// The pools built on them, one per thread count.
    pools: Mutex<Pools>,
}

impl Placement {
    /// The placement `pin` asks for on this machine ([`allowed_cpus`], [`order`]), for up to
    /// `most` threads; `None` for [`Pin::None`]; refused where it cannot be done.
    pub fn new(pin: Pin, most: usize) -> Result<Option<Placement>, PinError> {
        if pin == Pin::None {
            return Ok(None);
        }
        let order = order(pin, &allowed_cpus()?);
        if most > order.len() {
            return Err(PinError::TooManyThreads {
                pin,
                threads: most,
                cpus: order.len(),
            });
        }
        Ok(Some(Placement::with_order(pin, order)))
    }

    /// The placement of workers on the CPUs of `order`, in that order, said to be chosen by
    /// `pin` (no CPU is checked until a pool is built).
    pub fn with_order(pin: Pin, order: Vec<usize>) -> Placement {
        Placement {
            pin,
            order,
            pools: Mutex::default(),
        }
    }

    /// How the CPUs were chosen.
    pub fn pin(&self) -> Pin {
        self.pin
    }

    /// The CPUs the workers of a pool of `threads` run on: the first `threads` of the order.
    pub fn cpus(&self, threads: usize) -> &[usize] {
        &self.order[..threads.min(self.order.len())]
    }

    /// `cores: 0,2,1`: the placement and the CPUs of `threads` workers.
    pub fn describe(&self, threads: usize) -> String {
        let cpus: Vec<String> = self.cpus(threads).iter().map(usize::to_string).collect();
        format!("{}: {}", self.pin, cpus.join(","))
    }

    /// The pool of `threads` workers (`0`: one per CPU of the order), worker `i` pinned to the
    /// `i`-th CPU of the order: built on first use, then the same pool for every call with that
    /// thread count. More threads than the order has CPUs (or than
    /// [`max_threads`](nqueens::max_threads)) are refused ([`PinError::TooManyThreads`]) before
    /// any thread starts; a pool whose workers the system does not run on their CPUs is
    /// refused too ([`PinError::Refused`]).
    pub fn pool(&self, threads: usize) -> Result<Arc<rayon::ThreadPool>, PinError> {
        let cpus = self.order.len().min(nqueens::max_threads());
        let threads = if threads == 0 { cpus } else { threads };
        if threads == 0 || threads > cpus {
            return Err(PinError::TooManyThreads {
                pin: self.pin,
                threads,
                cpus,
            });
        }
        let mut pools = self.pools.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, pool)) = pools.iter().find(|(t, _)| *t == threads) {
            return Ok(Arc::clone(pool));
        }
        let pool = Arc::new(self.build_pool(threads)?);
        pools.push((threads, Arc::clone(&pool)));
        Ok(pool)
    }

    /// A new pool of `threads` workers pinned as [`Placement::pool`] says.
    fn build_pool(&self, threads: usize) -> Result<rayon::ThreadPool, PinError> {
        let cpus: Arc<Vec<usize>> = Arc::new(self.cpus(threads).to_vec());
        let failed = Arc::new(AtomicBool::new(false));
        let pool = {
            let (cpus, failed) = (Arc::clone(&cpus), Arc::clone(&failed));
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("nqueens-worker-{i}"))
                .start_handler(move |i| {
                    let pinned = cpus.get(i).is_some_and(|&id| {
                        core_affinity::set_for_current(core_affinity::CoreId { id })
                    });
                    if !pinned {
                        failed.store(true, Ordering::Relaxed);
                    }
                })
                .build()
                .map_err(PinError::ThreadPool)?
        };
        // Every worker has started (and run its start handler) once each has run a job.
        pool.broadcast(|_| ());
        if failed.load(Ordering::Relaxed) {
            return Err(PinError::Refused {
                placement: self.describe(threads),
            });
        }
        Ok(pool)
    }
}

impl Clone for Placement {
    /// The same placement, with no pool built yet.
    fn clone(&self) -> Placement {
        Placement::with_order(self.pin, self.order.clone())
    }
}

impl PartialEq for Placement {
    fn eq(&self, other: &Placement) -> bool {
        (self.pin, &self.order) == (other.pin, &other.order)
    }
}

impl Eq for Placement {}

#[cfg(test)]
mod tests {
    use super::*;

    fn cpu(id: usize, package: usize, core: usize) -> Cpu {
        Cpu { id, package, core }
    }

    #[test]
    fn cores_first_spreads_over_cores_and_siblings_fill_each_core() {
        // Two sockets of two cores with SMT, numbered as Linux often does: the second threads
        // of the cores come after all the first ones.
        let cpus = [
            cpu(0, 0, 0),
            cpu(1, 0, 1),
            cpu(2, 1, 0),
            cpu(3, 1, 1),
            cpu(4, 0, 0),
            cpu(5, 0, 1),
            cpu(6, 1, 0),
            cpu(7, 1, 1),
        ];
        assert_eq!(order(Pin::Cores, &cpus), [0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(order(Pin::Siblings, &cpus), [0, 4, 1, 5, 2, 6, 3, 7]);
        assert!(order(Pin::None, &cpus).is_empty());
        // Siblings numbered next to each other.
        let adjacent = [cpu(0, 0, 0), cpu(1, 0, 0), cpu(2, 0, 1), cpu(3, 0, 1)];
        assert_eq!(order(Pin::Cores, &adjacent), [0, 2, 1, 3]);
        assert_eq!(order(Pin::Siblings, &adjacent), [0, 1, 2, 3]);
    }

    #[test]
    fn a_placement_describes_the_cpus_of_a_thread_count() {
        let placement = Placement::with_order(Pin::Cores, vec![0, 2, 1, 3]);
        assert_eq!(placement.cpus(2), [0, 2]);
        assert_eq!(placement.describe(3), "cores: 0,2,1");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn each_worker_runs_on_its_cpu() {
        let placement = Placement::new(Pin::Cores, 1).unwrap().unwrap();
        // Reversed: worker 0 on the last CPU, so that pinning is seen to do something.
        let order: Vec<usize> = placement.order.iter().rev().copied().collect();
        let placement = Placement::with_order(placement.pin(), order);
        let threads = placement.order.len();
        let pool = placement.pool(threads).unwrap();
        let on: Vec<usize> = pool.broadcast(|_| {
            // SAFETY: sched_getcpu takes no arguments and only reads the calling thread's CPU.
            unsafe { libc::sched_getcpu() as usize }
        });
        assert_eq!(on, placement.order);
        // The pool is built once per thread count.
        assert!(Arc::ptr_eq(&pool, &placement.pool(threads).unwrap()));
    }

    #[test]
    fn more_threads_than_cpus_are_refused() {
        let cpus = allowed_cpus().map_or(0, |c| c.len());
        match Placement::new(Pin::Siblings, cpus + 1).unwrap_err() {
            PinError::TooManyThreads {
                pin,
                threads,
                cpus: there,
            } => {
                assert_eq!((pin, threads, there), (Pin::Siblings, cpus + 1, cpus));
            }
            PinError::Unsupported if !cfg!(target_os = "linux") => {}
            other => panic!("{other}"),
        }
        assert_eq!(Placement::new(Pin::None, 1000).unwrap(), None);
    }

    #[test]
    fn a_pool_beyond_the_cap_is_refused_before_any_thread_starts() {
        // 30 000 CPUs named: far more than the cap, refused at once.
        let placement = Placement::with_order(Pin::Cores, vec![0; 30_000]);
        for threads in [nqueens::max_threads() + 1, 30_000, 30_001] {
            assert!(matches!(
                placement.pool(threads),
                Err(PinError::TooManyThreads { cpus, .. }) if cpus == nqueens::max_threads()
            ));
        }
        // No pool was built.
        assert!(placement.pools.lock().unwrap().is_empty());
        let none = Placement::with_order(Pin::Cores, Vec::new());
        assert!(matches!(none.pool(0), Err(PinError::TooManyThreads { .. })));
    }

    #[test]
    fn the_examples_of_the_items_above() {
        assert_eq!(Pin::default(), Pin::None);
        assert_eq!("siblings".parse::<Pin>().unwrap(), Pin::Siblings);
        assert_eq!(Pin::Cores.to_string(), "cores");
        assert_eq!(Pin::ALL, [Pin::None, Pin::Cores, Pin::Siblings]);
        let names: Vec<&str> = Pin::ALL.iter().map(|p| p.name()).collect();
        assert_eq!(names, ["none", "cores", "siblings"]);
        let five = Cpu::new(5, 0, 1);
        assert_eq!((five.id, five.package, five.core), (5, 0, 1));
        match Placement::new(Pin::Cores, usize::MAX) {
            Err(PinError::TooManyThreads { threads, cpus, .. }) => assert!(cpus < threads),
            Err(other) => println!("no placement here: {other}"),
            Ok(_) => unreachable!("no machine has that many CPUs"),
        }
        // One socket of two cores with two SMT threads each, siblings numbered apart.
        let cpus = [cpu(0, 0, 0), cpu(1, 0, 1), cpu(2, 0, 0), cpu(3, 0, 1)];
        assert_eq!(order(Pin::Cores, &cpus), [0, 1, 2, 3]);
        assert_eq!(order(Pin::Siblings, &cpus), [0, 2, 1, 3]);
        assert!(order(Pin::None, &cpus).is_empty());
        let placement = Placement::with_order(Pin::Siblings, vec![0, 1, 2, 3]);
        assert_eq!(placement.pin(), Pin::Siblings);
        assert_eq!(placement.cpus(4), [0, 1, 2, 3]);
        assert_eq!(placement.clone(), placement);
        assert!(Placement::new(Pin::None, 1000).unwrap().is_none());
        if let Ok(Some(placement)) = Placement::new(Pin::Cores, 1) {
            assert_eq!(placement.cpus(1).len(), 1);
        }
        let placement = Placement::with_order(Pin::Cores, vec![0, 2, 1, 3]);
        assert_eq!(placement.cpus(3), [0, 2, 1]);
        assert_eq!(placement.cpus(9), [0, 2, 1, 3]);
        assert_eq!(placement.describe(3), "cores: 0,2,1");
        let placement = Placement::with_order(Pin::Cores, vec![0]);
        if let Ok(pool) = placement.pool(1) {
            assert_eq!(pool.current_num_threads(), 1);
            assert!(Arc::ptr_eq(&pool, &placement.pool(1).unwrap()));
            // Two workers on the first CPUs of an order: a count on them.
            let options = nqueens::CountOptions::new(1, nqueens::Strategy::Symmetric);
            let control = nqueens::RunControl::default().with_pool(&pool);
            let run = nqueens::count_with(12, &options, &control).unwrap();
            assert_eq!(run.counts.total, 14_200);
        }
        assert!(matches!(
            placement.pool(2),
            Err(PinError::TooManyThreads {
                threads: 2,
                cpus: 1,
                ..
            })
        ));
    }
}
