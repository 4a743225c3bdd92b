'use strict';
// What the tests really did through the SDK, for the coverage report.
//
// Every API method of the SDK (one per official operationId: the SDK names
// its methods after them) is wrapped once per process. Each call is recorded
// with its outcome and with the test it ran in (tracked with
// AsyncLocalStorage by the test() wrapper of lib/harness.js). When the process
// exits, the records go to e2e/.tmp/coverage/<file>.<pid>.json; the report
// (scripts/report.js) counts an operation as covered only when a test that
// passed made a successful (2xx) call of it whose answer carried the
// rate-limit headers and matched the SDK model exactly. Nothing here is
// maintained by hand.

const { AsyncLocalStorage } = require('node:async_hooks');
const fs = require('node:fs');
const path = require('node:path');
const sdk = require('@dropbox/sign');
const { checkShape } = require('./shape');
const { TMP_DIR } = require('./sandbox');

const COVERAGE_DIR = path.join(TMP_DIR, 'coverage');

/** Prototype members of the API classes that are not operations. */
const NOT_OPERATIONS = new Set([
  'constructor', 'useQuerystring', 'basePath', 'defaultHeaders', 'setDefaultAuthentication',
  'setApiKey', 'username', 'password', 'accessToken', 'addInterceptor',
]);

/**
 * The official description declares these headers on every 2xx answer
 * (axios lower-cases the names; the real casing, X-Ratelimit-Reset, is
 * pinned by the Go tests).
 */
const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/**
 * The SDK's model classes by constructor. The published bundle (esbuild)
 * renames the classes (_AccountGetResponse), so constructor.name is not the
 * type name; the typeMap is.
 */
const MODEL_NAMES = new Map(Object.entries(sdk.typeMap).map(([name, cls]) => [cls, name]));

const current = new AsyncLocalStorage();
const calls = [];
const tests = [];
const notes = [];
let instrumented = false;

/** The SDK's API classes by name (AccountApi, OAuthApi, ...). */
function apiClasses() {
  return Object.keys(sdk).filter((k) => /Api$/.test(k) && typeof sdk[k] === 'function').map((k) => [k, sdk[k]]);
}

/** Every SDK operation as [className, methodName]. */
function sdkOperations() {
  const ops = [];
  for (const [name, cls] of apiClasses()) {
    for (const m of Object.getOwnPropertyNames(cls.prototype)) {
      if (!NOT_OPERATIONS.has(m) && typeof Object.getOwnPropertyDescriptor(cls.prototype, m).value === 'function') ops.push([name, m]);
    }
  }
  return ops;
}

/** Decodes the raw body of an error answer (a Buffer for binary operations). */
function rawErrorBody(e) {
  let data = e && e.response && e.response.data;
  if (data instanceof ArrayBuffer) data = Buffer.from(data);
  if (Buffer.isBuffer(data)) {
    try {
      return JSON.parse(data.toString('utf8'));
    } catch {
      return undefined;
    }
  }
  return data;
}

/**
 * Wraps every operation method of every API class. A successful call whose
 * body is an SDK model is also checked strictly against that model; a
 * mismatch makes the call throw, so a broken field fails the test that
 * made the call.
 */
function instrument() {
  if (instrumented) return;
  instrumented = true;
  for (const [cls, op] of sdkOperations()) {
    const proto = sdk[cls].prototype;
    const original = proto[op];
    proto[op] = async function instrumentedOperation(...args) {
      const ctx = current.getStore();
      const rec = { op, api: cls, test: ctx ? ctx.id : null };
      calls.push(rec);
      try {
        const result = await original.apply(this, args);
        rec.status = result.response.status;
        rec.ok = rec.status >= 200 && rec.status < 300;
        const missing = RATE_LIMIT_HEADERS.filter((name) => !/^\d+$/.test(String(result.response.headers[name] ?? '')));
        if (missing.length) {
          rec.ok = false;
          rec.shapeProblems = [`missing or non-integer rate-limit headers: ${missing.join(', ')}`];
          const err = new Error(`${cls}.${op}: every 2xx answer carries the rate-limit headers; missing or not an integer: ${missing.join(', ')}`);
          err.shapeProblems = rec.shapeProblems;
          throw err;
        }
        const body = result.body;
        const model = body && typeof body === 'object' && !Buffer.isBuffer(body) ? MODEL_NAMES.get(body.constructor) : undefined;
        if (model) {
          const problems = checkShape(result.response.data, model);
          if (problems.length) {
            rec.ok = false;
            rec.shapeProblems = problems;
            const err = new Error(`${cls}.${op}: the response does not match the SDK model ${model}:\n  ${problems.join('\n  ')}`);
            err.shapeProblems = problems;
            throw err;
          }
        }
        return result;
      } catch (e) {
        if (e instanceof sdk.HttpError) {
          rec.status = e.statusCode;
          rec.ok = false;
          const raw = rawErrorBody(e);
          rec.errorName = raw && raw.error && raw.error.error_name;
          // Diagnostics only: the SDK's message says nothing about the answer.
          e.message = `${e.message}: ${cls}.${op} answered ${e.statusCode} ${JSON.stringify(raw)}`;
          const problems = raw === undefined ? ['error body is not JSON'] : checkShape(raw, 'ErrorResponse');
          if (problems.length) {
            rec.shapeProblems = problems;
            e.shapeProblems = problems;
          }
        } else if (!rec.shapeProblems) {
          rec.ok = false;
          rec.transportError = String(e && e.message);
        }
        throw e;
      }
    };
    Object.defineProperty(proto[op], 'name', { value: op });
  }
  process.on('exit', writeRecords);
}

/** Runs fn as test number id, so that SDK calls inside it are attributed to it. */
function runAsTest(meta, fn) {
  const ctx = { id: tests.length, ...meta, status: 'running' };
  tests.push(ctx);
  return { ctx, run: () => current.run(ctx, fn) };
}

/**
 * Records evidence that is not an SDK method call (for example a callback
 * accepted by EventCallbackHelper), attributed to the running test.
 */
function note(id) {
  const ctx = current.getStore();
  notes.push({ id, test: ctx ? ctx.id : null });
}

function writeRecords() {
  if (!calls.length && !tests.length) return;
  fs.mkdirSync(COVERAGE_DIR, { recursive: true });
  const file = path.basename(process.argv[1] || 'unknown');
  const out = {
    file,
    pid: process.pid,
    tests: tests.map(({ id, name, file: f, status, finding }) => ({ id, name, file: f, status, finding })),
    calls,
    notes,
  };
  fs.writeFileSync(path.join(COVERAGE_DIR, `${file}.${process.pid}.json`), JSON.stringify(out, null, 1));
}

module.exports = { instrument, runAsTest, note, sdkOperations, apiClasses, rawErrorBody, COVERAGE_DIR };
