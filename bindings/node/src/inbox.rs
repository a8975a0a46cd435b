//! The inbox: where one copy of `index.js` receives its operations'
//! outcomes (see the crate's docs), and `Settle`, which owns an operation
//! until its outcome is posted there.

use crate::outcome::{Done, Failure, STAT_FIELDS};
use napi::Env;
use napi::bindgen_prelude::{Array, Float64ArraySlice};
use napi_derive::napi;
use sluice::fd::Opened;
use sluice::mailbox::Mailbox;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::fs::File;
use std::io::Write;
use std::os::fd::{IntoRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::rc::Rc;
use std::sync::Arc;

/// An operation's id and its outcome, posted to the inbox the call named.
pub(crate) type Posted = (f64, Done);

/// The numbers one outcome takes in the drain's slab: its id, its tag, then
/// its `stat` fields or the index of its value. `lib/inbox.js` reads them
/// (`RECORD`).
const SLAB_RECORD: usize = 2 + STAT_FIELDS;
/// An outcome's tag in the slab: nothing (`undefined`).
const TAG_UNIT: f64 = 0.0;
/// An outcome's tag in the slab: the `stat` fields follow.
const TAG_STAT: f64 = 1.0;
/// An outcome's tag in the slab: its value is the drain's array at the
/// index that follows.
const TAG_VALUE: f64 = 2.0;
/// An outcome's tag in the slab: the number that follows is its value.
const TAG_NUMBER: f64 = 3.0;
/// An outcome's tag in the slab: `stat` fields follow, handed over as a
/// `Float64Array` of them.
const TAG_FIELDS: f64 = 4.0;

/// Owns one operation until it is settled: [`Settle::finish`] posts the
/// work's outcome to the inbox its call named; dropping it unsettled posts a
/// `"dropped"` failure.
pub(crate) struct Settle {
    pub(crate) id: f64,
    queue: Option<Arc<Mailbox<Posted>>>,
}

impl Settle {
    /// A new operation whose outcome goes to `inbox`.
    pub(crate) fn open(inbox: &Core) -> Settle {
        let id = inbox.next_id.replace(inbox.next_id.get() + 1.0);
        Settle {
            id,
            queue: Some(inbox.queue.clone()),
        }
    }

    pub(crate) fn finish(mut self, done: Done) {
        if let Some(queue) = self.queue.take() {
            queue.post((self.id, done));
        }
    }
}

impl Drop for Settle {
    fn drop(&mut self) {
        if let Some(queue) = self.queue.take() {
            let failure = Failure::message(
                "dropped",
                None,
                "the task was dropped before it ran (the pool shut down)",
            );
            queue.post((self.id, Done::Fail(failure)));
        }
    }
}

/// Where one copy of `index.js` receives its operations' outcomes: a
/// lock-free queue (the core's [`Mailbox`]) and a socket pair, on which the
/// first outcome of a batch writes one byte. Each copy loaded in a thread
/// opens its own, so a second copy (a `require.cache` reset, jest's module
/// registry) never takes the first one's outcomes: every operation names
/// its inbox.
///
/// Operations name their inbox by its [`slot`](Inbox::slot), a number,
/// not by the object: napi-rs checks and records every class object a call
/// borrows, which cost about 0.3 µs of each submission (a number costs a
/// few nanoseconds to read; see `docs/npm.md`, "Where the time goes").
#[napi]
pub struct Inbox {
    /// What operations use: the queue, the ids, the no-wait counts. The
    /// thread's slot table holds it too, until this inbox is dropped.
    core: Rc<Core>,
    /// This inbox's number in its thread's slot table.
    slot: u32,
    /// The watched end of the socket pair, until [`Inbox::take_fd`] hands it
    /// over. Both ends are [`Opened`]: a program's stray close of either
    /// number neither aborts a debug addon when the inbox is dropped nor
    /// lets it close what took the number since.
    fd: Option<Opened>,
    /// Outcomes taken from `queue` that did not fit the last drain's slab.
    spill: RefCell<VecDeque<Posted>>,
}

/// The part of an [`Inbox`] an operation uses: where its outcome goes, its
/// id, and the no-wait counts. Found by the inbox's slot ([`core`]).
pub(crate) struct Core {
    /// The outcomes posted and not yet drained.
    queue: Arc<Mailbox<Posted>>,
    /// The id of this inbox's next operation.
    next_id: Cell<f64>,
    /// Operations answered on the loop's thread without a pool thread
    /// (`sluice::nowait`), by [`NowaitOp`].
    nowait: Cell<[f64; NowaitOp::COUNT]>,
}

thread_local! {
    /// The inboxes opened on this thread (one per copy of the package in
    /// this thread's JavaScript environment), by slot. Slots are never
    /// reused in a thread, so a stale number finds nothing rather than
    /// another copy's inbox. A Worker runs on its own thread: its inboxes
    /// are its own.
    static SLOTS: RefCell<Vec<(u32, Rc<Core>)>> = const { RefCell::new(Vec::new()) };
    /// The slot the next inbox opened on this thread takes.
    static NEXT_SLOT: Cell<u32> = const { Cell::new(1) };
}

/// The inbox in `slot` on this thread, or an error naming the slot.
pub(crate) fn core(slot: u32) -> napi::Result<Rc<Core>> {
    SLOTS
        .with_borrow(|slots| {
            slots
                .iter()
                .find(|(s, _)| *s == slot)
                .map(|(_, c)| c.clone())
        })
        .ok_or_else(|| {
            napi::Error::from_reason(format!(
                "sluice: no open inbox in slot {slot} on this thread"
            ))
        })
}

impl Drop for Inbox {
    fn drop(&mut self) {
        let slot = self.slot;
        // `try_with`: at the thread's exit the table may be gone already.
        let _ = SLOTS.try_with(|slots| slots.borrow_mut().retain(|(s, _)| *s != slot));
    }
}

/// The operations that may be answered on the loop's thread
/// (`sluice::nowait`), as [`Inbox::nowait_counts`] lists them.
#[derive(Debug, Clone, Copy)]
pub(crate) enum NowaitOp {
    /// `fs.stat`.
    Stat = 0,
    /// `fs.readFile`.
    ReadFile = 1,
    /// `dns.lookup` (a hosts-file or cached answer).
    Lookup = 2,
    /// A zlib stream's small write (not brotli's encoder).
    Zlib = 3,
    /// `fs.open`, read-only, of a regular file.
    Open = 4,
    /// `fs.read` of what the page cache holds.
    Read = 5,
}

impl NowaitOp {
    const COUNT: usize = 6;
}

#[napi]
impl Inbox {
    /// Opens an inbox. `lib/inbox.js` watches [`Inbox::take_fd`]'s descriptor
    /// (Node's pipe handle): a byte arrives on it when outcomes are waiting for
    /// [`Inbox::drain`].
    #[napi(constructor)]
    pub fn new(env: Env) -> napi::Result<Inbox> {
        // This thread's end-of-turn hand-over of gathered calls (`turn`).
        crate::turn::install(&env);
        let io =
            |e: std::io::Error| napi::Error::from_reason(format!("sluice: opening the inbox: {e}"));
        let (wake, watched) = UnixStream::pair().map_err(io)?;
        // A full socket buffer cannot block a worker: there is at most one
        // unread byte per drain, and a failed write is one a pending byte
        // covers.
        wake.set_nonblocking(true).map_err(io)?;
        let adopt = |end: UnixStream| Opened::new(File::from(OwnedFd::from(end))).map(|(o, _)| o);
        let (wake, watched) = (adopt(wake).map_err(io)?, adopt(watched).map_err(io)?);
        let queue = Mailbox::new(move || {
            // EPIPE after the copy's socket closed: nobody is left to tell
            // (Node ignores SIGPIPE).
            let _ = wake.file().write(&[1]);
        });
        let core = Rc::new(Core {
            queue: Arc::new(queue),
            next_id: Cell::new(1.0),
            nowait: Cell::new([0.0; NowaitOp::COUNT]),
        });
        let slot = NEXT_SLOT.get();
        let next = slot.checked_add(1).ok_or_else(|| {
            napi::Error::from_reason("sluice: opening the inbox: this thread opened 2^32 inboxes")
        })?;
        NEXT_SLOT.set(next);
        SLOTS.with_borrow_mut(|slots| slots.push((slot, core.clone())));
        Ok(Inbox {
            core,
            slot,
            fd: Some(watched),
            spill: RefCell::new(VecDeque::new()),
        })
    }

    /// This inbox's number, which operations take to name it.
    #[napi(getter)]
    pub fn slot(&self) -> u32 {
        self.slot
    }

    /// A new operation id whose outcome (nothing) is posted once the
    /// current turn of the loop has ended (see `after_tick`): after the
    /// async_hooks `destroy`s queued in this turn were emitted. `lib/call.js`
    /// steps through the requests Node's `fs.readFile` makes (open, fstat,
    /// read, close), one turn each, as Node's do.
    #[napi]
    pub fn next_turn(&self, env: Env) -> napi::Result<f64> {
        let settle = Settle::open(&self.core);
        let id = settle.id;
        // Where it cannot be scheduled, the task is dropped and its guard
        // posts a "dropped" outcome at once: the id settles either way.
        drop(crate::after_tick::schedule(
            &env,
            Box::new(move || settle.finish(Done::Unit)),
        ));
        Ok(id)
    }

    /// How many `stat`, `readFile` and `lookup` calls, zlib stream writes,
    /// and `open` and `read` calls of this inbox were answered on the
    /// loop's thread, in that order.
    #[napi]
    pub fn nowait_counts(&self) -> Vec<f64> {
        self.core.nowait.get().to_vec()
    }

    /// The descriptor to watch, once; `lib/inbox.js` owns it from then on.
    #[napi]
    pub fn take_fd(&mut self) -> napi::Result<i32> {
        self.fd
            .take()
            .map(IntoRawFd::into_raw_fd)
            .ok_or_else(|| napi::Error::from_reason("sluice: the inbox's descriptor was taken"))
    }

    /// The outcomes posted since the last drain, written into `slab`, a
    /// `Float64Array` private to `lib/inbox.js`: `slab[0]` is how many were
    /// written, at most `(slab.length - 1) / 20` (the rest waits for the
    /// next drain, which `lib/inbox.js` makes at once when the slab comes
    /// back full); then 20 numbers each: the id, the tag (0 nothing, 1
    /// `stat`, 2 a value), and the `stat`'s 18 fields or the index of the
    /// outcome's value in the array returned (`null` when none has one).
    /// A batch of `stat`s is thus one call and no JavaScript object from
    /// here: `lib/inbox.js` builds each `Stats` from the slab, as Node's
    /// binding builds them from its own typed array.
    ///
    /// Each value is converted on its own: bytes past `max_buffer`
    /// (`buffer.kMaxLength`) become Node's `ERR_BUFFER_TOO_LARGE` for that
    /// operation, and a value V8 refuses all the same (no memory for it)
    /// becomes that operation's error (the exception V8 raised); the rest
    /// of the batch is delivered as usual.
    #[napi(ts_return_type = "Array<unknown> | null")]
    pub fn drain<'env>(
        &self,
        env: &'env Env,
        max_buffer: f64,
        mut slab: Float64ArraySlice<'env>,
    ) -> napi::Result<Option<Array<'env>>> {
        let slab = raw::slab(&mut slab);
        let Some((count_slot, records)) = slab.split_first_mut() else {
            return Err(napi::Error::from_reason(
                "sluice: the drain's slab is empty",
            ));
        };
        let mut out = Slab {
            env,
            max_buffer,
            records,
            written: 0,
            values: None,
            failed: None,
        };
        let mut spill = self.spill.borrow_mut();
        // What the last drain left over goes first; then the queue, written
        // straight into the slab (no copy through `spill` unless the slab
        // is full or a conversion failed).
        while out.takes_more() {
            let Some(outcome) = spill.pop_front() else {
                break;
            };
            out.write(outcome);
        }
        if spill.is_empty() {
            self.core.queue.drain(|outcome| {
                if out.takes_more() {
                    out.write(outcome);
                } else {
                    spill.push_back(outcome);
                }
            });
        }
        if let Some(e) = out.failed {
            return Err(e);
        }
        *count_slot = out.written as f64;
        Ok(out.values)
    }
}

