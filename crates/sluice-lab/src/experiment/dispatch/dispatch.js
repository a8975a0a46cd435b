// sluice lab: dispatch. The round-trip cost of a trivial pool request from JS.
// uv_queue_work is not reachable from JS; the request is the cheapest one that
// goes through libuv's pool (p.request, see REQUESTS), issued with its plain
// callback API (no promises), so each round trip is: JS call, C++ binding,
// uv__work_submit, a pool thread runs it, uv_async_send wakes the loop, the
// JS callback runs.
// Under the sluice preload (node+sluice) the request may also be
// 'sluice.ping', the package's trivial task, with the package's directory in
// argv[2].sluice_package.
// argv[2]: {"request", "rounds", "batch", "batch_ms", "batches", "warmup", "settle_ms", "idle_ms", "sluice_package"?}
// Prints {"one_wall_ns": [..], "batch_wall_ns": [..], "batch_tasks": [..], "idle": {..}, "request": ".."}.
'use strict';
const fs = require('node:fs');
const crypto = require('node:crypto');

const p = JSON.parse(process.argv[2]);
// The sluice npm package, where the lab runs this script with it.
const sluice = p.sluice_package == null ? null : require(p.sluice_package);

const oneByte = Buffer.alloc(1);
const REQUESTS = {
  // fs.access(path, cb): one access(2) of "/" on a pool thread (FAST_IO);
  // its callback gets only an error, no object is built for it.
  'fs.access': (cb) => fs.access('/', cb),
  // fs.fstat(fd, cb): one fstat(2) on a pool thread; the callback gets a
  // Stats object.
  'fs.fstat': (cb) => fs.fstat(0, cb),
  // fs.stat(path, cb): one stat(2) of "/"; the callback gets a Stats object.
  // The cheapest call the sluice preload reroutes (node+sluice runs it).
  'fs.stat': (cb) => fs.stat('/', cb),
  // crypto.randomFill(1 byte): a CryptoJob through uv_queue_work (CPU).
  'crypto.randomFill': (cb) => crypto.randomFill(oneByte, cb),
  // The sluice npm package's trivial task (node+sluice only): an empty task
  // on its FastIo lane, with its plain callback like the rows above (the
  // callback form makes no promise).
  'sluice.ping': (cb) => sluice.ping(cb),
};

const request = REQUESTS[p.request];
if (request && p.request.startsWith('sluice.') && !sluice) {
  console.error(`${p.request} needs the sluice package (sluice_package)`);
  process.exit(2);
}
if (!request) {
  console.error(`unknown request ${JSON.stringify(p.request)}; expected one of ${Object.keys(REQUESTS).join(', ')}`);
  process.exit(2);
}

// `rounds` round trips one after another: each callback issues the next.
function oneInFlight(rounds, done) {
  const t0 = process.hrtime.bigint();
  let left = rounds;
  const cb = (err) => {
    if (err) throw err;
    if (--left > 0) request(cb);
    else done(Number(process.hrtime.bigint() - t0));
  };
  request(cb);
}

// `batch` requests at once, then wait for all of them: one wave.
function wave(batch, done) {
  const t0 = process.hrtime.bigint();
  let left = batch;
  const cb = (err) => {
    if (err) throw err;
    if (--left === 0) done(Number(process.hrtime.bigint() - t0));
  };
  for (let i = 0; i < batch; i++) request(cb);
}

// Waves of `batch`, one after another, until their walls add up to
// `batch_ms`: calls back with that sum and the tasks they ran.
function batchInFlight(batch, done) {
  let wall = 0;
  let tasks = 0;
  const next = () => wave(batch, (ns) => {
    wall += ns;
    tasks += batch;
    if (wall < p.batch_ms * 1e6) next();
    else done(wall, tasks);
  });
  next();
}

// `warmup` untimed runs, then `batches` timed ones; calls back with the
// walls and what else each run reported (the tasks of a throughput batch).
function series(run, arg, then) {
  const walls = [];
  const counts = [];
  let i = 0;
  const step = () => {
    run(arg, (ns, count) => {
      if (i++ >= p.warmup) {
        walls.push(ns);
        counts.push(count);
      }
      if (walls.length < p.batches) setImmediate(step);
      else then(walls, counts);
    });
  };
  step();
}

// The same reading as the Rust side (procfs::idle_cpu): per thread other than
// this one (the JS thread, whose tid is the pid), schedstat and context
// switches, read outside the window; /proc/self/stat's utime + stime (whole
// process) at its two ends.
function statTicks() {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 1).trim().split(/\s+/);
  return Number(fields[11]) + Number(fields[12]);
}

function others() {
  const out = new Map();
  let threads = 0;
  for (const tid of fs.readdirSync('/proc/self/task')) {
    threads++;
    if (tid === String(process.pid)) continue;
    try {
      const ns = Number(fs.readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      let switches = 0;
      for (const line of fs.readFileSync(`/proc/self/task/${tid}/status`, 'utf8').split('\n')) {
        if (line.includes('ctxt_switches:')) switches += Number(line.split(/\s+/)[1]);
      }
      out.set(tid, [ns, switches]);
    } catch (_) {
      // The thread exited while being read.
    }
  }
  return { out, threads };
}

function idleCpu(windowMs, then) {
  const before = others();
  const t0 = process.hrtime.bigint();
  const ticks0 = statTicks();
  setTimeout(() => {
    const ticks1 = statTicks();
    const windowNs = Number(process.hrtime.bigint() - t0);
    const after = others();
    let ns = 0;
    let switches = 0;
    for (const [tid, [ns1, sw1]] of after.out) {
      const b = before.out.get(tid);
      if (b) {
        ns += ns1 - b[0];
        switches += sw1 - b[1];
      }
    }
    then({ window_ns: windowNs, ticks: ticks1 - ticks0, thread_ns: ns, switches, threads: after.threads });
  }, windowMs);
}

series(oneInFlight, p.rounds, (oneWalls) => {
  series(batchInFlight, p.batch, (batchWalls, batchTasks) => {
    setTimeout(() => {
      idleCpu(p.idle_ms, (idle) => {
        console.log(JSON.stringify({
          request: p.request,
          one_wall_ns: oneWalls,
          batch_wall_ns: batchWalls,
          batch_tasks: batchTasks,
          idle,
        }));
      });
    }, p.settle_ms);
  });
});
