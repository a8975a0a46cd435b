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

module.exports = { PKG, runChild, outcome, describe };
