// The soak's app (scripts/soak-app): the lab's real app (Express 5,
// express.static, compression, an argon2id /login on sluice/argon2, /ping;
// crates/sluice-lab/src/experiment/app/app.js) with the routes the soak's
// mixed load also needs: /lookup (dns.lookup, a new name each time, and
// localhost), /gzip (zlib.gzip of 64 KiB of text) and /file (fs.readFile of
// 256 KiB). Run under the preload (node -r sluice/patch): lookups, gzip,
// readFile and the static files' stat go through sluice.
// argv[2]: {"modules": dir, "static": dir, "sluice_package": dir}
// Prints {"event":"listening","port":p} once listening on 127.0.0.1.
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const dns = require('node:dns');
const zlib = require('node:zlib');

const p = JSON.parse(process.argv[2]);
const need = (name) => require(path.join(p.modules, name));
const express = need('express');
const compression = need('compression');
const argon2 = require(path.join(p.sluice_package, 'argon2.js'));

const PASSWORD = 'correct horse battery staple';
const stored = need('@node-rs/argon2').hashSync(PASSWORD);
const text = 'the quick brown fox jumps over the lazy dog 0123456789\n'.repeat(1200).slice(0, 64 * 1024);
const file = path.join(p.static, 'file.txt');
fs.writeFileSync(file, text.repeat(4));

let n = 0;
const app = express();
app.disable('x-powered-by');
app.use(compression());
app.use('/static', express.static(p.static));
app.get('/ping', (req, res) => res.type('text/plain').send('pong\n'));
app.get('/login', (req, res, next) => {
  argon2.verify(stored, PASSWORD).then((ok) => res.status(ok ? 200 : 401).type('text/plain').send(ok ? 'welcome\n' : 'no\n'), next);
});
app.get('/lookup', (req, res, next) => {
  n += 1;
  const name = n % 2 ? `n${n}.soak.test` : 'localhost';
  dns.lookup(name, { all: true }, (err, addrs) => (err ? next(err) : res.type('text/plain').send(`${addrs.length}\n`)));
});
app.get('/gzip', (req, res, next) => {
  zlib.gzip(text, (err, out) => (err ? next(err) : res.type('application/octet-stream').send(out)));
});
app.get('/file', (req, res, next) => {
  fs.readFile(file, (err, data) => (err ? next(err) : res.type('text/plain').send(`${data.length}\n`)));
});

const server = app.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ event: 'listening', port: server.address().port }));
});
server.keepAliveTimeout = 60000;
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
