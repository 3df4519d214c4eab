//! The GPU settings of the environment: `NQUEENS_GPU_ADAPTER` (an adapter's index or part of its
//! name), `NQUEENS_GPU_THREADS` (threads per dispatch), `NQUEENS_GPU_STACK` (`workgroup` or
//! `private`), `NQUEENS_GPU_LAST_ROWS` (`1` or `2`: the last rows of a search path counted by
//! popcount or in closed form) and `NQUEENS_GPU_TRACE` (`1`: a line per batch on stderr),
//! checked by [`read`] (no GPU type: built on every build, and by the fuzz target `args`) and
//! handed to the library before any command runs (the `gpu` build); and Mesa's device-selection
//! layer kept quiet where there is no Wayland session ([`quiet_device_select`]).

#[cfg(feature = "gpu")]
use nqueens::gpu::{self, GpuSettings, LastRows, Stack};
use nqueens_ui::human;

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

/// Where [`STACK_VAR`] puts the stacks (the library's `Stack`, by the same names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StackVar {
    /// `workgroup`.
    Workgroup,
    /// `private`.
    Private,
}

/// How [`LAST_ROWS_VAR`] counts the last rows (the library's `LastRows`, by the same names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastRowsVar {
    /// `1`.
    One,
    /// `2`.
    Two,
}

/// What the five variables ask for, checked; `None` where a variable is unset or blank (the
/// library's default). Read without the library's GPU types, so that it is checked (and
/// fuzzed) on every build; handed to the library on the `gpu` build ([`configure`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GpuVars {
    /// [`ADAPTER_VAR`], trimmed.
    pub adapter: Option<String>,
    /// [`THREADS_VAR`]: a positive number.
    pub threads: Option<u32>,
    /// [`STACK_VAR`].
    pub stack: Option<StackVar>,
    /// [`LAST_ROWS_VAR`].
    pub last_rows: Option<LastRowsVar>,
    /// [`TRACE_VAR`].
    pub trace: Option<bool>,
}

