'use strict';
// Node's 'dns' performance entries for the lookups sluice runs. Node makes
// one per dns.lookup and dns.promises.lookup that succeeds, while a
// PerformanceObserver observes 'dns': name 'lookup', entryType 'dns',
// startTime and duration, and detail { hostname, family, hints, verbatim,
// addresses }. Node queues them through its internal observer machinery,
// which JavaScript cannot reach, so the preload (patch.js) installs a
// PerformanceObserver that is Node's own plus this: an observer that
// observes 'dns' also receives sluice's entries, dispatched as Node
// dispatches its own (gathered, then its callback on a setImmediate, with a
// PerformanceObserverEntryList). Node's entries reach it as before.

const perfHooks = require('node:perf_hooks');

const NodeObserver = perfHooks.PerformanceObserver;
const { performance, PerformanceEntry, PerformanceObserverEntryList } = perfHooks;

const kCallback = Symbol('sluice.perf.callback');
const kPending = Symbol('sluice.perf.pending');
const kDns = Symbol('sluice.perf.dns');

// The observers that observe 'dns' now.
const observers = new Set();
let flushing = false;

class PerformanceObserver extends NodeObserver {
  constructor(callback) {
    super(callback); // Node's checks and errors
    this[kCallback] = callback;
    this[kPending] = [];
    this[kDns] = false;
  }

  observe(options = {}) {
    super.observe(options); // Node's checks and errors
    // `entryTypes` replaces what is observed; `type` adds to it.
    if (options.entryTypes !== undefined) this[kDns] = options.entryTypes.includes('dns');
    else if (options.type === 'dns') this[kDns] = true;
    if (this[kDns]) observers.add(this);
    else observers.delete(this);
  }

  disconnect() {
    observers.delete(this);
    this[kDns] = false;
    this[kPending] = [];
    super.disconnect();
  }

  takeRecords() {
    const ours = this[kPending];
    this[kPending] = [];
    return [...super.takeRecords(), ...ours];
  }
}

// Installs the observer class in perf_hooks and as the global, once.
function install() {
  if (perfHooks.PerformanceObserver === PerformanceObserver) return;
  perfHooks.PerformanceObserver = PerformanceObserver;
  if (globalThis.PerformanceObserver === NodeObserver) globalThis.PerformanceObserver = PerformanceObserver;
}

/** The start time of a lookup to report, or undefined when nobody observes 'dns'. */
function lookupStarted() {
  return observers.size === 0 ? undefined : performance.now();
}

function entry(name, startTime, detail) {
  const duration = performance.now() - startTime;
  const e = Object.create(PerformanceEntry.prototype);
  const fields = { name, entryType: 'dns', startTime, duration, detail };
  for (const [k, v] of Object.entries(fields)) Object.defineProperty(e, k, { value: v, enumerable: true });
  Object.defineProperty(e, 'toJSON', { value: () => ({ ...fields }) });
  return e;
}

function list(entries) {
  const l = Object.create(PerformanceObserverEntryList.prototype);
  const byStart = [...entries].sort((a, b) => a.startTime - b.startTime);
  Object.defineProperties(l, {
    getEntries: { value: () => [...byStart] },
    getEntriesByType: { value: (type) => byStart.filter((e) => e.entryType === `${type}`) },
    getEntriesByName: {
      value: (name, type) => byStart.filter((e) => e.name === `${name}` && (type === undefined || e.entryType === `${type}`)),
    },
  });
  return l;
}

/**
 * A lookup that started at `startTime` (lookupStarted) succeeded: its entry
 * goes to every observer of 'dns'.
 */
function lookupDone(startTime, detail) {
  if (startTime === undefined || observers.size === 0) return;
  const e = entry('lookup', startTime, detail);
  for (const o of observers) o[kPending].push(e);
  if (flushing) return;
  flushing = true;
  setImmediate(() => {
    flushing = false;
    for (const o of [...observers]) {
      const pending = o[kPending];
      if (pending.length === 0) continue;
      o[kPending] = [];
      Reflect.apply(o[kCallback], o, [list(pending), o]);
    }
  });
}

module.exports = { install, lookupStarted, lookupDone };
