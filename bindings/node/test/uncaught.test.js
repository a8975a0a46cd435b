'use strict';
// A callback that throws, under the preload and on plain node: the same
// script (uncaught-child.js) on both, compared. Node hands the exception to
// its uncaught-exception handler while the request's async scope is still
// current; so must the preload (lib/uncaught.js).
const test = require('node:test');
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const { PKG } = require('./helpers.js');

const CHILD = 'test/uncaught-child.js';
// The forms whose every fatal case is compared (a process each).
const FORMS = ['pbkdf2', 'randomBytes', 'readFile', 'lookup'];

// Runs uncaught-child.js with `args` on plain node and under the preload;
// `node`: node's own flags. No core file where it aborts.
function both(args, node = []) {
  const run = (preload) => {
    const argv = [...node, ...(preload ? ['-r', './patch.js'] : []), CHILD, ...args];
    const r = spawnSync('/bin/sh', ['-c', 'ulimit -c 0; exec "$0" "$@"', process.execPath, ...argv], {
      cwd: PKG,
      env: { ...process.env, SLUICE_DEBUG_BUILD_WARNING: '0' },
      encoding: 'utf8',
      timeout: 120000,
    });
    const last = r.stdout.trim().split('\n').pop();
    let json;
    try {
      json = JSON.parse(last);
    } catch {
      json = undefined;
    }
    return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, json };
  };
  return { plain: run(false), preload: run(true) };
}

// The crash banner: its location line, the source line, and the error's
// first line and first frame's location.
function banner(stderr) {
  const lines = stderr.split('\n');
  const at = lines.findIndex((l) => /^\/.*:\d+$/.test(l));
  const error = lines.findIndex((l, k) => k > at && /^Error: /.test(l));
  const frame = /\((\/[^)]*:\d+:\d+)\)$|at (\/\S*:\d+:\d+)$/.exec(lines[error + 1] || '');
  return { location: lines[at], source: lines[at + 1], error: lines[error], frame: frame && (frame[1] || frame[2]) };
}

test('uncaughtException listeners run in the throwing callback\'s scope: its executionAsyncId and store, then its after, as on plain node', () => {
  const { plain, preload } = both(['listeners']);
  assert.strictEqual(plain.status, 0, plain.stderr);
  assert.strictEqual(preload.status, 0, preload.stderr);
  // What Node does (test-async-wrap-uncaughtexception's counts, and more):
  // before, the callback, the monitor and the listener in the request's
  // scope with the caller's store, Node's handler's setImmediate, after, destroy.
  const inScope = (r, form) => [
    ['before', r],
    ['callback', 0, r, `caller of ${form}`],
    ['monitor', `thrown by ${form} callback 0`, 'uncaughtException', r, `caller of ${form}`],
    ['uncaught', `thrown by ${form} callback 0`, 'uncaughtException', r, `caller of ${form}`],
    ['init', 'Immediate', r],
    ['after', r],
    ['destroy', r],
  ];
  assert.deepStrictEqual(plain.json.randomBytes, [['init', 'r0', 'other'], ...inScope('r0', 'randomBytes')]);
  // fs.readFile: the callback runs in the last of its four requests (close).
  assert.deepStrictEqual(plain.json.readFile.slice(-7), inScope('r3', 'readFile'));
  assert.deepStrictEqual(Object.keys(preload.json), ['pbkdf2', 'randomBytes', 'readFile', 'lookup', 'stat', 'open']);
  for (const form of Object.keys(plain.json)) assert.deepStrictEqual(preload.json[form], plain.json[form], form);
});

test('setUncaughtExceptionCaptureCallback: the capture callback gets it in the callback\'s scope, the listeners do not, as on plain node', () => {
  const { plain, preload } = both(['capture']);
  assert.strictEqual(plain.status, 0, plain.stderr);
  assert.strictEqual(preload.status, 0, preload.stderr);
  assert.deepStrictEqual(plain.json.pbkdf2.slice(2, 4), [
    ['callback', 0, 'r0', 'caller of pbkdf2'],
    ['capture', 'thrown by pbkdf2 callback 0', 'r0', 'caller of pbkdf2'],
  ]);
  for (const form of Object.keys(plain.json)) assert.deepStrictEqual(preload.json[form], plain.json[form], form);
  assert.ok(!JSON.stringify(preload.json).includes('"uncaught'), 'no listener called');
});

