//! The native half of the `sluice` npm package: a Node-API addon (napi-rs)
//! that runs Node's pool work on sluice's lanes.
//!
//! `index.js` checks every argument, builds Node's result shapes and error
//! objects, and calls the functions here with clean values. Each operation
//! returns an id at once (`lib/call.js` keys its promise or callback by it)
//! and runs on a sluice lane; when the work is done, its outcome is posted
//! to the [`Inbox`](inbox::Inbox) the call named: one per copy of
//! `index.js` (a `require.cache` reset, or jest's module registry, loads a
//! second copy that shares this addon), each a lock-free queue (the core's
//! `sluice::mailbox::Mailbox`) and a socket pair of its own, on which the
//! first outcome of a batch writes one byte. That copy watches the other
//! end (`lib/inbox.js`: Node's bare pipe handle, ref'd only while operations are in
//! flight, so an idle pool never keeps Node alive) and on each byte calls
//! [`Inbox::drain`](inbox::Inbox::drain), which hands back every outcome
//! posted since the last one.
//!
//! Why not a threadsafe function per promise (napi-rs's `JsDeferred`): Node
//! holds a threadsafe function's mutex while it wakes the loop, so the
//! woken loop thread often ran straight into the lock the waking worker
//! still held. The worker is a `Cpu` thread at nice 10 on a busy machine:
//! the loop then waited milliseconds for it to be scheduled again (the
//! `/ping` tail of a server under a `/login` flood). The inbox holds no
//! lock while it wakes the loop, and the loop thread takes none a worker
//! can hold.
//!
//! | state | where | shared by |
//! |-------|-------|-----------|
//! | the pool | `pool::POOL`, built by [`configure`](configure::configure) or at the first call | every `worker_thread` of the process |
//! | the DNS runtime | a tokio runtime of one thread (`dns`) | every thread |
//! | the resolver | `sluice-dns`'s system resolver, `getaddrinfo` fallback on this pool's `SlowIo` | every thread |
//!
//! An operation never reaches JavaScript as anything but a value or a
//! [`Failure`](outcome::Failure): the work runs under `catch_unwind`, so a
//! panic becomes a `Failure` of kind `"panic"` (and is then re-raised for
//! the pool to count), and a task dropped without running (which only a
//! shut-down pool does) still settles its call (kind `"dropped"`).
//! Settling goes through one guard type, `inbox::Settle`, whose `Drop`
//! makes "never settled" impossible. A result too large for JavaScript
//! settles its own operation with an error, never its batch: sizes are
//! checked before the work allocates (Node's 2 GiB for `readFile`, the
//! caller's `maxOutputLength` for `gunzip`), and a value V8 still refuses
//! is turned into that operation's error where `Inbox::drain` converts it.
//!
//! | module | what |
//! |--------|------|
//! | `outcome` | `Done` (a worker's result) and `Failure` (why there is none) |
//! | `inbox` | the inbox, `Settle` |
//! | `pool` | the process's pool, `submit`, `checkEnv`, `buildProfile`, `noop` |
//! | `configure` | `configure(options)`: a refusal names the option (from `sluice::Knob`) |
//! | `warm`, `after_tick` | the warm-up, once the tick that loaded the package ends (a libuv idle handle: no async resource) |
//! | `turn` | a loop turn's calls past the lane's thread budget, gathered per lane in a `sluice::DetachedBatch` and handed over together (libuv prepare and check handles of the addon's own) |
//! | `uv` | the libuv functions and handle types the addon's own handles use |
//! | `crypto`, `zlib`, `fs`, `dns`, `hash` | the operations |
//! | `fd` | `fs.open`/`read`/`write`/`close`/`fstat` on a descriptor (FastIo) |
//! | `zstream` | the zlib and brotli stream handles (Cpu), on the process's own zlib and brotli |
//! | `metrics` | the pool's and resolver's metrics |
//! | `scope_lanes` | `sluice_scope_lanes`: where `sluice scope` reads each lane's queue depth and threads from outside (the core's `GaugeBlock`, published once the pool exists) |
//! | `test_hooks` | `panicForTest`, `oversizedForTest` (cargo feature `test-hooks` only) |

mod after_tick;
pub mod configure;
pub mod crypto;
pub mod dns;
pub mod fd;
pub mod fs;
pub mod hash;
pub mod inbox;
pub mod metrics;
pub mod outcome;
pub mod pool;
pub mod scope_lanes;
#[cfg(feature = "test-hooks")]
pub mod test_hooks;
mod turn;
mod uv;
pub mod warm;
pub mod zlib;
pub mod zstream;

/// The addon's own allocations (a call's path, its task, a result's bytes)
/// go to mimalloc, not to the C library's `malloc`.
///
/// Each call is allocated on the JavaScript thread and freed on a pool
/// thread, and each result the other way round. glibc's `malloc` serves a
/// free from another thread under the lock of the arena the block came
/// from, so the loop thread and the workers took turns on the main
/// arena's lock: `perf` put 9% of the process's samples in
/// `__lll_lock_wait_private` and `__lll_lock_wake_private` during 1000
/// `fs.stat`s in flight. mimalloc hands a block freed elsewhere back to
/// the page it came from without a lock. Measured, release builds
/// alternated (docs/npm.md, "Where the time goes: the allocator"): `lab
/// dispatch`'s `fs.stat` with 1000 in flight 594–602 k/s against
/// 488–499 k/s; `lab small-reads` 255–278 k/s against 175–190 k/s.
///
/// Its features: `v2`, the 2.x line (3.x crashed in a thread's start once
/// the Worker thread that had made the pool had exited); `local_dynamic_tls`,
/// the thread-local model for a library loaded with `dlopen` (an
/// initial-exec one needs room in the static TLS block, which a library
/// loaded late may not get); `no_thp`, no transparent
/// huge pages for its own memory (with them, an idle process's RSS grew by
/// 6.5 MiB; without, by 0.2–0.5 MiB). V8's memory and the C libraries'
/// (zlib's, glibc's `getaddrinfo`) are theirs, as before: nothing
/// allocated by one allocator is freed by the other.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
