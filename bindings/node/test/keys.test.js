'use strict';
// crypto.hkdf under `node -r sluice/patch`: Node's bytes and errors, and run
// by sluice where the shape is one it runs.
const test = require('node:test');
const assert = require('node:assert');
const { plainAndPatched, patchedUnder } = require('./helpers.js');

test('hkdf: every outcome equals Node\'s, the bytes equal hkdfSync\'s, and sluice ran its shapes', () => {
  const { plain, patched } = plainAndPatched("require('./test/keys-child.js')");
  assert.deepStrictEqual(patched.json.outcomes, plain.json.outcomes);
  const { outcomes, sync } = patched.json;
  // The callback and promisified results are hkdfSync's bytes (hkdfSync is
  // Node's own: the preload leaves it), and its sync errors are thrown at
  // once by the callback form too.
  for (const [name, want] of Object.entries(sync)) {
    assert.strictEqual(outcomes[name], want, name);
    if (!want.startsWith('sync ')) assert.strictEqual(outcomes[`${name} (promisified)`], want, `${name} (promisified)`);
  }
  assert.match(outcomes['sha512 16320'], /^ArrayBuffer [0-9a-f]{32640}$/);
  assert.match(outcomes['sha256 past 255 hashes'], /^sync .*ERR_CRYPTO_INVALID_KEYLEN/);
  assert.match(outcomes['invalid digest'], /^sync .*ERR_CRYPTO_INVALID_DIGEST.*Invalid digest: sha257/);
  assert.match(outcomes['key a number'], /^sync .*ERR_INVALID_ARG_TYPE.*ikm/);
  assert.match(outcomes['info of 1025 bytes'], /^sync .*ERR_OUT_OF_RANGE/);
  assert.strictEqual(patched.json.shapes.publicKeyObject, null);
  // Run by sluice: the 7 digests' 8 good cases each, 3 aliases, 11 good
  // shapes of key, salt and info; twice each (callback, promisified).
  // Node's: each digest at keylen 0 and past 255 hashes, md5, sha3-256,
  // RSA-SHA256 and the 9 other calls Node refuses.
  assert.strictEqual(patched.json.calls.hkdf, 2 * (7 * 8 + 3 + 11));
  assert.strictEqual(patched.json.fallbacks.hkdf, 2 * (7 * 2 + 3 + 9));
});

test('SLUICE_PATCH_HKDF=0 leaves crypto.hkdf to Node', () => {
  const mine = (env) => patchedUnder(env).filter((p) => p === 'crypto.hkdf');
  assert.deepStrictEqual(mine(), ['crypto.hkdf']);
  assert.deepStrictEqual(mine({ SLUICE_PATCH_HKDF: '0' }), []);
});

test('hkdf\'s and generateKeyPair\'s callbacks run in the caller\'s async context, in a request of Node\'s type', () => {
  // The same script on plain node and under the preload: the requests made
  // (by type), the store AsyncLocalStorage has in the callback, and whether
  // the callback runs in the request made at the call.
  const script = `
    const crypto = require('node:crypto');
    const { AsyncLocalStorage, createHook, executionAsyncResource } = require('node:async_hooks');
    const TYPES = new Set(['DERIVEBITSREQUEST', 'KEYPAIRGENREQUEST']);
    const made = [];
    const resources = new Set();
    createHook({ init(id, type, trigger, resource) { if (TYPES.has(type)) { made.push(type); resources.add(resource); } } }).enable();
    const als = new AsyncLocalStorage();
    const out = {};
    const calls = [
      ['hkdf', (cb) => crypto.hkdf('sha256', 'key', 'salt', 'info', 16, cb)],
      ['hkdfNode', (cb) => crypto.hkdf('md5', 'key', 'salt', 'info', 16, cb)],
      ['rsa', (cb) => crypto.generateKeyPair('rsa', { modulusLength: 1024 }, cb)],
      ['ed25519', (cb) => crypto.generateKeyPair('ed25519', { publicKeyEncoding: { type: 'spki', format: 'pem' } }, cb)],
      ['x25519', (cb) => crypto.generateKeyPair('x25519', cb)],
      ['ec', (cb) => crypto.generateKeyPair('ec', { namedCurve: 'P-256' }, cb)],
    ];
    (async () => {
      for (const [name, call] of calls) {
        const before = made.length;
        out[name] = await new Promise((resolve) => als.run({ name }, () => call((err) => resolve({
          err: err && err.code, store: als.getStore(), inRequest: resources.has(executionAsyncResource()),
          made: made.slice(before) })))) ;
      }
      const patched = process.execArgv.some((a) => a.endsWith('patch.js'));
      out.calls = patched ? require('.').metricsJson().node.calls : null;
      console.log(JSON.stringify(out));
    })();`;
  const { plain, patched } = plainAndPatched(script);
  const { calls, ...outcomes } = patched.json;
  const { calls: none, ...plainOutcomes } = plain.json;
  assert.strictEqual(none, null);
  assert.deepStrictEqual(outcomes, plainOutcomes);
  assert.deepStrictEqual(outcomes.hkdf, { err: null, store: { name: 'hkdf' }, inRequest: true, made: ['DERIVEBITSREQUEST'] });
  assert.deepStrictEqual(outcomes.x25519, { err: null, store: { name: 'x25519' }, inRequest: true, made: ['KEYPAIRGENREQUEST'] });
  // hkdf with md5 and the ec pair are Node's own.
  assert.deepStrictEqual({ hkdf: calls.hkdf, generateKeyPair: calls.generateKeyPair }, { hkdf: 1, generateKeyPair: 3 });
});
