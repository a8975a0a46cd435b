'use strict';
// Run under `node -r ./patch.js` by fd-closed-under.test.js, with one
// mode in FD_MODE: `closed` or `reused`. A readFile of a FIFO runs on sluice's
// FastIo lane; while its worker is blocked reading the FIFO, this script
// closes the worker's descriptor (a stray close, as a program that closes a
// number twice makes), and with `reused` opens files until one takes that
// number. Then it lets the read end. Prints one JSON line: the readFile's
// outcome, and for `reused` whether this script's file is still open.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const mode = process.env.FD_MODE;
// read(2)'s number, as /proc/<pid>/task/<tid>/syscall names it.
const READ = { x64: 0, arm64: 63 }[process.arch];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-fd-'));
const fifo = path.join(dir, 'fifo');
const victimPath = path.join(dir, 'victim');
execFileSync('mkfifo', [fifo]);
fs.writeFileSync(victimPath, 'victim');

const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
// The descriptors of this process naming `p`.
function fdsOf(p) {
  return fs.readdirSync('/proc/self/fd').filter((n) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${n}`) === p;
    } catch {
      return false;
    }
  }).map(Number);
}
// Whether a thread of this process is blocked in read(fd).
function readingIn(fd) {
  return fs.readdirSync('/proc/self/task').some((tid) => {
    let s;
    try {
      s = fs.readFileSync(`/proc/self/task/${tid}/syscall`, 'latin1').split(' ');
    } catch {
      return false;
    }
    return Number(s[0]) === READ && Number(s[1]) === fd;
  });
}
function until(what, ok) {
  for (let i = 0; i < 2000; i++) {
    const v = ok();
    if (v) return v;
    pause(5);
  }
  throw new Error(`never: ${what}`);
}

fs.readFile(__filename, () => {
  fs.readFile(fifo, (err, data) => {
    const out = { err: err ? { code: err.code, syscall: err.syscall } : null, data: data ? String(data) : null };
    if (mode === 'reused') {
      try {
        out.victimOpen = fs.fstatSync(victim).ino === victimIno;
        const buf = Buffer.alloc(16);
        out.victimReads = buf.toString('utf8', 0, fs.readSync(victim, buf, 0, 16, 0));
      } catch (e) {
        out.victimOpen = e.code;
      }
    }
    console.log(JSON.stringify(out));
  });
  // Opening the FIFO's write end waits for the worker's open of its read end.
  const writer = fs.openSync(fifo, 'w');
  const worker = until('the worker opens the FIFO', () => fdsOf(fifo).find((fd) => fd !== writer));
  until('the worker reads the FIFO', () => readingIn(worker));
  fs.closeSync(worker);
  let victim = -1;
  let victimIno = -1;
  if (mode === 'reused') {
    const extra = [];
    while ((victim = fs.openSync(victimPath, 'r')) !== worker) extra.push(victim);
    for (const fd of extra) fs.closeSync(fd);
    victimIno = fs.fstatSync(victim).ino;
  }
  fs.writeSync(writer, 'hello');
  fs.closeSync(writer);
});
