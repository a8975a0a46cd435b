'use strict';
// Run on plain node and under `-r ./patch.js`: crypto.hkdf's callback form
// and util.promisify of it over a table of calls, each outcome as text (the
// result's class and bytes, or the error and whether it was thrown at once).
// keys.test.js compares the two runs and checks every result against
// crypto.hkdfSync. One JSON line: { outcomes, calls, fallbacks }.
const crypto = require('node:crypto');
const util = require('node:util');
const { describe } = require('./helpers.js');

const secret = crypto.createSecretKey(Buffer.from('a secret key'));
const { publicKey } = crypto.generateKeyPairSync('ed25519');
const u8 = Uint8Array.from([1, 2, 3, 250]);
const cases = [];
const LENGTHS = { sha1: 20, sha224: 28, sha256: 32, sha384: 48, sha512: 64, 'sha512-224': 28, 'sha512-256': 32 };
// Every digest sluice runs, at lengths around one hash, and the largest.
for (const [digest, n] of Object.entries(LENGTHS)) {
  for (const len of [1, n - 1, n, n + 1, 2 * n + 3, 100, 255 * n]) cases.push([`${digest} ${len}`, [digest, 'key', 'salt', 'info', len]]);
  cases.push([`${digest} empty salt, info`, [digest, 'key', '', '', n]]);
  // Node's answer to keylen 0 depends on its line (see lib/keys.js): Node's
  // own runs it, and only plain node and the preload are compared.
  cases.push([`${digest} keylen 0`, [digest, 'key', 'salt', 'info', 0]]);
  cases.push([`${digest} past 255 hashes`, [digest, 'key', 'salt', 'info', 255 * n + 1]]);
}
cases.push(
  ['upper case', ['SHA256', 'key', 'salt', 'info', 42]],
  ['alias sha-384', ['sha-384', 'key', 'salt', 'info', 42]],
  ['alias sha2-512/256', ['sha2-512/256', 'key', 'salt', 'info', 42]],
  ['Node\'s digest md5', ['md5', 'key', 'salt', 'info', 42]],
  ['Node\'s digest sha3-256', ['sha3-256', 'key', 'salt', 'info', 42]],
  ['alias RSA-SHA256', ['RSA-SHA256', 'key', 'salt', 'info', 42]],
  ['invalid digest', ['sha257', 'key', 'salt', 'info', 42]],
  ['digest not a string', [256, 'key', 'salt', 'info', 42]],
  ['empty key', ['sha256', '', 'salt', 'info', 42]],
  ['unicode strings', ['sha256', 'ключ 🔑', 'sel ü', 'ïnfo', 42]],
  ['Buffer key', ['sha512', Buffer.from('key'), 'salt', 'info', 64]],
  ['Uint8Array', ['sha256', u8, u8, u8, 32]],
  ['DataView', ['sha256', new DataView(u8.buffer, 1, 2), new DataView(u8.buffer), 'i', 32]],
  ['Float64Array', ['sha256', new Float64Array([1.5, -2]), 'salt', new Uint16Array([7, 8]), 32]],
  ['ArrayBuffer', ['sha1', u8.buffer, new ArrayBuffer(0), u8.buffer, 20]],
  ['SharedArrayBuffer', ['sha1', new SharedArrayBuffer(8), 'salt', 'info', 20]],
  ['secret KeyObject', ['sha256', secret, 'salt', 'info', 32]],
  ['long key and salt', ['sha384', Buffer.alloc(200000, 7), Buffer.alloc(5000, 9), 'info', 48]],
  ['info of 1024 bytes', ['sha256', 'key', 'salt', Buffer.alloc(1024, 1), 32]],
  ['info of 1025 bytes', ['sha256', 'key', 'salt', Buffer.alloc(1025, 1), 32]],
  ['key a number', ['sha256', 42, 'salt', 'info', 32]],
  ['key a public KeyObject', ['sha256', publicKey, 'salt', 'info', 32]],
  ['salt a number', ['sha256', 'key', 42, 'info', 32]],
  ['info an object', ['sha256', 'key', 'salt', {}, 32]],
  ['length fractional', ['sha256', 'key', 'salt', 'info', 1.5]],
  ['length negative', ['sha256', 'key', 'salt', 'info', -1]],
  ['length a string', ['sha256', 'key', 'salt', 'info', '32']],
);

const text = (v) => (v instanceof ArrayBuffer ? `ArrayBuffer ${Buffer.from(v).toString('hex')}` : `not an ArrayBuffer: ${v}`);
// A public KeyObject is not a key Node's hkdf derives from (Node 20 aborts
// on it): only the shape check is run for it, which leaves it to Node.
const skipRun = new Set(['key a public KeyObject']);

(async () => {
  const outcomes = {};
  const hkdfP = util.promisify(crypto.hkdf);
  for (const [name, args] of cases) {
    if (skipRun.has(name)) continue;
    outcomes[name] = await new Promise((resolve) => {
      try {
        crypto.hkdf(...args, (e, v) => resolve(e ? JSON.stringify(describe(e)) : text(v)));
      } catch (e) {
        resolve(`sync ${JSON.stringify(describe(e))}`);
      }
    });
    outcomes[`${name} (promisified)`] = await (async () => {
      try {
        return text(await hkdfP(...args));
      } catch (e) {
        return `rejected ${JSON.stringify(describe(e))}`;
      }
    })();
  }
  const sync = {};
  for (const [name, args] of cases) {
    if (skipRun.has(name) || name.endsWith(' keylen 0')) continue;
    try {
      sync[name] = text(crypto.hkdfSync(...args));
    } catch (e) {
      sync[name] = `sync ${JSON.stringify(describe(e))}`;
    }
  }
  const patched = process.execArgv.some((a) => a.endsWith('patch.js'));
  const node = patched ? require('..').metricsJson().node : { calls: {}, fallbacks: {} };
  const shapes = patched ? { publicKeyObject: require('../lib/keys.js').hkdfShape(cases.find((c) => c[0] === 'key a public KeyObject')[1]) } : {};
  console.log(JSON.stringify({ outcomes, sync, shapes, calls: node.calls, fallbacks: node.fallbacks }));
})();