/// The five variables' values as `var` gives them (a name's value; `None`: unset), checked:
/// blank or unset is the library's default; a value that is not Unicode is read with `�` for
/// its invalid bytes (so it is refused, or names no adapter), as `NQUEENS_PROGRESS_SECONDS` is
/// read; the first value that is not understood, in the order [`THREADS_VAR`], [`STACK_VAR`],
/// [`LAST_ROWS_VAR`], [`TRACE_VAR`], is refused in one line, quoted and shortened when long.
pub fn read(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Result<GpuVars, String> {
    let var = |name: &str| human::variable_text(var(name).as_deref());
    let mut vars = GpuVars {
        adapter: var(ADAPTER_VAR),
        ..GpuVars::default()
    };
    if let Some(threads) = var(THREADS_VAR) {
        vars.threads = Some(match threads.parse::<u32>() {
            Ok(count) if count > 0 => count,
            _ => {
                return Err(format!(
                    "{THREADS_VAR}={} is not a positive thread count",
                    human::quoted(&threads)
                ));
            }
        });
    }
    if let Some(stack) = var(STACK_VAR) {
        vars.stack = Some(if stack.eq_ignore_ascii_case("workgroup") {
            StackVar::Workgroup
        } else if stack.eq_ignore_ascii_case("private") {
            StackVar::Private
        } else {
            return Err(format!(
                "{STACK_VAR}={}: expected workgroup or private",
                human::quoted(&stack)
            ));
        });
    }
    if let Some(rows) = var(LAST_ROWS_VAR) {
        vars.last_rows = Some(match rows.as_str() {
            "1" => LastRowsVar::One,
            "2" => LastRowsVar::Two,
            _ => {
                return Err(format!(
                    "{LAST_ROWS_VAR}={}: expected 1 or 2",
                    human::quoted(&rows)
                ));
            }
        });
    }
    if let Some(trace) = var(TRACE_VAR) {
        vars.trace = Some(match trace.as_str() {
            "1" => true,
            "0" => false,
            _ => {
                return Err(format!(
                    "{TRACE_VAR}={}: expected 1 or 0",
                    human::quoted(&trace)
                ));
            }
        });
    }
    Ok(vars)
}

#[cfg(feature = "gpu")]
impl GpuVars {
    /// The library's settings these ask for: its defaults where a variable was not set.
    pub fn settings(self) -> GpuSettings {
        let mut settings = GpuSettings::default();
        if let Some(adapter) = self.adapter {
            settings = settings.with_adapter(adapter);
        }
        if let Some(threads) = self.threads {
            settings = settings.with_threads(threads);
        }
        if let Some(stack) = self.stack {
            settings = settings.with_stack(match stack {
                StackVar::Workgroup => Stack::Workgroup,
                StackVar::Private => Stack::Private,
            });
        }
        if let Some(rows) = self.last_rows {
            settings = settings.with_last_rows(match rows {
                LastRowsVar::One => LastRows::One,
                LastRowsVar::Two => LastRows::Two,
            });
        }
        if let Some(trace) = self.trace {
            settings = settings.with_trace(trace);
        }
        settings
    }
}

/// Reads the five variables ([`read`]) and configures the library's GPU with them; a value
/// that is not understood is refused in one line.
#[cfg(feature = "gpu")]
pub fn configure() -> Result<(), String> {
    let vars = read(|name| std::env::var_os(name))?;
    gpu::configure(vars.settings());
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
#[cfg(feature = "gpu")]
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

#[cfg(test)]
mod tests {
    use super::*;

    fn read_from(vars: &[(&str, &str)]) -> Result<GpuVars, String> {
        read(|name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, value)| (*value).into())
        })
    }

    #[test]
    fn values_are_trimmed_and_blank_ones_are_the_defaults() {
        assert_eq!(read_from(&[]), Ok(GpuVars::default()));
        let blank = [
            ADAPTER_VAR,
            THREADS_VAR,
            STACK_VAR,
            LAST_ROWS_VAR,
            TRACE_VAR,
        ]
        .map(|n| (n, " \t"));
        assert_eq!(read_from(&blank), Ok(GpuVars::default()));
        let set = read_from(&[
            (ADAPTER_VAR, " llvmpipe "),
            (THREADS_VAR, " 4096\n"),
            (STACK_VAR, "PRIVATE"),
            (LAST_ROWS_VAR, "2 "),
            (TRACE_VAR, "0"),
        ]);
        let want = GpuVars {
            adapter: Some("llvmpipe".into()),
            threads: Some(4096),
            stack: Some(StackVar::Private),
            last_rows: Some(LastRowsVar::Two),
            trace: Some(false),
        };
        assert_eq!(set, Ok(want));
    }

    #[test]
    fn a_value_not_understood_is_refused_in_one_line() {
        for (var, value, why) in [
            (
                THREADS_VAR,
                "abc",
                "NQUEENS_GPU_THREADS=\"abc\" is not a positive thread count",
            ),
            (
                THREADS_VAR,
                "0",
                "NQUEENS_GPU_THREADS=\"0\" is not a positive thread count",
            ),
            (
                THREADS_VAR,
                "a\nb",
                "NQUEENS_GPU_THREADS=\"a\\nb\" is not a positive thread count",
            ),
            (
                STACK_VAR,
                "shared",
                "NQUEENS_GPU_STACK=\"shared\": expected workgroup or private",
            ),
            (
                LAST_ROWS_VAR,
                "3",
                "NQUEENS_GPU_LAST_ROWS=\"3\": expected 1 or 2",
            ),
            (
                TRACE_VAR,
                "yes",
                "NQUEENS_GPU_TRACE=\"yes\": expected 1 or 0",
            ),
        ] {
            assert_eq!(read_from(&[(var, value)]), Err(why.to_owned()));
        }
        // The first refused in the order the variables are read.
        let all = [
            (THREADS_VAR, "x"),
            (STACK_VAR, "y"),
            (LAST_ROWS_VAR, "z"),
            (TRACE_VAR, "w"),
        ];
        for skip in 0..all.len() {
            let why = read_from(&all[skip..]).unwrap_err();
            assert!(why.starts_with(all[skip].0), "{why}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_value_not_unicode_or_long_is_refused_as_the_progress_interval_is() {
        use std::os::unix::ffi::OsStrExt;
        let not_unicode = std::ffi::OsStr::from_bytes(b"1\xff").to_owned();
        let why = read(|name| (name == THREADS_VAR).then(|| not_unicode.clone())).unwrap_err();
        assert_eq!(
            why,
            "NQUEENS_GPU_THREADS=\"1\u{fffd}\" is not a positive thread count"
        );
        let long = "7".repeat(500);
        let why = read_from(&[(TRACE_VAR, &long)]).unwrap_err();
        assert!(why.chars().count() < 120 && why.contains('…'), "{why}");
    }

    #[cfg(feature = "gpu")]
    #[test]
    fn every_name_the_library_gives_is_read_as_its_own() {
        for &stack in Stack::ALL {
            let vars = read_from(&[(STACK_VAR, stack.name())]).unwrap();
            assert_eq!(vars.settings().stack(), stack);
        }
        for &rows in LastRows::ALL {
            let vars = read_from(&[(LAST_ROWS_VAR, rows.name())]).unwrap();
            assert_eq!(vars.settings().last_rows(), rows);
        }
        let vars = read_from(&[(ADAPTER_VAR, "1"), (THREADS_VAR, "64"), (TRACE_VAR, "1")]);
        let settings = vars.unwrap().settings();
        assert_eq!(settings.adapter(), Some("1"));
        assert_eq!((settings.threads(), settings.trace()), (Some(64), true));
        assert_eq!(GpuVars::default().settings(), GpuSettings::default());
    }
}
