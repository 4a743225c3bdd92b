'use strict';
// Callbacks as an integrator receives them: a small HTTP receiver in the
// test, the SDK's EventCallbackRequest model and EventCallbackHelper (isValid
// with the API key, getCallbackType account vs app).

const { setup, sdk, assert } = require('../lib/harness');
const { startReceiver, ACK } = require('../lib/receiver');
const record = require('../lib/record');

const h = setup();
const { AccountApi, EventCallbackHelper } = sdk;

let receiver;
const { before, after } = require('node:test');
before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  if (receiver) await receiver.close();
});

/**
 * Checks one delivery as the SDK's helper would, and records it as evidence
 * for the report's callback table. Answers the EventCallbackRequest.
 */
function checkDelivery(d, { apiKey, type }) {
  assert.equal(d.parseError, undefined, `delivery could not be parsed: ${d.parseError}`);
  assert.equal(d.method, 'POST');
  assert.match(d.contentType, /^multipart\/form-data; boundary=/);
  assert.deepEqual(d.fields, ['json'], 'one multipart field named json');
  assert.deepEqual(d.shapeProblems, [], 'payload matches the SDK model EventCallbackRequest');
  const cb = d.event;
  assert.ok(cb instanceof sdk.EventCallbackRequest);
  assert.ok(cb.event instanceof sdk.EventCallbackRequestEvent);
  assert.equal(typeof cb.event.eventTime, 'string', 'event_time is a string of Unix seconds');
  assert.match(cb.event.eventTime, /^\d+$/);
  assert.match(cb.event.eventHash, /^[0-9a-f]{64}$/);
  assert.equal(EventCallbackHelper.isValid(apiKey, cb), true, 'EventCallbackHelper.isValid with the API key');
  assert.equal(EventCallbackHelper.isValid(apiKey.split('').reverse().join(''), cb), false, 'another key does not validate');
  assert.equal(EventCallbackHelper.getCallbackType(cb), type);
  record.note(type === EventCallbackHelper.EVENT_TYPE_APP_CALLBACK ? 'apiAppCreateEventCallback' : 'accountUpdateEventCallback');
  return cb;
}

h.test('setting the account callback_url sends callback_test, valid for EventCallbackHelper as an account callback', async () => {
  const url = `${receiver.url}/account-hook`;
  const { body } = await h.api(AccountApi).accountUpdate({ callbackUrl: url });
  assert.equal(body.account.callbackUrl, url);
  await h.settleCallbacks();
  await receiver.waitFor((ds) => ds.some((d) => d.path === '/account-hook' && d.event && d.event.event.eventType === 'callback_test'), 1000);
  const d = receiver.deliveries.find((x) => x.path === '/account-hook' && x.event.event.eventType === 'callback_test');
  const cb = checkDelivery(d, { apiKey: h.world.api_key, type: EventCallbackHelper.EVENT_TYPE_ACCOUNT_CALLBACK });
  assert.equal(cb.event.eventType, 'callback_test');
  const { now } = await h.control.clock();
  assert.equal(cb.event.eventTime, String(now), 'event_time is the world clock');
  assert.equal(cb.signatureRequest, undefined);
  assert.equal(cb.template, undefined);
  assert.equal(d.answered.body, ACK);
});

h.test('a receiver that fails gets the same event again after backoff on the world clock', async () => {
  let fail = 2;
  const flaky = await startReceiver({ respond: () => (fail-- > 0 ? { status: 500, body: 'down' } : null) });
  try {
    const w = await h.newWorld();
    const ctl = h.controlFor(w.api_key);
    await h.api(AccountApi, { apiKey: w.api_key }).accountUpdate({ callbackUrl: `${flaky.url}/flaky` });
    await ctl.post('/callbacks/wait', { timeout: '10s' });
    assert.equal(flaky.deliveries.length, 1, 'the first attempt is made at once');
    assert.equal(flaky.deliveries[0].answered.status, 500);
    await ctl.advance(60);
    await ctl.post('/callbacks/wait', { timeout: '10s' });
    assert.equal(flaky.deliveries.length, 2, 'the first retry comes a minute later');
    await ctl.advance(120);
    await ctl.post('/callbacks/wait', { timeout: '10s' });
    assert.equal(flaky.deliveries.length, 3, 'the second retry two minutes after that');
    const hashes = new Set(flaky.deliveries.map((d) => d.event.event.eventHash));
    assert.equal(hashes.size, 1, 'a retry carries the same event');
    const cb = checkDelivery(flaky.deliveries[2], { apiKey: w.api_key, type: EventCallbackHelper.EVENT_TYPE_ACCOUNT_CALLBACK });
    assert.equal(cb.event.eventType, 'callback_test');
    const { callbacks } = await ctl.get('/callbacks?event_type=callback_test');
    assert.equal(callbacks.length, 1);
    assert.equal(callbacks[0].state, 'delivered');
    assert.deepEqual(callbacks[0].deliveries[0].attempts.map((a) => a.status), [500, 500, 200]);
    await ctl.advance(3600);
    await ctl.post('/callbacks/wait', { timeout: '10s' });
    assert.equal(flaky.deliveries.length, 3, 'nothing more after the delivery counted');
  } finally {
    await flaky.close();
  }
});

h.test('after the primary API key changes, events are signed with the new key', async () => {
  const w = await h.newWorld();
  const ctl = h.controlFor(w.api_key);
  const added = await ctl.post('/api_keys', { name: 'rotated' });
  const fresh = added.api_keys.find((k) => k.key !== w.api_key);
  assert.ok(fresh, JSON.stringify(added));
  await ctl.post(`/api_keys/${fresh.key}/primary`);
  await h.api(AccountApi, { apiKey: w.api_key }).accountUpdate({ callbackUrl: `${receiver.url}/rotated` });
  await ctl.post('/callbacks/wait', { timeout: '10s' });
  const d = receiver.deliveries.find((x) => x.path === '/rotated');
  assert.ok(d, 'delivered');
  checkDelivery(d, { apiKey: fresh.key, type: EventCallbackHelper.EVENT_TYPE_ACCOUNT_CALLBACK });
  assert.equal(EventCallbackHelper.isValid(w.api_key, d.event), false, 'the old key no longer validates');
});
