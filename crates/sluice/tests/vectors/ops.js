// Regenerates ops.json, the vectors tests/ops_vectors.rs checks sluice's
// crypto and zlib operations against: `node ops.js > ops.json`.
'use strict';
const crypto = require('node:crypto');
const zlib = require('node:zlib');
const hex = (b) => Buffer.from(b).toString('hex');
const text = (n) => Buffer.from(Array.from({ length: n }, (_, i) => 'sluice lane ' + (i % 97) + '\n').join(''));
const out = { node: process.version, pbkdf2: [], scrypt: [], hkdf: [], gzip: [] };
for (const [pw, salt, it, len, digest] of [
  ['secret', 'salt', 1, 20, 'sha1'],
  ['secret', 'salt', 1000, 32, 'sha256'],
  ['password', 'NaCl', 100000, 64, 'sha256'],
  ['', 'salt', 10, 64, 'sha512'],
  ['secret', '', 2048, 100, 'sha512'],
]) {
  out.pbkdf2.push({ password: pw, salt, iterations: it, key_len: len, digest, key: hex(crypto.pbkdf2Sync(pw, salt, it, len, digest)) });
}
for (const [pw, salt, len, N, r, p] of [
  ['secret', 'salt', 32, 16384, 8, 1],
  ['password', 'NaCl', 64, 1024, 8, 16],
  ['', '', 16, 16, 1, 1],
]) {
  out.scrypt.push({ password: pw, salt, key_len: len, n: N, r, p, key: hex(crypto.scryptSync(pw, salt, len, { N, r, p })) });
}
// hkdf: every digest sluice::crypto::Digest names, lengths up to 255 * HashLen,
// empty salt and info, a key longer than a block; the output's hex up to 64
// bytes, its sha256 beyond.
const HASH_LEN = { sha1: 20, sha224: 28, sha256: 32, sha384: 48, sha512: 64, 'sha512-224': 28, 'sha512-256': 32 };
for (const [digest, hashLen] of Object.entries(HASH_LEN)) {
  for (const [key, salt, info, len] of [
    ['key', 'salt', 'info', 1],
    ['key', '', '', hashLen],
    ['', 'salt', '', hashLen + 1],
    ['k'.repeat(300), 's'.repeat(200), 'i'.repeat(1024), 100],
    ['key', 'salt', 'info', 255 * hashLen],
  ]) {
    const okm = Buffer.from(crypto.hkdfSync(digest, key, salt, info, len));
    const v = { digest, key, salt, info, key_len: len };
    if (len <= 64) v.okm = hex(okm);
    else v.okm_sha256 = crypto.createHash('sha256').update(okm).digest('hex');
    out.hkdf.push(v);
  }
}
for (const n of [0, 1, 1000, 20000]) {
  const input = text(n);
  out.gzip.push({ input_lines: n, input_sha256: crypto.createHash('sha256').update(input).digest('hex'), gzip: hex(zlib.gzipSync(input)) });
}
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
