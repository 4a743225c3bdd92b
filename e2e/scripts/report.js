#!/usr/bin/env node
'use strict';
// The coverage report: for each of the 73 operations of the official
// description, whether a passing e2e test called it successfully through the
// SDK. It reads only what the tests recorded (lib/record.js writes one file
// per test process into e2e/.tmp/coverage), never a hand-kept list.
//
//   node scripts/report.js      print the table of the last run and write COVERAGE.md
//                               (npm run coverage; npm test writes .tmp/COVERAGE.md instead)

const fs = require('node:fs');
const path = require('node:path');
const { COVERAGE_DIR, sdkOperations } = require('../lib/record');
const { REPO_ROOT, E2E_DIR } = require('../lib/sandbox');

const SPEC = path.join(REPO_ROOT, '..', 'shared', 'reference', 'dropbox-sign', 'openapi.yaml');
const SDK_VERSION = require('@dropbox/sign/package.json').version;

/** The callback definitions (x-webhooks) of the official description. */
const WEBHOOKS = [
  { id: 'accountUpdateEventCallback', what: 'account callback (callback_url of the account)' },
  { id: 'apiAppCreateEventCallback', what: 'app callback (callback_url of the API app)' },
];

/**
 * The embedded flows the browser tests (browser/) prove with the official
 * hellosign-embedded library in headless Chromium. A passing test notes its
 * flow (record.note); these are not SDK operations, so they are reported
 * beside the table, never counted in it.
 */
const BROWSER_FLOWS = [
  { id: 'browser:sign', what: 'sign' },
  { id: 'browser:decline', what: 'decline' },
  { id: 'browser:cancel', what: 'cancel' },
  { id: 'browser:expired', what: 'expired link' },
  { id: 'browser:used', what: 'used link' },
  { id: 'browser:edit_template', what: 'edit template' },
  { id: 'browser:claim_draft', what: 'claim draft' },
];

/** The pinned hellosign-embedded version, if it is installed. */
function embeddedVersion() {
  try {
    return require('hellosign-embedded/package.json').version;
  } catch {
    return undefined;
  }
}

/**
 * Where the route table of the sandbox the tests ran against is kept
 * (GET /_sandbox/operations, saved by scripts/run-tests.js), for reports
 * made without the official description.
 */
const SANDBOX_OPERATIONS = path.join(E2E_DIR, '.tmp', 'operations.json');

/**
 * The saved route table of the last run's sandbox, if any: the operations of
 * the official description (those only the SDK description has, sdk_only,
 * are not in it, nor in this SDK version).
 */
function sandboxOperations(file = SANDBOX_OPERATIONS) {
  try {
    const list = JSON.parse(fs.readFileSync(file, 'utf8')).operations.filter((o) => !o.sdk_only);
    return Array.isArray(list) && list.length ? list : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The operations of the official description, with tag, method and path,
 * read from the paths: section of openapi.yaml. Without the file, the
 * route table of the sandbox the tests ran against (GET
 * /_sandbox/operations: the same operations, tags, methods and paths, pinned
 * to the description by the Go tests), or at last the SDK's own operation
 * list (one method per operationId; no methods or paths).
 */
function officialOperations({ spec = SPEC, saved = SANDBOX_OPERATIONS } = {}) {
  if (!fs.existsSync(spec)) {
    const fromSandbox = sandboxOperations(saved);
    if (fromSandbox) {
      return {
        source: `the sandbox's route table (GET /_sandbox/operations; ${spec} not found)`,
        ops: fromSandbox.map((o) => ({ id: o.operation_id, tag: o.tag, method: o.method, path: o.path })),
      };
    }
    return {
      source: `the SDK's API classes (${spec} not found)`,
      ops: sdkOperations().map(([api, op]) => ({ id: op, tag: api.replace(/Api$/, ''), method: '', path: '' })),
    };
  }
  const text = fs.readFileSync(spec, 'utf8');
  const end = text.search(/^components:/m);
  const lines = text.slice(0, end < 0 ? undefined : end).split('\n');
  const ops = [];
  let curPath = '';
  let cur = null;
  let inTags = false;
  for (const line of lines) {
    let m;
    if ((m = /^ {2}['"]?(\/[^'"\s]*)['"]?:\s*$/.exec(line))) {
      curPath = m[1];
      cur = null;
    } else if ((m = /^ {4}(get|put|post|delete|patch|head|options):\s*$/.exec(line))) {
      cur = { id: '', tag: '', method: m[1].toUpperCase(), path: curPath };
      ops.push(cur);
      inTags = false;
    } else if (cur && (m = /^ {6}operationId:\s*(\S+)/.exec(line))) {
      cur.id = m[1];
      inTags = false;
    } else if (cur && /^ {6}tags:\s*$/.test(line)) {
      inTags = true;
    } else if (cur && inTags && (m = /^ {8}- ['"]?([^'"]+?)['"]?\s*$/.exec(line))) {
      if (!cur.tag) cur.tag = m[1];
    } else if (/^ {6}\S/.test(line)) {
      inTags = false;
    }
  }
  return { source: path.relative(E2E_DIR, spec), ops: ops.filter((o) => o.id) };
}

/**
 * The row order of the report, whatever the operations came from: by tag
 * (compared without spaces or case, so the SDK's class names sort like the
 * official tags), then by operationId, which is the order of the sandbox's
 * route table. COVERAGE.md then changes only when results do.
 */
function byTagThenId(a, b) {
  const ta = a.tag.replace(/\s+/g, '').toLowerCase();
  const tb = b.tag.replace(/\s+/g, '').toLowerCase();
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** All records of the last run. */
function loadRuns() {
  if (!fs.existsSync(COVERAGE_DIR)) return [];
  return fs.readdirSync(COVERAGE_DIR).filter((f) => f.endsWith('.json')).sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(COVERAGE_DIR, f), 'utf8')));
}

