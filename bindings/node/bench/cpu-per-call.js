'use strict';
// CPU per call, by thread: 1000 calls in flight (waves of 1000, each wave
// submitted at once and then awaited, as `sluice lab dispatch` times them),
// plain node beside `node -r sluice/patch`, runs alternated. For each run,
// per-thread run time from /proc/self/task/*/schedstat across the timed
// waves, summed by thread name (the loop's own thread apart), per call:
//
//   loop      the event loop's thread: what decides the rate once it is busy
//             all the time (the rate is at most 1 / its CPU per call)
//   pool      the threads that ran the calls (libuv's, or sluice's FastIo
//             lane) and anything else the process ran
//   loop %    the loop thread's share of the wall
//
// Requests: `fs.stat` of "/" (node's own, or the preload's) and, under the
// preload, `sluice.ping(cb)` (the package's empty task). Build the addon
// first (`npm run build`): a debug addon measures the debug build.
//
//   node bench/cpu-per-call.js [--runs N] [--waves N] [--node PATH]
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const WAVE = 1000;
const WARMUP = 50;

if (process.argv[2] === '--child') {
  child(process.argv[3], Number(process.argv[4]));
} else {
  main();
}

function main() {
  const args = process.argv.slice(2);
  if (args.includes('-h') || args.includes('--help')) {
    console.log(fs.readFileSync(__filename, 'utf8').split('\n').slice(1, 18)
      .map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
    return;
  }
  const opt = (name, fallback) => {
    const i = args.indexOf(name);
    if (i === -1) return fallback;
    const v = args[i + 1];
    if (v === undefined) fail(`${name} needs a value`);
    return v;
  };
  const count = (name, fallback) => {
    const v = opt(name, String(fallback));
    if (!/^[1-9][0-9]*$/.test(v)) fail(`${name} must be a whole number of at least 1, not "${v}"`);
    return Number(v);
  };
  for (let i = 0; i < args.length; i += 2) {
    if (!['--runs', '--waves', '--node'].includes(args[i])) fail(`unknown argument "${args[i]}" (see --help)`);
  }
  const runs = count('--runs', 3);
  const waves = count('--waves', 600);
  const node = opt('--node', process.execPath);
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) {
    fail(`cannot run ${node}: ${version.error ? version.error.message : version.stderr.trim()}`);
  }
  const patch = path.join(__dirname, '..', 'patch.js');
  const subjects = [
    { name: 'node fs.stat', argv: [], request: 'stat' },
    { name: 'node+sluice fs.stat', argv: ['-r', patch], request: 'stat' },
    { name: 'node+sluice sluice.ping(cb)', argv: ['-r', patch], request: 'ping' },
  ];
  const got = new Map(subjects.map((s) => [s.name, []]));
  for (let r = 0; r < runs; r++) {
    for (const s of subjects) {
      const out = spawnSync(node, [...s.argv, __filename, '--child', s.request, String(waves)],
        { encoding: 'utf8' });
      if (out.status !== 0) fail(`${s.name}: exited ${out.status}: ${out.stderr.trim()}`);
      got.get(s.name).push(JSON.parse(out.stdout.trim().split('\n').pop()));
      process.stderr.write('.');
    }
  }
  process.stderr.write('\n');
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`${node} ${version.stdout.trim()}, ${runs} runs alternated, ${waves} waves of ${WAVE}, load average ${load} after`);
  const range = (xs, digits) => {
    const lo = Math.min(...xs).toFixed(digits);
    const hi = Math.max(...xs).toFixed(digits);
    return lo === hi ? lo : `${lo}-${hi}`;
  };
  const rows = [['subject', 'k calls/s', 'loop µs/call', 'pool µs/call', 'loop % of wall', '1 / loop, k/s']];
  for (const [name, rs] of got) {
    rows.push([name,
      range(rs.map((x) => x.kps), 0),
      range(rs.map((x) => x.loop_us), 2),
      range(rs.map((x) => x.others_us), 2),
      range(rs.map((x) => x.loop_share * 100), 0),
      range(rs.map((x) => 1e3 / x.loop_us), 0)]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
}

function fail(message) {
  console.error(`cpu-per-call: ${message}`);
  process.exit(2);
}

// Run time of every thread so far, ns: the loop's own and the others' sum.
function runTimes() {
  let loop = 0;
  let others = 0;
  for (const tid of fs.readdirSync('/proc/self/task')) {
    let ns;
    try {
      ns = Number(fs.readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      continue; // a thread that exited meanwhile
    }
    if (tid === String(process.pid)) loop += ns;
    else others += ns;
  }
  return { loop, others };
}

function child(request, waves) {
  let call;
  if (request === 'ping') {
    const sluice = require(path.join(__dirname, '..'));
    call = (cb) => sluice.ping(cb);
  } else {
    call = (cb) => fs.stat('/', cb);
  }
  const wave = (done) => {
    let left = WAVE;
    const cb = (err) => {
      if (err) throw err;
      if (--left === 0) done();
    };
    for (let i = 0; i < WAVE; i++) call(cb);
  };
  let n = 0;
  let t0;
  let before;
  const next = () => {
    if (n === WARMUP) {
      before = runTimes();
      t0 = process.hrtime.bigint();
    }
    if (n++ === WARMUP + waves) {
      const wall = Number(process.hrtime.bigint() - t0);
      const after = runTimes();
      const calls = waves * WAVE;
      const loop = after.loop - before.loop;
      console.log(JSON.stringify({
        kps: calls / wall * 1e6,
        loop_us: loop / calls / 1e3,
        others_us: (after.others - before.others) / calls / 1e3,
        loop_share: loop / wall,
      }));
      return;
    }
    wave(() => setImmediate(next));
  };
  next();
}
