'use strict';
// A program's stray close of a descriptor sluice opened (a number closed
// twice, as Node's test-dgram-bind-fd closes a raw UDP handle's): sluice
// neither aborts (a debug addon's IO-safety check) nor closes what took the
// number since. See fd-closed-under-child.js.
const test = require('node:test');
const assert = require('node:assert');
const { runChild } = require('./helpers.js');

const child = "require('./test/fd-closed-under-child.js')";
const run = (mode) => runChild(child, { args: ['-r', './patch.js'], env: { FD_MODE: mode, SLUICE_DEBUG_BUILD_WARNING: '0' } });

test('readFile whose descriptor is closed under it: EBADF, no abort', () => {
  const r = run('closed');
  assert.strictEqual(r.signal, null, r.stderr);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json, { err: { code: 'EBADF', syscall: 'read' }, data: null });
});

test('readFile whose number another file took: that file stays open', () => {
  const r = run('reused');
  assert.strictEqual(r.signal, null, r.stderr);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.strictEqual(r.json.victimOpen, true, r.stdout);
  assert.strictEqual(r.json.victimReads, 'victim');
});