function build() {
  const { source, ops: found } = officialOperations();
  const ops = [...found].sort(byTagThenId);
  const byOp = new Map();
  const entry = (id) => {
    if (!byOp.has(id)) byOp.set(id, { ok: 0, errors: 0, failedTests: new Set(), findingTests: new Set(), passedTests: new Set(), errorNames: new Set() });
    return byOp.get(id);
  };
  const notes = new Map();
  const browserSkips = new Set();
  let testsTotal = 0;
  const testStatus = {};
  const runs = loadRuns();
  for (const run of runs) {
    const tests = new Map(run.tests.map((t) => [t.id, t]));
    testsTotal += run.tests.length;
    for (const t of run.tests) testStatus[t.status] = (testStatus[t.status] || 0) + 1;
    for (const c of run.calls) {
      const t = c.test === null ? null : tests.get(c.test);
      if (!t || t.status === 'skipped') continue;
      const e = entry(c.op);
      const label = `${run.file.replace(/\.test\.js$/, '')}: ${t.name}`;
      if (t.status === 'passed') {
        e.passedTests.add(label);
        if (c.ok) e.ok++;
        else if (c.status) {
          e.errors++;
          if (c.errorName) e.errorNames.add(`${c.status} ${c.errorName}`);
        }
      } else if (t.status === 'finding') {
        e.findingTests.add(`${label} (${t.finding})`);
      } else {
        e.failedTests.add(label);
      }
    }
    for (const n of run.notes || []) {
      const t = tests.get(n.test);
      if (n.id.startsWith('browser:skipped:') && t && t.status === 'skipped') browserSkips.add(n.id.slice('browser:skipped:'.length));
      if (t && t.status === 'passed') {
        if (!notes.has(n.id)) notes.set(n.id, new Set());
        notes.get(n.id).add(`${run.file.replace(/\.test\.js$/, '')}: ${t.name}`);
      }
    }
  }
  const rows = ops.map((o) => {
    const e = entry(o.id);
    let result;
    if (e.ok > 0) result = 'pass';
    else if (e.failedTests.size > 0) result = 'FAIL';
    else if (e.findingTests.size > 0) result = 'finding';
    else if (e.errors > 0) result = 'errors only';
    else result = 'not yet';
    return { ...o, result, ok: e.ok, errors: e.errors, errorNames: [...e.errorNames].sort(), tests: e.passedTests.size, failed: [...e.failedTests], findings: [...e.findingTests] };
  });
  const webhooks = WEBHOOKS.map((w) => ({ ...w, result: notes.has(w.id) ? 'pass' : 'not yet', tests: notes.has(w.id) ? notes.get(w.id).size : 0 }));
  const browser = {
    library: embeddedVersion(),
    chromium: [...notes.keys()].filter((id) => id.startsWith('browser:chromium:')).map((id) => id.slice('browser:chromium:'.length)).sort()[0],
    skipped: [...browserSkips].sort(),
    flows: BROWSER_FLOWS.map((f) => ({ ...f, result: notes.has(f.id) ? 'pass' : 'not yet' })),
  };
  const passed = rows.filter((r) => r.result === 'pass').length;
  return { source, rows, webhooks, browser, passed, total: rows.length, testsTotal, testStatus, runs: runs.length };
}

