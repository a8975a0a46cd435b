'use strict';
// Run on plain node and under `-r ./patch.js` (uncaught.test.js compares
// the two): a callback that throws, and what Node does with the exception.
//
//   node [-r ./patch.js] test/uncaught-child.js CASE [FORM]
//
// FORM: pbkdf2, randomBytes, readFile, lookup, stat, open (all of them, one
// after the other, where FORM is left out). CASE:
//   listeners   'uncaughtExceptionMonitor' and 'uncaughtException' listeners
//   capture     process.setUncaughtExceptionCaptureCallback (and a listener it wins over)
//   batch       four calls of the form, in flight together; three throw
//   domain      the call made in domain.run(), the domain with an 'error' listener
//   bare-domain the same, the domain with none ('uncaughtException' listeners get it)
//   none        no listener: the process dies (stderr: the banner)
//   throws      the 'uncaughtException' listener throws (Node: exit code 7)
//   capture-throws  the capture callback throws (exit code 7)
// Prints one JSON line per form (its events, as ordinals) where the process
// lives; 'exit <code>' where it has an 'exit' listener.
const async_hooks = require('node:async_hooks');
const crypto = require('node:crypto');
const dns = require('node:dns');
const fs = require('node:fs');

const [kase, only] = process.argv.slice(2);

// Each form: the call, and the async_hooks type of the requests Node makes
// for it (the callback runs in the last one).
const FORMS = {
  pbkdf2: ['PBKDF2REQUEST', (cb) => crypto.pbkdf2('a', 'b', 1, 8, 'sha1', cb)],
  randomBytes: ['RANDOMBYTESREQUEST', (cb) => crypto.randomBytes(8, cb)],
  readFile: ['FSREQCALLBACK', (cb) => fs.readFile(__filename, cb)],
  lookup: ['GETADDRINFOREQWRAP', (cb) => dns.lookup('localhost', cb)],
  stat: ['FSREQCALLBACK', (cb) => fs.stat(__filename, cb)],
  open: ['FSREQCALLBACK', (cb) => fs.open(__filename, 'r', cb)],
};
const forms = only ? [only] : Object.keys(FORMS);

let type = null;
let events = [];
const ours = new Map();
const name = (id) => (ours.has(id) ? `r${ours.get(id)}` : 'other');
const als = new async_hooks.AsyncLocalStorage();
// Where the code runs: its request (as an ordinal), and the caller's store.
const where = () => [name(async_hooks.executionAsyncId()), als.getStore() || null];

async_hooks.createHook({
  init(id, t, trigger) {
    if (t === type) {
      ours.set(id, ours.size);
      events.push(['init', name(id), name(trigger)]);
    } else if (ours.has(trigger) && t !== 'Timeout') {
      // What runs in the request's scope makes (Node's handler: an Immediate).
      events.push(['init', t, name(trigger)]);
    }
  },
  before(id) { if (ours.has(id)) events.push(['before', name(id)]); },
  after(id) { if (ours.has(id)) events.push(['after', name(id)]); },
  destroy(id) { if (ours.has(id)) events.push(['destroy', name(id)]); },
}).enable();

const seen = (what) => (e, origin) => events.push([what, e.message, origin, ...where()]);
const fatal = new Set(['none', 'throws', 'capture-throws']);

if (kase === 'listeners' || kase === 'batch' || kase === 'bare-domain' || kase === 'domain') {
  process.on('uncaughtExceptionMonitor', seen('monitor'));
  process.on('uncaughtException', seen('uncaught'));
} else if (kase === 'capture') {
  process.on('uncaughtException', seen('uncaught (not Node\'s: the capture callback wins)'));
  process.setUncaughtExceptionCaptureCallback((e) => events.push(['capture', e.message, ...where()]));
} else if (kase === 'throws') {
  process.on('uncaughtException', (e) => {
    throw new Error(`the listener threw on ${e.message}`); // the listener's line
  });
} else if (kase === 'capture-throws') {
  process.setUncaughtExceptionCaptureCallback((e) => {
    throw new Error(`the capture callback threw on ${e.message}`); // the capture callback's line
  });
} else if (kase !== 'none') {
  throw new Error(`unknown case ${kase}`);
}
if (fatal.has(kase)) process.on('exit', (code) => console.log(`exit ${code}`));

// The call(s) of `form`, the callback throwing; then `done` once its
// requests' hooks have all come.
function run(form, done) {
  events = [];
  ours.clear();
  type = FORMS[form][0];
  const call = FORMS[form][1];
  const n = kase === 'batch' ? 4 : 1;
  let left = n;
  const callback = (i) => () => {
    events.push(['callback', i, ...where()]);
    if (--left === 0) setTimeout(() => done(events), 50);
    if (kase !== 'batch' || i !== 1) throw new Error(`thrown by ${form} callback ${i}`); // the user's line
  };
  const make = () => als.run(`caller of ${form}`, () => {
    for (let i = 0; i < n; i++) call(callback(i));
  });
  if (kase === 'domain' || kase === 'bare-domain') {
    const d = require('node:domain').create();
    if (kase === 'domain') d.on('error', (e) => events.push(['domain', e.message, ...where()]));
    d.run(make);
  } else {
    make();
  }
}

const out = {};
const next = () => {
  const form = forms.shift();
  if (form === undefined) {
    console.log(JSON.stringify(out));
    return;
  }
  run(form, (ev) => {
    out[form] = ev;
    next();
  });
};
next();
