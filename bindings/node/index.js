'use strict';
// sluice for Node.js: the work Node sends to libuv's four threads, on
// sluice's lanes instead (Cpu for pbkdf2/scrypt/gzip, FastIo for fs,
// no thread at all for dns.lookup), with Node's own promise APIs.
//
// Every call first asks: is this a shape sluice runs? (a string path, a
// digest sluice implements, options it understands). If yes, the addon runs
// it and this file builds Node's result and Node's error objects. If not
// (invalid arguments, file descriptors, AbortSignal, other digests, zlib
// options beyond `level`), the call goes to Node's own function, so argument
// errors are Node's, byte for byte, and nothing Node accepts is refused.
// Those hand-offs are counted: `metricsJson().node.fallbacks`.

const nodeCrypto = require('node:crypto');
const nodeZlib = require('node:zlib');
const nodeFs = require('node:fs');
const nodeDns = require('node:dns');
const nodeEvents = require('node:events');
const { AsyncResource } = require('node:async_hooks');
const { kMaxLength } = require('node:buffer');
const net = require('node:net');
const os = require('node:os');
const util = require('node:util');

const native = require('./binding.js');

// Node's functions as they were when sluice loaded: `sluice/patch` replaces
// the public ones, and the hand-offs must reach the originals.
const original = Object.freeze({
  pbkdf2: nodeCrypto.pbkdf2,
  scrypt: nodeCrypto.scrypt,
  randomBytes: nodeCrypto.randomBytes,
  gzip: nodeZlib.gzip,
  gunzip: nodeZlib.gunzip,
  readFile: nodeFs.readFile,
  stat: nodeFs.stat,
  readFilePromise: nodeFs.promises.readFile,
  statPromise: nodeFs.promises.stat,
  lookup: nodeDns.lookup,
  lookupPromise: nodeDns.promises.lookup,
});

// ----------------------------------------------------------------- inbox
// How outcomes come back: each native call names this copy's `inbox` and
// returns an id at once; a worker that finishes posts (id, outcome) to that
// inbox and, once per batch, writes a byte to a socket whose other end is
// `bell`. On that byte the loop drains the inbox and hands each outcome to
// what waits for it: a promise, or a Node-style callback (see `start`). No
// lock is shared with the workers, so the loop never waits for one. `bell`
// keeps the loop alive only while operations are in flight.
//
// Every copy of this file has an inbox of its own: a second copy in the
// same thread (a `require.cache` reset, jest's module registry, both
// sharing one addon) never takes this one's outcomes.

const inbox = new native.Inbox();
const waiting = new Map();
// The socket is opened at the first call or at the warm-up, whichever comes
// first: async_hooks enabled by the app's first lines then see its init
// (PIPEWRAP) before its reads, as for any handle of the app's own.
let bell = null;

function openBell(fd) {
  // `onread` reads the bell's bytes into one small buffer of our own: no
  // 64 KiB Buffer per ring for the garbage collector.
  const socket = new net.Socket({
    fd,
    readable: true,
    writable: false,
    onread: { buffer: Buffer.alloc(64), callback: deliver },
  });
  socket.on('error', (err) => {
    process.emitWarning(`sluice: the inbox socket failed (${err.message}); calls in flight will not settle`);
  });
  socket.unref();
  return socket;
}

function ringable() {
  if (bell === null) bell = openBell(inbox.takeFd());
  return bell;
}

// Operation `id`'s outcome goes to `onOutcome`, called once, on the loop.
function expect(id, onOutcome) {
  if (waiting.size === 0) ringable().ref();
  waiting.set(id, onOutcome);
}