test('domains: a throw in a callback inside domain.run() reaches the domain\'s error listener in the callback\'s scope; a domain with none leaves it to the listeners', () => {
  for (const kase of ['domain', 'bare-domain']) {
    const { plain, preload } = both([kase]);
    assert.strictEqual(plain.status, 0, plain.stderr);
    assert.strictEqual(preload.status, 0, preload.stderr);
    const taker = kase === 'domain' ? 'domain' : 'uncaught';
    assert.deepStrictEqual(plain.json.pbkdf2.find((e) => e[0] === taker).slice(-2), ['r0', 'caller of pbkdf2'], kase);
    for (const form of Object.keys(plain.json)) assert.deepStrictEqual(preload.json[form], plain.json[form], `${kase} ${form}`);
  }
});

test('a batch of calls, three callbacks throwing: every callback runs, each throw is handled in its own request\'s scope before the next callback', () => {
  const { plain, preload } = both(['batch']);
  for (const [which, r] of Object.entries({ plain, preload })) {
    assert.strictEqual(r.status, 0, `${which}: ${r.stderr}`);
    for (const [form, events] of Object.entries(r.json)) {
      const what = `${which} ${form}: ${JSON.stringify(events)}`;
      const calls = events.filter((e) => e[0] === 'callback');
      assert.deepStrictEqual(calls.map((e) => e[1]).sort(), [0, 1, 2, 3], what);
      assert.strictEqual(events.filter((e) => e[0] === 'uncaught').length, 3, what);
      events.forEach((e, k) => {
        if (e[0] !== 'callback' || e[1] === 1) return;
        // The callback's throw: its listener next, in the same request and store.
        assert.deepStrictEqual(events[k + 2], ['uncaught', `thrown by ${form} callback ${e[1]}`, 'uncaughtException', e[2], e[3]], what);
        // ... before that request's after.
        assert.deepStrictEqual(events.slice(k + 3).find((x) => x[0] === 'after'), ['after', e[2]], what);
      });
      // One after per before: the scope's after is never emitted twice.
      const count = (t) => events.filter((x) => x[0] === t).length;
      assert.strictEqual(count('after'), count('before'), what);
    }
  }
});

test('no listener: the process dies with the banner at the user\'s line, as on plain node', () => {
  for (const form of FORMS) {
    const { plain, preload } = both(['none', form]);
    assert.strictEqual(plain.status, 1, plain.stderr);
    assert.strictEqual(preload.status, 1, `${form}: ${preload.stderr}`);
    const b = banner(plain.stderr);
    assert.match(b.source, /\/\/ the user's line$/, plain.stderr);
    assert.deepStrictEqual(banner(preload.stderr), b, `${form}: ${preload.stderr}`);
    // 'exit' with 1, once.
    assert.strictEqual(preload.stdout, plain.stdout, form);
    assert.strictEqual(plain.stdout, 'exit 1\n');
  }
});

test('a listener or capture callback that throws: exit code 7, its own banner, no \'exit\' event, as on plain node', () => {
  for (const kase of ['throws', 'capture-throws']) {
    for (const form of FORMS) {
      const { plain, preload } = both([kase, form]);
      assert.strictEqual(plain.status, 7, plain.stderr);
      assert.strictEqual(preload.status, 7, `${kase} ${form}: ${preload.stderr}`);
      const b = banner(plain.stderr);
      assert.match(b.source, kase === 'throws' ? /\/\/ the listener's line$/ : /\/\/ the capture callback's line$/);
      assert.match(b.error, new RegExp(`threw on thrown by ${form} callback 0$`));
      assert.deepStrictEqual(banner(preload.stderr), b, `${kase} ${form}: ${preload.stderr}`);
      assert.strictEqual(plain.stdout, '');
      assert.strictEqual(preload.stdout, '');
    }
  }
});

test('--abort-on-uncaught-exception: the process aborts though listeners are there, as on plain node; a capture callback still takes it', () => {
  for (const form of FORMS) {
    const { plain, preload } = both(['listeners', form], ['--abort-on-uncaught-exception']);
    assert.ok(plain.signal !== null, `plain node aborts: ${plain.status} ${plain.stderr}`);
    assert.strictEqual(preload.signal, plain.signal, `${form}: ${preload.status} ${preload.stderr}`);
    assert.match(preload.stderr, new RegExp(`Uncaught Error: thrown by ${form} callback 0`));
    // No listener ran: the process printed nothing.
    assert.strictEqual(preload.stdout, '');
  }
  const { plain, preload } = both(['capture'], ['--abort-on-uncaught-exception']);
  assert.strictEqual(plain.status, 0, plain.stderr);
  assert.strictEqual(preload.status, 0, preload.stderr);
  assert.deepStrictEqual(preload.json, plain.json);
});
