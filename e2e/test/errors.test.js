'use strict';
// The error envelope and headers as the SDK surfaces them: HttpError with
// statusCode and a deserialized ErrorResponse; rate-limit headers on the
// response; worlds isolated from each other.

const { setup, expectHttpError, sdk, assert } = require('../lib/harness');

const h = setup();
const { AccountApi } = sdk;

h.test('an unknown API key is a 401 unauthorized HttpError', async () => {
  const err = await expectHttpError(h.api(AccountApi, { apiKey: 'f'.repeat(64) }).accountGet(), { status: 401, errorName: 'unauthorized' });
  assert.deepEqual(Object.keys(err.response.data), ['error']);
  assert.deepEqual(Object.keys(err.response.data.error).sort(), ['error_msg', 'error_name']);
  assert.match(err.response.headers['content-type'], /^application\/json/);
});

h.test('no credentials at all is a 401 unauthorized HttpError', async () => {
  await expectHttpError(h.api(AccountApi, { apiKey: '' }).accountGet(), { status: 401, errorName: 'unauthorized' });
});

h.test('an unknown OAuth access token is a 401 unauthorized HttpError', async () => {
  await expectHttpError(h.api(AccountApi, { accessToken: 'a'.repeat(64) }).accountGet(), { status: 401, errorName: 'unauthorized' });
});

h.test('a 400 names the offending field in errorPath', async () => {
  const err = await expectHttpError(h.api(AccountApi).accountVerify({ emailAddress: '' }), { status: 400, errorName: 'bad_request', errorPath: 'email_address' });
  assert.ok(err.body.error instanceof sdk.ErrorResponseError);
});

h.test('a 404 is an HttpError with not_found', async () => {
  await expectHttpError(h.api(AccountApi).accountGet(undefined, 'nobody@nowhere.example'), { status: 404, errorName: 'not_found' });
});

h.test('successful answers carry the rate-limit headers (X-Ratelimit-Reset casing as the real API)', async () => {
  const { response } = await h.api(AccountApi).accountGet();
  // axios lower-cases header names; the raw casing is pinned by the Go tests.
  const limit = Number(response.headers['x-ratelimit-limit']);
  const remaining = Number(response.headers['x-ratelimit-remaining']);
  const reset = Number(response.headers['x-ratelimit-reset']);
  assert.ok(Number.isInteger(limit) && limit > 0, `limit ${limit}`);
  assert.ok(Number.isInteger(remaining) && remaining >= 0 && remaining < limit, `remaining ${remaining}`);
  const { now } = await h.control.clock();
  assert.ok(Number.isInteger(reset) && reset > now, `reset ${reset} after now ${now}`);
  const again = await h.api(AccountApi).accountGet();
  assert.equal(Number(again.response.headers['x-ratelimit-remaining']), remaining - 1);
});

h.test('an enforced rate limit gives 429 exceeded_rate, and the window resets on the world clock', async () => {
  const w = await h.newWorld();
  const ctl = h.controlFor(w.api_key);
  await ctl.config({ rate_limit: { enforce: true, limit: 2 } });
  const api = h.api(AccountApi, { apiKey: w.api_key });
  await api.accountGet();
  await api.accountGet();
  await expectHttpError(api.accountGet(), { status: 429, errorName: 'exceeded_rate' });
  await ctl.advance(61);
  const ok = await api.accountGet();
  assert.equal(ok.response.status, 200);
});

h.test('worlds are isolated: an account created in one world is unknown in another', async () => {
  const other = await h.newWorld();
  await h.api(AccountApi).accountCreate({ emailAddress: 'only.here@example.com' });
  assert.equal((await h.api(AccountApi).accountVerify({ emailAddress: 'only.here@example.com' })).body.account.emailAddress, 'only.here@example.com');
  const there = await h.api(AccountApi, { apiKey: other.api_key }).accountVerify({ emailAddress: 'only.here@example.com' });
  assert.equal(there.body.account, undefined);
  assert.notEqual(other.api_key, h.world.api_key);
});
