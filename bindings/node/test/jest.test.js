'use strict';
// jest's module registry (issue 32, item 2): two jest test files run in
// one worker (--runInBand), each loading the package again in the same
// thread (test/jest/*.jest.js); every call of every copy settles. jest is
// a pinned devDependency (npm ci installs it).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const PKG = path.join(__dirname, '..');
const JEST = path.join(PKG, 'node_modules', 'jest', 'bin', 'jest.js');

test('two jest files in one worker: every copy of the package settles its calls', (t) => {
  if (!fs.existsSync(JEST)) {
    t.skip(`jest is not installed (${JEST}): run npm ci in bindings/node`);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-jest-'));
  const mark = path.join(dir, 'mark');
  const report = path.join(dir, 'report.json');
  const r = spawnSync(process.execPath, [JEST, '--runInBand', '--ci', '--rootDir', path.join(__dirname, 'jest'),
    '--testMatch', '**/*.jest.js', '--json', '--outputFile', report], {
    cwd: PKG,
    env: { ...process.env, SLUICE_JEST_MARK: mark },
    encoding: 'utf8',
    timeout: 120000,
  });
  assert.strictEqual(r.status, 0, `jest failed:\n${r.stdout}\n${r.stderr}`);
  const j = JSON.parse(fs.readFileSync(report, 'utf8'));
  assert.strictEqual(j.numTotalTestSuites, 2, r.stderr);
  assert.strictEqual(j.numPassedTests, 2, r.stderr);
  // Both files ran to their end (in the one worker), not merely passed.
  assert.strictEqual(fs.readFileSync(mark + '.first', 'utf8'), 'settled');
  assert.strictEqual(fs.readFileSync(mark + '.second', 'utf8'), 'settled');
  fs.rmSync(dir, { recursive: true, force: true });
});
