'use strict';
// Seed 002's service, unchanged code: /login hashes with crypto.pbkdf2,
// /file reads a file, /ping answers at once. Run it plain or under
// `node -r sluice/patch`; a refusal by a bounded lane (ESLUICEBUSY) is a 429.
// Prints its port on stdout.
const http = require('node:http');
const crypto = require('node:crypto');
const fs = require('node:fs');

const ITER = Number(process.env.BENCH_PBKDF2_ITERATIONS || 100000);
const file = __filename;

const server = http.createServer((req, res) => {
  if (req.url === '/ping') {
    res.end('pong');
  } else if (req.url === '/login') {
    crypto.pbkdf2('password', 'salt', ITER, 64, 'sha512', (err, key) => {
      if (err && err.code === 'ESLUICEBUSY') {
        res.writeHead(429, { 'Retry-After': '1' });
        res.end();
      } else if (err) {
        res.writeHead(500);
        res.end(err.message);
      } else {
        res.end(key.toString('hex').slice(0, 16));
      }
    });
  } else if (req.url === '/file') {
    fs.readFile(file, (err, data) => {
      res.writeHead(err ? 500 : 200);
      res.end(err ? err.message : data);
    });
  } else {
    res.writeHead(404);
    res.end();
  }
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
