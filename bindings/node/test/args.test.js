'use strict';
// The promise API against Node's promise forms, call by call: the same
// value, or the same error (class, code, message, and whether it threw).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const util = require('node:util');
const nodeCrypto = require('node:crypto');
const nodeZlib = require('node:zlib');
const nodeDns = require('node:dns');
const sluice = require('..');
const { outcome } = require('./helpers.js');
const { cases, dir } = require('./cases.js');

test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

const node = {
  pbkdf2: util.promisify(nodeCrypto.pbkdf2),
  scrypt: util.promisify(nodeCrypto.scrypt),
  randomBytes: util.promisify(nodeCrypto.randomBytes),
  gzip: util.promisify(nodeZlib.gzip),
  gunzip: util.promisify(nodeZlib.gunzip),
  readFile: fs.promises.readFile,
  stat: fs.promises.stat,
  lookup: nodeDns.promises.lookup,
};
const ours = {
  pbkdf2: sluice.crypto.pbkdf2,
  scrypt: sluice.crypto.scrypt,
  randomBytes: sluice.crypto.randomBytes,
  gzip: sluice.zlib.gzip,
  gunzip: sluice.zlib.gunzip,
  readFile: sluice.fs.readFile,
  stat: sluice.fs.stat,
  lookup: sluice.dns.lookup,
};

function comparable(o, op) {
  if (op === 'randomBytes' && o.value) return { length: o.value.length };
  return o;
}

test('every case: the value or the error Node gives', async () => {
  const codes = new Set();
  let errors = 0;
  for (const [op, list] of Object.entries(cases)) {
    for (const args of list) {
      const a = await outcome(() => ours[op](...args));
      const b = await outcome(() => node[op](...args));
      assert.deepStrictEqual(comparable(a, op), comparable(b, op), `${op}(${util.inspect(args)})`);
      if (b.error) {
        errors += 1;
        codes.add(b.error.code);
      }
    }
  }
  // The table does hold Node's argument errors, not only good calls.
  for (const code of ['ERR_INVALID_ARG_TYPE', 'ERR_OUT_OF_RANGE', 'ERR_INVALID_ARG_VALUE',
    'ERR_CRYPTO_INVALID_DIGEST', 'ERR_CRYPTO_INVALID_SCRYPT_PARAMS', 'ENOENT', 'EISDIR', 'ENOTFOUND']) {
    assert.ok(codes.has(code), `the table has a case Node rejects with ${code}: ${[...codes]}`);
  }
  assert.ok(errors >= 40, `${errors} error cases`);
  const m = sluice.metricsJson().node;
  assert.ok(m.calls.pbkdf2 >= 1 && m.calls.readFile >= 1 && m.calls.lookup >= 1, JSON.stringify(m));
  assert.ok(m.fallbacks.pbkdf2 >= 10, JSON.stringify(m));
});
