'use strict';
// The package's counts: the pool's and the resolver's (from the addon),
// and this thread's calls and hand-offs to Node (`count`), as Prometheus
// text for prom-client or as an object.

const native = require('../binding.js');
const { fromPool } = require('./pool.js');
const { inbox } = require('./inbox.js');

// The calls this thread's inbox answered on the loop's thread, without a
// pool thread (the no-wait path, lib/ops.js), by operation.
function nowaitCounts() {
  const [stat, readFile, lookup, zlibStream, open, read] = inbox.nowaitCounts();
  return { stat, readFile, lookup, zlibStream, open, read };
}

const counters = { calls: Object.create(null), fallbacks: Object.create(null) };

/** Counts one call of `op`: `kind` 'calls' (sluice ran it) or 'fallbacks' (Node's). */
function count(kind, op) {
  counters[kind][op] = (counters[kind][op] || 0) + 1;
}

// OpenMetrics text (what the pool writes) as Prometheus text format 0.0.4,
// which prom-client writes: no `# EOF`, no `# UNIT`, and a counter's HELP
// and TYPE name the `_total` series it has.
function toPrometheusText(openMetrics) {
  const counterFamilies = new Set();
  const infoFamilies = new Set();
  for (const line of openMetrics.split('\n')) {
    const m = /^# TYPE (\S+) (counter|info)$/.exec(line);
    if (m) (m[2] === 'counter' ? counterFamilies : infoFamilies).add(m[1]);
  }
  const out = [];
  for (const line of openMetrics.split('\n')) {
    if (line === '' || line === '# EOF' || line.startsWith('# UNIT ')) continue;
    const m = /^# (HELP|TYPE) (\S+)( .*)$/.exec(line);
    if (m && counterFamilies.has(m[2])) {
      out.push(`# ${m[1]} ${m[2]}_total${m[3]}`);
    } else if (m && infoFamilies.has(m[2])) {
      // OpenMetrics' info family `x` is the gauge `x_info` (value 1) in
      // Prometheus' text format.
      out.push(m[1] === 'TYPE' ? `# TYPE ${m[2]}_info gauge` : `# HELP ${m[2]}_info${m[3]}`);
    } else {
      out.push(line);
    }
  }
  return out.join('\n') + '\n';
}

function nodeCountersText() {
  const lines = [];
  const nowait = nowaitCounts();
  for (const [kind, help, counts] of [
    ['calls', 'Calls this thread ran through sluice, by operation', counters.calls],
    ['fallbacks', 'Calls this thread handed to Node\'s own function (a shape sluice does not run), by operation', counters.fallbacks],
    ['nowait', 'Calls this thread ran through sluice that were answered on the loop\'s thread without a pool thread (the kernel\'s caches, the hosts file), by operation', nowait],
  ]) {
    const name = `sluice_node_${kind}_total`;
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
    for (const [op, n] of Object.entries(counts)) lines.push(`${name}{op="${op}"} ${n}`);
  }
  return lines.join('\n') + '\n';
}

/** Prometheus text, ready to append to prom-client's `register.metrics()`. */
function metrics() {
  return toPrometheusText(fromPool(() => native.metricsText())) + nodeCountersText();
}

/** The pool's and the resolver's counts as an object (see index.d.ts). */
function metricsJson() {
  const m = JSON.parse(fromPool(() => native.metricsJson()));
  m.node = { calls: { ...counters.calls }, fallbacks: { ...counters.fallbacks }, nowait: nowaitCounts() };
  return m;
}

module.exports = { count, metrics, metricsJson, toPrometheusText };
