//! The GPU settings of the environment: `NQUEENS_GPU_ADAPTER` (an adapter's index or part of its
//! name), `NQUEENS_GPU_THREADS` (threads per dispatch), `NQUEENS_GPU_STACK` (`workgroup` or
//! `private`), `NQUEENS_GPU_LAST_ROWS` (`1` or `2`: the last rows of a search path counted by
//! popcount or in closed form) and `NQUEENS_GPU_TRACE` (`1`: a line per batch on stderr), handed
//! to the library before any command runs; and Mesa's device-selection layer kept quiet where
//! there is no Wayland session ([`quiet_device_select`]).

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

/// Turns off Mesa's device-selection layer (`VK_LAYER_MESA_device_select`, an implicit Vulkan
/// layer) where there is no Wayland session to find a display's GPU in: there the layer's
/// attempt to connect, made each time the adapters are listed, only fails and makes libwayland
/// write `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` on stderr, whatever
/// `-q` says (a batch job, ssh, a container). It is turned off the way its manifest provides,
/// `NODEVICE_SELECT=1`, unless the user chose a device through it (`MESA_VK_DEVICE_SELECT`) or
/// set `NODEVICE_SELECT`; the library orders the adapters itself either way. No session:
/// neither `XDG_RUNTIME_DIR` nor `WAYLAND_DISPLAY` is an absolute path (what libwayland needs)
/// and `WAYLAND_SOCKET` is unset.
///
/// Called first in `main`, before any thread starts and before the arguments are parsed (the
/// parser lists the adapters to check a `--kernel`).
pub fn quiet_device_select() {
    #[cfg(target_os = "linux")]
    {
        let absolute = |name: &str| {
            std::env::var_os(name).is_some_and(|path| std::path::Path::new(&path).is_absolute())
        };
        let session = absolute("XDG_RUNTIME_DIR")
            || absolute("WAYLAND_DISPLAY")
            || std::env::var_os("WAYLAND_SOCKET").is_some();
        let chosen = ["MESA_VK_DEVICE_SELECT", "NODEVICE_SELECT"]
            .iter()
            .any(|name| std::env::var_os(name).is_some());
        if !session && !chosen {
            // SAFETY: called first in `main`, before any thread is started, so no other thread
            // reads or writes the environment meanwhile.
            unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
        }
    }
}
