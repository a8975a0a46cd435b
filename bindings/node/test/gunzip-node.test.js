'use strict';
// gunzip as Node's zlib: each crafted input of gunzip-cases.js through the
// preload's zlib.gunzip (sluice's Cpu lane) and through Node's own, the same
// bytes or the same error (class, code, errno, message). The direct API's
// sluice.zlib.gunzip answers the same.
const test = require('node:test');
const assert = require('node:assert');
const nodeZlib = require('node:zlib');
const sluice = require('..');
require('../patch.js');
const { cases } = require('./gunzip-cases.js');

const nodeGunzip = sluice._internal.original.gunzip;

const outcome = (err, value) =>
  err
    ? { error: { name: err.name, code: err.code, errno: err.errno, message: err.message } }
    : { bytes: Buffer.from(value).toString('base64') };

const viaCallback = (fn, input) => new Promise((resolve) => fn(input, (err, value) => resolve(outcome(err, value))));

test('the preload is in place and runs gunzip on sluice', () => {
  assert.notStrictEqual(nodeZlib.gunzip, nodeGunzip);
});

test("zlib.gunzip through the preload answers as Node's on every crafted input", async () => {
  const before = sluice.metricsJson().node.calls.gunzip ?? 0;
  let accepted = 0;
  for (const [name, input] of cases) {
    const node = await viaCallback(nodeGunzip, input);
    const ours = await viaCallback(nodeZlib.gunzip, input);
    assert.deepStrictEqual(ours, node, name);
    const direct = await sluice.zlib.gunzip(input).then((v) => outcome(null, v), (e) => outcome(e));
    assert.deepStrictEqual(direct, node, `${name} (sluice.zlib.gunzip)`);
    if (node.bytes !== undefined) accepted += 1;
  }
  // Both kinds of outcome are covered, and every call went to sluice.
  assert.ok(accepted >= 15 && accepted <= cases.length - 30, `accepted ${accepted} of ${cases.length}`);
  assert.strictEqual(sluice.metricsJson().node.calls.gunzip - before, 2 * cases.length);
});
