'use strict';
// crypto.hkdf and crypto.generateKeyPair's callback forms on the Cpu lane.
//
// crypto.hkdf(digest, ikm, salt, info, keylen, callback): sluice::crypto::hkdf. The calls sluice runs are the shapes Node accepts
// for the digests sluice::crypto::Digest names (SHA-1 and the SHA-2 family,
// by OpenSSL's names and aliases, in any case); any other digest (md5,
// sha3-256, ...), and every argument Node refuses, is Node's own call, so
// its errors (ERR_INVALID_ARG_TYPE, ERR_CRYPTO_INVALID_DIGEST,
// ERR_CRYPTO_INVALID_KEYLEN, ERR_OUT_OF_RANGE) are thrown by Node, at once,
// as it throws them. The result is an ArrayBuffer, as Node's.
//
// crypto.generateKeyPair(type, [options], callback):
// sluice::crypto::generate_key_pair, for 'rsa' (modulusLength 512 to 8192,
// an odd publicExponent of at least 3), 'ed25519' and 'x25519', with no
// encodings (KeyObjects) or publicKeyEncoding/privateKeyEncoding of
// { type: 'spki' | 'pkcs8' | 'pkcs1' (rsa), format: 'pem' | 'der' } or
// { format: 'jwk' }. The addon gives the pair as DER; Node's own
// createPublicKey/createPrivateKey make the KeyObjects of it, and their
// export() the encodings, so every format is Node's. Everything else (ec,
// dsa, dh, rsa-pss, ed448, x448, an encrypted private key, any other
// option, every call Node refuses) is Node's own call, decided before
// anything is submitted: Node's errors are Node's, thrown where it throws.

const nodeCrypto = require('node:crypto');

const native = require('../binding.js');
const { slot } = require('./inbox.js');
const { start } = require('./call.js');
const { lastCallback } = require('./fd.js');
const { bytes, isInt } = require('./shapes.js');

const { isProxy } = require('node:util').types;

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
  // keylen 0 is Node's: its answer differs by line (an empty ArrayBuffer on
  // Node 18 and 20, "Deriving bits failed" from OpenSSL on 22 and 24).
  if (d === undefined || !isInt(keylen, 1, 255 * d.hashLen)) return null;
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

// What Node's callback form makes for async_hooks: one KEYPAIRGENREQUEST.
const KEYGEN_REQUEST = { type: 'KEYPAIRGENREQUEST' };
// sluice::crypto's RSA limits (RSA_MIN_BITS, RSA_MAX_BITS).
const RSA_BITS = [512, 8192];
// The options each type sluice runs may have.
const ENCODINGS = ['publicKeyEncoding', 'privateKeyEncoding'];
const KEYGEN_OPTIONS = {
  rsa: new Set(['modulusLength', 'publicExponent', ...ENCODINGS]),
  ed25519: new Set(ENCODINGS),
  x25519: new Set(ENCODINGS),
};

// An encoding sluice runs: undefined or null (a KeyObject, as Node gives
// without one), { format: 'jwk' }, or { type, format: 'pem' | 'der' } of a
// type Node takes for that key ('spki' public, 'pkcs8' private, 'pkcs1'
// either for rsa). Returns export()'s options, undefined for a KeyObject,
// or null: anything else (a cipher, a passphrase, 'sec1', ...) is Node's.
function encodingShape(enc, isPublic, isRsa) {
  if (enc === undefined || enc === null) return undefined;
  if (typeof enc !== 'object' || isProxy(enc) || Array.isArray(enc)) return null;
  if (!Object.keys(enc).every((k) => k === 'type' || k === 'format')) return null;
  const { type, format } = enc;
  if (format === 'jwk') return type === undefined ? { format } : null;
  if (format !== 'pem' && format !== 'der') return null;
  if (type === (isPublic ? 'spki' : 'pkcs8') || (isRsa && type === 'pkcs1')) return { type, format };
  return null;
}

// { kind, bits, exponent, pub, priv } as keyPair() takes them, or null.
function keyPairShape([type, options, ...rest]) {
  if (rest.length !== 0 || typeof type !== 'string' || !Object.hasOwn(KEYGEN_OPTIONS, type)) return null;
  const isRsa = type === 'rsa';
  if (options === undefined && !isRsa) options = {};
  if (options === null || typeof options !== 'object' || isProxy(options) || Array.isArray(options)) return null;
  const allowed = KEYGEN_OPTIONS[type];
  if (!Object.keys(options).every((k) => allowed.has(k) || options[k] === undefined)) return null;
  const pub = encodingShape(options.publicKeyEncoding, true, isRsa);
  const priv = pub === null ? null : encodingShape(options.privateKeyEncoding, false, isRsa);
  if (priv === null) return null;
  if (!isRsa) return { kind: type, bits: 0, exponent: 0, pub, priv };
  const bits = options.modulusLength;
  const e = options.publicExponent == null ? 0x10001 : options.publicExponent;
  if (!isInt(bits, RSA_BITS[0], RSA_BITS[1]) || !isInt(e, 3, 2 ** 32 - 1) || e % 2 !== 1) return null;
  return { kind: type, bits, exponent: e, pub, priv };
}

// The addon's outcome (the public key's DER length, 4 bytes little endian,
// its SPKI DER, the PKCS #8 DER) as Node's callback gets it: two KeyObjects,
// or each key exported as asked. The buffer's private key bytes are zeroed
// once Node holds the key.
function keyPair(shape) {
  return (buf) => {
    const n = buf.readUInt32LE(0);
    const publicKey = nodeCrypto.createPublicKey({ key: buf.subarray(4, 4 + n), format: 'der', type: 'spki' });
    let privateKey;
    try {
      privateKey = nodeCrypto.createPrivateKey({ key: buf.subarray(4 + n), format: 'der', type: 'pkcs8' });
    } finally {
      buf.fill(0);
    }
    return [
      shape.pub === undefined ? publicKey : publicKey.export(shape.pub),
      shape.priv === undefined ? privateKey : privateKey.export(shape.priv),
    ];
  };
}

const spreadPair = (cb, [publicKey, privateKey]) => cb(null, publicKey, privateKey);

// Installs the callback forms `enabled` names ({ hkdf, generateKeyPair });
// util.promisify of them goes through the same replacement (and
// generateKeyPair's resolves to { publicKey, privateKey }: `like` keeps
// Node's promisify argument names).
function install(enabled, like) {
  const patched = [];
  if (enabled.hkdf) {
    nodeCrypto.hkdf = lastCallback('hkdf', nodeCrypto.hkdf, like, (args) => {
      const shape = hkdfShape(args);
      return shape && ((cb) => start(() => native.hkdf(slot, ...shape), undefined, ownArrayBuffer, cb,
        undefined, HKDF_REQUEST));
    });
    patched.push('crypto.hkdf');
  }
  if (enabled.generateKeyPair) {
    nodeCrypto.generateKeyPair = lastCallback('generateKeyPair', nodeCrypto.generateKeyPair, like, (args) => {
      const shape = keyPairShape(args);
      return shape && ((cb) => start(() => native.generateKeyPair(slot, shape.kind, shape.bits, shape.exponent),
        undefined, keyPair(shape), cb, spreadPair, KEYGEN_REQUEST));
    });
    patched.push('crypto.generateKeyPair');
  }
  return patched;
}

module.exports = { install, hkdfShape, keyPairShape };
