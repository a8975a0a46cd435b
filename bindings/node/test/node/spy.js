'use strict';
// Records which of the preload's patched functions a process calls (one line
// per function, `PID NAME`, appended to $SPY_OUT): how selection.json was
// made (README.md).
const fs = require('fs');
const out = process.env.SPY_OUT;
const seen = new Set();
function note(name) {
  if (seen.has(name)) return;
  seen.add(name);
  try { fs.appendFileSync(out, `${process.pid} ${name}\n`); } catch {}
}
function wrap(obj, key, name) {
  const orig = obj[key];
  const w = function (...args) { note(name); return Reflect.apply(orig, this, args); };
  Object.defineProperty(w, 'name', { value: orig.name });
  Object.defineProperty(w, 'length', { value: orig.length });
  for (const s of Object.getOwnPropertySymbols(orig)) Object.defineProperty(w, s, Object.getOwnPropertyDescriptor(orig, s));
  obj[key] = w;
}
const crypto = require('crypto'), zlib = require('zlib'), dns = require('dns');
wrap(crypto, 'pbkdf2', 'crypto.pbkdf2');
wrap(crypto, 'scrypt', 'crypto.scrypt');
wrap(zlib, 'gzip', 'zlib.gzip');
wrap(zlib, 'gunzip', 'zlib.gunzip');
wrap(fs, 'readFile', 'fs.readFile');
wrap(fs, 'stat', 'fs.stat');
wrap(fs.promises, 'readFile', 'fs.promises.readFile');
wrap(fs.promises, 'stat', 'fs.promises.stat');
wrap(dns, 'lookup', 'dns.lookup');
wrap(dns.promises, 'lookup', 'dns.promises.lookup');
// The fd calls and zlib streams (issue 28's second set): the callback forms,
// FileHandle's calls of the fs binding with kUsePromises, and the zlib
// binding's handles by mode.
for (const op of ['open', 'read', 'write', 'close', 'fstat']) wrap(fs, op, `fs.${op}`);
const fsBinding = process.binding('fs');
for (const [key, name] of [['read', 'FileHandle.read'], ['writeBuffer', 'FileHandle.write'],
  ['writeString', 'FileHandle.write'], ['fstat', 'FileHandle.fstat']]) {
  const orig = fsBinding[key];
  fsBinding[key] = function (...args) {
    if (args[args.length - 1] === fsBinding.kUsePromises) note(name);
    return Reflect.apply(orig, this, args);
  };
}
const zBinding = process.binding('zlib');
const MODES = { 1: 'deflate', 5: 'deflate', 3: 'gzip', 2: 'inflate', 6: 'inflate', 7: 'inflate', 4: 'gunzip',
  9: 'brotliCompress', 8: 'brotliDecompress' };
for (const key of ['Zlib', 'BrotliEncoder', 'BrotliDecoder']) {
  const Orig = zBinding[key];
  zBinding[key] = function (mode) {
    note(`zlib ${MODES[mode]} streams`);
    return new Orig(mode);
  };
}
// crypto.randomBytes, randomFill, hkdf and generateKeyPair (their callback
// forms; generateKeyPair keeps its promisify argument names).
for (const op of ['randomBytes', 'randomFill', 'hkdf', 'generateKeyPair']) {
  const orig = crypto[op];
  crypto[op] = function (...args) {
    if (typeof args[args.length - 1] === 'function') note(`crypto.${op}`);
    return Reflect.apply(orig, this, args);
  };
  for (const sym of Object.getOwnPropertySymbols(orig)) Object.defineProperty(crypto[op], sym, Object.getOwnPropertyDescriptor(orig, sym));
}
