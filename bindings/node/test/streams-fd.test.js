'use strict';
// zlib streams and fs's descriptor calls under `node -r sluice/patch`: the
// same bytes and the same errors as Node's, and run by sluice.
const test = require('node:test');
const assert = require('node:assert');
const { runChild, assertBadSwitch } = require('./helpers.js');

const child = "require('./test/streams-fd-child.js')";

test('zlib streams and fd calls: every outcome equals Node\'s, and sluice ran them', () => {
  const plain = runChild(child);
  assert.strictEqual(plain.status, 0, plain.stderr);
  const patched = runChild(child, { args: ['-r', './patch.js'] });
  assert.strictEqual(patched.status, 0, patched.stderr);
  const want = plain.json.outcomes;
  const got = patched.json.outcomes;
  assert.ok(Object.keys(want).length >= 100, `${Object.keys(want).length} cases`);
  const differ = Object.keys(want).filter((k) => want[k] !== got[k]).map((k) => ({ k, node: want[k], sluice: got[k] }));
  assert.deepStrictEqual(differ, [], JSON.stringify(differ, null, 1));
  // The errors are among the outcomes compared: a few to be sure they were.
  assert.match(want['inflate garbage'], /"code":"Z_DATA_ERROR","message":"incorrect header check","errno":-3/);
  assert.match(want['brotliDecompress truncated'], /"code":"Z_BUF_ERROR","message":"unexpected end of file"/);
  assert.match(want['read a closed fd'], /"code":"EBADF".*"syscall":"read"/);
  assert.match(want['open a missing file'], /"code":"ENOENT".*"syscall":"open","path":/);
  // Counted by sluice: streams made by mode, fd calls run.
  const calls = patched.json.calls;
  for (const op of ['deflateStream', 'gzipStream', 'inflateStream', 'gunzipStream', 'brotliCompressStream',
    'brotliDecompressStream', 'open', 'read', 'write', 'close', 'fstat']) {
    assert.ok(calls[op] >= 1, `${op}: ${JSON.stringify(calls)}`);
  }
});

test('each new call has its switch: SLUICE_PATCH_READ=0 leaves fs.read and FileHandle.read to Node', () => {
  const probe = "const p=require('./patch.js').patched;" +
    "console.log(JSON.stringify({p,enc:require('zlib').createBrotliCompress()._handle.constructor.name}))";
  let r = runChild(probe, { args: ['-r', './patch.js'], env: { SLUICE_PATCH_READ: '0', SLUICE_PATCH_BROTLI_COMPRESS: 'off' } });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.ok(!r.json.p.includes('fs.read') && !r.json.p.includes('FileHandle.read'), JSON.stringify(r.json.p));
  assert.ok(r.json.p.includes('fs.write') && r.json.p.includes('FileHandle.write'));
  assert.ok(!r.json.p.includes('zlib brotliCompress streams') && r.json.p.includes('zlib brotliDecompress streams'));
  // The encoder's class is Node's own again.
  assert.strictEqual(r.json.enc, 'BrotliEncoder');
  r = runChild(probe, { args: ['-r', './patch.js'], env: { SLUICE_PATCH: '0', SLUICE_PATCH_GUNZIP: '1' } });
  assert.deepStrictEqual(r.json.p, ['zlib.gunzip', 'zlib gunzip streams']);
  assertBadSwitch(probe, 'SLUICE_PATCH_FSTAT', 'sometimes');
});

test('a stream whose switch is off, or made under --pending-deprecation, is Node\'s', () => {
  const probe = "const z=require('zlib');const s=z.createGzip();" +
    "console.log(JSON.stringify({handle:s._handle.constructor.name,p:require('./patch.js').patched.filter((x)=>/streams$|^FileHandle/.test(x))}))";
  let r = runChild(probe, { args: ['-r', './patch.js'], env: { SLUICE_PATCH_GZIP: '0' } });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.strictEqual(r.json.handle, 'Zlib');
  r = runChild(probe, { args: ['-r', './patch.js'] });
  assert.strictEqual(r.json.handle, 'Handle');
  r = runChild(probe, { args: ['--pending-deprecation', '-r', './patch.js'] });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /DEP0111/);
  assert.deepStrictEqual([r.json.handle, r.json.p], ['Zlib', []]);
});