// Drops operation `id` (its signal aborted): its outcome, when it comes, is
// nobody's.
function forget(id) {
  waiting.delete(id);
  if (waiting.size === 0) bell.unref();
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
      bell.unref();
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

// ---------------------------------------------------------------- errors

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

function failureError(f, context) {
  if (f instanceof Error) return f; // what V8 raised when it refused the value
  switch (f.kind) {
    case 'sys':
      if (f.errno !== undefined && f.errno !== null) return systemError(f, context);
      break;
    case 'zlib': {
      const err = new Error(f.message);
      err.errno = errnoOfZlib(f.code);
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

function errnoOfZlib(code) {
  return nodeZlib.constants[code];
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

// Starts an operation: `submit()` calls the addon and returns the id;
// `context` names the path or host for Node's error, and `shape` turns the
// addon's value into Node's result. Without `callback`, returns a promise,
// settled with the result or with Node's error (a synchronous failure
// becomes its rejection). With a Node-style `callback`, returns nothing and
// calls it from the loop when the outcome arrives, as Node calls its own:
// no promise, no extra tick, in the caller's async context (`type` names
// the AsyncResource, as Node names its request: FSREQCALLBACK, ...), and an
// exception it throws is the caller's (see `handOut`).
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

// The addon's synchronous error (`CODE: message` in its reason) as a
// JavaScript error with that code.
function addonError(e) {
  const m = /^(ERR_[A-Z_]+): (.*)$/s.exec(e && e.message);
  if (!m) return e;
  const err = new Error(`sluice: ${m[2]}`);
  err.code = m[1];
  return err;
}

// ------------------------------------------------------- fast-path shapes

const counters = { calls: Object.create(null), fallbacks: Object.create(null) };
function count(kind, op) {
  counters[kind][op] = (counters[kind][op] || 0) + 1;
}

const MAX_OUTPUT = 2 ** 30;
const DIGESTS = new Set(['sha1', 'sha256', 'sha512']);

function isInt(v, min, max) {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

const EMPTY = Buffer.alloc(0);
const { isAnyArrayBuffer, isArrayBufferView, isProxy } = util.types;

// The bytes of a string, a view or an ArrayBuffer, or null for anything
// else (a Proxy around a buffer among them: Node refuses it, so the call
// goes to Node, which throws its ERR_INVALID_ARG_TYPE). A detached buffer
// is empty, as Node reads it.
function bytes(v) {
  if (typeof v === 'string') return Buffer.from(v, 'utf8');
  if (isArrayBufferView(v)) {
    if (v.byteLength === 0) return EMPTY;
    return Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  }
  if (isAnyArrayBuffer(v)) return v.byteLength === 0 ? EMPTY : Buffer.from(v);
  return null;
}

function pbkdf2Shape(password, salt, iterations, keylen, digest) {
  const p = bytes(password);
  const s = bytes(salt);
  if (p === null || s === null) return null;
  if (!isInt(iterations, 1, 2 ** 31 - 1) || !isInt(keylen, 1, MAX_OUTPUT)) return null;
  if (typeof digest !== 'string' || !DIGESTS.has(digest)) return null;
  return [p, s, iterations, keylen, digest];
}

const SCRYPT_KEYS = new Set(['N', 'r', 'p', 'cost', 'blockSize', 'parallelization', 'maxmem']);

function scryptShape(password, salt, keylen, options) {
  const p = bytes(password);
  const s = bytes(salt);
  if (p === null || s === null || !isInt(keylen, 1, MAX_OUTPUT)) return null;
  let N = 16384;
  let r = 8;
  let par = 1;
  let maxmem = 32 << 20;
  if (options !== undefined && options !== null) {
    if (typeof options !== 'object' || isProxy(options)) return null;
    const keys = Object.keys(options);
    if (!keys.every((k) => SCRYPT_KEYS.has(k) && options[k] !== undefined)) return null;
    const pick = (a, b, dflt) => {
      if (a in options && b in options) return NaN;
      return a in options ? options[a] : b in options ? options[b] : dflt;
    };
    N = pick('N', 'cost', N);
    r = pick('r', 'blockSize', r);
    par = pick('p', 'parallelization', par);
    maxmem = 'maxmem' in options ? options.maxmem : maxmem;
  }
  if (!isInt(N, 2, 2 ** 24) || (N & (N - 1)) !== 0) return null;
  if (!isInt(r, 1, 1024) || !isInt(par, 1, 1024) || !isInt(maxmem, 0, Number.MAX_SAFE_INTEGER)) return null;
  // OpenSSL's rules: N < 2^(16 r), p r < 2^30, 128 r (N + 2 + p) <= maxmem.
  if (16 * r < 53 && N >= 2 ** (16 * r)) return null;
  if (par * r >= 2 ** 30 || 128 * r * (N + 2 + par) > maxmem) return null;
  return [p, s, keylen, N, r, par];
}

// A detached buffer: zlib, unlike crypto, throws on one (Node's TypeError),
// so such a call is Node's.
function isDetached(v) {
  const ab = isArrayBufferView(v) ? v.buffer : v;
  if (!isAnyArrayBuffer(ab) || ab.byteLength !== 0) return false;
  try {
    new Uint8Array(ab); // eslint-disable-line no-new
    return false;
  } catch {
    return true;
  }
}

function zlibInput(buffer) {
  return isDetached(buffer) ? null : bytes(buffer);
}

// zlib options sluice runs: none, or only `level`.
function gzipLevel(options) {
  if (options === undefined || options === null) return -1;
  if (typeof options !== 'object' || isProxy(options)) return null;
  const keys = Object.keys(options);
  if (keys.length === 0) return -1;
  if (keys.length === 1 && keys[0] === 'level' && isInt(options.level, -1, 9)) return options.level;
  return null;
}

// gunzip's options sluice runs: none, or only `maxOutputLength` (a whole
// number, 1..buffer.kMaxLength, as Node checks it). Returns the output's
// limit (Node's default: kMaxLength), or null.
function gunzipMaxOutput(options) {
  if (options === undefined || options === null) return kMaxLength;
  if (typeof options !== 'object' || isProxy(options)) return null;
  const keys = Object.keys(options);
  if (keys.length === 0) return kMaxLength;
  if (keys.length !== 1 || keys[0] !== 'maxOutputLength') return null;
  const max = options.maxOutputLength;
  if (max === undefined) return kMaxLength;
  return isInt(max, 1, kMaxLength) ? max : null;
}

function gunzipOptionsOk(options) {
  return gunzipMaxOutput(options) !== null;
}

function pathShape(p) {
  return typeof p === 'string' && p.length > 0 && !p.includes('\u0000') ? p : null;
}

// readFile's options: undefined, an encoding, or { encoding, flag: 'r',
// signal }. Returns { encoding, signal } or null. A signal must be a real
// AbortSignal (anything else is Node's to refuse).
function readFileOptions(options) {
  if (options === undefined || options === null) return { encoding: null, signal: undefined };
  let encoding;
  let signal;
  if (typeof options === 'string') {
    encoding = options;
  } else if (typeof options === 'object' && !isProxy(options)) {
    for (const k of Object.keys(options)) {
      if (k !== 'encoding' && k !== 'flag' && k !== 'signal') return null;
    }
    if (options.flag !== undefined && options.flag !== 'r') return null;
    encoding = options.encoding;
    signal = options.signal;
    if (signal !== undefined && !(signal instanceof AbortSignal && !isProxy(signal))) return null;
  } else {
    return null;
  }
  if (encoding === undefined || encoding === null) return { encoding: null, signal };
  return typeof encoding === 'string' && Buffer.isEncoding(encoding) ? { encoding, signal } : null;
}

function statOptionsOk(options) {
  return options === undefined || options === null ||
    (typeof options === 'object' && !isProxy(options) && Object.keys(options).every(
      (k) => k === 'bigint' && (options.bigint === false || options.bigint === undefined)));
}

const FAMILIES = new Map([[0, 0], [4, 4], [6, 6], ['IPv4', 4], ['IPv6', 6]]);
const NUMERIC_FAMILIES = new Map([[0, 0], [4, 4], [6, 6]]);
const ORDERS = new Set(['ipv4first', 'ipv6first', 'verbatim']);

// dns.lookup's host and options: { family, all, order } or null. A host
// that is empty, an IP address or not plain ASCII is Node's to answer
// (Node answers the first two without a lookup, and converts the last).
// `callbackForm`: dns.lookup takes family 'IPv4'/'IPv6', dns.promises.lookup
// does not.
function lookupShape(hostname, options, callbackForm) {
  const families = callbackForm ? FAMILIES : NUMERIC_FAMILIES;
  if (typeof hostname !== 'string' || hostname.length === 0 || net.isIP(hostname) !== 0 ||
      !/^[\x21-\x7e]+$/.test(hostname)) {
    return null;
  }
  const shape = { family: 0, all: false, order: nodeDns.getDefaultResultOrder() };
  let addrconfig = false;
  if (options === undefined) return shape;
  if (typeof options === 'number') {
    if (!NUMERIC_FAMILIES.has(options)) return null;
    shape.family = options;
    return shape;
  }
  if (options === null || typeof options !== 'object' || isProxy(options)) return null;
  for (const k of Object.keys(options)) {
    const v = options[k];
    if (v === undefined || v === null) continue;
    switch (k) {
      case 'family':
        if (!families.has(v)) return null;
        shape.family = families.get(v);
        break;
      case 'all':
        if (typeof v !== 'boolean') return null;
        shape.all = v;
        break;
      case 'hints':
        if (v === nodeDns.ADDRCONFIG) addrconfig = true;
        else if (v !== 0) return null;
        break;
      case 'verbatim':
        if (typeof v !== 'boolean') return null;
        shape.order = v ? 'verbatim' : 'ipv4first';
        break;
      case 'order':
        if (!ORDERS.has(v)) return null;
        shape.order = v;
        break;
      default:
        return null;
    }
  }
  // `order` wins over `verbatim`, as in Node.
  if (options.order !== undefined && options.order !== null) shape.order = options.order;
  if (addrconfig) {
    // AI_ADDRCONFIG (what net.connect passes): answers only of families the
    // machine has a non-loopback address of. Run here only where that is
    // plain: both families present (no filter), or IPv4 and no IPv6 at all
    // (IPv4 only); anything else is Node's.
    const have = configuredFamilies();
    if (have.v4 && have.v6) return shape;
    if (have.v4 && !have.anyV6 && shape.family !== 6) {
      shape.family = 4;
      return shape;
    }
    return null;
  }
  return shape;
}

// The families of this machine's non-loopback addresses (IPv6 link-local
// addresses make IPv6 "some" but not "configured"), read at most once a second.
let families = { at: -Infinity };
function configuredFamilies() {
  const now = Date.now();
  if (now - families.at < 1000) return families;
  const f = { at: now, v4: false, v6: false, anyV6: false };
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list || []) {
      if (a.internal) continue;
      if (a.family === 'IPv4' || a.family === 4) f.v4 = true;
      if (a.family === 'IPv6' || a.family === 6) {
        f.anyV6 = true;
        if (!/^fe[89ab]/i.test(a.address)) f.v6 = true;
      }
    }
  }
  families = f;
  return f;
}

function orderAddresses(list, order) {
  if (order === 'verbatim') return list;
  const first = order === 'ipv4first' ? 4 : 6;
  return [...list.filter((a) => a.family === first), ...list.filter((a) => a.family !== first)];
}

// ------------------------------------------------------------ operations
// Each `run*` takes arguments of the fast-path shape and returns a promise,
// or, given a Node-style callback last, calls it (see `start`).

function runPbkdf2(args, callback) {
  count('calls', 'pbkdf2');
  return start(() => native.pbkdf2(inbox, ...args), undefined, null, callback, undefined, 'PBKDF2REQUEST');
}

function runScrypt(args, callback) {
  count('calls', 'scrypt');
  return start(() => native.scrypt(inbox, ...args), undefined, null, callback, undefined, 'SCRYPTREQUEST');
}

function runGzip(input, level, callback) {
  count('calls', 'gzip');
  return start(() => native.gzip(inbox, input, level), undefined, null, callback, undefined, 'ZLIB');
}

// `maxOutput`: the caller's maxOutputLength, or Node's default kMaxLength.
function runGunzip(input, callback, maxOutput = kMaxLength) {
  count('calls', 'gunzip');
  return start(() => native.gunzip(inbox, input, maxOutput), undefined, null, callback, undefined, 'ZLIB');
}

function runReadFile(filePath, encoding, callback, signal) {
  count('calls', 'readFile');
  const cancel = signal === undefined ? undefined : new native.Cancel();
  return start(() => native.readFile(inbox, filePath, cancel), filePath,
    encoding ? (buf) => buf.toString(encoding) : null, callback, undefined, 'FSREQCALLBACK',
    signal, cancel);
}

const msFromTimeSpec = (sec, nsec) => sec * 1e3 + nsec / 1e6;

// fs.Stats as Node's own binding builds them. Node 22 and later deprecate
// the public constructor (DEP0180) and compute the Date fields lazily from
// the *Ms ones: there, the object is made from the prototype with the
// fields Node's binding sets; before, the constructor is Node's own way.
const lazyDates = typeof (Object.getOwnPropertyDescriptor(nodeFs.Stats.prototype, 'atime') || {}).get === 'function';

function statsFrom(f) {
  const atimeMs = msFromTimeSpec(f[10], f[11]);
  const mtimeMs = msFromTimeSpec(f[12], f[13]);
  const ctimeMs = msFromTimeSpec(f[14], f[15]);
  const birthtimeMs = msFromTimeSpec(f[16], f[17]);
  if (!lazyDates) {
    return new nodeFs.Stats(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9],
      atimeMs, mtimeMs, ctimeMs, birthtimeMs);
  }
  const s = Object.create(nodeFs.Stats.prototype);
  s.dev = f[0];
  s.mode = f[1];
  s.nlink = f[2];
  s.uid = f[3];
  s.gid = f[4];
  s.rdev = f[5];
  s.blksize = f[6];
  s.ino = f[7];
  s.size = f[8];
  s.blocks = f[9];
  s.atimeMs = atimeMs;
  s.mtimeMs = mtimeMs;
  s.ctimeMs = ctimeMs;
  s.birthtimeMs = birthtimeMs;
  return s;
}

function runStat(filePath, callback) {
  count('calls', 'stat');
  return start(() => native.stat(inbox, filePath), filePath, statsFrom, callback, undefined, 'FSREQCALLBACK');
}

function runLookup(hostname, shape, callback, spread) {
  count('calls', 'lookup');
  return start(() => native.lookup(inbox, hostname, shape.family), hostname, (addrs) => {
    const list = orderAddresses(
      addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })), shape.order);
    if (list.length === 0) {
      // The resolver reports "no address" as an error; this is defensive.
      throw failureError({ kind: 'dns', code: 'ENOTFOUND' }, hostname);
    }
    return shape.all ? list : list[0];
  }, callback, spread, 'GETADDRINFOREQWRAP');
}

