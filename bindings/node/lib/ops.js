'use strict';
// The operations: each `run*` takes arguments of the fast-path shape
// (shapes.js) and returns a promise, or, given a Node-style callback last,
// calls it (call.js's `start`); and the package's promise API (`crypto`,
// `zlib`, `fs`, `dns`, `ping`), which runs a shape sluice runs on the pool
// and hands any other to Node's own function. Those hand-offs are counted:
// `metricsJson().node.fallbacks`.

const nodeCrypto = require('node:crypto');
const nodeZlib = require('node:zlib');
const nodeFs = require('node:fs');
const nodeDns = require('node:dns');
const { kMaxLength } = require('node:buffer');
const util = require('node:util');

const native = require('../binding.js');
const { slot } = require('./inbox.js');
const { start, ioInFlight } = require('./call.js');
const { failureError, nodeError } = require('./errors.js');
const {
  MAX_OUTPUT, isInt, pbkdf2Shape, scryptShape, gzipShape, gunzipShape, pathShape,
  readFileOptions, statOptionsOk, lookupShape, orderAddresses,
} = require('./shapes.js');
const { count } = require('./metrics.js');
const perf = require('./perf.js');
const { planned, disabled } = require('./pool.js');
const { FS, LOOKUP } = require('./requests.js');
const { switchOf } = require('./switch.js');

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

// The requests Node's callback forms make, as async_hooks see them, and how
// Node lists them (see call.js's `start`).
const REQUEST = {
  pbkdf2: { type: 'PBKDF2REQUEST' },
  scrypt: { type: 'SCRYPTREQUEST' },
  zlib: { type: 'ZLIB' },
  stat: { type: 'FSREQCALLBACK', listed: FS },
  lookup: { type: 'GETADDRINFOREQWRAP', listed: LOOKUP },
  // fs.readFile: open, then fstat, the reads (512 KiB each; one for an
  // empty file) and close, each an FSREQCALLBACK made in the previous
  // one's callback; a failed open calls back in the open's, a failed
  // fstat or read (or a file over 2 GiB) closes first, as Node does.
  readFile: { type: 'FSREQCALLBACK', listed: FS, after: readFileRequestsAfterOpen },
};

const READ_CHUNK = 512 * 1024;

function readFileRequestsAfterOpen(value) {
  if (Buffer.isBuffer(value) || typeof value === 'string') {
    return 1 + Math.max(1, Math.ceil(value.length / READ_CHUNK)) + 1;
  }
  if (value instanceof Error) return value.code === 'ABORT_ERR' ? 1 : 0;
  if (value === null || typeof value !== 'object') return 0;
  if (value.kind === 'sys') return value.syscall === 'open' ? 0 : value.syscall === 'read' ? 3 : 2;
  if (value.kind === 'range') return 2;
  if (value.kind === 'aborted') return 1;
  return 0;
}

function runPbkdf2(args, callback) {
  count('calls', 'pbkdf2');
  return start(() => native.pbkdf2(slot, ...args), undefined, null, callback, undefined, REQUEST.pbkdf2);
}

function runScrypt(args, callback) {
  count('calls', 'scrypt');
  return start(() => native.scrypt(slot, ...args), undefined, null, callback, undefined, REQUEST.scrypt);
}

function runGzip(input, level, callback) {
  count('calls', 'gzip');
  return start(() => native.gzip(slot, input, level), undefined, null, callback, undefined, REQUEST.zlib);
}

// `maxOutput`: the caller's maxOutputLength, or Node's default kMaxLength.
function runGunzip(input, callback, maxOutput = kMaxLength) {
  count('calls', 'gunzip');
  return start(() => native.gunzip(slot, input, maxOutput), undefined, null, callback, undefined, REQUEST.zlib);
}

// The no-wait path (`sluice::nowait` in the addon): a stat, a readFile of
// up to 64 KiB or a lookup that the kernel's caches (or the resolver's
// hosts file and TTL cache) can answer without a wait is answered on this
// thread, with no pool thread and no thread wake-up; its callback still
// comes from the loop, on a later turn, as any outcome's. It is tried only
// while few of this copy's fs and dns calls are in flight
// (NOWAIT_MAX_PENDING; lib/call.js counts them): a lone call's answer then
// takes a few microseconds where a pool thread's takes two thread
// wake-ups (each up to a scheduler tick on busy cores), and a burst keeps
// its calls on the FastIo lane, whose threads answer them on the other
// cores while this thread runs JavaScript. Cpu work in flight (a flood of
// password hashes) does not count: beside 32 argon2 verifies, a static
// file's open and reads are still answered here, where each round trip to
// a pool thread waited for a busy core.
// SLUICE_NOWAIT=0 turns it off (1, true, on or unset: on).
const NOWAIT = switchOf(process.env, 'SLUICE_NOWAIT', true, 'sluice', 'ERR_SLUICE_ENV');
const NOWAIT_MAX_PENDING = 4;
const nowait = () => NOWAIT && ioInFlight() < NOWAIT_MAX_PENDING;

