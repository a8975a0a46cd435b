'use strict';
// The drop-in preload: `node -r sluice/patch app.js`.
//
// Replaces, in Node's own modules, the callback and promise forms of
//   crypto.pbkdf2, crypto.scrypt       (Cpu lane)         SLUICE_PATCH_PBKDF2, SLUICE_PATCH_SCRYPT
//   zlib.gzip, zlib.gunzip             (Cpu lane)         SLUICE_PATCH_GZIP, SLUICE_PATCH_GUNZIP
//   fs.readFile, fs.stat               (FastIo lane)      SLUICE_PATCH_READFILE, SLUICE_PATCH_STAT
//   dns.lookup                         (sluice::dns)      SLUICE_PATCH_LOOKUP
//   fs.open, read, write, close, fstat (FastIo lane)      SLUICE_PATCH_OPEN, _READ, _WRITE, _CLOSE, _FSTAT
//     and FileHandle's read, write, stat (lib/fd.js)
//   zlib and brotli streams            (Cpu lane)         SLUICE_PATCH_DEFLATE, _INFLATE, _GZIP, _GUNZIP,
//     and the convenience forms over them (lib/zlib-stream.js)             _BROTLI_COMPRESS, _BROTLI_DECOMPRESS
//   crypto.randomBytes, randomFill     (Cpu lane)         SLUICE_PATCH_RANDOMBYTES, SLUICE_PATCH_RANDOMFILL
//     (the callback forms; lib/random.js)
//   crypto.hkdf, generateKeyPair       (Cpu lane)         SLUICE_PATCH_HKDF, SLUICE_PATCH_GENERATEKEYPAIR
//     (the callback forms; lib/keys.js)
// ("promise forms": fs.promises.*, dns.promises.lookup, and util.promisify of
// the callback forms). Each variable takes 1/0 (also true/false, on/off);
// unset means on. SLUICE_PATCH=0 turns every one off. A call whose arguments
// are not a shape sluice runs goes to Node's original function unchanged,
// which is why argument errors and every option Node supports stay Node's.

const nodeCrypto = require('node:crypto');
const nodeZlib = require('node:zlib');
const nodeFs = require('node:fs');
const nodeDns = require('node:dns');
const sluice = require('./index.js');
const perf = require('./lib/perf.js');
const { switchOf } = require('./lib/switch.js');
const { eagerly } = require('./lib/eager.js');

const { original, shapes, run, fallback, planned } = sluice._internal;

// Empty is unset, as for every SLUICE_* variable.
function flag(name, fallbackValue) {
  return switchOf(process.env, name, fallbackValue, 'sluice/patch', 'ERR_SLUICE_PATCH_ENV');
}

const all = flag('SLUICE_PATCH', true);
const enabled = {};
for (const op of ['pbkdf2', 'scrypt', 'gzip', 'gunzip', 'readFile', 'stat', 'lookup',
  'open', 'read', 'write', 'close', 'fstat', 'deflate', 'inflate', 'randomFill', 'hkdf',
  'generateKeyPair']) {
  enabled[op] = flag(`SLUICE_PATCH_${op.toUpperCase()}`, all);
}
enabled.brotliCompress = flag('SLUICE_PATCH_BROTLI_COMPRESS', all);
enabled.randomBytes = flag('SLUICE_PATCH_RANDOMBYTES', all);
enabled.brotliDecompress = flag('SLUICE_PATCH_BROTLI_DECOMPRESS', all);

// The replacement keeps the original's name, length and symbol-keyed
// properties (dns.lookup's custom promisify arguments among them).
function like(orig, replacement) {
  Object.defineProperty(replacement, 'name', { value: orig.name });
  Object.defineProperty(replacement, 'length', { value: orig.length });
  for (const key of Object.getOwnPropertySymbols(orig)) {
    Object.defineProperty(replacement, key, Object.getOwnPropertyDescriptor(orig, key));
  }
  return replacement;
}

const patched = [];

// A replacement for the callback form `orig(...leading, [options], callback)`
// (`options` only where `hasOptions`). `plan(...leading, options)` returns how
// sluice runs the call, `{ run, returns }`, or null for a shape sluice leaves
// to Node: then Node's original runs with the caller's very arguments.
// `run(callback)` starts it and calls the callback from the loop as Node's
// own function would (dns.lookup's with `(err, address, family)`); `run()`
// starts it and returns its promise; `returns` is what the callback form
// returns, as Node's does.
function callbackForm(op, orig, leading, hasOptions, plan) {
  if (leading === 1 && hasOptions) return callbackFormOfOne(op, orig, plan);
  return like(orig, function (...args) {
    let opts = hasOptions ? args[leading] : undefined;
    let cb = args[leading + (hasOptions ? 1 : 0)];
    if (hasOptions && typeof opts === 'function') {
      cb = opts;
      opts = undefined;
    }
    // `planned`: null (Node's function runs) where the shape check throws
    // (a throwing getter, a revoked Proxy), or where SLUICE_* turned sluice off.
    const how = typeof cb === 'function' ? planned(() => plan(...args.slice(0, leading), opts)) : null;
    if (!how) {
      fallback(op);
      return Reflect.apply(orig, this, args);
    }
    how.run(cb);
    return how.returns;
  });
}

