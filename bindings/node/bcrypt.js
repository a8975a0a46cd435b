'use strict';
// sluice/bcrypt: npm bcrypt's functions, with the hash on sluice's Cpu lane
// instead of libuv's pool (bcrypt) or the event loop (bcryptjs). An app
// swaps one require:
//
//   const bcrypt = require('sluice/bcrypt'); // was 'bcrypt' or 'bcryptjs'
//
// Same signatures (a callback last, or a Promise without one), defaults
// (10 rounds, minor 'b'; rounds below 4 are 4 and above 31 are 31, as
// bcrypt's salt generator makes them) and strings, $2a$/$2b$ (and $2x$,
// $2y$, read as $2b$); the first 72 bytes of the password count, as in both
// packages. Differences: the messages of errors are sluice's (their cases
// are bcrypt's: a missing argument, a wrong type, an invalid salt); the
// salt's 16 random bytes come from crypto.randomBytes on the calling thread
// (bcrypt asks libuv's pool for them); compare() with a string that is not
// a bcrypt hash answers false, as both packages do.

const nodeCrypto = require('node:crypto');
const { native, slot, start } = require('./index.js')._internal;

const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BCRYPT = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// bcrypt's base 64 is the standard one's bits with another alphabet.
function encodeSalt(bytes) {
  const standard = bytes.toString('base64').replace(/=+$/, '');
  let out = '';
  for (const c of standard) out += BCRYPT[STANDARD.indexOf(c)];
  return out;
}

function saltString(rounds, minor) {
  let r = rounds;
  if (!r) r = 10;
  else if (typeof r !== 'number') throw new Error('rounds must be a number');
  let m = minor;
  if (!m) m = 'b';
  else if (m !== 'b' && m !== 'a') throw new Error('minor must be either "a" or "b"');
  r = Math.min(31, Math.max(4, Math.trunc(r)));
  return `$2${m}$${String(r).padStart(2, '0')}$${encodeSalt(nodeCrypto.randomBytes(16))}`;
}

function later(cb, err, value) {
  process.nextTick(() => cb(err, value));
}

// `fn(args..., cb)` as a Promise when `cb` is absent, as bcrypt's
// promises.promise does.
function promised(fn, args) {
  return new Promise((resolve, reject) => {
    fn(...args, (err, value) => (err ? reject(err) : resolve(value)));
  });
}

/** A salt string for `rounds` (default 10), on the calling thread. */
function genSaltSync(rounds, minor) {
  return saltString(rounds, minor);
}

/** genSalt([rounds], [minor], [cb]): a salt string, by callback or Promise. */
function genSalt(rounds, minor, cb) {
  let r = rounds;
  let m = minor;
  let callback = cb;
  if (typeof r === 'function') {
    callback = r;
    r = 10;
    m = 'b';
  } else if (typeof m === 'function') {
    callback = m;
    m = 'b';
  }
  if (!callback) return promised(genSalt, [r, m]);
  let salt;
  try {
    salt = saltString(r, m);
  } catch (err) {
    return later(callback, err);
  }
  return later(callback, null, salt);
}

const DATA_AND_SALT = 'data must be a string or Buffer and salt must either be a salt string or a number of rounds';

function dataOk(data) {
  return typeof data === 'string' || Buffer.isBuffer(data);
}

function bytes(data) {
  return typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
}

/** The hash of `data` with `salt` (a salt string or rounds), on the calling thread. */
function hashSync(data, salt) {
  if (data == null || salt == null) throw new Error('data and salt arguments required');
  if (!dataOk(data) || (typeof salt !== 'string' && typeof salt !== 'number')) {
    throw new Error(DATA_AND_SALT);
  }
  const s = typeof salt === 'number' ? genSaltSync(salt) : salt;
  return native.bcryptHashSync(bytes(data), s);
}

/** hash(data, saltOrRounds, [cb]): the hash, on the Cpu lane. */
function hash(data, salt, cb) {
  if (typeof data === 'function') return later(data, new Error(DATA_AND_SALT));
  if (typeof salt === 'function') return later(salt, new Error(DATA_AND_SALT));
  if (cb && typeof cb !== 'function') {
    return Promise.reject(new Error('cb must be a function or null to return a Promise'));
  }
  if (!cb) return promised(hash, [data, salt]);
  if (data == null || salt == null) return later(cb, new Error('data and salt arguments required'));
  if (!dataOk(data) || (typeof salt !== 'string' && typeof salt !== 'number')) {
    return later(cb, new Error(DATA_AND_SALT));
  }
  let s;
  try {
    s = typeof salt === 'number' ? saltString(salt) : salt;
  } catch (err) {
    return later(cb, err);
  }
  const input = bytes(data);
  return start(() => native.bcryptHash(slot, input, s), undefined, (buf) => buf.toString('latin1'), cb);
}

/** True when `data` hashes to `encrypted`, on the calling thread. */
function compareSync(data, encrypted) {
  if (data == null || encrypted == null) throw new Error('data and hash arguments required');
  if (!dataOk(data) || typeof encrypted !== 'string') {
    throw new Error('data must be a string or Buffer and hash must be a string');
  }
  return native.bcryptCompareSync(bytes(data), encrypted);
}

/** compare(data, encrypted, [cb]): true on a match, on the Cpu lane. */
function compare(data, encrypted, cb) {
  if (typeof data === 'function') return later(data, new Error('data and hash arguments required'));
  if (typeof encrypted === 'function') {
    return later(encrypted, new Error('data and hash arguments required'));
  }
  if (cb && typeof cb !== 'function') {
    return Promise.reject(new Error('cb must be a function or null to return a Promise'));
  }
  if (!cb) return promised(compare, [data, encrypted]);
  if (data == null || encrypted == null) return later(cb, new Error('data and hash arguments required'));
  if (!dataOk(data) || typeof encrypted !== 'string') {
    return later(cb, new Error('data and hash must be strings'));
  }
  const input = bytes(data);
  return start(() => native.bcryptCompare(slot, input, encrypted), undefined, (buf) => buf[0] === 1, cb);
}

/** The cost (log2 of the rounds) of a hash or salt string. */
function getRounds(encrypted) {
  if (encrypted == null) throw new Error('hash argument required');
  if (typeof encrypted !== 'string') throw new Error('hash must be a string');
  try {
    return native.bcryptRounds(encrypted);
  } catch {
    throw new Error('invalid hash provided');
  }
}

module.exports = { genSaltSync, genSalt, hashSync, hash, compareSync, compare, getRounds };
