//! The libuv functions the addon calls: handles of its own on the thread's
//! event loop (`after_tick`'s idle handle, `turn`'s prepare and check
//! handles). They are exported by the node binary that loads the addon (as
//! the napi functions are) and resolved when the addon is loaded.

#![allow(unsafe_code)]

use napi::sys;
use std::os::raw::{c_int, c_void};

/// libuv's handles, opaque: allocated with the size libuv says
/// (`uv_handle_size`), touched only through libuv's functions.
#[repr(C)]
pub(crate) struct UvHandle {
    _opaque: [u8; 0],
}

/// libuv's `uv_handle_type` values the addon uses (ASYNC 1, CHECK 2,
/// FS_EVENT 3, FS_POLL 4, HANDLE 5, IDLE 6, NAMED_PIPE 7, POLL 8, PREPARE 9),
/// stable across libuv 1.x, the ABI of every Node line the package
/// supports.
pub(crate) const UV_CHECK: c_int = 2;
pub(crate) const UV_IDLE: c_int = 6;
pub(crate) const UV_PREPARE: c_int = 9;

pub(crate) type UvCallback = unsafe extern "C" fn(*mut UvHandle);

unsafe extern "C" {
    pub(crate) fn uv_handle_size(kind: c_int) -> usize;
    pub(crate) fn uv_idle_init(event_loop: *mut sys::uv_loop_s, idle: *mut UvHandle) -> c_int;
    pub(crate) fn uv_idle_start(idle: *mut UvHandle, cb: UvCallback) -> c_int;
    pub(crate) fn uv_idle_stop(idle: *mut UvHandle) -> c_int;
    pub(crate) fn uv_prepare_init(event_loop: *mut sys::uv_loop_s, prepare: *mut UvHandle)
    -> c_int;
    pub(crate) fn uv_prepare_start(prepare: *mut UvHandle, cb: UvCallback) -> c_int;
    pub(crate) fn uv_prepare_stop(prepare: *mut UvHandle) -> c_int;
    pub(crate) fn uv_check_init(event_loop: *mut sys::uv_loop_s, check: *mut UvHandle) -> c_int;
    pub(crate) fn uv_check_start(check: *mut UvHandle, cb: UvCallback) -> c_int;
    pub(crate) fn uv_check_stop(check: *mut UvHandle) -> c_int;
    pub(crate) fn uv_unref(handle: *mut UvHandle);
    pub(crate) fn uv_close(handle: *mut UvHandle, cb: UvCallback);
    pub(crate) fn uv_handle_set_data(handle: *mut UvHandle, data: *mut c_void);
    pub(crate) fn uv_handle_get_data(handle: *const UvHandle) -> *mut c_void;
}

/// Zeroed memory for one handle of `kind`: `uv_handle_size` bytes,
/// 8-aligned (libuv's handles hold pointers and 64-bit fields, nothing more
/// aligned).
pub(crate) fn handle_memory(kind: c_int) -> Box<[u64]> {
    // SAFETY: `uv_handle_size` only reads the argument, a valid handle type.
    let size = unsafe { uv_handle_size(kind) };
    vec![0u64; size.div_ceil(std::mem::size_of::<u64>())].into_boxed_slice()
}
