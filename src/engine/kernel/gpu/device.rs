//! The device: the compute pipeline, the buffers of one batch, and the dispatch loop that runs
//! a batch to its end in bounded dispatches.
//!
//! Each dispatch lets every thread run at most `budget` node steps; the host keeps one dispatch
//! queued behind the one it waits for, so the device never waits for the host, and adapts the
//! budget so that a dispatch takes about 100 ms (`TARGET_DISPATCH`; desktop drivers stop a
//! shader after about two seconds).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::GpuError;
use super::adapter::{self, AdapterInfo};
use super::settings::GpuSettings;
use super::split::{MIN_GPU_ROWS, Split};
use super::stack::{MAX_LEVELS, Stack};

/// The time one dispatch aims at.
const TARGET_DISPATCH: Duration = Duration::from_millis(100);
/// The longest wait for one dispatch before the device is given up as lost.
const DISPATCH_TIMEOUT: Duration = Duration::from_secs(20);
/// Node steps per thread in the first dispatch.
const FIRST_BUDGET: u32 = 1 << 12;
/// Node steps per thread in one dispatch at most.
const MAX_BUDGET: u32 = 1 << 26;
/// The most on llvmpipe (Mesa's software Vulkan), which ends any invocation's loops after
/// 65 535 iterations in all (a search cut there loses part of its count; measured: 32 768
/// steps count right, 65 535 do not).
const MAX_SOFTWARE_BUDGET: u32 = 1 << 14;
/// Threads per workgroup (the shader's `@workgroup_size`).
const WORKGROUP: u32 = 64;
/// `state` words per thread (the shader's HEADER + 4 × LEVELS, for the widest stacks).
const STATE_WORDS: u64 = 4 + 4 * MAX_LEVELS as u64;
/// The fewest stack levels a device must hold: sub-jobs of [`MIN_GPU_ROWS`] free rows.
const MIN_LEVELS: u32 = MIN_GPU_ROWS as u32 - 1;
/// Bytes of the `control` buffer: the next sub-job, the threads not done, the steps run (two
/// words), the most steps one thread ran.
const CONTROL_BYTES: u64 = 20;

/// The adapter and the dispatch's threads, budget and stack (not the GPU's objects).
impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device")
            .field("info", &self.info)
            .field("threads", &self.threads)
            .field("budget", &self.budget)
            .field("max_budget", &self.max_budget)
            .field("stack", &self.stack)
            .field("max_levels", &self.max_levels)
            .field("work", &self.work)
            .finish_non_exhaustive()
    }
}

/// An open device with the search's pipeline, ready to count batches.
pub struct Device {
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// The search's pipelines so far, by stack levels (compiled on first use: the fewer the
    /// levels, the less workgroup memory a workgroup takes and the more run at once).
    pipelines: Vec<(u32, wgpu::ComputePipeline)>,
    pipeline_layout: wgpu::PipelineLayout,
    layout: wgpu::BindGroupLayout,
    /// The thread state of a dispatch, kept from batch to batch.
    state: wgpu::Buffer,
    info: AdapterInfo,
    threads: u32,
    budget: u32,
    /// The most steps a dispatch may give a thread on this device.
    max_budget: u32,
    /// Where the shader keeps its stacks.
    stack: Stack,
    /// The deepest stacks the device holds (workgroup memory bounds them).
    max_levels: u32,
    /// The steps the threads ran and were offered since the device was opened.
    work: Work,
    /// Whether each batch writes a line on stderr ([`GpuSettings::with_trace`]).
    trace: bool,
    /// The first error the device reported (validation, out of memory, lost).
    fault: Arc<Mutex<Option<String>>>,
    /// The batch buffers of the largest batch so far.
    batch: Option<BatchBuffers>,
    /// Fail the next batch, as a lost device would (tests of the CPU taking over).
    #[cfg(test)]
    pub(crate) fail_next: bool,
}

