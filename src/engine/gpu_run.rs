//! A run with a GPU kernel: the GPU and the CPU take tasks from one queue.
//!
//! The queue is the plan's largest-first order, as in [`super::run`]. A driver thread takes
//! tasks in batches from its front, turns them into jobs, streams them through the GPU
//! ([`crate::engine::kernel::gpu::count_stream`]: up to four batches on the device at once)
//! and reports each task only once its batch's totals are back; the driver takes and splits
//! the next batch while the GPU counts, so the GPU does not wait for the CPU. With
//! [`GpuUse::WithCpu`] the run's `threads` CPU workers take single tasks from the back of the
//! same queue with the fastest CPU kernel meanwhile: the smallest first, so that no CPU worker
//! is left with a large task when the GPU has done the rest (the two ends meet where the
//! devices' speeds put them).
//!
//! Batches grow while they take under a quarter of a second and shrink when they take over two
//! (the first tasks are the largest). A batch the GPU fails on (a lost device, a failed
//! dispatch) is not reported: its tasks are counted again on the CPU, and the rest of the run
//! goes on without the GPU. A raised stop flag drops the batches in flight (not reported, so
//! they are searched again on resume).

use std::cell::Cell;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::kernel::gpu::{self, Device};
use super::kernel::{GpuUse, Job, Selected};
use super::outcome::{RunOptions, RunReport, Tally, TaskOutcome, order_and_sum};
use super::plan::{Plan, Subproblem, Task};
use super::pool::{Workers, spread};
use crate::error::Error;

pub use super::outcome::DeviceShare;

/// Tasks in the first batch.
const FIRST_BATCH: usize = 8;
/// Batches grow while shorter than this.
const GROW_BELOW: Duration = Duration::from_millis(250);
/// Batches shrink when longer than this.
const SHRINK_ABOVE: Duration = Duration::from_secs(2);

/// The queue both devices take tasks from.
struct Queue<'a> {
    plan: &'a Plan,
    options: &'a RunOptions<'a>,
    /// The tasks not taken yet: `front..back` in plan order.
    ends: Mutex<(usize, usize)>,
    /// Tasks of batches the GPU failed on, for the CPU.
    retry: Mutex<Vec<usize>>,
}

impl Queue<'_> {
    fn stopped(&self) -> bool {
        self.options.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// The next task from the front (the largest left), after any handed back.
    fn take(&self) -> Option<usize> {
        if let Some(index) = lock(&self.retry).pop() {
            return Some(index);
        }
        let mut ends = lock(&self.ends);
        (ends.0 < ends.1).then(|| {
            ends.0 += 1;
            ends.0 - 1
        })
    }

    /// The next task from the back (the smallest left), after any handed back.
    fn take_back(&self) -> Option<usize> {
        if let Some(index) = lock(&self.retry).pop() {
            return Some(index);
        }
        let mut ends = lock(&self.ends);
        (ends.0 < ends.1).then(|| {
            ends.1 -= 1;
            ends.1
        })
    }

    /// Whether tasks are left to take.
    fn left(&self) -> bool {
        let ends = lock(&self.ends);
        ends.0 < ends.1 || !lock(&self.retry).is_empty()
    }

    fn outcome(&self, index: usize) -> TaskOutcome {
        TaskOutcome::of_task(index, &self.plan.task_at(index))
    }

    /// The count from the journal of `task`, the task at `index`, if it holds it.
    fn recorded(&self, index: usize, task: &Task) -> Option<TaskOutcome> {
        let count = self.options.recorded.and_then(|r| r(task))?;
        Some(TaskOutcome {
            count,
            recorded: true,
            ..TaskOutcome::of_task(index, task)
        })
    }

    fn report(&self, outcome: &TaskOutcome) {
        if let Some(observe) = self.options.on_task_done {
            observe(outcome);
        }
    }

    /// Counts `task`, the task at `index`, on the CPU with `cpu` and reports it; `None` when
    /// the stop flag ended the search part-way (not reported).
    fn count_on_cpu(&self, index: usize, task: &Task, cpu: Selected) -> Option<TaskOutcome> {
        let t0 = Instant::now();
        let count = task
            .subproblem
            .count_on(self.plan.n(), cpu, self.options.stop)?;
        let outcome = TaskOutcome {
            count,
            elapsed: t0.elapsed(),
            ..TaskOutcome::of_task(index, task)
        };
        self.report(&outcome);
        Some(outcome)
    }

    /// A CPU worker: single tasks from the back until the queue is empty or the stop flag is
    /// raised.
    fn cpu_worker(&self, cpu: Selected) -> Vec<TaskOutcome> {
        let mut done = Vec::new();
        while !self.stopped() {
            let Some(index) = self.take_back() else {
                break;
            };
            let task = self.plan.task_at(index);
            if let Some(outcome) = self.recorded(index, &task) {
                done.push(outcome);
                continue;
            }
            let Some(outcome) = self.count_on_cpu(index, &task, cpu) else {
                // Stopped part-way: not finished, not reported; a later worker must not take
                // it either (the run is ending).
                break;
            };
            done.push(outcome);
        }
        done
    }
}

