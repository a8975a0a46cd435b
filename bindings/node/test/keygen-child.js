'use strict';
// Run on plain node and under `-r ./patch.js`: crypto.generateKeyPair's
// callback form and util.promisify of it over a table of calls. The keys are
// random, so each outcome is described by what must be Node's: the result's
// class, a KeyObject's type and asymmetricKeyDetails, a PEM's labels and line
// widths, a DER's or JWK's key as createPublicKey/createPrivateKey parse it
// back, a JWK's members; and whether the keys work (sign and verify, encrypt
// and decrypt, Diffie-Hellman both ways). keygen.test.js compares the runs.
// One JSON line: { outcomes, calls, fallbacks }.
const crypto = require('node:crypto');
const util = require('node:util');
const { describe } = require('./helpers.js');

const pem = (type, format = 'pem') => ({ type, format });
const jwk = { format: 'jwk' };
const cases = [
  ['rsa 2048', 'rsa', { modulusLength: 2048 }],
  ['rsa 1024 e=3', 'rsa', { modulusLength: 1024, publicExponent: 3 }],
  ['rsa 1025 e=17', 'rsa', { modulusLength: 1025, publicExponent: 17 }],
  ['rsa 512 e=0x10001 explicit', 'rsa', { modulusLength: 512, publicExponent: 0x10001 }],
  ['rsa 1024 e=2^32-1', 'rsa', { modulusLength: 1024, publicExponent: 2 ** 32 - 1 }],
  ['rsa spki/pkcs8 pem', 'rsa', { modulusLength: 1024, publicKeyEncoding: pem('spki'), privateKeyEncoding: pem('pkcs8') }],
  ['rsa pkcs1 pem', 'rsa', { modulusLength: 1024, publicKeyEncoding: pem('pkcs1'), privateKeyEncoding: pem('pkcs1') }],
  ['rsa der', 'rsa', { modulusLength: 1024, publicKeyEncoding: pem('pkcs1', 'der'), privateKeyEncoding: pem('pkcs8', 'der') }],
  ['rsa jwk', 'rsa', { modulusLength: 1024, publicKeyEncoding: jwk, privateKeyEncoding: jwk }],
  ['rsa public only encoded', 'rsa', { modulusLength: 1024, publicKeyEncoding: pem('spki', 'der') }],
  ['ed25519', 'ed25519', undefined],
  ['ed25519 empty options', 'ed25519', {}],
  ['ed25519 pem', 'ed25519', { publicKeyEncoding: pem('spki'), privateKeyEncoding: pem('pkcs8') }],
  ['ed25519 der', 'ed25519', { publicKeyEncoding: pem('spki', 'der'), privateKeyEncoding: pem('pkcs8', 'der') }],
  ['ed25519 jwk', 'ed25519', { publicKeyEncoding: jwk, privateKeyEncoding: jwk }],
  ['x25519', 'x25519', undefined],
  ['x25519 pem', 'x25519', { publicKeyEncoding: pem('spki'), privateKeyEncoding: pem('pkcs8') }],
  ['x25519 jwk private only', 'x25519', { privateKeyEncoding: jwk }],
  // Node's: other types, encrypted keys, options sluice does not run.
  ['ec', 'ec', { namedCurve: 'P-256' }],
  ['rsa-pss', 'rsa-pss', { modulusLength: 1024 }],
  ['dsa', 'dsa', { modulusLength: 1024 }],
  ['ed448', 'ed448', undefined],
  ['x448', 'x448', undefined],
  ['dh', 'dh', { group: 'modp1' }],
  ['rsa encrypted private key', 'rsa', { modulusLength: 1024, publicKeyEncoding: pem('spki'),
    privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-128-cbc', passphrase: 'secret' } }],
  ['ed25519 encrypted private key', 'ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'der', cipher: 'aes-256-cbc', passphrase: Buffer.from('pw') } }],
  ['rsa 16 bits', 'rsa', { modulusLength: 16 }],
  ['rsa e=1', 'rsa', { modulusLength: 1024, publicExponent: 1 }],
  ['rsa even e', 'rsa', { modulusLength: 1024, publicExponent: 4 }],
  ['rsa extra option', 'rsa', { modulusLength: 1024, hashAlgorithm: 'sha256' }],
  // Node's, and refused by Node.
  ['rsa without options', 'rsa', undefined],
  ['rsa without modulusLength', 'rsa', {}],
  ['rsa modulusLength a string', 'rsa', { modulusLength: '1024' }],
  ['rsa e fractional', 'rsa', { modulusLength: 1024, publicExponent: 3.5 }],
  ['unknown type', 'rsa2', { modulusLength: 1024 }],
  ['type not a string', 42, {}],
  ['options not an object', 'ed25519', 'pem'],
  ['ed25519 pkcs1', 'ed25519', { publicKeyEncoding: pem('pkcs1') }],
  ['rsa sec1', 'rsa', { modulusLength: 1024, privateKeyEncoding: pem('sec1') }],
  ['rsa spki for the private key', 'rsa', { modulusLength: 1024, privateKeyEncoding: pem('spki') }],
  ['rsa der without a type', 'rsa', { modulusLength: 1024, publicKeyEncoding: { format: 'der' } }],
  ['rsa unknown format', 'rsa', { modulusLength: 1024, publicKeyEncoding: pem('spki', 'ssh') }],
  ['publicKeyEncoding a string', 'ed25519', { publicKeyEncoding: 'pem' }],
  ['passphrase without cipher', 'ed25519', { privateKeyEncoding: { type: 'pkcs8', format: 'pem', passphrase: 'x' } }],
];

function details(key) {
  return JSON.stringify(key.asymmetricKeyDetails, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
}

// A key as Node gave it, as a KeyObject (an encrypted one with its
// passphrase); `isPublic`, `enc`: how it was asked for.
function asKeyObject(key, isPublic, enc) {
  if (key instanceof crypto.KeyObject) return key;
  const parse = isPublic ? crypto.createPublicKey : crypto.createPrivateKey;
  const passphrase = enc && enc.passphrase;
  if (typeof key === 'string') return parse({ key, passphrase });
  if (Buffer.isBuffer(key)) return parse({ key, format: 'der', type: enc.type, passphrase });
  return parse({ key, format: 'jwk' });
}

// The same key as text.
function shapeOf(key, isPublic, enc) {
  const k = asKeyObject(key, isPublic, enc);
  const parsed = `${k.type} ${k.asymmetricKeyType} ${details(k)}`;
  if (key instanceof crypto.KeyObject) return `KeyObject ${parsed}`;
  if (typeof key === 'string') {
    const lines = key.trimEnd().split('\n');
    const widths = lines.slice(1, -1).every((l, i, all) => l.length === 64 || (i === all.length - 1 && l.length <= 64));
    return `PEM ${lines[0]} ${lines[lines.length - 1]} widths ${widths} newline ${key.endsWith('\n')} -> ${parsed}`;
  }
  if (Buffer.isBuffer(key)) return `DER ${enc.type} -> ${parsed}`;
  return `JWK ${Object.keys(key).join(',')} kty ${key.kty} crv ${key.crv} -> ${parsed}`;
}

// Whether the pair works: sign/verify, OAEP encrypt/decrypt and PKCS #1
// privateEncrypt/publicDecrypt (rsa), sign/verify
// (ed25519), the same shared secret both ways with a second pair (x25519).
function works(type, publicKey, privateKey, other) {
  const data = Buffer.from('sluice');
  if (type === 'rsa') {
    const sig = crypto.sign('sha256', data, privateKey);
    const wrong = Buffer.from(sig);
    wrong[0] ^= 1;
    const secret = crypto.publicEncrypt(publicKey, data);
    const plain = crypto.privateDecrypt(privateKey, secret);
    const raw = crypto.publicDecrypt(publicKey, crypto.privateEncrypt(privateKey, data));
    return crypto.verify('sha256', data, publicKey, sig) && !crypto.verify('sha256', data, publicKey, wrong) &&
      plain.equals(data) && raw.equals(data);
  }
  if (type === 'ed25519') {
    const sig = crypto.sign(null, data, privateKey);
    return crypto.verify(null, data, publicKey, sig) && !crypto.verify(null, Buffer.from('other'), publicKey, sig);
  }
  const a = crypto.diffieHellman({ privateKey, publicKey: other.publicKey });
  const b = crypto.diffieHellman({ privateKey: other.privateKey, publicKey });
  return a.length === 32 && a.equals(b);
}

function describePair(type, options, publicKey, privateKey) {
  const pubEnc = options && options.publicKeyEncoding;
  const privEnc = options && options.privateKeyEncoding;
  const out = `${shapeOf(publicKey, true, pubEnc)} | ${shapeOf(privateKey, false, privEnc)}`;
  if (!['rsa', 'ed25519', 'x25519'].includes(type)) return out;
  const pub = asKeyObject(publicKey, true, pubEnc);
  const priv = asKeyObject(privateKey, false, privEnc);
  const other = type === 'x25519' ? crypto.generateKeyPairSync('x25519') : null;
  // Node's KeyObjects compare equal when they are the same key.
  const matching = crypto.createPublicKey(priv).equals(pub);
  return `${out} | works ${works(type, pub, priv, other)} | public of private ${matching}`;
}

(async () => {
  const outcomes = {};
  const generate = util.promisify(crypto.generateKeyPair);
  for (const [name, type, options] of cases) {
    const args = options === undefined ? [type] : [type, options];
    outcomes[name] = await new Promise((resolve) => {
      try {
        crypto.generateKeyPair(...args, (e, pub, priv) => {
          try {
            resolve(e ? JSON.stringify(describe(e)) : describePair(type, options, pub, priv));
          } catch (err) {
            resolve(`the result did not parse: ${err.message}`);
          }
        });
      } catch (e) {
        resolve(`sync ${JSON.stringify(describe(e))}`);
      }
    });
    outcomes[`${name} (promisified)`] = await (async () => {
      let r;
      try {
        r = await generate(...args);
      } catch (e) {
        return `rejected ${JSON.stringify(describe(e))}`;
      }
      try {
        return `${Object.keys(r).join(',')}: ${describePair(type, options, r.publicKey, r.privateKey)}`;
      } catch (err) {
        return `the result did not parse: ${err.message}`;
      }
    })();
  }
  const patched = process.execArgv.some((a) => a.endsWith('patch.js'));
  const node = patched ? require('..').metricsJson().node : { calls: {}, fallbacks: {} };
  console.log(JSON.stringify({ outcomes, calls: node.calls, fallbacks: node.fallbacks }));
})();
