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