/// A batch taken from the queue: the tasks the GPU counts and their jobs.
#[derive(Default)]
struct Batch {
    tasks: Vec<usize>,
    prepared: Option<gpu::Prepared>,
}

/// The GPU side of a run: what it counted, what it recorded or counted on the CPU, whether
/// the GPU failed.
#[derive(Default)]
struct Driven {
    gpu: Vec<TaskOutcome>,
    cpu: Vec<TaskOutcome>,
    failed: bool,
}

/// Takes up to `size` tasks: those the journal holds are done at once (into `cpu_done`), those
/// too wide for a job counted on the CPU, the rest split for the GPU.
fn take_batch(
    queue: &Queue<'_>,
    cpu: Selected,
    size: usize,
    shape: gpu::BatchShape,
    cpu_done: &mut Vec<TaskOutcome>,
) -> Batch {
    let mut batch = Batch::default();
    let mut jobs = Vec::new();
    while batch.tasks.len() < size && !queue.stopped() {
        let Some(index) = queue.take() else {
            break;
        };
        let task = queue.plan.task_at(index);
        if let Some(outcome) = queue.recorded(index, &task) {
            cpu_done.push(outcome);
            continue;
        }
        let n = queue.plan.n();
        let job = match task.subproblem {
            Subproblem::Rows(state) => Job::from_rows(n, state),
            Subproblem::Inner(board) => Some(board.job()),
        };
        match job {
            Some(job) => {
                batch.tasks.push(index);
                jobs.push(job);
            }
            None => {
                // Wider than a job (n > 32): the CPU's row kernel.
                cpu_done.extend(queue.count_on_cpu(index, &task, cpu));
            }
        }
    }
    if !jobs.is_empty() {
        batch.prepared = Some(gpu::prepare(&jobs, shape));
    }
    batch
}

/// A batch on its way through the GPU: its tasks and when it was taken.
struct InFlight {
    tasks: Vec<usize>,
    taken: Instant,
}

impl Driven {
    /// The GPU's first batch: the plan's largest tasks, taken before any CPU worker starts, so
    /// that the GPU always has work and the CPU workers never start on the largest tasks.
    fn first_batch(&mut self, queue: &Queue<'_>, cpu: Selected, device: &Device) -> Batch {
        take_batch(
            queue,
            cpu,
            FIRST_BATCH,
            gpu::batch_shape(device),
            &mut self.cpu,
        )
    }

    /// Streams batches through `device` until the queue is empty, the stop flag is raised or
    /// the GPU fails. `first` is the first batch, taken before the CPU workers start
    /// ([`Driven::first_batch`]). Each batch is reported once its totals are back.
    fn drive(&mut self, queue: &Queue<'_>, cpu: Selected, device: &mut Device, first: Batch) {
        let shape = gpu::batch_shape(device);
        let size = Cell::new(FIRST_BATCH);
        let mut first = Some(first);
        let cpu_done = &mut self.cpu;
        let gpu_done = &mut self.gpu;
        let mut next = || {
            let batch = first
                .take()
                .unwrap_or_else(|| take_batch(queue, cpu, size.get(), shape, cpu_done));
            let prepared = batch.prepared?;
            Some((
                InFlight {
                    tasks: batch.tasks,
                    taken: Instant::now(),
                },
                prepared,
            ))
        };
        let mut done = |batch: InFlight, totals: Vec<u64>| {
            let took = batch.taken.elapsed();
            let each = took / batch.tasks.len().max(1) as u32;
            for (&index, count) in batch.tasks.iter().zip(totals) {
                let outcome = TaskOutcome {
                    count,
                    elapsed: each,
                    ..queue.outcome(index)
                };
                queue.report(&outcome);
                gpu_done.push(outcome);
            }
            if took < GROW_BELOW {
                size.set(size.get().saturating_mul(2).min(1 << 16));
            } else if took > SHRINK_ABOVE {
                size.set((size.get() / 2).max(1));
            }
        };
        if let Err(e) = gpu::count_stream(device, &mut next, &mut done, queue.options.stop) {
            self.failed = true;
            if gpu::settings().trace() {
                eprintln!("nqueens: gpu failed: {}", e.error);
            }
            let mut retry = lock(&queue.retry);
            for batch in e.unfinished {
                retry.extend_from_slice(&batch.tasks);
            }
        }
    }
}

