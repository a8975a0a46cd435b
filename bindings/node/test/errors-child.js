'use strict';
// Run under `node -r ./patch.js`: the same table of hostile arguments
// (throwing getters, revoked Proxies, Proxy-wrapped buffers, detached
// buffers) through Node's own functions and through the preload's and the
// API's; prints one JSON line with the mismatches. What is compared: a
// synchronous throw or not, the error's class and code, or the value.
const util = require('node:util');
const fs = require('node:fs');
const nodeCrypto = require('node:crypto');
const nodeZlib = require('node:zlib');
const nodeDns = require('node:dns');
const sluice = require('..');
const helpers = require('./helpers.js');

const { original } = sluice._internal;

const throwing = (key) => ({ get [key]() { throw new Error(`getter ${key}`); } });
const revoked = () => { const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy; };
const proxied = (b) => new Proxy(b, {});
const detached = () => { const ab = new ArrayBuffer(8); structuredClone(ab, { transfer: [ab] }); return ab; };
const detachedView = () => { const u = new Uint8Array(8); structuredClone(u.buffer, { transfer: [u.buffer] }); return u; };
const packed = nodeZlib.gzipSync('x');

// [name, args] per operation; each is made afresh for every form (a
// detached buffer, a revoked proxy).
const table = {
  readFile: [
    () => [__filename, throwing('encoding')],
    () => [__filename, throwing('flag')],
    () => [__filename, revoked()],
    () => [__filename, { signal: throwing('aborted') }],
  ],
  stat: [
    () => ['.', throwing('bigint')],
    () => ['.', revoked()],
  ],
  pbkdf2: [
    () => [proxied(Buffer.from('pw')), 'salt', 1, 8, 'sha256'],
    () => ['pw', proxied(new Uint8Array(4)), 1, 8, 'sha256'],
    () => [detached(), 'salt', 1, 8, 'sha256'],
    () => [detachedView(), 'salt', 1, 8, 'sha256'],
    () => ['pw', detached(), 1, 8, 'sha1'],
  ],
  scrypt: [
    () => [proxied(Buffer.from('pw')), 'salt', 8, { N: 16 }],
    () => ['pw', 'salt', 8, throwing('N')],
    () => ['pw', 'salt', 8, revoked()],
    () => [detached(), 'salt', 8, { N: 16 }],
  ],
  gzip: [
    () => [proxied(Buffer.from('x'))],
    () => [detached()],
    () => ['x', throwing('level')],
    () => ['x', revoked()],
  ],
  gunzip: [
    () => [proxied(packed)],
    () => [packed, throwing('maxOutputLength')],
    () => [packed, revoked()],
  ],
  lookup: [
    () => ['localhost', throwing('family')],
    () => ['localhost', revoked()],
  ],
};

function describe(e) {
  return { name: e && e.constructor && e.constructor.name, code: e && e.code };
}
function value(v) {
  if (Buffer.isBuffer(v)) return { buffer: v.toString('hex') };
  if (v instanceof fs.Stats) return { stats: v.isFile() || v.isDirectory() };
  return { value: util.inspect(v) };
}

// Errors as their class and code, values as value() writes them.
const viaCallback = (fn, args) => helpers.viaCallback(fn, args, { describe, values: ([v]) => value(v) });
const viaPromise = (fn, args) => helpers.viaPromise(fn, args, { describe, value });

const forms = {
  readFile: { cb: [fs.readFile, original.readFile], promise: [fs.promises.readFile, original.readFilePromise], api: sluice.fs.readFile },
  stat: { cb: [fs.stat, original.stat], promise: [fs.promises.stat, original.statPromise], api: sluice.fs.stat },
  pbkdf2: { cb: [nodeCrypto.pbkdf2, original.pbkdf2], promise: [util.promisify(nodeCrypto.pbkdf2), util.promisify(original.pbkdf2)], api: sluice.crypto.pbkdf2 },
  scrypt: { cb: [nodeCrypto.scrypt, original.scrypt], promise: [util.promisify(nodeCrypto.scrypt), util.promisify(original.scrypt)], api: sluice.crypto.scrypt },
  gzip: { cb: [nodeZlib.gzip, original.gzip], promise: [util.promisify(nodeZlib.gzip), util.promisify(original.gzip)], api: sluice.zlib.gzip },
  gunzip: { cb: [nodeZlib.gunzip, original.gunzip], promise: [util.promisify(nodeZlib.gunzip), util.promisify(original.gunzip)], api: sluice.zlib.gunzip },
  lookup: { cb: [nodeDns.lookup, original.lookup], promise: [nodeDns.promises.lookup, original.lookupPromise], api: sluice.dns.lookup },
};

(async () => {
  const mismatches = [];
  let compared = 0;
  for (const [op, list] of Object.entries(table)) {
    const f = forms[op];
    for (const [index, make] of list.entries()) {
      const label = `${op} case ${index}`;
      const pairs = [
        ['callback', await viaCallback(f.cb[0], make()), await viaCallback(f.cb[1], make())],
        ['promise', await viaPromise(f.promise[0], make()), await viaPromise(f.promise[1], make())],
        ['api', await viaPromise(f.api, make()), await viaPromise(f.promise[1], make())],
      ];
      for (const [form, ours, node] of pairs) {
        compared += 1;
        if (!util.isDeepStrictEqual(ours, node)) mismatches.push({ op, form, args: label, ours, node });
      }
    }
  }
  console.log(JSON.stringify({ mismatches, compared, calls: sluice.metricsJson().node.calls }));
})();
