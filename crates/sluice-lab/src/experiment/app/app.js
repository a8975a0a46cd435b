// sluice lab: app (issue 28 §3). A real app built from npm packages:
// Express 5 with express.static (a directory of small and large files),
// compression, a /login that verifies an argon2id hash, and /ping.
// argv[2]: {"modules": dir, "mode": "node"|"sluice"|"piscina",
//           "static": dir, "sluice_package": dir|null, "worker": path}
// modules: the node_modules the lab installed (npm ci of this folder's
// package-lock.json). The /login hash:
//   node:    @node-rs/argon2's verify (its async work on libuv's pool);
//   sluice:  sluice/argon2's verify (the Cpu lane; run with -r sluice/patch);
//   piscina: @node-rs/argon2's verifySync in a piscina pool at its defaults.
// Prints {"event":"listening","port":p} once listening on 127.0.0.1.
'use strict';
const path = require('node:path');
const fs = require('node:fs');

const p = JSON.parse(process.argv[2]);
const need = (name) => require(path.join(p.modules, name));
const express = need('express');
const compression = need('compression');
const nodeRs = need('@node-rs/argon2');

// The stored hash: the password's, at @node-rs/argon2's defaults (argon2id,
// 19 MiB, 2 passes), made once at start-up.
const PASSWORD = 'correct horse battery staple';
const stored = nodeRs.hashSync(PASSWORD);

let verify;
if (p.mode === 'node') {
  verify = (hashed, pw) => nodeRs.verify(hashed, pw);
} else if (p.mode === 'sluice') {
  const argon2 = require(path.join(p.sluice_package, 'argon2.js'));
  verify = (hashed, pw) => argon2.verify(hashed, pw);
} else if (p.mode === 'piscina') {
  fs.writeFileSync(p.worker, [
    "'use strict';",
    `const { verifySync } = require(${JSON.stringify(path.join(p.modules, '@node-rs/argon2'))});`,
    'module.exports = ({ hashed, pw }) => verifySync(hashed, pw);',
    '',
  ].join('\n'));
  const { Piscina } = need('piscina');
  const pool = new Piscina({ filename: p.worker });
  verify = (hashed, pw) => pool.run({ hashed, pw });
} else {
  throw new Error(`unknown mode ${p.mode}`);
}

const app = express();
app.disable('x-powered-by');
app.use(compression());
app.use('/static', express.static(p.static));
app.get('/ping', (req, res) => res.type('text/plain').send('pong\n'));
app.get('/login', (req, res, next) => {
  verify(stored, PASSWORD).then((ok) => {
    if (!ok) return res.status(401).type('text/plain').send('no\n');
    return res.type('text/plain').send('welcome\n');
  }, next);
});

const server = app.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ event: 'listening', port: server.address().port, mode: p.mode }));
});
server.keepAliveTimeout = 60000;

process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
