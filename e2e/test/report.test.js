'use strict';
// The coverage report's rows come in one order whatever the list of
// operations came from (the official description, the sandbox's route table
// from GET /_sandbox/operations, or the SDK's API classes), so COVERAGE.md
// changes only when results change, also in a checkout without
// ../shared/reference.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { setup, assert } = require('../lib/harness');
const report = require('../scripts/report');
const { sdkOperations } = require('../lib/record');

const h = setup();

h.test('the report orders operations the same from every source', async () => {
  const res = await fetch(`${h.base}/_sandbox/operations`);
  assert.equal(res.status, 200);
  const all = (await res.json()).operations;
  // templateUpdate is described only in openapi-sdk.yaml (sdk_only), and
  // @dropbox/sign 1.11.0 has no method for it.
  assert.deepEqual(all.filter((o) => o.sdk_only).map((o) => o.operation_id), ['templateUpdate']);
  const operations = all.filter((o) => !o.sdk_only);
  assert.equal(operations.length, 73);
  const fromSandbox = operations.map((o) => ({ id: o.operation_id, tag: o.tag, method: o.method, path: o.path }));
  const fromSDK = sdkOperations().map(([api, op]) => ({ id: op, tag: api.replace(/Api$/, ''), method: '', path: '' }));
  const order = (ops) => [...ops].sort(report.byTagThenId).map((o) => o.id);

  assert.deepEqual(order(fromSandbox), fromSandbox.map((o) => o.id), 'the route table is already in report order');
  assert.deepEqual(order(fromSDK), order(fromSandbox));
  const { source, ops: fromSpec } = report.officialOperations();
  if (!source.includes('not found')) {
    // With the official description at hand, the sandbox's list gives
    // exactly the same rows.
    const key = (ops) => [...ops].sort(report.byTagThenId).map((o) => `${o.id} ${o.tag} ${o.method} ${o.path}`);
    assert.deepEqual(key(fromSandbox), key(fromSpec));
  }
});

h.test('without the official description the report reads the saved route table', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-'));
  try {
    const saved = path.join(tmp, 'operations.json');
    const absent = path.join(tmp, 'openapi.yaml');
    // As scripts/run-tests.js saves it: the answer of GET /_sandbox/operations.
    fs.writeFileSync(saved, await (await fetch(`${h.base}/_sandbox/operations`)).text());
    const got = report.officialOperations({ spec: absent, saved });
    assert.match(got.source, /the sandbox's route table/);
    assert.equal(got.ops.length, 73);
    assert.ok(got.ops.every((o) => o.id && o.tag && o.method && o.path));
    const sdkOnly = report.officialOperations({ spec: absent, saved: path.join(tmp, 'none.json') });
    assert.match(sdkOnly.source, /the SDK's API classes/);
    assert.deepEqual([...sdkOnly.ops].sort(report.byTagThenId).map((o) => o.id), [...got.ops].sort(report.byTagThenId).map((o) => o.id));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