// `callbackForm` for `orig(first, [options], callback)`, the hot forms
// (fs.stat, fs.readFile, dns.lookup, zlib.gzip, zlib.gunzip): the same
// decisions without a rest array, its slice or a closure per call (Node's
// original still gets the caller's very arguments).
function callbackFormOfOne(op, orig, plan) {
  return like(orig, function (first, opts, cb) {
    if (typeof opts === 'function') {
      cb = opts;
      opts = undefined;
    }
    const how = typeof cb === 'function' ? planned(plan, first, opts) : null;
    if (!how) {
      fallback(op);
      return Reflect.apply(orig, this, arguments);
    }
    how.run(cb);
    return how.returns;
  });
}

// A replacement for the promise form `orig(...args)`, with the same `plan`.
function promiseForm(op, orig, plan) {
  return like(orig, function (...args) {
    const how = planned(() => plan(...args));
    if (!how) {
      fallback(op);
      return Reflect.apply(orig, this, args);
    }
    return how.run();
  });
}

if (enabled.pbkdf2) {
  nodeCrypto.pbkdf2 = callbackForm('pbkdf2', original.pbkdf2, 5, false, (password, salt, iterations, keylen, digest) => {
    const shape = shapes.pbkdf2Shape(password, salt, iterations, keylen, digest);
    return shape && { run: (cb) => run.runPbkdf2(shape, cb) };
  });
  patched.push('crypto.pbkdf2');
}

if (enabled.scrypt) {
  nodeCrypto.scrypt = callbackForm('scrypt', original.scrypt, 3, true, (password, salt, keylen, options) => {
    const shape = shapes.scryptShape(password, salt, keylen, options);
    return shape && { run: (cb) => run.runScrypt(shape, cb) };
  });
  patched.push('crypto.scrypt');
}

if (enabled.gzip) {
  nodeZlib.gzip = callbackForm('gzip', original.gzip, 1, true, (buffer, options) => {
    const shape = shapes.gzipShape(buffer, options);
    return shape && { run: (cb) => run.runGzip(shape[0], shape[1], cb) };
  });
  patched.push('zlib.gzip');
}

if (enabled.gunzip) {
  nodeZlib.gunzip = callbackForm('gunzip', original.gunzip, 1, true, (buffer, options) => {
    const shape = shapes.gunzipShape(buffer, options);
    return shape && { run: (cb) => run.runGunzip(shape[0], cb, shape[1]) };
  });
  patched.push('zlib.gunzip');
}

if (enabled.readFile) {
  const plan = (path, options) => {
    const p = shapes.pathShape(path);
    const o = p === null ? null : shapes.readFileOptions(options);
    return o ? { run: (cb) => run.runReadFile(p, o.encoding, cb, o.signal) } : null;
  };
  nodeFs.readFile = callbackForm('readFile', original.readFile, 1, true, plan);
  nodeFs.promises.readFile = promiseForm('readFile', original.readFilePromise, plan);
  patched.push('fs.readFile', 'fs.promises.readFile');
}

if (enabled.stat) {
  const plan = (path, options) => {
    const p = shapes.pathShape(path);
    return p === null || !shapes.statOptionsOk(options) ? null : { run: (cb) => run.runStat(p, cb) };
  };
  nodeFs.stat = callbackForm('stat', original.stat, 1, true, plan);
  nodeFs.promises.stat = promiseForm('stat', original.statPromise, plan);
  patched.push('fs.stat', 'fs.promises.stat');
}

if (enabled.lookup) {
  // The callback form answers `(err, address, family)`, or `(err, list)` with
  // `all`, and returns an object as Node's does; the promise form resolves to
  // `{ address, family }` or the list.
  const plan = (viaCallback) => (hostname, options) => {
    const shape = shapes.lookupShape(hostname, options, viaCallback);
    if (!shape) return null;
    const spread = shape.all ? (fn, list) => fn(null, list) : (fn, first) => fn(null, first.address, first.family);
    return { run: (cb) => run.runLookup(hostname, shape, cb, spread), returns: {} };
  };
  nodeDns.lookup = callbackForm('lookup', original.lookup, 1, true, plan(true));
  // Node's 'dns' performance entries for the lookups sluice runs.
  perf.install();
  nodeDns.promises.lookup = promiseForm('lookup', original.lookupPromise, plan(false));
  patched.push('dns.lookup', 'dns.promises.lookup');
}

// Compiled as they load, as index.js's modules are (lib/eager.js).
const more = eagerly(() => ({
  fd: require('./lib/fd.js'),
  zlibStream: require('./lib/zlib-stream.js'),
  random: require('./lib/random.js'),
  keys: require('./lib/keys.js'),
}));
patched.push(...more.fd.install(enabled, like));
patched.push(...more.zlibStream.install(enabled));
patched.push(...more.random.install(enabled, like));
patched.push(...more.keys.install(enabled, like));
// A capture callback set with process.setUncaughtExceptionCaptureCallback
// gets a callback's exception in the callback's scope (lib/uncaught.js).
require('./lib/uncaught.js').install();
// The calls in flight among Node's requests (process._getActiveRequests(),
// getActiveResourcesInfo()), the inbox's socket out of Node's handles.
require('./lib/requests.js').install(require('./lib/inbox.js').socket);

module.exports = { patched: Object.freeze(patched) };
