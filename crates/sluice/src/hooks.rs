//! The builder's hooks: code of the user's run on worker threads as they
//! start and stop ([`Builder::on_thread_start`](crate::Builder::on_thread_start),
//! [`on_thread_stop`](crate::Builder::on_thread_stop)) and when a task
//! panics ([`Builder::panic_handler`](crate::Builder::panic_handler)).

use crate::lane::Lane;
use std::fmt;
use std::sync::Arc;

/// A hook run on a worker thread.
pub(crate) type ThreadHook = Arc<dyn Fn() + Send + Sync>;
/// The panic handler: the task's lane and its panic message.
pub(crate) type PanicHook = Arc<dyn Fn(Lane, &str) + Send + Sync>;

/// Every hook of a pool.
#[derive(Clone, Default)]
pub(crate) struct Hooks {
    pub(crate) start: Option<ThreadHook>,
    pub(crate) stop: Option<ThreadHook>,
    pub(crate) panic: Option<PanicHook>,
}

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hooks")
            .field("on_thread_start", &self.start.is_some())
            .field("on_thread_stop", &self.stop.is_some())
            .field("panic_handler", &self.panic.is_some())
            .finish()
    }
}

/// Runs the start hook now and the stop hook when dropped: a worker holds
/// one for its whole life, so the stop hook runs however it exits.
pub(crate) struct ThreadScope<'a>(&'a Hooks);

impl<'a> ThreadScope<'a> {
    pub(crate) fn enter(hooks: &'a Hooks) -> Self {
        if let Some(start) = &hooks.start {
            start();
        }
        ThreadScope(hooks)
    }
}

impl Drop for ThreadScope<'_> {
    fn drop(&mut self) {
        if let Some(stop) = &self.0.stop {
            stop();
        }
    }
}