/// One drain's slab being written: the records (after the count), how many
/// are written, and the array of the outcomes' values, made at the first
/// outcome that has one.
struct Slab<'a, 'env> {
    env: &'env Env,
    max_buffer: f64,
    records: &'a mut [f64],
    written: usize,
    values: Option<Array<'env>>,
    /// An error that ends the drain (no array could be made or set).
    failed: Option<napi::Error>,
}

impl Slab<'_, '_> {
    /// Whether the next outcome is written here: there is room for its
    /// record, and no conversion ended the drain.
    fn takes_more(&self) -> bool {
        self.failed.is_none() && (self.written + 1) * SLAB_RECORD <= self.records.len()
    }

    /// Writes `(id, done)` as the next record; [`Slab::takes_more`] said so.
    fn write(&mut self, (id, done): Posted) {
        let off = self.written * SLAB_RECORD;
        let record = &mut self.records[off..off + SLAB_RECORD];
        self.written += 1;
        record[0] = id;
        let value = match done {
            Done::Unit => {
                record[1] = TAG_UNIT;
                return;
            }
            Done::Stat(fields) => {
                record[1] = TAG_STAT;
                record[2..].copy_from_slice(&fields);
                return;
            }
            Done::Fields(fields) => {
                record[1] = TAG_FIELDS;
                record[2..].copy_from_slice(&fields);
                return;
            }
            Done::Number(n) => {
                record[1] = TAG_NUMBER;
                record[2] = n;
                return;
            }
            Done::Bytes(b) if b.len() as f64 > self.max_buffer => {
                Done::Fail(Failure::buffer_too_large(self.max_buffer as usize))
            }
            done => done,
        };
        let env = self.env;
        let out = match &mut self.values {
            Some(out) => out,
            None => match env.create_array(0) {
                Ok(array) => self.values.insert(array),
                Err(e) => {
                    self.failed = Some(e);
                    return;
                }
            },
        };
        let next = out.len();
        record[1] = TAG_VALUE;
        record[2] = f64::from(next);
        let converted = value.into_out(env).and_then(|v| out.set(next, v));
        if let Err(e) = converted {
            let set = match raw::take_exception(env) {
                Some(exception) => out.set(next, exception),
                None => {
                    let message = format!("handing the result to JavaScript: {e}");
                    out.set(next, Failure::message("failed", None, message))
                }
            };
            if let Err(e) = set {
                self.failed = Some(e);
            }
        }
    }
}

