'use strict';
// sluice/argon2: @node-rs/argon2's functions, with the hash on sluice's Cpu
// lane instead of libuv's pool. An app swaps one require:
//
//   const { hash, verify } = require('sluice/argon2'); // was '@node-rs/argon2'
//
// Same signatures, options, defaults (Argon2id v19, memoryCost 19456 KiB,
// timeCost 2, parallelism 1, outputLen 32, 16 random salt bytes) and PHC
// strings; the hashes are the same RustCrypto crate's. Differences: errors
// are sluice's (a TypeError with code ERR_INVALID_ARG_TYPE or RangeError
// ERR_OUT_OF_RANGE for a bad argument, thrown at the call as @node-rs/argon2
// does; an Error with code ERR_SLUICE_FAILED for an input the hash refuses,
// e.g. a salt under 8 bytes); an AbortSignal aborted before the call
// rejects with an AbortError at once, and one aborted later rejects at the
// abort: a hash still queued then never runs, one already on a worker runs
// to its end (the crate cannot stop) and its result is dropped.
// The *Sync functions compute on the calling thread, as there.

const { native, slot, start } = require('./index.js')._internal;

const Algorithm = Object.freeze({ Argon2d: 0, Argon2i: 1, Argon2id: 2 });
const Version = Object.freeze({ V0x10: 0, V0x13: 1 });

const DEFAULTS = Object.freeze({
  algorithm: Algorithm.Argon2id,
  version: Version.V0x13,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
});

function typeError(message) {
  const err = new TypeError(message);
  err.code = 'ERR_INVALID_ARG_TYPE';
  return err;
}

function rangeError(message) {
  const err = new RangeError(message);
  err.code = 'ERR_OUT_OF_RANGE';
  return err;
}

function bytesOf(name, value) {
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  throw typeError(`sluice/argon2: ${name} must be a string or a Uint8Array; received ${typeof value}`);
}

function optionalBytes(name, value) {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  throw typeError(`sluice/argon2: option "${name}" must be a Uint8Array; received ${typeof value}`);
}

function whole(name, value, min, max) {
  if (value === undefined || value === null) return DEFAULTS[name];
  if (typeof value !== 'number') {
    throw typeError(`sluice/argon2: option "${name}" must be a number; received ${typeof value}`);
  }
  if (!Number.isInteger(value) || value < min || value > max) {
    throw rangeError(`sluice/argon2: option "${name}" = ${value}; expected a whole number in ${min}..=${max}`);
  }
  return value;
}

// The costs array the addon takes, and the salt and secret.
function settings(options) {
  const o = options === undefined || options === null ? {} : options;
  if (typeof o !== 'object') throw typeError(`sluice/argon2: options must be an object; received ${typeof o}`);
  const costs = [
    whole('algorithm', o.algorithm, 0, 2),
    whole('version', o.version, 0, 1),
    whole('memoryCost', o.memoryCost, 1, 2 ** 32 - 1),
    whole('timeCost', o.timeCost, 1, 2 ** 32 - 1),
    whole('parallelism', o.parallelism, 1, 255),
    whole('outputLen', o.outputLen, 1, 2 ** 32 - 1),
  ];
  return { costs, salt: optionalBytes('salt', o.salt), secret: optionalBytes('secret', o.secret) };
}

// `submit(cancel)` on the Cpu lane as a promise of `shape(value)`; `signal`
// (an AbortSignal, or nothing) rejects it early.
function run(submit, shape, signal) {
  if (signal === undefined || signal === null) return start(() => submit(undefined), undefined, shape);
  const cancel = new native.Cancel();
  return start(() => submit(cancel), undefined, shape, undefined, undefined, undefined, signal, cancel);
}

const asString = (buf) => buf.toString('latin1');
const asMatch = (buf) => buf[0] === 1;

/** The PHC string of `password` (a Promise), on the Cpu lane. */
function hash(password, options, abortSignal) {
  const p = bytesOf('password', password);
  const s = settings(options);
  return run((c) => native.argon2Hash(slot, p, s.costs, s.salt, s.secret, false, c), asString, abortSignal);
}

/** The raw hash of `password` (a Promise of a Buffer), on the Cpu lane. */
function hashRaw(password, options, abortSignal) {
  const p = bytesOf('password', password);
  const s = settings(options);
  return run((c) => native.argon2Hash(slot, p, s.costs, s.salt, s.secret, true, c), null, abortSignal);
}

/** True (a Promise) when `password` hashes to the PHC string `hashed`. */
function verify(hashed, password, options, abortSignal) {
  const h = bytesOf('hashed', hashed).toString('utf8');
  const p = bytesOf('password', password);
  const s = settings(options);
  return run((c) => native.argon2Verify(slot, h, p, s.secret, c), asMatch, abortSignal);
}

/** `hash` on the calling thread. */
function hashSync(password, options) {
  const s = settings(options);
  return native.argon2HashSync(bytesOf('password', password), s.costs, s.salt, s.secret, false);
}

/** `hashRaw` on the calling thread. */
function hashRawSync(password, options) {
  const s = settings(options);
  return native.argon2HashSync(bytesOf('password', password), s.costs, s.salt, s.secret, true);
}

/** `verify` on the calling thread. */
function verifySync(hashed, password, options) {
  const s = settings(options);
  return native.argon2VerifySync(bytesOf('hashed', hashed).toString('utf8'),
    bytesOf('password', password), s.secret);
}

module.exports = { Algorithm, Version, hash, hashRaw, hashRawSync, hashSync, verify, verifySync };
