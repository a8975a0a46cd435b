// sluice lab: probe (seed 000 §2). Fill the pool with pbkdf2 blockers, then
// time one operation of each kind while they run, and on an idle pool.
// argv[2]: {"probes": [ids], "blockers": n, "iterations": n, "settle_ms": ms,
//           "idle_runs": n, "rounds": n, "small_file": path, "big_file": path}
// Prints {"rows":[{"probe","idle_ms","probe_ms","blockers_left","blocker_ms","first_done_ms"}]}.
'use strict';
const fs = require('node:fs');
const zlib = require('node:zlib');
const dns = require('node:dns');
const net = require('node:net');
const crypto = require('node:crypto');

const p = JSON.parse(process.argv[2]);
const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const cb = (resolve, reject) => (err) => (err ? reject(err) : resolve());

const data = fs.readFileSync(p.big_file);
let port = 0;

function connect(host) {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, host);
    s.once('connect', () => {
      s.destroy();
      resolve();
    });
    s.once('error', reject);
  });
}

const probes = {
  read: () => new Promise((res, rej) => fs.readFile(p.small_file, cb(res, rej))),
  stat: () => new Promise((res, rej) => fs.stat(p.small_file, cb(res, rej))),
  gzip: () => new Promise((res, rej) => zlib.gzip(data, cb(res, rej))),
  lookup: () => new Promise((res, rej) => dns.lookup('localhost', cb(res, rej))),
  random: () => new Promise((res, rej) => crypto.randomBytes(32, cb(res, rej))),
  'connect-ip': () => connect('127.0.0.1'),
  'connect-name': () => connect('localhost'),
  timer: () => new Promise((res) => setTimeout(res, 0)),
};

async function timed(kind) {
  const t = now();
  await probes[kind]();
  return now() - t;
}

function blocker() {
  return new Promise((resolve, reject) =>
    crypto.pbkdf2('secret', 'salt', p.iterations, 64, 'sha512', (err) => (err ? reject(err) : resolve(now()))));
}

// The loopback listener: 127.0.0.1 on a free port, and ::1 on the same port
// where the machine has it. Accepted sockets are closed at once.
function listen(host, at) {
  return new Promise((resolve) => {
    const server = net.createServer((s) => s.destroy());
    server.once('error', () => resolve(null));
    server.listen(at, host, () => resolve(server));
  });
}

async function main() {
  const servers = [];
  const v4 = await listen('127.0.0.1', 0);
  if (!v4) throw new Error('cannot listen on 127.0.0.1');
  servers.push(v4);
  port = v4.address().port;
  const v6 = await listen('::1', port);
  if (v6) servers.push(v6);

  const idle = {};
  for (const kind of p.probes) {
    const times = [];
    for (let i = 0; i <= p.idle_runs; i++) {
      const t = await timed(kind);
      if (i > 0) times.push(t);
    }
    idle[kind] = median(times);
  }

  // One round: fresh blockers, the probe issued settle_ms after them.
  async function round(kind) {
    const t0 = now();
    const ends = [];
    for (let i = 0; i < p.blockers; i++) ends.push(blocker());
    await sleep(p.settle_ms);
    const issued = now();
    const probeMs = await timed(kind);
    const done = await Promise.all(ends);
    await sleep(20);
    return {
      probeMs,
      left: done.filter((e) => e > issued).length,
      blockerMs: median(done.map((e) => e - t0)),
      firstMs: Math.min(...done) - issued,
    };
  }

  const rows = [];
  for (const kind of p.probes) {
    const rounds = [];
    for (let r = 0; r < Math.max(p.rounds || 1, 1); r++) rounds.push(await round(kind));
    rows.push({
      probe: kind,
      idle_ms: idle[kind],
      probe_ms: median(rounds.map((r) => r.probeMs)),
      blockers_left: Math.min(...rounds.map((r) => r.left)),
      blocker_ms: median(rounds.map((r) => r.blockerMs)),
      first_done_ms: median(rounds.map((r) => r.firstMs)),
    });
  }
  for (const s of servers) s.close();
  console.log(JSON.stringify({ rows }));
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
