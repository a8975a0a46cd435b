// sluice lab: workers (seeds 000 §4 and 001). Do Node's worker_threads share
// the one libuv pool? W workers, each with its own event loop, each does T
// one-byte fs.read calls of a FIFO the lab holds; the lab counts how many
// reads are blocked at once. One file: the main thread and the workers.
// argv[2]: {"workers": W, "tasks": T, "fifo": path}
// The main thread opens the FIFO once and hands the fd to every worker (fds
// belong to the process, so each worker's fs.read is its own pool request on
// that same fd, which the lab watches).
// Prints {"event":"begin"} just before the workers start their reads, then
// {"total_ms", "threads_before", "threads_ready", "threads_after"}.
'use strict';
const fs = require('node:fs');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');

const now = () => Number(process.hrtime.bigint()) / 1e6;
// Threads of this process, from /proc/self/status (read synchronously: not a
// pool request).
const threads = () => Number(/^Threads:\s+(\d+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]);

function waitTask(fd) {
  return new Promise((resolve, reject) =>
    fs.read(fd, Buffer.alloc(1), 0, 1, null, (err) => (err ? reject(err) : resolve())));
}

function worker() {
  parentPort.on('message', async (m) => {
    if (m === 'go') {
      const tasks = [];
      for (let i = 0; i < workerData.tasks; i++) tasks.push(waitTask(workerData.fd));
      try {
        await Promise.all(tasks);
        parentPort.postMessage('done');
      } catch (e) {
        parentPort.postMessage({ error: String(e && e.stack ? e.stack : e) });
      }
    } else if (m === 'exit') {
      parentPort.close();
    }
  });
  parentPort.postMessage('ready');
}

async function main() {
  const p = JSON.parse(process.argv[2]);
  const threadsBefore = threads();
  const fd = fs.openSync(p.fifo, 'r');
  const workers = [];
  const ready = [];
  const done = [];
  for (let i = 0; i < p.workers; i++) {
    const w = new Worker(__filename, { workerData: { fd, tasks: p.tasks } });
    w.on('error', (e) => {
      console.error(e && e.stack ? e.stack : String(e));
      process.exit(1);
    });
    let onReady;
    let onDone;
    ready.push(new Promise((r) => (onReady = r)));
    done.push(new Promise((r) => (onDone = r)));
    w.on('message', (m) => {
      if (m === 'ready') onReady();
      else if (m === 'done') onDone();
      else {
        console.error(`worker ${i}: ${m && m.error ? m.error : JSON.stringify(m)}`);
        process.exit(1);
      }
    });
    workers.push(w);
  }
  await Promise.all(ready);
  const threadsReady = threads();
  console.log(JSON.stringify({ event: 'begin', t: Number(process.hrtime.bigint()) }));
  const t0 = now();
  for (const w of workers) w.postMessage('go');
  await Promise.all(done);
  const totalMs = now() - t0;
  // Counted while every worker is still alive.
  const threadsAfter = threads();
  const exited = workers.map((w) => new Promise((r) => w.once('exit', r)));
  for (const w of workers) w.postMessage('exit');
  await Promise.all(exited);
  console.log(
    JSON.stringify({
      total_ms: totalMs,
      threads_before: threadsBefore,
      threads_ready: threadsReady,
      threads_after: threadsAfter,
    }),
  );
}

if (isMainThread) {
  main().catch((e) => {
    console.error(e && e.stack ? e.stack : String(e));
    process.exit(1);
  });
} else {
  worker();
}