/** One line on the embedded flows proved in a real browser. */
function browserLine(b) {
  const what = `embedded flows in a real browser (hellosign-embedded ${b.library || '(not installed)'}${b.chromium ? `, Chromium ${b.chromium}` : ''})`;
  if (b.flows.every((f) => f.result !== 'pass') && b.skipped.length) return `${what}: skipped (${b.skipped.join('; ')})`;
  return `${what}: ${b.flows.map((f) => `${f.what} ${f.result === 'pass' ? '✓' : '✗'}`).join(', ')}`;
}

const MARK = { pass: '✅ pass', FAIL: '❌ FAIL', finding: '⚠️ finding', 'errors only': '◐ errors only', 'not yet': '· not yet' };

function renderText(r) {
  const out = [];
  out.push(`SDK coverage (@dropbox/sign ${SDK_VERSION}): ${r.passed}/${r.total} operations called successfully by passing tests`);
  out.push(`operations from ${r.source}; ${r.testsTotal} tests in ${r.runs} files (${Object.entries(r.testStatus).map(([k, v]) => `${v} ${k}`).join(', ')})`);
  const w = Math.max(...r.rows.map((x) => x.id.length));
  for (const x of r.rows) {
    const detail = x.result === 'pass' || x.result === 'errors only' ? `${x.ok} ok, ${x.errors} error calls in ${x.tests} tests` : x.failed.concat(x.findings).join('; ');
    out.push(`  ${x.id.padEnd(w)}  ${x.result.padEnd(11)}  ${detail}`);
  }
  for (const x of r.webhooks) out.push(`  ${x.id.padEnd(w)}  ${x.result.padEnd(11)}  ${x.what}`);
  out.push(browserLine(r.browser));
  return out.join('\n');
}

function renderMarkdown(r) {
  const out = [];
  out.push('# SDK coverage');
  out.push('');
  out.push(`Generated by \`npm test\` in \`e2e/\` (see [README.md](README.md)). Do not edit by hand.`);
  out.push('');
  out.push(`**${r.passed}/${r.total}** operations of the official description are called successfully through the official Node SDK \`@dropbox/sign@${SDK_VERSION}\` by tests that pass.`);
  out.push('An operation counts only when a passing test made a 2xx call of it through the SDK method of the same name and the raw answer matched the SDK model exactly;');
  out.push('"error calls" are calls that answered an error the test expected (checked as the SDK surfaces it).');
  out.push('');
  out.push('| Operation | Tag | Method and path | Result | 2xx calls | Error calls (checked) | Passing tests |');
  out.push('|---|---|---|---|---:|---|---:|');
  for (const x of r.rows) {
    const errs = x.errors ? `${x.errors}${x.errorNames.length ? ` (${x.errorNames.join(', ')})` : ''}` : '';
    let result = MARK[x.result];
    if (x.result === 'finding') result += ` (${x.findings.map((f) => f.replace(/^.*\((F\d+).*$/, '$1')).join(', ')})`;
    out.push(`| \`${x.id}\` | ${x.tag} | ${x.method} \`${x.path}\` | ${result} | ${x.ok || ''} | ${errs} | ${x.tests || ''} |`);
  }
  out.push('');
  out.push('## Callbacks');
  out.push('');
  out.push('Events received by an HTTP receiver in the tests and accepted by the SDK\'s `EventCallbackHelper` (`isValid` with the API key, `getCallbackType`).');
  out.push('');
  out.push('| Callback | What | Result | Passing tests |');
  out.push('|---|---|---|---:|');
  for (const x of r.webhooks) out.push(`| \`${x.id}\` | ${x.what} | ${MARK[x.result]} | ${x.tests || ''} |`);
  out.push('');
  out.push('## Embedded flows in a real browser');
  out.push('');
  out.push('The sandbox\'s embedded pages opened by the official `hellosign-embedded` library in headless Chromium (`browser/`); the SDK calls these tests make count in the table above like any other.');
  out.push('');
  out.push(browserLine(r.browser));
  out.push('');
  return out.join('\n');
}

function writeMarkdown(r, file = path.join(E2E_DIR, 'COVERAGE.md')) {
  fs.writeFileSync(file, renderMarkdown(r));
}

module.exports = { build, renderText, renderMarkdown, writeMarkdown, officialOperations, byTagThenId, SANDBOX_OPERATIONS };

if (require.main === module) {
  const r = build();
  console.log(renderText(r));
  writeMarkdown(r);
}
