'use strict';
// metrics(): Prometheus text that appends to prom-client's output.
const test = require('node:test');
const assert = require('node:assert');
const sluice = require('..');

// Checks text format 0.0.4 line by line: every sample belongs to a family
// declared once with TYPE (a histogram's _bucket/_sum/_count to its base).
function checkExposition(text) {
  const types = new Map();
  let samples = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let m = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (m) {
      assert.ok(!types.has(m[1]), `TYPE ${m[1]} declared twice`);
      types.set(m[1], m[2]);
      continue;
    }
    if (line.startsWith('# HELP ')) continue;
    assert.ok(!line.startsWith('#'), `unexpected comment line: ${line}`);
    m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (-?[0-9.e+-]+|NaN|Nan|\+Inf|-Inf)( -?[0-9]+)?$/.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    const name = m[1];
    const base = name.replace(/_(bucket|sum|count)$/, '');
    assert.ok(types.has(name) || types.get(base) === 'histogram' || types.get(base) === 'summary',
      `sample ${name} has no TYPE`);
    samples += 1;
  }
  return { types, samples };
}

test('metrics(): valid Prometheus text with the lanes\' counts', async () => {
  await sluice.crypto.pbkdf2('a', 'b', 1, 8, 'sha1');
  await sluice.crypto.pbkdf2('a', 'b', 1, 8, 'md5'); // handed to Node
  const text = sluice.metrics();
  const { types } = checkExposition(text);
  assert.strictEqual(types.get('sluice_submitted_total'), 'counter');
  assert.strictEqual(types.get('sluice_queue_wait_seconds'), 'histogram');
  assert.match(text, /^sluice_submitted_total\{lane="cpu"\} 1$/m);
  assert.match(text, /^sluice_node_calls_total\{op="pbkdf2"\} 1$/m);
  assert.match(text, /^sluice_node_fallbacks_total\{op="pbkdf2"\} 1$/m);
  assert.doesNotMatch(text, /# EOF/);
});

test('the README recipe: prom-client\'s registry plus sluice.metrics()', async (t) => {
  let client;
  try {
    client = require('prom-client');
  } catch {
    t.skip('prom-client is not installed (npm install in bindings/node)');
    return;
  }
  const register = new client.Registry();
  client.collectDefaultMetrics({ register });
  new client.Counter({ name: 'app_requests_total', help: 'Requests', registers: [register] }).inc(3);
  const body = (await register.metrics()) + sluice.metrics();
  const { types, samples } = checkExposition(body);
  assert.strictEqual(types.get('app_requests_total'), 'counter');
  assert.strictEqual(types.get('sluice_in_flight'), 'gauge');
  assert.ok(samples > 50);
  assert.strictEqual(register.contentType.split(';')[0], 'text/plain');
});
