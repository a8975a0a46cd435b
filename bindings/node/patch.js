'use strict';
// The drop-in preload: `node -r sluice/patch app.js`.
//
// Replaces, in Node's own modules, the callback and promise forms of
//   crypto.pbkdf2, crypto.scrypt       (Cpu lane)         SLUICE_PATCH_PBKDF2, SLUICE_PATCH_SCRYPT
//   zlib.gzip, zlib.gunzip             (Cpu lane)         SLUICE_PATCH_GZIP, SLUICE_PATCH_GUNZIP
//   fs.readFile, fs.stat               (FastIo lane)      SLUICE_PATCH_READFILE, SLUICE_PATCH_STAT
//   dns.lookup                         (sluice::dns)      SLUICE_PATCH_LOOKUP
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

const { original, shapes, run, fallback, toCallback } = sluice._internal;

function flag(name, fallbackValue) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallbackValue;
  const v = raw.toLowerCase();
  if (v === '1' || v === 'true' || v === 'on') return true;
  if (v === '0' || v === 'false' || v === 'off') return false;
  const err = new Error(`sluice/patch: ${name}=${JSON.stringify(raw)}: expected 1 or 0 (true/false, on/off)`);
  err.code = 'ERR_SLUICE_PATCH_ENV';
  throw err;
}

const all = flag('SLUICE_PATCH', true);
const enabled = {};
for (const op of ['pbkdf2', 'scrypt', 'gzip', 'gunzip', 'readFile', 'stat', 'lookup']) {
  enabled[op] = flag(`SLUICE_PATCH_${op.toUpperCase()}`, all);
}

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

if (enabled.pbkdf2) {
  nodeCrypto.pbkdf2 = like(original.pbkdf2, function pbkdf2(password, salt, iterations, keylen, digest, callback) {
    const shape = typeof callback === 'function' && shapes.pbkdf2Shape(password, salt, iterations, keylen, digest);
    if (!shape) {
      fallback('pbkdf2');
      return Reflect.apply(original.pbkdf2, this, arguments);
    }
    toCallback(run.runPbkdf2(shape), callback);
  });
  patched.push('crypto.pbkdf2');
}

if (enabled.scrypt) {
  nodeCrypto.scrypt = like(original.scrypt, function scrypt(password, salt, keylen, options, callback) {
    let opts = options;
    let cb = callback;
    if (typeof opts === 'function') {
      cb = opts;
      opts = undefined;
    }
    const shape = typeof cb === 'function' && shapes.scryptShape(password, salt, keylen, opts);
    if (!shape) {
      fallback('scrypt');
      return Reflect.apply(original.scrypt, this, arguments);
    }
    toCallback(run.runScrypt(shape), cb);
  });
  patched.push('crypto.scrypt');
}

if (enabled.gzip) {
  nodeZlib.gzip = like(original.gzip, function gzip(buffer, options, callback) {
    let opts = options;
    let cb = callback;
    if (typeof opts === 'function') {
      cb = opts;
      opts = undefined;
    }
    const input = shapes.zlibInput(buffer);
    const level = typeof cb === 'function' && input !== null ? shapes.gzipLevel(opts) : null;
    if (level === null) {
      fallback('gzip');
      return Reflect.apply(original.gzip, this, arguments);
    }
    toCallback(run.runGzip(input, level), cb);
  });
  patched.push('zlib.gzip');
}

if (enabled.gunzip) {
  nodeZlib.gunzip = like(original.gunzip, function gunzip(buffer, options, callback) {
    let opts = options;
    let cb = callback;
    if (typeof opts === 'function') {
      cb = opts;
      opts = undefined;
    }
    const input = shapes.zlibInput(buffer);
    if (typeof cb !== 'function' || input === null || !shapes.gunzipOptionsOk(opts)) {
      fallback('gunzip');
      return Reflect.apply(original.gunzip, this, arguments);
    }
    toCallback(run.runGunzip(input), cb);
  });
  patched.push('zlib.gunzip');
}

if (enabled.readFile) {
  nodeFs.readFile = like(original.readFile, function readFile(path, options, callback) {
    let opts = options;
    let cb = callback;
    if (typeof opts === 'function') {
      cb = opts;
      opts = undefined;
    }
    const p = typeof cb === 'function' ? shapes.pathShape(path) : null;
    const o = p === null ? null : shapes.readFileOptions(opts);
    if (!o) {
      fallback('readFile');
      return Reflect.apply(original.readFile, this, arguments);
    }
    toCallback(run.runReadFile(p, o.encoding), cb);
  });
  nodeFs.promises.readFile = like(original.readFilePromise, function readFile(path, options) {
    const p = shapes.pathShape(path);
    const o = p === null ? null : shapes.readFileOptions(options);
    if (!o) {
      fallback('readFile');
      return Reflect.apply(original.readFilePromise, this, arguments);
    }
    return run.runReadFile(p, o.encoding);
  });
  patched.push('fs.readFile', 'fs.promises.readFile');
}

if (enabled.stat) {
  nodeFs.stat = like(original.stat, function stat(path, options, callback) {
    let opts = options;
    let cb = callback;
    if (typeof opts === 'function') {
      cb = opts;
      opts = undefined;
    }
    const p = typeof cb === 'function' ? shapes.pathShape(path) : null;
    if (p === null || !shapes.statOptionsOk(opts)) {
      fallback('stat');
      return Reflect.apply(original.stat, this, arguments);
    }
    toCallback(run.runStat(p), cb);
  });
  nodeFs.promises.stat = like(original.statPromise, function stat(path, options) {
    const p = shapes.pathShape(path);
    if (p === null || !shapes.statOptionsOk(options)) {
      fallback('stat');
      return Reflect.apply(original.statPromise, this, arguments);
    }
    return run.runStat(p);
  });
  patched.push('fs.stat', 'fs.promises.stat');
}

if (enabled.lookup) {
  nodeDns.lookup = like(original.lookup, function lookup(hostname, options, callback) {
    let opts = options;
    let cb = callback;
    if (typeof opts === 'function') {
      cb = opts;
      opts = undefined;
    }
    const shape = typeof cb === 'function' ? shapes.lookupShape(hostname, opts, true) : null;
    if (!shape) {
      fallback('lookup');
      return Reflect.apply(original.lookup, this, arguments);
    }
    toCallback(run.runLookup(hostname, shape), cb, shape.all
      ? (fn, list) => fn(null, list)
      : (fn, first) => fn(null, first.address, first.family));
    return {};
  });
  nodeDns.promises.lookup = like(original.lookupPromise, function lookup(hostname, options) {
    const shape = shapes.lookupShape(hostname, options, false);
    if (!shape) {
      fallback('lookup');
      return Reflect.apply(original.lookupPromise, this, arguments);
    }
    return run.runLookup(hostname, shape);
  });
  patched.push('dns.lookup', 'dns.promises.lookup');
}

module.exports = { patched: Object.freeze(patched) };