function fallback(op) {
  count('fallbacks', op);
}

// `plan()` (a shape check) as null where it throws: an options object with
// a throwing getter, a revoked Proxy. The call then goes to Node's own
// function, which meets the same throw where Node does (a rejection for a
// promise form).
function planned(plan) {
  if (disabled !== null) return null;
  try {
    return plan();
  } catch {
    return null;
  }
}

// --------------------------------------------------------- promise API

const promisified = {
  pbkdf2: util.promisify(original.pbkdf2),
  scrypt: util.promisify(original.scrypt),
  randomBytes: util.promisify(original.randomBytes),
  gzip: util.promisify(original.gzip),
  gunzip: util.promisify(original.gunzip),
};

// Node's promise function `fn(...args)`: it throws or rejects as Node does.
function nodePromise(op, fn, args) {
  fallback(op);
  return fn(...args);
}

const crypto = {
  /** `crypto.pbkdf2` as a promise, on the Cpu lane. */
  pbkdf2(password, salt, iterations, keylen, digest) {
    const shape = planned(() => pbkdf2Shape(password, salt, iterations, keylen, digest));
    if (shape) return runPbkdf2(shape);
    return nodePromise('pbkdf2', promisified.pbkdf2, [password, salt, iterations, keylen, digest]);
  },
  /** `crypto.scrypt` as a promise, on the Cpu lane. */
  scrypt(password, salt, keylen, options) {
    const shape = planned(() => scryptShape(password, salt, keylen, options));
    if (shape) return runScrypt(shape);
    return nodePromise('scrypt', promisified.scrypt,
      options === undefined ? [password, salt, keylen] : [password, salt, keylen, options]);
  },
  /** `crypto.randomBytes` as a promise, on the Cpu lane. */
  randomBytes(size) {
    if (disabled === null && isInt(size, 1, MAX_OUTPUT)) {
      count('calls', 'randomBytes');
      return start(() => native.randomBytes(inbox, size));
    }
    return nodePromise('randomBytes', promisified.randomBytes, [size]);
  },
};

