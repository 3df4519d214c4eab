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
use super::split::Split;
use super::stack::Stack;

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
/// The most stack levels a thread needs: k = 3..=32 free rows left.
const MAX_LEVELS: u32 = 30;
/// `state` words per thread (the shader's HEADER + 4 × LEVELS, for the widest stacks).
const STATE_WORDS: u64 = 4 + 4 * MAX_LEVELS as u64;

/// The adapter and the dispatch's threads, budget and stack (not the GPU's objects).
impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device")
            .field("info", &self.info)
            .field("threads", &self.threads)
            .field("budget", &self.budget)
            .field("max_budget", &self.max_budget)
            .field("stack", &self.stack)
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
            fault,
            batch: None,
            #[cfg(test)]
            fail_next: false,
        };
        // The widest stacks, so that a shader the device refuses is found before any work.
        opened.pipeline(MAX_LEVELS);
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

    /// The search's pipeline for stacks of at least `levels` levels (rounded up to a multiple
    /// of 4, at most [`MAX_LEVELS`]).
    fn pipeline(&mut self, levels: u32) -> wgpu::ComputePipeline {
        let levels = levels.next_multiple_of(4).min(MAX_LEVELS);
        if let Some((_, pipeline)) = self.pipelines.iter().find(|(l, _)| *l == levels) {
            return pipeline.clone();
        }
        let module = self
            .device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("search"),
                source: wgpu::ShaderSource::Wgsl(self.stack.source(levels).into()),
            });
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
        pipeline
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
        // Levels k = 3..=rows of the deepest sub-job.
        let rows = split.sub_jobs.iter().map(|s| s.rows).max().unwrap_or(3);
        let pipeline = self.pipeline(rows.saturating_sub(2).max(1));
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
        let control = self.buffer("control", 8, U::STORAGE | U::COPY_DST | U::COPY_SRC);
        let params = self.buffer("params", 16, U::UNIFORM | U::COPY_DST);
        let control_read = [
            self.buffer("control read 0", 8, U::MAP_READ | U::COPY_DST),
            self.buffer("control read 1", 8, U::MAP_READ | U::COPY_DST),
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
            encoder.clear_buffer(&control, 4, Some(4));
            {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(0, &bind_group, &[]);
                pass.dispatch_workgroups(this.threads / WORKGROUP, 1, 1);
            }
            encoder.copy_buffer_to_buffer(&control, 0, read, 0, Some(8));
            this.queue.submit([encoder.finish()])
        };

        let mut queued = dispatch(self, self.budget, &control_read[0]);
        let mut at = Instant::now();
        meanwhile();
        let mut i = 0usize;
        loop {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                // Let the queued work end before the buffers go.
                let _ = self.device.poll(wgpu::PollType::wait_indefinitely());
                return Ok(None);
            }
            // Keep the next dispatch queued while this one runs (a no-op once all are done).
            let ahead = dispatch(self, self.budget, &control_read[(i + 1) % 2]);
            let control_now = self.read(&control_read[i % 2], queued)?;
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

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
