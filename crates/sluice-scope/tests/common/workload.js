// A Node process with known truth for sluice-scope's tests.
// argv: MODE N [FIFO]
//   none     no pool submission at all; prints ready
//   idle     starts the pool (one fs.stat), prints ready
//   cpu      on SIGUSR2: N pbkdf2 in a loop
//   blocker  on SIGUSR2: the loop thread spins N ms
//   mix      on SIGUSR2: 2 reads of FIFO (held by the test), 8 pbkdf2,
//            3 dns.lookup('localhost'); prints done after all, exits
'use strict';
const fs = require('node:fs');
const crypto = require('node:crypto');
const dns = require('node:dns');

const [mode, n, fifo] = [process.argv[2], Number(process.argv[3] || 0), process.argv[4]];
let started = false;
setInterval(() => {}, 1 << 30);

function cpuLoop() {
  crypto.pbkdf2('secret', 'salt', 100000, 64, 'sha512', () => cpuLoop());
}

function mix() {
  const fd = fs.openSync(fifo, 'r+');
  const total = 2 + 8 + 3;
  let done = 0;
  const cb = (err) => {
    if (err) throw err;
    if (++done === total) {
      console.log('done');
      setTimeout(() => process.exit(0), 300);
    }
  };
  for (let i = 0; i < 2; i++) fs.read(fd, Buffer.alloc(1), 0, 1, null, cb);
  for (let i = 0; i < 8; i++) crypto.pbkdf2('secret', 'salt', 1000, 64, 'sha512', cb);
  for (let i = 0; i < 3; i++) dns.lookup('localhost', cb);
}

process.on('SIGUSR2', () => {
  if (started) return;
  started = true;
  if (mode === 'cpu') for (let i = 0; i < n; i++) cpuLoop();
  if (mode === 'blocker') {
    const t0 = Date.now();
    while (Date.now() - t0 < n) {
      // the loop thread is busy
    }
  }
  if (mode === 'mix') mix();
});

if (mode === 'none') console.log('ready');
else fs.stat(__filename, () => console.log('ready'));