const zlib = {
  /** `zlib.gzip` as a promise, on the Cpu lane; options: `level` only. */
  gzip(buffer, options) {
    const how = planned(() => {
      const input = zlibInput(buffer);
      const level = input === null ? null : gzipLevel(options);
      return level === null ? null : [input, level];
    });
    if (how) return runGzip(how[0], how[1]);
    return nodePromise('gzip', promisified.gzip, [buffer, options === undefined ? {} : options]);
  },
  /** `zlib.gunzip` as a promise, on the Cpu lane; options: `maxOutputLength` only. */
  gunzip(buffer, options) {
    const how = planned(() => {
      const input = zlibInput(buffer);
      const max = input === null ? null : gunzipMaxOutput(options);
      return max === null ? null : [input, max];
    });
    if (how) return runGunzip(how[0], undefined, how[1]);
    return nodePromise('gunzip', promisified.gunzip, [buffer, options === undefined ? {} : options]);
  },
};

const fs = {
  /** `fs.promises.readFile`, on the FastIo lane (`signal` honoured). */
  readFile(filePath, options) {
    const how = planned(() => {
      const p = pathShape(filePath);
      const o = p === null ? null : readFileOptions(options);
      return o && [p, o];
    });
    if (how) return runReadFile(how[0], how[1].encoding, undefined, how[1].signal);
    return nodePromise('readFile', original.readFilePromise.bind(nodeFs.promises), [filePath, options]);
  },
  /** `fs.promises.stat`, on the FastIo lane. */
  stat(filePath, options) {
    const p = planned(() => (statOptionsOk(options) ? pathShape(filePath) : null));
    if (p !== null) return runStat(p);
    return nodePromise('stat', original.statPromise.bind(nodeFs.promises), [filePath, options]);
  },
};

