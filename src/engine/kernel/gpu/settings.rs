//! The process's GPU settings: which adapter counts, how many threads a dispatch runs and where
//! the shader keeps its stacks. Set once by the program ([`configure`]) before its first GPU
//! count; a change closes the open device, and the next GPU count opens it with the new ones.

use std::sync::Mutex;

use super::last_rows::LastRows;
use super::stack::Stack;

/// Which adapter counts, how many threads a dispatch runs, and where the stacks live.
///
/// The default: the first adapter of [`adapters`](super::adapters) (the fastest kind), a thread
/// count that suits the adapter's kind, stacks in workgroup memory.
///
/// ```
/// use nqueens::gpu::{GpuSettings, Stack};
/// let settings = GpuSettings::default()
///     .with_adapter("llvmpipe")
///     .with_threads(1024)
///     .with_stack(Stack::Private);
/// assert_eq!(settings.adapter(), Some("llvmpipe"));
/// assert_eq!((settings.threads(), settings.stack()), (Some(1024), Stack::Private));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GpuSettings {
    adapter: Option<String>,
    threads: Option<u32>,
    stack: Stack,
    last_rows: LastRows,
    trace: bool,
}

impl GpuSettings {
    /// The adapter to count on: its index in [`adapters`](super::adapters) (`"1"`) or part
    /// of its name, case-insensitive (`"llvmpipe"`, `"H100"`). Blank: the first adapter.
    #[must_use]
    pub fn with_adapter(self, adapter: impl Into<String>) -> GpuSettings {
        let adapter = adapter.into();
        let adapter = (!adapter.trim().is_empty()).then(|| adapter.trim().to_owned());
        GpuSettings { adapter, ..self }
    }

    /// Threads per dispatch, rounded down to whole workgroups and kept within what the device
    /// holds.
    #[must_use]
    pub fn with_threads(self, threads: u32) -> GpuSettings {
        GpuSettings {
            threads: Some(threads),
            ..self
        }
    }

    /// Where the shader keeps its threads' stacks.
    #[must_use]
    pub fn with_stack(self, stack: Stack) -> GpuSettings {
        GpuSettings { stack, ..self }
    }

    /// How the shader counts the last rows of a search path.
    #[must_use]
    pub fn with_last_rows(self, last_rows: LastRows) -> GpuSettings {
        GpuSettings { last_rows, ..self }
    }

    /// How the last rows are counted.
    #[must_use]
    pub fn last_rows(&self) -> LastRows {
        self.last_rows
    }

    /// Whether the device traces its work on stderr: a line per batch (its sub-jobs, stack
    /// levels, place and when it was done) and one per stream (its dispatches, steps, how busy
    /// the threads were ([`Work::busy`](super::Work::busy)) and its time).
    #[must_use]
    pub fn with_trace(self, trace: bool) -> GpuSettings {
        GpuSettings { trace, ..self }
    }

    /// Whether batches are traced on stderr.
    #[must_use]
    pub fn trace(&self) -> bool {
        self.trace
    }

    /// The adapter asked for (`None`: the first one found).
    #[must_use]
    pub fn adapter(&self) -> Option<&str> {
        self.adapter.as_deref()
    }

    /// The threads per dispatch asked for (`None`: what suits the adapter's kind).
    #[must_use]
    pub fn threads(&self) -> Option<u32> {
        self.threads
    }

    /// Where the stacks live.
    #[must_use]
    pub fn stack(&self) -> Stack {
        self.stack
    }
}

/// The settings the next device is opened with.
static SETTINGS: Mutex<Option<GpuSettings>> = Mutex::new(None);

/// Sets the process's GPU settings. A device already open with other settings is closed (after
/// any count on it ends); the next GPU count opens one with these.
///
/// ```
/// use nqueens::gpu::{self, GpuSettings};
/// gpu::configure(GpuSettings::default().with_threads(4096));
/// assert_eq!(gpu::settings().threads(), Some(4096));
/// gpu::configure(GpuSettings::default());
/// ```
pub fn configure(settings: GpuSettings) {
    let changed = {
        let mut current = SETTINGS.lock().unwrap_or_else(|p| p.into_inner());
        let changed = current.as_ref().unwrap_or(&GpuSettings::default()) != &settings;
        *current = Some(settings);
        changed
    };
    if changed {
        super::close_device();
    }
}

/// The process's GPU settings: the default until [`configure`] sets others.
///
/// ```
/// use nqueens::gpu::{self, Stack};
/// assert_eq!(gpu::settings().stack(), Stack::Workgroup);
/// ```
pub fn settings() -> GpuSettings {
    SETTINGS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone()
        .unwrap_or_default()
}
