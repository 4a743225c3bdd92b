'use strict';
// Scenario rules as the SDK sees them: the faults an integrator tests their
// failure paths with must reach the SDK exactly as real API failures do.

const { setup, expectHttpError, signer, sdk, assert } = require('../lib/harness');

const h = setup({ config: { fetch_file_urls: false } });
const { AccountApi, SignatureRequestApi } = sdk;

h.test('a world made with the ready quota-exhausted scenario refuses paid requests with 402 payment_required', async () => {
  const w = await h.newWorld({ scenarios: ['quota-exhausted'] });
  await h.controlFor(w.api_key).config({ fetch_file_urls: false });
  const api = h.api(SignatureRequestApi, { apiKey: w.api_key });
  const me = (await h.api(AccountApi, { apiKey: w.api_key }).accountGet()).body.account;
  assert.equal(me.quotas.apiSignatureRequestsLeft, 0);
  await expectHttpError(api.signatureRequestSend({ title: 'Paid', signers: [signer('P', 'p@example.com')], fileUrls: ['https://example.com/p.pdf'] }), { status: 402, errorName: 'payment_required' });
  const free = await api.signatureRequestSend({ title: 'Free', signers: [signer('F', 'f@example.com')], fileUrls: ['https://example.com/f.pdf'], testMode: true });
  assert.equal(free.body.signatureRequest.testMode, true);
});

h.test('the ready rate-limited scenario gives 429 exceeded_rate through the SDK', async () => {
  const w = await h.newWorld({ scenarios: ['rate-limited'] });
  const api = h.api(AccountApi, { apiKey: w.api_key });
  const first = await api.accountGet();
  assert.equal(first.response.headers['x-ratelimit-limit'], '3');
  await api.accountGet();
  await api.accountGet();
  await expectHttpError(api.accountGet(), { status: 429, errorName: 'exceeded_rate' });
});

h.test('a rule answering an API error reaches the SDK as an HttpError with that error', async () => {
  await h.control.post('/scenarios', {
    name: 'conflict-on-get',
    rules: [{ name: 'conflict', match: { operation: 'signatureRequestList' }, respond: { status: 409, error_name: 'conflict', error_msg: 'Try again later.' }, times: 1 }],
  });
  const api = h.api(SignatureRequestApi);
  const e = await expectHttpError(api.signatureRequestList(), { status: 409, errorName: 'conflict', msg: /Try again later/ });
  assert.ok(e.body instanceof sdk.ErrorResponse);
  const ok = await api.signatureRequestList();
  assert.equal(ok.response.status, 200, 'times: 1 limits the fault to one call');
});

h.test('a rule answering 5xx reaches the SDK as its raw AxiosError (the SDK maps only 4XX to HttpError)', async () => {
  await h.control.post('/scenarios', {
    name: 'outage',
    rules: [{ name: 'down', match: { operation: 'accountGet' }, respond: { status: 503, error_name: 'unavailable', error_msg: 'Down for maintenance.' }, times: 1 }],
  });
  let err;
  try {
    await h.api(AccountApi).accountGet();
  } catch (e) {
    err = e;
  }
  assert.ok(err, 'the call failed');
  assert.ok(!(err instanceof sdk.HttpError), 'not an HttpError');
  assert.equal(err.isAxiosError, true);
  assert.equal(err.response.status, 503);
  assert.equal(err.response.data.error.error_name, 'unavailable');
  const ok = await h.api(AccountApi).accountGet();
  assert.equal(ok.response.status, 200);
});

h.test('scenarios are listed and removed through the control plane', async () => {
  const { scenarios } = await h.control.get('/scenarios');
  assert.ok(scenarios.map((s) => s.name).includes('outage'));
  await h.control.call('DELETE', '/scenarios/outage');
  assert.ok(!(await h.control.get('/scenarios')).scenarios.map((s) => s.name).includes('outage'));
});
