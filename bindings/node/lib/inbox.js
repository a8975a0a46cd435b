'use strict';
// The inbox: how the addon's outcomes come back to this thread.
//
// Each native call names this copy's inbox (a `native.Inbox`) and returns
// an id at once; a worker that finishes posts (id, outcome) to that inbox
// and, once per batch, writes a byte to a socket pair of the inbox's own.
// This file watches the other end (`socket`): on that byte the loop drains
// the inbox and hands each outcome to what waits for it (`expect`). No lock
// is shared with the workers, so the loop never waits for one. The socket
// keeps the loop alive only while operations are in flight. A drain is one
// call for the whole batch, and a batch of stats costs no object from Rust:
// the addon writes their numbers into `slab`.
//
// Every copy of the package has an inbox of its own: a second copy in the
// same thread (a `require.cache` reset, jest's module registry, both
// sharing one addon) never takes this one's outcomes.

const { kMaxLength } = require('node:buffer');

const native = require('../binding.js');
const { statsAt } = require('./stats.js');
const { Waiting } = require('./waiting.js');

const inbox = new native.Inbox();
const waiting = new Waiting();
// The socket is opened at the first call: async_hooks enabled by the app's
// first lines then see its init (PIPEWRAP) before its reads, as for any
// handle of the app's own.
let socket = null;

// What watches the socket: Node's own pipe handle (the `Pipe` of its
// `pipe_wrap` binding, which `net.Socket` wraps), taken bare. Opening a
// `net.Socket` at the first call cost that call 2.5 ms on an idle machine
// (V8 compiling net's and the streams' functions, which a process that
// made no socket yet has never run; 10-17 ms behind 4 busy pool threads
// on 2 cores), where the bare handle costs 0.06 ms; and each wake-up then
// reaches `deliver` straight from the handle's read, not through the
// stream's. Its reads land in one small buffer of our own (`useUserBuffer`,
// as net.Socket's `onread` option does it): no 64 KiB Buffer per wake-up.
// Where the binding is not there (a Node without `process.binding`, one
// that refuses it, or one under --pending-deprecation, where
// `process.binding` warns DEP0111), a net.Socket does the same. Both are the same
// PIPEWRAP resource to async_hooks, made in the first caller's context.
const READ_BUFFER = 64;
const readBuffer = Buffer.alloc(READ_BUFFER);
const bindings = (() => {
  try {
    if (typeof process.binding !== 'function' || process.binding.name === 'deprecated') return null;
    const { Pipe, constants } = process.binding('pipe_wrap');
    const { streamBaseState, kReadBytesOrError } = process.binding('stream_wrap');
    if (typeof Pipe !== 'function' || typeof Pipe.prototype.useUserBuffer !== 'function' ||
        typeof Pipe.prototype.readStart !== 'function' || streamBaseState === undefined) {
      return null;
    }
    return { Pipe, SOCKET: constants.SOCKET, streamBaseState, kReadBytesOrError };
  } catch {
    return null;
  }
})();

function failed(message) {
  process.emitWarning(`sluice: the inbox socket failed (${message}); calls in flight will not settle`);
}

function openSocket(fd) {
  if (bindings !== null) {
    const handle = new bindings.Pipe(bindings.SOCKET);
    const err = handle.open(fd);
    if (err === 0) {
      // Node's handle keeps only the buffer's address: the buffer must live
      // as long as the handle reads into it (net.Socket keeps its own the
      // same way), so it is this module's, for the process's life.
      handle.useUserBuffer(readBuffer);
      handle.onread = () => {
        // The bytes themselves say nothing (one per batch); what is to be
        // had is in the inbox. A negative count is an error or the end of
        // the stream: neither happens while the addon holds the other end.
        const nread = bindings.streamBaseState[bindings.kReadBytesOrError];
        if (nread < 0) {
          handle.readStop();
          failed(`read returned ${nread}`);
          return;
        }
        deliver();
      };
      const started = handle.readStart();
      if (started === 0) {
        handle.unref();
        return handle;
      }
      handle.close();
      failed(`readStart returned ${started}`);
      return handle;
    }
    handle.close();
  }
  return netSocket(fd);
}

// The same, through a net.Socket.
function netSocket(fd) {
  const net = require('node:net');
  const s = new net.Socket({
    fd,
    readable: true,
    writable: false,
    onread: { buffer: readBuffer, callback: deliver },
  });
  s.on('error', (err) => failed(err.message));
  s.unref();
  return s;
}

/** Opens the inbox's socket, once (the first call). */
function open() {
  if (socket === null) socket = openSocket(inbox.takeFd());
  return socket;
}

/** Operation `id`'s outcome goes to `onOutcome`, called once, on the loop. */
function expect(id, onOutcome) {
  if (waiting.size === 0) open().ref();
  waiting.set(id, onOutcome);
}

/**
 * Drops operation `id` (its signal aborted): its outcome, when it comes, is
 * nobody's.
 */