function runReadFile(filePath, encoding, callback, signal) {
  count('calls', 'readFile');
  const cancel = signal === undefined ? undefined : new native.Cancel();
  return start(() => native.readFile(slot, filePath, cancel, nowait()), filePath,
    encoding ? (buf) => buf.toString(encoding) : null, callback, undefined, REQUEST.readFile,
    signal, cancel);
}

function runStat(filePath, callback) {
  count('calls', 'stat');
  // The outcome is a Stats already (built from the inbox's slab).
  return start(() => native.stat(slot, filePath, nowait()), filePath, null, callback, undefined, REQUEST.stat);
}

// Node's lookup takes `order` (and names it in its 'dns' entries) from
// 20.13 and 22.1 on.
const LOOKUP_HAS_ORDER = (() => {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 1) || (major === 20 && minor >= 13);
})();

function runLookup(hostname, shape, callback, spread) {
  count('calls', 'lookup');
  const startTime = perf.lookupStarted();
  return start(() => native.lookup(slot, hostname, shape.family, nowait()), hostname, (addrs) => {
    const list = orderAddresses(
      addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })), shape.order);
    if (list.length === 0) {
      // The resolver reports "no address" as an error; this is defensive.
      throw failureError({ kind: 'dns', code: 'ENOTFOUND' }, hostname);
    }
    // Node's detail: the addresses as the callback gets them (`all`: objects).
    const detail = { hostname, family: shape.family, hints: shape.hints, verbatim: shape.order === 'verbatim' };
    if (LOOKUP_HAS_ORDER) detail.order = shape.order;
    detail.addresses = shape.all ? list.map((a) => ({ ...a })) : list.map((a) => a.address);
    perf.lookupDone(startTime, detail);
    return shape.all ? list : list[0];
  }, callback, spread, REQUEST.lookup);
}

/** Counts a call handed to Node's own function `op`. */
function fallback(op) {
  count('fallbacks', op);
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
    if (disabled() === null && isInt(size, 1, MAX_OUTPUT)) {
      count('calls', 'randomBytes');
      return start(() => native.randomBytes(slot, size));
    }
    return nodePromise('randomBytes', promisified.randomBytes, [size]);
  },
};

const zlib = {
  /** `zlib.gzip` as a promise, on the Cpu lane; options: `level` only. */
  gzip(buffer, options) {
    const how = planned(() => gzipShape(buffer, options));
    if (how) return runGzip(how[0], how[1]);
    return nodePromise('gzip', promisified.gzip, [buffer, options === undefined ? {} : options]);
  },
  /** `zlib.gunzip` as a promise, on the Cpu lane; options: `maxOutputLength` only. */
  gunzip(buffer, options) {
    const how = planned(() => gunzipShape(buffer, options));
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

/**
 * Resolves once a FastIo worker has run an empty task: the pool's own round
 * trip from JavaScript (the call, a worker, the inbox, the promise). A health
 * check can await it to see the lanes answer; a benchmark, what the package
 * costs beyond the work itself. With a Node-style `callback`, no promise is
 * made: it is called with `null` (or the error) from the loop, in the
 * caller's async context, as Node calls its own callbacks, and `ping`
 * returns `undefined`.
 */
function ping(callback) {
  if (callback !== undefined && typeof callback !== 'function') {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE',
      `The "callback" argument must be of type function. Received ${callback === null ? 'null' : `type ${typeof callback}`}`);
  }
  const refused = disabled();
  if (refused !== null) {
    if (callback === undefined) return Promise.reject(refused);
    process.nextTick(callback, refused);
    return undefined;
  }
  return start(() => native.noop(slot), undefined, null, callback);
}

module.exports = {
  NOWAIT,
  nowait,
  original,
  run: { runPbkdf2, runScrypt, runGzip, runGunzip, runReadFile, runStat, runLookup },
  fallback,
  api: { crypto, zlib, fs, dns, ping },
};
