'use strict';
// The per-file test harness: one sandbox (shared or private), one fresh world
// per test file, SDK API instances pointed at it, and a test() that records
// which SDK operations each test called and whether the test passed.
//
//   const h = require('../lib/harness').setup();
//   h.test('gets the account', async () => {
//     const { body } = await h.api(AccountApi).accountGet();
//   });

const nodeTest = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const sdk = require('@dropbox/sign');
const sandbox = require('./sandbox');
const record = require('./record');

record.instrument();

let privateServer; // started by this process when no shared URL is given
let privateServerPromise;

/** The sandbox base URL (no trailing slash, no /v3). */
async function baseURL() {
  const shared = process.env.SIGNSANDBOX_E2E_URL;
  if (shared) return sandbox.baseOf(shared);
  if (!privateServerPromise) {
    privateServerPromise = (async () => {
      const bin = sandbox.buildBinary();
      privateServer = await sandbox.startBinary(bin);
      return privateServer.url;
    })();
  }
  return privateServerPromise;
}

/**
 * Registers before/after hooks for a test file and returns its harness.
 * options.world is the body of POST /_sandbox/worlds; options.config a
 * partial world configuration applied with PATCH /_sandbox/config.
 */
function setup(options = {}) {
  const file = path.basename((require.main && require.main.filename) || process.argv[1] || 'unknown');
  const h = {
    file,
    base: undefined,
    world: undefined,
    control: undefined,

    /** An API class instance pointed at this world, authenticated as given. */
    api(Cls, { apiKey, accessToken } = {}) {
      const a = new Cls();
      a.basePath = Cls === sdk.OAuthApi ? h.base : `${h.base}/v3`;
      if (accessToken) a.accessToken = accessToken;
      else a.username = apiKey === undefined ? h.world.api_key : apiKey;
      return a;
    },

    /**
     * node:test's test(), recording the SDK calls the test makes.
     * opts.finding marks a known mismatch between the SDK and the sandbox,
     * reported to its owner: the test runs as a node:test "todo" (its failure
     * is shown but does not fail the run) until the sandbox is fixed.
     */
    test(name, opts, fn) {
      if (typeof opts === 'function') {
        fn = opts;
        opts = {};
      }
      const { finding, ...testOpts } = opts;
      if (finding) testOpts.todo = `finding: ${finding}`;
      return nodeTest.test(name, testOpts, async (t) => {
        const { ctx, run } = record.runAsTest({ name, file, finding }, () => fn(t));
        const skip = t.skip.bind(t);
        t.skip = (msg) => {
          ctx.status = 'skipped';
          skip(msg);
        };
        try {
          await run();
          if (ctx.status === 'running') ctx.status = 'passed';
        } catch (e) {
          ctx.status = finding ? 'finding' : 'failed';
          throw e;
        }
      });
    },

    /**
     * Waits until every callback attempt due at the world's current time has
     * been made (POST /_sandbox/callbacks/wait), instead of sleeping.
     */
    settleCallbacks(timeout = '10s') {
      return h.control.post('/callbacks/wait', { timeout });
    },

    /** The primary API key of another account of this world (control plane). */
    async keyOf(accountId) {
      const { api_keys: keys } = await h.control.get(`/api_keys?account_id=${encodeURIComponent(accountId)}`);
      const k = keys.find((x) => x.primary) || keys[0];
      assert.ok(k, `account ${accountId} has an API key`);
      return k.key;
    },

    /** A new world besides this file's own (for isolation checks). */
    newWorld(body = {}) {
      return sandbox.createWorld(h.base, body);
    },

    /** The control plane client of another world's key. */
    controlFor(apiKey) {
      return new sandbox.Control(h.base, apiKey);
    },
  };

  let markReady;
  let markFailed;
  const ready = new Promise((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  ready.catch(() => {});
  /** Like node:test's before(), but runs once this file's world exists. */
  h.before = (fn) => nodeTest.before(async () => {
    await ready;
    await fn();
  });
  nodeTest.before(async () => {
    try {
      h.base = await baseURL();
      h.world = await sandbox.createWorld(h.base, options.world || {});
      h.control = new sandbox.Control(h.base, h.world.api_key);
      if (options.config) await h.control.config(options.config);
      markReady();
    } catch (e) {
      markFailed(e);
      throw e;
    }
  });
  nodeTest.after(async () => {
    if (privateServer) await sandbox.stopBinary(privateServer);
  });
  return h;
}

/**
 * Awaits promise and asserts it failed as the SDK reports API errors: an
 * HttpError with statusCode and a deserialized ErrorResponse body. Answers the
 * error for further checks.
 */
async function expectHttpError(promise, { status, errorName, errorPath, msg } = {}) {
  let err;
  try {
    await promise;
  } catch (e) {
    err = e;
  }
  assert.ok(err, `expected an HttpError ${status || ''} ${errorName || ''}, but the call succeeded`);
  assert.ok(err instanceof sdk.HttpError, `expected an HttpError, got ${err && err.stack}`);
  if (status !== undefined) assert.equal(err.statusCode, status, `statusCode; body: ${JSON.stringify(record.rawErrorBody(err))}`);
  assert.equal(err.shapeProblems, undefined, `error body shape: ${err.shapeProblems}`);
  const body = err.body;
  const raw = record.rawErrorBody(err);
  if (errorName !== undefined) {
    if (err.response.config.responseType === 'arraybuffer') {
      // The SDK asks binary operations for an ArrayBuffer and so cannot
      // deserialize their error bodies; integrators read the raw JSON.
      assert.equal(raw.error.error_name, errorName);
    } else {
      assert.ok(body instanceof sdk.ErrorResponse, 'body is an ErrorResponse');
      assert.ok(body.error instanceof sdk.ErrorResponseError, 'body.error is an ErrorResponseError');
      assert.equal(body.error.errorName, errorName, `errorName; msg: ${body.error.errorMsg}`);
      assert.equal(typeof body.error.errorMsg, 'string');
      assert.ok(body.error.errorMsg.length > 0, 'errorMsg is not empty');
    }
  }
  if (errorPath !== undefined) {
    const got = body && body.error ? body.error.errorPath : raw && raw.error && raw.error.error_path;
    assert.equal(got, errorPath, 'errorPath');
  }
  if (msg !== undefined) {
    const got = body && body.error ? body.error.errorMsg : raw && raw.error && raw.error.error_msg;
    assert.match(got, msg);
  }
  return err;
}

/** A signer of a request (SubSignatureRequestSigner); order only when given. */
function signer(name, email, order) {
  const s = Object.assign(new sdk.SubSignatureRequestSigner(), { name, emailAddress: email });
  if (order !== undefined) s.order = order;
  return s;
}

/** The fixture accounts (fixtures/world.json); their keys differ per world. */
const FIXTURE = {
  owner: { id: '4dc1d0601aba5f470c97af030a257f883daf663d', email: 'owner@sandbox.example' },
  teammate: { id: '6ff46ba9ed6e43517c09f9b4d2db2a081f1d5ab0', email: 'teammate@sandbox.example' },
  outsider: { id: '9bebb60aeacd74239d65616bbe584509cb5ea24a', email: 'outsider@elsewhere.example' },
};

module.exports = { setup, expectHttpError, signer, sdk, assert, FIXTURE };