/// An operation of the inbox in `slot` answered here, on the loop's thread
/// (`sluice::nowait`): its id, with `done` posted at once (delivered with
/// the next drain, never before the call returns), and counted for
/// [`Inbox::nowait_counts`].
pub(crate) fn settled_now(slot: u32, op: NowaitOp, done: Done) -> napi::Result<f64> {
    let inbox = core(slot)?;
    inbox.count_nowait(op);
    let settle = Settle::open(&inbox);
    let id = settle.id;
    settle.finish(done);
    Ok(id)
}

impl Core {
    /// Counts one operation of `op` answered on the loop's thread.
    pub(crate) fn count_nowait(&self, op: NowaitOp) {
        let mut counts = self.nowait.get();
        counts[op as usize] += 1.0;
        self.nowait.set(counts);
    }
}

/// The one thing the safe API lacks: taking the exception V8 left pending
/// when it refused a value, so that the rest of a batch can still be
/// handed over (every later napi call fails while one is pending).
#[allow(unsafe_code)]
mod raw {
    use napi::Env;
    use napi::bindgen_prelude::{Float64ArraySlice, ToNapiValue};
    use napi::sys;

    /// A JavaScript value as napi handed it over.
    pub(crate) struct Value(sys::napi_value);

    impl ToNapiValue for Value {
        // SAFETY (of the impl): the value came from napi on the same env,
        // within the current call's handle scope, which outlives the
        // conversion; handing it back unchanged is what the trait asks.
        unsafe fn to_napi_value(_env: sys::napi_env, val: Self) -> napi::Result<sys::napi_value> {
            Ok(val.0)
        }
    }

