//! A loop turn's submissions, handed to the pool together: a turn's first
//! calls on a lane, as many as the lane has threads, go to it at once (a
//! lone call, or a short burst the lane's threads can take on together,
//! waits for nothing), and the calls after them in the same turn, which
//! would queue behind those, are gathered per lane in a
//! [`sluice::DetachedBatch`]: handed over 32 at a time and, for the rest,
//! when the turn ends.
//!
//! Why: each task handed over alone touches the lane's shared words (its
//! depth, the queue's tail, the workers' counters) while the lane's
//! workers are popping from them, on the other cores. During a burst (1000
//! `fs.stat`s in one turn) every such touch moved a cache line between
//! cores, and the loop's thread, the one that makes the burst, paid for it:
//! a `sluice.ping()`'s submission took 0.86 µs with the workers running
//! and 0.31 µs with them held off the loop's core (`docs/npm.md`, "Where
//! the time goes"). A batch touches those words once per part.
//!
//! "When the turn ends" is before the loop can next block: two libuv
//! handles of the addon's own, a prepare handle (run just before the loop
//! polls for I/O, after timers) and a check handle (just after the poll's
//! callbacks, where most calls are made), both unref'd (they keep no loop
//! alive) and running no JavaScript (no async resource: the app sees
//! nothing). A turn's gathered calls are handed over at whichever comes
//! first, so none waits past the loop's next sleep, and none waits for
//! JavaScript that runs in a later phase. What a gathered call can wait
//! for is the rest of its own turn: a turn that makes a burst and then
//! runs long synchronous JavaScript starts the calls past the lane's
//! threads (up to 31 of them) when that JavaScript is done.
//!
//! Only unbounded lanes gather: a bounded lane answers a full queue with a
//! `"busy"` failure at the call, which a deferred hand-over could not give.
//! `spawn_first` work (a zlib stream's chunk) is never gathered. A thread
//! whose handles could not be made, or whose environment is ending,
//! submits every call at once, as before.

#![allow(unsafe_code)]

use crate::outcome::Done;
use crate::pool::Call;
use napi::Env;
use napi::sys;
use sluice::{DetachedBatch, Lane, Pool};
use std::cell::RefCell;
use std::os::raw::c_void;

use crate::uv::*;

/// How many gathered calls of one lane are handed over together before the
/// turn ends: the pool's own `spawn_batch` part, small enough that the
/// workers start on the first ones while the loop makes the rest.
const PART: usize = 32;

/// This thread's turn: whether the end-of-turn handles run, how many calls
/// went out at once this turn, and what is gathered.
struct Turn {
    /// The handles are running: a gathered call is handed over before the
    /// loop next blocks. False before [`install`] and once the
    /// environment's cleanup closed them.
    live: bool,
    /// The calls submitted at once since the turn began, by lane.
    direct: [usize; 3],
    /// The calls gathered this turn, by lane.
    batches: [Option<DetachedBatch>; 3],
}

thread_local! {
    static TURN: RefCell<Turn> = const {
        RefCell::new(Turn { live: false, direct: [0; 3], batches: [None, None, None] })
    };
}

/// Gathers `call` for `lane` when this turn already submitted `at_once`
/// calls to the lane (`None`: a bounded lane, which never gathers);
/// otherwise gives it back for the caller to submit at once, counting it.
pub(crate) fn gather<W>(
    pool: &Pool,
    lane: Lane,
    at_once: Option<usize>,
    call: Call<W>,
) -> Option<Call<W>>
where
    W: FnOnce() -> Done + Send + 'static,
{
    let Some(at_once) = at_once else {
        return Some(call);
    };
    TURN.with_borrow_mut(|turn| {
        if !turn.live {
            return Some(call);
        }
        let i = lane_index(lane);
        if turn.direct[i] < at_once {
            turn.direct[i] += 1;
            return Some(call);
        }
        let batch = turn.batches[i].get_or_insert_with(|| pool.detached_batch(lane));
        batch.spawn(move || call.run());
        if batch.len() >= PART {
            batch.submit();
        }
        None
    })
}

/// `lane`'s place in [`Lane::ALL`], the order of [`Turn::batches`].
pub(crate) fn lane_index(lane: Lane) -> usize {
    Lane::ALL.iter().position(|&l| l == lane).unwrap_or(0)
}

/// Hands over what this turn gathered, and begins a new turn. Runs twice
/// per turn of the loop: a turn that gathered nothing costs one look.
fn end_turn() {
    // Taken out of the cell first: a submit runs no JavaScript and never
    // calls back here, but nothing is borrowed while the pool works.
    // `try_with`: this runs from libuv's callbacks and the environment's
    // cleanup, which must not panic, even at a thread's end.
    let taken = TURN.try_with(|turn| {
        let mut turn = turn.borrow_mut();
        turn.direct = [0; 3];
        let gathered = turn
            .batches
            .iter()
            .any(|b| b.as_ref().is_some_and(|b| !b.is_empty()));
        gathered.then(|| std::mem::take(&mut turn.batches))
    });
    let Ok(Some(mut batches)) = taken else {
        return;
    };
    for batch in batches.iter_mut().flatten() {
        batch.submit();
    }
    // Kept for the next turn (their buffers stay allocated).
    let _ = TURN.try_with(|turn| {
        for (mine, kept) in turn.borrow_mut().batches.iter_mut().zip(batches) {
            if mine.is_none() {
                *mine = kept;
            }
        }
    });
}