const dns = {
  /** `dns.promises.lookup` through sluice::dns: no pool thread waits. */
  lookup(hostname, options) {
    const shape = planned(() => lookupShape(hostname, options, false));
    if (shape) return runLookup(hostname, shape);
    return nodePromise('lookup', original.lookupPromise.bind(nodeDns.promises), [hostname, options]);
  },
};

// ------------------------------------------------------- SLUICE_*, warm-up
// A refused SLUICE_* variable (SLUICE_CPU_THREADS=4 on 2 cores, junk) is
// found when the package loads, before any call: every call then goes to
// Node's own function (libuv's pool), and one warning names the variable
// and its value, on the next turn of the loop (unless configure() replaced
// the value by then). configure() and metrics() throw that error
// (ERR_SLUICE_ENV). An empty variable is an unset one.

let disabled = null;
{
  const refused = native.checkEnv();
  if (refused) {
    disabled = new Error(`sluice: ${refused.message}`);
    disabled.code = 'ERR_SLUICE_ENV';
    disabled.variable = refused.variable;
    disabled.value = refused.value;
  }
}

// Once the tick that loaded the package ends (configure() runs in it, or
// builds the pool itself), the pool is built, a worker started on each lane,
// and the resolver read: the first call is as fast as the next ones.
setImmediate(() => {
  if (disabled !== null) {
    process.emitWarning(
      `${disabled.message.replace(/^sluice: /, '')}; sluice is off: every call runs on Node's own functions (libuv's pool) until it is fixed`,
      { code: 'ERR_SLUICE_ENV', type: 'SluiceWarning' });
    return;
  }
  ringable();
  try {
    native.warm();
  } catch {
    // The first call reports it.
  }
}).unref();

