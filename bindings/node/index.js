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
// How outcomes come back: each native call returns an id at once; a worker
// that finishes posts (id, outcome) to this thread's mailbox in the addon
// and, once per batch, writes a byte to a socket whose other end is `bell`.
// On that byte the loop drains the mailbox and hands each outcome to what
// waits for it: a promise, or a Node-style callback (see `start`). No
// lock is shared with the workers, so the loop never waits for one. `bell`
// keeps the loop alive only while operations are in flight.

const waiting = new Map();
const bell = openBell();

function openBell() {
  // `onread` reads the bell's bytes into one small buffer of our own: no
  // 64 KiB Buffer per ring for the garbage collector.
  const socket = new net.Socket({
    fd: native.openInbox(),
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

// Operation `id`'s outcome goes to `onOutcome`, called once, on the loop.
function expect(id, onOutcome) {
  if (waiting.size === 0) bell.ref();
  waiting.set(id, onOutcome);
}

function deliver() {
  const letters = native.drain();
  for (let i = 0; i < letters.length; i += 2) {
    const onOutcome = waiting.get(letters[i]);
    if (onOutcome === undefined) continue;
    waiting.delete(letters[i]);
    onOutcome(letters[i + 1]);
  }
  if (waiting.size === 0) bell.unref();
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

function failureError(f, context) {
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
  return value !== null && typeof value === 'object' && typeof value.kind === 'string' &&
    !ArrayBuffer.isView(value);
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
// settled with the result or with Node's error (a synchronous failure, say
// a bad SLUICE_* variable, becomes its rejection). With a Node-style
// `callback`, returns nothing and calls it straight from the loop when the
// outcome arrives, as Node calls its own: no promise, no extra tick.
// `spread(callback, result)`, where given, hands the result over the way
// the Node function does (dns.lookup's `(err, address, family)`).
function start(submit, context, shape, callback, spread) {
  let id;
  try {
    id = submit();
  } catch (err) {
    if (callback === undefined) return Promise.reject(err);
    process.nextTick(callback, err);
    return undefined;
  }
  if (callback === undefined) {
    return new Promise((resolve, reject) => expect(id, (value) => {
      const [error, result] = resultOf(value, context, shape);
      if (error !== null) reject(error);
      else resolve(result);
    }));
  }
  expect(id, (value) => {
    const [error, result] = resultOf(value, context, shape);
    try {
      if (error !== null) callback(error);
      else if (spread) spread(callback, result);
      else callback(null, result);
    } catch (err) {
      // What Node does with an exception thrown by a callback: an uncaught
      // exception. Thrown on the next tick, so the rest of this batch's
      // outcomes are still delivered.
      process.nextTick(() => {
        throw err;
      });
    }
  });
  return undefined;
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

function bytes(v) {
  if (typeof v === 'string') return Buffer.from(v, 'utf8');
  if (Buffer.isBuffer(v)) return v;
  if (ArrayBuffer.isView(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (v instanceof ArrayBuffer) return Buffer.from(v);
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
    if (typeof options !== 'object') return null;
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

function zlibInput(buffer) {
  return bytes(buffer);
}

// zlib options sluice runs: none, or only `level`.
function gzipLevel(options) {
  if (options === undefined || options === null) return -1;
  if (typeof options !== 'object') return null;
  const keys = Object.keys(options);
  if (keys.length === 0) return -1;
  if (keys.length === 1 && keys[0] === 'level' && isInt(options.level, -1, 9)) return options.level;
  return null;
}

function gunzipOptionsOk(options) {
  return options === undefined || options === null ||
    (typeof options === 'object' && Object.keys(options).length === 0);
}

function pathShape(p) {
  return typeof p === 'string' && p.length > 0 && !p.includes('\u0000') ? p : null;
}

// readFile's options: undefined, an encoding, or { encoding, flag: 'r' }.
// Returns { encoding } or null.
function readFileOptions(options) {
  if (options === undefined || options === null) return { encoding: null };
  let encoding;
  if (typeof options === 'string') {
    encoding = options;
  } else if (typeof options === 'object') {
    for (const k of Object.keys(options)) {
      if (k !== 'encoding' && k !== 'flag') return null;
    }
    if (options.flag !== undefined && options.flag !== 'r') return null;
    encoding = options.encoding;
  } else {
    return null;
  }
  if (encoding === undefined || encoding === null) return { encoding: null };
  return typeof encoding === 'string' && Buffer.isEncoding(encoding) ? { encoding } : null;
}

function statOptionsOk(options) {
  return options === undefined || options === null ||
    (typeof options === 'object' && Object.keys(options).every(
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
  if (options === null || typeof options !== 'object') return null;
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
  return start(() => native.pbkdf2(...args), undefined, null, callback);
}

function runScrypt(args, callback) {
  count('calls', 'scrypt');
  return start(() => native.scrypt(...args), undefined, null, callback);
}

function runGzip(input, level, callback) {
  count('calls', 'gzip');
  return start(() => native.gzip(input, level), undefined, null, callback);
}

function runGunzip(input, callback) {
  count('calls', 'gunzip');
  return start(() => native.gunzip(input), undefined, null, callback);
}

function runReadFile(filePath, encoding, callback) {
  count('calls', 'readFile');
  return start(() => native.readFile(filePath), filePath,
    encoding ? (buf) => buf.toString(encoding) : null, callback);
}

const msFromTimeSpec = (sec, nsec) => sec * 1e3 + nsec / 1e6;

function statsFrom(f) {
  return new nodeFs.Stats(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9],
    msFromTimeSpec(f[10], f[11]), msFromTimeSpec(f[12], f[13]),
    msFromTimeSpec(f[14], f[15]), msFromTimeSpec(f[16], f[17]));
}

function runStat(filePath, callback) {
  count('calls', 'stat');
  return start(() => native.stat(filePath), filePath, statsFrom, callback);
}

function runLookup(hostname, shape, callback, spread) {
  count('calls', 'lookup');
  return start(() => native.lookup(hostname, shape.family), hostname, (addrs) => {
    const list = orderAddresses(
      addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })), shape.order);
    if (list.length === 0) {
      // The resolver reports "no address" as an error; this is defensive.
      throw failureError({ kind: 'dns', code: 'ENOTFOUND' }, hostname);
    }
    return shape.all ? list : list[0];
  }, callback, spread);
}

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

const crypto = {
  /** `crypto.pbkdf2` as a promise, on the Cpu lane. */
  pbkdf2(password, salt, iterations, keylen, digest) {
    const shape = pbkdf2Shape(password, salt, iterations, keylen, digest);
    if (shape) return runPbkdf2(shape);
    fallback('pbkdf2');
    return promisified.pbkdf2(password, salt, iterations, keylen, digest);
  },
  /** `crypto.scrypt` as a promise, on the Cpu lane. */
  scrypt(password, salt, keylen, options) {
    const shape = scryptShape(password, salt, keylen, options);
    if (shape) return runScrypt(shape);
    fallback('scrypt');
    return options === undefined
      ? promisified.scrypt(password, salt, keylen)
      : promisified.scrypt(password, salt, keylen, options);
  },
  /** `crypto.randomBytes` as a promise, on the Cpu lane. */
  randomBytes(size) {
    if (isInt(size, 1, MAX_OUTPUT)) {
      count('calls', 'randomBytes');
      return start(() => native.randomBytes(size));
    }
    fallback('randomBytes');
    return promisified.randomBytes(size);
  },
};

const zlib = {
  /** `zlib.gzip` as a promise, on the Cpu lane; options: `level` only. */
  gzip(buffer, options) {
    const input = zlibInput(buffer);
    const level = gzipLevel(options);
    if (input !== null && level !== null) return runGzip(input, level);
    fallback('gzip');
    return promisified.gzip(buffer, options === undefined ? {} : options);
  },
  /** `zlib.gunzip` as a promise, on the Cpu lane. */
  gunzip(buffer, options) {
    const input = zlibInput(buffer);
    if (input !== null && gunzipOptionsOk(options)) return runGunzip(input);
    fallback('gunzip');
    return promisified.gunzip(buffer, options === undefined ? {} : options);
  },
};

const fs = {
  /** `fs.promises.readFile`, on the FastIo lane. */
  readFile(filePath, options) {
    const p = pathShape(filePath);
    const o = p === null ? null : readFileOptions(options);
    if (o) return runReadFile(p, o.encoding);
    fallback('readFile');
    return original.readFilePromise.call(nodeFs.promises, filePath, options);
  },
  /** `fs.promises.stat`, on the FastIo lane. */
  stat(filePath, options) {
    const p = pathShape(filePath);
    if (p !== null && statOptionsOk(options)) return runStat(p);
    fallback('stat');
    return original.statPromise.call(nodeFs.promises, filePath, options);
  },
};

const dns = {
  /** `dns.promises.lookup` through sluice::dns: no pool thread waits. */
  lookup(hostname, options) {
    const shape = lookupShape(hostname, options, false);
    if (shape) return runLookup(hostname, shape);
    fallback('lookup');
    return original.lookupPromise.call(nodeDns.promises, hostname, options);
  },
};

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

/** Prometheus text, ready to append to prom-client's `register.metrics()`. */
function metrics() {
  return toPrometheusText(native.metricsText()) + nodeCountersText();
}

/** The pool's and the resolver's counts as an object (see index.d.ts). */
function metricsJson() {
  const m = JSON.parse(native.metricsJson());
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
  return start(() => native.noop());
}

module.exports = {
  crypto,
  zlib,
  fs,
  dns,
  configure,
  isConfigured: () => native.isConfigured(),
  buildProfile: () => native.buildProfile(),
  metrics,
  metricsJson,
  ping,
  // For sluice/patch and the tests; not part of the documented API.
  _internal: {
    native,
    original,
    shapes: { pbkdf2Shape, scryptShape, zlibInput, gzipLevel, gunzipOptionsOk, pathShape,
      readFileOptions, statOptionsOk, lookupShape },
    run: { runPbkdf2, runScrypt, runGzip, runGunzip, runReadFile, runStat, runLookup },
    fallback,
    toPrometheusText,
    // A task that panics in Rust: the test of the panic path.
    panicForTest: (message) => start(() => native.panicForTest(String(message))),
  },
};
