//! The device: the adapter opened, the compute pipelines by stack depth, and the thread state
//! kept between dispatches; `stream` runs batches through it.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::GpuError;
use super::adapter::{self, AdapterInfo};
use super::last_rows::LastRows;
use super::settings::GpuSettings;
use super::split::MIN_GPU_ROWS;
use super::work::Work;

pub(crate) mod stream;

use super::stack::{MAX_LEVELS, Stack};
pub use stream::StreamError;

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

/// The adapter and the dispatch's threads, budget and stack (not the GPU's objects).
impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device")
            .field("info", &self.info)
            .field("threads", &self.threads)
            .field("budget", &self.budget)
            .field("max_budget", &self.max_budget)
            .field("stack", &self.stack)
            .field("last_rows", &self.last_rows)
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
    /// How the shader counts the last rows.
    last_rows: LastRows,
    /// The deepest stacks the device holds (workgroup memory bounds them).
    max_levels: u32,
    /// The steps the threads ran and were offered since the device was opened.
    work: Work,
    /// Whether each batch writes a line on stderr ([`GpuSettings::with_trace`]).
    trace: bool,
    /// The first error the device reported (validation, out of memory, lost).
    fault: Arc<Mutex<Option<String>>>,
    /// The buffers of the places for batches, the largest so far.
    places: Option<stream::Places>,
    /// Sub-job numbers a stream runs up to before it starts over from 0.
    pub(crate) number_limit: u64,
    /// Fail the next stream after its first batch is taken, as a lost device would (tests of
    /// the CPU taking over).
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

/// The first failure the device reports, an error it raised outside any call or its loss,
/// kept for the next call to find.
fn watch_faults(device: &wgpu::Device) -> Arc<Mutex<Option<String>>> {
    let fault = Arc::new(Mutex::new(None));
    let on_error = Arc::clone(&fault);
    device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
        lock(&on_error).get_or_insert_with(|| e.to_string());
    }));
    let on_lost = Arc::clone(&fault);
    device.set_device_lost_callback(move |_, message| {
        lock(&on_lost).get_or_insert_with(|| format!("device lost: {message}"));
    });
    fault
}

/// The search shader's bindings: the uniform parameters, then two buffers it reads and three
/// it writes.
fn search_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
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
    })
}

/// The threads of one dispatch: the settings' count, else enough to fill a GPU of the
/// adapter's kind, within what the device's limits hold, in whole workgroups.
fn dispatch_threads(settings: &GpuSettings, info: &AdapterInfo, limits: &wgpu::Limits) -> u32 {
    let max_threads = (limits.max_storage_buffer_binding_size / (STATE_WORDS * 4))
        .min(u64::from(limits.max_compute_workgroups_per_dimension) * u64::from(WORKGROUP))
        as u32;
    settings
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
        * WORKGROUP
}

/// The words as the device reads them (every target wgpu runs on is little-endian).
fn bytes(words: &[u32]) -> &[u8] {
    bytemuck::cast_slice(words)
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
        let fault = watch_faults(&device);
        let layout = search_layout(&device);
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("search"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let threads = dispatch_threads(settings, &info, &limits);
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
            last_rows: settings.last_rows(),
            max_levels,
            work: Work::default(),
            trace: settings.trace(),
            fault,
            places: None,
            number_limit: stream::MAX_NUMBER,
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
    /// of 4, at most [`Device::max_levels`]).
    fn pipeline(&mut self, levels: u32) -> wgpu::ComputePipeline {
        let levels = levels.next_multiple_of(4).min(self.max_levels);
        if let Some((_, pipeline)) = self.pipelines.iter().find(|(l, _)| *l == levels) {
            return pipeline.clone();
        }
        let descriptor = wgpu::ShaderModuleDescriptor {
            label: Some("search"),
            source: wgpu::ShaderSource::Wgsl(self.stack.source(levels).into()),
        };
        // SAFETY: the shader indexes its buffers and stacks only within their bounds, and every
        // loop of it ends (its header comment gives the reasons): the indices rest on the
        // batch's shape, which the stream checks before placing every batch (`Split::check`)
        // against the device's deepest stacks (a dispatch's pipeline is as deep as its deepest
        // batch), and on `state` and `control`, which only the shader and the host's clears
        // write. Without wgpu's runtime checks (index clamps, a loop counter) the search loop
        // runs about a third faster on an NVIDIA GPU.
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
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: &[("LAST_TWO_ROWS", self.last_rows.constant())],
                    // The shader reads a stack slot only below the slots in use (restored or
                    // pushed first) and a row of `row_table` only after its sub-job's copy:
                    // nothing to clear at each workgroup's start.
                    zero_initialize_workgroup_memory: false,
                },
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
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
