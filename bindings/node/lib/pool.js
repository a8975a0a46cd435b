'use strict';
// The process's pool, as this package sees it: the SLUICE_* check at load,
// the warm-up, configure(), and the state "sluice is off".
//
// A refused SLUICE_* variable (SLUICE_CPU_THREADS=4 on 2 cores, junk) is
// found when the package loads, before any call: every call then goes to
// Node's own function (libuv's pool), and one warning names the variable
// and its value, on the next turn of the loop (unless configure() replaced
// the value by then). configure() and metrics() throw that error
// (ERR_SLUICE_ENV). An empty variable is an unset one.

const util = require('node:util');

const native = require('../binding.js');
const { addonError } = require('./errors.js');

let disabled = null;
{
  const refused = native.checkEnv();
  if (refused) {
    disabled = new Error(`sluice: ${refused.message}`);
    disabled.code = 'ERR_SLUICE_ENV';
    disabled.variable = refused.variable;
    disabled.value = refused.value;
  }
}

// Once the tick that loaded the package ends (configure() runs in it, or
// builds the pool itself), the pool is built, a FastIo worker started and
// the resolver read: the first call is as fast as the next ones. The addon
// schedules it on the loop itself (src/after_tick.rs), not with
// setImmediate: an immediate made at load would reach async_hooks enabled
// later as a `before` with no `init`, and run in a domain the app entered
// meanwhile (Node's DEP0097). The inbox's socket opens at the first call,
// after the app's hooks, which then see its init (PIPEWRAP) before its reads.
if (disabled !== null) {
  setImmediate(() => {
    if (disabled === null) return; // configure() replaced the value
    process.emitWarning(
      `${disabled.message.replace(/^sluice: /, '')}; sluice is off: every call runs on Node's own functions (libuv's pool) until it is fixed`,
      { code: 'ERR_SLUICE_ENV', type: 'SluiceWarning' });
  }).unref();
} else {
  try {
    native.warmAfterTick();
  } catch {
    // The first call reports it.
  }
}

// `plan(a, b)` (a shape check) as null where it throws: an options object
// with a throwing getter, a revoked Proxy. The call then goes to Node's own
// function, which meets the same throw where Node does (a rejection for a
// promise form). Null too while a refused SLUICE_* variable has sluice off.
// Most callers pass a closure and no arguments; the hot callback forms
// (patch.js's one-argument ones: fs.stat, fs.readFile, dns.lookup,
// zlib.gzip, zlib.gunzip) pass the plan and its two arguments, so that no
// closure is made per call.
function planned(plan, a, b) {
  if (disabled !== null) return null;
  try {
    return plan(a, b);
  } catch {
    return null;
  }
}

// The addon's answer to `call()`, or the error that turned sluice off.
function fromPool(call) {
  if (disabled !== null) throw disabled;
  try {
    return call();
  } catch (e) {
    throw addonError(e);
  }
}

const OPTIONS = ['cpu', 'fastIo', 'slowIo', 'cpuQueueBound', 'fastIoQueueBound',
  'slowIoQueueBound', 'stackSize', 'cpuNice', 'cpuSched'];
// The Cpu workers' scheduling policies (`cpuSched`); unset: SLUICE_CPU_SCHED,
// else 'guarded' where the process may take a thread out of SCHED_IDLE
// (CAP_SYS_NICE, `ulimit -e` >= 20 - cpuNice), else 'normal' (SCHED_OTHER at
// cpuNice); metricsJson().pool.cpu_sched says which.
const CPU_SCHEDS = ['normal', 'batch', 'idle', 'guarded'];

function optionError(Kind, code, message) {
  const err = new Kind(`sluice.configure: ${message}`);
  err.code = code;
  return err;
}

// The options, checked for their types (the pool checks their values).
function cleanOptions(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    const err = new TypeError(
      `sluice.configure(options): options must be an object; received ${util.inspect(options)}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
  const clean = {};
  for (const key of Object.keys(options)) {
    const value = options[key];
    if (!OPTIONS.includes(key)) {
      throw optionError(TypeError, 'ERR_INVALID_ARG_VALUE',
        `unknown option "${key}"; expected one of ${OPTIONS.join(', ')}`);
    }
    if (value === undefined) continue;
    if (key === 'cpuSched') {
      if (typeof value !== 'string') {
        throw optionError(TypeError, 'ERR_INVALID_ARG_TYPE',
          `option "cpuSched" must be a string; received ${util.inspect(value)}`);
      }
      if (!CPU_SCHEDS.includes(value)) {
        throw optionError(TypeError, 'ERR_INVALID_ARG_VALUE',
          `option "cpuSched" = ${util.inspect(value)} is not accepted; expected one of ${CPU_SCHEDS.join(', ')}`);
      }
      clean[key] = value;
      continue;
    }
    if (typeof value !== 'number') {
      throw optionError(TypeError, 'ERR_INVALID_ARG_TYPE',
        `option "${key}" must be a number; received ${util.inspect(value)}`);
    }
    if (!Number.isInteger(value) || value < 0 || value > 2 ** 32 - 1) {
      throw optionError(RangeError, 'ERR_OUT_OF_RANGE',
        `option "${key}" = ${value} is out of range; expected a whole number`);
    }
    clean[key] = value;
  }
  return clean;
}

/**
 * Builds the process's pool with `options` on top of SLUICE_*. A value the
 * pool refuses is a RangeError (ERR_OUT_OF_RANGE) whose `option` names the
 * option (the pool's typed setting, passed through by the addon); one from
 * a SLUICE_* variable is ERR_SLUICE_ENV with its `variable`.
 */
function configure(options) {
  const clean = cleanOptions(options);
  const refused = native.configure(clean);
  if (refused) {
    const Kind = refused.code === 'ERR_OUT_OF_RANGE' ? RangeError : Error;
    const err = new Kind(`sluice.configure: ${refused.message}`);
    err.code = refused.code;
    if (refused.option) err.option = refused.option;
    if (refused.variable) err.variable = refused.variable;
    throw err;
  }
  // The options replaced what a refused variable said.
  disabled = null;
}

module.exports = {
  configure,
  planned,
  fromPool,
  disabled: () => disabled,
  isConfigured: () => native.isConfigured(),
  buildProfile: () => native.buildProfile(),
};