fn storage(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

/// The words as the device reads them (every target wgpu runs on is little-endian).
fn bytes(words: &[u32]) -> &[u8] {
    bytemuck::cast_slice(words)
}

/// The buffers a batch needs, kept from batch to batch and grown when a batch needs more: a
/// batch of a million sub-jobs would otherwise allocate (and clear) 40 MB before its first
/// dispatch.
struct BatchBuffers {
    tables: wgpu::Buffer,
    sub_jobs: wgpu::Buffer,
    results: wgpu::Buffer,
    results_read: wgpu::Buffer,
}

impl Device {
    /// Opens the adapter [`adapter::choose`] picks and builds the pipeline, with the process's
    /// settings ([`super::settings`]).
    pub fn open() -> Result<Device, GpuError> {
        Device::open_with(&super::settings())
    }

    /// Opens the adapter `settings` pick and builds the pipeline with their stacks and threads.
    pub fn open_with(settings: &GpuSettings) -> Result<Device, GpuError> {
        let stack = settings.stack();
        let instance = adapter::instance();
        let (adapter, info) = adapter::choose(&instance, settings.adapter())?;
        let limits = adapter.limits();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("nqueens"),
            required_limits: limits.clone(),
            ..Default::default()
        }))
        .map_err(GpuError::device)?;
        let fault = Arc::new(Mutex::new(None));
        let on_error = Arc::clone(&fault);
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            lock(&on_error).get_or_insert_with(|| e.to_string());
        }));
        let on_lost = Arc::clone(&fault);
        device.set_device_lost_callback(move |_, message| {
            lock(&on_lost).get_or_insert_with(|| format!("device lost: {message}"));
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("search"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                },
                storage(1, true),
                storage(2, true),
                storage(3, false),
                storage(4, false),
                storage(5, false),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("search"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let max_threads = (limits.max_storage_buffer_binding_size / (STATE_WORDS * 4))
            .min(u64::from(limits.max_compute_workgroups_per_dimension) * u64::from(WORKGROUP))
            as u32;
        let threads = settings
            .threads()
            .unwrap_or(match info.kind {
                // Enough to fill a large GPU (about 100 000 such threads at once with stacks
                // of 16 levels); the settings' thread count tunes it.
                "discrete" => 1 << 17,
                "integrated" | "virtual" => 1 << 14,
                _ => 1 << 10,
            })
            .clamp(WORKGROUP, max_threads)
            / WORKGROUP
            * WORKGROUP;
        let state = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("state"),
            size: u64::from(threads) * STATE_WORDS * 4,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let max_levels = (limits.max_compute_workgroup_storage_size
            / stack.workgroup_bytes(1).max(1))
        .min(MAX_LEVELS);
        if max_levels < MIN_LEVELS {
            return Err(GpuError::Device(format!(
                "{} bytes of workgroup memory hold {max_levels} stack levels, fewer than {MIN_LEVELS}",
                limits.max_compute_workgroup_storage_size
            )));
        }
        let max_budget = if info.driver.contains("llvmpipe") || info.name.contains("llvmpipe") {
            MAX_SOFTWARE_BUDGET
        } else {
            MAX_BUDGET
        };
        let mut opened = Device {
            device,
            queue,
            pipelines: Vec::new(),
            pipeline_layout,
            layout,
            state,
            info,
            threads,
            budget: FIRST_BUDGET,
            max_budget,
            stack,
            max_levels,
            work: Work::default(),
            trace: settings.trace(),
            fault,
            batch: None,
            #[cfg(test)]
            fail_next: false,
        };
        // The widest stacks, so that a shader the device refuses is found before any work.
        opened.pipeline(max_levels);
        opened.check()?;
        Ok(opened)
    }

    /// The adapter the device runs on.
    pub fn info(&self) -> &AdapterInfo {
        &self.info
    }

    /// Threads of one dispatch.
    pub fn threads(&self) -> u32 {
        self.threads
    }

    /// The deepest stacks this device holds: sub-jobs have at most one free row more.
    pub fn max_levels(&self) -> u32 {
        self.max_levels
    }

    /// The steps the device's threads ran, and were offered, since it was opened.
    pub fn work(&self) -> Work {
        self.work
    }

    /// The search's pipeline for stacks of at least `levels` levels (rounded up to a multiple
    /// of 4, at most [`Device::max_levels`]), and the levels it has.
    fn pipeline(&mut self, levels: u32) -> (u32, wgpu::ComputePipeline) {
        let levels = levels.next_multiple_of(4).min(self.max_levels);
        if let Some((_, pipeline)) = self.pipelines.iter().find(|(l, _)| *l == levels) {
            return (levels, pipeline.clone());
        }
        let descriptor = wgpu::ShaderModuleDescriptor {
            label: Some("search"),
            source: wgpu::ShaderSource::Wgsl(self.stack.source(levels).into()),
        };
        // SAFETY: the shader indexes its buffers and stacks only within their bounds, and every
        // loop of it ends (its header comment gives the reasons): the indices rest on the
        // batch's shape, which `count` checks before every batch (`Split::check`) against the
        // pipeline's levels, and on `state` and `control`, which only the shader and the
        // host's clears write. Without wgpu's runtime checks (index clamps, a loop counter) the
        // search loop runs about a third faster on an NVIDIA GPU.
        let module = unsafe {
            self.device
                .create_shader_module_trusted(descriptor, wgpu::ShaderRuntimeChecks::unchecked())
        };
        let pipeline = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some("search"),
                layout: Some(&self.pipeline_layout),
                module: &module,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                cache: None,
            });
        self.pipelines.push((levels, pipeline.clone()));
        (levels, pipeline)
    }

    /// The fault the device reported, if any.
    fn check(&self) -> Result<(), GpuError> {
        match lock(&self.fault).clone() {
            Some(message) => Err(GpuError::device(message)),
            None => Ok(()),
        }
    }

    fn buffer(&self, label: &str, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: size.max(16),
            usage,
            mapped_at_creation: false,
        })
    }

    /// Waits for `submission`, then reads `buffer` (a `MAP_READ` buffer).
    fn read(
        &self,
        buffer: &wgpu::Buffer,
        submission: wgpu::SubmissionIndex,
    ) -> Result<Vec<u32>, GpuError> {
        let (tx, rx) = std::sync::mpsc::channel();
        buffer.map_async(wgpu::MapMode::Read, .., move |r| {
            let _ = tx.send(r);
        });
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(submission),
                timeout: Some(DISPATCH_TIMEOUT),
            })
            .map_err(GpuError::device)?;
        self.check()?;
        match rx.try_recv() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(GpuError::device(e)),
            Err(_) => return Err(GpuError::Device("a read-back never finished".into())),
        }
        let data =
            bytemuck::pod_collect_to_vec(&buffer.get_mapped_range(..).map_err(GpuError::device)?);
        buffer.unmap();
        Ok(data)
    }

    /// Counts every sub-job of `split`: the per-sub-job totals, in order; `None` when `stop`
    /// was raised first. `meanwhile` is called once, after the first dispatch is queued (the
    /// caller prepares its next batch while the device works).
    pub(super) fn count(
        &mut self,
        split: &Split,
        stop: Option<&AtomicBool>,
        meanwhile: &mut dyn FnMut(),
    ) -> Result<Option<Vec<u64>>, GpuError> {
        #[cfg(test)]
        if std::mem::take(&mut self.fail_next) {
            meanwhile();
            return Err(GpuError::Device("a fault made by a test".into()));
        }
        let subs = split.sub_jobs.len();
        if subs == 0 {
            meanwhile();
            return Ok(Some(Vec::new()));
        }
        use wgpu::BufferUsages as U;
        // A slot per row of the deepest sub-job but its last.
        let rows = split.sub_jobs.iter().map(|s| s.rows).max().unwrap_or(2);
        let (levels, pipeline) = self.pipeline(rows.saturating_sub(1).max(1));
        split.check(levels).map_err(GpuError::Device)?;
        let tables_size = (split.tables.len() * 4) as u64;
        let sub_jobs_size = std::mem::size_of_val(split.sub_jobs.as_slice()) as u64;
        let results_size = subs as u64 * 8;
        let fits = self.batch.as_ref().is_some_and(|b| {
            b.tables.size() >= tables_size
                && b.sub_jobs.size() >= sub_jobs_size
                && b.results.size() >= results_size
        });
        if !fits {
            // A quarter more than asked, so that batches a little larger reuse them.
            let room = |size: u64| (size + size / 4).next_multiple_of(16).max(16);
            let old = self.batch.take();
            let keep = |f: fn(&BatchBuffers) -> u64, size: u64| {
                old.as_ref().map_or(room(size), |b| f(b).max(room(size)))
            };
            self.batch = Some(BatchBuffers {
                tables: self.buffer(
                    "tables",
                    keep(|b| b.tables.size(), tables_size),
                    U::STORAGE | U::COPY_DST,
                ),
                sub_jobs: self.buffer(
                    "sub-jobs",
                    keep(|b| b.sub_jobs.size(), sub_jobs_size),
                    U::STORAGE | U::COPY_DST,
                ),
                results: self.buffer(
                    "results",
                    keep(|b| b.results.size(), results_size),
                    U::STORAGE | U::COPY_SRC,
                ),
                results_read: self.buffer(
                    "results read",
                    keep(|b| b.results.size(), results_size),
                    U::MAP_READ | U::COPY_DST,
                ),
            });
        }
        let buffers = self.batch.as_ref().expect("made above");
        let (tables, sub_jobs) = (&buffers.tables, &buffers.sub_jobs);
        let (results, results_read) = (buffers.results.clone(), buffers.results_read.clone());
        self.queue.write_buffer(tables, 0, bytes(&split.tables));
        self.queue
            .write_buffer(sub_jobs, 0, bytemuck::cast_slice(&split.sub_jobs));
        let control = self.buffer(
            "control",
            CONTROL_BYTES,
            U::STORAGE | U::COPY_DST | U::COPY_SRC,
        );
        let params = self.buffer("params", 16, U::UNIFORM | U::COPY_DST);
        let control_read = [
            self.buffer("control read 0", CONTROL_BYTES, U::MAP_READ | U::COPY_DST),
            self.buffer("control read 1", CONTROL_BYTES, U::MAP_READ | U::COPY_DST),
        ];
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("search"),
            layout: &self.layout,
            entries: &[
                (0, &params),
                (1, tables),
                (2, sub_jobs),
                (3, &results),
                (4, &self.state),
                (5, &control),
            ]
            .map(|(binding, buffer)| wgpu::BindGroupEntry {
                binding,
                resource: buffer.as_entire_binding(),
            }),
        });
        // A fresh batch: every thread without a sub-job, none taken yet.
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.clear_buffer(&self.state, 0, None);
        encoder.clear_buffer(&control, 0, None);
        self.queue.submit([encoder.finish()]);

        let dispatch = |this: &Device, budget: u32, read: &wgpu::Buffer| {
            this.queue
                .write_buffer(&params, 0, bytes(&[subs as u32, budget, this.threads, 0]));
            let mut encoder = this.device.create_command_encoder(&Default::default());
            encoder.clear_buffer(&control, 4, Some(CONTROL_BYTES - 4));
            {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(0, &bind_group, &[]);
                pass.dispatch_workgroups(this.threads / WORKGROUP, 1, 1);
            }
            encoder.copy_buffer_to_buffer(&control, 0, read, 0, Some(CONTROL_BYTES));
            this.queue.submit([encoder.finish()])
        };

        let started = Instant::now();
        let mut queued = dispatch(self, self.budget, &control_read[0]);
        let mut at = Instant::now();
        meanwhile();
        let mut i = 0usize;
        let mut work = Work::default();
        loop {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                // Let the queued work end before the buffers go.
                let _ = self.device.poll(wgpu::PollType::wait_indefinitely());
                return Ok(None);
            }
            // Keep the next dispatch queued while this one runs (a no-op once all are done).
            let ahead = dispatch(self, self.budget, &control_read[(i + 1) % 2]);
            let control_now = self.read(&control_read[i % 2], queued)?;
            work.add(&control_now, self.threads);
            let took = at.elapsed();
            at = Instant::now();
            queued = ahead;
            i += 1;
            // Steer the budget towards the target dispatch time.
            if took < TARGET_DISPATCH / 2 {
                self.budget = self.budget.saturating_mul(2).min(self.max_budget);
            } else if took > TARGET_DISPATCH * 2 {
                self.budget = (self.budget / 2).max(1 << 8);
            }
            if control_now[1] == 0 {
                break;
            }
        }
        self.work.add_work(work);
        if self.trace {
            eprintln!(
                "nqueens: gpu batch: {subs} sub-jobs, {levels} stack levels, {} dispatches, \
                 {} steps, busy {:.1}%, {:.0} ms",
                work.dispatches,
                work.steps,
                work.busy().unwrap_or(0.0) * 100.0,
                started.elapsed().as_secs_f64() * 1000.0
            );
        }
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(&results, 0, &results_read, 0, Some(results_size));
        let done = self.queue.submit([encoder.finish()]);
        let raw = self.read(&results_read, done)?;
        Ok(Some(
            raw.chunks_exact(2)
                .take(subs)
                .map(|w| u64::from(w[0]) | u64::from(w[1]) << 32)
                .collect(),
        ))
    }
}

