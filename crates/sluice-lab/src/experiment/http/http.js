// sluice lab: http (seed 000 §5, seed 002 §3). The Node twin of `sluice serve`:
// the same routes on Node's http server, the work on libuv's pool.
// argv[2]: {"iterations": n, "gzip_bytes": n, "file": path, "cpu_queue": n|null,
//           "sluice_package": dir|null, "cluster": n|null}
// UV_THREADPOOL_SIZE (in the environment) sizes the pool.
// Prints {"event":"listening","port":p} once listening on 127.0.0.1 (a free port).
// With cpu_queue set, /login and /gzip admit at most pool + cpu_queue at once
// and answer 429 beyond (seed 002's twenty-line semaphore), as sluice serve does.
// With sluice_package set (node+sluice: node -r sluice/patch, so pbkdf2, gzip and
// readFile run on sluice's lanes), admission is the package's own: cpu_queue
// bounds its Cpu lane (sluice.configure) and a full lane rejects the call with
// ESLUICEBUSY, answered 429; no semaphore in JS.
// With cluster set (the cluster cell), the process is node:cluster's primary:
// it forks that many workers (each with the same flags, so node+sluice's
// preload too), each serving the routes on the one shared port, and prints
// the listening line once every worker listens; SIGTERM stops the workers.
'use strict';
const cluster = require('node:cluster');
const http = require('node:http');
const crypto = require('node:crypto');
const zlib = require('node:zlib');
const fs = require('node:fs');

const p = JSON.parse(process.argv[2]);

if (p.cluster && cluster.isPrimary) {
  let listening = 0;
  cluster.on('listening', (w, address) => {
    if (++listening === p.cluster) {
      console.log(JSON.stringify({ event: 'listening', port: address.port, workers: p.cluster }));
    }
  });
  cluster.on('exit', (w, code, signal) => {
    if (!stopping) {
      console.error(`cluster worker ${w.process.pid} exited (code ${code}, signal ${signal})`);
      process.exit(1);
    }
    if (Object.keys(cluster.workers).length === 0) process.exit(0);
  });
  let stopping = false;
  process.on('SIGTERM', () => {
    stopping = true;
    for (const w of Object.values(cluster.workers)) w.process.kill('SIGTERM');
  });
  for (let i = 0; i < p.cluster; i++) cluster.fork();
  return;
}

// The payload generator of sluice-serve's payload.rs: the same bytes.
function text(len) {
  const A = Buffer.from('abcdefghijklmnopqrstuvwxyz     \n');
  const out = Buffer.alloc(len);
  let x = 1;
  for (let i = 0; i < len; i++) {
    x = (Math.imul(x, 1103515245) + 12345) & 0x7fffffff;
    out[i] = A[(x >>> 16) & 31];
  }
  return out;
}

const gzipInput = text(p.gzip_bytes);
const poolSize = (() => {
  const n = parseInt(process.env.UV_THREADPOOL_SIZE || '4', 10);
  return Number.isFinite(n) && n > 0 ? Math.min(n, 1024) : 1;
})();
const sluice = p.sluice_package == null ? null : require(p.sluice_package);
if (sluice && p.cpu_queue != null) sluice.configure({ cpuQueueBound: p.cpu_queue });
const limit = p.cpu_queue == null || sluice ? Infinity : poolSize + p.cpu_queue;
let admitted = 0;

function send(res, status, type, body, extra) {
  res.writeHead(status, Object.assign({ 'content-type': type, 'content-length': body.length }, extra || {}));
  res.end(body);
}

function busy(res, err) {
  const why = err
    ? `busy: sluice's ${err.lane} lane is full (queue bound ${err.bound}); retry later\n`
    : `busy: ${admitted} Cpu requests admitted (pool ${poolSize} + queue ${p.cpu_queue}); retry later\n`;
  send(res, 429, 'text/plain; charset=utf-8', Buffer.from(why), { 'retry-after': '1' });
}

// Runs fn(done) if admitted; done(err, status, type, body) answers. Under
// the sluice package the lane admits: its refusal (ESLUICEBUSY) is a 429.
function admit(res, fn) {
  if (admitted >= limit) return busy(res);
  admitted++;
  fn((err, type, body) => {
    admitted--;
    if (err && err.code === 'ESLUICEBUSY') return busy(res, err);
    if (err) return send(res, 500, 'text/plain', Buffer.from(String(err) + '\n'));
    send(res, 200, type, body);
  });
}

const server = http.createServer((req, res) => {
  const path = req.url.split('?')[0];
  switch (path) {
    case '/ping':
      return send(res, 200, 'text/plain; charset=utf-8', Buffer.from('pong\n'));
    case '/login':
      return admit(res, (done) =>
        crypto.pbkdf2('secret', 'salt', p.iterations, 64, 'sha256', (err, key) =>
          done(err, 'text/plain; charset=utf-8', err ? null : Buffer.from(key.toString('hex') + '\n'))));
    case '/gzip':
      return admit(res, (done) => zlib.gzip(gzipInput, (err, out) => done(err, 'application/gzip', out)));
    case '/file':
      return fs.readFile(p.file, (err, data) => {
        if (err) return send(res, 500, 'text/plain', Buffer.from(String(err) + '\n'));
        send(res, 200, 'application/octet-stream', data);
      });
    default:
      return send(res, 404, 'text/plain', Buffer.from(`no route ${path}\n`));
  }
});
server.keepAliveTimeout = 60000;

server.listen(0, '127.0.0.1', () => {
  if (p.cluster) return;
  console.log(JSON.stringify({ event: 'listening', port: server.address().port, pool: poolSize }));
});

process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
