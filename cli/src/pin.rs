//! `--pin`: worker threads placed on chosen CPUs, one per physical core first or SMT siblings
//! together, so that runs with SMT on and off, or on one socket and on two, can be compared on
//! one machine.
//!
//! The CPUs are those the process may run on (its affinity mask, as `taskset` or a batch
//! system leaves it); which of them share a core and a socket is read from Linux's
//! `/sys/devices/system/cpu/cpuN/topology`. Worker `i` of a pool of `T` is pinned to the `i`-th
//! CPU of the placement's order, so the first `T` CPUs of that order are used. Elsewhere than
//! Linux, and with more threads than CPUs to place them on, `--pin` is refused.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use nqueens::names::Named;

use super::Failure;

/// Where the worker threads run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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

impl Named for Pin {
    const WHAT: &'static str = "placement";
    fn all() -> &'static [Self] {
        &[Pin::None, Pin::Cores, Pin::Siblings]
    }
    fn name(self) -> &'static str {
        match self {
            Pin::None => "none",
            Pin::Cores => "cores",
            Pin::Siblings => "siblings",
        }
    }
    fn description(self) -> &'static str {
        match self {
            Pin::None => "wherever the system puts the workers",
            Pin::Cores => "one worker per physical core first, then their SMT siblings",
            Pin::Siblings => "SMT siblings together, core by core",
        }
    }
}

impl std::fmt::Display for Pin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One CPU the process may run on, with where it sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cpu {
    /// The CPU's number (as `taskset` and `/proc/cpuinfo` number them).
    pub id: usize,
    /// Its socket (`physical_package_id`).
    pub package: usize,
    /// Its core within the socket (`core_id`); CPUs with the same package and core are SMT
    /// siblings.
    pub core: usize,
}

/// The CPUs in the order `pin` gives them to workers: worker `i` runs on the `i`-th.
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
/// `/sys/devices/system/cpu`.
#[cfg(target_os = "linux")]
pub fn allowed_cpus() -> Result<Vec<Cpu>, String> {
    let ids = core_affinity::get_core_ids()
        .ok_or("--pin: cannot read the CPUs this process may run on")?;
    ids.into_iter()
        .map(|core_affinity::CoreId { id }| {
            let read = |what: &str| -> Result<usize, String> {
                let path = format!("/sys/devices/system/cpu/cpu{id}/topology/{what}");
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("--pin: cannot read {path}: {e}"))?;
                // A package id of -1 means "not reported": one socket.
                Ok(text.trim().parse::<i64>().map_or(0, |v| v.max(0) as usize))
            };
            Ok(Cpu {
                id,
                package: read("physical_package_id")?,
                core: read("core_id")?,
            })
        })
        .collect()
}

/// Elsewhere than Linux the topology is not read: `--pin` is refused.
#[cfg(not(target_os = "linux"))]
pub fn allowed_cpus() -> Result<Vec<Cpu>, String> {
    Err("--pin needs Linux: this system does not place threads on chosen CPUs".to_string())
}

/// The placement of a command's workers: which CPUs, in which order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// How they were chosen.
    pub pin: Pin,
    /// The CPUs in the order workers take them.
    pub order: Vec<usize>,
}

impl Placement {
    /// The placement `pin` asks for on this machine, for up to `most` threads; `None` for
    /// [`Pin::None`]; refused (a usage error) where it cannot be done.
    pub fn new(pin: Pin, most: usize) -> Result<Option<Placement>, Failure> {
        if pin == Pin::None {
            return Ok(None);
        }
        let cpus = allowed_cpus().map_err(Failure::Usage)?;
        let order = order(pin, &cpus);
        if most > order.len() {
            return Err(Failure::Usage(format!(
                "--pin {pin}: {most} threads, but this process may run on only {} to place them \
                 on; choose at most {} threads, or --pin none",
                super::human::plural(order.len(), "CPU"),
                order.len()
            )));
        }
        Ok(Some(Placement { pin, order }))
    }

    /// The CPUs the workers of a pool of `threads` run on: the first `threads` of the order.
    pub fn cpus(&self, threads: usize) -> &[usize] {
        &self.order[..threads.min(self.order.len())]
    }

    /// `cores: 0,2,1,3`: the placement and the CPUs of `threads` workers, as results record it.
    pub fn describe(&self, threads: usize) -> String {
        let cpus: Vec<String> = self.cpus(threads).iter().map(usize::to_string).collect();
        format!("{}: {}", self.pin, cpus.join(","))
    }

    /// A pool of `threads` workers, worker `i` pinned to the `i`-th CPU of the order.
    pub fn pool(&self, threads: usize) -> Result<Arc<rayon::ThreadPool>, Failure> {
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
                .map_err(|e| Failure::Engine(nqueens::Error::ThreadPool(e.to_string())))?
        };
        // Every worker has started (and run its start handler) once each has run a job.
        pool.broadcast(|_| ());
        if failed.load(Ordering::Relaxed) {
            return Err(Failure::Usage(format!(
                "--pin {}: the system refused to place the workers on CPUs {}",
                self.pin,
                self.describe(threads)
            )));
        }
        Ok(Arc::new(pool))
    }
}

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
        let placement = Placement {
            pin: Pin::Cores,
            order: vec![0, 2, 1, 3],
        };
        assert_eq!(placement.cpus(2), [0, 2]);
        assert_eq!(placement.describe(3), "cores: 0,2,1");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn each_worker_runs_on_its_cpu() {
        let placement = Placement::new(Pin::Cores, 1).unwrap().unwrap();
        // Reversed: worker 0 on the last CPU, so that pinning is seen to do something.
        let order: Vec<usize> = placement.order.iter().rev().copied().collect();
        let placement = Placement { order, ..placement };
        let threads = placement.order.len();
        let pool = placement.pool(threads).unwrap();
        let on: Vec<usize> = pool.broadcast(|_| {
            // SAFETY: sched_getcpu takes no arguments and only reads the calling thread's CPU.
            unsafe { libc::sched_getcpu() as usize }
        });
        assert_eq!(on, placement.order);
    }

    #[test]
    fn more_threads_than_cpus_are_refused() {
        let cpus = allowed_cpus().map_or(0, |c| c.len());
        let err = Placement::new(Pin::Siblings, cpus + 1).unwrap_err();
        assert!(matches!(err, Failure::Usage(_)));
        let message = err.to_string();
        assert!(
            message.starts_with("--pin siblings: ") || message.starts_with("--pin needs Linux"),
            "{message}"
        );
        assert_eq!(Placement::new(Pin::None, 1000).unwrap(), None);
    }
}
