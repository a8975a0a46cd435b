'use strict';
// The lab's Node twin of `sluice serve` (crates/sluice-lab/src/experiment/
// http/http.js) under the preload, as the lab's node+sluice subject starts it:
// /login's admission is the package's bounded Cpu lane, and its ESLUICEBUSY
// refusal is the 429 (no semaphore in JS). Counts only.
const test = require('node:test');
const assert = require('node:assert');
const { spawn } = require('node:child_process');
const http = require('node:http');
const path = require('node:path');
const { PKG } = require('./helpers.js');

const TWIN = path.join(PKG, '../../crates/sluice-lab/src/experiment/http/http.js');

function startTwin(params, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', path.join(PKG, 'patch.js'), TWIN, JSON.stringify(params)], {
      cwd: PKG,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    child.stdout.once('data', (d) => resolve({ child, port: JSON.parse(String(d).trim().split('\n')[0]).port }));
    child.once('exit', (code) => reject(new Error(`the twin exited with ${code}: ${stderr}`)));
  });
}

// One request on its own connection: its status and body.
function get(port, url) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: url, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, body, retryAfter: res.headers['retry-after'] }));
    });
    req.on('error', reject);
  });
}

test('the http twin under the preload answers 429 on the Cpu lane\'s ESLUICEBUSY refusal', async () => {
  const N = 12;
  const { child, port } = await startTwin(
    {
      // Long enough that twelve requests sent at once meet one hash running
      // and one queued (the lane's bound) on one Cpu thread.
      iterations: 30000,
      gzip_bytes: 1024,
      file: __filename,
      cpu_queue: 1,
      sluice_package: PKG,
    },
    { SLUICE_CPU_THREADS: '1' },
  );
  try {
    const answers = await Promise.all(Array.from({ length: N }, () => get(port, '/login')));
    const ok = answers.filter((a) => a.status === 200);
    const busy = answers.filter((a) => a.status === 429);
    assert.strictEqual(ok.length + busy.length, N, JSON.stringify(answers));
    assert.ok(ok.length >= 1 && ok.length <= N - 1, `${ok.length} of ${N} admitted`);
    for (const a of ok) assert.match(a.body, /^[0-9a-f]{128}\n$/);
    for (const a of busy) {
      assert.strictEqual(a.retryAfter, '1');
      assert.match(a.body, /^busy: sluice's cpu lane is full \(queue bound 1\); retry later\n$/);
    }
    // /ping and /file are never refused.
    assert.strictEqual((await get(port, '/ping')).status, 200);
    assert.strictEqual((await get(port, '/file')).status, 200);
  } finally {
    child.kill('SIGTERM');
  }
});

test('the http twin without the package keeps its JS semaphore (pool + cpu_queue)', async () => {
  const N = 8;
  const { child, port } = await startTwin(
    { iterations: 400000, gzip_bytes: 1024, file: __filename, cpu_queue: 1, sluice_package: null },
    { UV_THREADPOOL_SIZE: '1', SLUICE_PATCH: '0' },
  );
  try {
    const answers = await Promise.all(Array.from({ length: N }, () => get(port, '/login')));
    const busy = answers.filter((a) => a.status === 429);
    assert.strictEqual(answers.filter((a) => a.status === 200).length + busy.length, N);
    assert.ok(busy.length >= 1, JSON.stringify(answers));
    for (const a of busy) assert.match(a.body, /^busy: \d+ Cpu requests admitted \(pool 1 \+ queue 1\)/);
  } finally {
    child.kill('SIGTERM');
  }
});
