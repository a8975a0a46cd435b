'use strict';
// crypto.hkdf(digest, ikm, salt, info, keylen, callback) on the Cpu lane
// (sluice::crypto::hkdf). The calls sluice runs are the shapes Node accepts
// for the digests sluice::crypto::Digest names (SHA-1 and the SHA-2 family,
// by OpenSSL's names and aliases, in any case); any other digest (md5,
// sha3-256, ...), and every argument Node refuses, is Node's own call, so
// its errors (ERR_INVALID_ARG_TYPE, ERR_CRYPTO_INVALID_DIGEST,
// ERR_CRYPTO_INVALID_KEYLEN, ERR_OUT_OF_RANGE) are thrown by Node, at once,
// as it throws them. The result is an ArrayBuffer, as Node's.

const nodeCrypto = require('node:crypto');

const native = require('../binding.js');
const { inbox } = require('./inbox.js');
const { start } = require('./call.js');
const { lastCallback } = require('./fd.js');
const { bytes, isInt } = require('./shapes.js');

// What Node's callback form makes for async_hooks: one DERIVEBITSREQUEST.
const HKDF_REQUEST = { type: 'DERIVEBITSREQUEST' };

// Each digest sluice computes: its name for the addon, its output length;
// by every name OpenSSL (and so Node) knows it under, lower case.
const HKDF_DIGESTS = new Map();
for (const [name, hashLen, aliases] of [
  ['sha1', 20, ['sha-1']],
  ['sha224', 28, ['sha-224', 'sha2-224']],
  ['sha256', 32, ['sha-256', 'sha2-256']],
  ['sha384', 48, ['sha-384', 'sha2-384']],
  ['sha512', 64, ['sha-512', 'sha2-512']],
  ['sha512-224', 28, ['sha-512/224', 'sha2-512/224']],
  ['sha512-256', 32, ['sha-512/256', 'sha2-512/256']],
]) {
  for (const n of [name, ...aliases]) HKDF_DIGESTS.set(n, { name, hashLen });
}
// The most bytes of `info` Node takes.
const HKDF_MAX_INFO = 1024;

// The input key material's bytes: what `bytes` reads, or a secret
// KeyObject's key (a KeyObject of another type is Node's to refuse).
function keyMaterial(key) {
  if (key instanceof nodeCrypto.KeyObject) return key.type === 'secret' ? key.export() : null;
  return bytes(key);
}

// [digest, ikm, salt, info, keylen] as the addon takes them, or null.
function hkdfShape([digest, key, salt, info, keylen, ...rest]) {
  if (rest.length !== 0 || typeof digest !== 'string') return null;
  const d = HKDF_DIGESTS.get(digest.toLowerCase());
  if (d === undefined || !isInt(keylen, 0, 255 * d.hashLen)) return null;
  const k = keyMaterial(key);
  const s = k === null ? null : bytes(salt);
  const i = s === null ? null : bytes(info);
  if (i === null || i.length > HKDF_MAX_INFO) return null;
  return [d.name, k, s, i, keylen];
}

// The addon's Buffer as an ArrayBuffer of its own, as Node's hkdf gives.
function ownArrayBuffer(buf) {
  if (buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength) return buf.buffer;
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
}

// Installs the callback forms `enabled` names ({ hkdf }); util.promisify of
// them goes through the same replacement.
function install(enabled, like) {
  const patched = [];
  if (enabled.hkdf) {
    nodeCrypto.hkdf = lastCallback('hkdf', nodeCrypto.hkdf, like, (args) => {
      const shape = hkdfShape(args);
      return shape && ((cb) => start(() => native.hkdf(inbox, ...shape), undefined, ownArrayBuffer, cb,
        undefined, HKDF_REQUEST));
    });
    patched.push('crypto.hkdf');
  }
  return patched;
}

module.exports = { install, hkdfShape };
