'use strict';
// Shared by the tests: run a script in a fresh node (configure() is once
// per process), and compare an outcome with Node's.
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const assert = require('node:assert');

const PKG = path.join(__dirname, '..');

// Runs `source` in a child node from the package directory; returns
// { status, signal, stdout, stderr, json } where json is the last stdout
// line parsed (scripts print their findings as one JSON line).
function runChild(source, { env = {}, args = [], timeout = 120000 } = {}) {
  const r = spawnSync(process.execPath, [...args, '-e', source], {
    cwd: PKG,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout,
  });
  const lines = (r.stdout || '').trim().split('\n');
  let json;
  try {
    json = JSON.parse(lines[lines.length - 1]);
  } catch {
    json = undefined;
  }
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, json };
}

// Runs `source` in a child node under the preload (`node -r ./patch.js`),
// with `env` added to the environment.
function runPatched(source, env = {}) {
  return runChild(source, { args: ['-r', './patch.js'], env });
}

// Runs `source` on plain node and under the preload, each of which must
// exit 0; returns both runs.
function plainAndPatched(source) {
  const plain = runChild(source);
  assert.strictEqual(plain.status, 0, plain.stderr);
  const patched = runPatched(source);
  assert.strictEqual(patched.status, 0, patched.stderr);
  return { plain, patched };
}

// The preload's list of what it patched (patch.js `patched`) when run with
// `env`.
function patchedUnder(env = {}) {
  const r = runPatched("console.log(JSON.stringify(require('./patch.js').patched))", env);
  assert.strictEqual(r.status, 0, r.stderr);
  return r.json;
}

// `source` under the preload with `name=value` in the environment must
// fail, saying the value is not a switch's.
function assertBadSwitch(source, name, value) {
  const r = runPatched(source, { [name]: value });
  assert.notStrictEqual(r.status, 0);
  assert.ok(r.stderr.includes(`${name}="${value}": expected 1 or 0`), r.stderr);
}

// What a call did: its value, or its error's class, code and message, and
// whether it threw synchronously. `describe` and `value` say how an error
// and a value are written (by default: describe() below, and { value }).
async function outcome(fn, { describe: d = describe, value = (v) => ({ value: v }) } = {}) {
  let p;
  try {
    p = fn();
  } catch (e) {
    return { sync: true, error: d(e) };
  }
  try {
    return value(await p);
  } catch (e) {
    return { error: d(e) };
  }
}

// outcome() of a promise-returning `fn(...args)`.
function viaPromise(fn, args, how) {
  return outcome(() => fn(...args), how);
}

// A callback call's outcome: a synchronous throw, or what the callback got
// (by default { values: its arguments after the error }).
function viaCallback(fn, args, { describe: d = describe, values = (vs) => ({ values: vs }) } = {}) {
  return new Promise((resolve) => {
    try {
      fn(...args, (err, ...vs) => resolve(err ? { error: d(err) } : values(vs)));
    } catch (e) {
      resolve({ sync: true, error: d(e) });
    }
  });
}

function describe(e) {
  const d = { name: e.name, code: e.code, message: e.message };
  for (const k of ['errno', 'syscall', 'path', 'hostname']) if (k in e) d[k] = e[k];
  return d;
}

// Whether the addon has the test hooks (cargo feature `test-hooks`); the
// test `t` is skipped, saying why, when a release build lacks them. A debug
// build (`node scripts/build.js`, what scripts/test builds) has them, so
// there a missing hook fails the test.
function hasTestHooks(t) {
  const sluice = require('..');
  if (typeof sluice._internal.panicForTest === 'function') return true;
  if (sluice.buildProfile() === 'debug') {
    throw new Error('the debug addon lacks the test hooks: build it with `node scripts/build.js` (cargo feature test-hooks)');
  }
  t.skip('a release addon without the test hooks: `node scripts/build.js --release --test-hooks` has them');
  return false;
}

module.exports = {
  PKG, runChild, runPatched, plainAndPatched, patchedUnder, assertBadSwitch, outcome, viaPromise, viaCallback, describe, hasTestHooks,
};
