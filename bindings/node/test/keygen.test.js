'use strict';
// crypto.generateKeyPair under `node -r sluice/patch`: keys of Node's
// shapes and encodings that work, Node's errors, and run by sluice where the
// type and options are ones it runs.
const test = require('node:test');
const assert = require('node:assert');
const { plainAndPatched, patchedUnder } = require('./helpers.js');

test('generateKeyPair: every outcome\'s shape equals Node\'s, the keys work, sluice ran its types', () => {
  const { plain, patched } = plainAndPatched("require('./test/keygen-child.js')");
  assert.deepStrictEqual(patched.json.outcomes, plain.json.outcomes);
  const { outcomes, calls, fallbacks } = patched.json;
  // Every pair sluice made works and its public key is its private key's.
  for (const name of ['rsa 2048', 'rsa 1025 e=17', 'rsa pkcs1 pem', 'rsa jwk', 'ed25519', 'ed25519 der', 'x25519', 'x25519 jwk private only']) {
    assert.match(outcomes[name], /\| works true \| public of private true$/, name);
    assert.match(outcomes[`${name} (promisified)`], /^publicKey,privateKey: .*\| works true \| public of private true$/, name);
  }
  // modulusLength and publicExponent honoured.
  assert.match(outcomes['rsa 1025 e=17'], /^KeyObject public rsa \{"modulusLength":1025,"publicExponent":"17n"\}/);
  assert.match(outcomes['rsa 1024 e=2^32-1'], /"publicExponent":"4294967295n"/);
  assert.match(outcomes['rsa pkcs1 pem'], /^PEM -----BEGIN RSA PUBLIC KEY----- .* widths true newline true -> public rsa/);
  // A JWK's member order is the line's (Node 24 writes kty first).
  assert.match(outcomes['ed25519 jwk'], /^JWK [a-z,]+ kty OKP crv Ed25519 -> public ed25519 \{\} \| JWK [a-z,]+ kty OKP crv Ed25519 -> private ed25519/);
  assert.match(outcomes['rsa encrypted private key'], /\| PEM -----BEGIN ENCRYPTED PRIVATE KEY----- .* -> private rsa .*works true/);
  assert.match(outcomes['rsa without modulusLength'], /^sync .*ERR_INVALID_ARG_TYPE/);
  assert.match(outcomes['ed25519 pkcs1'], /^sync .*ERR_CRYPTO_INCOMPATIBLE_KEY_OPTIONS/);
  // OpenSSL's words for it vary by line ("pub exponent out of range").
  assert.match(outcomes['rsa even e'], /exponent/);
  // 18 calls of the table are sluice's, 26 Node's; each twice (callback,
  // promisified).
  assert.deepStrictEqual({ calls: calls.generateKeyPair, fallbacks: fallbacks.generateKeyPair }, { calls: 36, fallbacks: 52 });
});

test('SLUICE_PATCH_GENERATEKEYPAIR=0 leaves crypto.generateKeyPair to Node', () => {
  const mine = (env) => patchedUnder(env).filter((p) => p.startsWith('crypto.generate'));
  assert.deepStrictEqual(mine(), ['crypto.generateKeyPair']);
  assert.deepStrictEqual(mine({ SLUICE_PATCH_GENERATEKEYPAIR: 'off' }), []);
});
