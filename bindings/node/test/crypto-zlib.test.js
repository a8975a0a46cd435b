'use strict';
// Bytes against node:crypto and node:zlib, computed by this very node.
const test = require('node:test');
const assert = require('node:assert');
const nodeCrypto = require('node:crypto');
const nodeZlib = require('node:zlib');
const sluice = require('..');
const { hasTestHooks } = require('./helpers.js');

const pbkdf2Vectors = [
  ['secret', 'salt', 1000, 32, 'sha256'],
  ['', '', 1, 1, 'sha1'],
  [Buffer.from([0, 1, 2, 255]), Buffer.alloc(64, 7), 3, 100, 'sha512'],
  [new Uint8Array([5, 6, 7]), new Uint16Array([1, 2]), 17, 20, 'sha1'],
  [new ArrayBuffer(3), 'пароль', 2, 65, 'sha256'],
  ['p'.repeat(200), 's', 5, 64, 'sha512'],
];

test('pbkdf2: byte-identical to node:crypto', async () => {
  for (const v of pbkdf2Vectors) {
    const ours = await sluice.crypto.pbkdf2(...v);
    assert.ok(Buffer.isBuffer(ours));
    assert.deepStrictEqual(ours, nodeCrypto.pbkdf2Sync(...v), `vector ${JSON.stringify(v)}`);
  }
  assert.strictEqual(sluice.metricsJson().node.calls.pbkdf2, pbkdf2Vectors.length);
});

test('scrypt: byte-identical to node:crypto', async () => {
  const vectors = [
    ['secret', 'salt', 64, undefined],
    ['secret', 'salt', 1, { N: 1024 }],
    ['', '', 16, { cost: 16, blockSize: 1, parallelization: 1 }],
    [Buffer.from('pw'), Buffer.from('NaCl'), 100, { N: 256, r: 2, p: 3 }],
  ];
  for (const [p, s, len, opts] of vectors) {
    const ours = await sluice.crypto.scrypt(p, s, len, opts);
    assert.deepStrictEqual(ours, nodeCrypto.scryptSync(p, s, len, opts), `vector ${len} ${JSON.stringify(opts)}`);
  }
});

test('randomBytes: a Buffer of the size asked', async () => {
  const a = await sluice.crypto.randomBytes(32);
  const b = await sluice.crypto.randomBytes(32);
  assert.ok(Buffer.isBuffer(a));
  assert.strictEqual(a.length, 32);
  assert.notDeepStrictEqual(a, b);
  // Size 0 is Node's (sluice draws no empty buffers): same result.
  assert.deepStrictEqual(await sluice.crypto.randomBytes(0), Buffer.alloc(0));
});

const text = Buffer.from('sluice '.repeat(5000) + [...Array(2000).keys()].join(','));

test('gzip: node gunzips it; at the default level the bytes are Node\'s on this text', async () => {
  for (const level of [undefined, -1, 0, 1, 6, 9]) {
    const opts = level === undefined ? undefined : { level };
    const ours = await sluice.zlib.gzip(text, opts);
    assert.deepStrictEqual(nodeZlib.gunzipSync(ours), text, `level ${level}`);
    // Same header as Node's: magic, deflate, no flags, no time, OS 3 (Unix).
    assert.deepStrictEqual(ours.subarray(0, 10), nodeZlib.gzipSync(text, opts).subarray(0, 10));
  }
  const small = Buffer.from('hello hello hello');
  assert.deepStrictEqual(await sluice.zlib.gzip(small), nodeZlib.gzipSync(small));
  assert.deepStrictEqual(nodeZlib.gunzipSync(await sluice.zlib.gzip('')), Buffer.alloc(0));
});

test('gunzip: round-trips Node\'s gzip, members in turn, Node\'s errors', async () => {
  for (const level of [0, 1, 9]) {
    assert.deepStrictEqual(await sluice.zlib.gunzip(nodeZlib.gzipSync(text, { level })), text);
  }
  const two = Buffer.concat([nodeZlib.gzipSync('ab'), nodeZlib.gzipSync('cd')]);
  assert.deepStrictEqual(await sluice.zlib.gunzip(two), nodeZlib.gunzipSync(two));
  const good = nodeZlib.gzipSync('hello');
  const badCrc = Buffer.from(good);
  badCrc[badCrc.length - 5] ^= 1;
  const bad = [
    Buffer.alloc(0),
    Buffer.from('not gzip at all'),
    Buffer.from([0x1f]),
    good.subarray(0, 15),
    badCrc,
    Buffer.concat([good, Buffer.from('garbage')]),
  ];
  for (const input of bad) {
    const theirs = await new Promise((resolve) => nodeZlib.gunzip(input, (e) => resolve(e)));
    const ours = await sluice.zlib.gunzip(input).then(() => null, (e) => e);
    assert.ok(theirs && ours, `both fail on ${input.toString('hex')}`);
    assert.deepStrictEqual(
      { message: ours.message, code: ours.code, errno: ours.errno },
      { message: theirs.message, code: theirs.code, errno: theirs.errno },
      `input ${input.toString('hex')}`);
  }
});

test('a Rust panic becomes a rejected promise, and the lane keeps working', async (t) => {
  if (!hasTestHooks(t)) return;
  const cpu = () => sluice.metricsJson().pool.lanes.find((l) => l.lane === 'cpu');
  const before = cpu();
  await assert.rejects(sluice._internal.panicForTest('boom'),
    { code: 'ERR_SLUICE_PANIC', message: 'sluice: a task panicked: boom' });
  assert.strictEqual((await sluice.crypto.pbkdf2('a', 'b', 1, 1, 'sha1')).length, 1);
  const after = cpu();
  // Counted at submission (a completion is counted just after the promise
  // is settled, so it may trail the await).
  assert.strictEqual(after.submitted_total - before.submitted_total, 2);
  // The pool counted the panic as a panic (after the promise settled).
  for (let i = 0; i < 1000 && cpu().panicked_total === before.panicked_total; i++) {
    await new Promise((r) => setTimeout(r, 5));
  }
  assert.strictEqual(cpu().panicked_total - before.panicked_total, 1);
});
