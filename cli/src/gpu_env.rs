//! The GPU settings of the environment: `NQUEENS_GPU_ADAPTER` (an adapter's index or part of its
//! name), `NQUEENS_GPU_THREADS` (threads per dispatch), `NQUEENS_GPU_STACK` (`workgroup` or
//! `private`), `NQUEENS_GPU_LAST_ROWS` (`1` or `2`: the last rows of a search path counted by
//! popcount or in closed form) and `NQUEENS_GPU_TRACE` (`1`: a line per batch on stderr), handed
//! to the library before any command runs.

use nqueens::gpu::{self, GpuSettings, LastRows, Stack};

/// The variable that picks an adapter: its index in `nqueens --version`'s list or part of its
/// name.
pub const ADAPTER_VAR: &str = "NQUEENS_GPU_ADAPTER";
/// The variable that sets the threads of a dispatch (a multiple of 64).
pub const THREADS_VAR: &str = "NQUEENS_GPU_THREADS";
/// The variable that picks the stacks' memory: `workgroup` or `private`.
pub const STACK_VAR: &str = "NQUEENS_GPU_STACK";
/// The variable that picks how the last rows of a search path are counted: `1` (by popcount,
/// the default) or `2` (the last two in closed form).
pub const LAST_ROWS_VAR: &str = "NQUEENS_GPU_LAST_ROWS";
/// The variable that traces each GPU batch on stderr: `1` (or `0`, the default: no trace).
pub const TRACE_VAR: &str = "NQUEENS_GPU_TRACE";

/// Reads the five variables (blank or unset: the library's default) and configures the
/// library's GPU with them; a value that is not understood is refused in one line.
pub fn configure() -> Result<(), String> {
    let var = |name: &str| {
        std::env::var(name)
            .ok()
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    };
    let mut settings = GpuSettings::default();
    if let Some(adapter) = var(ADAPTER_VAR) {
        settings = settings.with_adapter(adapter);
    }
    if let Some(threads) = var(THREADS_VAR) {
        let threads = threads
            .parse::<u32>()
            .ok()
            .filter(|&t| t > 0)
            .ok_or_else(|| format!("{THREADS_VAR}={threads:?} is not a positive thread count"))?;
        settings = settings.with_threads(threads);
    }
    if let Some(stack) = var(STACK_VAR) {
        let stack = stack
            .parse::<Stack>()
            .map_err(|_| format!("{STACK_VAR}={stack:?}: expected workgroup or private"))?;
        settings = settings.with_stack(stack);
    }
    if let Some(rows) = var(LAST_ROWS_VAR) {
        let rows = rows
            .parse::<LastRows>()
            .map_err(|_| format!("{LAST_ROWS_VAR}={rows:?}: expected 1 or 2"))?;
        settings = settings.with_last_rows(rows);
    }
    if let Some(trace) = var(TRACE_VAR) {
        let trace = match trace.as_str() {
            "1" => true,
            "0" => false,
            _ => return Err(format!("{TRACE_VAR}={trace:?}: expected 1 or 0")),
        };
        settings = settings.with_trace(trace);
    }
    gpu::configure(settings);
    Ok(())
}