    /// The numbers of the drain's slab, to write.
    pub(crate) fn slab<'a>(slab: &'a mut Float64ArraySlice<'_>) -> &'a mut [f64] {
        // SAFETY: the memory is the typed array's, alive for the napi call
        // this runs in (the slice holds the value in the call's scope).
        // Nothing else reads or writes it meanwhile: JavaScript runs on this
        // thread, which is inside the call, and the array is private to
        // `lib/inbox.js` (never handed to user code, never transferred), so
        // no code reached from the napi calls the drain makes can touch or
        // detach it; and no other Rust reference to it exists.
        unsafe { slab.as_mut() }
    }

    /// The exception pending on `env`, cleared, if there is one.
    pub(crate) fn take_exception(env: &Env) -> Option<Value> {
        let mut pending = false;
        // SAFETY: `env` is the live environment of the napi call this runs
        // in (drain, on the JavaScript thread), and `pending` is a valid
        // place for the answer.
        let status = unsafe { sys::napi_is_exception_pending(env.raw(), &mut pending) };
        if status != sys::Status::napi_ok || !pending {
            return None;
        }
        let mut exception = std::ptr::null_mut();
        // SAFETY: as above; `exception` is a valid place for the value,
        // which lives in the call's handle scope.
        let status = unsafe { sys::napi_get_and_clear_last_exception(env.raw(), &mut exception) };
        (status == sys::Status::napi_ok && !exception.is_null()).then_some(Value(exception))
    }
}
