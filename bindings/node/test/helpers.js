'use strict';
// Shared by the tests: run a script in a fresh node (configure() is once
// per process), and compare an outcome with Node's.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

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

// What a call did: its value, or its error's class, code and message, and
// whether it threw synchronously.
async function outcome(fn) {
  let p;
  try {
    p = fn();
  } catch (e) {
    return { sync: true, error: describe(e) };
  }
  try {
    return { value: await p };
  } catch (e) {
    return { error: describe(e) };
  }
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

module.exports = { PKG, runChild, outcome, describe, hasTestHooks };
