//! The process's one handler of SIGINT, SIGTERM and SIGHUP. `ctrlc` allows a single handler per
//! process, so every part of the command that reacts to an interrupt says here what the next
//! one does: a long count raises its stop flag, a command replacing files removes its temporary
//! files, `watch` ends its view.
//!
//! The handler runs on a thread of its own. Until a command asks for one, the signals keep
//! their default action (the process ends).

use std::sync::{Arc, Mutex, Once};

/// What a signal does, shared with the handler thread.
type Action = Arc<dyn Fn() + Send + Sync>;

static ACTION: Mutex<Option<Action>> = Mutex::new(None);

/// Makes `action` what every following interrupt does, in place of what an earlier call set,
/// installing the process's handler on the first call.
pub fn on_interrupt(action: impl Fn() + Send + Sync + 'static) {
    static HANDLER: Once = Once::new();
    *ACTION.lock().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(action));
    HANDLER.call_once(|| {
        // The one call in the process: it cannot find a handler already set.
        let _ = ctrlc::set_handler(|| {
            // Cloned out of the lock, so that an action may itself set the next one.
            let action = ACTION.lock().unwrap_or_else(|e| e.into_inner()).clone();
            if let Some(action) = action {
                action();
            }
        });
    });
}