/// The two handles of a thread: memory for each, the environment's async
/// cleanup hook, and how many are still open. Owned by the handles
/// (`Box::into_raw`) from [`install`] until the last close callback frees
/// it.
struct Handles {
    /// `uv_handle_size` bytes each, 8-aligned (libuv's handles hold
    /// pointers and 64-bit fields, nothing more aligned).
    prepare: Box<[u64]>,
    check: Box<[u64]>,
    /// Handles initialised and not yet closed.
    open: u8,
    /// Set once `uv_close` was called on both: never twice.
    closing: bool,
    /// The environment's async cleanup hook, removed when the last handle
    /// is closed.
    hook: sys::napi_async_cleanup_hook_handle,
}

/// Starts this thread's end-of-turn handles on `env`'s loop, once per
/// thread (a second copy of the package on the thread shares them). A
/// refusal leaves the thread submitting every call at once.
pub(crate) fn install(env: &Env) {
    if TURN.with_borrow(|turn| turn.live) {
        return;
    }
    let Ok(event_loop) = env.get_uv_event_loop() else {
        return;
    };
    let handles = Box::into_raw(Box::new(Handles {
        prepare: handle_memory(UV_PREPARE),
        check: handle_memory(UV_CHECK),
        open: 0,
        closing: false,
        hook: std::ptr::null_mut(),
    }));
    // SAFETY: `handles` is a live allocation owned here until a handle is
    // initialised; each handle's memory is its own `uv_handle_size` bytes,
    // 8-aligned, that nothing else uses; `event_loop` is the running loop
    // of this thread (napi's), and this runs on that thread. A handle once
    // initialised is freed only through `uv_close` (`on_closed`).
    unsafe {
        let prepare = (*handles).prepare.as_mut_ptr().cast::<UvHandle>();
        let check = (*handles).check.as_mut_ptr().cast::<UvHandle>();
        if uv_prepare_init(event_loop, prepare) != 0 {
            drop(Box::from_raw(handles));
            return;
        }
        (*handles).open = 1;
        uv_handle_set_data(prepare, handles.cast::<c_void>());
        if uv_check_init(event_loop, check) != 0 {
            close(handles);
            return;
        }
        (*handles).open = 2;
        uv_handle_set_data(check, handles.cast::<c_void>());
        let status = sys::napi_add_async_cleanup_hook(
            env.raw(),
            Some(on_cleanup),
            handles.cast::<c_void>(),
            &mut (*handles).hook,
        );
        if status != sys::Status::napi_ok {
            // Without the hook the handles could outlive the environment.
            (*handles).hook = std::ptr::null_mut();
            close(handles);
            return;
        }
        uv_prepare_start(prepare, on_turn_end);
        uv_check_start(check, on_turn_end);
        uv_unref(prepare);
        uv_unref(check);
    }
    TURN.with_borrow_mut(|turn| turn.live = true);
}

/// The `Handles` that own `handle` (its `data`, set by `install`).
///
/// SAFETY (of the callers): `handle` is one `install` initialised, and its
/// `Handles` not yet freed.
unsafe fn owner(handle: *mut UvHandle) -> *mut Handles {
    // SAFETY: as the callers promise; `uv_handle_get_data` reads one field.
    unsafe { uv_handle_get_data(handle).cast::<Handles>() }
}

/// Stops gathering, hands over what is gathered, and closes the open
/// handles, once.
///
/// SAFETY (of the callers): `handles` is live (freed only by `on_closed`),
/// on the loop's thread; its first `open` handles are initialised.
unsafe fn close(handles: *mut Handles) {
    let _ = TURN.try_with(|turn| turn.borrow_mut().live = false);
    end_turn();
    // SAFETY: as the callers promise.
    unsafe {
        if (*handles).closing {
            return;
        }
        (*handles).closing = true;
        let prepare = (*handles).prepare.as_mut_ptr().cast::<UvHandle>();
        let check = (*handles).check.as_mut_ptr().cast::<UvHandle>();
        let open = (*handles).open;
        if open == 0 {
            drop(Box::from_raw(handles));
            return;
        }
        uv_prepare_stop(prepare);
        uv_close(prepare, on_closed);
        if open == 2 {
            uv_check_stop(check);
            uv_close(check, on_closed);
        }
    }
}

unsafe extern "C" fn on_turn_end(_handle: *mut UvHandle) {
    end_turn();
}

unsafe extern "C" fn on_cleanup(_hook: sys::napi_async_cleanup_hook_handle, arg: *mut c_void) {
    // SAFETY: `arg` is the `Handles` given to `napi_add_async_cleanup_hook`;
    // the hook is removed (in `on_closed`) before it is freed, so it is live.
    unsafe { close(arg.cast::<Handles>()) }
}

unsafe extern "C" fn on_closed(handle: *mut UvHandle) {
    // SAFETY: libuv is done with `handle` (this is its close callback). The
    // last one to close frees the `Handles`, removing the hook first so that
    // Node never calls it with a freed argument.
    unsafe {
        let handles = owner(handle);
        (*handles).open -= 1;
        if (*handles).open > 0 {
            return;
        }
        let hook = (*handles).hook;
        if !hook.is_null() {
            sys::napi_remove_async_cleanup_hook(hook);
        }
        drop(Box::from_raw(handles));
    }
}
