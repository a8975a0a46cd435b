'use strict';
// The fast-path shapes: does sluice run this call? Each `*Shape` (or
// `*Options`) check takes the caller's very arguments and returns the clean
// values the addon takes, or null for anything else (invalid arguments,
// file descriptors, other digests, zlib options beyond `level`): the call
// then goes to Node's own function, so argument errors are Node's, byte for
// byte, and nothing Node accepts is refused.

const nodeDns = require('node:dns');
const { kMaxLength } = require('node:buffer');
const net = require('node:net');
const os = require('node:os');
const util = require('node:util');

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

// A zlib.gzip or zlib.gunzip call sluice runs: [the input's bytes,
// setting(options)] (gzip's level, gunzip's output limit), or null.
function zlibShape(buffer, options, setting) {
  const input = zlibInput(buffer);
  const s = input === null ? null : setting(options);
  return s === null ? null : [input, s];
}

const gzipShape = (buffer, options) => zlibShape(buffer, options, gzipLevel);
const gunzipShape = (buffer, options) => zlibShape(buffer, options, gunzipMaxOutput);

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
// An IP literal (Node answers it without a lookup). net.isIP only where the
// name could be one (digits and dots, or a colon: every IPv4 and IPv6
// literal is), so that a host name never pays for the first use of Node's
// IPv6 pattern, a regular expression V8 compiles then (38 ms measured on a
// busy sandboxed machine; noisy).
function mayBeIP(hostname) {
  return (hostname.includes(':') || /^[0-9.]+$/.test(hostname)) && net.isIP(hostname) !== 0;
}

function lookupShape(hostname, options, callbackForm) {
  const families = callbackForm ? FAMILIES : NUMERIC_FAMILIES;
  if (typeof hostname !== 'string' || hostname.length === 0 || mayBeIP(hostname) ||
      !/^[\x21-\x7e]+$/.test(hostname)) {
    return null;
  }
  const shape = { family: 0, all: false, order: nodeDns.getDefaultResultOrder(), hints: 0 };
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
        shape.hints = v;
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

module.exports = {
  MAX_OUTPUT,
  isInt,
  bytes,
  pbkdf2Shape,
  scryptShape,
  zlibInput,
  gzipLevel,
  gunzipMaxOutput,
  gzipShape,
  gunzipShape,
  gunzipOptionsOk,
  pathShape,
  readFileOptions,
  statOptionsOk,
  lookupShape,
  orderAddresses,
};
