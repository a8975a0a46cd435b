'use strict';
// What a callback's exception does, in the callback's async scope.
//
// Node calls a request's callback from the loop inside the request's scope
// (a native callback scope) and, when the callback throws, runs its
// uncaught-exception handler (process._fatalException: lib/internal/process/
// execution.js, createOnGlobalUncaughtException) while that scope is still
// current: 'uncaughtExceptionMonitor' and 'uncaughtException' listeners see
// the request's executionAsyncId(), its AsyncLocalStorage store; the handler
// then emits `after` for the ids on the stack and clears it, so the scope's
// own `after` is not emitted twice. sluice calls a callback under
// AsyncResource.runInAsyncScope, from the inbox's socket read: an exception
// left alone unwinds that scope first (its `after` in a finally) and reaches
// Node's handler outside it, in the inbox's context.
//
// So, where Node would hand the exception to a function of the user's (the
// 'uncaughtException' listeners; the capture callback set with
// process.setUncaughtExceptionCaptureCallback, which the preload sees being
// set: `install`; a domain's, whose capture callback hands it to the
// domain entered), sluice catches it inside the scope and does there what
// Node's handler does on that path: the 'uncaughtExceptionMonitor'
// listeners, then the capture callback or the listeners, then
// `setImmediate(noop)`; the scope's `after` is then runInAsyncScope's own,
// once, as Node's handler emits it once. Everywhere else the exception is
// not caught at all and leaves exactly as before (a catch and rethrow would
// move the crash banner's location to sluice's line, and hide the throw
// from --abort-on-uncaught-exception, which V8 decides at the throw):
//
// - no listener and no capture callback: the process dies, with the banner
//   at the user's line;
// - a capture callback set some other way (before the preload loaded, or
//   through Node's internals other than by the domain module): only Node
//   can call it;
// - --abort-on-uncaught-exception without a capture callback: Node aborts,
//   listeners or not;
// - process._fatalException replaced by someone else: theirs runs;
// - a worker thread: its handler's failure path (the error to the parent's
//   'error' event) is the worker's own.
//
// A listener or capture callback that throws is, in Node, fatal with exit
// code 7 and that error's banner. Here its exception is let through
// untouched (so V8 keeps its location), and Node's handler, which would
// call the listeners again, is swapped for one call for a function that
// answers "not handled" with exit code 7: Node then prints that error's
// banner and exits with 7.

const { isMainThread } = require('node:worker_threads');

// Node's --abort-on-uncaught-exception (its own option; V8 spells it with
// underscores too), from the command line or NODE_OPTIONS: both are read
// once, at start, as Node reads them.
const ABORT_FLAG = /^--abort[-_]on[-_]uncaught[-_]exception$/;
const aborts = process.execArgv.some((a) => ABORT_FLAG.test(a)) ||
  (process.env.NODE_OPTIONS || '').split(/\s+/).some((a) => ABORT_FLAG.test(a));

// Node's handler as the process started with it (the preload loads first).
const nodeHandler = process._fatalException;

// Node's exit code for an exception thrown by the uncaught-exception
// handler itself (kExceptionInFatalExceptionHandler).
const HANDLER_THREW = 7;

const noop = () => {};

// The capture callback set through the preload's
// process.setUncaughtExceptionCaptureCallback (null: none, or not seen).
// The domain module, once loaded, replaces that function (and refuses to
// load while one is set): a capture callback is then the domain's.
let capture = null;
let setCapture = null;

// Node's handler hands an exception to the capture callback or to the
// listeners.
const LISTENERS = 'listeners';
// The domain module's capture callback, as it is (lib/domain.js).
const domainCapture = (er) => process.domain._errorHandler(er);

/**
 * Who an exception thrown now would go to: a capture callback (a
 * function), LISTENERS, or null where sluice leaves it to Node.
 */
function takerNow() {
  if (!isMainThread || typeof nodeHandler !== 'function' || process._fatalException !== nodeHandler) return null;
  if (process.hasUncaughtExceptionCaptureCallback()) {
    // Set through the preload's function: that callback.
    if (setCapture !== null && process.setUncaughtExceptionCaptureCallback === setCapture) return capture;
    // Set through Node's internals: the domain module's (loaded, it
    // replaces the public function), which hands the exception to the
    // domain entered (here, by the scope's `before`).
    const d = process.domain;
    return d && typeof d._errorHandler === 'function' ? domainCapture : null;
  }
  return !aborts && process.listenerCount('uncaughtException') > 0 ? LISTENERS : null;
}

/**
 * `fn.apply(thisArg, args)` in `resource`'s async scope, as Node calls a
 * request's callback: an exception it throws is handled in that scope when
 * listeners take it, and otherwise leaves untouched.
 */
function callInScope(resource, fn, thisArg, ...args) {
  return resource.runInAsyncScope(guarded, thisArg, fn, args);
}

// In the scope: decided here, after the scope's `before` (a domain's hook
// has entered the domain, whose 'error' listener is a capture callback).
function guarded(fn, args) {
  if (takerNow() === null) return Reflect.apply(fn, this, args);
  try {
    return Reflect.apply(fn, this, args);
  } catch (err) {
    // The callback itself removed the last listener or its capture
    // callback, or loaded the domain module, before throwing: Node's
    // handler decides, out of the scope. (The banner of a process that then
    // dies points here, not at the user's line: the one case where it does.)
    const taker = takerNow();
    if (taker === null) throw err;
    handle(err, taker);
    return undefined;
  }
}

// Node's handler on its path to `taker` (a capture callback, or LISTENERS).
function handle(err, taker) {
  const restore = fatalNext(HANDLER_THREW);
  let handled;
  try {
    process.emit('uncaughtExceptionMonitor', err, 'uncaughtException');
    if (taker === LISTENERS) {
      handled = process.emit('uncaughtException', err, 'uncaughtException');
    } else {
      taker(err);
      handled = true;
    }
  } finally {
    // A listener that threw left `handled` unset, and the swap in place.
    if (handled !== undefined) restore();
  }
  if (!handled) {
    // A monitor removed every listener: Node's 'exit', then death. The
    // banner points at the rethrow.
    if (!process._exiting) {
      process._exiting = true;
      process.exitCode = 1;
      try {
        process.emit('exit', 1);
      } catch {
        // As Node: nothing to be done about it at this point.
      }
    }
    fatalNext(undefined);
    throw err;
  }
  // As Node's handler: the ticks the exception left get a turn.
  setImmediate(noop);
}

// The next call of process._fatalException (the one Node makes for an
// exception now on its way out) answers "not handled", with exit code
// `code` (undefined: process.exitCode as it is), and restores Node's
// handler. Returns the restore, for when nothing came.
function fatalNext(code) {
  const restore = () => {
    process._fatalException = nodeHandler;
  };
  process._fatalException = function notHandled() {
    restore();
    if (code !== undefined) process.exitCode = code;
    return false;
  };
  return restore;
}

/**
 * Under the preload: process.setUncaughtExceptionCaptureCallback is Node's,
 * and tells sluice the callback it set.
 */
function install() {
  const nodeSet = process.setUncaughtExceptionCaptureCallback;
  if (setCapture !== null || typeof nodeSet !== 'function') return;
  setCapture = function setUncaughtExceptionCaptureCallback(fn) {
    Reflect.apply(nodeSet, this, arguments);
    capture = fn;
  };
  Object.defineProperty(setCapture, 'length', { value: nodeSet.length });
  process.setUncaughtExceptionCaptureCallback = setCapture;
}

module.exports = { callInScope, install };
