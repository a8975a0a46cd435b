'use strict';
// Node's error objects for the addon's outcomes: a failure the addon
// reports (a plain object with a `kind`, see src/outcome.rs) becomes the
// error Node's own function would have made, with Node's `code`, `errno`,
// `syscall`, `path` and message.

const nodeEvents = require('node:events');
const nodeZlib = require('node:zlib');
const util = require('node:util');

const systemErrors = util.getSystemErrorMap();
const errnoByName = new Map([...systemErrors].map(([errno, [name]]) => [name, errno]));
// Node reports getaddrinfo's EAI_NONAME as ENOTFOUND, keeping its errno.
errnoByName.set('ENOTFOUND', errnoByName.get('EAI_NONAME'));

function systemError(f, filePath) {
  const errno = -f.errno;
  const [code, desc] = systemErrors.get(errno) || ['UNKNOWN', 'unknown error'];
  const withPath = f.withPath && filePath !== undefined;
  const err = new Error(`${code}: ${desc}, ${f.syscall}${withPath ? ` '${filePath}'` : ''}`);
  err.errno = errno;
  err.code = code;
  err.syscall = f.syscall;
  if (withPath) err.path = filePath;
  return err;
}

function busyError(f) {
  const err = new Error(
    `sluice: the ${f.lane} lane's queue is full (bound ${f.bound}); ` +
      'refuse the request (HTTP 429) or retry later');
  err.code = 'ESLUICEBUSY';
  err.lane = f.lane;
  err.bound = f.bound;
  return err;
}

// An error as Node's own `internal/errors` makes one: `code` an own
// property, and the stack's first line `RangeError [CODE]: message`.
function nodeError(Kind, code, message) {
  const err = new Kind(message);
  err.name = `${Kind.name} [${code}]`;
  // eslint-disable-next-line no-unused-expressions
  err.stack;
  delete err.name;
  err.code = code;
  return err;
}

// Node's AbortError class (internal to Node; `events.on` throws one
// synchronously for an aborted signal).
const AbortError = (() => {
  try {
    nodeEvents.on(new nodeEvents.EventEmitter(), 'sluice', { signal: AbortSignal.abort() });
  } catch (e) {
    if (e && e.code === 'ABORT_ERR') return e.constructor;
  }
  return class AbortError extends Error {
    constructor(message = 'The operation was aborted', options = undefined) {
      super(message, options);
      this.code = 'ABORT_ERR';
      this.name = 'AbortError';
    }
  };
})();

function abortError(signal) {
  return new AbortError(undefined, { cause: signal.reason });
}

// The error for the addon's failure `f`; `context` is the path or host the
// call named (Node's message and `path`/`hostname` carry it).
function failureError(f, context) {
  if (f instanceof Error) return f; // what V8 raised when it refused the value
  switch (f.kind) {
    case 'sys':
      if (f.errno !== undefined && f.errno !== null) return systemError(f, context);
      break;
    case 'zlib': {
      const err = new Error(f.message);
      err.errno = nodeZlib.constants[f.code];
      err.code = f.code;
      return err;
    }
    case 'dns': {
      const err = new Error(`getaddrinfo ${f.code} ${context}`);
      err.errno = errnoByName.get(f.code);
      err.code = f.code;
      err.syscall = 'getaddrinfo';
      err.hostname = context;
      return err;
    }
    case 'busy':
      return busyError(f);
    case 'range':
      return f.code === 'ERR_FS_FILE_TOO_LARGE'
        ? nodeError(RangeError, f.code, `File size (${f.size}) is greater than 2 GiB`)
        : nodeError(RangeError, 'ERR_BUFFER_TOO_LARGE', `Cannot create a Buffer larger than ${f.bound} bytes`);
    case 'aborted':
      return new AbortError();
    case 'panic': {
      const err = new Error(`sluice: a task panicked: ${f.message}`);
      err.code = 'ERR_SLUICE_PANIC';
      return err;
    }
    default:
      break;
  }
  const err = new Error(`sluice: ${f.message || f.kind}`);
  err.code = f.kind === 'dropped' ? 'ERR_SLUICE_DROPPED' : 'ERR_SLUICE_FAILED';
  return err;
}

function isFailure(value) {
  return value !== null && typeof value === 'object' && !ArrayBuffer.isView(value) &&
    (typeof value.kind === 'string' || value instanceof Error);
}

// Node's error and result for the addon's `value`: `[error, null]` for a
// failure (or a `shape` that throws), else `[null, shape(value)]`.
function resultOf(value, context, shape) {
  if (isFailure(value)) return [failureError(value, context), null];
  if (!shape) return [null, value];
  try {
    return [null, shape(value)];
  } catch (err) {
    return [err, null];
  }
}

// The addon's synchronous error (`CODE: message` in its reason: an error
// of the addon's own, such as ERR_SLUICE_POOL) as a JavaScript error with
// that code.
function addonError(e) {
  const m = /^(ERR_[A-Z_]+): (.*)$/s.exec(e && e.message);
  if (!m) return e;
  const err = new Error(`sluice: ${m[2]}`);
  err.code = m[1];
  return err;
}

module.exports = { AbortError, abortError, failureError, isFailure, resultOf, addonError, nodeError };
