//! The process's one handler of SIGINT, SIGTERM and SIGHUP. Every part of the command that
//! reacts to an interrupt says here what the next one does: a long count raises its stop flag,
//! a command replacing files removes its temporary files, `watch` ends its view.
//!
//! The handler runs on a thread of its own, started first thing in `main`, before the arguments
//! are read ([`start`]: a thread that cannot start is an error of its own, not a crash), and
//! [`received`] tells the action which signal came (so that a SIGTERM sent by a scheduler is not
//! answered with "press Ctrl-C"). Until a command asks for an action, a signal ends the process
//! as interrupted (exit 130). A signal in the moments before `main` runs, while the system loads
//! the program (about a millisecond), still ends it by the signal's default action: no handler
//! can be installed before the program runs, and nothing has been written yet.
//!
//! A signal that was ignored when the process started stays ignored ([`ignored`]): `nohup`
//! ignores SIGHUP so that a count outlives its terminal, and a shell without job control ignores
//! SIGINT (and SIGQUIT) in the jobs it starts with `&`, so that Ctrl-C stops only the foreground.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// What a signal does, shared with the handler thread.
type Action = Arc<dyn Fn() + Send + Sync>;

static ACTION: Mutex<Option<Action>> = Mutex::new(None);

/// The last signal received, as [`Signal`]'s discriminant.
static RECEIVED: AtomicU8 = AtomicU8::new(Signal::Interrupt as u8);

/// A signal that ends or stops the command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// SIGINT: Ctrl-C at the terminal.
    Interrupt = 0,
    /// SIGTERM: sent by another program (`kill`, a batch scheduler).
    Terminate = 1,
    /// SIGHUP: the terminal went away.
    HangUp = 2,
}

impl Signal {
    /// How the user sends this signal again: `press Ctrl-C again`, `send SIGTERM again`.
    pub fn again(self) -> &'static str {
        match self {
            Signal::Interrupt => "press Ctrl-C again",
            Signal::Terminate => "send SIGTERM again",
            Signal::HangUp => "send SIGHUP again",
        }
    }
}

/// The signal the action that runs now was called for (SIGINT before any signal came).
pub fn received() -> Signal {
    match RECEIVED.load(Ordering::SeqCst) {
        1 => Signal::Terminate,
        2 => Signal::HangUp,
        _ => Signal::Interrupt,
    }
}

/// Makes `action` what every following interrupt does, in place of what an earlier call set,
/// installing the process's handler on the first call.
pub fn on_interrupt(action: impl Fn() + Send + Sync + 'static) {
    *ACTION.lock().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(action));
    // Started by `main` before any work; where that failed, the command was refused.
    let _ = start();
}

/// Installs the process's handler (once): the error says why it could not be, e.g. `cannot
/// start a thread: Resource temporarily unavailable (os error 11)`.
pub fn start() -> Result<(), String> {
    static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();
    INSTALLED.get_or_init(install).clone()
}

/// Runs the action set now for `signal`.
fn act(signal: Signal) {
    RECEIVED.store(signal as u8, Ordering::SeqCst);
    // Cloned out of the lock, so that an action may itself set the next one.
    let action = ACTION.lock().unwrap_or_else(|e| e.into_inner()).clone();
    match action {
        Some(action) => action(),
        // Before the command asked for anything: interrupted before any work.
        None => std::process::exit(130),
    }
}

/// Whether `signal` is ignored now (`SIG_IGN`): asked before a handler is installed, this is
/// what the process was started with (`nohup`, a background job of a shell without job
/// control), and the handler is then not installed, so that the signal stays ignored.
#[cfg(unix)]
pub fn ignored(signal: libc::c_int) -> bool {
    // SAFETY: `sigaction` with a null new action changes nothing and only writes the current
    // one into `current`, a valid `sigaction` (all zeros is a valid value of this plain C
    // struct); an invalid signal number fails with EINVAL, read here as "not ignored".
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut current) == 0
            && current.sa_sigaction == libc::SIG_IGN
    }
}

/// The one handler of the process: a thread that waits for the signals, those ignored at the
/// start left ignored.
#[cfg(unix)]
fn install() -> Result<(), String> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let handled = [SIGINT, SIGTERM, SIGHUP]
        .into_iter()
        .filter(|&signal| !ignored(signal));
    let mut signals = signal_hook::iterator::Signals::new(handled)
        .map_err(|e| format!("cannot watch for signals: {e}"))?;
    let handle = signals.handle();
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                act(match signal {
                    SIGTERM => Signal::Terminate,
                    SIGHUP => Signal::HangUp,
                    _ => Signal::Interrupt,
                });
            }
        })
        .map(drop)
        .map_err(|e| {
            // No thread to take them: the signals keep their default action.
            handle.close();
            format!("cannot start a thread: {e}")
        })
}

/// The one handler of the process (Ctrl-C and the console's close events).
#[cfg(not(unix))]
fn install() -> Result<(), String> {
    ctrlc::set_handler(|| act(Signal::Interrupt))
        .map_err(|e| format!("cannot watch for Ctrl-C: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_terminate_signal_is_not_answered_with_ctrl_c() {
        assert_eq!(Signal::Interrupt.again(), "press Ctrl-C again");
        assert!(!Signal::Terminate.again().contains("Ctrl-C"));
        assert!(!Signal::HangUp.again().contains("Ctrl-C"));
    }
}
