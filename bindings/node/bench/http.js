'use strict';
// Seed 002's /login flood, side by side in one run: the same server
// (bench/server.js) as plain node and under `node -r sluice/patch`.
// `node bench/http.js [--seconds S] [--logins C]`
//
// For each subject: C connections call /login back to back while one more
// calls /ping every 5 ms; after the run, /ping's p50/p99/max and /login's
// rate, against the machine's ideal (usable cores / one pbkdf2's time,
// measured here first on an idle process).
const { spawn } = require('node:child_process');
const http = require('node:http');
const os = require('node:os');
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { performance } = require('node:perf_hooks');

const { option, positive } = require('./options.js');

const SECONDS = option('seconds', 8, positive);
const LOGINS = option('logins', 16, positive);
const ITER = 100000;
const PKG = path.join(__dirname, '..');

function get(agent, port, url) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: url, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
  });
}

function startServer(preload) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(preload ? ['-r', './patch.js'] : []), 'bench/server.js'], {
      cwd: PKG, stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.once('data', (d) => resolve({ child, port: Number(String(d).trim()) }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (s, p) => s[Math.min(s.length - 1, Math.floor(s.length * p))];

async function run(label, preload) {
  const { child, port } = await startServer(preload);
  const agent = new http.Agent({ keepAlive: true, maxSockets: LOGINS + 1 });
  await get(agent, port, '/login'); // warm: threads started
  let stop = false;
  let logins = 0;
  let refused = 0;
  const loops = [];
  for (let i = 0; i < LOGINS; i++) {
    loops.push((async () => {
      while (!stop) {
        const status = await get(agent, port, '/login');
        if (status === 200) logins += 1;
        else if (status === 429) refused += 1;
      }
    })());
  }
  await sleep(500); // the queue fills
  const pings = [];
  const t0 = performance.now();
  const loginsAt0 = logins;
  while (performance.now() - t0 < SECONDS * 1000) {
    const s = performance.now();
    await get(agent, port, '/ping');
    pings.push(performance.now() - s);
    await sleep(5);
  }
  const elapsed = (performance.now() - t0) / 1000;
  const rate = (logins - loginsAt0) / elapsed;
  stop = true;
  await Promise.all(loops);
  agent.destroy();
  child.kill('SIGTERM');
  pings.sort((a, b) => a - b);
  return { label, pings: pings.length, p50: pct(pings, 0.5), p99: pct(pings, 0.99), max: pings[pings.length - 1], rate, refused };
}

async function main() {
  const cores = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
  console.log(`loadavg before: ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
  // One pbkdf2 on an otherwise idle process: the machine's ideal rate.
  crypto.pbkdf2Sync('password', 'salt', ITER, 64, 'sha512');
  const t = performance.now();
  for (let i = 0; i < 5; i++) crypto.pbkdf2Sync('password', 'salt', ITER, 64, 'sha512');
  const one = (performance.now() - t) / 5 / 1000;
  const ideal = cores / one;
  console.log(`one pbkdf2 (100 000 × sha512): ${(one * 1000).toFixed(1)} ms; ideal /login rate on ${cores} cores: ${ideal.toFixed(1)}/s`);
  if (Number(fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]) > cores) {
    console.log('(the load average exceeds the cores: other processes share them, so "of ideal" is not meaningful in this run)');
  }
  console.log(`${LOGINS} connections flood /login for ${SECONDS} s while /ping is called every 5 ms\n`);
  const rows = [await run('node', false), await run('node+sluice (-r sluice/patch)', true)];
  console.log('subject                          /ping p50    p99      max       /login rate (of ideal)   429s');
  for (const r of rows) {
    console.log(`${r.label.padEnd(33)}${r.p50.toFixed(2).padStart(6)} ms${r.p99.toFixed(2).padStart(7)} ms${r.max.toFixed(1).padStart(7)} ms   ` +
      `${r.rate.toFixed(1).padStart(6)}/s (${((100 * r.rate) / ideal).toFixed(0)} %)${String(r.refused).padStart(10)}`);
  }
  console.log(`\nloadavg after: ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