// ------------------------------------------------------ admission, metrics

const OPTIONS = ['cpu', 'fastIo', 'slowIo', 'cpuQueueBound', 'fastIoQueueBound',
  'slowIoQueueBound', 'stackSize', 'cpuNice', 'cpuSched'];
// The Cpu workers' scheduling policies (`cpuSched`); unset: SLUICE_CPU_SCHED,
// else 'guarded' where the process may take a thread out of SCHED_IDLE
// (CAP_SYS_NICE, `ulimit -e` >= 20 - cpuNice), else 'normal' (SCHED_OTHER at
// cpuNice); metricsJson().pool.cpu_sched says which.
const CPU_SCHEDS = ['normal', 'batch', 'idle', 'guarded'];

function configure(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    const err = new TypeError(
      `sluice.configure(options): options must be an object; received ${util.inspect(options)}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
  const clean = {};
  for (const key of Object.keys(options)) {
    const value = options[key];
    if (!OPTIONS.includes(key)) {
      const err = new TypeError(
        `sluice.configure: unknown option "${key}"; expected one of ${OPTIONS.join(', ')}`);
      err.code = 'ERR_INVALID_ARG_VALUE';
      throw err;
    }
    if (value === undefined) continue;
    if (key === 'cpuSched') {
      if (typeof value !== 'string') {
        const err = new TypeError(
          `sluice.configure: option "cpuSched" must be a string; received ${util.inspect(value)}`);
        err.code = 'ERR_INVALID_ARG_TYPE';
        throw err;
      }
      if (!CPU_SCHEDS.includes(value)) {
        const err = new TypeError(
          `sluice.configure: option "cpuSched" = ${util.inspect(value)} is not accepted; expected one of ${CPU_SCHEDS.join(', ')}`);
        err.code = 'ERR_INVALID_ARG_VALUE';
        throw err;
      }
      clean[key] = value;
      continue;
    }
    if (typeof value !== 'number') {
      const err = new TypeError(
        `sluice.configure: option "${key}" must be a number; received ${util.inspect(value)}`);
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    if (!Number.isInteger(value) || value < 0 || value > 2 ** 32 - 1) {
      const err = new RangeError(
        `sluice.configure: option "${key}" = ${value} is out of range; expected a whole number`);
      err.code = 'ERR_OUT_OF_RANGE';
      throw err;
    }
    clean[key] = value;
  }
  try {
    native.configure(clean);
  } catch (e) {
    const m = /^(ERR_[A-Z_]+): (.*)$/s.exec(e.message);
    const err = m && m[1] === 'ERR_OUT_OF_RANGE'
      ? new RangeError(`sluice.configure: ${m[2]}`)
      : new Error(`sluice.configure: ${m ? m[2] : e.message}`);
    err.code = m ? m[1] : 'ERR_SLUICE_CONFIGURE';
    throw err;
  }
  // The options replaced what a refused variable said.
  disabled = null;
}

// OpenMetrics text (what the pool writes) as Prometheus text format 0.0.4,
// which prom-client writes: no `# EOF`, no `# UNIT`, and a counter's HELP
// and TYPE name the `_total` series it has.
function toPrometheusText(openMetrics) {
  const counterFamilies = new Set();
  const infoFamilies = new Set();
  for (const line of openMetrics.split('\n')) {
    const m = /^# TYPE (\S+) (counter|info)$/.exec(line);
    if (m) (m[2] === 'counter' ? counterFamilies : infoFamilies).add(m[1]);
  }
  const out = [];
  for (const line of openMetrics.split('\n')) {
    if (line === '' || line === '# EOF' || line.startsWith('# UNIT ')) continue;
    const m = /^# (HELP|TYPE) (\S+)( .*)$/.exec(line);
    if (m && counterFamilies.has(m[2])) {
      out.push(`# ${m[1]} ${m[2]}_total${m[3]}`);
    } else if (m && infoFamilies.has(m[2])) {
      // OpenMetrics' info family `x` is the gauge `x_info` (value 1) in
      // Prometheus' text format.
      out.push(m[1] === 'TYPE' ? `# TYPE ${m[2]}_info gauge` : `# HELP ${m[2]}_info${m[3]}`);
    } else {
      out.push(line);
    }
  }
  return out.join('\n') + '\n';
}

function nodeCountersText() {
  const lines = [];
  for (const [kind, help] of [
    ['calls', 'Calls this thread ran through sluice, by operation'],
    ['fallbacks', 'Calls this thread handed to Node\'s own function (a shape sluice does not run), by operation'],
  ]) {
    const name = `sluice_node_${kind}_total`;
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
    for (const [op, n] of Object.entries(counters[kind])) lines.push(`${name}{op="${op}"} ${n}`);
  }
  return lines.join('\n') + '\n';
}

// The addon's answer to `call()`, or the error that turned sluice off.
function fromPool(call) {
  if (disabled !== null) throw disabled;
  try {
    return call();
  } catch (e) {
    throw addonError(e);
  }
}

/** Prometheus text, ready to append to prom-client's `register.metrics()`. */
function metrics() {
  return toPrometheusText(fromPool(() => native.metricsText())) + nodeCountersText();
}

/** The pool's and the resolver's counts as an object (see index.d.ts). */
function metricsJson() {
  const m = JSON.parse(fromPool(() => native.metricsJson()));
  m.node = { calls: { ...counters.calls }, fallbacks: { ...counters.fallbacks } };
  return m;
}

/**
 * Resolves once a FastIo worker has run an empty task: the pool's own round
 * trip from JavaScript (the call, a worker, the inbox, the promise). A health
 * check can await it to see the lanes answer; a benchmark, what the package
 * costs beyond the work itself.
 */
function ping() {
  if (disabled !== null) return Promise.reject(disabled);
  return start(() => native.noop(inbox));
}

/** True once the pool exists (configured, or built by a first call or the warm-up). */
function isConfigured() {
  return native.isConfigured();
}

/** How the addon was compiled: 'release' or 'debug'. */
function buildProfile() {
  return native.buildProfile();
}

// For sluice/patch and the tests; not part of the documented API.
const _internal = {
  native,
  original,
  inbox,
  shapes: { pbkdf2Shape, scryptShape, zlibInput, gzipLevel, gunzipOptionsOk, gunzipMaxOutput, pathShape,
    readFileOptions, statOptionsOk, lookupShape },
  run: { runPbkdf2, runScrypt, runGzip, runGunzip, runReadFile, runStat, runLookup },
  fallback,
  start,
  planned,
  disabled: () => disabled,
  toPrometheusText,
  // A task that panics in Rust: the test of the panic path.
  panicForTest: (message) => start(() => native.panicForTest(inbox, String(message))),
  // An outcome of `len` zero bytes (untouched pages): the test of a value
  // V8 refuses, past buffer.kMaxLength.
  oversizedForTest: (len, callback) => start(() => native.oversizedForTest(inbox, len), undefined, null, callback),
  pending: () => waiting.size,
  setDrainLimitForTest: (limit) => {
    drainLimit = limit;
  },
};

// Written as a list of names, so that Node's CJS export detector finds every
// one of them: `import { metrics } from 'sluice'` works.
module.exports = {
  crypto,
  zlib,
  fs,
  dns,
  configure,
  isConfigured,
  buildProfile,
  metrics,
  metricsJson,
  ping,
  _internal,
};