function forget(id) {
  waiting.delete(id);
  if (waiting.size === 0) socket.unref();
}

// The largest buffer handed to JavaScript (the tests lift it to see what
// V8 does past it).
let drainLimit = kMaxLength;

// Outcomes waiting behind a callback's throw, as [outcomes, from] pairs in
// order (`outcomes` a list [id, value, id, value, ...]); null when none wait.
let backlog = null;

// Where the addon writes each drain's outcomes (`Inbox::drain` in
// src/inbox.rs): slab[0] how many, then RECORD numbers each: the id, the
// tag, then a stat's 18 fields, a number, or the index of the outcome's
// value in the array the drain returns. The slab grows (up to SLAB_MAX outcomes) when a
// drain fills it; what did not fit comes with the next drain.
const RECORD = 20;
const TAG_STAT = 1;
const TAG_VALUE = 2;
const TAG_NUMBER = 3;
const TAG_FIELDS = 4;
const SLAB_MAX = 4096;
let slab = new Float64Array(1 + 64 * RECORD);

const slabFull = () => slab[0] === (slab.length - 1) / RECORD;

function deliver() {
  for (;;) {
    const values = inbox.drain(drainLimit, slab);
    const n = slab[0];
    if (backlog !== null) backlog.push([outcomesOf(values, 0, n), 0]);
    else handOutSlab(values, n);
    if (!slabFull()) return;
    if (n < SLAB_MAX) slab = new Float64Array(1 + 2 * n * RECORD);
  }
}

// The value of the outcome whose record starts at `off`.
function valueAt(values, off) {
  const tag = slab[off + 1];
  if (tag === TAG_STAT) return statsAt(slab, off + 2);
  if (tag === TAG_VALUE) return values[slab[off + 2]];
  if (tag === TAG_NUMBER) return slab[off + 2];
  if (tag === TAG_FIELDS) return slab.slice(off + 2, off + RECORD);
  return undefined;
}

// The slab's outcomes `from` .. `n` as a list [id, value, ...].
function outcomesOf(values, from, n) {
  const out = [];
  for (let k = from; k < n; k++) {
    const off = 1 + k * RECORD;
    out.push(slab[off], valueAt(values, off));
  }
  return out;
}

// Hands out the slab's `n` outcomes. A callback that throws throws out of
// here, untouched, as Node's own callbacks do (an uncaught exception at
// the user's line, or the caller's domain), unless a listener, capture
// callback or domain took it in the callback's scope (lib/uncaught.js);
// the rest of the batch, what the inbox still holds, and batches that
// arrive meanwhile are handed out in order on the next turn of the loop,
// after that exception was dealt with: one throw never takes a batch with
// it.
function handOutSlab(values, n) {
  let k = 0;
  try {
    for (; k < n; k++) {
      const off = 1 + k * RECORD;
      const onOutcome = waiting.get(slab[off]);
      if (onOutcome === undefined) continue;
      waiting.delete(slab[off]);
      onOutcome(valueAt(values, off));
    }
  } finally {
    if (k < n) {
      const full = slabFull();
      backlog = [[outcomesOf(values, k + 1, n), 0]];
      setImmediate(resume);
      // A full slab: the inbox holds more, which follows in order.
      for (let more = full; more; more = slabFull()) {
        const next = inbox.drain(drainLimit, slab);
        backlog.push([outcomesOf(next, 0, slab[0]), 0]);
      }
    } else if (waiting.size === 0) {
      socket.unref();
    }
  }
}

// Hands out a backlog's `outcomes` from index `from`, as handOutSlab does.
function handOut(outcomes, from) {
  let i = from;
  try {
    for (; i < outcomes.length; i += 2) {
      const onOutcome = waiting.get(outcomes[i]);
      if (onOutcome === undefined) continue;
      waiting.delete(outcomes[i]);
      onOutcome(outcomes[i + 1]);
    }
  } finally {
    if (i < outcomes.length) {
      const rest = [outcomes, i + 2];
      if (backlog === null) {
        backlog = [rest];
        setImmediate(resume);
      } else {
        backlog.unshift(rest);
      }
    } else if (waiting.size === 0) {
      socket.unref();
    }
  }
}

function resume() {
  const queue = backlog;
  backlog = null;
  let k = 0;
  try {
    for (; k < queue.length; k++) handOut(queue[k][0], queue[k][1]);
  } finally {
    // handOut threw at k and left its own rest first in the backlog.
    if (k < queue.length) backlog.push(...queue.slice(k + 1));
  }
}

module.exports = {
  inbox,
  // The number operations name this inbox by (the object costs each call
  // about 0.3 µs in napi-rs's checks; see src/inbox.rs).
  slot: inbox.slot,
  open,
  expect,
  forget,
  pending: () => waiting.size,
  // The socket (Node's bare Pipe handle, or a net.Socket where that binding
  // is not there), or null before it opens.
  socket: () => socket,
  drainLimit: () => drainLimit,
  setDrainLimitForTest: (limit) => {
    drainLimit = limit;
  },
};
