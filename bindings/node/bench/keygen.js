'use strict';
// crypto.generateKeyPair('rsa') one at a time, on Node's own (libuv's pool,
// OpenSSL) and under the preload (sluice's Cpu lane, sluice::crypto's RSA):
// `node bench/keygen.js [RUNS] [BITS]` (default 20 runs of 2048 bits, after
// one warm-up each). Each side is a fresh node; use a release addon
// (`npm run build`, or SLUICE_NODE_ADDON=...), a debug one is many times
// slower. Keys are random, so the times spread widely (the prime search):
// compare medians and means over many runs, not single calls.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const [runs = 20, bits = 2048] = process.argv.slice(2).map(Number);
const child = `
  const crypto = require('node:crypto');
  const once = () => new Promise((res, rej) => {
    const t = process.hrtime.bigint();
    crypto.generateKeyPair('rsa', { modulusLength: ${bits} }, (e) => (e ? rej(e) : res(Number(process.hrtime.bigint() - t) / 1e6)));
  });
  (async () => {
    await once();
    const ms = [];
    for (let i = 0; i < ${runs}; i++) ms.push(await once());
    console.log(JSON.stringify(ms));
  })();`;

const pkg = path.join(__dirname, '..');
for (const [name, args] of [['node', []], ['sluice', ['-r', './patch.js']]]) {
  const r = spawnSync(process.execPath, [...args, '-e', child], { cwd: pkg, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${name}: ${r.stderr}`);
  const ms = JSON.parse(r.stdout.trim().split('\n').pop()).sort((a, b) => a - b);
  const at = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))].toFixed(0);
  const mean = (ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(0);
  console.log(`${name.padEnd(6)} rsa ${bits} x${runs}: min ${ms[0].toFixed(0)}  median ${at(0.5)}  p90 ${at(0.9)}  max ${ms[ms.length - 1].toFixed(0)}  mean ${mean} ms`);
}