/// Runs every task of `plan` on the GPU and, with [`GpuUse::WithCpu`], the run's CPU `workers`,
/// all taking tasks from one queue.
pub(super) fn run(
    plan: &Plan,
    options: &RunOptions<'_>,
    share: GpuUse,
    workers: &Workers<'_>,
) -> Result<RunReport, Error> {
    let cpu = options.kernel.cpu_kernel();
    let started = Instant::now();
    let queue = Queue {
        plan,
        options,
        ends: Mutex::new((0, plan.tasks().len())),
        retry: Mutex::new(Vec::new()),
    };
    let on_cpu = || workers.run(|width| spread(width, || queue.cpu_worker(cpu)).concat());
    let mut guard = gpu::device()?;
    let Some(Ok(device)) = guard.as_mut() else {
        unreachable!("device() returns an open device")
    };
    let work_before = device.work();
    let mut driven = Driven::default();
    let first = driven.first_batch(&queue, cpu, device);
    let mut cpu_done: Vec<TaskOutcome> = Vec::new();
    std::thread::scope(|scope| {
        let driver = scope.spawn(|| {
            driven.drive(&queue, cpu, device, first);
        });
        if share == GpuUse::WithCpu {
            cpu_done = on_cpu();
        }
        driver.join().expect("the GPU driver does not panic");
    });
    let gpu_work = match guard.as_ref() {
        Some(Ok(device)) => device.work().since(work_before),
        _ => Default::default(),
    };
    if driven.failed {
        // Opened again by the next count that needs it.
        *guard = None;
    }
    drop(guard);
    // Whatever the GPU left (a fault, or the GPU alone): the CPU workers.
    if !queue.stopped() && queue.left() {
        cpu_done.extend(on_cpu());
    }
    let mut outcomes: Vec<TaskOutcome> = Vec::with_capacity(plan.tasks().len());
    let mut share_of = DeviceShare {
        gpu_failed: driven.failed,
        gpu_work,
        ..DeviceShare::default()
    };
    for o in &driven.gpu {
        share_of.gpu_tasks += 1;
        share_of.gpu_solutions += o.weighted();
    }
    for o in driven.cpu.iter().chain(&cpu_done).filter(|o| !o.recorded) {
        share_of.cpu_tasks += 1;
        share_of.cpu_solutions += o.weighted();
    }
    outcomes.extend(driven.gpu);
    outcomes.extend(driven.cpu);
    outcomes.extend(cpu_done);
    let total = order_and_sum(&mut outcomes)?;
    Ok(RunReport {
        total,
        tally: Tally::of(&outcomes),
        complete: outcomes.len() == plan.tasks().len(),
        outcomes,
        kernel: options.kernel.kernel(),
        elapsed: started.elapsed(),
        threads: workers.width(),
        gpu: Some(share_of),
        // The spans of CPU workers in a pool: none here (a GPU run has no such workers).
        workers: Vec::new(),
    })
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use crate::engine::kernel::Kernel;
    use crate::engine::kernel::gpu::{self, tests::have_device, tests::serial};
    use crate::engine::plan::{Plan, Strategy};
    use crate::engine::run::{RunOptions, run};

    #[test]
    fn a_batch_the_gpu_fails_on_is_counted_on_the_cpu() {
        let _serial = serial();
        if !have_device() {
            return;
        }
        for kernel in [Kernel::GpuOnly, Kernel::Gpu] {
            let plan = Plan::new(12, Strategy::Symmetric, 512).unwrap();
            let options = RunOptions {
                kernel: kernel.select().unwrap(),
                ..RunOptions::with_threads(2)
            };
            {
                let mut guard = gpu::device().unwrap();
                let Some(Ok(device)) = guard.as_mut() else {
                    unreachable!()
                };
                device.fail_next = true;
            }
            let report = run(&plan, &options).unwrap();
            assert!(report.complete, "{kernel}");
            assert_eq!(report.total, 14_200, "{kernel}");
            let share = report.gpu.unwrap();
            assert!(share.gpu_failed, "{kernel}");
            assert_eq!(
                share.gpu_tasks, 0,
                "{kernel}: the failed batch was the first"
            );
            assert_eq!(share.cpu_tasks, plan.tasks().len(), "{kernel}");
        }
    }

    #[test]
    fn the_gpu_and_the_cpu_count_every_task_once() {
        let _serial = serial();
        if !have_device() {
            return;
        }
        let plan = Plan::new(13, Strategy::Mirror, 1024).unwrap();
        let options = RunOptions {
            kernel: Kernel::Gpu.select().unwrap(),
            ..RunOptions::with_threads(2)
        };
        let report = run(&plan, &options).unwrap();
        assert_eq!(report.total, 73_712);
        let indexes: Vec<usize> = report.outcomes.iter().map(|o| o.index).collect();
        assert_eq!(indexes, (0..plan.tasks().len()).collect::<Vec<_>>());
        let share = report.gpu.unwrap();
        assert_eq!(share.gpu_tasks + share.cpu_tasks, plan.tasks().len());
        assert_eq!(share.gpu_solutions + share.cpu_solutions, 73_712);
    }
}
