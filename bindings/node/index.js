'use strict';
// sluice for Node.js: the work Node sends to libuv's four threads, on
// sluice's lanes instead (Cpu for pbkdf2/scrypt/gzip, FastIo for fs,
// no thread at all for dns.lookup), with Node's own promise APIs.
//
// Every call first asks: is this a shape sluice runs? (lib/shapes.js). If
// yes, the addon runs it (lib/ops.js), its outcome comes back through the
// inbox (lib/inbox.js), and the call is settled as Node settles its own
// (lib/call.js), with Node's result and Node's error objects
// (lib/errors.js). If not, the call goes to Node's own function, so
// argument errors are Node's, byte for byte, and nothing Node accepts is
// refused. lib/pool.js has the SLUICE_* check, the warm-up and
// configure(); lib/metrics.js the counts.

const { eagerly } = require('./lib/eager.js');

// Compiled as they load, so that a first call runs compiled code (lib/eager.js).
const { native, inbox, start, shapes, original, run, fallback, api, pool, metrics, metricsJson, toPrometheusText } =
  eagerly(() => ({
    native: require('./binding.js'),
    inbox: require('./lib/inbox.js'),
    start: require('./lib/call.js').start,
    shapes: require('./lib/shapes.js'),
    ...require('./lib/ops.js'),
    pool: require('./lib/pool.js'),
    ...require('./lib/metrics.js'),
  }));

const { crypto, zlib, fs, dns, ping } = api;
const { configure, isConfigured, buildProfile } = pool;

// For sluice/patch, sluice/argon2, sluice/bcrypt and the tests; not part of
// the documented API.
const _internal = {
  native,
  original,
  inbox: inbox.inbox,
  slot: inbox.slot,
  shapes,
  run,
  fallback,
  start,
  planned: pool.planned,
  disabled: pool.disabled,
  toPrometheusText,
  pending: inbox.pending,
  setDrainLimitForTest: inbox.setDrainLimitForTest,
};
// The addon's test hooks, where it was built with them (cargo feature
// `test-hooks`: `node scripts/build.js`, the debug build the tests use; never
// a release build or a prebuilt addon).
if (typeof native.panicForTest === 'function') {
  // A task that panics in Rust: the test of the panic path.
  _internal.panicForTest = (message) => start(() => native.panicForTest(inbox.slot, String(message)));
  // An outcome of `len` zero bytes (untouched pages): the test of a value
  // V8 refuses, past buffer.kMaxLength.
  _internal.oversizedForTest = (len, callback) =>
    start(() => native.oversizedForTest(inbox.slot, len, inbox.drainLimit()), undefined, null, callback);
}

// Written as a list of names, so that Node's CJS export detector finds every
// one of them: `import { metrics } from 'sluice'` works.
module.exports = {
  crypto,
  zlib,
  fs,
  dns,
  configure,
  isConfigured,
  buildProfile,
  metrics,
  metricsJson,
  ping,
  _internal,
};
