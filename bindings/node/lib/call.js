'use strict';
// One call on the pool: submit it to the addon, wait for its outcome in the
// inbox, and settle it as Node settles its own: a promise, or a Node-style
// callback called from the loop in the caller's async context.

const { AsyncResource } = require('node:async_hooks');

const { inbox, expect, forget } = require('./inbox.js');
const { AbortError, abortError, resultOf, addonError } = require('./errors.js');
const { callInScope } = require('./uncaught.js');
const requests = require('./requests.js');
const { stepsSeen } = require('./hooks.js');

// The fs and dns calls of this copy in flight (those Node lists among its
// requests: `request.listed`), from their submission to their outcome:
// lib/ops.js answers on the loop's thread (the no-wait path) only while
// few are. Hashes, zlib jobs and other Cpu work do not count: a flood of
// password hashes is no burst of file calls.
let ioInFlight = 0;

// Starts an operation: `submit()` calls the addon and returns the id;
// `context` names the path or host for Node's error, and `shape` turns the
// addon's value into Node's result. Without `callback`, returns a promise,
// settled with the result or with Node's error (a synchronous failure
// becomes its rejection). With a Node-style `callback`, returns nothing and
// calls it from the loop when the outcome arrives, as Node calls its own
// (see `request`). `spread(callback, result)`, where given, hands the
// result over the way the Node function does (dns.lookup's `(err, address,
// family)`). `request` says which requests Node's function makes (see
// below), and how the call is listed among Node's requests while in flight
// under the preload (`request.listed`: lib/requests.js). `signal` (an
// AbortSignal, readFile's): aborting it settles the call at once with
// Node's AbortError and `cancel` (a native.Cancel) tells the worker to skip
// or stop it.
function start(submit, context, shape, callback, spread, request, signal, cancel) {
  if (signal !== undefined && signal.aborted) {
    const err = abortError(signal);
    if (callback === undefined) return Promise.reject(err);
    // Node's fs.readFile calls it at once, before returning.
    callback(err);
    return undefined;
  }
  let id;
  try {
    id = submit();
  } catch (err) {
    const e = addonError(err);
    if (callback === undefined) return Promise.reject(e);
    process.nextTick(callback, e);
    return undefined;
  }
  const io = request !== undefined && request.listed !== undefined;
  if (io) ioInFlight++;
  if (callback === undefined) {
    // Listed until it settles (no outcome comes before this returns).
    let listed = null;
    const promise = new Promise((resolve, reject) => {
      const settle = (value) => {
        if (io) ioInFlight--;
        requests.unlist(listed);
        const [error, result] = resultOf(value, context, shape);
        if (error !== null) reject(error);
        else resolve(result);
      };
      expect(id, signal === undefined ? settle : abortable(id, signal, cancel, settle));
    });
    listed = requests.listPromise(request && request.listed, context, promise);
    return promise;
  }
  const req = request || SLUICE;
  // Listed until the callback has returned, as Node's request is.
  const listed = requests.listCallback(req.listed, callback, context);
  // The call's first request, made in the caller's async context: async_hooks
  // see its init here, AsyncLocalStorage's store and the caller's domain
  // (`resource.domain`, set by the domain module) travel with it.
  const resource = new AsyncResource(req.type, { requireManualDestroy: false });
  const settle = (value) => {
    if (io) ioInFlight--;
    // The requests after the first, stepped through only for a hook that
    // would see them (lib/hooks.js).
    const more = req.after !== undefined && stepsSeen() ? req.after(value) : 0;
    if (more === 0) {
      // One request (most calls): no closure for stepThrough.
      const [error, result] = resultOf(value, context, shape);
      deliverIn(resource, callback, spread, error, result, listed);
      return;
    }
    stepThrough(req.type, resource, more, (last) => {
      const [error, result] = resultOf(value, context, shape);
      deliverIn(last, callback, spread, error, result, listed);
    });
  };
  expect(id, signal === undefined ? settle : abortable(id, signal, cancel, settle));
  return undefined;
}

// What a Node function's callback form looks like to async_hooks: `type`, the
// resource of its requests (FSREQCALLBACK, PBKDF2REQUEST, ...); `listed`,
// how its calls are listed among Node's requests (requests.FS, .LOOKUP; none
// for the families Node does not list); and, where
// Node makes more than one request per call (fs.readFile's open, fstat,
// reads and close), `after(value)`: how many follow the first for that
// outcome. Each is made in its predecessor's callback, one turn of the loop
// later (as Node's complete on the pool's later turns), so its trigger is
// the one before it and the one before it is destroyed first; the
// callback runs in the last one.
const SLUICE = { type: 'SLUICE' };

// Runs `resource`'s part of the call, then the `more` requests after it,
// and `finish(last)` in the last one's scope.
function stepThrough(type, resource, more, finish) {
  if (more === 0) {
    finish(resource);
    return;
  }
  let next;
  resource.runInAsyncScope(() => {
    next = new AsyncResource(type, { requireManualDestroy: false });
  });
  resource.emitDestroy();
  expect(inbox.nextTurn(), () => stepThrough(type, next, more - 1, finish));
}

// Calls the callback in `resource`'s scope, as Node calls a request's
// callback (its `before`, the callback, its `after`, then its `destroy`);
// `listed` (or null) is unlisted after it. An exception it throws is
// Node's uncaught exception: handled in that scope where Node would hand it
// to listeners, a capture callback or a domain (lib/uncaught.js), and
// otherwise leaving untouched, so the crash banner points at the user's
// line. A domain the call was made in catches what the callback throws, as
// Node's own requests do (in that scope too).
function deliverIn(resource, callback, spread, error, result, listed) {
  const domain = resource.domain;
  try {
    if (domain === undefined) {
      callIn(resource, callback, spread, error, result);
      return;
    }
    let threw = true;
    try {
      callIn(resource, callback, spread, error, result);
      threw = false;
    } finally {
      // An exception left to Node: the async scope has exited the domain;
      // re-enter it so that the uncaught exception is the domain's, as
      // Node's would be. (A finally, not a catch: the exception goes on
      // untouched, its location kept.)
      if (threw) domain.enter();
    }
  } finally {
    resource.emitDestroy();
    requests.unlist(listed);
  }
}

function callIn(resource, callback, spread, error, result) {
  if (error !== null) callInScope(resource, callback, undefined, error);
  else if (spread) callInScope(resource, spread, undefined, callback, result);
  else callInScope(resource, callback, undefined, null, result);
}

// `settle` for an operation with a signal: an abort settles it at once with
// Node's AbortError (the worker skips or stops it), the outcome otherwise.
function abortable(id, signal, cancel, settle) {
  const onAbort = () => {
    cancel.cancel();
    forget(id);
    settle(new AbortError(undefined, { cause: signal.reason }));
  };
  signal.addEventListener('abort', onAbort, { once: true });
  return (value) => {
    signal.removeEventListener('abort', onAbort);
    settle(value);
  };
}

module.exports = { start, ioInFlight: () => ioInFlight };