/// The steps a device's threads ran and were offered: how busy they were.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Work {
    /// Dispatches run.
    pub dispatches: u64,
    /// Steps the threads ran: queens placed, plus a step per sub-job taken and one per free row
    /// of its table copied.
    pub steps: u64,
    /// Steps the dispatches offered: threads × the most steps one thread ran, in each dispatch
    /// (a dispatch lasts as long as its longest thread).
    pub offered: u64,
}

impl Work {
    /// The share of the offered steps the threads ran (`None` before any dispatch): what is
    /// left is threads with no sub-job left while others search (a batch's tail) or with less
    /// to do than the dispatch's longest.
    ///
    /// ```
    /// use nqueens::gpu::Work;
    /// let work = Work { dispatches: 2, steps: 450, offered: 500 };
    /// assert_eq!(work.busy(), Some(0.9));
    /// assert_eq!(Work::default().busy(), None);
    /// ```
    pub fn busy(&self) -> Option<f64> {
        (self.offered > 0).then(|| self.steps as f64 / self.offered as f64)
    }

    /// Adds one dispatch of `threads` threads: its control words (`[2]`, `[3]`: the steps
    /// run; `[4]`: the most one thread ran).
    fn add(&mut self, control: &[u32], threads: u32) {
        self.dispatches += 1;
        self.steps += u64::from(control[2]) | u64::from(control[3]) << 32;
        self.offered += u64::from(control[4]) * u64::from(threads);
    }

    /// The dispatches and steps since `earlier` (a reading of the same device).
    pub fn since(&self, earlier: Work) -> Work {
        Work {
            dispatches: self.dispatches.saturating_sub(earlier.dispatches),
            steps: self.steps.saturating_sub(earlier.steps),
            offered: self.offered.saturating_sub(earlier.offered),
        }
    }

    /// Adds another's dispatches and steps.
    pub(crate) fn add_work(&mut self, other: Work) {
        self.dispatches += other.dispatches;
        self.steps += other.steps;
        self.offered += other.offered;
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
