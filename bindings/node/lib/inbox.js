'use strict';
// The inbox: how the addon's outcomes come back to this thread.
//
// Each native call names this copy's inbox (a `native.Inbox`) and returns
// an id at once; a worker that finishes posts (id, outcome) to that inbox
// and, once per batch, writes a byte to a socket pair of the inbox's own.
// This file watches the other end (`socket`, a net.Socket): on that byte
// the loop drains the inbox and hands each outcome to what waits for it
// (`expect`). No lock is shared with the workers, so the loop never waits
// for one. The socket keeps the loop alive only while operations are in
// flight.
//
// Every copy of the package has an inbox of its own: a second copy in the
// same thread (a `require.cache` reset, jest's module registry, both
// sharing one addon) never takes this one's outcomes.

const net = require('node:net');
const { kMaxLength } = require('node:buffer');

const native = require('../binding.js');

const inbox = new native.Inbox();
const waiting = new Map();
// The socket is opened at the first call or at the warm-up, whichever comes
// first: async_hooks enabled by the app's first lines then see its init
// (PIPEWRAP) before its reads, as for any handle of the app's own.
let socket = null;

function openSocket(fd) {
  // `onread` reads the socket's bytes into one small buffer of our own: no
  // 64 KiB Buffer per wake-up for the garbage collector.
  const s = new net.Socket({
    fd,
    readable: true,
    writable: false,
    onread: { buffer: Buffer.alloc(64), callback: deliver },
  });
  s.on('error', (err) => {
    process.emitWarning(`sluice: the inbox socket failed (${err.message}); calls in flight will not settle`);
  });
  s.unref();
  return s;
}

/** Opens the inbox's socket, once (the first call, or the warm-up). */
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
// order; null when none wait.
let backlog = null;

function deliver() {
  const outcomes = inbox.drain(drainLimit);
  if (backlog !== null) backlog.push([outcomes, 0]);
  else handOut(outcomes, 0);
}

// Hands out `outcomes` from index `from`. A callback that throws throws
// out of here, untouched, as Node's own callbacks do (an uncaught
// exception at the user's line, or the caller's domain); the rest of the
// batch, and batches that arrive meanwhile, are handed out in order on the
// next turn of the loop, after that exception was dealt with: one throw
// never takes a batch with it.
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
  open,
  expect,
  forget,
  pending: () => waiting.size,
  setDrainLimitForTest: (limit) => {
    drainLimit = limit;
  },
};
