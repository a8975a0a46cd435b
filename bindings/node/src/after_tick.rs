//! Running native code once the current turn of a thread's event loop has
//! ended, invisibly to JavaScript: a libuv idle handle of the addon's own.
//!
//! Why not `setImmediate` from `lib/pool.js`, as the warm-up once was: an
//! immediate made when the package loads is an async resource whose `init`
//! no hook saw (the app enables its hooks after its `require`s), so its
//! `before` reached async_hooks as that of an unknown resource (Node's own
//! test collector refuses one), and run from a domain the app had entered
//! meanwhile it made Node warn DEP0097 (`processImmediate` on `process`
//! with a domain). A libuv handle of the addon's own runs no JavaScript and
//! makes no async resource: the app sees nothing.
//!
//! The handle is unref'd (it keeps no loop alive: a loop that has nothing
//! else to do exits without running it, as an unref'd immediate would), and
//! is closed after it ran or, where the thread's environment ends first (a
//! `worker_thread` that exits at once), by an async cleanup hook, which
//! Node waits for before it closes the loop: a loop is never closed with
//! this handle open.

#![allow(unsafe_code)]

use napi::Env;
use napi::sys;
use std::os::raw::c_void;

use crate::uv::*;

/// One scheduled run: the handle's memory, the task, and the cleanup hook
/// that closes it should the environment end first. Owned by the handle
/// (`Box::into_raw`) from [`schedule`] until its close callback frees it.
struct Pending {
    /// The handle: `uv_handle_size(UV_IDLE)` bytes, 8-aligned (libuv's
    /// handles hold pointers and 64-bit fields, nothing more aligned).
    memory: Box<[u64]>,
    /// What runs, once; dropped unrun where the environment ends first.
    task: Option<Box<dyn FnOnce()>>,
    /// Set once `uv_close` was called: never twice.
    closing: bool,
    /// The environment's async cleanup hook, removed when the handle is closed.
    hook: sys::napi_async_cleanup_hook_handle,
}

impl Pending {
    fn handle(&mut self) -> *mut UvHandle {
        self.memory.as_mut_ptr().cast()
    }
}

/// Runs `task` (native code only: it must not call into JavaScript) once
/// the current turn of `env`'s event loop has ended, at the loop's next idle
/// phase: after this turn's check phase (where Node emits the async_hooks
/// `destroy`s queued in it), before the next turn's poll. Fails, dropping
/// `task` unrun, where libuv or napi refuses.
pub(crate) fn schedule(env: &Env, task: Box<dyn FnOnce()>) -> napi::Result<()> {
    let event_loop = env.get_uv_event_loop()?;
    let pending = Box::into_raw(Box::new(Pending {
        memory: handle_memory(UV_IDLE),
        task: Some(task),
        closing: false,
        hook: std::ptr::null_mut(),
    }));
    // SAFETY: `pending` is a live allocation owned here until the handle is
    // initialised; `handle()` points at `size` bytes of it, 8-aligned, that
    // nothing else uses; `event_loop` is the running loop of this thread
    // (napi's), and this runs on that thread.
    let status = unsafe {
        let handle = (*pending).handle();
        let status = uv_idle_init(event_loop, handle);
        if status != 0 {
            drop(Box::from_raw(pending));
            return Err(napi::Error::from_reason(format!(
                "sluice: uv_idle_init failed ({status})"
            )));
        }
        // The callbacks find their `Pending` in the handle's `data`.
        uv_handle_set_data(handle, pending.cast::<c_void>());
        uv_idle_start(handle, on_idle);
        uv_unref(handle);
        sys::napi_add_async_cleanup_hook(
            env.raw(),
            Some(on_cleanup),
            pending.cast::<c_void>(),
            &mut (*pending).hook,
        )
    };
    if status != sys::Status::napi_ok {
        // The handle stays scheduled; it closes itself after it runs.
        return Err(napi::Error::from_reason(
            "sluice: napi_add_async_cleanup_hook failed",
        ));
    }
    Ok(())
}

/// The `Pending` that owns `handle` (its `data`, set by `schedule`).
///
/// SAFETY (of the callers): `handle` is one `schedule` initialised, not yet
/// closed.
unsafe fn owner(handle: *mut UvHandle) -> *mut Pending {
    // SAFETY: as the callers promise; `uv_handle_get_data` reads one field.
    unsafe { uv_handle_get_data(handle).cast::<Pending>() }
}

/// Stops and closes the handle once.
///
/// SAFETY (of the callers): `pending` is live (freed only by `on_closed`)
/// and its handle initialised, on the loop's thread.
unsafe fn close(pending: *mut Pending) {
    // SAFETY: as the callers promise.
    unsafe {
        if (*pending).closing {
            return;
        }
        (*pending).closing = true;
        let handle = (*pending).handle();
        uv_idle_stop(handle);
        uv_close(handle, on_closed);
    }
}

unsafe extern "C" fn on_idle(handle: *mut UvHandle) {
    // SAFETY: libuv calls this on the loop's thread with a handle
    // `schedule` initialised; its `Pending` lives until `on_closed`, which
    // runs later (libuv calls close callbacks on a later phase).
    unsafe {
        let pending = owner(handle);
        let task = (*pending).task.take();
        close(pending);
        if let Some(task) = task {
            task();
        }
    }
}

unsafe extern "C" fn on_cleanup(_hook: sys::napi_async_cleanup_hook_handle, arg: *mut c_void) {
    // SAFETY: `arg` is the `Pending` given to `napi_add_async_cleanup_hook`;
    // the hook is removed (in `on_closed`) before it is freed, so it is live.
    unsafe { close(arg.cast::<Pending>()) }
}

unsafe extern "C" fn on_closed(handle: *mut UvHandle) {
    // SAFETY: libuv is done with the handle (this is its close callback),
    // so its memory and `Pending` can go; the hook, if it was registered, is
    // removed first so that Node never calls it with a freed argument.
    unsafe {
        let pending = owner(handle);
        let hook = (*pending).hook;
        if !hook.is_null() {
            sys::napi_remove_async_cleanup_hook(hook);
        }
        drop(Box::from_raw(pending));
    }
}
