'use strict';
// One call on the pool: submit it to the addon, wait for its outcome in the
// inbox, and settle it as Node settles its own: a promise, or a Node-style
// callback called from the loop in the caller's async context.

const { AsyncResource } = require('node:async_hooks');

const { expect, forget } = require('./inbox.js');
const { AbortError, abortError, resultOf, addonError } = require('./errors.js');

// Starts an operation: `submit()` calls the addon and returns the id;
// `context` names the path or host for Node's error, and `shape` turns the
// addon's value into Node's result. Without `callback`, returns a promise,
// settled with the result or with Node's error (a synchronous failure
// becomes its rejection). With a Node-style `callback`, returns nothing and
// calls it from the loop when the outcome arrives, as Node calls its own:
// no promise, no extra tick, in the caller's async context (`type` names
// the AsyncResource, as Node names its request: FSREQCALLBACK, ...), and an
// exception it throws is the caller's (see inbox.js's `handOut`).
// `spread(callback, result)`, where given, hands the result over the way
// the Node function does (dns.lookup's `(err, address, family)`).
// `signal` (an AbortSignal, readFile's): aborting it settles the call at
// once with Node's AbortError and `cancel` (a native.Cancel) tells the
// worker to skip or stop it.
function start(submit, context, shape, callback, spread, type, signal, cancel) {
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
  if (callback === undefined) {
    return new Promise((resolve, reject) => {
      const settle = (value) => {
        const [error, result] = resultOf(value, context, shape);
        if (error !== null) reject(error);
        else resolve(result);
      };
      expect(id, signal === undefined ? settle : abortable(id, signal, cancel, settle));
    });
  }
  const resource = new AsyncResource(type || 'SLUICE', { requireManualDestroy: false });
  // A domain the call was made in catches what the callback throws, as
  // Node's own requests do (`resource.domain` is set by the domain module).
  const settle = (value) => {
    const [error, result] = resultOf(value, context, shape);
    const domain = resource.domain;
    if (domain === undefined) {
      deliverTo(resource, callback, spread, error, result);
      return;
    }
    try {
      deliverTo(resource, callback, spread, error, result);
    } catch (err) {
      // The async scope has exited the domain; re-enter it so that the
      // uncaught exception is the domain's, as Node's would be.
      domain.enter();
      throw err;
    }
  };
  expect(id, signal === undefined ? settle : abortable(id, signal, cancel, settle));
  return undefined;
}

function deliverTo(resource, callback, spread, error, result) {
  if (error !== null) resource.runInAsyncScope(callback, undefined, error);
  else if (spread) resource.runInAsyncScope(spread, undefined, callback, result);
  else resource.runInAsyncScope(callback, undefined, null, result);
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

module.exports = { start };
